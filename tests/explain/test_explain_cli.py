"""``lakestruct explain``: exit status, --range, --depth, --json, --format, and --html written atomically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lakestruct.cli import main


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(["explain", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_ok_file_exits_0_with_one_line_per_field(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = _run([str(corpus / "seed-files" / "nested.parquet")], capsys)
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].endswith("parquet, 598 bytes")
    assert any(ln.startswith("00000000-00000003") and " magic " in ln for ln in lines)
    assert any("│ repetition levels: 0, 2, 2, 1, 2, 0, 0" in ln for ln in lines)


def test_range_and_depth(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(corpus / "seed-files" / "nested.parquet")
    rc, out, _ = _run([path, "--range", "0x54:0x62", "--json"], capsys)
    assert rc == 0
    fields = json.loads(out)["fields"]
    assert all(f["start"] < 0x62 and f["end"] > 0x54 for f in fields)
    paths = [f["path"] for f in fields]
    assert "row_groups[0].columns[1].pages[0].body.repetition_levels" in paths
    assert "footer" not in paths and "magic" not in paths
    rc, out, _ = _run([path, "--depth", "1", "--json"], capsys)
    assert rc == 0
    assert {f["level"] for f in json.loads(out)["fields"]} == {1}


def test_malformed_file_exits_1_naming_the_rule(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = _run([str(corpus / "parquet-testing" / "bad_data" / "ARROW-GH-45185.parquet")], capsys)
    assert rc == 1
    assert "parquet.levels.first-repetition" in err and "parquet.levels.first-repetition" in out
    assert "Traceback" not in err


def test_not_a_lake_file(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = _run([str(corpus / "MANIFEST.md")], capsys)
    assert rc == 2 and "not a file explain reads" in err and "--format" in err
    rc, out, _ = _run([str(corpus / "MANIFEST.md"), "--format", "roaring32"], capsys)
    assert rc == 1 and "roaring32.cookie" in out


@pytest.mark.parametrize(
    "args",
    [["--range", "x"], ["--range", "10:5"], ["--depth", "0"], ["--max-fields", "0"], ["--format", "zip"], ["--html", "o.html", "--json"]],
)
def test_bad_usage_exits_2(
    corpus: Path, args: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # restored after the test (a relative --html lands here)
    with pytest.raises(SystemExit) as e:
        rc = main(["explain", str(corpus / "seed-files" / "simple.parquet"), *args])
        raise SystemExit(rc)
    assert e.value.code == 2
    assert not (tmp_path / "o.html").exists()


def test_html_is_written_atomically(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "page.html"
    out.write_text("old")
    rc, stdout, _ = _run([str(corpus / "seed-files" / "deletion-vector-v1.puffin"), "--html", str(out)], capsys)
    assert rc == 0 and stdout == ""
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and '"path": "footer.payload"' in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]  # no temporary file left behind
    # an unwritable destination: an error, and the old file untouched
    rc, _, err = _run([str(corpus / "seed-files" / "simple.parquet"), "--html", str(tmp_path / "missing" / "x.html")], capsys)
    assert rc == 1 and "error" in err
