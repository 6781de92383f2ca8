"""What the receivers of a release get: Design.public(), read back and estimated from."""

import json

import numpy as np
import pytest

import pmldesign
from pmldesign import PmlError, PublicDesign


@pytest.fixture(scope="module")
def design():
    counts = {"red": 310, "green": 190, "blue": 100}
    return pmldesign.design_from_counts(counts, 1.0, delta=1e-6)


def test_the_public_file_holds_no_sample(design):
    p = design.public()
    assert isinstance(p, PublicDesign)
    keys = sorted(p.to_dict())
    assert keys == ["checks", "delta", "format", "guarantee", "labels", "mechanism", "notion", "outputs", "set", "settings", "version"]
    text = p.to_json()
    for absent in ('"prior"', "310", "600", "samples", "beta", "sha256"):
        assert absent not in text, absent
    assert p.labels == design.labels and p.outputs == design.outputs
    np.testing.assert_array_equal(p.mechanism, design.mechanism)
    assert "PML(1)" in p.guarantee


def test_a_public_file_reads_back_and_an_altered_one_is_refused(design):
    p = design.public()
    assert PublicDesign.from_json(p.to_json()) == p
    data = p.to_dict()
    for field, value in (("guarantee", "perfectly private"), ("prior", [0.5, 0.3, 0.2])):
        altered = dict(data, **{field: value})
        with pytest.raises(PmlError, match=field):
            PublicDesign.from_json(json.dumps(altered))
    checks = dict(data["checks"], ldp_epsilon=0.01)
    with pytest.raises(PmlError, match="ldp_epsilon"):
        PublicDesign.from_json(json.dumps(dict(data, checks=checks)))


def test_the_receiver_estimates_from_it_as_from_the_design(design):
    p = design.public()
    counts = [200, 250, 150][: len(p.outputs)] + [0] * max(0, len(p.outputs) - 3)
    from_public = pmldesign.estimate(p, counts=counts).to_dict()
    from_design = pmldesign.estimate(design, counts=counts).to_dict()
    assert from_public["estimates"] == from_design["estimates"]
    assert from_public["note"].startswith("a public file: not re-verified here")
    assert from_design["note"] is None


def test_a_public_design_is_not_applied(design):
    with pytest.raises(PmlError, match="PublicDesign"):
        pmldesign.apply(design.public(), ["red", "green"])


def test_a_record_designs_public_file_estimates_as_the_design(tmp_path, run_pml):
    import json

    import pandas as pd

    frame = pd.DataFrame({"A": ["a1", "a2"] * 300, "B": ["b1", "b1", "b2"] * 200})
    for mode in ("compose", "ldp"):
        record = pmldesign.design_record(frame, ["A", "B"], 2.0, mode=mode)
        public = record.public()
        data = json.loads(public.to_json())
        assert set(data) == {"format", "version", "mode", "columns", "epsilon", "guarantee", "parts"}
        assert public.columns == ["A", "B"] and public.mode == mode and len(public.parts) == 2
        assert "\"prior\"" not in public.to_json() and "\"radii\"" not in public.to_json()
        # The CLI cuts the same file from the same design.
        path = tmp_path / f"{mode}.json"
        path.write_text(record.to_json())
        assert json.loads(run_pml("publish", "--mechanism", str(path))) == data
        again = pmldesign.PublicRecord.from_json(public.to_json())
        assert again.to_json() == public.to_json()
        released = pmldesign.apply(record, frame, seed=2**100 + 3)
        by_public = pmldesign.estimate(public, released).to_dict()
        by_record = pmldesign.estimate(record, released).to_dict()
        assert by_public.pop("note").startswith("a public record file: not re-verified here")
        assert by_record.pop("note") is None
        assert by_public == by_record
        with pytest.raises(PmlError, match="PublicRecord carries no certificate"):
            pmldesign.apply(public, frame)
    data["parts"][0]["mechanism"][0][0] *= 0.9
    with pytest.raises(PmlError, match=r"parts\[0\]"):
        pmldesign.PublicRecord.from_json(json.dumps(data))
    joint = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="joint")
    with pytest.raises(PmlError, match="a joint record has no public file"):
        joint.public()
