"""puffin.ksy in the Kaitai Web IDE's path and in lakestruct's reader: the same inputs fail, on the same rule.

The footer tail and the footer are position-located instances, lazy in the IDE, whose errors the IDE shows only
on the clicked field. The spec reads them from a zero-size seq field, so their errors fail the root parse
(``ide_error``, the IDE's error panel); and the tail checks the trailing magic before the payload size, so
truncated or non-Puffin input names the trailing magic, in the IDE and in the reader alike (as Iceberg Java).
"""

from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as papq
import pytest
from kaitaistruct import KaitaiStream
from lakestruct._generated.puffin import Puffin as KsPuffin

import lakestruct as ls
from lakestruct._kaitai import kaitai_call
from lakestruct.errors import FormatError, MagicError
from lakestruct.source import BytesSource, RangeReader
from tests.helpers import webide_parse

SPEC = "formats/puffin/puffin.ksy"
IDE_TRAILING_MAGIC = "ValidationNotEqualError: not equal, expected [80,70,65,49]"  # how the JavaScript runtime words it


def sample() -> bytes:
    buf = io.BytesIO()
    with ls.puffin.PuffinWriter(buf, created_by="t") as w:
        w.add_blob("a", b"hello world" * 10, fields=[1])
        w.add_blob("b", b"zstd blob" * 50, fields=[2], codec="zstd")
    return buf.getvalue()


def reader_error(data: bytes) -> FormatError:
    with pytest.raises(FormatError) as ei, ls.puffin.open(data) as r:
        r.check()
    return ei.value


def ide(tmp_path: Path, inputs: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    paths = []
    for name, data in inputs.items():
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)
    return {Path(r["file"]).name: r for r in webide_parse(SPEC, paths)}


def test_truncated_and_foreign_input_names_the_trailing_magic(tmp_path: Path) -> None:
    data = sample()
    cuts = {f"cut{n}.puffin": data[:n] for n in range(20, len(data)) if not data[:n].endswith(b"PFA1")}
    assert len(cuts) > 300
    pq = io.BytesIO()
    papq.write_table(pa.table({"x": [1, 2, 3]}), pq)
    foreign = {"parquet.puffin": pq.getvalue(), "text.puffin": b"PFA1 is not enough: this is a text file\n", "zeros.puffin": bytes(64)}
    for name, bad in {**cuts, **foreign}.items():
        e = reader_error(bad)
        assert isinstance(e, MagicError) and e.rule == "puffin.trailing-magic", (name, str(e))
        assert (e.offset, e.path) == (len(bad) - 4, "tail.magic")
    for name, res in ide(tmp_path, {**cuts, **foreign}).items():
        assert not res["ok"] and res["ide_error"].startswith(IDE_TRAILING_MAGIC), (name, res["ide_error"])


@pytest.mark.parametrize(
    ("where", "rule", "ide_words"),
    [
        ("trailing-magic", "puffin.trailing-magic", IDE_TRAILING_MAGIC),
        ("payload-size", "puffin.payload-size", "ValidationGreaterThanError"),
        ("negative-size", "puffin.payload-size", "ValidationLessThanError"),
        ("flags", "puffin.flags-reserved", "ValidationNotEqualError: not equal, expected [0]"),
        ("footer-magic", "puffin.footer-magic", "ValidationNotEqualError: not equal, expected [80,70,65,49]"),
    ],
)
def test_position_located_errors_fail_the_root_parse(tmp_path: Path, where: str, rule: str, ide_words: str) -> None:
    data = bytearray(sample())
    ofs_footer = ls.puffin.open(bytes(data)).footer.offset
    if where == "trailing-magic":
        data[-1] ^= 1
    elif where == "payload-size":
        data[-12:-8] = struct.pack("<i", len(data))
    elif where == "negative-size":
        data[-12:-8] = struct.pack("<i", -1)
    elif where == "flags":
        data[-6] = 1
    else:
        data[ofs_footer] ^= 0xFF
    assert reader_error(bytes(data)).rule == rule
    res = ide(tmp_path, {"bad.puffin": bytes(data)})["bad.puffin"]
    assert not res["ok"] and res["ide_error"] is not None and res["ide_error"].startswith(ide_words), res["ide_error"]


