"""Parquet footers: the seed's hand-decoded files, pyarrow's metadata on every readable
corpus file, encrypted files, bad_data, and malformed tails."""

from __future__ import annotations

import struct
from pathlib import Path

import pyarrow.parquet as papq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lakestruct as ls
from lakestruct.errors import FormatError, MagicError, TruncatedError
from lakestruct.parquet.model import Type, enum_name


def _pt(corpus: Path) -> Path:
    return corpus / "parquet-testing"


def _readable(corpus: Path) -> list[Path]:
    files = sorted((_pt(corpus) / "data").rglob("*.parquet"))
    files += sorted((corpus / "generated-seed1" / "parquet" / "files").glob("*.parquet"))
    files += sorted((corpus / "seed-files").glob("*.parquet"))
    return files


def test_seed_simple_footer(corpus: Path) -> None:
    """The seed: footer length 186 (ba 00 00 00) at offset 299, FileMetaData at 113..298."""
    path = corpus / "seed-files" / "simple.parquet"
    pq = ls.parquet.open(path)
    assert pq.footer.file_size == 307
    assert pq.footer.length == 186 and pq.footer.length_offset == 299 and pq.footer.offset == 113
    md = pq.metadata
    assert md.version == 2 and md.num_rows == 5
    assert [e.name for e in md.schema] == ["MyTypeSimple", "text"]
    assert md.schema[0].num_children == 1 and md.schema[1].logicalType is not None and md.schema[1].logicalType.STRING is not None
    cm = md.row_groups[0].columns[0].meta_data
    assert cm is not None
    assert (cm.data_page_offset, cm.total_compressed_size, cm.total_uncompressed_size, cm.num_values) == (4, 73, 73, 5)
    assert cm.statistics is not None and (cm.statistics.min_value, cm.statistics.max_value) == (b"text1", b"text5")
    cc = md.row_groups[0].columns[0]
    assert (cc.column_index_offset, cc.column_index_length, cc.offset_index_offset, cc.offset_index_length) == (77, 25, 102, 11)
    assert md.created_by == "github.com/parquet-go/parquet-go version 0.23.0(build )"
    assert md.column_orders is not None and md.column_orders[0].TYPE_ORDER is not None
    # the seed's page header: DATA_PAGE_V2, 45/45 bytes, crc -457214166, ends at 0x1f (data at 32)
    (page,) = list(pq.pages())
    assert (page.offset, page.header_size, page.data_offset, page.type) == (4, 28, 32, "DATA_PAGE_V2")
    assert (page.compressed_size, page.uncompressed_size, page.crc) == (45, 45, -457214166)
    v2 = page.header.data_page_header_v2
    assert v2 is not None and (v2.num_values, v2.num_nulls, v2.num_rows, v2.is_compressed) == (5, 0, 5, False)
    assert pq.read_page_body(page) == b"".join(struct.pack("<I", 5) + f"text{i}".encode() for i in range(1, 6))


def test_seed_nested_footer(corpus: Path) -> None:
    """The seed's nested file: footer 343 bytes (57 01 00 00); two leaves with the derived levels."""
    pq = ls.parquet.open(corpus / "seed-files" / "nested.parquet")
    assert pq.footer.length == 343 and pq.footer.offset == 598 - 343 - 8 and pq.footer.file_size == 598
    cols = pq.columns()
    assert [c.path for c in cols] == [("nest", "nest"), ("nest", "repeated", "nest", "repeated")]
    assert [(c.max_definition_level, c.max_repetition_level) for c in cols] == [(2, 0), (4, 2)]
    mds = [cc.meta_data for cc in pq.metadata.row_groups[0].columns]
    # The seed's JSON says 121 for the second chunk, but its own hex dump holds 16 e8 01 (= 116):
    # 54 + 116 = 170 (0xaa) is exactly where the ColumnIndex bytes 19 12 00 start.
    assert [(m.data_page_offset, m.total_compressed_size) for m in mds if m] == [(4, 50), (54, 116)]
    data = (corpus / "seed-files" / "nested.parquet").read_bytes()
    assert data[170:173] == bytes.fromhex("191200") and pq.metadata.row_groups[0].columns[0].column_index_offset is not None
    p0, p1 = (p.header.data_page_header_v2 for p in pq.pages())
    assert p0 is not None and p1 is not None
    assert (p0.num_values, p0.num_nulls, p0.num_rows, p0.definition_levels_byte_length, p0.repetition_levels_byte_length) == (3, 1, 3, 4, 0)
    assert (p1.num_values, p1.num_nulls, p1.num_rows, p1.definition_levels_byte_length, p1.repetition_levels_byte_length) == (
        7,
        1,
        3,
        4,
        10,
    )


def _pa_codec(name: str) -> str:
    return {"LZ4": "LZ4_RAW"}.get(name, name)


