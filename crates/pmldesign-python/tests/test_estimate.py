"""pmldesign.estimate: the input distribution from released data (docs/theory.md §13)."""

import json
import os
import re
import subprocess

from conftest import ROOT

import numpy as np
import pytest

import pmldesign

PRIOR = [0.4, 0.3, 0.2, 0.1]


@pytest.fixture(scope="module")
def released():
    design = pmldesign.design(PRIOR, 1.0, labels=["a", "b", "c", "d"])
    rng = np.random.default_rng(5)
    values = rng.choice(["a", "b", "c", "d"], size=40_000, p=PRIOR)
    return design, pmldesign.apply(design, list(values), seed=2**200 + 7)


def test_estimate_recovers_the_prior_within_its_intervals(released):
    design, out = released
    for method in ("em", "inversion"):
        r = pmldesign.estimate(design, list(out), method=method)
        assert r.method == method and r.rows == 40_000
        rows = r.to_dict()["estimates"]
        assert [e["label"] for e in rows] == ["a", "b", "c", "d"]
        assert abs(sum(e["estimate"] for e in rows) - 1) < 1e-12
        for e, p in zip(rows, PRIOR):
            assert e["lower"] <= e["estimate"] <= e["upper"]
            assert abs(e["estimate"] - p) < 5 * e["standard_error"] + 1e-9


def test_every_input_type_and_counts_agree(released):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    design, out = released
    ref = pmldesign.estimate(design, list(out)).to_dict()["estimates"]
    counts = pmldesign.count(list(out))
    assert pmldesign.estimate(design, counts=counts).to_dict()["estimates"] == ref
    assert pmldesign.estimate(design, pd.Series(out)).to_dict()["estimates"] == ref
    assert pmldesign.estimate(design, pl.Series(list(out))).to_dict()["estimates"] == ref
    frame = pd.DataFrame({"v_private": out})
    assert pmldesign.estimate(design, frame, column="v_private").to_dict()["estimates"] == ref
    assert list(pd.DataFrame(ref).columns[:2]) == ["label", "inputs"]


def test_the_cli_gives_the_same_estimate(released, tmp_path):
    design, out = released
    counts = pmldesign.count(list(out))
    path = tmp_path / "design.json"
    path.write_text(design.to_json())
    text = ",".join(f"{k}={v}" for k, v in counts.items())
    pml = os.environ.get("PML_BIN", "pml")
    cli = subprocess.run(
        [pml, "estimate", "--mechanism", str(path), "--counts", text, "--format", "json"],
        check=True, capture_output=True, text=True,
    )
    got = json.loads(cli.stdout)["estimates"]
    ref = pmldesign.estimate(design, counts=counts).to_dict()["estimates"]
    for a, b in zip(got, ref):
        assert a["label"] == b["label"]
        assert abs(a["estimate"] - b["estimate"]) < 1e-12
        assert abs(a["upper"] - b["upper"]) < 1e-12


def test_inputs_released_alike_form_one_group():
    w = np.array([[0.7, 0.2, 0.1], [0.1, 0.2, 0.7], [0.7, 0.2, 0.1], [0.2, 0.6, 0.2]])
    r = pmldesign.estimate(w, counts=[500, 300, 200])
    assert [e["label"] for e in r.to_dict()["estimates"]] == ["{x1, x3}", "x2", "x4"]


def test_linearly_dependent_rows_form_one_group():
    # Row 3 is the mean of rows 4 and 5: only the total of x3, x4 and x5 is determined.
    w = np.array(
        [[0.7, 0.1, 0.1, 0.1], [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.4, 0.4], [0.1, 0.1, 0.7, 0.1], [0.1, 0.1, 0.1, 0.7]]
    )
    for method in ("em", "inversion"):
        r = pmldesign.estimate(w, counts=[3000, 2000, 2500, 2500], method=method)
        rows = r.to_dict()["estimates"]
        assert [e["label"] for e in rows] == ["x1", "x2", "{x3, x4, x5}"]
        assert rows[2]["inputs"] == ["x3", "x4", "x5"]
        assert rows[2]["estimate"] == pytest.approx(0.5, abs=1e-9)
        assert r.notes == [
            "inputs {x3, x4, x5} are released as one group: only their total is estimable "
            "(their rows of the mechanism are linearly dependent)"
        ]
    every = pmldesign.estimate(np.array([[0.8, 0.2], [0.2, 0.8], [0.5, 0.5]]), counts=[5, 5])
    assert [e["estimate"] for e in every.estimates] == [pytest.approx(1.0)]


