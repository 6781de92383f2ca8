"""Additive noise from Python: the same draws and the same measured guarantee as
``pml apply --laplace-scale | --laplace-epsilon | --gaussian-sigma`` for the same key,
column and rows (one library function calibrates and releases for both)."""

from __future__ import annotations

import csv
import io
import math
import pathlib

import numpy as np
import pytest

import pmldesign

KEY = 2**200 + 12345
SIGNS = [1, -1, -1, 1, 1, -1, 1, 1]


def released_by_pml(run_pml, tmp_path: pathlib.Path, *flags: str) -> list:
    data = tmp_path / "signs.csv"
    data.write_text("sign\n" + "".join(f"{x}\n" for x in SIGNS))
    out = tmp_path / "out.csv"
    run_pml("apply", *flags, "--data", str(data), "--column", "sign", "--seed", str(KEY), "--output", str(out))
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    return [float(r["sign_private"]) for r in rows]


@pytest.mark.parametrize(
    "flags,kwargs",
    [
        (["--laplace-scale", "0.8"], {"laplace_scale": 0.8}),
        (["--gaussian-sigma", "0.5", "--grid", "0.25", "--range", "3"], {"gaussian_sigma": 0.5, "grid": 0.25, "range": 3.0}),
        (["--laplace-epsilon", "1", "--prior", "0.3,0.7"], {"laplace_epsilon": 1.0, "prior": [0.3, 0.7]}),
    ],
)
def test_the_draws_are_the_commands(run_pml, tmp_path, flags, kwargs):
    theirs = released_by_pml(run_pml, tmp_path, *flags)
    ours, said = pmldesign.apply_noise(SIGNS, seed=KEY, column="sign", **kwargs)
    assert ours.tolist() == theirs
    assert said.bounded and said.ldp_epsilon is not None
    # Every value is a grid point in the range.
    steps = ours / said.grid_step
    assert np.allclose(steps, np.round(steps)) and np.all(np.abs(ours) <= said.range)


def test_the_calibrated_scale_meets_its_target():
    _, ldp = pmldesign.apply_noise([1, -1], laplace_epsilon=0.5, seed=KEY)
    assert ldp.ldp_epsilon <= 0.5 and ldp.scale == pytest.approx(4.0)
    _, pml = pmldesign.apply_noise([1, -1], laplace_epsilon=0.5, prior=[0.3, 0.7], seed=KEY)
    assert pml.pml_epsilon <= 0.5 < pml.ldp_epsilon
    assert pml.scale < ldp.scale and math.isfinite(pml.continuous_epsilon)


def test_rows_draw_from_their_own_places():
    whole, _ = pmldesign.apply_noise(SIGNS, laplace_scale=1.0, seed=KEY)
    tail, _ = pmldesign.apply_noise(SIGNS[3:], laplace_scale=1.0, seed=KEY, offset=3)
    assert tail.tolist() == whole[3:].tolist()


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({}, "exactly one"),
        ({"laplace_scale": 1.0, "gaussian_sigma": 1.0}, "exactly one"),
        ({"laplace_scale": -1.0}, "laplace_scale"),
        ({"laplace_scale": 1.0, "grid": 0.3}, "grid"),
        ({"laplace_scale": 1.0, "range": 2.1}, "range"),
        ({"laplace_epsilon": 0.0}, "laplace_epsilon"),
        ({"laplace_scale": 1.0, "prior": [0.5]}, "prior"),
    ],
)
def test_bad_arguments_are_refused_naming_them(kwargs, field):
    with pytest.raises(pmldesign.InvalidInputError, match=field):
        pmldesign.apply_noise([1, -1], seed=KEY, **kwargs)


def test_a_value_other_than_plus_or_minus_one_is_refused():
    with pytest.raises(pmldesign.InvalidInputError, match=r"values\[1\]"):
        pmldesign.apply_noise([1, 0.5], laplace_scale=1.0, seed=KEY)
