"""Hypothesis round trips of the manifest models through the spec's Avro schemas: entries and manifest list records
(v1-v3 fields) written by fastavro with the schemas of lakestruct.iceberg.manifest_write and read back equal by
lakestruct's readers; the same files read by pyiceberg's reader (an independent implementation of the schemas) give
the same values; and the schemas' field ids are the spec's (as pyiceberg declares them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.iceberg import DataFile, FieldSummary, ManifestEntry, ManifestFile
from lakestruct.iceberg.manifest import iter_manifest, read_manifest_list
from lakestruct.iceberg.manifest_write import entry_schema, list_schema, manifest_bytes, manifest_list_bytes

LONG = st.integers(-(2**63), 2**63 - 1)
NONNEG = st.integers(0, 2**63 - 1)
INT = st.integers(-(2**31), 2**31 - 1)
PART = [("p_int", 1000, "int"), ("p_str", 1001, "string")]


def _maps(values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[int, Any] | None]:
    return st.none() | st.dictionaries(st.integers(1, 10_000), values, max_size=4)


@st.composite
def data_files(draw: st.DrawFn, version: int, content: int | None = None) -> DataFile:
    c = draw(st.sampled_from([0, 1, 2])) if content is None else content
    if version == 1:
        c = 0
    dv = version >= 3 and c == 1 and draw(st.booleans())
    v3 = version >= 3
    return DataFile(
        content=c,
        file_path=draw(st.text(min_size=1, max_size=40)),
        file_format="puffin" if dv else draw(st.sampled_from(["parquet", "avro", "orc"])),
        partition={"p_int": draw(st.none() | INT), "p_str": draw(st.none() | st.text(max_size=8))},
        record_count=draw(NONNEG),
        file_size_in_bytes=draw(NONNEG),
        column_sizes=draw(_maps(LONG)),
        value_counts=draw(_maps(LONG)),
        null_value_counts=draw(_maps(LONG)),
        nan_value_counts=draw(_maps(LONG)),
        lower_bounds=draw(_maps(st.binary(max_size=8))),
        upper_bounds=draw(_maps(st.binary(max_size=8))),
        key_metadata=draw(st.none() | st.binary(max_size=8)),
        split_offsets=draw(st.none() | st.lists(LONG, max_size=3).map(tuple)),
        equality_ids=draw(st.none() | st.lists(INT, max_size=3).map(tuple)) if version >= 2 else None,
        sort_order_id=draw(st.none() | INT),
        first_row_id=draw(st.none() | NONNEG) if v3 and c == 0 else None,
        referenced_data_file=draw(st.none() | st.text(min_size=1, max_size=20)) if version >= 2 and not dv else
        (draw(st.text(min_size=1, max_size=20)) if dv else None),
        content_offset=draw(NONNEG) if dv else None,
        content_size_in_bytes=draw(NONNEG) if dv else None,
        spec_id=None,
    )


@st.composite
def manifests(draw: st.DrawFn) -> tuple[int, int, list[ManifestEntry]]:
    version = draw(st.sampled_from([1, 2, 3]))
    content = 0 if version == 1 else draw(st.sampled_from([0, 1]))
    entries = []
    for _ in range(draw(st.integers(0, 6))):
        fc = 0 if content == 0 else draw(st.sampled_from([1, 2]))
        df = draw(data_files(version, fc))
        if version == 1:
            e = ManifestEntry(draw(st.sampled_from([0, 1, 2])), draw(LONG), None, None, df)
        else:
            e = ManifestEntry(draw(st.sampled_from([0, 1, 2])), draw(st.none() | LONG), draw(st.none() | LONG), draw(st.none() | LONG), df)
        entries.append(e)
    return version, content, entries


@settings(max_examples=200, deadline=None)
@given(manifests())
def test_manifest_entries_round_trip(m: tuple[int, int, list[ManifestEntry]]) -> None:
    version, content, entries = m
    data = manifest_bytes(entries, format_version=version, partition_type=PART, content=content, spec_id=4)
    back = list(iter_manifest(data, name="m.avro"))
    want = [ManifestEntry(e.status, e.snapshot_id, e.sequence_number, e.file_sequence_number,
                          _with(e.data_file, spec_id=4, file_format=e.data_file.file_format.lower())) for e in entries]
    assert back == want
    for b, e in zip(back, entries, strict=True):  # the fields compare=False leaves out of ==
        assert dict(b.data_file.partition) == dict(e.data_file.partition)
        for k in ("column_sizes", "value_counts", "null_value_counts", "nan_value_counts", "lower_bounds", "upper_bounds"):
            assert getattr(b.data_file, k) == getattr(e.data_file, k), k


def _with(df: DataFile, **kw: Any) -> DataFile:
    from dataclasses import replace

    return replace(df, **kw)


@st.composite
def manifest_files(draw: st.DrawFn, version: int) -> ManifestFile:
    cnt = st.none() | st.integers(0, 2**31 - 1) if version == 1 else st.integers(0, 2**31 - 1)
    rows = st.none() | NONNEG if version == 1 else NONNEG
    return ManifestFile(
        manifest_path=draw(st.text(min_size=1, max_size=40)), manifest_length=draw(NONNEG), partition_spec_id=draw(INT),
        content=0 if version == 1 else draw(st.sampled_from([0, 1])),
        sequence_number=0 if version == 1 else draw(NONNEG), min_sequence_number=0 if version == 1 else draw(NONNEG),
        added_snapshot_id=draw(LONG), added_files_count=draw(cnt), existing_files_count=draw(cnt), deleted_files_count=draw(cnt),
        added_rows_count=draw(rows), existing_rows_count=draw(rows), deleted_rows_count=draw(rows),
        partitions=draw(st.none() | st.lists(st.builds(FieldSummary, st.booleans(), st.none() | st.booleans(),
                                                       st.none() | st.binary(max_size=6), st.none() | st.binary(max_size=6)),
                                             max_size=3).map(tuple)),
        key_metadata=draw(st.none() | st.binary(max_size=6)),
        first_row_id=draw(st.none() | NONNEG) if version >= 3 else None,
    )  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([1, 2, 3]).flatmap(lambda v: st.tuples(st.just(v), st.lists(manifest_files(v), max_size=5))))
def test_manifest_list_round_trip(m: tuple[int, list[ManifestFile]]) -> None:
    version, files = m
    data = manifest_list_bytes(files, format_version=version, snapshot_id=1, sequence_number=3)
    assert read_manifest_list(data, name="snap.avro", version=version) == files


def _ids(schema: Any) -> dict[str, Any]:
    """{field name: (field id, nested ids)} of an Avro record schema written with Iceberg's field-id annotations."""
    out: dict[str, Any] = {}
    for f in schema["fields"]:
        t = f["type"]
        t = next(x for x in t if x != "null") if isinstance(t, list) else t
        nested: Any = None
        if isinstance(t, dict) and t.get("type") == "record" and f["name"] != "partition":
            nested = _ids(t)
        elif isinstance(t, dict) and t.get("type") == "array":
            items = t["items"]
            nested = _ids(items) if isinstance(items, dict) and items.get("type") == "record" else t.get("element-id")
        out[f["name"]] = (f["field-id"], nested)
    return out