def test_bad_input_is_refused():
    w = np.array([[0.75, 0.25], [0.25, 0.75]])
    with pytest.raises(pmldesign.PmlError, match="counts"):
        pmldesign.estimate(w, counts=[1, 2, 3])
    with pytest.raises(pmldesign.PmlError, match="counts"):
        pmldesign.estimate(w, counts={"y7": 3})
    with pytest.raises(pmldesign.PmlError, match="whole"):
        pmldesign.estimate(w, counts=[1.5, 2])
    with pytest.raises(pmldesign.PmlError, match="True"):
        pmldesign.estimate(w, counts=[True, 2])
    with pytest.raises(pmldesign.PmlError, match="method"):
        pmldesign.estimate(w, counts=[1, 2], method="magic")
    with pytest.raises(pmldesign.PmlError, match="exactly one"):
        pmldesign.estimate(w)


def test_the_guides_example_runs(capsys):
    page = ROOT / "docs" / "concepts" / "estimation.md"
    [block] = re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)
    exec(compile(block, str(page), "exec"), {})
    out = capsys.readouterr().out
    assert "estimate" in out and "a" in out


def test_the_bootstrap_checks_the_intervals_as_the_cli_does(tmp_path, run_pml):
    w = np.array([[0.75, 0.25, 0.0], [0.25, 0.5, 0.25], [0.0, 0.25, 0.75]])
    ours = pmldesign.estimate(w, counts=[500, 300, 200], bootstrap=300, seed=5)
    path = tmp_path / "w.csv"
    np.savetxt(path, w, delimiter=",")
    theirs = json.loads(run_pml("estimate", "--mechanism", str(path), "--counts", "500,300,200", "--bootstrap", "300",
                                "--seed", "5", "--format", "json"))
    for a, b in zip(ours.to_dict()["estimates"], theirs["estimates"]):
        assert a["bootstrap_lower"] == b["bootstrap_lower"] and a["bootstrap_upper"] == b["bootstrap_upper"]
        assert abs(a["bootstrap_standard_error"] / a["standard_error"] - 1) < 0.25
    with pytest.raises(pmldesign.PmlError, match="bootstrap"):
        pmldesign.estimate(w, counts=[500, 300, 200], bootstrap=1)


def test_a_time_limit_stops_the_bootstrap_and_says_so():
    w = [[0.75, 0.25, 0.0], [0.25, 0.5, 0.25], [0.0, 0.25, 0.75]]
    with pytest.warns(UserWarning, match="time limit stopped the bootstrap"):
        cut = pmldesign.estimate(w, counts=[500, 300, 200], bootstrap=200, time_limit=1e-9)
    assert 2 <= cut.to_dict()["bootstrap_replicates"] < 200
    with pytest.raises(pmldesign.InvalidInputError, match="time_limit"):
        pmldesign.estimate(w, counts=[500, 300, 200], time_limit=5)
    with pytest.raises(pmldesign.InvalidInputError, match="time_limit"):
        pmldesign.estimate(w, counts=[500, 300, 200], bootstrap=9, time_limit=0)


def _randomized_response(k, eps):
    """k-ary randomized response at level eps: e^eps / (e^eps + k - 1) on the diagonal."""
    e = np.exp(eps)
    w = np.full((k, k), 1 / (e + k - 1))
    np.fill_diagonal(w, e / (e + k - 1))
    return w


# multi-freq-ldpy's IBU is compiled by numba at its first call in each process, which
# takes seconds: one xdist worker runs both of its tests (`--dist loadgroup`), so it
# compiles once.
IBU_WORKER = pytest.mark.xdist_group("multi-freq-ldpy")


