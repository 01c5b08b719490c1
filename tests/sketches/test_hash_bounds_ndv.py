"""MurmurHash3 and the seed hash, the confidence bounds, and the ``ndv`` check, against datasketches."""

from __future__ import annotations

import random

import datasketches as ds
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.errors import FormatError, UsageError
from lakestruct.sketches import (
    DEFAULT_SEED_HASH,
    MAX_THETA,
    ThetaSketch,
    check_ndv,
    compare_ndv,
    compute_seed_hash,
    hash_item,
    iceberg_ndv,
    murmur3_x64_128,
)
from lakestruct.sketches import bounds as B


def test_default_seed_hash() -> None:
    assert compute_seed_hash(9001) == DEFAULT_SEED_HASH == 0x93CC
    assert ds.update_theta_sketch().get_seed_hash() == 0x93CC


def test_murmur3_reference_vectors() -> None:
    # empty input with seed 0 hashes to zero; the well-known x64_128 value of "hello" (seed 0)
    assert murmur3_x64_128(b"", 0) == (0, 0)
    assert murmur3_x64_128(b"hello", 0) == (0xCBD8A7B341BD9B02, 0x5B1E906A48AE1D19)


@settings(max_examples=40)
@given(seed=st.integers(1, 2**63 - 1))
def test_seed_hash_matches_datasketches(seed: int) -> None:
    try:
        mine = compute_seed_hash(seed)
    except UsageError:
        return  # seed hash 0, which DataSketches rejects too
    assert mine == ds.update_theta_sketch(seed=seed).get_seed_hash()


@settings(max_examples=40)
@given(
    seed=st.sampled_from([9001, 1, 42]),
    items=st.lists(
        st.one_of(st.integers(-(2**63), 2**63 - 1), st.text(min_size=1, max_size=40), st.floats(allow_nan=True)),
        max_size=30,
    ),
)
def test_hash_item_matches_update_sketch(seed: int, items: list[int | str | float]) -> None:
    sk = ds.update_theta_sketch(lg_k=12, seed=seed)  # 30 items stay in exact mode: every hash is kept
    for it in items:
        sk.update(it)
    assert set(sk) == {hash_item(it, seed) for it in items}


def test_hash_item_rejects_what_it_cannot_hash() -> None:
    for bad in (True, 2**64, [1]):
        with pytest.raises(UsageError):
            hash_item(bad)  # type: ignore[arg-type]
    assert hash_item(b"abc") == hash_item("abc")


# -- bounds -----------------------------------------------------------------------------------
@pytest.mark.parametrize("p", [1.0, 0.9999999, 0.5, 0.1, 0.01])
@pytest.mark.parametrize("n", [1, 2, 3, 10, 60, 119, 121, 500, 5000])
def test_bounds_match_datasketches(n: int, p: float) -> None:
    rng = random.Random(n * 1000 + int(p * 997))
    up = ds.update_theta_sketch(lg_k=6, p=p)
    for _ in range(n):
        up.update(rng.getrandbits(62))
    c = up.compact()
    sk = ThetaSketch.from_bytes(c.serialize())
    k, theta = c.num_retained, c.theta
    table_regime = 2 <= k <= 120 and 0 < theta < k / 360.0
    for sd in (1, 2, 3):
        for ours, theirs in ((sk.lower_bound(sd), c.get_lower_bound(sd)), (sk.upper_bound(sd), c.get_upper_bound(sd))):
            if table_regime:
                assert ours == pytest.approx(theirs, rel=1e-4)
            else:
                assert ours == theirs
        assert sk.lower_bound(sd) <= sk.estimate() <= sk.upper_bound(sd)


def test_equivalent_std_devs_poisson_regime() -> None:
    # k <= 120 and theta tiny: the Poisson-limit equivalent; bounds widen with more standard deviations
    lows = [B.lower_bound(50, 1e-4, sd) for sd in (1, 2, 3)]
    highs = [B.upper_bound(50, 1e-4, sd) for sd in (1, 2, 3)]
    assert lows[0] > lows[1] > lows[2] and highs[0] < highs[1] < highs[2]
    with pytest.raises(ValueError):
        B.lower_bound(5, 0.5, 4)
    with pytest.raises(ValueError):
        B.upper_bound(5, 0.0, 2)


def test_empty_and_exact_bounds() -> None:
    assert ThetaSketch.from_hashes([]).lower_bound() == ThetaSketch.from_hashes([]).upper_bound() == 0.0
    ex = ThetaSketch.from_hashes([1, 2, 3])
    assert ex.lower_bound(3) == ex.upper_bound(3) == ex.estimate() == 3.0


# -- ndv --------------------------------------------------------------------------------------
def _sk(estimate_fraction: float) -> ThetaSketch:
    # 100 hashes at theta such that the estimate is 100 / theta
    theta = int(MAX_THETA * estimate_fraction)
    return ThetaSketch.from_hashes(range(1, 101), theta=theta)


def test_ndv_is_truncated_estimate() -> None:
    sk = _sk(0.4)  # estimate 250.000...
    est = sk.estimate()
    assert iceberg_ndv(sk) == int(est)
    r = check_ndv(sk, str(int(est)))
    assert r.ok and r.ndv == int(est) and r.expected == int(est) and "as Iceberg writes it" in r.message


def test_ndv_tolerance_is_below_one() -> None:
    sk = _sk(0.3)  # estimate 333.33...
    assert sk.estimate() == pytest.approx(333.333, rel=1e-5)
    assert check_ndv(sk, "333").ok
    rounded_up = compare_ndv(sk, "334")  # |334 - 333.33| < 1: accepted, but not what Iceberg writes
    assert rounded_up.ok and "Iceberg would write 333" in rounded_up.message
    for bad in ("332", "335", "0"):
        r = compare_ndv(sk, bad)
        assert r.rule == "theta_compact.ndv-mismatch" and not r.ok
        with pytest.raises(FormatError) as ei:
            check_ndv(sk, bad)
        assert ei.value.rule == "theta_compact.ndv-mismatch" and ei.value.path == "properties.ndv"


@pytest.mark.parametrize("bad", ["", " 5", "5 ", "-5", "5.0", "1e3", "٣", "five"])
def test_ndv_syntax(bad: str) -> None:
    sk = ThetaSketch.from_hashes(range(1, 6))
    with pytest.raises(FormatError) as ei:
        check_ndv(sk, bad)
    assert ei.value.rule == "theta_compact.ndv-syntax"


def test_ndv_of_empty_and_exact() -> None:
    assert check_ndv(ThetaSketch.from_hashes([]), "0").ok
    assert check_ndv(ThetaSketch.from_hashes(range(1, 6)), 5).ok
    assert not compare_ndv(ThetaSketch.from_hashes(range(1, 6)), "6").ok


def test_theta_blob_report() -> None:
    from lakestruct.sketches import theta_blob_report

    data = ThetaSketch.from_hashes(range(1, 6)).to_bytes(3)
    r = theta_blob_report(data, {"ndv": "5"})
    assert r["estimate"] == 5.0 and r["ndv_ok"] is True and r["ndv_rule"] is None and r["serial_version"] == 3
    r = theta_blob_report(data, {"ndv": "7"})
    assert r["ndv_ok"] is False and r["ndv_rule"] == "theta_compact.ndv-mismatch"
    assert "ndv" not in theta_blob_report(data, {})
    with pytest.raises(FormatError):
        theta_blob_report(data[:-1], {"ndv": "5"})
