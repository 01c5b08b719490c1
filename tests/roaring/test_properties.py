"""Property tests: our encoder -> every decoder (NumPy, Cython, Kaitai, construct) -> the same positions;
byte equality with pyroaring (CRoaring); the two decoder twins agree on every corrupted input."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyroaring import BitMap, BitMap64

from lakestruct.errors import FormatError, LimitError
from lakestruct.roaring import HAVE_C, decode_roaring32, decode_roaring64, encode32, encode64
from lakestruct.roaring import spec as rspec
from lakestruct.roaring.read import reference_values64
from tests.helpers import assert_roundtrip

IMPLS = ["python", "c"] if HAVE_C else ["python"]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def position_sets(draw: st.DrawFn, max_key: int = 6, high_keys: bool = False) -> np.ndarray:
    """Empty, sparse, dense, runs, bitmap-sized containers, container/word edges, several (high) keys."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    parts: list[np.ndarray] = []
    for _ in range(draw(st.integers(0, 4))):
        if high_keys:
            key = draw(st.one_of(st.integers(0, 3), st.integers(2**31 - 4, 2**31 + 3), st.integers(2**32 - 3, 2**32 - 1)))
        else:
            key = draw(st.integers(0, max_key))
        base = (key << 32) | (draw(st.integers(0, 65535)) << 16)
        kind = draw(st.sampled_from(["sparse", "dense", "runs", "bitmap", "edges", "tie"]))
        if kind == "sparse":
            vals = rng.integers(0, 2 ** draw(st.integers(4, 32)), draw(st.integers(1, 300)))
        elif kind == "dense":
            start = draw(st.integers(0, 2**17))
            vals = np.arange(start, start + draw(st.integers(1, 140_000)))
        elif kind == "runs":
            starts = np.sort(rng.integers(0, 2**18, draw(st.integers(1, 40))))
            vals = np.concatenate([np.arange(s, s + rng.integers(1, 3000)) for s in starts])
        elif kind == "bitmap":
            vals = rng.choice(65536, draw(st.integers(4090, 9000)), replace=False)
        elif kind == "edges":
            vals = np.array(draw(st.lists(st.sampled_from([0, 1, 63, 64, 65535, 65536, 65537, 2**31, 2**32 - 2, 2**32 - 1]), min_size=1)))
        else:  # array/run size ties: card = 2*runs + {0, 1, 2}
            runs = draw(st.integers(1, 8))
            lens = [1] * runs
            for _ in range(draw(st.integers(0, 2)) + runs):
                lens[rng.integers(0, runs)] += 1
            vals = np.concatenate([np.arange(4 * i * 16, 4 * i * 16 + n) for i, n in enumerate(lens)])
        vals = vals[vals < 2**32]
        parts.append(np.uint64(base & ~0xFFFFFFFF) + ((np.uint64(base & 0xFFFFFFFF) + vals.astype(np.uint64)) & np.uint64(0xFFFFFFFF)))
    if not parts:
        return np.empty(0, dtype=np.uint64)
    return np.unique(np.concatenate(parts).astype(np.uint64))


def _kaitai(data: bytes) -> tuple[int, ...]:
    return tuple(reference_values64(data).tolist())


def _construct(data: bytes) -> tuple[int, ...]:
    parsed = rspec.parse64(data)
    return tuple((b.key << 32) | v for b in parsed.bitmaps for v in rspec.container_values(b.bitmap))


def _fast(impl: str):  # type: ignore[no-untyped-def]
    return lambda data: tuple(decode_roaring64(data, impl=impl).tolist())


@FAST
@given(position_sets())
def test_roundtrip_every_decoder(pos: np.ndarray) -> None:
    model = tuple(pos.tolist())
    parsers = {"kaitai": _kaitai, "construct": _construct, **{impl: _fast(impl) for impl in IMPLS}}
    data = assert_roundtrip(model, lambda m: encode64(np.array(m, dtype=np.uint64)), parsers)
    assert rspec.build64(rspec.to_model(pos)) == data  # construct builds the same bytes
    assert int.from_bytes(data[:8], "little") == (int(pos[-1] >> np.uint64(32)) + 1 if pos.size else 0)  # every key, gaps included


