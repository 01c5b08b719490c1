"""The column builder (kaitai.columns, what the Spark source uses) against its reference twin, the row walker
(kaitai.walk, what ``Spec.rows`` uses and tests/kaitai/test_rows.py holds to the generated parser's objects):
the same table, the same error rows and the same error, for every spec the Kaitai tests use (the gallery's
with files written by real tools, the project's own specs over the shared corpus, the mapping spec) and for
hypothesis-made inputs: mutated pcap captures and random bytes for a spec full of switches, optional fields,
enum arrays and instances that fail or overflow."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import kaitaistruct
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.errors import LakestructError
from lakestruct.kaitai import Spec
from lakestruct.kaitai.columns import Columns
from lakestruct.spark.rowsource import ERROR_FIELDS

from .conftest import Samples, compiled_specs, write_images

Opts = dict[str, Any]


def _schema(spec: Spec, opts: Opts) -> pa.Schema:
    return spec.schema(**{k: v for k, v in opts.items() if k not in ("max_records", "max_file_bytes")})


def _table(spec: Spec, rows: list[dict[str, Any]], opts: Opts) -> Any:
    return pa.array(rows, type=pa.struct([*_schema(spec, opts), *ERROR_FIELDS]))


def _old(spec: Spec, path: Path, opts: Opts) -> tuple[list[dict[str, Any]], LakestructError | None]:
    rows: list[dict[str, Any]] = []
    try:
        rows.extend(spec.rows(str(path), **opts))
    except LakestructError as e:
        return rows, e
    return rows, None


def _new(spec: Spec, path: Path, opts: Opts, batch_rows: int) -> tuple[list[dict[str, Any]], LakestructError | None]:
    rows: list[dict[str, Any]] = []
    schema = _schema(spec, opts)
    try:
        for chunk in spec.batches(str(path), batch_rows=batch_rows, **opts):
            if isinstance(chunk, pa.RecordBatch):
                assert chunk.schema.equals(schema, check_metadata=True)
                rows.extend(chunk.to_pylist())
            else:
                assert chunk["error_rule"], chunk  # only a row that carries an error leaves the batches
                rows.append(chunk)
    except LakestructError as e:
        return rows, e
    return rows, None


def assert_twins(spec: Spec, path: Path, opts: Opts, *, batch_rows: int = 4096) -> list[dict[str, Any]]:
    """``Spec.batches`` (columns) gives the rows and the error ``Spec.rows`` (the walker) gives."""
    old, old_err = _old(spec, path, opts)
    new, new_err = _new(spec, path, opts, batch_rows)
    a, b = _table(spec, old, opts), _table(spec, new, opts)
    assert a.type == b.type
    assert repr(a.to_pylist()) == repr(b.to_pylist())  # repr: NaN equals NaN, -0.0 differs from 0.0
    assert a.equals(b) or repr(a) == repr(b)
    assert repr(old_err) == repr(new_err) and type(old_err) is type(new_err)
    where = [(getattr(e, "rule", None), getattr(e, "offset", None), getattr(e, "path", None)) for e in (old_err, new_err)]
    assert where[0] == where[1]
    return old


def assert_fast(spec: Spec, path: Path, opts: Opts) -> None:
    """A good file's rows are built by the columns alone (no row falls back to the walker)."""
    walker = spec.walker(**opts)
    _, items, err = spec._items(walker, path.read_bytes(), max_records=10**9)
    assert err is None and items
    rows = list(walker.rows(items))
    assert not any("error_rule" in r for r in rows)
    batch = Columns(walker).batch(items)
    assert batch.num_rows == len(items)
    assert repr(batch.to_pylist()) == repr(pa.array(rows, type=pa.struct(list(spec.schema(**opts)))).to_pylist())


# -- the gallery's specs on files written by real tools -------------------------------------------------------

PCAP_OPTS: list[Opts] = [
    {"root": "packets"},
    {"root": "packets", "positions": True},
    {"root": "packets", "instances": ["all"], "u8": "long"},
    {},
    {"positions": True, "instances": ["all"]},
]