def test_valid_file_parses_at_the_root_with_no_field_errors(tmp_path: Path) -> None:
    data = sample()
    res = ide(tmp_path, {"ok.puffin": data})["ok.puffin"]
    assert res["ok"] and res["ide_error"] is None and res["field_errors"] == []
    tree = res["tree"]
    assert tree["footer_checked"] == {"len": 0, "hex": ""} and tree["tail"]["magic"]["hex"] == b"PFA1".hex()
    with ls.puffin.open(data) as r:
        assert tree["ofs_footer"] == r.footer.offset and tree["tail"]["len_payload"] == r.footer.payload_length


class _LoggedSource(BytesSource):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.log: list[tuple[int, int]] = []

    def _read(self, offset: int, length: int) -> bytes:
        self.log.append((offset, length))
        return super()._read(offset, length)


def test_root_parse_reads_the_tail_and_footer_only() -> None:
    """The Python reader pays nothing for the IDE's root-parse checks: ``_read`` reads the header magic, the
    12-byte tail and the footer, never a byte of the blob region; opening still costs one tail read."""
    big = io.BytesIO()
    with ls.puffin.PuffinWriter(big, created_by="t") as w:
        w.add_blob("big", bytes(range(256)) * 4096)  # 1 MiB of blob bytes
    data = big.getvalue()
    src = _LoggedSource(data)
    reader = RangeReader(src)
    ks = KsPuffin(KaitaiStream(reader))
    kaitai_call("puffin", reader, ks._read)
    ofs = ks.ofs_footer
    assert ofs > 1 << 20 and not hasattr(ks, "_m_blob_region")
    assert all(off + n <= 4 or off >= ofs for off, n in src.log), src.log
    assert sum(n for _, n in src.log) == 4 + len(data) - ofs
    logged = _LoggedSource(data)
    with ls.puffin.open(logged) as r:
        assert logged.reads == 1 and logged.log == [(len(data) - 8192, 8192)]
        assert r.blobs[0].length == 1 << 20


def test_documented_blob_cuts_load_in_the_ide(corpus: Path, tmp_path: Path) -> None:
    """docs/webide.md's commands, run as written (x.puffin replaced by real files): the cut blobs parse with their
    specs in the IDE's path and match what lakestruct reads."""
    import shlex
    import subprocess
    import sys

    doc = (Path(__file__).resolve().parents[2] / "docs" / "webide.md").read_text()
    lines = {w: next(ln for ln in doc.splitlines() if ln.startswith(w)) for w in ("dd if=", "tail -c", "python -c")}
    dv_file = corpus / "seed-files" / "deletion-vector-v1.puffin"
    theta_file = corpus / "puffin-tools" / "src" / "test" / "resources" / "apache-datasketches-theta-v1.puffin"
    with ls.puffin.open(dv_file) as pf:
        assert (pf.blobs[0].offset, pf.blobs[0].length) == (4, 46)  # the offsets the doc's example shows
        want_dv = pf.read_blob(0)
    with ls.puffin.open(theta_file) as pf:
        assert pf.blobs[1].compression_codec == "zstd"
        want_sk = pf.read_blob(1)
    for key in ("dd if=", "tail -c"):
        cmd = lines[key].split("#")[0].replace("x.puffin", shlex.quote(str(dv_file)))
        subprocess.run(cmd, shell=True, check=True, cwd=tmp_path)
        assert (tmp_path / "blob0.bin").read_bytes() == want_dv, key
    argv = shlex.split(lines["python -c"].replace("x.puffin", str(theta_file)))
    subprocess.run([sys.executable, *argv[1:]], check=True, cwd=tmp_path)
    assert (tmp_path / "sketch1.sk").read_bytes() == want_sk
    (dv,) = webide_parse("formats/deletes/deletion_vector_v1.ksy", [tmp_path / "blob0.bin"])
    (sk,) = webide_parse("formats/sketches/theta_compact.ksy", [tmp_path / "sketch1.sk"])
    assert dv["ok"] and dv["tree"]["len_body"] == 46 - 8
    assert sk["ok"] and sk["tree"]["family"] == 3