@FAST
@given(position_sets(high_keys=True))
def test_high_keys_without_gaps(pos: np.ndarray) -> None:
    data = encode64(pos, fill_gaps=False)
    for impl in IMPLS:
        np.testing.assert_array_equal(decode_roaring64(data, impl=impl), pos)  # type: ignore[arg-type]
    assert _construct(data) == tuple(pos.tolist())
    if pos.size and int(pos[-1]) >= 2**63:
        with pytest.raises(FormatError) as e:
            decode_roaring64(data, iceberg=True)
        assert e.value.rule in ("deletion-vector.key-unsigned", "deletion-vector.key-too-large")


@FAST
@given(position_sets(high_keys=True))
def test_pyroaring_bytes_equal_without_gaps(pos: np.ndarray) -> None:
    bm = BitMap64(pos.tolist())
    bm.run_optimize()
    # CRoaring writes only the non-empty keys; containers are chosen as Java chooses them
    assert encode64(pos, fill_gaps=False) == bm.serialize()
    np.testing.assert_array_equal(decode_roaring64(bm.serialize()), pos)


@FAST
@given(position_sets(max_key=0))
def test_pyroaring_32bit_bytes_equal(pos: np.ndarray) -> None:
    low = pos.astype(np.uint32)
    bm = BitMap(low.tolist())
    bm.run_optimize()
    assert encode32(low) == bm.serialize()
    for impl in IMPLS:
        np.testing.assert_array_equal(decode_roaring32(bm.serialize(), impl=impl), low)  # type: ignore[arg-type]


def test_array_run_tie_keeps_the_array() -> None:
    # {0,1,2}: array = 6 bytes, run = 2 + 4 = 6 bytes: Java converts only when strictly smaller, so it stays
    # an array (cookie 12346); {0,1,2,3} becomes a run container (cookie 12347). CRoaring agrees.
    assert encode32([0, 1, 2])[:4] == bytes.fromhex("3a300000")
    assert encode32([0, 1, 2, 3])[:2] == bytes.fromhex("3b30")
    for vals in ([0, 1, 2], [0, 1, 2, 3]):
        bm = BitMap(vals)
        bm.run_optimize()
        assert bm.serialize() == encode32(vals)


def _outcome(data: bytes, impl: str, iceberg: bool) -> tuple[object, ...]:
    try:
        return ("ok", tuple(decode_roaring64(data, impl=impl, iceberg=iceberg).tolist()))  # type: ignore[arg-type]
    except FormatError as e:
        return (type(e).__name__, e.rule, e.path, e.offset)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(position_sets(max_key=2), st.data())
def test_twins_agree_on_corrupted_input(pos: np.ndarray, data: st.DataObject) -> None:
    raw = bytearray(encode64(pos))
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "set", "truncate", "insert"]))
        if not raw:
            break
        i = data.draw(st.integers(0, len(raw) - 1))
        if op == "flip":
            raw[i] ^= 1 << data.draw(st.integers(0, 7))
        elif op == "set":
            raw[i] = data.draw(st.integers(0, 255))
        elif op == "truncate":
            del raw[i:]
        else:
            raw[i:i] = bytes(data.draw(st.binary(min_size=1, max_size=4)))
    blob = bytes(raw)
    iceberg = data.draw(st.booleans())
    outcomes = {impl: _outcome(blob, impl, iceberg) for impl in IMPLS}
    assert len(set(outcomes.values())) == 1, outcomes
    result = outcomes["python"]
    if len(blob) < 200_000:
        try:
            ks: tuple[int, ...] | None = _kaitai(blob)
        except FormatError:
            ks = None
        if result[0] == "ok":  # whatever the fast decoder accepts, the Kaitai spec parses the same
            assert ks == result[1]
        if ks is None:  # the spec's checks are a subset of the decoder's: what it rejects, the decoder rejects
            assert result[0] != "ok"


@pytest.mark.parametrize("impl", IMPLS)
def test_huge_count_fails_fast_without_allocating(impl: str) -> None:
    data = (2**32 - 1).to_bytes(8, "little") + bytes(12)  # 20 bytes claiming 4 billion bitmaps
    tracemalloc.start()
    try:
        with pytest.raises(FormatError) as e:
            decode_roaring64(data, impl=impl)  # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert e.value.rule == "roaring64.bitmap-count" and peak < 64 * 1024


