"""`pml serve` end to end in headless Chromium (Debian's, driven by playwright):
upload a generated CSV, set eps, wait for the certificate, download design.json
and check that `pml assess --design` verifies it; no console error; a screenshot
that is not blank. Skipped, with the reason, where playwright or chromium is
missing (scripts/install-chromium.sh installs both)."""

import json
import shutil
import subprocess

import pytest

from conftest import distinct_bytes

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (scripts/install-chromium.sh installs it)"
)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on PATH (scripts/install-chromium.sh installs Debian's)"
)


@pytest.fixture
def server(pml_bin):
    """`pml serve --port 0`, stopped at the end; yields the URL it printed."""
    proc = subprocess.Popen(
        [str(pml_bin), "serve", "--port", "0", "--time-limit", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("pml serve: http://127.0.0.1:"), line
        yield line.removeprefix("pml serve: ")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_upload_design_download_verify(server, pml_bin, tmp_path, artefacts):
    data = tmp_path / "survey.csv"
    rows = ["id,colour"] + [f"{i},{['red', 'blue', 'green', 'red', 'grey'][i % 5]}" for i in range(500)]
    data.write_text("\n".join(rows) + "\n")
    errors = []
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(accept_downloads=True, viewport={"width": 1200, "height": 1400})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server)
        page.set_input_files("#file", str(data))
        # A selector, not wait_for_function: a string predicate is evaluated by
        # the page, whose Content-Security-Policy forbids eval (it failed so
        # whenever the columns were not filled at the first look).
        page.wait_for_selector("#column option:nth-child(2)", state="attached")
        page.select_option("#column", "colour")
        page.fill("#eps", "0.75")
        page.click("#design")
        page.wait_for_selector("#certificate[data-status]", timeout=60_000)
        certificate = page.text_content("#certificate")
        assert "Certificate" in certificate, certificate
        assert page.get_attribute("#certificate", "data-status") == "optimal"
        report = page.frame_locator("#report")
        report.locator("h1").first.wait_for()
        with page.expect_download() as download:
            page.click("#download-design")
        design = tmp_path / "design.json"
        download.value.save_as(design)
        with page.expect_download() as download:
            page.click("#download-private")
        private = tmp_path / "private.csv"
        download.value.save_as(private)
        shot = artefacts / "serve.png"
        page.screenshot(path=str(shot), full_page=True)
        browser.close()
    assert errors == [], errors
    d = json.loads(design.read_text())
    assert d["epsilon"] == 0.75 and d["labels"] == ["red", "blue", "green", "grey"]
    verdict = subprocess.run(
        [str(pml_bin), "assess", "--design", str(design), "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert verdict.returncode == 0, verdict.stderr
    assert json.loads(verdict.stdout)["verdict"] == "verified"
    lines = private.read_text().splitlines()
    assert lines[0] == "id,colour_private" and len(lines) == 501  # released without the raw column
    size = shot.stat().st_size
    print(f"screenshot {shot}: {size} bytes")
    assert size > 20_000, f"a blank screenshot? {size} bytes"
    assert distinct_bytes(shot.read_bytes()) > 64, "the screenshot is one colour"


def test_the_page_shows_a_refused_upload(server, tmp_path):
    data = tmp_path / "photo.csv"
    data.write_bytes(bytes(range(256)) * 4)
    errors = []
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server)
        page.set_input_files("#file", str(data))
        page.wait_for_selector("#error:not([hidden])")
        message = page.text_content("#error")
        browser.close()
    assert "not CSV" in message and "photo.csv" in message, message
    # The browser reports the 400 itself; nothing else went wrong.
    assert all("status of 400" in e for e in errors), errors
