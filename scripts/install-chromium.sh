#!/usr/bin/env bash
# What the browser tests of the HTML reports need, installed where it can be: a
# headless Chromium (Debian's chromium) and playwright (into the Python that runs
# this; it drives the system binary, so no browser is downloaded). Where either
# cannot be installed, says why and exits 0: tests/test_report_browser.py then
# reports its tests as skipped, with the reason.
#
#   scripts/install-chromium.sh     # called by scripts/test-all.sh inside its venv
set -uo pipefail
python=${PYTHON:-python}

chromium_ok() {
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1
}

if ! chromium_ok; then
    if "$(dirname "$0")/install-debian.sh" chromium; then
        echo "install-chromium: installed chromium"
    else
        echo "install-chromium: chromium could not be installed; the browser tests will be skipped" >&2
    fi
fi

if ! "$python" -c 'import playwright' >/dev/null 2>&1; then
    if ! "$python" -m pip install --quiet --disable-pip-version-check "playwright>=1.40"; then
        echo "install-chromium: playwright could not be installed; the browser tests will be skipped" >&2
    fi
fi
exit 0
