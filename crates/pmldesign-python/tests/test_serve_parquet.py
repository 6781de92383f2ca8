"""`pml serve` with a Parquet upload (written by pyarrow): its columns are listed
from the schema, a column is designed, and the privatised file is Parquet."""

import io
import json
import subprocess
import urllib.request

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _post(url, token, path, body, content_type):
    request = urllib.request.Request(
        url + path, data=body, headers={"X-PML-Token": token, "Content-Type": content_type}
    )
    with urllib.request.urlopen(request) as response:
        return response.read()


def test_a_parquet_upload_is_designed_and_privatised(pml_bin):
    table = pa.table({"id": list(range(60)), "city": ["Oslo", "Lund", "Oslo", "Umea"] * 15})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    boundary = "pml-parquet-test"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="towns.parquet"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode() + buffer.getvalue() + f"\r\n--{boundary}--\r\n".encode()
    proc = subprocess.Popen(
        [str(pml_bin), "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        url, token = proc.stdout.readline().strip().removeprefix("pml serve: ").split("/?token=")
        upload = json.loads(_post(url, token, "/api/upload", body, f"multipart/form-data; boundary={boundary}"))
        assert upload["columns"] == ["id", "city"]
        form = {"upload": upload["upload"], "column": "city", "epsilon": 1.0}
        answer = json.loads(_post(url, token, "/api/design", json.dumps(form).encode(), "application/json"))
        design = json.loads(answer["design"])
        assert sorted(design["labels"]) == ["Lund", "Oslo", "Umea"]
        assert "towns.parquet" in design["provenance"]["input"]
        seeded = {"design": answer["design_id"], "seed": "0x" + "ab" * 32}
        private = _post(url, token, "/api/privatise", json.dumps(seeded).encode(), "application/json")
        out = pq.read_table(io.BytesIO(private))
        assert out.column_names == ["id", "city_private"] and out.num_rows == 60  # released without the raw column
    finally:
        proc.terminate()
        proc.wait(timeout=30)