@pytest.mark.parametrize("version", [1, 2, 3])
def test_field_ids_are_pyicebergs(version: int) -> None:
    """The Avro schemas carry the spec's field ids: those of pyiceberg's own manifest schemas."""
    pytest.importorskip("pyiceberg")
    from pyiceberg.avro.resolver import resolve_writer  # noqa: F401 - pyiceberg present
    from pyiceberg.manifest import MANIFEST_LIST_FILE_SCHEMAS, data_file_with_partition, manifest_entry_schema_with_data_file
    from pyiceberg.types import IntegerType, NestedField, StringType, StructType
    from pyiceberg.utils.schema_conversion import AvroSchemaConversion

    part = StructType(NestedField(1000, "p_int", IntegerType(), required=False), NestedField(1001, "p_str", StringType(), required=False))
    theirs_entry = AvroSchemaConversion().iceberg_to_avro(
        manifest_entry_schema_with_data_file(version, data_file_with_partition(part, version)), schema_name="manifest_entry")
    theirs_list = AvroSchemaConversion().iceberg_to_avro(MANIFEST_LIST_FILE_SCHEMAS[version], schema_name="manifest_file")
    ours_entry = _ids(entry_schema(version, PART))
    ours_list = _ids(list_schema(version))

    def flat(d: dict[str, Any], prefix: str = "") -> dict[str, int]:
        out = {}
        for k, (fid, nested) in d.items():
            out[prefix + k] = fid
            if isinstance(nested, dict):
                out.update(flat(nested, prefix + k + "."))
        return out

    mine, ref = flat(ours_entry), flat(_ids(theirs_entry))
    common = set(mine) & set(ref)
    assert {k: mine[k] for k in common} == {k: ref[k] for k in common}
    assert len(common) >= 20
    mine, ref = flat(ours_list), flat(_ids(theirs_list))
    common = set(mine) & set(ref)
    assert {k: mine[k] for k in common} == {k: ref[k] for k in common}
    assert len(common) >= 12 if version > 1 else len(common) >= 8


