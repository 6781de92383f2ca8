"""apply, assess, compare, envelope and the planning bounds."""

import math

import numpy as np
import pytest

import pmldesign


@pytest.fixture(scope="module")
def design():
    return pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6, labels=["a", "b", "c", "d"])


def test_apply_is_reproducible_with_a_seed(design):
    values = ["a", "b", "c", "d"] * 250
    first = pmldesign.apply(design, values, seed=42)
    assert first.shape == (1000,)
    np.testing.assert_array_equal(first, pmldesign.apply(design, values, seed=42))
    assert not np.array_equal(first, pmldesign.apply(design, values, seed=43))
    assert set(first) <= set(design.outputs)
    by_index = pmldesign.apply(design, np.array([0, 1, 2, 3] * 250), seed=42, codes=True)
    np.testing.assert_array_equal(first, by_index)


def test_apply_frequencies_follow_the_matrix(design):
    n = 200_000
    w = design.mechanism
    for x, label in enumerate(design.labels):
        out = pmldesign.apply(design, [label] * n, seed=x)
        freq = np.array([(out == y).mean() for y in design.outputs])
        sd = np.sqrt(w[x] * (1 - w[x]) / n)
        assert np.all(np.abs(freq - w[x]) <= 5 * sd + 1e-12), (x, freq, w[x])


def test_apply_to_a_bare_matrix_names_rows_and_outputs():
    out = pmldesign.apply(np.eye(3), ["x1", "x3", "x2"], seed=1)
    assert out.tolist() == ["y1", "y3", "y2"]
    out = pmldesign.apply(np.eye(2), ["no", "yes"], labels=["no", "yes"], seed=1)
    assert out.tolist() == ["y1", "y2"]
    assert pmldesign.apply(np.eye(2), [], seed=1).shape == (0,)


def test_assess_matches_the_design(design):
    a = pmldesign.assess(design)
    assert a.eps_min == pytest.approx(design.certificate.worst_case_pml, abs=1e-12)
    assert a.mechanism.shape == design.mechanism.shape
    over = pmldesign.assess(design, beta=0.05)
    assert over.uncertainty.leakage_capacity >= a.eps_min
    assert over.to_dict()["uncertainty"]["theorem4"]["beta"] == 0.05


def test_compare_orders_the_notions():
    c = pmldesign.compare([0.25, 0.25, 0.25, 0.25], 0.1)
    labels = [r.label for r in c.rows]
    # Five notions, randomized response twice, then the structured baselines.
    assert len(labels) > 7 and labels[0].startswith("PML")
    assert all(r.utility <= c.rows[0].utility + 1e-12 for r in c.rows[7:])
    pml, ldp, rr = c.rows[0], c.rows[4], c.rows[5]
    assert pml.utility >= ldp.utility - 1e-12
    assert ldp.utility == pytest.approx(1.29 * rr.utility, rel=0.01)


def test_compare_shares_its_time_limit():
    # A spent limit over 80 labels: every notion's design stops with its best
    # structured baseline, certified for its notion, as `pml compare --time-limit`.
    raw = [1 / i for i in range(1, 81)]
    prior = [x / sum(raw) for x in raw]
    c = pmldesign.compare(prior, 1.0, time_limit=0.001)
    for row in c.rows[:5]:
        assert row.status in ("time_limit", "optimal")
        assert row.upper_bound >= row.utility - 1e-9
    with pytest.raises(pmldesign.InvalidInputError, match="time_limit"):
        pmldesign.compare(prior, 1.0, time_limit=0)


def test_envelope_bounds_bracket(design):
    e = pmldesign.envelope(design, deltas=[0.01, 0.1], lp=True)
    assert len(e.curve) == 2
    for point in e.curve:
        assert point.lower <= point.upper + 1e-12
        assert point.lp.lower - 1e-9 <= point.lp.upper
        assert "post-processing" in point.statement
    assert e.max_pml == pytest.approx(design.certificate.worst_case_pml, abs=1e-12)


def test_envelope_statement_uses_the_tighter_lp():
    # [V] Example 2 at delta = 0.2: Theorem 3 gives ln 4, the LP ln(22/9).
    w = [[0, 0, 0.5, 0.5], [0, 0, 0.5, 0.5], [0, 0.2, 0.4, 0.4], [0.2, 0, 0.4, 0.4]]
    point = pmldesign.envelope(w, [0.25] * 4, deltas=[0.2], lp=True).curve[0]
    assert point.upper == pytest.approx(math.log(4))
    assert "0.893818" in point.statement and "1.386295" not in point.statement


def test_envelope_stopped_by_its_time_limit_keeps_the_bound():
    # A limit of a nanosecond stops the LP before its first solve: the Theorem 3
    # bracket, marked stopped, and the statement publishes the bound ln 4.
    w = [[0, 0, 0.5, 0.5], [0, 0, 0.5, 0.5], [0, 0.2, 0.4, 0.4], [0.2, 0, 0.4, 0.4]]
    point = pmldesign.envelope(w, [0.25] * 4, deltas=[0.2], lp=True, time_limit=1e-9).curve[0]
    assert point.lp.stopped is True and point.lp.linear_programs == 0
    assert point.lp.upper == pytest.approx(math.log(4))
    assert "1.386295" in point.statement


def test_bounds_agree_with_the_formulas():
    m, delta, n = 1000, 0.05, 4
    beta = math.sqrt(2 / m * (math.log(2**n - 2) - math.log(delta)))
    assert pmldesign.bounds.radius(m, delta, n).beta == pytest.approx(beta, rel=1e-12)
    eps = 0.5
    ep = pmldesign.bounds.epsilon_prime(eps, beta).epsilon_prime
    assert ep == pytest.approx(eps - math.log(1 - beta * math.exp(eps) / 2), rel=1e-12)
    s = pmldesign.bounds.samples(0.5, 0.7, 0.05, 4)
    assert s.delta_min_at_m <= 0.05
    assert pmldesign.bounds.delta_min(0.5, 0.7, s.samples - 1, 4).delta_min > 0.05
    g = pmldesign.bounds.max_epsilon(0.7, 1000, 0.05, 4)
    assert g.epsilon_prime_at_answer == pytest.approx(0.7, abs=1e-9)
    k = pmldesign.bounds.radius(1000, 0.05, estimate=[0.4, 0.3, 0.2, 0.1])
    assert k.beta <= k.beta_distribution_free
    f = pmldesign.bounds.failure_probability(1000, beta, 4)
    assert f.delta == pytest.approx(delta, rel=1e-9)
    assert f.to_dict()["answer"] == {"name": "delta", "value": f.delta}
