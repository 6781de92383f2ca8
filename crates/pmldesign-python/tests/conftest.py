"""Shared fixtures: the repository root and the `pml` binary for cross-checks; and every
call into the native module held to the type stub (stub_check.py), where typeguard is
installed: a call off the stub fails the test that made it."""

import os
import pathlib
import struct
import subprocess
import zlib

import pytest

try:
    import stub_check
except ModuleNotFoundError as absent:  # without typeguard, test_stub.py skips its test of the check
    if absent.name != "typeguard":
        raise
    stub_check = None

ROOT = pathlib.Path(__file__).resolve().parents[3]

# Spark's JVM (test_spark.py, the engines page) runs many short jobs: with the client
# compiler alone and the serial collector it spends less processor time compiling and
# collecting than with the JIT's second tier and the parallel collector, on a machine
# whose cores the other tests share. Read by the JVM when it starts; a value already
# set is kept.
os.environ.setdefault("JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")


def pytest_configure(config):
    if stub_check is not None:
        stub_check.install()


def _calls_off_the_stub():
    """Runs one phase of a test (setup, call, teardown), then fails it if a call into
    the native module during it (or before it, at collection) was off the stub. A phase
    that fails on its own keeps its failure; its calls off the stub fail the next phase."""
    result = yield
    found = stub_check.take() if stub_check is not None else []
    if found:
        pytest.fail("calls off the type stub _native.pyi:\n" + "\n".join(found), pytrace=False)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    return (yield from _calls_off_the_stub())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    return (yield from _calls_off_the_stub())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    return (yield from _calls_off_the_stub())


@pytest.fixture(scope="session")
def pml_bin() -> pathlib.Path:
    """The `pml` CLI built by cargo in release (built here if `cargo test` has not)."""
    if os.environ.get("PML_BIN"):
        return pathlib.Path(os.environ["PML_BIN"])
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    binary = target / "release" / "pml"
    if not binary.exists():
        subprocess.run(
            ["cargo", "build", "--release", "-p", "pmldesign-cli", "--bin", "pml"], cwd=ROOT, check=True
        )
    return binary


@pytest.fixture(scope="session")
def run_pml(pml_bin):
    """Runs `pml ARGS...` and returns its standard output (fails on a non-zero exit)."""

    def run(*args: str) -> str:
        r = subprocess.run([str(pml_bin), *args], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return r.stdout

    return run


@pytest.fixture(scope="session")
def artefacts():
    """Where the screenshots are kept after the run."""
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    path = target / "browser-screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def distinct_bytes(png: bytes) -> int:
    """Distinct byte values of the decompressed image data: a blank page has a
    handful, a page with text and figures hundreds."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, data = 8, b""
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind = png[pos + 4:pos + 8]
        if kind == b"IDAT":
            data += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(data)))


def pytest_collection_modifyitems(items):
    """The guide's engines page runs before Spark's tests (they share an xdist group,
    hence a worker and its JVM): the JVM resolves relative paths against the directory
    it started in, and the page reads `people.parquet` from its own."""
    first = [item for item in items if item.nodeid.endswith("[docs/quickstart/engines.md]")]
    items[:] = first + [item for item in items if item not in first]
