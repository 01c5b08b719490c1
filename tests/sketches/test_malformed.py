"""Malformed sketches: every broken rule raises a FormatError naming the rule, offset and field.

Samples come from our writer (so these tests run without the corpus) and from
a few corpus files. Truncation at every length and flipped preamble bits must
give a named FormatError and never another exception.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.errors import FormatError, TruncatedError
from lakestruct.sketches import MAX_THETA, ThetaSketch, compute_seed_hash
from tests.sketches._corpus import ids, theta_files

HASHES = [1000 * (i + 1) ** 3 + 7 for i in range(20)]
EXACT = ThetaSketch.from_hashes(HASHES).to_bytes(3)  # preLongs 2, entries from 16
ESTIM = ThetaSketch.from_hashes(HASHES, theta=10**9).to_bytes(3)  # preLongs 3, entries from 24
SINGLE = ThetaSketch.from_hashes([12345]).to_bytes(3)
EMPTY = ThetaSketch.from_hashes([]).to_bytes(3)
V4_EXACT = ThetaSketch.from_hashes(HASHES).to_bytes(4)
V4_ESTIM = ThetaSketch.from_hashes(HASHES, theta=10**9).to_bytes(4)
UNORDERED = ThetaSketch.from_hashes([5, 3, 9], ordered=False).to_bytes(3)
SAMPLES = {
    "exact": EXACT,
    "estimation": ESTIM,
    "single": SINGLE,
    "empty": EMPTY,
    "v4-exact": V4_EXACT,
    "v4-estimation": V4_ESTIM,
    "unordered": UNORDERED,
}


def _patch(data: bytes, offset: int, fmt: str, value: int | float) -> bytes:
    b = bytearray(data)
    struct.pack_into(fmt, b, offset, value)
    return bytes(b)


def _fails(data: bytes, rule: str, offset: int | None, path: str | None = None, **kw: object) -> FormatError:
    with pytest.raises(FormatError) as ei:
        ThetaSketch.from_bytes(data, **kw)  # type: ignore[arg-type]
    e = ei.value
    assert e.rule == rule, str(e)
    if offset is not None:
        assert e.offset == offset, str(e)
    if path is not None:
        assert e.path == path, str(e)
    return e


def test_samples_are_valid() -> None:
    assert EXACT[0] == 2 and ESTIM[0] == 3 and SINGLE[0] == 1 and len(SINGLE) == 16 and EMPTY[0] == 1 and len(EMPTY) == 8
    assert V4_EXACT[:2] == b"\x01\x04" and V4_ESTIM[:2] == b"\x02\x04"
    for data in SAMPLES.values():
        ThetaSketch.from_bytes(data)


# -- the preamble -----------------------------------------------------------------------------
def test_family() -> None:
    _fails(_patch(EXACT, 2, "<B", 2), "theta_compact.family", 2, "family")


@pytest.mark.parametrize("version", [0, 5, 255])
def test_serial_version(version: int) -> None:
    _fails(_patch(EXACT, 1, "<B", version), "theta_compact.serial-version", 1, "serial_version")


@pytest.mark.parametrize(
    "sample,byte0",
    [(EXACT, 0), (EXACT, 4), (EXACT, 63), (V4_EXACT, 3), (V4_EXACT, 0), (EXACT, 0x80 | 7)],
)
def test_pre_longs_against_serial_version(sample: bytes, byte0: int) -> None:
    e = _fails(_patch(sample, 0, "<B", byte0), "theta_compact.pre-longs", 0, "pre_longs")
    assert f"found {byte0 & 0x3F}" in e.message


def test_v1_requires_three_pre_longs(corpus: Path) -> None:
    data = (corpus / "datasketches-cpp/theta/test/theta_compact_empty_from_java_v1.sk").read_bytes()
    _fails(_patch(data, 0, "<B", 2), "theta_compact.pre-longs", 0)


def test_seed_hash() -> None:
    e = _fails(_patch(EXACT, 6, "<H", 0x1234), "theta_compact.seed-hash", 6, "body.seed_hash")
    assert "0x1234" in e.message and "0x93cc" in e.message
    # another seed: rejected under the default, accepted under its own seed or with the check off
    other = ThetaSketch.from_hashes(HASHES, seed=42).to_bytes(3)
    _fails(other, "theta_compact.seed-hash", 6)
    assert ThetaSketch.from_bytes(other, seed=42).seed_hash == compute_seed_hash(42)
    assert ThetaSketch.from_bytes(other, seed=None).entries == tuple(HASHES)


def test_empty_sketch_seed_hash_is_not_checked() -> None:
    java_empty = _patch(EMPTY, 6, "<H", 0)  # Java writes 0 (EmptyCompactSketch)
    assert ThetaSketch.from_bytes(java_empty).empty
    assert ThetaSketch.from_bytes(_patch(EMPTY, 6, "<H", 0xBEEF)).seed_hash == 0xBEEF


# -- flags ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "sample,flags,rule",
    [
        (EXACT, 0x1A | 0x40, "theta_compact.flags-reserved"),
        (EXACT, 0x1A | 0x80, "theta_compact.flags-reserved"),
        (EXACT, 0x1A | 0x01, "theta_compact.flags-big-endian"),
        (EXACT, 0x12, "theta_compact.flags-compact"),
        (EXACT, 0x3A, "theta_compact.flags-single-item"),  # SINGLEITEM with 2 preamble longs
        (EMPTY, 0x3E, "theta_compact.flags-single-item"),  # SINGLEITEM on an empty sketch
        (V4_EXACT, 0x0A, "theta_compact.flags-v4"),  # v4 not ordered
        (V4_EXACT, 0x1E, "theta_compact.flags-v4"),  # v4 empty
    ],
)
def test_flags(sample: bytes, flags: int, rule: str) -> None:
    _fails(_patch(sample, 5, "<B", flags), rule, 5, "body.flags")


def test_java_single_item_flag_is_accepted() -> None:
    java = _patch(SINGLE, 5, "<B", 0x3A)
    sk = ThetaSketch.from_bytes(java)
    assert sk.single_item and sk.flags == 0x3A and sk == ThetaSketch.from_bytes(SINGLE)


def test_empty_with_entries() -> None:
    data = _patch(EXACT, 5, "<B", 0x1E)  # EMPTY set on a 2-preamble-long sketch with 20 hashes
    _fails(data, "theta_compact.empty-with-entries", 8, "body.num_entries")


# -- counts, theta and hashes -----------------------------------------------------------------
@pytest.mark.parametrize("count", [21, 1000, 2**32 - 1])
def test_count_beyond_the_input(count: int) -> None:
    e = _fails(_patch(EXACT, 8, "<I", count), "theta_compact.num-entries-fit", 8, "body.num_entries")
    assert str(count) in e.message


@pytest.mark.parametrize("theta", [0, 2**63, 2**64 - 1])
def test_theta_range(theta: int) -> None:
    _fails(_patch(ESTIM, 16, "<Q", theta), "theta_compact.theta-range", 16, "body.theta_long")
    _fails(_patch(V4_ESTIM, 8, "<Q", theta), "theta_compact.theta-range", 8, "body.theta_long")


def test_theta_below_an_entry() -> None:
    low = HASHES[5]  # hashes 5.. are no longer below theta
    _fails(_patch(ESTIM, 16, "<Q", low), "theta_compact.entry-range", 24 + 8 * 5, "entries[5]")


@pytest.mark.parametrize("value", [0, MAX_THETA, 2**64 - 1])
def test_entry_range(value: int) -> None:
    _fails(_patch(EXACT, 16 + 8 * 19, "<Q", value), "theta_compact.entry-range", 16 + 8 * 19, "entries[19]")
    _fails(_patch(SINGLE, 8, "<Q", value), "theta_compact.entry-range", 8, "entries[0]")


def test_entries_order() -> None:
    data = _patch(EXACT, 16 + 8 * 17, "<Q", HASHES[16])  # entries[17] repeats entries[16]
    _fails(data, "theta_compact.entries-order", 16 + 8 * 17, "entries[17]")
    data = _patch(EXACT, 16 + 8 * 3, "<Q", HASHES[1])  # entries[3] < entries[2]
    _fails(data, "theta_compact.entries-order", 16 + 8 * 3, "entries[3]")


def test_unordered_sketches_may_be_unordered_but_not_repeat() -> None:
    sk = ThetaSketch.from_bytes(UNORDERED)
    assert sk.entries == (5, 3, 9) and not sk.ordered and sk.flags == 0x0A
    _fails(_patch(UNORDERED, 16 + 8 * 2, "<Q", 5), "theta_compact.entries-duplicate", 16 + 16, "entries[2]")
    _fails(_patch(UNORDERED, 5, "<B", 0x1A), "theta_compact.entries-order", 24, "entries[1]")  # claims ORDERED


# -- serial version 4 -------------------------------------------------------------------------
@pytest.mark.parametrize("bits", [0, 64, 255])
def test_v4_entry_bits(bits: int) -> None:
    _fails(_patch(V4_EXACT, 3, "<B", bits), "theta_compact.entry-bits", 3, "body.entry_bits")


@pytest.mark.parametrize("nbytes", [0, 5, 255])
def test_v4_num_entries_bytes(nbytes: int) -> None:
    _fails(_patch(V4_EXACT, 4, "<B", nbytes), "theta_compact.num-entries-bytes", 4, "body.num_entries_bytes")


def test_v4_zero_delta_and_hash_beyond_theta() -> None:
    # 3 hashes with 4-bit deltas: entry_bits 4, 1 count byte, deltas 0x12 0x30 -> 1, 3, 6
    good = bytes([1, 4, 3, 4, 1, 0x1A, 0xCC, 0x93, 3, 0x12, 0x30])
    assert ThetaSketch.from_bytes(good).entries == (1, 3, 6)
    _fails(good[:9] + bytes([0x10, 0x30]), "theta_compact.entries-order", 9, "entries[1]")
    _fails(good[:9] + bytes([0x02, 0x30]), "theta_compact.entry-range", 9, "entries[0]")  # first hash 0
    # estimation mode with theta 5: the third hash (6) is not below it
    est = bytes([2, 4, 3, 4, 1, 0x1A, 0xCC, 0x93]) + struct.pack("<Q", 5) + bytes([3, 0x12, 0x30])
    _fails(est, "theta_compact.entry-range", 18, "entries[2]")


def test_v4_huge_count_is_refused_without_allocating() -> None:
    data = bytes([1, 4, 3, 63, 4, 0x1A, 0xCC, 0x93, 0xFF, 0xFF, 0xFF, 0xFF]) + b"\x01" * 16
    e = _fails(data, "theta_compact.truncated", 12)
    assert isinstance(e, TruncatedError)


# -- length -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(SAMPLES))
def test_trailing_bytes(name: str) -> None:
    data = SAMPLES[name]
    _fails(data + b"\0", "theta_compact.trailing-bytes", len(data), "sketch")
    assert ThetaSketch.from_bytes(data + b"junk", allow_trailing=True) == ThetaSketch.from_bytes(data)


@pytest.mark.parametrize("name", list(SAMPLES))
def test_every_truncation_of_our_samples(name: str) -> None:
    data = SAMPLES[name]
    for n in range(len(data)):
        with pytest.raises(FormatError) as ei:
            ThetaSketch.from_bytes(data[:n])
        assert ei.value.rule in ("theta_compact.truncated", "theta_compact.num-entries-fit"), (n, str(ei.value))
        assert ei.value.offset is not None and ei.value.offset <= n


CORPUS_SAMPLES = [
    p
    for p in theta_files()
    if p.name
    in {
        "theta_n10_java.sk",
        "theta_n1_java.sk",
        "theta_compressed_n100_java.sk",
        "theta_non_empty_no_entries_java.sk",
        "theta_compact_empty_from_java_v1.sk",
        "theta_compact_empty_from_java_v2.sk",
        "theta_n0_cpp.sk",
    }
]


@pytest.mark.corpus
@pytest.mark.parametrize("path", CORPUS_SAMPLES, ids=ids(CORPUS_SAMPLES))
def test_every_truncation_of_corpus_files(path: Path) -> None:
    data = path.read_bytes()
    for n in range(len(data)):
        with pytest.raises(FormatError) as ei:
            ThetaSketch.from_bytes(data[:n])
        assert ei.value.rule.startswith("theta_compact."), str(ei.value)


@pytest.mark.corpus
@pytest.mark.parametrize("path", CORPUS_SAMPLES, ids=ids(CORPUS_SAMPLES))
def test_flipped_preamble_bits_of_corpus_files(path: Path) -> None:
    data = path.read_bytes()
    for i in range(min(len(data), 24)):
        for bit in range(8):
            b = bytearray(data)
            b[i] ^= 1 << bit
            try:
                ThetaSketch.from_bytes(bytes(b))
            except FormatError as e:
                assert e.rule.startswith("theta_compact.") and e.path, str(e)


@pytest.mark.parametrize("name", list(SAMPLES))
def test_flipped_preamble_bits_of_our_samples(name: str) -> None:
    data = SAMPLES[name]
    rules: set[str] = set()
    for i in range(min(len(data), 24)):
        for bit in range(8):
            b = bytearray(data)
            b[i] ^= 1 << bit
            try:
                ThetaSketch.from_bytes(bytes(b))
            except FormatError as e:
                rules.add(e.rule)
    # flipping byte 1 or 2 always changes the serial version or family
    assert {"theta_compact.serial-version", "theta_compact.family"} <= rules


@settings(max_examples=300)
@given(
    head=st.sampled_from([b"", b"\x02\x03\x03", b"\x03\x03\x03", b"\x01\x04\x03", b"\x02\x04\x03", b"\x03\x01\x03", b"\x02\x02\x03"]),
    tail=st.binary(max_size=80),
)
def test_arbitrary_bytes_parse_or_raise_format_error(head: bytes, tail: bytes) -> None:
    try:
        sk = ThetaSketch.from_bytes(head + tail, seed=None)
    except FormatError as e:
        assert e.rule.startswith("theta_compact.")
        return
    assert all(0 < e < sk.theta_long for e in sk.entries)


def test_v4_count_beyond_any_sketch_is_a_limit_error() -> None:
    from lakestruct.errors import LimitError
    from lakestruct.sketches.read import MAX_ENTRIES

    n = MAX_ENTRIES + 8
    head = bytes([1, 4, 3, 1, 4, 0x1A, 0xCC, 0x93]) + n.to_bytes(4, "little")
    data = head + b"\xff" * ((n + 7) // 8)  # every 1-bit delta is 1: a valid-looking run of hashes 1, 2, 3, ...
    with pytest.raises(LimitError) as ei:
        ThetaSketch.from_bytes(data)
    assert ei.value.rule == "theta_compact.num-entries-limit" and ei.value.offset == 8


def test_oversized_input_is_refused_before_reading(tmp_path: Path) -> None:
    from lakestruct.errors import LimitError
    from lakestruct.sketches.read import MAX_SKETCH_BYTES

    big = tmp_path / "huge.sk"
    with big.open("wb") as f:
        f.write(EXACT)
        f.truncate(MAX_SKETCH_BYTES + 1)  # sparse: no disk space used
    with pytest.raises(LimitError) as ei:
        ThetaSketch.from_bytes(big)
    assert ei.value.rule == "theta_compact.size-limit" and ei.value.source == str(big)


def test_truncated_v4_deltas_report_where_the_deltas_start() -> None:
    data = ThetaSketch.from_hashes(range(1, 3000, 13), theta=1 << 50).to_bytes(4)
    pre_longs, num_entries_bytes = data[0] & 0x3F, data[4]
    deltas_at = 8 * pre_longs + num_entries_bytes  # preamble, then the retained count, then the packed deltas
    for cut in (1, 3, len(data) - deltas_at - 1):
        with pytest.raises(FormatError) as ei:
            ThetaSketch.from_bytes(data[:-cut])
        assert ei.value.rule == "theta_compact.truncated"
        assert ei.value.offset == deltas_at, (cut, str(ei.value))