@IBU_WORKER
def test_em_agrees_with_multi_freq_ldpys_ibu_on_randomized_response():
    pytest.importorskip("scipy", reason="scipy is not installed (multi-freq-ldpy's jitted IBU needs it)")
    hist = pytest.importorskip("multi_freq_ldpy.estimators.Histogram_estimator", reason="multi-freq-ldpy is not installed")
    k = 6
    w = _randomized_response(k, 1.2)
    rng = np.random.default_rng(3)
    secrets_ = rng.choice(k, 20_000, p=[0.3, 0.25, 0.2, 0.1, 0.1, 0.05])
    released = pmldesign.apply(w, secrets_, codes=True, seed=2**200 + 9)
    reports = np.array([int(y[1:]) - 1 for y in released])
    # Their generic IBU, as their GRR aggregator calls it (A symmetric, frequencies observed).
    theirs = hist.IBU(k, w, np.bincount(reports, minlength=k) / len(reports), 100_000, 1e-13, "max_abs")
    ours = pmldesign.estimate(w, counts=np.bincount(reports, minlength=k).tolist())
    estimates = [row["estimate"] for row in ours.to_dict()["estimates"]]
    np.testing.assert_allclose(estimates, theirs, atol=1e-8)


def test_a_record_design_estimates_its_marginals_as_the_cli_does(tmp_path, run_pml):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    rng = np.random.default_rng(8)
    cells = [("a1", "b1"), ("a1", "b2"), ("a2", "b2"), ("a2", "b1"), ("a3", "b3")]
    picks = rng.choice(len(cells), 3000, p=[0.35, 0.05, 0.3, 0.05, 0.25])
    frame = pd.DataFrame({"A": [cells[i][0] for i in picks], "B": [cells[i][1] for i in picks]})
    design = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="compose")
    released = pmldesign.apply(design, frame, seed=2**100 + 3)
    ours = pmldesign.estimate(design, released).to_dict()
    path, out = tmp_path / "record.json", tmp_path / "released.csv"
    path.write_text(design.to_json())
    released.to_csv(out, index=False)
    theirs = json.loads(run_pml("estimate", "--mechanism", str(path), "--data", str(out), "--format", "json"))
    assert ours["marginals"] == theirs["marginals"] and ours["joint"] == theirs["joint"]
    assert ours["rows"] == 3000
    from_polars = pmldesign.estimate(design, pl.from_pandas(released.astype(str))).to_dict()
    assert [m["estimate"] for m in from_polars["marginals"]] == pytest.approx([m["estimate"] for m in ours["marginals"]])
    with pytest.raises(pmldesign.PmlError, match="method = 'inversion' with a record design"):
        pmldesign.estimate(design, released, method="inversion")


def test_a_design_for_estimation_has_a_smaller_error_than_randomized_response():
    """utility="estimation": the least error per row of the estimate, certified; the
    empirical error of EM over repeated releases matches the design-time figure."""
    d = pmldesign.design(PRIOR, 1.0, utility="estimation", labels=["a", "b", "c", "d"])
    error = -d.utility
    rows = d.to_dict()["estimation"]["rows"]
    assert rows[0]["error_per_row"] == pytest.approx(error, rel=1e-9)
    assert all(error < r["error_per_row"] for r in rows[1:])
    assert pmldesign.Design.from_json(d.to_json()).to_json() == d.to_json()
    rng = np.random.default_rng(11)
    m, errors = 20_000, []
    for rep in range(60):
        values = rng.choice(["a", "b", "c", "d"], size=m, p=PRIOR)
        out = pmldesign.apply(d, list(values), seed=2**200 + rep)
        e = pmldesign.estimate(d, list(out), method="em").to_dict()["estimates"]
        errors.append(m * sum((g["estimate"] - p) ** 2 for g, p in zip(e, PRIOR)))
    # 60 draws of a scaled chi-square-like error: the mean within 25 %.
    assert np.mean(errors) == pytest.approx(error, rel=0.25), (np.mean(errors), error)


