"""formats/avro/avro_ocf.ksy in the Kaitai Web IDE's path (its JavaScript build, tools/webide_check.mjs): every
Paimon manifest of the corpus and the Iceberg manifests and manifest lists pyiceberg and Iceberg Java write parse there, and the
blocks it finds (offsets, record counts, sizes) are lakestruct's reader's and fastavro's; broken files fail on the
check that names lakestruct's rule."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import fastavro

from lakestruct.avro import AvroFile
from tests.helpers import webide_parse

SPEC = "formats/avro/avro_ocf.ksy"


def _blocks(tree: dict[str, Any]) -> list[tuple[int, int, int]]:
    return [(b["offset"], b["num_objects"]["value"], b["len_data"]["value"]) for b in tree["blocks"]]


def test_real_manifests_parse_in_the_ide(paimon_manifests: list[Path], iceberg_manifests: list[Path]) -> None:
    _same_in_the_ide([*paimon_manifests, *iceberg_manifests])


def test_iceberg_java_manifests_parse_in_the_ide(java_manifests: list[Path]) -> None:
    _same_in_the_ide(java_manifests)


def _same_in_the_ide(files: list[Path]) -> None:
    results = webide_parse(SPEC, files)
    assert len(results) == len(files)
    blocks = 0
    for path, res in zip(files, results, strict=True):
        assert res["ok"], (path, res.get("error"))
        data = path.read_bytes()
        f = AvroFile(data)
        want = [(b.offset, b.count, b.size) for b in f.blocks()]
        tree = res["tree"]
        assert _blocks(tree) == want, path
        assert all(b["sync"]["hex"] == f.sync.hex() for b in tree["blocks"])
        keys = {e["key"]["text"]: e["value"]["data"]["len"] for m in tree["meta_blocks"] for e in m["entries"]}
        assert keys == {k: len(v) for k, v in f.metadata.items()}
        assert tree["meta_blocks"][-1]["num_entries"] == 0
        # the record counts are fastavro's
        assert sum(c for _, c, _ in want) == len(list(fastavro.reader(io.BytesIO(data))))
        blocks += len(want)
    assert blocks > 20


def test_broken_files_fail_in_the_ide(iceberg_manifests: list[Path], tmp_path: Path) -> None:
    data = iceberg_manifests[0].read_bytes()
    f = AvroFile(data)
    first = next(iter(f.blocks()))
    sync_at = first.data_at + first.size
    cases = {
        "magic.avro": (b"Obk\x01" + data[4:], "ValidationNotEqualError"),
        "sync.avro": (data[:sync_at] + bytes([data[sync_at] ^ 1]) + data[sync_at + 1 :], "ValidationNotEqualError"),
        "count.avro": (data[: f.header_size] + b"\x01" + data[f.header_size + 1 :], "ValidationExprError"),  # count -1
        "cut.avro": (data[:-3], "EOFError"),
    }
    paths = []
    for name, (bad, _) in cases.items():
        (tmp_path / name).write_bytes(bad)
        paths.append(tmp_path / name)
    for p, res in zip(paths, webide_parse(SPEC, paths), strict=True):
        assert not res["ok"], p.name
        assert res["ide_error"] is not None and cases[p.name][1] in res["ide_error"], (p.name, res["ide_error"])
