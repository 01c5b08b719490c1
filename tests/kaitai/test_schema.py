"""Schema derivation from the .ksy alone: every project spec, the gallery's specs, and every mapping rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from lakestruct.errors import UsageError
from lakestruct.kaitai import Spec

from .conftest import compiled_specs

MAPPING_KSY = """
meta:
  id: mapping
  endian: le
  encoding: UTF-8
seq:
  - {id: a_u1, type: u1}
  - {id: a_s1, type: s1}
  - {id: a_u2, type: u2}
  - {id: a_s2, type: s2be}
  - {id: a_u4, type: u4}
  - {id: a_s4, type: s4}
  - {id: a_u8, type: u8}
  - {id: a_s8, type: s8}
  - {id: a_f4, type: f4}
  - {id: a_f8, type: f8}
  - {id: a_b1, type: b1}
  - {id: a_b3, type: b3}
  - {id: a_b12, type: b12}
  - {id: magic, contents: [0x4c, 0x53]}
  - {id: name, type: strz}
  - {id: latin, type: str, size: 2, encoding: ISO-8859-1}
  - {id: raw, size: 3}
  - {id: color, type: u1, enum: color}
  - {id: colors, type: u1, enum: color, repeat: expr, repeat-expr: 2}
  - {id: pair, type: pair}
  - {id: pairs, type: pair, repeat: expr, repeat-expr: a_u1}
  - {id: kind, type: u1}
  - id: body
    size: 2
    type:
      switch-on: kind
      cases:
        1: pair
        2: node
  - id: width
    type:
      switch-on: kind
      cases:
        1: u1
        2: u4
  - {id: tree, type: node}
instances:
  doubled: {value: a_u2 * 2}
  ratio: {value: a_u2 / 2.0}
  is_big: {value: a_u4 > 1000}
  label: {value: name + "!"}
  shade: {value: a_u1, enum: color}
  first_pair: {value: 'pairs[0]'}
  tail: {pos: 0, type: u2}
types:
  pair:
    seq:
      - {id: x, type: u1}
      - {id: y, type: s1}
  node:
    seq:
      - {id: value, type: u1}
      - {id: has_child, type: u1}
      - {id: child, type: node, if: has_child != 0}
enums:
  color:
    1: red
    2: green
