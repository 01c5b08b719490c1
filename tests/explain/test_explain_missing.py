"""``explain`` on a path that is not there: the file does not exist (exit 1), not "no signature" (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lakestruct.cli import main
from lakestruct.errors import SourceError
from lakestruct.explain import explain


def test_missing_file_says_so_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.parquet"
    assert main(["explain", str(missing)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"lakestruct: error: {missing}: no such file", err
    with pytest.raises(SourceError, match="no such file"):
        explain(missing)


def test_directory_and_unknown_content(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(tmp_path)]) == 1
    assert "is a directory" in capsys.readouterr().err
    (tmp_path / "x.bin").write_bytes(b"not a lake file at all")
    assert main(["explain", str(tmp_path / "x.bin")]) == 2  # a file of no format explain reads is still bad usage
    assert "signature" in capsys.readouterr().err