@settings(max_examples=30, deadline=None)
@given(manifests())
def test_pyiceberg_reads_what_the_schemas_write(tmp_path_factory: pytest.TempPathFactory, m: tuple[int, int, list[ManifestEntry]]) -> None:
    """pyiceberg's manifest reader (its own Avro decoder and schema resolution) reads the written manifests to the
    same values lakestruct reads."""
    pytest.importorskip("pyiceberg")
    from pyiceberg.io.pyarrow import PyArrowFileIO
    from pyiceberg.manifest import ManifestContent
    from pyiceberg.manifest import ManifestFile as PyManifestFile

    version, content, entries = m
    if version == 1:
        return  # pyiceberg reads v1 manifests only through v1 manifest lists of a table
    # only ADDED entries may leave their sequence numbers to inheritance (lakestruct names the rule otherwise)
    entries = [e if e.status == 1 else ManifestEntry(e.status, e.snapshot_id, 3 if e.sequence_number is None else e.sequence_number,
                                                     4 if e.file_sequence_number is None else e.file_sequence_number, e.data_file)
               for e in entries]
    d: Path = tmp_path_factory.mktemp("m")
    path = d / "m.avro"
    path.write_bytes(manifest_bytes(entries, format_version=version, partition_type=PART, content=content, spec_id=0))
    pm = PyManifestFile.from_args(manifest_path=str(path), manifest_length=path.stat().st_size, partition_spec_id=0,
                                  content=ManifestContent(content), sequence_number=7, min_sequence_number=7, added_snapshot_id=5)
    theirs = pm.fetch_manifest_entry(PyArrowFileIO(), discard_deleted=False)
    listed = ManifestFile(str(path), path.stat().st_size, 0, content, 7, 7, 5, None, None, None, None, None, None)
    ours = list(iter_manifest(path.read_bytes(), manifest=listed))
    assert len(theirs) == len(ours)
    for a, b in zip(ours, theirs, strict=True):
        assert (a.status, a.snapshot_id, a.data_file.file_path, a.data_file.record_count, a.data_file.file_size_in_bytes) == (
            int(b.status), b.snapshot_id, b.data_file.file_path, b.data_file.record_count, b.data_file.file_size_in_bytes)
        if a.status == 1:  # inherited: pyiceberg inherits for ADDED entries too
            assert (a.sequence_number, a.file_sequence_number) == (b.sequence_number, b.file_sequence_number)
        assert list(a.data_file.partition.values()) == list(b.data_file.partition._data)
        assert dict(a.data_file.lower_bounds or {}) == dict(b.data_file.lower_bounds or {})
        # (pyiceberg 0.12's fetch_manifest_entry reads every manifest with the v2 data_file struct: no v3 fields)
