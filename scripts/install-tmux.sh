#!/bin/sh
# Installs Debian's tmux for the CLI's terminal test (npm run test:packages:e2e) when it is missing.
set -eu

if command -v tmux >/dev/null 2>&1; then
  echo "tmux present: $(tmux -V)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

$SUDO apt-get -o DPkg::Lock::Timeout=900 update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends tmux
tmux -V