@pytest.mark.parametrize("opts", PCAP_OPTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "whole")
def test_pcap(gallery_specs: dict[str, Spec], samples: Samples, opts: Opts) -> None:
    spec = gallery_specs["pcap"]
    rows = assert_twins(spec, samples.pcap.path, opts, batch_rows=7)  # several batches, the last one short
    assert len(rows) == (len(samples.pcap.packets) if opts.get("root") else 1)
    assert_fast(spec, samples.pcap.path, opts)


def test_pcap_broken_and_limited(gallery_specs: dict[str, Spec], samples: Samples, tmp_path: Path) -> None:
    spec = gallery_specs["pcap"]
    data = samples.pcap.path.read_bytes()
    cut = tmp_path / "cut.pcap"
    cut.write_bytes(data[: samples.pcap.offsets[7] + 26])
    assert len(assert_twins(spec, cut, {"root": "packets"}, batch_rows=3)) == 7
    assert len(assert_twins(spec, samples.pcap.path, {"root": "packets", "max_records": 5})) == 5
    assert not assert_twins(spec, samples.pcap.path, {"root": "packets", "max_file_bytes": 100})


@pytest.mark.parametrize(
    ("name", "opts"),
    [("zip", {"root": "sections"}), ("zip", {}), ("gzip", {}), ("gzip", {"positions": True}), ("sqlite3", {"instances": ["all"]}),
     ("elf", {}), ("elf", {"positions": True, "u8": "long"})],
)  # fmt: skip
def test_archives_databases_executables(gallery_specs: dict[str, Spec], samples: Samples, name: str, opts: Opts) -> None:
    path = {"zip": samples.zip, "gzip": samples.gzip, "sqlite3": samples.sqlite, "elf": samples.elf}[name]
    assert assert_twins(gallery_specs[name], path, opts)
    if not opts.get("instances"):
        assert_fast(gallery_specs[name], path, opts)


def test_images(gallery_specs: dict[str, Spec], tmp_path: Path) -> None:
    files = write_images(tmp_path, "pillow", {"png": (37, 21), "bmp": (33, 17), "gif": (19, 11)})
    cases: list[tuple[str, Opts]] = [("png", {"root": "chunks", "instances": ["type"]}), ("png", {}), ("png", {"positions": True}),
                                     ("bmp", {}), ("bmp", {"instances": ["all"]}), ("gif", {}), ("gif", {"root": "blocks"})]  # fmt: skip
    for name, opts in cases:
        assert assert_twins(gallery_specs[name], files[name], opts), (name, opts)
    assert_fast(gallery_specs["png"], files["png"], {"positions": True})
    assert_fast(gallery_specs["gif"], files["gif"], {})


# -- the project's specs on the shared corpus --------------------------------------------------------------------

PROJECT_FILES = {
    "puffin": ["seed-files/deletion-vector-v1.puffin", "fuzz-repro/crafted_theta_tiny_theta.puffin"],
    "deletion_vector_v1": ["iceberg/core/src/test/resources/org/apache/iceberg/deletes/all-container-types-position-index.bin",
                           "iceberg/core/src/test/resources/org/apache/iceberg/deletes/empty-position-index.bin"],
    "roaring32": ["roaring-format-spec/testdata/bitmapwithruns.bin", "roaring-format-spec/testdata/bitmapwithoutruns.bin"],
    "roaring64": ["roaring-format-spec/testdata64/portable_bitmap64.bin"],
    "theta_compact": ["datasketches-cpp/theta/test/theta_compact_estimation_from_java_v2.sk",
                      "datasketches-cpp/theta/test/theta_compact_empty_from_java_v1.sk"],
    "parquet": ["parquet-testing/data/alltypes_plain.parquet", "parquet-testing/data/binary.parquet"],
}  # fmt: skip


@pytest.mark.parametrize("sid", sorted(PROJECT_FILES))
def test_project_specs_on_the_corpus(project_specs: dict[str, Spec], corpus: Path, sid: str) -> None:
    spec = project_specs[sid]
    for rel in PROJECT_FILES[sid]:
        path = corpus / rel
        if not path.is_file():
            pytest.skip(f"{rel} is not in the corpus")
        for opts in ({}, {"instances": ["all"]}, {"positions": True, "u8": "long"}):
            assert_twins(spec, path, opts)


# -- hypothesis: mutated captures, random bytes for a spec of every shape --------------------------------------


