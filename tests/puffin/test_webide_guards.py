"""puffin.ksy in the Web IDE after a parse error: the tree shows the partial parse, so its instances must not
compute offsets from a size that was never read (NaN) or fail on a missing field (``payload_text`` raised a
TypeError on ``flags``); with a wrong footer magic the payload still shows as text."""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path

import pytest

import lakestruct as ls
from tests.helpers import webide_parse

pytestmark = [pytest.mark.node]


def puffin() -> bytes:
    buf = io.BytesIO()
    with ls.puffin.PuffinWriter(buf) as w:
        w.add_blob("t", b"xyz")
    return buf.getvalue()


def test_partial_tail_leaves_no_nan_and_no_type_error(tmp_path: Path) -> None:
    good = puffin()
    bad_tail = bytearray(good)
    bad_tail[-1] ^= 0xFF
    bad_size = bytearray(good)
    bad_size[-12:-8] = struct.pack("<i", 10**6)
    (tmp_path / "tail.puffin").write_bytes(bad_tail)
    (tmp_path / "size.puffin").write_bytes(bad_size)
    for res in webide_parse("formats/puffin/puffin.ksy", [tmp_path / "tail.puffin", tmp_path / "size.puffin"]):
        assert res["ide_error"] and res["ide_error"].startswith("Validation"), res["ide_error"]
        assert res["field_errors"] == [], res["field_errors"]  # clicking footer or blob_region fails no more
        tree = res["tree"]
        assert tree["tail_ok"] is False and tree["ofs_footer"] is None and tree["footer"] is None, tree


def test_wrong_footer_magic_still_shows_the_payload(tmp_path: Path) -> None:
    good = puffin()
    n = struct.unpack("<i", good[-12:-8])[0]
    bad = bytearray(good)
    bad[len(good) - 12 - n - 4] = ord("X")
    (tmp_path / "magic.puffin").write_bytes(bad)
    (res,) = webide_parse("formats/puffin/puffin.ksy", [tmp_path / "magic.puffin"])
    assert res["ide_error"].startswith("ValidationNotEqualError") and res["field_errors"] == []
    payload = res["tree"]["footer"]["payload_text"]
    assert json.loads(payload) == json.loads(good[len(good) - 12 - n : len(good) - 12])