def test_counts_from_another_mechanism_are_warned_of():
    own = [[0.7, 0.1, 0.1, 0.1], [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.7, 0.1]]
    other = [[0.1, 0.1, 0.1, 0.7], [0.1, 0.1, 0.7, 0.1], [0.7, 0.1, 0.1, 0.1]]
    # The expected counts of 10000 rows of p = (0.5, 0.3, 0.2) through `own`.
    counts = [4000, 2800, 2200, 1000]
    fits = pmldesign.estimate(np.array(own), counts=counts)
    assert fits.fit is not None and fits.fit["degrees_of_freedom"] == 1
    assert fits.fit["p_value"] > 0.5
    with pytest.warns(UserWarning, match="another design"):
        misfit = pmldesign.estimate(np.array(other), counts=counts)
    assert misfit.fit is not None and misfit.fit["p_value"] < 1e-6
    assert any("another design" in w for w in misfit.to_dict()["warnings"])
    square = pmldesign.estimate(np.array([[0.75, 0.25], [0.25, 0.75]]), counts=[600, 400])
    assert square.fit is not None and square.fit["p_value"] is None


def _log_likelihood(w, counts, p):
    q = np.asarray(w).T @ np.asarray(p)
    counts = np.asarray(counts, dtype=float)
    seen = counts > 0
    return float(counts[seen] @ np.log(q[seen]))


@IBU_WORKER
def test_em_reaches_the_maximum_where_multi_freq_ldpys_ibu_approaches_it_on_a_face():
    """Eight-ary randomized response at eps 0.5: the maximum lies on a face (two
    masses 0). pml's estimate is certified (likelihood gap <= 1e-6 nats), at least
    as likely as IBU's after 100,000 iterations, and within IBU's slow approach of it;
    the unprojected inversion estimate is their matrix inversion before clipping."""
    pytest.importorskip("scipy", reason="scipy is not installed (multi-freq-ldpy's jitted IBU needs it)")
    hist = pytest.importorskip("multi_freq_ldpy.estimators.Histogram_estimator", reason="multi-freq-ldpy is not installed")
    k, eps = 8, 0.5
    w = _randomized_response(k, eps)
    e = np.exp(eps)
    counts = [1538, 1296, 1283, 1219, 1205, 1195, 1118, 1146]
    ours = pmldesign.estimate(w, counts=counts).to_dict()
    assert ours["converged"] and ours["likelihood_gap"] <= 1e-6
    mine = [row["estimate"] for row in ours["estimates"]]
    n = sum(counts)
    theirs = hist.IBU(k, w, np.array(counts) / n, 100_000, 1e-15, "max_abs")
    assert _log_likelihood(w, counts, mine) >= _log_likelihood(w, counts, theirs) - 1e-9 * n
    np.testing.assert_allclose(mine, theirs, atol=2e-3)
    np.testing.assert_allclose(mine, [0.496, 0.176, 0.158, 0.073, 0.055, 0.042, 0, 0], atol=1e-3)
    inverted = pmldesign.estimate(w, counts=counts, method="inversion").to_dict()
    p_true, q_lie = e / (e + k - 1), 1 / (e + k - 1)
    raw = (np.array(counts) - n * q_lie) / (p_true - q_lie) / n
    np.testing.assert_allclose(inverted["unprojected"] if "unprojected" in inverted else
                               [r["unprojected"] for r in inverted["estimates"]], raw, atol=1e-12)


