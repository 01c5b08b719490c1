"""Data-file indexes of a real table: generated-seed1's ``append_p`` (written by pypaimon) given file indexes built by
lakestruct's writer from the values pyarrow reads in each data file, half embedded in the manifest entries
(``_EMBEDDED_FILE_INDEX``), half in ``<data file>.index`` files named in ``_EXTRA_FILES``; every probe through
``Table`` and ``lakestruct paimon index`` is held to brute force over the same pyarrow values."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import fastavro
import pyarrow.parquet as pq
import pytest

from lakestruct import paimon
from lakestruct.avro import avro_header, read_avro_records
from lakestruct.cli import main
from lakestruct.errors import FormatError, UsageError
from lakestruct.paimon.types import parse_type

SEED = "generated-seed1/paimon/tables/append_p"
T_ID, T_V, T_X = parse_type("BIGINT"), parse_type("STRING"), parse_type("DOUBLE")


def _index_columns(table: Any) -> dict[str, dict[str, bytes]]:
    ids, vs, xs = (table.column(c).to_pylist() for c in ("id", "v", "x"))
    return {
        "id": {"bitmap": paimon.encode_bitmap_index(ids, T_ID, version=1), "bsi": paimon.encode_bsi_index(ids, T_ID)},
        "v": {"bloom-filter": paimon.encode_bloom_filter(vs, T_V, items=2000, fpp=0.01), "bitmap": paimon.encode_bitmap_index(vs, T_V)},
        "x": {"bloom-filter": paimon.encode_bloom_filter(xs, T_X, items=2000)},
    }  # fmt: skip


@pytest.fixture(scope="module")
def indexed(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The copied table and {data file name: its pyarrow table}."""
    d = tmp_path_factory.mktemp("fi") / "append_p"
    shutil.copytree(corpus / SEED, d)
    t = paimon.open_table(d)
    values: dict[str, Any] = {}
    embed: set[str] = set()
    for i, f in enumerate(t.live_files()):
        values[f.file.file_name] = pq.read_table(f.path)
        columns = _index_columns(values[f.file.file_name])
        if i % 2:
            embed.add(f.file.file_name)
            values[f.file.file_name + "#image"] = paimon.encode_file_index(columns)
        else:
            paimon.write_file_index(f.path + ".index", columns, version=1 + i // 2 % 2)  # both container versions
    for m in t.data_manifests():
        path = Path(t.manifest_path(m.file_name))
        data = path.read_bytes()
        schema, _ = avro_header(data)
        records = list(read_avro_records(data))
        for r in records:
            name = r["_FILE"]["_FILE_NAME"]
            if name in embed:
                r["_FILE"]["_EMBEDDED_FILE_INDEX"] = values[name + "#image"]
            elif name in values:
                r["_FILE"]["_EXTRA_FILES"] = [name + ".index"]
        with path.open("wb") as fh:
            fastavro.writer(fh, schema, records, codec="null")
    return d, values


def test_table_probes_equal_brute_force(indexed: tuple[Path, dict[str, Any]]) -> None:
    d, values = indexed
    t = paimon.open_table(d)
    live = t.live_files()
    assert {bool(f.file.embedded_index) for f in live} == {True, False}  # both ways of storing the index
    for f in live:
        assert t.index_kinds(f) == ["bitmap", "bsi", "bloom-filter"]
        data = values[f.file.file_name]
        ids, vs, xs = (data.column(c).to_pylist() for c in ("id", "v", "x"))
        for v in {*vs, None, "not there"}:
            want = [i for i, x in enumerate(vs) if x == v]
            assert t.rows_with(f, "v", v).tolist() == want  # type: ignore[union-attr]
            assert t.might_contain(f, "v", v) is bool(want)
        for k in {*ids[:50], min(ids) - 1, max(ids) + 1}:
            assert t.rows_with(f, "id", k).tolist() == [i for i, x in enumerate(ids) if x == k]  # type: ignore[union-attr]
        lo, hi = sorted(ids)[len(ids) // 4], sorted(ids)[3 * len(ids) // 4]
        assert t.rows_in_range(f, "id", lo, hi, hi_inclusive=False).tolist() == [  # type: ignore[union-attr]
            i for i, x in enumerate(ids) if x is not None and lo <= x < hi]
        assert all(t.might_contain(f, "x", x) for x in xs)  # bloom filter only: no false negatives
        assert t.rows_with(f, "x", xs[0]) is None and t.rows_in_range(f, "v", "a") is None
    with pytest.raises(UsageError, match="no column"):
        t.probe_file_index(live[0], "nope", 1)


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_probe(indexed: tuple[Path, dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    d, values = indexed
    t = paimon.open_table(d)
    for f in t.live_files():
        data = values[f.file.file_name]
        ids, vs = data.column("id").to_pylist(), data.column("v").to_pylist()
        base = ["paimon", "index", str(d), "--file", f.file.file_name]
        rc, out, _ = _cli([*base, "--json"], capsys)
        listing = json.loads(out)
        assert rc == 0 and {(i["column"], i["type"]) for i in listing["indexes"]} == {
            ("id", "bitmap"), ("id", "bsi"), ("v", "bloom-filter"), ("v", "bitmap"), ("x", "bloom-filter")}
        rc, out, _ = _cli([*base, "--column", "id", "--value", str(ids[0]), "--json", "--all"], capsys)
        doc = json.loads(out)
        want = [i for i, x in enumerate(ids) if x == ids[0]]
        assert rc == 0 and doc["might_match"] is True
        assert {e["type"]: e["rows"] for e in doc["indexes"]} == {"bitmap": want, "bsi": want}
        cut = sorted(x for x in ids if x is not None)[len(ids) // 2]
        rc, out, _ = _cli([*base, "--column", "id", "--value", str(cut), "--op", "lt", "--json", "--all"], capsys)
        by_type = {e["type"]: e for e in json.loads(out)["indexes"]}
        assert by_type["bsi"]["rows"] == [i for i, x in enumerate(ids) if x is not None and x < cut]
        assert by_type["bitmap"]["answer"] == "unsupported"
        rc, out, _ = _cli([*base, "--column", "v", "--value", "no such value", "--json"], capsys)
        assert json.loads(out)["might_match"] is False
        rc, out, _ = _cli([*base, "--column", "v", "--value", vs[0]], capsys)
        assert rc == 0 and "rows may match" in out and "bloom-filter  may contain" in out
    # usage errors exit 2
    name = t.live_files()[0].file.file_name
    for argv in (["--file", "data-nope.parquet"], ["--column", "id", "--value", "1"], ["--file", name, "--column", "id"],
                 ["--file", name, "--column", "id", "--value", "abc"], ["--file", name, "--column", "nope", "--value", "1"]):
        rc, _, err = _cli(["paimon", "index", str(d), *argv], capsys)
        assert rc == 2, (argv, err)


def test_an_index_of_another_row_count_is_refused(indexed: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    d, _ = indexed
    other = tmp_path / "t"
    shutil.copytree(d, other)
    t = paimon.open_table(other)
    f = next(f for f in t.live_files() if not f.file.embedded_index)
    Path(f.path + ".index").write_bytes(paimon.encode_file_index({"id": {"bitmap": paimon.encode_bitmap_index([1, 2], T_ID)}}))
    with pytest.raises(FormatError) as ei:
        t.rows_with(f, "id", 1)
    assert ei.value.rule == "paimon.file-index.row-count" and ei.value.source == f.path + ".index"


def test_a_broken_index_file_names_its_rule(indexed: tuple[Path, dict[str, Any]], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    d, _ = indexed
    broken = tmp_path / "t"
    shutil.copytree(d, broken)
    t = paimon.open_table(broken)
    f = next(f for f in t.live_files() if not f.file.embedded_index)
    image = bytearray(Path(f.path + ".index").read_bytes())
    fi = paimon.parse_file_index(bytes(image))
    bsi = next(r for r in fi.indexes if r.type == "bsi")
    image[bsi.start] = 9  # the BSI's version byte
    Path(f.path + ".index").write_bytes(bytes(image))
    rc, _, err = _cli(["paimon", "index", str(broken), "--file", f.file.file_name, "--column", "id", "--value", "1"], capsys)
    assert rc == 1 and "paimon.file-index.bsi-version" in err and f"offset {bsi.start}" in err
