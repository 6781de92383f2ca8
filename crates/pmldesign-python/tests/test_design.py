"""Designs: [E] Example 1, certificates recomputed in numpy, baselines, notions."""

import math

import numpy as np
import pytest

import pmldesign

EXAMPLE_1 = np.array([0.4, 0.2, 0.2, 0.2])
EPS_1 = math.log(9 / 8)


def pml_per_output(w: np.ndarray, p: np.ndarray) -> np.ndarray:
    """l(y) = ln(max_x W[x, y] / (p . W[:, y])) ([E] Thm 1)."""
    return np.log(w.max(axis=0) / (p @ w))


def ball_min_mass(p: np.ndarray, beta: float, c: np.ndarray) -> float:
    """min over the l1 ball of radius beta around p (in the simplex) of q . c: move
    beta/2 of mass from the largest entries of c (none giving more than it holds) to
    the smallest."""
    q = p.astype(float).copy()
    budget = beta / 2
    low = int(np.argmin(c))
    for x in np.argsort(-c):
        if budget <= 0 or x == low:
            continue
        moved = min(budget, q[x])
        q[x] -= moved
        q[low] += moved
        budget -= moved
    return float(q @ c)


def test_example_1_known_answer():
    d = pmldesign.design(EXAMPLE_1, EPS_1)
    expected = np.array(
        [
            [0.325, 0.225, 0.225, 0.225],
            [0.45, 0.1, 0.225, 0.225],
            [0.45, 0.225, 0.1, 0.225],
            [0.45, 0.225, 0.225, 0.1],
        ]
    )
    assert d.status == "optimal"
    assert d.mechanism.dtype == np.float64 and d.mechanism.shape == (4, 4)
    np.testing.assert_allclose(d.mechanism, expected, atol=1e-12)
    assert d.utility == pytest.approx(0.026822311, abs=1e-9)
    assert d.labels == ["x1", "x2", "x3", "x4"]
    assert d.outputs == ["y1", "y2", "y3", "y4"]
    assert d.baselines["same_ldp"].utility == pytest.approx(0.001296, abs=1e-6)
    assert d.baselines["pml_calibrated"].utility == pytest.approx(0.002109, abs=1e-6)
    assert d.certificate.worst_case_pml == pytest.approx(EPS_1, abs=1e-12)


@pytest.mark.parametrize("utility", ["mi", "tv", "chi2", "hellinger", "map"])
@pytest.mark.parametrize("eps", [0.05, 0.4, 1.5])
def test_certificate_recomputed_for_a_known_prior(utility, eps):
    p = np.array([0.35, 0.25, 0.2, 0.12, 0.08])
    d = pmldesign.design(p, eps, utility=utility)
    w, c = d.mechanism, d.certificate
    assert (w >= 0).all()
    assert np.abs(w.sum(axis=1) - 1).max() <= c.row_sum_tolerance
    assert c.max_row_sum_error == pytest.approx(np.abs(w.sum(axis=1) - 1).max(), abs=1e-15)
    worst = pml_per_output(w, p).max()
    assert worst == pytest.approx(c.worst_case_pml, abs=1e-12)
    assert worst <= eps + c.tolerance
    assert c.upper_bound >= c.utility_value - 1e-15
    assert c.gap == pytest.approx(c.upper_bound - c.utility_value, abs=1e-15)
    assert c.gap <= 1e-9 * abs(c.utility_value) + 1e-15
    assert d.status == "optimal"


@pytest.mark.parametrize("beta", [0.02, 0.1, 0.2])
def test_ball_worst_case_recomputed_by_greedy_transfer(beta):
    p = np.array([0.4, 0.3, 0.2, 0.1])
    eps = 0.7
    d = pmldesign.design(p, eps, beta=beta)
    w, c = d.mechanism, d.certificate
    worst = [math.log(w[:, y].max() / ball_min_mass(p, beta, w[:, y])) for y in range(w.shape[1])]
    np.testing.assert_allclose(worst, c.worst_case_pml_per_output, atol=1e-12)
    assert max(worst) <= eps + c.tolerance
    assert max(worst) == pytest.approx(c.worst_case_pml, abs=1e-12)


