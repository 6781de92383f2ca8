"""Shared fixtures: the repository root and the `pml` binary for cross-checks."""

import os
import pathlib
import struct
import subprocess
import zlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


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
