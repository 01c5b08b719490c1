"""The spec in the Kaitai Web IDE's JavaScript path, on real .sk files and on our own bytes.

JavaScript numbers are doubles, so hashes and theta (above 2^53) arrive
rounded to the nearest double, exactly as the IDE shows them; those are
compared as the IDE would (``float(python value)``), small fields exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lakestruct.sketches import ThetaSketch
from lakestruct.sketches.read import kaitai_tree
from tests.helpers import webide_parse
from tests.sketches._corpus import theta_files

SPEC = "formats/sketches/theta_compact.ksy"
pytestmark = [pytest.mark.node]


def _as_ide(v: int) -> float:
    return float(v)  # the double JavaScript holds for this integer


def _compare(path: Path, out: dict[str, Any]) -> None:
    assert out["ok"], out.get("error")
    tree = out["tree"]
    data = path.read_bytes()
    py = kaitai_tree(data)
    sk = ThetaSketch.from_bytes(data)
    assert tree["pre_longs"] == py.pre_longs == sk.pre_longs
    assert tree["serial_version"] == py.serial_version == sk.serial_version
    assert tree["family"] == 3
    body = tree["body"]
    if sk.serial_version >= 2:
        assert body["seed_hash"] == sk.seed_hash
    if sk.serial_version >= 3:
        flags = body["flags"]
        assert flags["empty"] == sk.empty
        assert flags["ordered"] == bool(sk.flags & 0x10)
        assert flags["single_item"] == bool(sk.flags & 0x20)
        assert flags["compact"] and flags["read_only"] and not flags["big_endian"]
        assert float(body["theta"]) == _as_ide(py.body.theta)
    if sk.serial_version == 4:
        assert body["num_entries"] == sk.num_retained
        assert body["entry_bits"] == py.body.entry_bits
        assert body["deltas"]["len"] == len(py.body.deltas)
        assert bytes.fromhex(body["deltas"]["hex"]) == py.body.deltas[:64]
    else:
        assert len(body["entries"]) == len(py.body.entries)
        assert [float(e) for e in body["entries"]] == [_as_ide(e) for e in py.body.entries]
        if sk.serial_version in (1, 3) or sk.pre_longs >= 2:
            assert len(body["entries"]) == sk.num_retained


FILES = theta_files()


@pytest.mark.corpus
def test_webide_parses_corpus_sketches() -> None:
    if not FILES:
        pytest.skip("corpus absent")
    outs = webide_parse(SPEC, FILES)
    assert len(outs) == len(FILES)
    for path, out in zip(FILES, outs, strict=True):
        _compare(path, out)


def test_webide_parses_our_sketches(tmp_path: Path) -> None:
    samples = {
        "exact.sk": ThetaSketch.from_hashes([3, 1 << 40, 1 << 61]).to_bytes(3),
        "estimation.sk": ThetaSketch.from_hashes(range(1, 300, 7), theta=1 << 50).to_bytes(3),
        "v4.sk": ThetaSketch.from_hashes(range(1, 3000, 13), theta=1 << 50).to_bytes(4),
        "single.sk": ThetaSketch.from_hashes([99]).to_bytes(3),
        "empty.sk": ThetaSketch.from_hashes([]).to_bytes(3),
        "unordered.sk": ThetaSketch.from_hashes([9, 2, 5], ordered=False).to_bytes(3),
    }
    paths = []
    for name, data in samples.items():
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)
    outs = webide_parse(SPEC, paths)
    for path, out in zip(paths, outs, strict=True):
        _compare(path, out)
    # small values survive JavaScript exactly
    v4 = outs[2]["tree"]["body"]
    assert v4["theta"] == 1 << 50 and v4["num_entries"] == len(range(1, 3000, 13))
    assert outs[0]["tree"]["body"]["entries"][:2] == [3, 1 << 40]


def test_webide_reports_a_bad_family(tmp_path: Path) -> None:
    bad = bytearray(ThetaSketch.from_hashes([1, 2]).to_bytes(3))
    bad[2] = 2
    (tmp_path / "bad.sk").write_bytes(bytes(bad))
    out = webide_parse(SPEC, [tmp_path / "bad.sk"])[0]
    assert not out["ok"] and out["error"].startswith("ValidationNotEqualError") and "got [2]" in out["error"]
