"""What a release may use. Values are matched to a design's labels by
value (never silently as row indices), a design's rows cannot be re-keyed, every
public route to a Design or RecordDesign verifies it, and the Python reader is
the CLI's (a key given twice is refused)."""

import csv
import json
import warnings

import numpy as np
import pytest

import pmldesign
from pmldesign import PmlError

KEY = "0x" + "6a09e667f3bcc908" * 4


def _integer_design():
    c = np.repeat([1, 2, 3, 4], [100, 200, 300, 400])
    return c, pmldesign.design_from_counts(pmldesign.count(c), 1.0, delta=1e-6)


def test_the_readme_integer_pipeline_matches_by_value(run_pml, tmp_path):
    """An integer column against a design labelled '1'..'4': value 3 is drawn from
    label '3''s row, never from row index 3 (label '4'), and no value is lost;
    numpy, pandas, polars, Arrow and the CLI give the same release."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    c, d = _integer_design()
    assert d.labels == ["1", "2", "3", "4"]
    numpy = pmldesign.apply(d, c, seed=KEY, column="x")
    assert "" not in numpy.tolist()
    assert pmldesign.apply(d, c.tolist(), seed=KEY, column="x").tolist() == numpy.tolist()
    assert pmldesign.apply(d, pd.Series(c, name="x"), seed=KEY).astype(str).tolist() == numpy.tolist()
    assert pmldesign.apply(d, pl.Series("x", c), seed=KEY).cast(pl.String).to_list() == numpy.tolist()
    arrow = pmldesign.apply(d, pa.array(c), seed=KEY, column="x")
    assert arrow.cast(pa.string()).to_pylist() == numpy.tolist()
    (tmp_path / "d.json").write_text(d.to_json())
    with open(tmp_path / "in.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["x"])
        w.writerows([v] for v in c.tolist())
    run_pml("apply", "--mechanism", str(tmp_path / "d.json"), "--data", str(tmp_path / "in.csv"),
            "--column", "x", "--output", str(tmp_path / "out.csv"), "--seed", KEY)
    with open(tmp_path / "out.csv", newline="") as f:
        cli = [row["x_private"] for row in csv.DictReader(f)]
    assert cli == numpy.tolist()


def test_row_indices_only_when_asked():
    c, d = _integer_design()
    by_value = pmldesign.apply(d, c, seed=KEY)
    by_code = pmldesign.apply(d, c - 1, seed=KEY, codes=True)
    assert by_code.tolist() == by_value.tolist()
    with pytest.raises(PmlError, match="codes=True"):
        pmldesign.apply(d, ["1", "2"], seed=KEY, codes=True)
    with pytest.raises(PmlError, match="codes"):
        pmldesign.apply(d, c, seed=KEY, codes="yes")


def test_the_unknown_value_error_does_not_contradict_itself():
    _, d = _integer_design()
    with pytest.raises(PmlError) as e:
        pmldesign.apply(d, np.array([1, 5]), seed=KEY)
    assert "5" in str(e.value) and "np.int64(4)" not in str(e.value)


def test_labels_cannot_rekey_a_design():
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6, labels=["x1", "x2", "x3", "x4"])
    values = ["x1", "x2", "x3", "x4"] * 10
    with pytest.raises(PmlError, match="re-keyed"):
        pmldesign.apply(d, values, seed=KEY, labels=["x2", "x1", "x3", "x4"])
    same = pmldesign.apply(d, values, seed=KEY, labels=d.labels)
    assert same.tolist() == pmldesign.apply(d, values, seed=KEY).tolist()


def test_a_bare_matrix_warns_that_no_guarantee_was_checked():
    with pytest.warns(UserWarning, match="no privacy guarantee was checked"):
        pmldesign.apply(np.eye(2), ["x1", "x2"], seed=KEY)
    d = pmldesign.design([0.5, 0.5], 0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pmldesign.apply(d, ["x1", "x2"], seed=KEY)


def test_every_constructor_verifies():
    d = pmldesign.design([0.3, 0.25, 0.2, 0.15, 0.1], 0.5)
    forged = d.to_dict()
    n = len(forged["certificate"]["dual"]["lambda"])
    forged["certificate"]["dual"]["lambda"] = [0.0] * n
    forged["certificate"]["dual"]["max_reduced_cost"] = 0.0
    forged["certificate"]["dual"]["bound"] = 0.0
    for make in (pmldesign.Design, pmldesign.Design.from_dict, lambda v: pmldesign.Design.from_json(json.dumps(v))):
        with pytest.raises(PmlError, match="certificate.dual"):
            make(forged)
    assert pmldesign.Design(d.to_dict()).to_dict() == d.to_dict()


def test_a_small_gap_edited_to_optimal_is_refused():
    """A dual proving a bound 1e-7 relative above the utility (6e-11 absolute: under
    the old slack of 1e-9 (1 + |U|)), stated as optimal with the bound lowered to
    the utility, is refused: the stated bound follows the status's relative rule."""
    p = np.arange(1, 13) / 78
    d = pmldesign.design(p, 0.01)
    forged = d.to_dict()
    u = forged["certificate"]["utility_value"]
    weaker = 1e-7 * u
    dual = forged["certificate"]["dual"]
    dual["lambda"][0] += weaker
    dual["bound"] += weaker
    forged["status"] = "optimal"
    forged["note"] = None
    forged["certificate"]["upper_bound"] = u
    forged["certificate"]["gap"] = 0.0
    with pytest.raises(PmlError, match="certificate.upper_bound"):
        pmldesign.Design.from_dict(forged)


def test_a_key_given_twice_is_refused():
    """json.loads keeps the last of two keys; the reader of the CLI refuses the file,
    and so does from_json (a leaky matrix first and an honest one last would be
    applied leaky by a first-wins reader)."""
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6)
    text = d.to_json()
    leaky = json.dumps([[1.0, 0.0, 0.0, 0.0]] * 4)
    twice = text.replace('"mechanism":', f'"mechanism": {leaky}, "mechanism":', 1)
    with pytest.raises(PmlError, match="duplicate"):
        pmldesign.Design.from_json(twice)


def test_record_designs_verify_on_every_constructor():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"A": list("aabbbcaabc") * 20, "B": list("xyxyyxxyxy") * 20})
    r = pmldesign.design_record(frame, ["A", "B"], 1.0, mode="compose")
    forged = r.to_dict()
    dual = forged["designs"][0]["certificate"]["dual"]
    dual["lambda"] = [0.0] * len(dual["lambda"])
    dual["max_reduced_cost"] = 0.0
    dual["bound"] = 0.0
    with pytest.raises(PmlError, match="certificate.dual"):
        pmldesign.RecordDesign.from_json(json.dumps({"record": forged}))
    with pytest.raises(PmlError, match="certificate.dual"):
        pmldesign.RecordDesign(forged)


@pytest.mark.parametrize("bad", [True, False, np.bool_(True)])
def test_booleans_are_not_levels(bad):
    with pytest.raises(PmlError, match="boolean"):
        pmldesign.design([0.5, 0.5], bad)


def test_an_alphabet_past_the_limit_is_refused_not_aborted():
    """100,000 categories aborted the interpreter (an 80 GB allocation): now a
    PmlError naming the limit, from design and design_from_counts alike."""
    with pytest.raises(PmlError, match="4096"):
        pmldesign.design_from_counts([1] * 100_000, 1.0, delta=1e-6)
    with pytest.raises(PmlError, match="4096"):
        pmldesign.design(np.full(100_000, 1e-5), 1.0)