@pytest.mark.parametrize("utility", ["mi", "tv", "map"])
@pytest.mark.parametrize("beta", [None, 0.05])
def test_baselines_below_the_design(utility, beta):
    d = pmldesign.design([0.3, 0.3, 0.2, 0.1, 0.1], 0.6, beta=beta, utility=utility)
    assert {"same_ldp", "pml_calibrated", "balanced_partition"} <= set(d.baselines)
    for name, b in d.baselines.items():
        assert b.utility <= d.utility + 1e-12, name
        assert b.mechanism.shape[0] == 5
        assert b.worst_case_pml <= 0.6 + 1e-12, name
        if b.utility != 0:
            assert b.ratio == pytest.approx(d.utility / b.utility), name
    assert d.baselines["pml_calibrated"].worst_case_pml == pytest.approx(0.6, abs=1e-9)


@pytest.mark.parametrize("notion", ["pml", "pmc", "lip", "ldp"])
def test_every_notion_designs_and_certifies(notion):
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.5, notion=notion)
    assert d.to_dict()["notion"]["notion"] == notion
    assert d.status == "optimal"
    assert np.abs(d.mechanism.sum(axis=1) - 1).max() <= 1e-12


def test_alip_needs_its_lower_level():
    with pytest.raises(pmldesign.PmlError, match="epsilon_lower"):
        pmldesign.design([0.5, 0.5], 0.5, notion="alip")
    d = pmldesign.design([0.5, 0.3, 0.2], 0.5, notion="alip", epsilon_lower=0.3)
    assert d.to_dict()["notion"] == {"notion": "alip", "epsilon_lower": 0.3, "epsilon_upper": 0.5}


def test_loss_design_meets_its_bound():
    d = pmldesign.design([0.5, 0.3, 0.2], math.log(2), loss="hamming", labels=["a", "b", "c"])
    assert d.outputs == ["a", "b", "c"]
    loss = d.to_dict()["loss"]
    assert loss["expected_loss"] >= loss["lower_bound"] - 1e-9
    assert d.utility == pytest.approx(-loss["expected_loss"])
    assert loss["dual"]["lp"] == "column_generation"
    assert {"same_ldp", "pml_calibrated", "constant_guess"} <= set(d.baselines)
    assert d.baselines["constant_guess"].mechanism.shape == (3, 3)
    assert all(b.utility <= d.utility + 1e-12 for b in d.baselines.values())
    assert pmldesign.Design.from_json(d.to_json()) == d
    m = pmldesign.design([0.5, 0.3, 0.2], math.log(2), loss=np.ones((3, 3)) - np.eye(3))
    np.testing.assert_allclose(m.mechanism, d.mechanism, atol=1e-9)


def test_design_from_counts_carries_its_guarantee():
    d = pmldesign.design_from_counts([400, 300, 200, 100], 0.8, delta=0.05, labels=list("abcd"))
    g = d.guarantee
    assert g.samples == 1000 and g.delta == 0.05
    assert "1 - 0.05" in g.statement
    assert d.to_dict()["uncertainty"]["beta"] == pytest.approx(g.beta)
    np.testing.assert_allclose(d.to_dict()["prior"], [0.4, 0.3, 0.2, 0.1])
    assert d.certificate.worst_case_pml <= 0.8 + d.certificate.tolerance
    assert pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.8).guarantee is None


def test_json_round_trip():
    d = pmldesign.design(EXAMPLE_1, EPS_1, labels=["a", "b", "c", "d"])
    again = pmldesign.Design.from_json(d.to_json())
    assert again.to_dict() == d.to_dict()
    np.testing.assert_array_equal(again.mechanism, d.mechanism)
    copy = d.to_dict()
    copy["mechanism"][0][0] = 9.0
    assert d.mechanism[0, 0] != 9.0


def test_reading_back_re_certifies():
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.3, beta=0.05)
    leaky = d.to_dict()
    n = len(leaky["mechanism"])
    leaky["mechanism"] = np.eye(n).tolist()
    with pytest.raises(pmldesign.PmlError):
        pmldesign.Design.from_dict(leaky)
    loss = pmldesign.design([0.5, 0.3, 0.2], 0.5, loss="squared")
    assert pmldesign.Design.from_json(loss.to_json()).to_dict() == loss.to_dict()