@pytest.mark.parametrize("impl", IMPLS)
def test_sparse_high_key_costs_nothing(impl: str) -> None:
    pos = np.array([((2**31 - 2) << 32) | 5], dtype=np.uint64)
    data = encode64(pos, fill_gaps=False)
    tracemalloc.start()
    try:
        got = decode_roaring64(data, iceberg=True, impl=impl)  # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(got, pos)
    assert peak < 1024 * 1024


@pytest.mark.parametrize("impl", IMPLS)
def test_max_positions_limit(impl: str) -> None:
    data = encode64(np.arange(1000, dtype=np.uint64))
    with pytest.raises(LimitError) as e:
        decode_roaring64(data, impl=impl, max_positions=999)  # type: ignore[arg-type]
    assert e.value.rule == "roaring.max-positions"


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize(
    ("patch", "rule", "path", "at"),
    [
        # one array container {1, 3, 5} in a 64-bit bitmap: count(8) key(4) cookie(4) size(4) desc(4) offset(4) values(6)
        (lambda b: b[:28] + (3).to_bytes(2, "little") + b[30:], "roaring32.array-order", "bitmaps[0].containers[0].values[1]", 30),
        (lambda b: b[:24] + (99).to_bytes(4, "little") + b[28:], "roaring32.container-offset", "bitmaps[0].offsets[0]", 24),
        (lambda b: b[:12] + (12345).to_bytes(4, "little") + b[16:], "roaring32.cookie", "bitmaps[0].cookie", 12),
        (lambda b: b[:-1], "roaring32.truncated", "bitmaps[0].containers[0]", 28),
        (lambda b: b + b"\x00", "roaring64.trailing-bytes", "trailing", 34),
    ],
)
def test_rules_name_offsets_and_paths(impl: str, patch: object, rule: str, path: str, at: int) -> None:
    good = encode64([1, 3, 5])
    bad = patch(good)  # type: ignore[operator]
    with pytest.raises(FormatError) as e:
        decode_roaring64(bad, impl=impl, base_offset=100, path="vector")  # type: ignore[arg-type]
    assert e.value.rule == rule and e.value.path == f"vector.{path}"
    assert e.value.offset == 100 + at  # where the offending field starts, from the layout above


@pytest.mark.parametrize("impl", IMPLS)
def test_run_rules(impl: str) -> None:
    # 32-bit bitmap, cookie 12347 with one run container (no offset header): cookie(4) flags(1) desc(4) nruns(2) runs
    def bitmap(runs: list[tuple[int, int]], card: int) -> bytes:
        body = len(runs).to_bytes(2, "little") + b"".join(s.to_bytes(2, "little") + m.to_bytes(2, "little") for s, m in runs)
        return (12347).to_bytes(4, "little") + b"\x01" + (0).to_bytes(2, "little") + (card - 1).to_bytes(2, "little") + body

    ok = bitmap([(10, 4), (20, 0)], 6)
    np.testing.assert_array_equal(decode_roaring32(ok, impl=impl), [10, 11, 12, 13, 14, 20])  # type: ignore[arg-type]
    cases = [
        (bitmap([(65530, 10)], 11), "roaring32.run-overflow"),
        (bitmap([(10, 4), (12, 0)], 6), "roaring32.run-order"),
        (bitmap([(10, 4), (15, 0)], 6), "roaring32.run-adjacent"),
        (bitmap([(10, 4), (20, 0)], 7), "roaring32.run-cardinality"),
    ]
    for data, rule in cases:
        with pytest.raises(FormatError) as e:
            decode_roaring32(data, impl=impl)  # type: ignore[arg-type]
        assert e.value.rule == rule


@pytest.mark.parametrize("impl", IMPLS)
def test_bitmap_cardinality_rule(impl: str) -> None:
    data = bytearray(encode32(np.arange(0, 65536, 3, dtype=np.uint32)))  # one bitmap container
    data[10:12] = (5000 - 1).to_bytes(2, "little")  # claim another cardinality (> 4096 keeps it a bitmap)
    with pytest.raises(FormatError) as e:
        decode_roaring32(bytes(data), impl=impl)  # type: ignore[arg-type]
    assert e.value.rule == "roaring32.bitmap-cardinality" and e.value.path == "descriptors[0].cardinality"
    assert e.value.offset == 10


