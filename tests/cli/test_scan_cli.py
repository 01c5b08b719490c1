"""``lakestruct scan`` and ``lakestruct.scan``: every format lakestruct reads is found and checked; exit status 1
when a file breaks a rule; weak signatures (Theta, Roaring cookie 12347, Roaring64) never make an unrelated file fail."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from datasketches import compact_theta_sketch, update_theta_sketch
from pyroaring import BitMap, BitMap64

from lakestruct.cli import main
from lakestruct.scan import FORMATS, check_file, detect, walk

ICEBERG_DELETES = "iceberg/core/src/test/resources/org/apache/iceberg/deletes"
CROARING = "croaring/tests/testdata"

#: The Roaring, DV and Paimon-index files of the corpus's MANIFEST.md, with the format scan gives them and whether they
#: pass (the ``*.sk`` Theta files and the generated Paimon index files are added by glob in ``expected``).
LISTED: dict[str, tuple[str, bool]] = {
    "roaring-format-spec/testdata/bitmapwithoutruns.bin": ("roaring32", True),
    "roaring-format-spec/testdata/bitmapwithruns.bin": ("roaring32", True),
    "roaring-format-spec/testdata64/bitmap64.bin": ("roaring64", True),
    "roaring-format-spec/testdata64/portable_bitmap64.bin": ("roaring64", True),
    f"{CROARING}/addoffsetinput.bin": ("roaring32", True),
    **{f"{CROARING}/crashproneinput{i}.bin": ("roaring32", False) for i in range(1, 8)},
    f"{CROARING}/64maphighvals.bin": ("roaring64", True),  # keys above 2^31: fine for Roaring64, not for Iceberg
    f"{ICEBERG_DELETES}/64mapempty.bin": ("roaring64", True),
    f"{ICEBERG_DELETES}/64map32bitvals.bin": ("roaring64", True),
    f"{ICEBERG_DELETES}/64mapspreadvals.bin": ("roaring64", True),
    f"{ICEBERG_DELETES}/64maphighvals.bin": ("roaring64", False),  # the UTF-8-mangled copy
    f"{ICEBERG_DELETES}/empty-position-index.bin": ("dv-blob", True),
    f"{ICEBERG_DELETES}/small-alternating-values-position-index.bin": ("dv-blob", True),
    f"{ICEBERG_DELETES}/small-and-large-values-position-index.bin": ("dv-blob", True),
    f"{ICEBERG_DELETES}/all-container-types-position-index.bin": ("dv-blob", True),
    "paimon/paimon-core/src/test/resources/compatibility/dvindex-32": ("dv-file", True),
    "paimon/paimon-core/src/test/resources/compatibility/dvindex-64": ("dv-file", True),
}
#: Malformed Roaring64 inputs of CRoaring's tests too small to carry a signature (Roaring64 has no magic): not recognised.
UNRECOGNISABLE = {
    f"{CROARING}/64mapemptyinput.bin": "0 bytes",
    f"{CROARING}/64mapsizetoosmall.bin": "7 bytes, shorter than the bucket count",
    f"{CROARING}/64mapinvalidsize.bin": "a bucket count of 2^56 in 9 bytes",
    f"{CROARING}/64mapkeytoosmall.bin": "a bucket count of 2^56 in 11 bytes",
}


def expected(corpus: Path) -> dict[str, tuple[str, bool]]:
    exp = {str(corpus / k): v for k, v in LISTED.items()}
    for sk in [*corpus.glob("datasketches-go/**/*.sk"), *corpus.glob("datasketches-cpp/**/*.sk")]:
        exp[str(sk)] = ("theta", True)
    for idx in (corpus / "generated-seed1/paimon/tables").glob("*/index/index-*"):
        exp[str(idx)] = ("dv-file", True)
    return exp


def test_every_listed_file_is_detected_and_checked(corpus: Path) -> None:
    exp = expected(corpus)
    assert sum(f == "theta" for f, _ in exp.values()) == 21 and sum(f == "dv-file" for f, _ in exp.values()) == 6
    for path, (fmt, ok) in exp.items():
        assert detect(path) == fmt, path
        r = check_file(path, fmt)
        assert r.ok is ok, (path, r.summary)
        if not ok:  # a named rule with an offset and a field path, never a crash
            assert r.rule and r.rule.startswith(("roaring32.", "roaring64.")) and r.offset is not None and r.field_path, r
    for path, why in UNRECOGNISABLE.items():
        assert detect(str(corpus / path)) is None, why


def test_checks_agree_with_reference_libraries(corpus: Path) -> None:
    for path, (fmt, ok) in expected(corpus).items():
        if not ok:
            continue
        summary = check_file(path, fmt).summary
        data = Path(path).read_bytes()
        if fmt == "roaring32":
            assert f": {len(BitMap.deserialize(data))} values" in summary, path
        elif fmt == "roaring64":
            assert f": {len(BitMap64.deserialize(data))} values" in summary, path
        elif fmt == "dv-blob":  # length, magic, portable Roaring64, CRC
            assert f": {len(BitMap64.deserialize(data[8:-4]))} deleted rows" in summary, path
        elif fmt == "theta":
            m = re.search(r"(\d+) retained, .*estimate (\S+)$", summary)
            assert m, summary
            ref = compact_theta_sketch.deserialize(data)
            assert int(m.group(1)) == ref.num_retained and float(m.group(2)) == pytest.approx(ref.get_estimate(), rel=1e-5)
    exp = json.loads((corpus / "generated-seed1/paimon/expected.json").read_text())
    for f in exp["tables"]["de_dv"]["deletion_vector_index_files"]:
        r = check_file(str(corpus / "generated-seed1/paimon/tables/de_dv/index" / f["index_file"]), "dv-file")
        assert f"{len(f['vectors'])} deletion vector(s)" in r.summary
        assert f"{sum(v['cardinality'] for v in f['vectors'])} deleted rows" in r.summary
    r = check_file(str(corpus / "paimon/paimon-core/src/test/resources/compatibility/dvindex-32"), "dv-file")
    assert r.summary.endswith("2 deletion vector(s) (2 32-bit), 3 deleted rows")  # cardinalities 2 and 1 (MANIFEST.md)


def _old_detect(path: Path) -> str | None:
    """Puffin and Parquet detection as it was before the other formats were added (magic at either end)."""
    data = path.read_bytes()
    if len(data) < 4:
        return None
    head, tail = data[:4], data[-4:]
    if b"PFA1" in (head, tail):
        return "puffin"
    if head in (b"PAR1", b"PARE") or tail in (b"PAR1", b"PARE"):
        return "parquet"
    return None


def test_no_other_corpus_file_is_taken_and_puffin_parquet_unchanged(corpus: Path) -> None:
    exp = expected(corpus)
    counts: dict[str | None, int] = {}
    for p in walk([str(corpus)]):
        if "/fuzz-repro/" in p:  # crafted inputs: detect only below (several decode to 2 GiB)
            continue
        got = detect(p)
        counts[got] = counts.get(got, 0) + 1
        old = _old_detect(Path(p))
        if old is not None or got in ("puffin", "parquet"):
            assert got == old, p
        elif p not in exp:
            assert got is None, p  # READMEs, JSON, Avro, Paimon splits, Kaitai specs, ...
    assert counts["parquet"] > 100 and counts["puffin"] > 15, counts
    # detection alone never fails on the fuzzing reproducers (their checks are the reproducers' own tests)
    fuzz = sorted(p for p in (corpus / "fuzz-repro").iterdir() if p.suffix not in (".txt", ".md"))
    found = {detect(str(p)) for p in fuzz}
    assert found <= {*FORMATS, None} and {"dv-file", "dv-blob", "roaring32", "parquet", "puffin"} <= found


def test_weak_signatures_by_name_or_whole_file(tmp_path: Path) -> None:
    def put(name: str, data: bytes) -> str:
        (tmp_path / name).write_bytes(data)
        return str(tmp_path / name)

    runs = BitMap(range(100, 5000))
    runs.run_optimize()
    r32 = runs.serialize()
    assert r32[:2] == b"\x3b\x30"
    r64 = BitMap64([1, 2, 3, 2**40, 2**40 + 7]).serialize()
    sk = update_theta_sketch()
    for i in range(100):
        sk.update(i)
    theta = sk.compact().serialize()
    for name, data, fmt in (("runs", r32, "roaring32"), ("bitmap64", r64, "roaring64"), ("sketch", theta, "theta")):
        # a whole, valid file is found under any name, and checks out
        assert detect(put(name, data)) == fmt
        assert check_file(str(tmp_path / name), fmt).ok
        # the same signature on a file that is not one whole file of the format: only under the format's file names
        broken = data[:-3]
        assert detect(put(name + ".dat", broken)) is None
        ext = ".sk" if fmt == "theta" else ".bin"
        assert detect(put(name + ext, broken)) == fmt
        r = check_file(str(tmp_path / (name + ext)), fmt)
        assert not r.ok and r.rule is not None
    # text that happens to start with cookie 12347 (";0"), or with a Theta-like preamble, is not taken
    assert detect(put("notes.txt", b";0 a comment line\n" * 20)) is None
    assert detect(put("small.csv", b"\x02\x03\x03 not a sketch at all")) is None
    # 8 zero bytes are an empty Roaring64 bitmap only under a Roaring name
    assert detect(put("zeros", bytes(8))) is None
    assert detect(put("zeros.roaring", bytes(8))) == "roaring64"
    assert set(FORMATS) == {"puffin", "parquet", "dv-file", "dv-blob", "theta", "roaring32", "roaring64"}


def test_scan_exit_status_and_output(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Iceberg's deletes folder: DV blobs and Roaring64 files, one of them the mangled 64maphighvals.bin
    assert main(["scan", str(corpus / ICEBERG_DELETES)]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^FAIL  roaring64 .*64maphighvals\.bin: roaring32\.cookie at offset 12", out, re.M), out
    assert "8 file(s) checked: 7 ok, 1 breaking a rule" in out
    ok_only = [corpus / "datasketches-cpp", corpus / "roaring-format-spec", corpus / "paimon/paimon-core/src/test/resources/compatibility"]
    assert main(["scan", *map(str, ok_only), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    summary = lines[-1]["summary"]
    assert summary["failed"] == 0 and summary["files"] == 4 + 4 + 2, summary  # 4 sketches, 4 bitmaps, 2 DV index files
    assert {r["format"] for r in lines[:-1]} == {"theta", "roaring32", "roaring64", "dv-file"}
    # one failing file among valid ones: exit 1, the rule in the line
    assert main(["scan", str(corpus / CROARING / "crashproneinput2.bin"), str(corpus / ICEBERG_DELETES / "64mapempty.bin")]) == 1
    out = capsys.readouterr().out
    assert "FAIL  roaring32" in out and "roaring32.container-count" in out and "1 ok, 1 breaking a rule" in out
    # encrypted Parquet is reported as not readable without keys, and is not a failure
    enc = corpus / "parquet-testing/data/uniform_encryption.parquet.encrypted"
    assert main(["scan", str(enc)]) == 0
    assert "not readable without keys" in capsys.readouterr().out
    # a path that does not exist: exit 1, named on stderr
    assert main(["scan", str(tmp_path / "nope")]) == 1
    assert "nope: no such file or directory" in capsys.readouterr().err


def test_scan_finds_the_paimon_tables_below_a_folder(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = corpus / "generated-seed1" / "paimon"
    exp = json.loads((root / "expected.json").read_text())
    rc = main(["scan", str(root), "--json"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    found = [r for r in lines if r.get("format") == "paimon-table"]
    tables = {Path(r["path"]).name: r for r in found}
    assert rc == 0 and tables.keys() == set(exp["tables"]) and len(found) == len(tables)  # every table below, once
    assert all(r["ok"] for r in tables.values())