@settings(max_examples=60)
@given(data=st.data())
def test_mutated_pcaps(
    gallery_specs: dict[str, Spec], samples: Samples, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    raw = bytearray(samples.pcap.path.read_bytes())
    raw = raw[: data.draw(st.integers(24, len(raw)), label="cut")]
    for _ in range(data.draw(st.integers(0, 6), label="flips")):
        raw[data.draw(st.integers(24, len(raw) - 1) if len(raw) > 24 else st.just(0))] = data.draw(st.integers(0, 255))
    path = tmp_path_factory.mktemp("mut") / "m.pcap"
    path.write_bytes(bytes(raw))
    opts = data.draw(st.sampled_from(PCAP_OPTS))
    assert_twins(gallery_specs["pcap"], path, opts, batch_rows=data.draw(st.integers(1, 50)))


SHAPES_KSY = """
meta:
  id: shapes
  endian: le
seq:
  - {id: n, type: u1}
  - {id: items, type: item, repeat: expr, repeat-expr: n}
  - {id: sizes, type: u2, repeat: expr, repeat-expr: 2}
  - {id: tail, type: u1, enum: color, repeat: eos}
types:
  item:
    seq:
      - {id: tag, type: u1}
      - {id: color, type: u1, enum: color}
      - {id: opt, type: pair, if: tag & 1 != 0}
      - {id: colors, type: u1, enum: color, repeat: expr, repeat-expr: tag & 3, if: tag & 4 != 0}
      - {id: pairs, type: pair, repeat: expr, repeat-expr: tag >> 6}
      - id: body
        size: 3
        type:
          switch-on: (tag >> 3) & 3
          cases:
            0: pair
            1: triple
            2: empty
      - id: num
        type:
          switch-on: tag & 1
          cases:
            0: u1
            1: u2
      - {id: big, type: u8}
      - {id: ratio, type: f4}
      - {id: flags, type: b3}
      - {id: on, type: b1}
    instances:
      huge: {value: big * 4}
      second: {value: 'colors[1]'}
      sum: {value: tag + num}
      half: {value: tag / 2.0}
      first_pair: {value: 'pairs[0]'}
      shade: {value: tag & 3, enum: color}
  pair:
    seq:
      - {id: x, type: u1}
      - {id: y, type: s1}
  triple:
    seq:
      - {id: a, type: u1}
      - {id: b, type: u1, enum: color}
      - {id: c, type: s1}
  empty: {}
enums:
  color:
    1: red
    2: green
"""


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> Spec:
    d = tmp_path_factory.mktemp("shapes")
    (d / "shapes.ksy").write_text(SHAPES_KSY)
    return compiled_specs([d / "shapes.ksy"], d / "out", [])["shapes"]


def _item(tag: int, color: int, big: int, rest: bytes) -> bytes:
    out = bytes([tag, color])
    if tag & 1:
        out += rest[:2].ljust(2, b"\0")
    if tag & 4:
        out += bytes([(tag + i) % 4 for i in range(tag & 3)])
    out += bytes(2 * (tag >> 6)) + rest[2:5].ljust(3, b"\1")
    out += struct.pack("<H", tag * 3) if tag & 1 else bytes([tag])
    return out + struct.pack("<QfB", big, (tag - 100) / 7, tag)


ITEM = st.builds(_item, st.integers(0, 255), st.integers(0, 3), st.sampled_from([0, 5, 2**61 + 1, 2**64 - 1]), st.binary(max_size=5))

SHAPES_OPTS: list[Opts] = [
    {"root": "items"},
    {"root": "items", "instances": ["all"]},
    {"root": "items", "instances": ["huge", "half", "shade"], "u8": "long"},
    {"root": "items", "positions": True, "instances": ["first_pair", "second"]},
    {"instances": ["all"]},
    {"positions": True},
    {"root": "tail"},
    {"root": "sizes"},
]


@settings(max_examples=150)
@given(items=st.lists(ITEM, max_size=12), tail=st.binary(max_size=6), cut=st.integers(0, 3), opts=st.sampled_from(SHAPES_OPTS),
       batch_rows=st.integers(1, 5))  # fmt: skip
def test_random_shapes(shapes: Spec, tmp_path_factory: pytest.TempPathFactory, items: list[bytes], tail: bytes, cut: int,
                       opts: Opts, batch_rows: int) -> None:  # fmt: skip
    data = bytes([len(items)]) + b"".join(items) + tail
    path = tmp_path_factory.mktemp("shapes") / "s.bin"
    path.write_bytes(data[: len(data) - cut])
    assert_twins(shapes, path, opts, batch_rows=batch_rows)


def test_shapes_every_kind_is_built_by_the_columns(shapes: Spec, tmp_path: Path) -> None:
    items = [_item(t, t % 4, 7, bytes([t, 255 - t, 1, 2, 3])) for t in (0, 1, 5, 7, 8, 9, 15, 16, 17, 23, 64 + 13, 128 + 4, 255)]
    path = tmp_path / "s.bin"
    path.write_bytes(bytes([len(items)]) + b"".join(items) + struct.pack("<HH", 7, 65535) + bytes([1, 2, 9]))
    for opts in ({"root": "items"}, {"root": "items", "positions": True, "instances": ["sum", "half", "shade"]}, {}, {"root": "tail"},
                 {"root": "sizes"}):  # fmt: skip
        assert_fast(shapes, path, opts)
        assert_twins(shapes, path, opts, batch_rows=4)
    big = tmp_path / "big.bin"
    big.write_bytes(bytes([4]) + _item(1, 1, 2**62, b"ab") + _item(12, 2, 1, b"") + _item(2, 0, 3, b"") + _item(6, 1, 4, b"xy") + bytes(4))
    rows = assert_twins(shapes, big, {"root": "items", "instances": ["all"]}, batch_rows=2)
    assert rows[0]["huge"] is None and rows[0]["error_rule"] == "kaitai.value-range"  # carried by the walker's row
    assert rows[1]["second"] is None and rows[1]["error_rule"] == "shapes.evaluation"  # colors[1] of an empty list
    # colors[1] when `if:` skipped colors: the instance's AttributeError is the row's error too
    assert rows[2]["second"] is None and rows[2]["error_rule"] == "shapes.evaluation" and "AttributeError" in rows[2]["error"]
    assert rows[3]["second"] is None and rows[3]["second__raw"] == 3 and rows[3]["colors"] == ["green", None]


def test_mapping_spec(tmp_path: Path) -> None:
    from .test_schema import MAPPING_KSY

    (tmp_path / "mapping.ksy").write_text(MAPPING_KSY)
    spec = compiled_specs([tmp_path / "mapping.ksy"], tmp_path / "out", [])["mapping"]
    data = (
        bytes([2, 0xFF]) + struct.pack("<HhIiQq", 500, -3, 2000, -4, 2**64 - 1, -(2**40)) + struct.pack("<fd", 1.5, -2.25)
        + bytes([0b1011_0000, 0x01]) + b"LS" + b"hi\x00" + b"\xe9t" + b"abc" + bytes([2, 1, 9]) + bytes([7, 0xF9]) + bytes([1, 2, 3, 0xFE])
        + bytes([1]) + bytes([4, 0xFC]) + bytes([5]) + bytes([1, 1, 2, 1, 3, 0])
    )  # fmt: skip
    f = tmp_path / "m.bin"
    f.write_bytes(data)
    for opts in ({}, {"instances": ["all"]}, {"u8": "long", "positions": True}, {"root": "pairs"}, {"root": "colors"}):
        assert assert_twins(spec, f, opts)
        assert_fast(spec, f, opts)


def test_a_files_objects_go_without_the_cyclic_collector(gallery_specs: dict[str, Spec], samples: Samples) -> None:
    """Spec.batches unlinks the objects it converted: reference counting frees the file's objects, the
    collector finds nothing of them (it would have to walk them all: as long as a fifth of the parse)."""
    import gc

    spec = gallery_specs["pcap"]
    list(spec.batches(str(samples.pcap.path), root="packets"))  # load and warm
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        rows = sum(b.num_rows for b in spec.batches(str(samples.pcap.path), root="packets") if isinstance(b, pa.RecordBatch))
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if isinstance(o, kaitaistruct.KaitaiStruct | kaitaistruct.KaitaiStream)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert rows == len(samples.pcap.packets) and left == []
    # the walker's rows (Spec.rows) leave the objects to the collector, as before
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        assert len(list(spec.rows(str(samples.pcap.path), root="packets"))) == rows
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if isinstance(o, kaitaistruct.KaitaiStruct)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert "Packet" in left