def _outcome32(data: bytes, impl: str) -> tuple[object, ...]:
    try:
        return ("ok", tuple(decode_roaring32(data, impl=impl).tolist()))  # type: ignore[arg-type]
    except FormatError as e:
        return (e.rule, e.path, e.offset)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 7), min_size=1, max_size=12), st.data())
def test_small_array_containers_fill_and_order_errors(cards: list[int], data: st.DataObject) -> None:
    # Many containers of 1..7 values (the compiled twin fills those of at most 4 without a branch on the count,
    # the last ones near the end of the input the general way): values, and the array-order error of one swapped
    # pair (its rule, path and offset), equal the pure twin's, for 32-bit (narrow) and 64-bit decodes.
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    values = np.concatenate([(i << 16) + np.sort(rng.choice(65536, c, replace=False)) for i, c in enumerate(cards)])
    bm = BitMap(values.tolist())
    good = bm.serialize()
    assert {_outcome32(good, impl) for impl in IMPLS} == {("ok", tuple(values.tolist()))}
    i = data.draw(st.integers(0, len(cards) - 1))
    if cards[i] < 2:
        return
    j = data.draw(st.integers(0, cards[i] - 2))
    body = 8 + 8 * len(cards) + 2 * sum(cards[:i])  # cookie, count, descriptors, offsets; then the arrays
    at = body + 2 * j
    bad = good[:at] + good[at + 2 : at + 4] + good[at : at + 2] + good[at + 4 :]  # swap values j and j + 1
    outcomes32 = {impl: _outcome32(bad, impl) for impl in IMPLS}
    assert outcomes32["python"][0] == "roaring32.array-order"
    assert len(set(outcomes32.values())) == 1, outcomes32
    wide = (1).to_bytes(8, "little") + (3).to_bytes(4, "little") + bad
    outcomes64 = {impl: _outcome(wide, impl, False) for impl in IMPLS}
    assert len(set(outcomes64.values())) == 1, outcomes64


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([1, 1, 1, 2, 2, 3, 4, 5, 40, 5000]), min_size=1, max_size=40), st.data())
def test_twins_agree_on_corrupted_headers_of_bitmaps_without_runs(cards: list[int], data: st.DataObject) -> None:
    # Bitmaps without run containers (cookie 12346) of many small containers, as sparse deletes leave them, with a
    # few arrays and a bitmap container among them: the compiled twin checks their descriptors and offset header in
    # one loop without a branch and fills runs of small containers in C. Intact, they decode to the written values;
    # with one to three bytes of the descriptors or offsets changed, both twins give the same outcome (error class,
    # rule, path and offset, or the same values).
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    ckeys = np.sort(rng.choice(65536, len(cards), replace=False))
    key = data.draw(st.integers(0, 3))
    values = np.concatenate(
        [(key << 32) + (int(k) << 16) + np.sort(rng.choice(65536, c, replace=False)) for k, c in zip(ckeys, cards, strict=True)]
    ).astype(np.uint64)
    good = encode64(values)
    at = 8 + 12 * key  # the key's bitmap (after the count and, as Iceberg Java writes them, empty ones for the keys below)
    assert int.from_bytes(good[at + 4 : at + 8], "little") == 12346  # random values: no container is a run
    assert int.from_bytes(good[at + 8 : at + 12], "little") == len(cards)
    assert {_outcome(good, impl, True) for impl in IMPLS} == {("ok", tuple(values.tolist()))}
    raw = bytearray(good)
    headers = (at + 12, at + 12 + 8 * len(cards))  # the descriptors, then the offsets
    for _ in range(data.draw(st.integers(1, 3))):
        raw[data.draw(st.integers(headers[0], headers[1] - 1))] = data.draw(st.integers(0, 255))
    outcomes = {impl: _outcome(bytes(raw), impl, True) for impl in IMPLS}
    assert len(set(outcomes.values())) == 1, outcomes
