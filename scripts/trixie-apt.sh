#!/usr/bin/env bash
# Runs apt-get against Debian trixie's sources without touching the system's apt configuration:
# a private APT_CONFIG with its own sources list, state and cache under DIR. trixie carries what
# bookworm lacks (jpeg-xl 0.11.2 with jpegli, highway 1.2.0). The mirror is the system's own.
#
#   bash scripts/trixie-apt.sh DIR source --tar-only --download-only jpeg-xl=0.11.2-5.1
set -euo pipefail

DIR=$(mkdir -p "$1" && cd "$1" && pwd)
shift
MIRROR=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
MIRROR=${MIRROR:-http://deb.debian.org/debian}

mkdir -p "$DIR/etc/sources.list.d" "$DIR/etc/preferences.d" "$DIR/state/lists/partial" "$DIR/cache/archives/partial"
cat >"$DIR/etc/sources.list" <<LIST
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR trixie main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR trixie main
LIST
cat >"$DIR/etc/apt.conf" <<CONF
Dir::Etc::SourceList "$DIR/etc/sources.list";
Dir::Etc::SourceParts "$DIR/etc/sources.list.d";
Dir::Etc::Preferences "$DIR/etc/preferences";
Dir::Etc::PreferencesParts "$DIR/etc/preferences.d";
Dir::State "$DIR/state";
Dir::State::status "$DIR/state/status";
Dir::Cache "$DIR/cache";
CONF
touch "$DIR/state/status"
export APT_CONFIG=$DIR/etc/apt.conf
# The lists are fetched once per DIR.
[ -n "$(ls "$DIR/state/lists" | grep -v -e partial -e lock)" ] || apt-get update -qq
apt-get "$@"
