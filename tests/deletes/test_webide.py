"""The three specs load and parse real files in the Kaitai Web IDE's JavaScript path, with the values Python finds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lakestruct import puffin
from lakestruct.roaring import describe_roaring32, describe_roaring64

pytestmark = pytest.mark.node

ICE = "iceberg/core/src/test/resources/org/apache/iceberg/deletes"


def _webide(spec: str, files: list[Path]) -> list[dict[str, Any]]:
    from tests.helpers import webide_parse

    outs = webide_parse(spec, files)
    assert len(outs) == len(files)
    for o in outs:
        assert o["ok"], o
    return outs


def _check32(tree: dict[str, Any], data: bytes) -> None:
    info = describe_roaring32(data)
    assert tree["num_containers"] == len(info.containers)
    assert [d["key"] for d in tree["descriptors"]] == [c.key for c in info.containers]
    assert [d["cardinality"] for d in tree["descriptors"]] == [c.cardinality for c in info.containers]
    assert [c["kind"] for c in tree["containers"]] == [("array", "bitmap", "run").index(c.kind) for c in info.containers]
    if tree["offsets"] is not None:
        assert [o + info.offset for o in tree["offsets"]] == [c.offset for c in info.containers]


def test_webide_roaring32(corpus: Path) -> None:
    files = [corpus / "roaring-format-spec/testdata" / n for n in ("bitmapwithoutruns.bin", "bitmapwithruns.bin")]
    files.append(corpus / "croaring/tests/testdata/addoffsetinput.bin")
    for out, f in zip(_webide("formats/roaring/roaring32.ksy", files), files, strict=True):
        _check32(out["tree"], f.read_bytes())


def test_webide_roaring64(corpus: Path) -> None:
    files = [corpus / "roaring-format-spec/testdata64" / n for n in ("bitmap64.bin", "portable_bitmap64.bin")]
    files += [corpus / ICE / n for n in ("64mapempty.bin", "64map32bitvals.bin", "64mapspreadvals.bin")]
    for out, f in zip(_webide("formats/roaring/roaring64.ksy", files), files, strict=True):
        data = f.read_bytes()
        info = describe_roaring64(data)
        tree = out["tree"]
        assert tree["num_bitmaps"] == len(info.buckets)
        assert [b["key"] for b in tree["bitmaps"]] == list(info.keys)
        for b, bucket in zip(tree["bitmaps"], info.buckets, strict=True):
            _check32(b["bitmap"], data[bucket.bitmap.offset : bucket.bitmap.offset + bucket.bitmap.length])


def test_webide_deletion_vector(corpus: Path, tmp_path: Path) -> None:
    files = sorted((corpus / ICE).glob("*-position-index.bin"))
    for p in sorted((corpus / "generated-seed1/iceberg/files").glob("dv_patterns.dv.seq6.0.puffin")):  # blobs of a real Puffin file
        with puffin.open(p) as pf:
            for i, b in enumerate(pf.blobs):
                out = tmp_path / f"blob{i}.bin"
                out.write_bytes(pf.read_blob(b))
                files.append(out)
    assert len(files) > 4
    for out, f in zip(_webide("formats/deletes/deletion_vector_v1.ksy", files), files, strict=True):
        data = f.read_bytes()
        tree = out["tree"]
        assert tree["len_body"] == len(data) - 8 and tree["crc"] == int.from_bytes(data[-4:], "big")
        info = describe_roaring64(data[8:-4], iceberg=True)
        assert [b["key"] for b in tree["vector"]["bitmaps"]] == list(info.keys)
