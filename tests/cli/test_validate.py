"""``lakestruct validate`` and ``lakestruct.scan.validate_file``: every rule of every format over files and folders,
structure only or ``--deep`` (every Parquet page's levels and values decoded), judged against independent readers:
pyarrow reads a Parquet file exactly when ``validate --deep`` passes it (parquet-testing's ``bad_data/``), pyroaring
refuses the CRoaring crash-prone inputs ``validate`` flags, and every valid file of the shared corpus passes."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as papq
import pytest
from pyroaring import BitMap, BitMap64

import lakestruct as ls
from lakestruct import rules
from lakestruct.cli import main
from lakestruct.errors import FormatError
from lakestruct.parquet.values import iter_values
from lakestruct.scan import FORMATS, FileReport, detect, validate_file, walk

BAD = "parquet-testing/bad_data"
PQ = "parquet-testing/data"
CROARING = "croaring/tests/testdata"
ICEBERG_DELETES = "iceberg/core/src/test/resources/org/apache/iceberg/deletes"
EXE = Path(sys.executable).parent / "lakestruct"

#: What ``validate --deep`` reports for each file of parquet-testing's bad_data/: (rules every report holds, whether
#: ``validate`` without ``--deep`` (the structure) already fails it).
BAD_DATA: dict[str, tuple[set[str], bool]] = {
    "ARROW-GH-41317.parquet": ({"parquet.chunk-num-values"}, True),  # columns of a row group disagree on their rows
    "ARROW-GH-41321.parquet": ({"thrift.field-id", "parquet.dictionary.num-values"}, True),  # + cut definition levels
    "ARROW-GH-43605.parquet": (set(), False),  # index bit width 0 with a one-entry dictionary: valid (parquet-data.md)
    "ARROW-GH-45185.parquet": ({"parquet.levels.first-repetition"}, False),
    "ARROW-GH-47662.parquet": ({"parquet.values.truncated"}, False),  # a REQUIRED column with nulls
    "ARROW-RS-GH-6229-DICTHEADER.parquet": ({"parquet.chunk-range"}, True),
    "ARROW-RS-GH-6229-LEVELS.parquet": ({"parquet.chunk-num-values", "parquet.levels.count"}, True),
    "PARQUET-1481.parquet": ({"parquet.schema.physical-type"}, True),  # Type -7 in the schema
}

#: Corpus files (outside fuzz-repro/ and bad_data/) that break a rule on purpose, and why.
KNOWN_INVALID = {
    **{f"{CROARING}/crashproneinput{i}.bin": "CRoaring's crash-prone fuzzing inputs" for i in range(1, 8)},
    f"{ICEBERG_DELETES}/64maphighvals.bin": "a UTF-8-mangled copy of CRoaring's file (MANIFEST.md)",
    f"{PQ}/datapage_v1-corrupt-checksum.parquet": "page CRCs wrong on purpose",
    f"{PQ}/rle-dict-uncompressed-corrupt-checksum.parquet": "page CRCs wrong on purpose",
}
#: Valid files ``--deep`` cannot decode within the decoding bounds (a LimitError, which is a failure, as in ``scan``).
DEEP_LIMITED = {f"{PQ}/large_string_map.brotli.parquet": "parquet.codec.limit"}  # declares a 1 GiB page in 1627 bytes
#: Valid Parquet files pyarrow does not read into Arrow, and why.
PYARROW_REFUSES = {
    f"{PQ}/incorrect_map_schema.parquet": "a MAP whose keys are not REQUIRED: Arrow's MAP type refuses it; the levels and "
    "values decode (tests/parquet/test_values.py::test_incorrect_map_schema_still_decodes)",
}


def _pyarrow_reads(path: Path | bytes) -> bool:
    try:
        papq.read_table(io.BytesIO(path) if isinstance(path, bytes) else path)
    except (OSError, pa.ArrowException):
        return False
    return True


def _rules(report: FileReport) -> set[str]:
    return {f.rule for f in report.errors if f.rule is not None}


# --------------------------------------------------------------------------------------------- bad_data, CRoaring


@pytest.mark.parametrize("name", sorted(BAD_DATA))
def test_bad_data_deep_agrees_with_pyarrow(corpus: Path, name: str) -> None:
    """Deep validation fails exactly the bad_data files pyarrow refuses, each with its named rules; the data-layer
    defects (levels starting at 1, a REQUIRED column with nulls) pass the structural check and fail the deep one."""
    path = corpus / BAD / name
    rules, structural = BAD_DATA[name]
    deep = validate_file(str(path), "parquet", deep=True)
    assert deep.result.ok is _pyarrow_reads(path) is (not rules), (name, deep.findings)
    assert rules <= _rules(deep), (name, deep.findings)
    for f in deep.errors:  # each one located: rule, byte offset, field path
        assert f.rule and f.rule.startswith(("parquet.", "thrift.")) and f.offset is not None and f.field_path, f
    shallow = validate_file(str(path), "parquet")
    assert (not shallow.result.ok) is structural, (name, shallow.findings)
    if structural:
        assert len(shallow.errors) == 1 and shallow.result.rule == deep.result.rule
    if name == "ARROW-GH-41321.parquet":  # the levels are fewer than num_values: the definition-level section runs out
        assert any(f.rule.startswith(("parquet.levels.", "parquet.varint.")) and f.field_path.endswith("definition_levels")
                   for f in deep.errors if f.rule and f.field_path), deep.findings
    if name == "ARROW-GH-45185.parquet":
        assert deep.errors[0].field_path == "row_groups[0].columns[0].pages[0].repetition_levels"


def test_zero_bit_width_file_decodes_as_pyarrow_reads_it(corpus: Path) -> None:
    """ARROW-GH-43605: RLE_DICTIONARY indices of bit width 0 (a bit-packed run, no value bytes) are valid: every
    value is the dictionary's one entry, as pyarrow (and parquet-java's decoder) read them."""
    path = corpus / BAD / "ARROW-GH-43605.parquet"
    report = validate_file(str(path), "parquet", deep=True)
    assert report.result.ok and not report.findings and "21186 values decoded" in report.result.summary
    with ls.parquet.open(path) as pf:
        pages = list(pf.pages())
        body = pf.read_page_body(pages[1])
        v2 = pages[1].header.data_page_header_v2
        assert v2 is not None and v2.encoding == 8  # RLE_DICTIONARY
        mine = [e.value for e in iter_values(pf, 0)]
        assert body  # the stored page is read, not skipped
    assert mine == papq.read_table(path).column(0).to_pylist()


def _one_entry_dictionary_file() -> tuple[bytes, int]:
    """A pyarrow file whose one v1 data page holds 100 references to a one-entry dictionary; the offset of its
    4-byte value section (pyarrow writes bit width 1 and one RLE run: ``01 c8 01 00``)."""
    buf = io.BytesIO()
    papq.write_table(pa.table({"a": pa.array([7] * 100, pa.int32())}), buf, compression="none", data_page_version="1.0",
                     write_statistics=False)
    data = buf.getvalue()
    at = data.index(bytes.fromhex("03000000c8010101c80100")) + 7  # definition levels (4-byte length, one run), then values
    return data, at


@pytest.mark.parametrize(("section", "rule"), [
    ("00c80100", None),  # width 0, an RLE run of 100 (no value bytes), one spare byte
    ("00c90000", None),  # width 0, a bit-packed run of 36 groups of 8 (no value bytes)
    ("00000000", "parquet.rle.run-length"),  # width 0, then a zero-length run
    ("20c80100", "parquet.rle.truncated"),  # width 32: the RLE run's value needs 4 bytes
])
def test_zero_bit_width_pages_against_pyarrow(tmp_path: Path, section: str, rule: str | None) -> None:
    data, at = _one_entry_dictionary_file()
    crafted = data[:at] + bytes.fromhex(section) + data[at + 4:]
    f = tmp_path / "zero-width.parquet"
    f.write_bytes(crafted)
    report = validate_file(str(f), "parquet", deep=True)
    assert report.result.ok is (rule is None) is _pyarrow_reads(crafted), report.findings
    if rule is None:
        assert ls.parquet.open(crafted).values("a") == papq.read_table(f).column(0).to_pylist() == [7] * 100
    else:
        assert report.result.rule == rule
    assert validate_file(str(f), "parquet").result.ok  # the page headers are intact: only --deep looks inside


def test_unknown_physical_type_is_a_structural_error(tmp_path: Path) -> None:
    """A schema element whose physical type is none of parquet.thrift's Type values fails the structural check (the
    footer model keeps the unknown value as a plain int, so reading it still works); pyarrow refuses the file."""
    buf = io.BytesIO()
    papq.write_table(pa.table({"a": pa.array([1, 2, 3], pa.int32())}), buf)
    data = buf.getvalue()
    field = bytes.fromhex("150225021801") + b"a"  # SchemaElement: type=INT32 (zigzag 2), repetition OPTIONAL, name "a"
    assert data.count(field) == 1
    crafted = data.replace(field, bytes.fromhex("151025021801") + b"a")  # type 8
    assert not _pyarrow_reads(crafted)
    pf = ls.parquet.open(crafted)
    assert pf.columns()[0].physical_type == 8 and pf.columns()[0].physical_type_name == "8"
    with pytest.raises(FormatError) as e:
        pf.check()
    assert (e.value.rule, e.value.path, e.value.offset) == ("parquet.schema.physical-type", "footer.schema[1].type", pf.footer.offset)
    f = tmp_path / "type8.parquet"
    f.write_bytes(crafted)
    for deep in (False, True):
        report = validate_file(str(f), "parquet", deep=deep)
        assert [x.rule for x in report.errors] == ["parquet.schema.physical-type"], report.findings


def test_crash_prone_roaring_inputs_are_flagged(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CRoaring's crash-prone inputs: validate fails each with a roaring32 rule (pyroaring refuses each too); the
    valid bitmaps of the same folder pass."""
    assert main(["validate", str(corpus / CROARING), "--json"]) == 1
    docs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    by_name = {Path(d["path"]).name: d for d in docs[:-1]}
    for i in range(1, 8):
        name = f"crashproneinput{i}.bin"
        with pytest.raises(ValueError):
            BitMap.deserialize((corpus / CROARING / name).read_bytes())
        d = by_name[name]
        assert d["valid"] is False and d["format"] == "roaring32", d
        assert d["findings"][0]["rule"].startswith("roaring32.") and d["findings"][0]["offset"] is not None, d
    assert by_name["addoffsetinput.bin"]["valid"] and by_name["64maphighvals.bin"]["valid"]
    assert docs[-1]["summary"]["invalid"] == 7 and docs[-1]["summary"]["valid"] == 2


