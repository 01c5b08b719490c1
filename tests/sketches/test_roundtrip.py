"""Round trips and the datasketches package as an oracle.

* random hash sets and theta -> our writer (construct) -> the Kaitai reader and
  the construct parser -> the same model, in serial versions 3 and 4;
* sketches built by the datasketches package (update_theta_sketch with random
  items, compact(ordered=True)) -> their v3 and v4 bytes -> our reader -> our
  writer gives the same bytes; and datasketches reads our bytes back to the
  same estimate and hashes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import datasketches as ds
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.sketches import MAX_THETA, ThetaSketch, bitpack, compute_seed_hash, spec
from lakestruct.sketches.read import assemble, kaitai_tree
from tests.helpers import assert_roundtrip

SEEDS = st.sampled_from([9001, 1, 42, 123456789])


@st.composite
def sketches(draw: Any) -> ThetaSketch:
    theta = draw(st.one_of(st.just(MAX_THETA), st.integers(2, MAX_THETA)))
    small = draw(st.booleans())
    top = min(theta - 1, 2**20) if small else theta - 1  # small hashes give narrow deltas in v4
    hashes = draw(st.sets(st.integers(1, top), max_size=40)) if top >= 1 else set()
    ordered = draw(st.booleans())
    seq = sorted(hashes) if ordered else draw(st.permutations(sorted(hashes)))
    return ThetaSketch.from_hashes(seq, theta=theta, seed=draw(SEEDS), ordered=ordered)


def _construct_model(data: bytes, seed: int | None) -> ThetaSketch:
    """The second opinion: construct parses the bytes, the shared checks build the model."""
    c = spec.parse(data)
    body = c.body
    version, pre_longs = c.serial_version, c.preamble.pre_longs
    if version == 4:
        deltas = bitpack.unpack(body.deltas, body.num_entries, body.entry_bits)
        start = 8 * pre_longs + body.num_entries_bytes
        return assemble(4, pre_longs, data[5], body.seed_hash, body.theta_long, deltas, len(data), len(data),
                        entries_offset=start, seed=seed, allow_trailing=False, entry_bits=body.entry_bits)  # fmt: skip
    return assemble(version, pre_longs, data[5], body.seed_hash, body.theta_long, list(body.entries), len(data), len(data),
                    entries_offset=8 * pre_longs, seed=seed, allow_trailing=False,
                    num_entries=body.num_entries, p=body.p if pre_longs >= 2 else 0.0)  # fmt: skip


@settings(max_examples=150)
@given(sk=sketches(), version=st.sampled_from([3, 4]))
def test_writer_kaitai_construct_agree(sk: ThetaSketch, version: int) -> None:
    seed_of = {compute_seed_hash(s): s for s in (9001, 1, 42, 123456789)}
    seed = seed_of[sk.seed_hash]
    data = assert_roundtrip(
        sk,
        lambda m: m.to_bytes(version),
        {
            "kaitai": lambda b: ThetaSketch.from_bytes(b, seed=seed),
            "construct": lambda b: _construct_model(b, seed),
        },
    )
    back = ThetaSketch.from_bytes(data, seed=seed)
    v4 = version == 4 and sk.ordered and sk.num_retained > 0 and not (sk.num_retained == 1 and not sk.is_estimation_mode)
    assert back.serial_version == (4 if v4 else 3)
    assert back.flags == (0x1A if v4 else sk.flags)
    assert back.estimate() == sk.estimate()
    # construct builds what it parses
    assert spec.build(spec.parse(data)) == data
    # the raw Kaitai tree names the same fields
    tree = kaitai_tree(data)
    assert (tree.serial_version, tree.pre_longs, tree.body.seed_hash) == (back.serial_version, back.pre_longs, sk.seed_hash)


@settings(max_examples=150)
@given(sk=sketches(), version=st.sampled_from([3, 4]))
def test_datasketches_reads_our_bytes(sk: ThetaSketch, version: int) -> None:
    seed = {compute_seed_hash(s): s for s in (9001, 1, 42, 123456789)}[sk.seed_hash]
    data = sk.to_bytes(version)
    theirs = ds.compact_theta_sketch.deserialize(data, seed=seed)
    assert theirs.get_estimate() == sk.estimate()
    assert theirs.theta64 == sk.theta_long
    assert theirs.num_retained == sk.num_retained
    assert theirs.is_empty() == sk.empty
    assert list(theirs) == list(sk.entries)
    # and their re-serialization of what they read is ours (ordered sketches, where C++ keeps our order flag)
    assert theirs.serialize() == replace(sk, p=0.0).to_bytes(3)
    if sk.ordered:
        assert theirs.serialize(True) == sk.to_bytes(4)


@st.composite
def package_sketches(draw: Any) -> tuple[Any, int]:
    seed = draw(SEEDS)
    lg_k = draw(st.integers(5, 10))
    p = draw(st.sampled_from([1.0, 1.0, 0.5, 0.05]))
    sk = ds.update_theta_sketch(lg_k=lg_k, p=p, seed=seed)
    kind = draw(st.sampled_from(["int", "str", "float"]))
    n = draw(st.integers(0, 3000))
    base = draw(st.integers(-(2**62), 2**62))
    for i in range(n):
        if kind == "int":
            sk.update(base + i)
        elif kind == "str":
            sk.update(f"{base}-{i}")
        else:
            sk.update(float(base) + i * 0.5)
    return sk, seed


@settings(max_examples=60)
@given(pkg=package_sketches())
def test_package_sketches_byte_identical(pkg: tuple[Any, int]) -> None:
    update, seed = pkg
    compact = update.compact(True)
    v3, v4 = compact.serialize(), compact.serialize(True)
    ours3 = ThetaSketch.from_bytes(v3, seed=seed)
    ours4 = ThetaSketch.from_bytes(v4, seed=seed)
    assert ours3 == ours4
    assert ours3.to_bytes(3) == v3
    assert ours3.to_bytes(4) == v4
    assert ours4.to_bytes(4) == v4
    assert ours3.estimate() == compact.get_estimate()
    assert ours3.theta_long == compact.theta64
    assert ours3.empty == compact.is_empty()
    for sd in (1, 2, 3):
        # exact except where DataSketches reads a precomputed table (k <= 120, small theta): see bounds.py
        k, th = compact.num_retained, compact.theta
        tol = 1e-4 if (2 <= k <= 120 and th < k / 360.0) else 0.0
        assert abs(ours3.lower_bound(sd) - compact.get_lower_bound(sd)) <= tol * compact.get_lower_bound(sd)
        assert abs(ours3.upper_bound(sd) - compact.get_upper_bound(sd)) <= tol * compact.get_upper_bound(sd)
    # the same hashes built from scratch give the same bytes
    rebuilt = ThetaSketch.from_hashes(list(compact), theta=compact.theta64, seed=seed, empty=compact.is_empty())
    assert rebuilt.to_bytes(3) == v3 and rebuilt.to_bytes(4) == v4


def test_unordered_package_sketch() -> None:
    up = ds.update_theta_sketch(lg_k=5)
    for i in range(100):
        up.update(i)
    compact = up.compact(False)
    data = compact.serialize()
    ours = ThetaSketch.from_bytes(data)
    assert not ours.ordered and list(ours.entries) == list(compact)
    assert ours.to_bytes(3) == data
    assert ours.to_bytes(4) == compact.serialize(True) == data  # unordered: C++ falls back to v3


def test_from_hashes_rejects_what_no_sketch_holds() -> None:
    import pytest

    from lakestruct.errors import UsageError

    for bad in ([0], [MAX_THETA], [5, 5], ["x"], [True]):
        with pytest.raises(UsageError):
            ThetaSketch.from_hashes(bad)
    with pytest.raises(UsageError):
        ThetaSketch.from_hashes([10], theta=10)
    with pytest.raises(UsageError):
        ThetaSketch.from_hashes([], theta=0)
    with pytest.raises(UsageError):
        ThetaSketch.from_hashes([1], empty=True)
    with pytest.raises(UsageError):
        ThetaSketch.from_hashes([1]).to_bytes(2)
    half = ThetaSketch.from_hashes([1, 2], theta=0.5)
    assert half.theta_long == int(0.5 * MAX_THETA) and half.is_estimation_mode and half.pre_longs == 3


def test_non_empty_sketch_without_hashes() -> None:
    """Non-empty with no hashes: two preamble longs at theta 1.0, three below it (as C++ writes them)."""
    for theta, pre_longs in ((MAX_THETA, 2), (MAX_THETA // 100, 3)):
        sk = ThetaSketch.from_hashes([], theta=theta, empty=False)
        data = sk.to_bytes(3)
        assert data[0] == pre_longs and data[5] == 0x1A and len(data) == 8 * pre_longs
        assert sk.to_bytes(4) == data  # no hashes: never compressed
        back = ThetaSketch.from_bytes(data)
        assert back == sk and not back.empty and back.estimate() == 0.0
        theirs = ds.compact_theta_sketch.deserialize(data)
        assert not theirs.is_empty() and theirs.theta64 == theta and theirs.serialize() == data
