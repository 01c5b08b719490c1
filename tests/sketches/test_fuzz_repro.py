"""Theta sketches from ``fuzz-repro/`` (read in place, with the ``ndv`` the fuzzer passed, from the note), and the
bounds at tiny theta against DataSketches and a 60-digit closed form.

Before the fixes: ``compare_ndv`` raised OverflowError (400 digits) or ValueError (5,000 digits), and the bounds of a
sketch with ``theta_long = 1`` raised ZeroDivisionError.
"""

from __future__ import annotations

import decimal
import json
from pathlib import Path

import datasketches as ds
import pytest

from lakestruct.errors import FormatError
from lakestruct.sketches import ThetaSketch, check_ndv, compare_ndv, theta_blob_report
from lakestruct.sketches.bounds import delta_of
from lakestruct.sketches.model import MAX_THETA

OVERFLOW = "theta_builtins.OverflowError_lakestruct_sketches_ndv.py_66_compare_ndv.bin"
VALUEERROR = "theta_builtins.ValueError_lakestruct_sketches_ndv.py_65_compare_ndv.bin"
ZERODIV = "theta_builtins.ZeroDivisionError_lakestruct_sketches_bounds.py_141__approx_ub.bin"


def _repro(corpus: Path, name: str) -> tuple[bytes, dict[str, str]]:
    path = corpus / "fuzz-repro" / name
    if not path.is_file():
        pytest.skip(f"{name} is not in this corpus")
    note = json.loads(path.with_suffix(".txt").read_text().splitlines()[0])  # the fuzzer's record: params it called with
    return path.read_bytes(), note["params"]


@pytest.mark.parametrize(("name", "digits"), [(OVERFLOW, 400), (VALUEERROR, 5000)])
def test_ndv_of_hundreds_or_thousands_of_digits(corpus: Path, name: str, digits: int) -> None:
    data, params = _repro(corpus, name)
    assert len(params["ndv"]) == digits
    sk = ThetaSketch.from_bytes(data)
    r = compare_ndv(sk, params["ndv"])  # never raises
    assert (r.ok, r.rule, r.ndv) == (False, "theta_compact.ndv-range", None)
    assert f"({digits} digits)" in r.message
    with pytest.raises(FormatError) as e:
        check_ndv(sk, params["ndv"])
    assert e.value.rule == "theta_compact.ndv-range" and e.value.path == "properties.ndv"
    report = theta_blob_report(data, {"ndv": params["ndv"]})
    assert report["ndv_ok"] is False and report["ndv_rule"] == "theta_compact.ndv-range"


def test_ndv_long_boundary() -> None:
    sk = ThetaSketch.from_hashes([1, 2, 3])
    assert compare_ndv(sk, "0003").ok  # leading zeros: still the number 3
    assert compare_ndv(sk, str(2**63 - 1)).rule == "theta_compact.ndv-mismatch"  # a long, just not the estimate
    assert compare_ndv(sk, str(2**63)).rule == "theta_compact.ndv-range"
    assert compare_ndv(sk, "0" * 5000 + "3").ok  # 5,001 characters, but the value 3


def _closed_form(theta_long: int, sd: int, upper: bool) -> float:
    """k = 0 upper bound ceil(log(delta)/log(1-theta)), k = 1 lower bound floor(log(1-delta)/log(1-theta)), at 60 digits."""
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        theta = decimal.Decimal(theta_long) / decimal.Decimal(MAX_THETA)
        delta = decimal.Decimal(delta_of(sd))
        raw = (delta if upper else 1 - delta).ln() / (1 - theta).ln()
        return float(raw.to_integral_value(rounding=decimal.ROUND_CEILING if upper else decimal.ROUND_FLOOR))


def test_theta_long_1_bounds(corpus: Path) -> None:
    data, params = _repro(corpus, ZERODIV)
    sk = ThetaSketch.from_bytes(data)
    assert (sk.theta_long, sk.num_retained, sk.empty, sk.estimate()) == (1, 0, False, 0.0)
    for sd in (1, 2, 3):
        assert sk.lower_bound(sd) == 0.0
        assert sk.upper_bound(sd) == pytest.approx(_closed_form(1, sd, upper=True), rel=1e-12)
    assert sk.summary()["upper_bound_2sd"] == sk.upper_bound(2)
    assert compare_ndv(sk, params["ndv"]).rule == "theta_compact.ndv-range"  # the note's ndv has 20 digits


@pytest.mark.parametrize("theta_long", [1, 2, 3, 1000, 2**20, 2**40, 2**53, 2**62])
def test_closed_form_bounds_at_every_theta(theta_long: int) -> None:
    """k = 0 and k = 1 use the closed forms: ours equal them at 60 digits down to theta_long = 1; DataSketches
    computes log(1 - theta), which is exact enough from theta_long ~ 2^40 and collapses below 2^10."""
    for k in (0, 1):
        if theta_long <= k:
            continue
        sk = ThetaSketch.from_hashes(range(1, k + 1), theta=theta_long)
        theirs = ds.compact_theta_sketch.deserialize(sk.to_bytes())
        for sd in (1, 2, 3):
            if k == 0:
                ours, exact, ds_value = sk.upper_bound(sd), _closed_form(theta_long, sd, upper=True), theirs.get_upper_bound(sd)
            else:
                ours, exact, ds_value = sk.lower_bound(sd), _closed_form(theta_long, sd, upper=False), theirs.get_lower_bound(sd)
            assert ours == pytest.approx(exact, rel=1e-9, abs=1.0)
            if theta_long >= 2**40:  # where DataSketches' log(1 - theta) holds (its delta table differs in the 6th digit)
                assert ours == pytest.approx(ds_value, rel=1e-5, abs=1.0)
            assert sk.lower_bound(sd) <= sk.estimate() <= sk.upper_bound(sd)
        if theta_long == 1:  # what DataSketches reports there: an upper bound of 0 for a sketch that saw ~nothing
            assert theirs.get_upper_bound(2) == 0.0 < sk.upper_bound(2)


@pytest.mark.parametrize("k", [2, 5, 60, 120, 121, 500])
def test_tiny_theta_gaussian_bounds_agree_with_datasketches(k: int) -> None:
    """k >= 2 at theta_long = k + 1 (theta ~1e-16): the Gaussian paths, where DataSketches is finite and agrees."""
    sk = ThetaSketch.from_hashes(range(1, k + 1), theta=k + 1)
    theirs = ds.compact_theta_sketch.deserialize(sk.to_bytes())
    for sd in (1, 2, 3):
        rel = 1e-4 if k <= 120 else 1e-12  # k <= 120: its equivalent-deviation table, ours in closed form
        assert sk.lower_bound(sd) == pytest.approx(theirs.get_lower_bound(sd), rel=rel)
        assert sk.upper_bound(sd) == pytest.approx(theirs.get_upper_bound(sd), rel=rel)
