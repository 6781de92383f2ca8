"""The package states its version: the workspace's, as the wheel's metadata carries it."""

import pathlib
import re

import pmldesign


def test_version_is_the_workspace_version() -> None:
    root = pathlib.Path(__file__).resolve().parents[3]
    cargo = (root / "Cargo.toml").read_text()
    workspace = re.search(r'\[workspace\.package\]\nversion = "([^"]+)"', cargo)
    assert workspace is not None
    assert pmldesign.__version__ == workspace.group(1)
