"""deletion_vector_file.ksy (Delta DV files, Paimon DV index files): Kaitai, the Web IDE and the Python readers agree."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from kaitaistruct import KaitaiStream
from lakestruct._generated.deletion_vector_file import DeletionVectorFile

from lakestruct._kaitai import kaitai_call
from lakestruct.deletes import encode_delta_dv_file, read_delta_deletion_vector, read_paimon_deletion_vectors
from lakestruct.errors import FormatError
from lakestruct.roaring.read import _ks_values32
from lakestruct.source import RangeReader, open_source

COMPAT = "paimon/paimon-core/src/test/resources/compatibility"


def _ks_entries(data: bytes) -> list[tuple[int, bool, list[int]]]:
    ks = DeletionVectorFile(KaitaiStream(io.BytesIO(data)))
    out = []
    for e in ks.entries:
        bm = e.bitmap
        vals = [(b.key << 32) | v for b in bm.bitmaps for v in _ks_values32(b.bitmap)] if e.is_roaring64 else _ks_values32(bm)
        out.append((e.len_body, bool(e.is_roaring64), vals))
    return out


def _paimon_files(corpus: Path) -> list[Path]:
    files = [corpus / COMPAT / "dvindex-32", corpus / COMPAT / "dvindex-64"]
    files += sorted((corpus / "generated-seed1/paimon/tables/de_dv/index").glob("index-*"))
    return files


def test_paimon_index_files_kaitai_equals_reader(corpus: Path) -> None:
    for f in _paimon_files(corpus):
        got = _ks_entries(f.read_bytes())
        entries = read_paimon_deletion_vectors(f)
        assert [(vals, is64) for _, is64, vals in got] == [(e.vector.positions().tolist(), e.bits == 64) for e in entries]


def test_delta_file_kaitai_equals_reader(tmp_path: Path) -> None:
    data, descs = encode_delta_dv_file([[3, 4, 5], np.arange(2**32, 2**32 + 70000), [7]])
    got = _ks_entries(data)
    assert [size for size, _, _ in got] == [s for _, s in descs]
    for (_, is64, vals), (off, size) in zip(got, descs, strict=True):
        assert is64 and read_delta_deletion_vector(data, offset=off, size_in_bytes=size).positions().tolist() == vals


def test_kaitai_rules() -> None:
    data, _ = encode_delta_dv_file([[1]])
    cases = [(b"\x02" + data[1:], "deletion-vector-file.version"), (data[:5] + b"\x00" * 4 + data[9:], "deletion-vector-file.magic")]
    for bad, rule in cases:
        reader = RangeReader(open_source(bad))
        with pytest.raises(FormatError) as e:
            kaitai_call("deletion_vector_file", reader, lambda r=reader: DeletionVectorFile(KaitaiStream(r)))
        assert e.value.rule == rule


@pytest.mark.node
def test_webide_dv_files(corpus: Path, tmp_path: Path) -> None:
    from tests.helpers import webide_parse

    delta = tmp_path / "deletion_vector_test.bin"
    delta.write_bytes(encode_delta_dv_file([[0, 2, 4], np.arange(1000, 9000)])[0])
    files = [*_paimon_files(corpus), delta]
    outs = webide_parse("formats/deletes/deletion_vector_file.ksy", files)
    for out, f in zip(outs, files, strict=True):
        assert out["ok"], out
        py = _ks_entries(f.read_bytes())
        assert [(e["len_body"], e["is_roaring64"]) for e in out["tree"]["entries"]] == [(s, is64) for s, is64, _ in py]
