#!/bin/sh
# Installs Debian's tmux for the CLI's terminal test (npm run test:packages:e2e) when it is missing.
exec sh "$(dirname "$0")/install-apt-tool.sh" tmux tmux -V