def _physical(b: bytes, t: object) -> object:
    fmt = {Type.INT32: "<i", Type.INT64: "<q", Type.FLOAT: "<f", Type.DOUBLE: "<d"}.get(t)  # type: ignore[call-overload]
    if fmt is not None:
        return struct.unpack(fmt, b)[0]
    if t == Type.BOOLEAN:
        return b[0] == 1
    return b


def _same_values(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return all(x == y or (x != x and y != y) for x, y in zip(a, b, strict=True))


def test_footer_agrees_with_pyarrow(corpus: Path) -> None:
    """num_rows, row groups, chunk sizes/offsets/codecs/encodings, null counts and min/max (pyarrow's raw physical values)."""
    checked = n_stats = 0
    for path in _readable(corpus):
        try:
            pam = papq.ParquetFile(path).metadata
        except Exception:  # pyarrow cannot read it either (encrypted, exotic)
            continue
        pq = ls.parquet.open(path)
        md = pq.metadata
        assert md.num_rows == pam.num_rows, path
        assert len(md.row_groups) == pam.num_row_groups, path
        assert len(pq.columns()) == pam.num_columns, path
        assert (md.created_by or "") == pam.created_by, path
        for rgi, rg in enumerate(md.row_groups):
            parg = pam.row_group(rgi)
            assert rg.num_rows == parg.num_rows and rg.total_byte_size == parg.total_byte_size, path
            for ci, cc in enumerate(rg.columns):
                pac = parg.column(ci)
                cm = cc.meta_data
                assert cm is not None
                assert cm.num_values == pac.num_values, (path, rgi, ci)
                assert cm.total_compressed_size == pac.total_compressed_size, (path, rgi, ci)
                assert cm.total_uncompressed_size == pac.total_uncompressed_size, (path, rgi, ci)
                assert cm.data_page_offset == pac.data_page_offset, (path, rgi, ci)
                assert cm.path_in_schema == tuple(pac.path_in_schema.split(".")) or ".".join(cm.path_in_schema) == pac.path_in_schema
                codec = enum_name(cm.codec)
                # pyarrow calls LZ4_RAW "LZ4" and has no name for the deprecated (Hadoop) LZ4
                assert pac.compression in {"LZ4_RAW": {"LZ4"}, "LZ4": {"UNKNOWN", "LZ4"}}.get(codec or "", {codec}), (path, codec)
                assert [enum_name(e) for e in cm.encodings] == list(pac.encodings), (path, rgi, ci)
                if (
                    cm.statistics is not None
                    and pac.is_stats_set
                    and pac.statistics.null_count is not None
                    and cm.statistics.null_count is not None
                ):
                    assert cm.statistics.null_count == pac.statistics.null_count, (path, rgi, ci)
                if pac.is_stats_set and pac.statistics is not None and pac.statistics.has_min_max:
                    st_ = cm.statistics
                    assert st_ is not None
                    lo = st_.min_value if st_.min_value is not None else st_.min
                    hi = st_.max_value if st_.max_value is not None else st_.max
                    assert lo is not None and hi is not None
                    got = (_physical(lo, cm.type), _physical(hi, cm.type))
                    want = tuple(v.encode() if isinstance(v, str) else v for v in (pac.statistics.min_raw, pac.statistics.max_raw))
                    assert _same_values(got, want), (path, rgi, ci, got, want)
                    n_stats += 1
                if cm.bloom_filter_offset is not None:
                    assert cm.bloom_filter_offset == pac.bloom_filter_offset
        checked += 1
    assert checked >= 80 and n_stats >= 500


def test_encrypted_files_get_the_named_error(corpus: Path) -> None:
    files = sorted((_pt(corpus) / "data").rglob("*.parquet.encrypted"))
    assert len(files) >= 13
    for path in files:
        with pytest.raises(ls.parquet.EncryptedError) as e:
            pq = ls.parquet.open(path)
            list(pq.pages())
        assert e.value.rule == "parquet.encrypted", path
        assert "encrypt" in str(e.value)


def test_plaintext_footer_of_encrypted_file(corpus: Path) -> None:
    """PAR1 footer with encryption_algorithm + 28-byte signature: the footer reads, encrypted columns do not."""
    pq = ls.parquet.open(_pt(corpus) / "data" / "encrypt_columns_plaintext_footer.parquet.encrypted")
    assert pq.metadata.encryption_algorithm is not None
    assert pq.footer.trailing_bytes == 28
    encrypted = [i for i, cc in enumerate(pq.metadata.row_groups[0].columns) if cc.crypto_metadata is not None]
    assert encrypted
    with pytest.raises(ls.parquet.EncryptedError):
        list(pq.chunk_pages(0, encrypted[0]))


def test_bad_data_named_error_or_walks(corpus: Path) -> None:
    for path in sorted((_pt(corpus) / "bad_data").glob("*.parquet")):
        try:
            pq = ls.parquet.open(path)
            pq.columns()
            for _ in pq.pages():
                pass
        except FormatError as e:
            assert e.rule.startswith(("parquet.", "thrift.")) and e.offset is not None, (path, e)


def test_check_flags_structural_bad_data(corpus: Path) -> None:
    """ParquetFile.check: every data/ file passes (but the two whose page CRCs are wrong on purpose,
    see test_crc.py); the structurally bad reproducers are named."""
    for path in sorted((_pt(corpus) / "data").rglob("*.parquet")):
        if "corrupt-checksum" in path.name:
            continue
        assert ls.parquet.open(path).check() > 0 or path.name == "column_chunk_key_value_metadata.parquet", path
    bad = _pt(corpus) / "bad_data"
    expect = {
        "ARROW-GH-41317.parquet": "parquet.chunk-num-values",  # columns of one row group disagree on their rows
        "ARROW-RS-GH-6229-LEVELS.parquet": "parquet.chunk-num-values",
        "ARROW-GH-41321.parquet": "thrift.field-id",
        "ARROW-RS-GH-6229-DICTHEADER.parquet": "parquet.chunk-range",
    }
    for name, rule in expect.items():
        with pytest.raises(FormatError) as e:
            ls.parquet.open(bad / name).check()
        assert e.value.rule == rule and e.value.offset is not None, name


def test_unknown_enum_and_logical_type_are_tolerated(corpus: Path) -> None:
    pq = ls.parquet.open(_pt(corpus) / "bad_data" / "PARQUET-1481.parquet")
    assert pq.metadata.schema[1].type == -7
    pq = ls.parquet.open(_pt(corpus) / "data" / "unknown-logical-type.parquet")
    lts = [e.logicalType for e in pq.metadata.schema if e.logicalType is not None]
    assert any(lt.member is None and lt.unknown and lt.unknown[0][0] == 2555 for lt in lts)


def _valid_file() -> bytes:
    import io

    import pyarrow as pa

    buf = io.BytesIO()
    papq.write_table(pa.table({"a": [1, 2, 3]}), buf)
    return buf.getvalue()


def test_malformed_tails() -> None:
    good = _valid_file()
    with pytest.raises(TruncatedError) as e:
        ls.parquet.open(good[:11])
    assert e.value.rule == "parquet.min-size"
    with pytest.raises(MagicError) as e:
        ls.parquet.open(good[:-1] + b"X")
    assert e.value.rule == "parquet.trailing-magic" and e.value.offset == len(good) - 4
    with pytest.raises(MagicError) as e:
        ls.parquet.open(b"XXXX" + good[4:])
    assert e.value.rule == "parquet.header-magic" and e.value.offset == 0
    for bad_len in (0, -5, len(good)):
        with pytest.raises(FormatError) as e:
            ls.parquet.open(good[:-8] + struct.pack("<i", bad_len) + b"PAR1")
        assert e.value.rule == "parquet.footer-length" and e.value.offset == len(good) - 8
    flen = struct.unpack("<i", good[-8:-4])[0]
    foff = len(good) - 8 - flen
    # cut the footer short: the Thrift decoder names the truncation inside the footer
    broken = good[: foff + 10] + struct.pack("<i", 10) + b"PAR1"
    with pytest.raises(FormatError) as e:
        ls.parquet.open(broken)
    assert e.value.rule.startswith("thrift.") and e.value.offset is not None and e.value.offset >= foff


def test_open_reads_only_the_tail() -> None:
    from lakestruct.source import open_source

    src = open_source(_valid_file())
    pq = ls.parquet.open(src)
    assert src.reads == 1
    assert pq.metadata.num_rows == 3


@settings(max_examples=150)
@given(
    st.sampled_from(["seed-files/simple.parquet", "seed-files/nested.parquet", "parquet-testing/data/alltypes_plain.parquet"]), st.data()
)
def test_corrupted_footers_are_named(corpus: Path, rel: str, data: st.DataObject) -> None:
    """Random byte changes in the footer: a named error with an offset, or a file that reads the same
    with the fast decoder and the Kaitai parser."""
    raw = bytearray((corpus / rel).read_bytes())
    foff = ls.parquet.open(bytes(raw)).footer.offset
    for _ in range(data.draw(st.integers(1, 3))):
        raw[data.draw(st.integers(foff, len(raw) - 9))] = data.draw(st.integers(0, 255))
    results = []
    for engine in ("fast", "kaitai"):
        try:
            pq = ls.parquet.open(bytes(raw), engine=engine)
            pq.check()
            results.append((pq.metadata, [(p.offset, p.header) for p in pq.pages()]))
        except FormatError as e:
            assert e.rule.startswith(("parquet.", "thrift.")) and e.offset is not None, (engine, e)
            results.append(None)
    if results[0] is not None and results[1] is not None:
        assert results[0] == results[1]
