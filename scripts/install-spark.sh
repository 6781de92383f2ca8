#!/usr/bin/env bash
# What the Spark tests need, installed where it can be: a Java runtime (Debian's
# openjdk-17-jre-headless) and pyspark (into the Python that runs this). Where either
# cannot be installed, says why and exits 0: tests/test_spark.py then reports its
# tests as skipped, with the reason.
#
#   scripts/install-spark.sh        # called by scripts/test-all.sh inside its venv
set -uo pipefail
python=${PYTHON:-python}

java_ok() {
    command -v java >/dev/null 2>&1 || return 1
    local v
    v=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
    [ -n "$v" ] && [ "$v" -ge 17 ]
}

if ! java_ok; then
    if "$(dirname "$0")/install-debian.sh" openjdk-17-jre-headless; then
        echo "install-spark: installed openjdk-17-jre-headless"
    else
        echo "install-spark: no Java 17+ and openjdk-17-jre-headless could not be installed; the Spark tests will be skipped" >&2
    fi
fi

if ! "$python" -c 'import pyspark' >/dev/null 2>&1; then
    if ! "$python" -m pip install --quiet --disable-pip-version-check "pyspark>=3.5"; then
        echo "install-spark: pyspark could not be installed; the Spark tests will be skipped" >&2
    fi
fi
exit 0
