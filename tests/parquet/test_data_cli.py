"""``lakestruct parquet levels|values`` on the seed's nested file and corpus files."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from lakestruct.cli import parquet_data
from lakestruct.errors import UsageError


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    p = argparse.ArgumentParser()
    parquet_data.register(p.add_subparsers())
    args = p.parse_args(argv)
    assert args.func(args) == 0
    return capsys.readouterr().out


def _main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from lakestruct.cli import main

    rc = main(["parquet", *argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.corpus
def test_levels_reads_like_the_seed(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(["levels", str(corpus / "seed-files/nested.parquet"), "--column", "nest.repeated.nest.repeated"], capsys)
    assert "    R 0,2,2,1,2,0,0   [at offset 84]" in out  # the seed: bytes 85..94 (1-based) = 0x54..
    assert "    D 4,4,4,4,4,4,1   [at offset 94]" in out
    assert "DATA_PAGE_V2 at offset 54" in out
    out = _run(["levels", str(corpus / "seed-files/nested.parquet"), "--column", "nest.nest"], capsys)
    assert "    D 2,2,1   [at offset 32]" in out  # the seed: 04 02 02 01 at 33..36 (1-based)


@pytest.mark.corpus
def test_levels_json(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(["levels", str(corpus / "seed-files/nested.parquet"), "--column", "nest.repeated.nest.repeated", "--json"], capsys)
    doc = json.loads(out)
    page = doc["row_groups"][0]["pages"][0]
    assert (page["definition_levels"], page["repetition_levels"]) == ([4, 4, 4, 4, 4, 4, 1], [0, 2, 2, 1, 2, 0, 0])
    assert doc["max_definition_level"] == 4 and doc["max_repetition_level"] == 2
    assert page["repetition_levels_offset"] == 84 and page["definition_levels_offset"] == 94


@pytest.mark.corpus
def test_values_text_and_json(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = str(corpus / "seed-files/nested.parquet")
    out = _run(["values", f, "--column", "nest.repeated.nest.repeated"], capsys)
    assert "nestRep6" in out and "null" in out
    doc = json.loads(_run(["values", f, "--column", "nest.repeated.nest.repeated", "--json", "--limit", "2"], capsys))
    assert [e["value"] for e in doc["entries"]] == ["nestRep1", "nestRep2"]
    assert doc["num_values"] == 7
    doc = json.loads(_run(["values", str(corpus / "parquet-testing/data/int32_decimal.parquet"), "--column", "value", "--json"], capsys))
    assert doc["entries"][0]["value"] == "1.00"


@pytest.mark.corpus
def test_usage_errors(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = str(corpus / "seed-files/nested.parquet")
    with pytest.raises(UsageError):
        _run(["values", f, "--column", "nope"], capsys)
    with pytest.raises(UsageError):
        _run(["levels", f, "--column", "nest.nest", "--row-group", "3"], capsys)


@pytest.mark.corpus
def test_through_main(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _main(["levels", str(corpus / "seed-files/nested.parquet"), "--column", "nest.repeated.nest.repeated"], capsys)
    assert rc == 0 and "R 0,2,2,1,2,0,0" in out
    rc, _out, err = _main(["values", str(corpus / "parquet-testing/bad_data/ARROW-GH-45185.parquet"), "--column", "0"], capsys)
    assert rc == 1 and "parquet.levels.first-repetition" in err


@pytest.mark.corpus
def test_values_rows_rebuild_the_seed_records(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The seed's input records (its JSON, written with parquet-go) come back from the levels."""
    seed = [
        {
            "nest": {
                "nest": "nest1",
                "repeated": [
                    {"nest": {"repeated": ["nestRep1", "nestRep2", "nestRep3"]}},
                    {"nest": {"repeated": ["nestRep4", "nestRep5"]}},
                ],
            }
        },
        {"nest": {"nest": "nest2", "repeated": [{"nest": {"repeated": ["nestRep6"]}}]}},
        {"nest": {"nest": None, "repeated": []}},
    ]
    f = str(corpus / "seed-files/nested.parquet")
    doc = json.loads(_run(["values", f, "--column", "nest.repeated.nest.repeated", "--rows", "--json"], capsys))
    assert doc["field"] == "nest" and doc["num_rows"] == 3
    assert [{"nest": r} for r in doc["rows"]] == seed
    out = _run(["values", f, "--column", "nest", "--rows", "--limit", "1"], capsys)
    assert out.splitlines()[1] == json.dumps(seed[0]["nest"]) and "2 more" in out


@pytest.mark.corpus
def test_levels_limit(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(["levels", str(corpus / "seed-files/nested.parquet"), "--column", "nest.repeated.nest.repeated", "--limit", "3"], capsys)
    assert "    R 0,2,2,... (4 more)   [at offset 84]" in out
    with pytest.raises(UsageError):
        _run(["levels", str(corpus / "seed-files/nested.parquet"), "--column", "0", "--limit", "-1"], capsys)