@pytest.mark.parametrize("method,extra", [("em", []), ("inversion", []), ("em", ["--bootstrap", "50"])])
def test_the_estimate_has_the_cli_jsons_fields(tmp_path, run_pml, method, extra):
    # Row 3 is the mean of rows 4 and 5: {x3, x4, x5} is one dependent block.
    w = np.array(
        [[0.7, 0.1, 0.1, 0.1], [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.4, 0.4], [0.1, 0.1, 0.7, 0.1], [0.1, 0.1, 0.1, 0.7]]
    )
    path = tmp_path / "w.csv"
    np.savetxt(path, w, delimiter=",")
    theirs = json.loads(run_pml("estimate", "--mechanism", str(path), "--counts", "3000,2000,2500,2500",
                                "--method", method, "--format", "json", *extra))
    reps = 50 if extra else None
    ours = pmldesign.estimate(w, counts=[3000, 2000, 2500, 2500], method=method, bootstrap=reps).to_dict()
    # One answer, built once: equal but for the file the command read.
    assert theirs.pop("source") == str(path) and ours.pop("source") == "<array>"
    assert ours == theirs
    assert len(ours["estimates"]) == 3
    assert [r["dependent"] for r in ours["estimates"]] == [False, False, True]
    unprojected = [r["unprojected"] for r in ours["estimates"]]
    if method == "inversion":
        assert sum(unprojected) == pytest.approx(1.0, abs=1e-9)
    else:
        assert unprojected == [None, None, None]


def test_a_record_estimate_has_the_cli_jsons_fields(tmp_path, run_pml):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"A": ["a1", "a2", "a1", "a2"] * 200, "B": ["b1", "b2", "b2", "b2"] * 200})
    design = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="compose")
    released = pmldesign.apply(design, frame, seed=2**100 + 3)
    ours = pmldesign.estimate(design, released).to_dict()
    path, out = tmp_path / "record.json", tmp_path / "released.csv"
    path.write_text(design.to_json())
    released.to_csv(out, index=False)
    theirs = json.loads(run_pml("estimate", "--mechanism", str(path), "--data", str(out), "--format", "json"))
    # One answer: equal but for the file the command read.
    assert theirs.pop("source") == str(path) and ours.pop("source") == "<array>"
    assert ours == theirs
    # Marginals and cells are flat rows (one data frame each).
    assert set(ours["marginals"][0]) == {"column", "value", "estimate", "lower", "upper", "standard_error", "identifiable"}
    assert set(ours["joint"][0]) == {"cell", "estimate", "lower", "upper", "standard_error", "identifiable"}


@pytest.mark.parametrize("notion,levels", [("lip", {}), ("pmc", {}), ("alip", {"epsilon_lower": 0.5})])
def test_designs_for_estimation_past_enumeration_under_the_density_notions(notion, levels):
    """Past the 16 labels the notions' rays are enumerated to, a design for estimation
    under PMC, LIP and ALIP is priced by ascent: certified, read back from its file,
    and at most randomized response's error (the first baseline of its table)."""
    raw = np.array([1.0 / (i + 1) ** 0.6 for i in range(20)])
    prior = raw / raw.sum()
    d = pmldesign.design(prior, 1.0, notion=notion, utility="estimation", time_limit=3, **levels)
    data = d.to_dict()
    assert data["solver"]["pricing"] == "quadratic_search"
    assert d.certificate.holds()
    rows = data["estimation"]["rows"]
    assert -d.utility == pytest.approx(rows[0]["error_per_row"], rel=1e-12)
    assert -d.utility <= rows[1]["error_per_row"]
    assert pmldesign.Design.from_json(d.to_json()).to_json() == d.to_json()


def test_ldp_designs_for_estimation_name_the_priors_their_floor_weighs():
    """Under LDP with a skewed prior past enumeration the certificate's bound is a
    floor from priors of few levels; the certificate names them (counts over the 20
    labels, relative masses in decreasing order) and a reader re-derives it."""
    raw = np.array([1.0 / (i + 1) for i in range(20)])
    d = pmldesign.design(raw / raw.sum(), 1.0, notion="ldp", utility="estimation", time_limit=4)
    priors = d.certificate.floor_priors
    assert priors and all(sum(n for n, _ in q) == 20 for q in priors)
    assert all(a >= b for q in priors for (_, a), (_, b) in zip(q, q[1:]))
    assert d.certificate.gap <= 1e-2 * abs(d.utility)
    assert pmldesign.Design.from_json(d.to_json()).to_json() == d.to_json()