def test_format_option_checks_files_no_signature_matches(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CRoaring's malformed Roaring64 inputs are too short to be recognised; named on the command line they fail as of
    no known format, and --format roaring64 gives the rule they break (pyroaring refuses them too)."""
    path = corpus / CROARING / "64mapsizetoosmall.bin"
    assert detect(str(path)) is None
    with pytest.raises(ValueError):
        BitMap64.deserialize(path.read_bytes())
    assert main(["validate", str(path)]) == 1
    assert "scan.format-unknown" in capsys.readouterr().out
    assert main(["validate", "--format", "roaring64", str(path), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out.splitlines()[0])
    assert doc["format"] == "roaring64" and doc["findings"][0]["rule"] == "roaring64.truncated", doc


# --------------------------------------------------------------------------------------------- the whole corpus


def test_every_valid_corpus_file_passes(corpus: Path) -> None:
    """Every file of the shared corpus lakestruct recognises (fuzzing reproducers and bad_data/ aside) passes deep
    validation, except the files broken on purpose; every Parquet file that passes is one pyarrow reads."""
    failed: dict[str, set[str]] = {}
    checked = 0
    for path in walk([str(corpus)]):
        rel = Path(path).relative_to(corpus).as_posix()
        if rel.startswith(("fuzz-repro/", f"{BAD}/")):
            continue
        fmt = detect(path)
        if fmt is None:
            continue
        checked += 1
        report = validate_file(path, fmt, deep=True)
        if not report.result.ok:
            failed[rel] = _rules(report)
        elif fmt == "parquet" and report.result.rule != "parquet.encrypted":
            assert _pyarrow_reads(Path(path)) is (rel not in PYARROW_REFUSES), rel
    assert checked > 150
    assert set(failed) == set(KNOWN_INVALID) | set(DEEP_LIMITED), failed
    for rel, rule in DEEP_LIMITED.items():
        assert failed[rel] == {rule}
        assert validate_file(str(corpus / rel), "parquet").result.ok  # its structure is fine


def test_fuzz_reproducers_end_in_a_named_error_or_pass(corpus: Path) -> None:
    """Every input of fuzz-repro/ (as its detected format, or as every format when none is detected) ends in named
    errors or passes; validate_file never raises."""
    outcomes: dict[str, bool] = {}
    for path in sorted((corpus / "fuzz-repro").iterdir()):
        if path.suffix in (".txt", ".md"):
            continue
        fmt = detect(str(path))
        for f in [fmt] if fmt else FORMATS:
            report = validate_file(str(path), f, deep=True)
            outcomes[f"{path.name} as {f}"] = report.result.ok
            for e in report.errors:
                assert e.rule and e.field_path is not None and e.message, (path.name, f, e)
    assert len(outcomes) >= 40 and not all(outcomes.values()) and any(outcomes.values())


def test_deep_validation_stops_at_the_decoding_budget(corpus: Path) -> None:
    """A file whose pages declare more values than its bytes justify is refused by the one budget of the file,
    before anything is decoded."""
    start = time.perf_counter()
    report = validate_file(str(corpus / "fuzz-repro/crafted_page_count_amplification_levels.parquet"), "parquet", deep=True)
    assert time.perf_counter() - start < 5  # 400 pages of 2^22 nulls each: refused from the page headers
    assert [f.rule for f in report.errors] == ["parquet.values.count-limit"]
    assert report.errors[0].field_path == "row_groups[0].columns[0].pages" and report.errors[0].offset is not None


# --------------------------------------------------------------------------------------------- the command


def test_table_exit_status_and_structure_vs_deep(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(corpus / BAD / "ARROW-GH-45185.parquet")
    assert main(["validate", path]) == 0  # its page headers are fine
    out = capsys.readouterr().out
    assert "1 file(s) validated (structure): 1 valid, 0 invalid" in out
    assert main(["validate", path, "--deep"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["file", "format", "status", "rule", "offset", "field", "path", "message"]
    row = lines[2].split()
    assert row[:5] == [path, "parquet", "FAIL", "parquet.levels.first-repetition", "23"], lines
    assert row[5] == "row_groups[0].columns[0].pages[0].repetition_levels"
    assert lines[-1].startswith("1 file(s) validated (deep): 0 valid, 1 invalid (1 error(s), 0 warning(s))")
    # a valid file, and one with warnings only: exit 0
    ok = corpus / PQ / "alltypes_plain.parquet"
    warned = corpus / PQ / "nation.dict-malformed.parquet"
    assert main(["validate", str(ok), str(warned), "--deep"]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"^{re.escape(str(ok))} +parquet +ok +- +- +- +8 rows", out, re.M), out
    assert re.search(rf"^{re.escape(str(warned))} +parquet +warn +parquet\.chunk-size +\d+ +row_groups\[0\]", out, re.M), out
    assert "2 file(s) validated (deep): 2 valid, 0 invalid (0 error(s), 2 warning(s))" in out


def test_json_output(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(corpus / BAD), "--deep", "--json"]) == 1
    docs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    files, summary = docs[:-1], docs[-1]["summary"]
    assert {Path(d["path"]).name for d in files} == set(BAD_DATA)
    assert summary == {"files": 8, "valid": 1, "invalid": 7, "errors": sum(len(d["findings"]) for d in files), "warnings": 0,
                       "other_files": 1, "deep": True}  # bad_data/README.md is skipped
    for d in files:
        assert set(d) == {"path", "format", "valid", "summary", "findings", "more_findings"}
        assert d["valid"] is (Path(d["path"]).name == "ARROW-GH-43605.parquet")
        for f in d["findings"]:
            assert set(f) == {"rule", "meaning", "offset", "field_path", "message", "severity"} and f["severity"] == "error"
            assert f["meaning"] == rules.RULES[f["rule"]].meaning  # every rule validate reports is declared


def test_folders_skip_other_files_named_files_do_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("not a lake file\n")
    buf = io.BytesIO()
    papq.write_table(pa.table({"a": [1, 2, 3]}), buf)
    (tmp_path / "t.parquet").write_bytes(buf.getvalue())
    assert main(["validate", str(tmp_path)]) == 0
    assert "1 file(s) validated (structure): 1 valid, 0 invalid (0 error(s), 0 warning(s)); 1 other file(s) skipped" in (
        capsys.readouterr().out)
    assert main(["validate", str(tmp_path / "notes.txt")]) == 1
    assert "scan.format-unknown" in capsys.readouterr().out
    assert main(["validate", str(tmp_path / "missing.parquet")]) == 1
    assert "missing.parquet: no such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["validate"], ["validate", "x", "--format", "csv"], ["validate", "x", "--bogus"]])
def test_bad_usage_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_urls_and_stdin(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A URL prefix is listed like a folder (fsspec's memory filesystem here); ``-`` is standard input."""
    import fsspec

    mem = fsspec.filesystem("memory")
    bad = corpus / BAD / "ARROW-GH-47662.parquet"
    good = corpus / PQ / "fixed_length_byte_array.parquet"  # the valid twin of ARROW-GH-47662
    mem.pipe({"/lake/t/bad.parquet": bad.read_bytes(), "/lake/t/good.parquet": good.read_bytes()})
    try:
        assert main(["validate", "memory://lake", "--deep", "--json"]) == 1
        docs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [(Path(d["path"]).name, d["valid"]) for d in docs[:-1]] == [("bad.parquet", False), ("good.parquet", True)]
        assert docs[0]["findings"][0]["rule"] == "parquet.values.truncated"
    finally:
        mem.rm("/lake", recursive=True)
    res = subprocess.run([str(EXE), "validate", "-", "--deep", "--json"], input=bad.read_bytes(), capture_output=True, timeout=120)
    assert res.returncode == 1, res.stderr
    doc: dict[str, Any] = json.loads(res.stdout.splitlines()[0])
    assert doc["format"] == "parquet" and doc["findings"][0]["rule"] == "parquet.values.truncated"
