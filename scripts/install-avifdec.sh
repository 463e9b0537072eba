#!/bin/sh
# Installs Debian's avifdec (libavif-bin: libavif with dav1d) for the AVIF decode test (npm run test:e2e:avif)
# when it is missing: every AVIF the engine writes must decode with it.
set -eu

if command -v avifdec >/dev/null 2>&1; then
  echo "avifdec present: $(avifdec --version 2>&1 | head -1)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

$SUDO apt-get -o DPkg::Lock::Timeout=900 update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends libavif-bin
avifdec --version 2>&1 | head -1
