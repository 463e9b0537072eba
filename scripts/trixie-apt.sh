#!/usr/bin/env bash
# Runs apt-get or apt-cache against Debian trixie without touching the system's apt configuration:
# a private APT_CONFIG with its own sources list, state and cache under DIR. trixie carries what
# bookworm lacks (jpeg-xl 0.11.2 with jpegli and highway 1.2.0 for codecs/build.sh, libjxl-devtools'
# ssimulacra2 for bench/ssimulacra2.mjs). The mirror is the system's own.
#
#   bash scripts/trixie-apt.sh DIR apt-get source --tar-only --download-only jpeg-xl=0.11.2-0.1~deb13u3
#   bash scripts/trixie-apt.sh DIR apt-cache depends --recurse libjxl-devtools
set -euo pipefail

DIR=$(mkdir -p "$1" && cd "$1" && pwd)
COMMAND=$2
shift 2
case $COMMAND in apt-get | apt-cache) ;; *) echo "trixie-apt.sh: COMMAND is apt-get or apt-cache, not $COMMAND" >&2; exit 2 ;; esac
MIRROR=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
MIRROR=${MIRROR:-http://deb.debian.org/debian}
ARCH=$(dpkg --print-architecture)
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

mkdir -p "$DIR/etc/sources.list.d" "$DIR/etc/preferences.d" "$DIR/state/lists/partial" "$DIR/cache/archives/partial"
cat >"$DIR/etc/sources.list" <<LIST
deb [signed-by=$KEYRING] $MIRROR trixie main
deb-src [signed-by=$KEYRING] $MIRROR trixie main
LIST
# apt drops to _apt for downloads, which cannot write into a root-owned work tree.
cat >"$DIR/etc/apt.conf" <<CONF
Dir::Etc::SourceList "$DIR/etc/sources.list";
Dir::Etc::SourceParts "$DIR/etc/sources.list.d";
Dir::Etc::Preferences "$DIR/etc/preferences";
Dir::Etc::PreferencesParts "$DIR/etc/preferences.d";
Dir::State "$DIR/state";
Dir::State::status "$DIR/state/status";
Dir::Cache "$DIR/cache";
APT::Architecture "$ARCH";
APT::Architectures { "$ARCH"; };
Acquire::Languages "none";
APT::Sandbox::User "root";
CONF
touch "$DIR/state/status"
export APT_CONFIG=$DIR/etc/apt.conf
# The lists are fetched once per DIR.
[ -n "$(ls "$DIR/state/lists" | grep -v -e partial -e lock)" ] || apt-get update -qq
"$COMMAND" "$@"
