"""Every command's ``--json`` output spells lakestruct's own keys in snake_case; keys that are the file's own data
(the Puffin footer's blob metadata and properties as the spec spells them, Thrift field names, a row's field names)
stay as the file spells them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lakestruct.cli import main
from lakestruct.cli.demo import write_demo

SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
PQ = "parquet-testing/data"

#: Where the file's own keys start, as key paths with ``*`` for any list index or key: nothing below is checked.
FILE_OWNED = {
    "puffin": [("properties",), ("blobs", "*")],  # the blob metadata as the Puffin spec spells it (snapshot-id, ...)
    "parquet": [("metadata",), ("pages", "*", "header"), ("chunks", "*", "column_index"), ("chunks", "*", "offset_index"),
                ("chunks", "*", "bloom_filter", "header"), ("rows",)],
}
#: ... except these, which lakestruct adds inside them.
OURS_INSIDE = {"puffin": [("blobs", "*", "decoded")]}


def _keys(doc: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield path, k
            yield from _keys(v, (*path, k))
    elif isinstance(doc, list):
        for v in doc:
            yield from _keys(v, (*path, "*"))


def _under(path: tuple[str, ...], prefixes: list[tuple[str, ...]]) -> bool:
    return any(path[: len(p)] == tuple(p) for p in prefixes)


def _owned_keys(doc: Any, group: str) -> list[tuple[tuple[str, ...], str]]:
    owned = []
    for path, key in _keys(doc):
        if _under(path, FILE_OWNED.get(group, [])) and not _under(path, OURS_INSIDE.get(group, [])):
            continue
        owned.append((path, key))
    return owned


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[Any]:
    rc = main(argv)
    out = capsys.readouterr().out
    assert rc == 0, (argv, out)
    try:
        return [json.loads(out)]
    except json.JSONDecodeError:  # scan: one object per line
        return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("demo")
    write_demo(str(d))
    return d


def commands(demo: Path, corpus: Path) -> list[tuple[str, list[str]]]:
    pq = corpus / PQ
    out: list[tuple[str, list[str]]] = []
    for name in ("plain.puffin", "lz4-footer.puffin", "deletes.puffin", "stats.puffin", "empty.puffin"):
        out.append(("puffin", ["puffin", "inspect", str(demo / name), "--json"]))
    out += [
        ("deletes", ["deletes", "show", str(demo / "deletes.puffin"), "--json"]),  # 334 rows: truncated without --all
        ("deletes", ["deletes", "show", str(corpus / "paimon/paimon-core/src/test/resources/compatibility/dvindex-32"), "--json"]),
        ("deletes", ["deletes", "show", str(corpus / "iceberg/core/src/test/resources/org/apache/iceberg/deletes/"
                                              "small-and-large-values-position-index.bin"), "--json"]),
        ("parquet", ["parquet", "meta", str(pq / "alltypes_tiny_pages.parquet"), "--json"]),
        ("parquet", ["parquet", "pages", str(pq / "datapage_v2.snappy.parquet"), "--json"]),
        ("parquet", ["parquet", "index", str(pq / "alltypes_tiny_pages.parquet"), "--json", "--column", "0"]),
        ("parquet", ["parquet", "bloom", str(pq / "data_index_bloom_encoding_stats.parquet"), "--json", "--column", "0", "--value", "x"]),
        ("parquet", ["parquet", "levels", str(corpus / "seed-files/nested.parquet"), "--json", "--column", "1"]),
        ("parquet", ["parquet", "values", str(pq / "binary.parquet"), "--json", "--column", "0"]),
        ("parquet", ["parquet", "values", str(corpus / "seed-files/nested.parquet"), "--json", "--column", "1", "--rows"]),
        ("scan", ["scan", str(demo), str(corpus / "datasketches-cpp"), "--json"]),
    ]
    return out


def test_every_command_spells_its_own_keys_in_snake_case(demo: Path, corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen: set[str] = set()
    for group, argv in commands(demo, corpus):
        for doc in _run(argv, capsys):
            keys = _owned_keys(doc, group)
            assert keys, argv
            bad = sorted({f"{'.'.join(p)}.{k}" if p else k for p, k in keys if not SNAKE.match(k)})
            assert not bad, (argv, bad)
            seen |= {k for _, k in keys}
    # the keys that were kebab-case before are now snake_case (and were really produced above)
    assert {"file_size", "payload_compressed", "deleted_rows", "deleted_rows_truncated", "last_deleted_row",
            "referenced_data_file", "deletion_vectors", "num_retained", "estimation_mode", "ndv_check"} <= seen


def test_the_files_own_keys_stay_as_the_file_spells_them(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (doc,) = _run(["puffin", "inspect", str(demo / "lz4-footer.puffin"), "--json"], capsys)
    assert doc["properties"] == {"demo": "true", "created-by": doc["properties"]["created-by"]}
    lz4 = doc["blobs"][1]
    assert lz4["snapshot-id"] == 42 and lz4["sequence-number"] == 7 and lz4["compression-codec"] == "lz4"
    assert doc["footer"]["payload_compressed"] is True
