#!/bin/sh
# Installs a Debian package for a test's tool when the tool is missing:
#   sh scripts/install-apt-tool.sh COMMAND PACKAGE [VERSION-FLAG]
# (tmux for the CLI's terminal test, libavif-bin's avifdec for the AVIF decode test).
set -eu
COMMAND=$1
PACKAGE=$2
VERSION_FLAG=${3:---version}

if command -v "$COMMAND" >/dev/null 2>&1; then
  echo "$COMMAND present: $("$COMMAND" "$VERSION_FLAG" 2>&1 | head -1)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

$SUDO apt-get -o DPkg::Lock::Timeout=900 update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "$PACKAGE"
"$COMMAND" "$VERSION_FLAG" 2>&1 | head -1
