#!/bin/sh
# Installs Debian's Chromium for the browser test (npm run test:e2e) when it is missing.
# playwright-core drives it at /usr/bin/chromium; Playwright's own browser download cannot work offline.
set -eu

if [ -x /usr/bin/chromium ]; then
  echo "chromium present: $(/usr/bin/chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium
/usr/bin/chromium --version
