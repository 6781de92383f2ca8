"""The README's "Tables and clusters" examples run as they are, in order, in a fresh
directory (the Spark one where Java and pyspark are installed)."""

import os
import re
import shutil
import sys

import pytest

from conftest import ROOT

SECTION = "### Tables and clusters"


def examples():
    text = (ROOT / "README.md").read_text()
    start = text.index(SECTION)
    end = text.index("\n### ", start + len(SECTION))
    return re.findall(r"```python\n(.*?)```", text[start:end], flags=re.S)


def test_the_section_has_the_data_pandas_polars_dask_and_spark_examples():
    blocks = examples()
    assert len(blocks) == 5
    for block, engine in zip(blocks[1:], ("pandas", "polars", "dask", "pyspark")):
        assert engine in block


def test_the_examples_run(tmp_path, monkeypatch):
    for module in ("pandas", "polars", "pyarrow", "dask.dataframe"):
        pytest.importorskip(module)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    blocks = examples()
    spark = shutil.which("java") is not None or bool(os.environ.get("JAVA_HOME"))
    try:
        import pyspark  # noqa: F401
    except ImportError:
        spark = False
    for block in blocks if spark else blocks[:-1]:
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})
    assert (tmp_path / "people_private.parquet").exists() and (tmp_path / "people_private_dask").is_dir()
    if not spark:
        pytest.skip("the Spark example needs Java and pyspark (scripts/install-spark.sh)")
    assert (tmp_path / "people_private_spark").is_dir()
