"""The user guide's examples run as they are written.

Every page of the guide (README.md and each Markdown file under docs/) is run on its
own, in a fresh directory, block by block in the page's order:

- each ```python block, in a fresh namespace;
- each ```sh or ```console block whose commands are `pml` commands (a console block's
  commands are its lines starting with `$ `), against the binary of PML_BIN.

A page's later blocks may read what its earlier ones wrote. The repository's `tests/`
folder is linked into the directory, so `tests/golden/inputs/...` paths work as they do
from the repository root. A block preceded by the line `<!-- no-test -->` is not run.
A block that needs a module (or Java, for Spark) that is not installed ends the page's
run, and the test is skipped with the reason once what ran has been checked.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

import pytest

from conftest import ROOT

DOCS = ROOT / "docs"
FENCE = re.compile(r"^(<!-- no-test -->\n)?```(\w*)\n(.*?)^```", re.S | re.M)
OPTIONAL = ("pandas", "polars", "pyarrow", "dask", "pyspark", "matplotlib")


@dataclass
class Block:
    lang: str  # "python" or "sh"
    code: str
    line: int


def commands(lang: str, code: str) -> Optional[str]:
    """The shell script of a block of `pml` commands, else None."""
    if lang == "console":
        lines = [line[2:] for line in code.splitlines() if line.startswith("$ ")]
    elif lang in ("sh", "bash", "shell"):
        lines = code.splitlines()
    else:
        return None
    first = next((line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")), "")
    return "\n".join(lines) + "\n" if first.startswith("pml ") else None


def blocks(page: Path) -> List[Block]:
    text = page.read_text()
    found = []
    for m in FENCE.finditer(text):
        if m.group(1):
            continue
        lang, code = m.group(2), m.group(3)
        line = text.count("\n", 0, m.start(2)) + 1
        if lang == "python":
            found.append(Block("python", code, line))
        else:
            script = commands(lang, code)
            if script is not None:
                found.append(Block("sh", script, line))
    return found


def pages() -> List[Path]:
    return [p for p in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))] if blocks(p)]


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def missing(block: Block) -> Optional[str]:
    """Why the block cannot run here, else None."""
    if block.lang != "python":
        return None
    for module in OPTIONAL:
        if re.search(rf"^\s*(import|from)\s+[^\n]*\b{module}\b", block.code, flags=re.M):
            if importlib.util.find_spec(module) is None:
                return f"{module} is not installed"
    if "pyspark" in block.code and shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return "the Spark example needs Java (scripts/install-spark.sh)"
    return None


def run_page(page: Path, where: Path, pml: Path) -> Optional[str]:
    """Runs the page's blocks in `where`; returns why it stopped early, else None."""
    (where / "tests").symlink_to(ROOT / "tests", target_is_directory=True)
    bin_dir = where / ".bin"
    bin_dir.mkdir()
    (bin_dir / "pml").symlink_to(pml.resolve())
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    for block in blocks(page):
        reason = missing(block)
        if reason:
            return f"{page_id(page)}:{block.line}: {reason}"
        if block.lang == "python":
            exec(compile(block.code, f"{page_id(page)}:{block.line}", "exec"), {"__name__": "guide"})
        else:
            r = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", block.code],
                cwd=where, env=env, capture_output=True, text=True, timeout=600,
            )
            assert r.returncode == 0, f"{page_id(page)}:{block.line}: exit {r.returncode}\n{block.code}\n{r.stderr}"
    return None


def with_group(page: Path):
    """The engines page starts Spark: it joins test_spark.py's xdist group, so one
    worker runs one JVM. It runs first (conftest.py): the JVM keeps the directory it
    started in for relative paths, and the page reads `people.parquet` from its own."""
    if page == DOCS / "quickstart" / "engines.md":
        return pytest.param(page, marks=pytest.mark.xdist_group("spark"))
    return page


@pytest.mark.parametrize("page", [with_group(p) for p in pages()], ids=page_id)
def test_the_page_runs(page, pml_bin, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    stopped = run_page(page, tmp_path, pml_bin)
    if page == DOCS / "quickstart" / "engines.md" and stopped is None or (stopped and "Spark" in stopped):
        assert (tmp_path / "people_private.parquet").exists() and (tmp_path / "people_private_dask").is_dir()
        import pyarrow.dataset as ds

        for written in ("people_private.parquet", "people_private_dask"):  # released without the raw column
            names = ds.dataset(tmp_path / written).schema.names
            assert "city_private" in names and "city" not in names, (written, names)
    if page == DOCS / "quickstart" / "engines.md" and stopped is None:
        assert (tmp_path / "people_private_spark").is_dir()
    if page == DOCS / "quickstart" / "shell.md":
        assert (tmp_path / "released.csv").read_text().splitlines()[0].endswith(",B_private")
    if stopped:
        pytest.skip(stopped)


def test_the_engines_page_has_the_data_pandas_polars_dask_and_spark_examples():
    found = [b.code for b in blocks(DOCS / "quickstart" / "engines.md") if b.lang == "python"]
    assert len(found) == 5
    for block, engine in zip(found[1:], ("pandas", "polars", "dask", "pyspark")):
        assert engine in block


def test_the_quick_starts_and_how_to_pages_run_pml_commands():
    """The shell pages are tested, not only shown: each has `pml` blocks this test runs."""
    for page in ("README.md", "docs/quickstart/shell.md", "docs/concepts/guarantees.md", "docs/howto/audit.md",
                 "docs/howto/design-from-data.md", "docs/howto/envelope.md"):
        assert any(b.lang == "sh" for b in blocks(ROOT / page)), page


def test_no_test_marks_are_rare():
    marks = sum(p.read_text().count("<!-- no-test -->") for p in [ROOT / "README.md", *DOCS.rglob("*.md")])
    assert marks <= 5, marks


def test_the_readme_links_to_files_that_exist():
    """The README's relative links (into docs/ and the repository) resolve; the book's
    own links are checked by `mkdocs build --strict`."""
    text = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if "://" not in link]
    assert any(link.startswith("docs/quickstart/") for link in local)
    for link in local:
        assert (ROOT / link).exists(), link
