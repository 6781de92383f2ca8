#!/usr/bin/env bash
# Installs Debian packages with apt-get (as root, or through `sudo -n`), after
# updating the package lists (a fresh machine has none yet). Exits non-zero, quietly,
# where they cannot be installed: the caller says what is skipped then.
#
#   scripts/install-debian.sh PACKAGE...   # used by install-spark.sh and install-chromium.sh
set -uo pipefail
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo -n"
command -v apt-get >/dev/null 2>&1 \
    && $sudo apt-get update -qq >/dev/null 2>&1 \
    && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null 2>&1
