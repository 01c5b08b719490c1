"""Split-block bloom filters: parquet-java's findHash answers, the parquet-testing filter,
pyarrow-free properties (no false negatives)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
import xxhash
from hypothesis import given, settings
from hypothesis import strategies as st

import lakestruct as ls
from lakestruct.errors import FormatError
from lakestruct.parquet.bloom import SplitBlockBloomFilter, hash_value, parse_bloom_filter
from lakestruct.parquet.model import BloomFilterAlgorithm as Alg
from lakestruct.parquet.model import BloomFilterCompression as Comp
from lakestruct.parquet.model import BloomFilterHash as Hash
from lakestruct.parquet.model import BloomFilterHeader, Empty, Type
from lakestruct.thrift import compact
from lakestruct.thrift.typed import to_raw


def test_probes_match_parquet_java(corpus: Path) -> None:
    base = corpus / "generated-seed1" / "parquet"
    files = json.loads((base / "expected.json").read_text())["files"]
    n = 0
    for name, fe in files.items():
        pq = ls.parquet.open(base / "files" / name)
        for rgi, rge in enumerate(fe["row_groups"]):
            for ci, ce in enumerate(rge["columns"]):
                be = ce.get("bloom_filter")
                bf = pq.bloom_filter(rgi, ci)
                if be is None:
                    continue
                assert bf is not None
                assert (bf.offset, bf.header.numBytes, bf.header_size, len(bf.bitset)) == (
                    be["offset"],
                    be["header_num_bytes"],
                    be["header_length"],
                    be["bitset_size"],
                )
                assert bf.header_size + len(bf.bitset) == be["length"]
                for probe in be["probes"]:
                    assert hash_value(probe["value"], bf.physical_type) == probe["xxhash64"]
                    assert bf.might_contain(probe["value"]) == probe["found"], (name, probe)
                    if probe["present_in_row_group"]:
                        assert bf.might_contain(probe["value"])
                    n += 1
    assert n > 50


def test_parquet_testing_xxhash_filter(corpus: Path) -> None:
    """bloom_filter.xxhash.bin: a Thrift header (16 bytes) + 1024-byte bitset holding 4 strings."""
    data = (corpus / "parquet-testing" / "data" / "bloom_filter.xxhash.bin").read_bytes()
    assert data[:16] == bytes.fromhex("15801 01c1c00001c1c00001c1c000000".replace(" ", ""))
    bf = parse_bloom_filter(data)
    assert bf.header.numBytes == 1024 and bf.header_size == 16
    for s in ("hello", "parquet", "bloom", "filter"):
        assert bf.might_contain(s)
    # words are little-endian: with big-endian words the inserted strings would not all test positive
    be = SplitBlockBloomFilter(
        bf.header, b"".join(struct.pack(">8I", *struct.unpack_from("<8I", bf.bitset, i)) for i in range(0, 1024, 32))
    )
    assert not all(be.might_contain(s) for s in ("hello", "parquet", "bloom", "filter"))


def test_hash_inputs() -> None:
    assert hash_value("ab") == xxhash.xxh64_intdigest(b"ab")  # no length prefix
    assert hash_value(7, Type.INT32) == xxhash.xxh64_intdigest(struct.pack("<i", 7))
    assert hash_value(7, Type.INT64) == xxhash.xxh64_intdigest(struct.pack("<q", 7))
    assert hash_value(1.5, Type.DOUBLE) == xxhash.xxh64_intdigest(struct.pack("<d", 1.5))
    assert hash_value(1.5, Type.FLOAT) == xxhash.xxh64_intdigest(struct.pack("<f", 1.5))


def _header(n: int) -> bytes:
    h = BloomFilterHeader(numBytes=n, algorithm=Alg(BLOCK=Empty()), hash=Hash(XXHASH=Empty()), compression=Comp(UNCOMPRESSED=Empty()))
    return compact.encode_struct(to_raw(h))


@settings(max_examples=50)
@given(st.sets(st.binary(max_size=16), min_size=1, max_size=60), st.integers(1, 8))
def test_no_false_negatives(values: set[bytes], blocks: int) -> None:
    bitset = bytearray(32 * blocks)
    for v in values:
        SplitBlockBloomFilter.insert_hash(bitset, xxhash.xxh64_intdigest(v))
    bf = parse_bloom_filter(_header(len(bitset)) + bytes(bitset))
    assert all(bf.might_contain(v) for v in values)


def test_bad_headers() -> None:
    with pytest.raises(FormatError) as e:
        parse_bloom_filter(_header(33) + bytes(33))
    assert e.value.rule == "parquet.bloom-header"
    with pytest.raises(FormatError) as e:
        parse_bloom_filter(_header(64) + bytes(40), offset=100)
    assert e.value.rule == "parquet.bloom-range" and e.value.offset == 100 + len(_header(64))
    other = compact.encode_struct(
        {
            1: (compact.I32, 32),
            2: (compact.STRUCT, {2: (compact.STRUCT, {})}),
            3: (compact.STRUCT, {1: (compact.STRUCT, {})}),
            4: (compact.STRUCT, {1: (compact.STRUCT, {})}),
        }
    )
    with pytest.raises(FormatError) as e:
        parse_bloom_filter(other + bytes(32))
    assert e.value.rule == "parquet.bloom-algorithm"
