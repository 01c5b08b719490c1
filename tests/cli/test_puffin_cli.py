"""``lakestruct puffin inspect``, ``scan`` and ``demo``: output, exit codes, errors on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import lakestruct as ls
from lakestruct.cli import main


def write_sample(path: Path, compress_footer: bool = False) -> None:
    sketch = ls.sketches.ThetaSketch.from_hashes(range(1000, 13000, 1000)).to_bytes(3)  # 12 distinct hashes
    with ls.puffin.PuffinWriter(path, created_by="cli test", compress_footer=compress_footer) as w:
        w.add_blob("apache-datasketches-theta-v1", sketch, fields=[7], codec="zstd", snapshot_id=99, sequence_number=3,
                   properties={"ndv": "12"})
        w.add_blob("custom", b"raw")


def test_inspect_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "s.puffin"
    write_sample(p, compress_footer=True)
    assert main(["puffin", "inspect", str(p)]) == 0
    out = capsys.readouterr().out
    assert "created-by  cli test" in out
    assert "LZ4-compressed" in out
    assert "apache-datasketches-theta-v1" in out and "ndv  12" in out
    assert "theta sketch (serial version 3): 12 retained, exact, estimate 12" in out
    assert main(["puffin", "inspect", str(p), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["footer"]["payload_compressed"] is True
    decoded = doc["blobs"][0].pop("decoded")
    assert decoded["kind"] == "theta-sketch" and decoded["estimate"] == 12.0 and decoded["ndv_check"].startswith("ndv 12 matches")
    assert "decoded" not in doc["blobs"][1]  # an opaque blob type
    assert doc["blobs"][0] == {
        "type": "apache-datasketches-theta-v1",
        "fields": [7],
        "snapshot-id": 99,
        "sequence-number": 3,
        "offset": 4,
        "length": doc["blobs"][0]["length"],
        "compression-codec": "zstd",
        "properties": {"ndv": "12"},
    }
    assert doc["blobs"][1]["offset"] == 4 + doc["blobs"][0]["length"]


def test_malformed_file_exits_1_with_the_rule_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "s.puffin"
    write_sample(p)
    data = bytearray(p.read_bytes())
    data[-5] = 0x80  # a reserved flag bit
    p.write_bytes(bytes(data))
    assert main(["puffin", "inspect", str(p)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "puffin.flags-reserved" in captured.err and f"offset {len(data) - 5}" in captured.err
    assert main(["puffin", "inspect", str(tmp_path / "nope.puffin")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in ([], ["puffin"], ["puffin", "inspect"], ["puffin", "inspect", "x", "--bogus"], ["nosuch"]):
        with pytest.raises(SystemExit) as ei:
            main(argv)
        assert ei.value.code == 2, argv
    assert "usage:" in capsys.readouterr().err


def test_console_script_and_stdin(tmp_path: Path) -> None:
    p = tmp_path / "s.puffin"
    write_sample(p)
    exe = Path(sys.executable).parent / "lakestruct"
    assert exe.exists()
    res = subprocess.run([str(exe), "puffin", "inspect", "-", "--json"], input=p.read_bytes(), capture_output=True, check=False)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["properties"]["created-by"] == "cli test"
    res = subprocess.run([str(exe), "puffin", "inspect", "-"], input=b"garbage", capture_output=True, check=False)
    assert res.returncode == 1
    assert b"puffin.min-size" in res.stderr and b"Traceback" not in res.stderr


def test_scan_and_demo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", str(tmp_path / "d")]) == 0
    capsys.readouterr()
    bad = tmp_path / "d" / "broken.puffin"
    bad.write_bytes(b"PFA1" + b"\0" * 40 + b"PFA1")
    (tmp_path / "d" / "notes.txt").write_text("not a lake file")
    assert main(["scan", str(tmp_path / "d"), "--json"]) == 1  # a file breaks a rule
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    summary = lines[-1]["summary"]
    assert summary == {"files": 6, "ok": 5, "failed": 1, "other_files": 1}  # 5 demo files and the broken one
    broken = next(r for r in lines[:-1] if r["path"].endswith("broken.puffin"))
    assert broken["ok"] is False and broken["rule"].startswith("puffin.")
    assert main(["scan", str(tmp_path / "d"), "--strict"]) == 1  # --strict: accepted, the default
    bad.unlink()
    assert main(["scan", str(tmp_path / "d")]) == 0
