"""Every report kind in a real browser: headless Chromium (Debian's,
driven by playwright; `scripts/install-chromium.sh` installs both) loads each page
with no console error and no request leaving the file, and a full-page
screenshot of each is kept as a test artefact (`target/browser-screenshots/`,
not committed) and checked not blank. Skipped, with the reason, where Chromium
or playwright is missing."""

import json
import pathlib
import shutil

import pytest

from conftest import ROOT, distinct_bytes

EXAMPLE1 = ["--prior", "0.4,0.2,0.2,0.2", "--exp-epsilon", "1.125"]


def chromium_path():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (scripts/install-chromium.sh installs it)")
    executable = chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (scripts/install-chromium.sh installs Debian's chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield b
        b.close()


def reports(run_pml, tmp: pathlib.Path):
    """One page of every kind `pml` writes, by name."""
    design = tmp / "design.json"
    run_pml("design", *EXAMPLE1, "--format", "json", "--output", str(design),
            "--report", str(tmp / "design.html"), "--tradeoff-budget", "20")
    run_pml("assess", "--design", str(design), "--format", "json", "--report", str(tmp / "assess-design.html"),
            "--tradeoff-budget", "0")
    run_pml("assess", "--mechanism", str(design), "--prior", "0.4,0.2,0.2,0.2", "--beta", "0.1", "--format", "json",
            "--report", str(tmp / "audit.html"))
    run_pml("compare", "--prior", "0.4,0.2,0.2,0.2", "--epsilon", "0.5", "--format", "json",
            "--report", str(tmp / "compare.html"))
    run_pml("envelope", "--mechanism", str(design), "--prior", "0.4,0.2,0.2,0.2", "--lp", "--format", "json",
            "--report", str(tmp / "envelope.html"))
    record = ROOT / "tests" / "golden" / "inputs" / "record.csv"
    run_pml("design", "--data", str(record), "--column", "A", "--column", "B", "--epsilon", "1", "--format", "json",
            "--record", "compose", "--split", "0.7,0.3", "--report", str(tmp / "record.html"))
    counts = ",".join(str(10 + (7 * i) % 23) for i in range(100))
    run_pml("design", "--counts", counts, "--epsilon", "1", "--gap", "1e-3", "--format", "json",
            "--report", str(tmp / "large.html"), "--tradeoff-budget", "0")
    kinds = ["design", "assess-design", "audit", "compare", "envelope", "record", "large"]
    return {k: tmp / f"{k}.html" for k in kinds}


@pytest.fixture(scope="module")
def pages(run_pml, tmp_path_factory):
    return reports(run_pml, tmp_path_factory.mktemp("reports"))


KINDS = ["design", "assess-design", "audit", "compare", "envelope", "record", "large"]


@pytest.mark.parametrize("kind", KINDS)
def test_each_report_loads_offline_with_no_error_and_is_not_blank(browser, pages, artefacts, kind):
    path = pages[kind]
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors, requests = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    assert errors == [], errors
    leaving = [u for u in requests if u != path.as_uri() and not u.startswith("data:")]
    assert leaving == [], leaving
    assert page.locator("h1").count() == 1 and page.locator("section").count() >= 2
    # Every figure has a text alternative.
    assert page.locator("svg").count() > 0
    assert page.locator("svg:not([role=img]), svg:not([aria-label])").count() == 0
    assert page.locator("img:not([alt])").count() == 0
    shot = page.screenshot(full_page=True)
    (artefacts / f"report-{kind}.png").write_bytes(shot)
    assert len(shot) > 20_000 and distinct_bytes(shot) > 64, (len(shot), kind)
    if kind == "large":
        assert page.locator("img.raster").count() == 1
    page.close()


def test_the_report_prints_to_pdf(browser, pages, artefacts):
    """The print stylesheet: a PDF from the browser has pages and no clipped figure."""
    page = browser.new_page()
    page.goto(pages["design"].as_uri())
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4")
    (artefacts / "report-design.pdf").write_bytes(pdf)
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 2
    page.close()


def test_design_json_beside_the_report_is_verified(run_pml, pages):
    """The file the report names in its re-check command verifies."""
    design = pages["design"].parent / "design.json"
    verdict = json.loads(run_pml("assess", "--design", str(design), "--format", "json"))
    assert verdict["verdict"] == "verified"
