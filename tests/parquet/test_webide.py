"""parquet.ksy's footer tail in the Kaitai Web IDE's path: its errors fail the root parse, trailing magic first.

``tail`` is a position-located instance (lazy in the IDE, its errors shown only on the clicked field); the spec
reads it from a zero-size seq field so a wrong trailing magic or footer length reaches the IDE's error panel,
and checks the magic before the length, as lakestruct's reader does.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import Any

import kaitaistruct
import pyarrow as pa
import pyarrow.parquet as papq
import pytest
from kaitaistruct import KaitaiStream
from lakestruct._generated.parquet import Parquet as KsParquet

import lakestruct as ls
from lakestruct._kaitai import kaitai_call
from lakestruct.errors import FormatError, MagicError
from tests.helpers import webide_parse

SPEC = "formats/parquet/parquet.ksy"
IDE_TRAILING_MAGIC = "ValidationNotEqualError: not equal, expected [80,65,82,49]"


def sample() -> bytes:
    buf = io.BytesIO()
    papq.write_table(pa.table({"a": list(range(100)), "b": [str(i % 7) for i in range(100)]}), buf)
    return buf.getvalue()


def ide(tmp_path: Path, inputs: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    paths = []
    for name, data in inputs.items():
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)
    return {Path(r["file"]).name: r for r in webide_parse(SPEC, paths)}


def test_truncated_and_foreign_input_names_the_trailing_magic(tmp_path: Path) -> None:
    data = sample()
    inputs = {f"cut{n}.parquet": data[:n] for n in range(12, len(data), 7) if not data[:n].endswith(b"PAR1")}
    inputs["puffin.parquet"] = b"PFA1" + b"PFA1" + b"{}" + struct.pack("<i", 2) + bytes(4) + b"PFA1"
    inputs["encrypted.parquet"] = data[:-4] + b"PARE"
    for name, bad in inputs.items():
        # the spec's own parser (root parse, as in the IDE) and the reader agree on the rule
        with pytest.raises(MagicError) as ei:
            kaitai_call("parquet", None, lambda bad=bad: KsParquet(KaitaiStream(io.BytesIO(bad))))
        assert (ei.value.rule, ei.value.path, ei.value.offset) == ("parquet.trailing-magic", "tail.magic", len(bad) - 4), name
        with pytest.raises(FormatError) as ri:
            ls.parquet.open(bad)
        assert ri.value.rule in ("parquet.trailing-magic", "parquet.encrypted") and ri.value.offset == len(bad) - 4, name
    for name, res in ide(tmp_path, inputs).items():
        assert not res["ok"] and res["ide_error"].startswith(IDE_TRAILING_MAGIC), (name, res["ide_error"])


def test_wrong_footer_length_fails_the_root_parse(tmp_path: Path) -> None:
    data = bytearray(sample())
    for lie, words in ((len(data), "ValidationGreaterThanError"), (0, "ValidationLessThanError")):
        bad = bytearray(data)
        bad[-8:-4] = struct.pack("<i", lie)
        with pytest.raises(FormatError) as ei:
            ls.parquet.open(bytes(bad))
        assert ei.value.rule == "parquet.footer-length"
        with pytest.raises(kaitaistruct.ValidationFailedError) as ki:
            KsParquet(KaitaiStream(io.BytesIO(bytes(bad))))
        assert ki.value.src_path == "/types/footer_tail/seq/1"
        res = ide(tmp_path, {"bad.parquet": bytes(bad)})["bad.parquet"]
        assert not res["ok"] and res["ide_error"].startswith(words), res["ide_error"]


def test_valid_file_parses_with_no_errors_and_the_footer_stays_lazy(tmp_path: Path) -> None:
    data = sample()
    ks = KsParquet(KaitaiStream(io.BytesIO(data)))  # the generated constructor runs the root parse
    assert hasattr(ks, "_m_tail") and not hasattr(ks, "_m_footer")  # the tail is read, the Thrift footer is not
    pq = ls.parquet.open(data)
    assert (ks.ofs_footer, ks.tail.len_footer) == (pq.footer.offset, pq.footer.length)
    res = ide(tmp_path, {"ok.parquet": data})["ok.parquet"]
    assert res["ok"] and res["ide_error"] is None and res["field_errors"] == []
    assert res["tree"]["tail"]["magic"]["hex"] == b"PAR1".hex() and res["tree"]["file_meta_data"]["num_rows"] == 100