"""


@pytest.fixture(scope="module")
def mapping(tmp_path_factory: pytest.TempPathFactory) -> Spec:
    d = tmp_path_factory.mktemp("mapping")
    (d / "mapping.ksy").write_text(MAPPING_KSY)
    return compiled_specs([d / "mapping.ksy"], d / "out", [])["mapping"]


def _types(schema: pa.Schema) -> dict[str, Any]:
    return {f.name: f.type for f in schema}


def test_the_type_mapping(mapping: Spec) -> None:
    t = _types(mapping.schema())
    assert t["a_u1"] == pa.int16() and t["a_s1"] == pa.int8() and t["a_u2"] == pa.int32() and t["a_s2"] == pa.int16()
    assert t["a_u4"] == pa.int64() and t["a_s4"] == pa.int32() and t["a_s8"] == pa.int64()
    assert t["a_u8"] == pa.decimal128(20, 0)
    assert t["a_f4"] == pa.float32() and t["a_f8"] == pa.float64()
    assert t["a_b1"] == pa.bool_() and t["a_b3"] == pa.int8() and t["a_b12"] == pa.int16()
    assert t["magic"] == pa.binary() and t["raw"] == pa.binary()
    assert t["name"] == pa.string() and t["latin"] == pa.string()
    assert t["color"] == pa.string() and t["color__raw"] == pa.int16()
    assert t["colors"] == pa.list_(pa.string()) and t["colors__raw"] == pa.list_(pa.int16())
    assert t["pair"] == pa.struct([pa.field("x", pa.int16()), pa.field("y", pa.int8())])
    assert t["pairs"] == pa.list_(t["pair"])
    # switch-on user types: one nullable field per case, and the raw bytes of an unmatched case (size given)
    assert [f.name for f in t["body"]] == ["pair", "node", "__bytes"]
    assert t["body"].field("pair").type == t["pair"]
    # switch-on integer types only: one column of the widest
    assert t["width"] == pa.int64()
    # a type inside itself: the inner one is JSON text
    assert t["tree"].field("child").type == pa.string()
    assert "doubled" not in t
    f = mapping.schema().field("name")
    assert b"strz (UTF-8)" in f.metadata[b"doc"]
    assert b"ISO-8859-1" in mapping.schema().field("latin").metadata[b"doc"]


def test_options_u8_instances_positions(mapping: Spec) -> None:
    assert _types(mapping.schema(u8="long"))["a_u8"] == pa.int64()
    t = _types(mapping.schema(instances=["all"]))
    assert t["doubled"] == pa.int64() and t["ratio"] == pa.float64() and t["is_big"] == pa.bool_() and t["label"] == pa.string()
    assert t["shade"] == pa.string() and t["shade__raw"] == pa.int16()
    assert t["first_pair"] == t["pair"] and t["tail"] == pa.int32()
    assert set(_types(mapping.schema(instances=["doubled", "shade"]))) >= {"doubled", "shade", "shade__raw"}
    assert "ratio" not in _types(mapping.schema(instances=["doubled"]))
    p = _types(mapping.schema(positions=True))
    assert p["__offset"] == pa.int64() and p["__size"] == pa.int64()
    assert {"__offset", "__size"} <= {f.name for f in p["pair"]}
    with pytest.raises(UsageError, match="u8 must be decimal or long"):
        mapping.schema(u8="float")


def test_root_picks_the_rows(mapping: Spec) -> None:
    s = mapping.schema(root="pairs")
    assert s.names == ["__index", "x", "y"]
    assert mapping.schema(root="colors").names == ["__index", "colors", "colors__raw"]
    with pytest.raises(UsageError, match="has no field 'nope'"):
        mapping.schema(root="nope")
    with pytest.raises(UsageError, match="is not a structure"):
        mapping.schema(root="a_u1.x")


def _check_spec(spec: Spec) -> None:
    root = spec.plan().model.root
    for opts in ({}, {"instances": ["all"], "positions": True}, {"u8": "long"}):
        schema = spec.schema(**opts)
        names = set(schema.names)
        for a in root.seq:
            if "id" in a:
                assert a["id"] in names or a["id"] + "_" in names, (spec.id, a["id"])
        if opts.get("instances"):
            for name in root.instances:
                assert name in names or name + "_" in names, (spec.id, name)
        pa.schema(schema)  # a valid Arrow schema
        assert not _empty_structs(schema), (spec.id, _empty_structs(schema))  # Parquet and ORC refuse them


def _empty_structs(t: Any, path: str = "") -> list[str]:
    if isinstance(t, pa.Schema):
        return [p for f in t for p in _empty_structs(f.type, f.name)]
    if pa.types.is_struct(t):
        return [path] if t.num_fields == 0 else [p for f in t for p in _empty_structs(f.type, f"{path}.{f.name}")]
    if pa.types.is_list(t):
        return _empty_structs(t.value_type, path + "[]")
    return []


def test_a_type_without_fields_becomes_a_present_marker(gallery_specs: dict[str, Spec], tmp_path: Path) -> None:
    # pcap's ipv4/ipv6 `no_next_header` has no fields: a struct with one true `__present` column, so the
    # table can be written to Parquet
    schema = gallery_specs["pcap"].schema(root="packets")
    ip = schema.field("body").type.field("ethernet_frame").type.field("body").type.field("ipv4_packet").type
    marker = ip.field("body").type.field("body").type.field("no_next_header").type
    assert [(f.name, f.type) for f in marker] == [("__present", pa.bool_())]
    import pyarrow.parquet as pq

    pq.write_table(schema.empty_table(), tmp_path / "empty.parquet")  # an empty struct would raise here


def test_every_project_spec_derives_a_schema(project_specs: dict[str, Spec]) -> None:
    ksy = {p.stem for p in (Path(__file__).resolve().parents[2] / "formats").glob("*/*.ksy")}
    assert set(project_specs) == ksy
    for spec in project_specs.values():
        _check_spec(spec)


def test_gallery_specs_derive_schemas(gallery_specs: dict[str, Spec]) -> None:
    for spec in gallery_specs.values():
        _check_spec(spec)
    pcap = _types(gallery_specs["pcap"].schema(root="packets"))
    assert pcap["ts_sec"] == pa.int64() and pcap["incl_len"] == pa.int64()
    body = pcap["body"]
    assert [f.name for f in body] == ["packet_ppi", "ethernet_frame", "__bytes"]
    eth = body.field("ethernet_frame").type
    ip = eth.field("body").type.field("ipv4_packet").type
    l4 = ip.field("body").type.field("body").type
    assert l4.field("udp_datagram").type.field("src_port").type == pa.int32()
    assert l4.field("ipv4_packet").type == pa.string()  # IPv4 inside IPv4: recursion becomes JSON
    png = _types(gallery_specs["png"].schema(root="chunks", instances=["all"]))
    assert png["len"] == pa.int64() and png["type"] == pa.string()
    elf = _types(gallery_specs["elf"].schema())
    assert elf["bits"] == pa.string() and elf["bits__raw"] == pa.int16()
