"""HTML reports in Python: Design.to_html / report / _repr_html_ and the
record design's, against the page `pml design --report` writes; plots."""

import html
import json
import re

import pytest

import pmldesign

PRIOR = [0.4, 0.2, 0.2, 0.2]
COUNTS = {("a1", "b1"): 300, ("a1", "b2"): 20, ("a2", "b1"): 10, ("a2", "b2"): 250, ("a3", "b1"): 30, ("a3", "b2"): 310}


def self_contained(page: str) -> None:
    """No script, no stylesheet or image from outside the page."""
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "url(http" not in page


def test_to_html_is_the_page_pml_design_report_writes(run_pml, tmp_path):
    d = pmldesign.design(PRIOR, pmldesign.exp_epsilon(9 / 8))
    assert "pml assess --design design.json</code> (write the file with" in d.to_html()
    design_file = str(tmp_path / "d.json")
    page = d.to_html(design_file=design_file)
    self_contained(page)
    assert "worst-case PML" in page and "Trade-off" not in page
    out = tmp_path / "r.html"
    run_pml("design", "--prior", "0.4,0.2,0.2,0.2", "--exp-epsilon", "1.125", "--format", "json",
            "--output", design_file, "--report", str(out), "--tradeoff-budget", "0")
    assert page == out.read_text()


def test_report_writes_the_file_with_the_tradeoff_curve(tmp_path):
    d = pmldesign.design(PRIOR, 0.5)
    path = d.report(tmp_path / "design.html", budget=5, design_file="mine.json")
    text = (tmp_path / "design.html").read_text()
    assert path.endswith("design.html")
    self_contained(text)
    assert "Trade-off with eps" in text and "mine.json" in text
    assert not list(tmp_path.glob(".pml-report-*"))


def test_repr_html_is_the_compact_report_in_a_sandboxed_frame():
    d = pmldesign.design(PRIOR, 0.5)
    frame = d._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and 'sandbox=""' in frame
    inner = html.unescape(re.search(r'srcdoc="([^"]*)"', frame).group(1))
    assert inner == d.to_html()


def test_an_altered_design_gets_no_report():
    d = pmldesign.design(PRIOR, 0.5)
    data = json.loads(d.to_json())
    data["mechanism"][0][0] += 0.01
    data["mechanism"][0][1] -= 0.01
    # Design(dict) reads it back and verifies it: no page for a forged design.
    with pytest.raises(pmldesign.PmlError):
        pmldesign.Design(data).to_html()


@pytest.mark.parametrize("budget", [-1, float("nan"), "soon"])
def test_a_bad_budget_is_refused_naming_it(budget):
    d = pmldesign.design(PRIOR, 0.5)
    with pytest.raises(pmldesign.PmlError, match="budget"):
        d.to_html(True, budget=budget)


def test_record_design_report(tmp_path):
    r = pmldesign.design_record(COUNTS, ["A", "B"], 1.0, mode="compose", split=[0.6, 0.4])
    page = r.to_html()
    self_contained(page)
    assert "Theorem 5.24" in page and page.count("The mechanism") >= 2
    r.report(tmp_path / "record.html")
    assert (tmp_path / "record.html").read_text() == page
    assert r._repr_html_().startswith("<iframe srcdoc=")


def test_plot_draws_the_mechanism_and_the_leakage():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    d = pmldesign.design(PRIOR, 0.5)
    fig = d.plot()
    heat, bars = fig.axes[0], fig.axes[1]
    assert heat.images[0].get_array().shape == (4, 4)
    assert len(bars.patches) == 4


def test_show_gives_the_whole_report_for_a_notebook():
    d = pmldesign.design(PRIOR, 0.5)
    page = d.show(budget=5)
    assert "Trade-off with eps" in page.html and page._repr_html_().startswith("<iframe srcdoc=")
    assert "Trade-off" not in d.show(False).html