def test_progress_callback_sees_the_bounds_and_can_stop_the_run():
    seen = []
    d = pmldesign.design(np.full(10, 0.1), 0.3, progress=seen.append)
    assert seen and seen[-1]["upper_bound"] >= d.utility - 1e-12
    assert {"iterations", "lower_bound", "upper_bound", "rays_priced", "elapsed"} <= set(seen[0])

    class Stop(Exception):
        pass

    def stop(info):
        raise Stop()

    with pytest.raises(Stop):
        pmldesign.design(np.full(10, 0.1), 0.3, progress=stop)

    def interrupt(info):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        pmldesign.design(np.full(10, 0.1), 0.3, progress=interrupt)


def test_time_limit_returns_a_certified_design():
    d = pmldesign.design(np.full(8, 0.125), 0.3, time_limit=30)
    assert d.status in {"optimal", "time_limit", "gap_limit"}
    assert d.certificate.worst_case_pml <= 0.3 + d.certificate.tolerance


def test_exp_epsilon():
    assert pmldesign.exp_epsilon(9 / 8) == pytest.approx(EPS_1)
    with pytest.raises(pmldesign.PmlError):
        pmldesign.exp_epsilon(0.5)


def test_losses_under_ldp_and_the_line_metric():
    # Eps-LDP Hamming on a uniform prior is randomized response; the line
    # metric's absolute loss is certified by the measured metric level.
    n, eps = 5, 1.0
    d = pmldesign.design(np.full(n, 1.0 / n), eps, notion="ldp", loss="hamming")
    assert abs(d.to_dict()["loss"]["expected_loss"] - (n - 1) / (np.exp(eps) + n - 1)) < 1e-9
    assert d.to_dict()["notion"]["notion"] == "ldp"
    line = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.5, notion="metric", metric="line", loss="absolute")
    assert line.to_dict()["certificate"]["levels"]["metric"] <= 0.5 + 1e-12
    rows = [[abs(i - j) for j in range(4)] for i in range(4)]
    same = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.5, notion="metric", metric=rows, loss="absolute")
    assert abs(same.to_dict()["loss"]["expected_loss"] - line.to_dict()["loss"]["expected_loss"]) < 1e-9


def test_metric_errors_name_the_field():
    with pytest.raises(pmldesign.PmlError, match=r"^invalid metric\[0\]\[1\]"):
        pmldesign.design([0.5, 0.5], 1.0, notion="metric", metric=[[0, -1], [-1, 0]])
    with pytest.raises(pmldesign.PmlError, match="^invalid metric"):
        pmldesign.design([0.5, 0.5], 1.0, notion="metric")


def test_a_loaded_design_exposes_its_re_derived_figures():
    # A stated level nudged within the certificate's tolerance still loads, and the
    # loaded design shows the measured value, not the stated one; the blocks written
    # beside the design (the envelope) are kept as they were.
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 1.0)
    data = d.to_dict()
    data["certificate"]["worst_case_pml"] += 1e-13
    data["pml_per_output"][0] += 1e-13
    loaded = pmldesign.Design.from_dict(data)
    assert loaded.certificate.worst_case_pml == d.certificate.worst_case_pml
    assert loaded.to_dict()["pml_per_output"] == d.to_dict()["pml_per_output"]
    assert loaded.to_dict()["envelope"] == d.to_dict()["envelope"]
    # Beyond the tolerance it is refused, naming the field.
    data["certificate"]["worst_case_pml"] += 1e-6
    with pytest.raises(pmldesign.PmlError, match="certificate.worst_case_pml"):
        pmldesign.Design.from_dict(data)


