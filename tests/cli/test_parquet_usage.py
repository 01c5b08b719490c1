"""Arguments that name nothing in the file are usage errors (exit 2, one line on stderr), never tracebacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from lakestruct.cli import main


@pytest.mark.parametrize(
    "argv,says",
    [
        (["pages", "--column", "7"], "--column 7"),
        (["pages", "--row-group", "3"], "--row-group 3"),
        (["index", "--row-group", "3"], "--row-group 3"),
        (["index", "--column", "5"], "--column 5"),
        (["bloom", "--column", "0", "--row-group", "3"], "--row-group 3"),
        (["pages", "--column", "no.such.column"], "no.such.column"),
    ],
)
def test_out_of_range_arguments(corpus: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str) -> None:
    path = str(corpus / "seed-files/nested.parquet")
    assert main(["parquet", argv[0], path, *argv[1:]]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