def test_progress_reads_as_attributes_and_a_long_run_reports_itself(capsys, monkeypatch):
    seen = []
    pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.8, progress=lambda info: seen.append((info.iterations, info["upper_bound"])))
    assert seen and all(isinstance(i, int) for i, _ in seen)
    # Without a callback, a run past REPORT_AFTER says on stderr how far it is and how to stop.
    from pmldesign import _design

    monkeypatch.setattr(_design, "REPORT_AFTER", 0.0)
    monkeypatch.setattr(_design, "REPORT_EVERY", 0.0)
    pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.8)
    err = capsys.readouterr().err
    assert "pmldesign:" in err and "time_limit=" in err, err


def test_results_are_typed_classes_with_readable_reprs():
    """Certificate, Guarantee, Baseline, Verification and Estimate are classes with
    typed attributes (what mypy and an editor see), and their repr shows values."""
    d = pmldesign.design_from_counts([400, 300, 200, 100], 1.0, delta=1e-3)
    c = d.certificate
    assert isinstance(c, pmldesign.Certificate) and c.holds()
    # The library's verdict on the fields as they stand (Certificate::holds).
    tighter = c.to_dict()
    tighter["notion"]["epsilon"] = c.worst_case_pml - 1e-6
    assert not pmldesign.Certificate(tighter).holds()
    negative = dict(c.to_dict(), min_entry=-1e-9)
    assert not pmldesign.Certificate(negative).holds()
    assert isinstance(c.worst_case_pml, float) and c.worst_case_pml <= c.target_epsilon + 1e-12
    assert c.upper_bound is not None and c.gap is not None and c.gap >= 0
    g = d.guarantee
    assert isinstance(g, pmldesign.Guarantee) and g.samples == 1000 and g.delta == 1e-3
    assert "samples=1000" in repr(g) and "delta=0.001" in repr(g)
    rr = d.baselines["pml_calibrated"]
    assert isinstance(rr, pmldesign.Baseline) and rr.mechanism.shape == (4, 4)
    # Design files leave randomized response's matrix out; it is re-derived from its level.
    assert "mechanism" not in d.to_dict()["baselines"]["randomized_response"]["pml_calibrated"]
    level = d.to_dict()["baselines"]["randomized_response"]["pml_calibrated"]["ldp_epsilon"]
    if level is not None:
        w = rr.mechanism
        np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=1e-15)
        np.testing.assert_allclose(np.diag(w), np.exp(level) * w[0, 1], rtol=1e-14)
    assert rr.ratio is not None and rr.ratio >= 1 - 1e-12
    v = d.verify()
    assert isinstance(v, pmldesign.Verification) and v.utility_value == pytest.approx(d.utility)
    # Read-only: the verdict and the page are worked out once.
    assert d.verify() is v and d.to_html() is d.to_html() and d.to_html(design_file="d.json") != d.to_html()
    e = pmldesign.estimate(d, counts=[400, 300, 200, 100])
    assert isinstance(e, pmldesign.Estimate) and e.rows == 1000 and len(e.estimates) >= 1


def test_reading_a_result_gives_read_only_arrays_and_the_same_dicts():
    """``mechanism`` is one read-only array, built once; a baseline's dict holds
    randomized response's matrix (rebuilt from its level) before ``ratio``, as the
    design file's entry with the matrix added."""
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.8)
    w = d.mechanism
    assert w is d.mechanism and not w.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        w[0, 0] = 7.0
    assert d.to_dict()["mechanism"] == w.tolist() and w.copy().flags.writeable
    b = d.baselines
    b.clear()
    rr = d.baselines["same_ldp"]
    stated = d.to_dict()["baselines"]["randomized_response"]["same_ldp"]
    assert list(rr.to_dict()) == [*stated, "mechanism", "ratio"]
    assert rr.to_dict()["mechanism"] == rr.mechanism.tolist() and "mechanism" in rr
    assert rr.mechanism is rr.mechanism and not rr.mechanism.flags.writeable
    n = len(d.labels)
    e = np.exp(stated["ldp_epsilon"])
    np.testing.assert_allclose(rr.mechanism, (np.eye(n) * (e - 1) + 1) / (e + n - 1), rtol=1e-15)
    assert rr == pmldesign.Baseline(rr.to_dict())
    structured = d.baselines["balanced_partition"]
    assert structured.mechanism is structured.mechanism and not structured.mechanism.flags.writeable
