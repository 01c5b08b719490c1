"""Rows of real files: equal to the generated parser's objects walked in plain Python, and to what the tools
that wrote the files put in them; broken files give their good rows then an error row with rule, offset, path."""

from __future__ import annotations

import json
import sqlite3
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest

from lakestruct.errors import FormatError, LimitError, TruncatedError
from lakestruct.kaitai import Spec
from lakestruct.kaitai.runtime import load

from .conftest import Samples, assert_row_matches, write_images


def _objects(spec: Spec, path: Path, root: str = "") -> list[Any]:
    """The generated parser run on its own (``from_bytes``), and the root path followed with getattr."""
    obj = load(spec.bundle).root_class.from_bytes(path.read_bytes())
    items = [obj]
    for name in [p for p in root.split(".") if p]:
        nxt: list[Any] = []
        for o in items:
            v = getattr(o, name)
            nxt.extend(v if isinstance(v, list) else [v])
        items = nxt
    return items


def _rows_equal_objects(spec: Spec, path: Path, root: str = "", **opts: Any) -> list[dict[str, Any]]:
    rows = list(spec.rows(str(path), root=root, **opts))
    objs = _objects(spec, path, root)
    assert len(rows) == len(objs) > 0
    for i, (r, o) in enumerate(zip(rows, objs, strict=True)):
        if root:
            assert r["__index"] == i
        assert_row_matches(r, o, f"{spec.id}[{i}]")
    return rows


def test_pcap_packets_equal_the_parser_and_the_packets_written(gallery_specs: dict[str, Spec], samples: Samples) -> None:
    pcap = gallery_specs["pcap"]
    rows = _rows_equal_objects(pcap, samples.pcap.path, root="packets")
    assert len(rows) == len(samples.pcap.packets)
    for r, p in zip(rows, samples.pcap.packets, strict=True):
        assert (r["ts_sec"], r["ts_usec"], r["incl_len"]) == (p.ts_sec, p.ts_usec, len(p.frame))
        eth = r["body"]["ethernet_frame"]
        assert r["body"]["packet_ppi"] is None and eth["dst_mac"] == b"\x01" * 6
        if p.vlan is not None:
            assert eth["ether_type_1"] == "ieee_802_1q_tpid" and eth["tci"]["vlan_id"] == p.vlan and eth["ether_type_2"] == "ipv4"
        else:
            assert eth["ether_type_1"] == "ipv4" and eth["ether_type_1__raw"] == 0x0800 and eth["tci"] is None
        l4 = eth["body"]["ipv4_packet"]["body"]["body"]
        if p.udp:
            udp = l4["udp_datagram"]
            assert (udp["src_port"], udp["dst_port"], udp["body"]) == p.udp
            assert l4["tcp_segment"] is None
        else:
            assert p.tcp is not None and (l4["tcp_segment"]["src_port"], l4["tcp_segment"]["dst_port"]) == p.tcp
    # one row per file: the whole capture
    [whole] = _rows_equal_objects(pcap, samples.pcap.path)
    assert whole["magic_number"] == "le_microseconds" and whole["hdr"]["network"] == "ethernet" and len(whole["packets"]) == len(rows)


def test_positions_are_absolute_offsets_in_the_file(gallery_specs: dict[str, Spec], samples: Samples) -> None:
    rows = list(gallery_specs["pcap"].rows(str(samples.pcap.path), root="packets", positions=True))
    data = samples.pcap.path.read_bytes()
    for r, off, p in zip(rows, samples.pcap.offsets, samples.pcap.packets, strict=True):
        assert r["__offset"] == off and r["__size"] == 16 + len(p.frame)
        eth = r["body"]["ethernet_frame"]
        assert eth["__offset"] == off + 16  # inside the packet's sized substream, still counted from the file start
        ip = eth["body"]["ipv4_packet"]
        assert data[ip["__offset"]:ip["__offset"] + 1] == b"\x45" and ip["__size"] == ip["total_length"]


def test_a_truncated_pcap_gives_its_complete_packets_then_the_error(
    gallery_specs: dict[str, Spec], samples: Samples, tmp_path: Path
) -> None:
    cut_at = samples.pcap.offsets[7] + 16 + 10  # inside packet 7's frame
    broken = tmp_path / "cut.pcap"
    broken.write_bytes(samples.pcap.path.read_bytes()[:cut_at])
    rows: list[dict[str, Any]] = []
    with pytest.raises(TruncatedError) as ei:
        rows.extend(gallery_specs["pcap"].rows(str(broken), root="packets"))
    assert len(rows) == 7
    e = ei.value
    assert e.rule == "pcap.truncated" and e.path == "packets[7].body" and e.offset == samples.pcap.offsets[7] + 16
    # the header of packet 7 cut: the failing read is its incl_len field
    broken.write_bytes(samples.pcap.path.read_bytes()[: samples.pcap.offsets[7] + 9])
    with pytest.raises(TruncatedError) as ei:
        list(gallery_specs["pcap"].rows(str(broken), root="packets"))
    assert ei.value.path == "packets[7].incl_len" and ei.value.offset == samples.pcap.offsets[7] + 8


def test_a_broken_field_inside_a_substream_is_located_in_the_file(gallery_specs: dict[str, Spec], samples: Samples, tmp_path: Path) -> None:
    data = bytearray(samples.pcap.path.read_bytes())
    off = samples.pcap.offsets[3] + 16 + 14  # packet 3's IPv4 header
    data[off] = 0x4F  # IHL 15: 60-byte header, longer than the packet holds
    p = tmp_path / "bad-ihl.pcap"
    p.write_bytes(bytes(data))
    rows: list[dict[str, Any]] = []
    with pytest.raises(FormatError) as ei:
        rows.extend(gallery_specs["pcap"].rows(str(p), root="packets"))
    assert len(rows) == 3
    assert ei.value.path.startswith("packets[3].body.body.") and ei.value.offset is not None and off <= ei.value.offset < off + 60


def test_header_validation_names_the_field_and_its_offset(gallery_specs: dict[str, Spec], samples: Samples, tmp_path: Path) -> None:
    data = bytearray(samples.pcap.path.read_bytes())
    data[4:6] = struct.pack("<H", 3)  # version_major must be 2
    p = tmp_path / "v3.pcap"
    p.write_bytes(bytes(data))
    with pytest.raises(FormatError) as ei:
        list(gallery_specs["pcap"].rows(str(p), root="packets"))
    e = ei.value
    assert (e.rule, e.path, e.offset) == ("pcap.header.version_major", "hdr.version_major", 4)
    assert "expected 2, found 3" in e.message


def test_limits_records_and_file_size(gallery_specs: dict[str, Spec], samples: Samples) -> None:
    rows: list[dict[str, Any]] = []
    with pytest.raises(LimitError) as ei:
        rows.extend(gallery_specs["pcap"].rows(str(samples.pcap.path), root="packets", max_records=5))
    assert len(rows) == 5 and ei.value.rule == "kaitai.record-limit"
    with pytest.raises(LimitError) as ei:
        list(gallery_specs["pcap"].rows(str(samples.pcap.path), max_file_bytes=100))
    assert ei.value.rule == "kaitai.file-size"


def test_a_spec_looping_on_zero_size_items_stops_at_the_object_budget(tmp_path: Path) -> None:
    from .conftest import compiled_specs

    (tmp_path / "loop.ksy").write_text(
        "meta:\n  id: loop\nseq:\n  - id: items\n    type: empty\n    repeat: until\n    repeat-until: false\n"
        "types:\n  empty:\n    seq:\n      - id: nothing\n        size: 0\n"
    )
    spec = compiled_specs([tmp_path / "loop.ksy"], tmp_path / "out", [])["loop"]
    (tmp_path / "x.bin").write_bytes(b"abc")
    with pytest.raises(LimitError) as ei:
        list(spec.rows(str(tmp_path / "x.bin")))
    assert ei.value.rule == "kaitai.object-limit"


def test_zip_written_by_zipfile(gallery_specs: dict[str, Spec], samples: Samples) -> None:
    rows = _rows_equal_objects(gallery_specs["zip"], samples.zip, root="sections")
    infos = {i.filename: i for i in zipfile.ZipFile(samples.zip).infolist()}
    local = [r["body"]["local_file"] for r in rows if r["section_type"] == 0x0403]
    central = [r["body"]["central_dir_entry"] for r in rows if r["section_type"] == 0x0201]
    assert [f["header"]["file_name"] for f in local] == list(samples.zip_members) == [c["file_name"] for c in central]
    for f in local:
        info = infos[f["header"]["file_name"]]
        assert f["header"]["len_body_compressed"] == info.compress_size and f["header"]["crc32"] == info.CRC
        assert f["header"]["compression_method"] == "deflated"
        assert zlib.decompress(f["body"], -15) == samples.zip_members[info.filename]
    end = next(r["body"]["end_of_central_dir"] for r in rows if r["section_type"] == 0x0605)
    assert end["num_central_dir_entries_total"] == 3


def test_gzip_written_by_the_gzip_module(gallery_specs: dict[str, Spec], samples: Samples) -> None:
    [r] = _rows_equal_objects(gallery_specs["gzip"], samples.gzip)
    assert r["compression_method"] == "deflate" and r["mod_time"] == samples.gzip_mtime and r["name"] == b"a.txt"
    assert r["len_uncompressed"] == len(samples.gzip_data) and r["body_crc32"] == zlib.crc32(samples.gzip_data)
    assert zlib.decompress(r["body"], -15) == samples.gzip_data


def test_sqlite3_written_by_sqlite(gallery_specs: dict[str, Spec], samples: Samples) -> None:
    [r] = _rows_equal_objects(gallery_specs["sqlite3"], samples.sqlite)
    con = sqlite3.connect(samples.sqlite)
    page_size, page_count = con.execute("pragma page_size").fetchone()[0], con.execute("pragma page_count").fetchone()[0]
    con.close()
    assert r["len_page_mod"] == page_size and r["num_pages"] == page_count and r["magic"] == b"SQLite format 3\x00"


def test_elf_of_the_python_binary(gallery_specs: dict[str, Spec], samples: Samples) -> None:
    [r] = _rows_equal_objects(gallery_specs["elf"], samples.elf)
    head = samples.elf.read_bytes()[:64]
    assert r["bits"] == {1: "b32", 2: "b64"}[head[4]] and r["endian"] == {1: "le", 2: "be"}[head[5]]
    e_phnum = struct.unpack_from("<H" if head[5] == 1 else ">H", head, 56 if head[4] == 2 else 44)[0]
    assert r["header"]["num_program_headers"] == e_phnum


@pytest.mark.parametrize("writer", ["java", "pillow"])
def test_images_written_by_an_image_library(gallery_specs: dict[str, Spec], tmp_path: Path, writer: str) -> None:
    sizes = {"png": (37, 21), "bmp": (33, 17), "gif": (19, 11)}
    files = write_images(tmp_path, writer, sizes)
    chunks = _rows_equal_objects(gallery_specs["png"], files["png"], root="chunks", instances=["type"])
    [png] = _rows_equal_objects(gallery_specs["png"], files["png"])
    assert (png["ihdr"]["width"], png["ihdr"]["height"]) == sizes["png"]
    assert chunks[-1]["type"] == "IEND" and "IDAT" in [c["type"] for c in chunks]
    [bmp] = _rows_equal_objects(gallery_specs["bmp"], files["bmp"])
    hdr = bmp["dib_info"]["header"]
    assert (hdr["image_width"], abs(hdr["image_height_raw"])) == sizes["bmp"]
    [gif] = _rows_equal_objects(gallery_specs["gif"], files["gif"])
    assert (gif["logical_screen_descriptor"]["screen_width"], gif["logical_screen_descriptor"]["screen_height"]) == sizes["gif"]


def test_recursive_types_and_value_instances(tmp_path: Path) -> None:
    from .conftest import compiled_specs
    from .test_schema import MAPPING_KSY

    (tmp_path / "mapping.ksy").write_text(MAPPING_KSY)
    spec = compiled_specs([tmp_path / "mapping.ksy"], tmp_path / "out", [])["mapping"]
    data = (
        bytes([2, 0xFF]) + struct.pack("<HhIiQq", 500, -3, 2000, -4, 2**64 - 1, -(2**40)) + struct.pack("<fd", 1.5, -2.25)
        + bytes([0b1011_0000, 0x01])  # b1 b3 b12: 1, 0b011, 0x001
        + b"LS" + b"hi\x00" + b"\xe9t" + b"abc" + bytes([2, 1, 9]) + bytes([7, 0xF9]) + bytes([1, 2, 3, 0xFE])
        + bytes([1]) + bytes([4, 0xFC]) + bytes([5]) + bytes([1, 1, 2, 1, 3, 0])
    )  # fmt: skip
    f = tmp_path / "m.bin"
    f.write_bytes(data)
    [r] = list(spec.rows(str(f), instances=["all"]))
    assert_row_matches(r, load(spec.bundle).root_class.from_bytes(data), "mapping")
    assert r["a_u8"] == 2**64 - 1 and r["latin"] == "ét" and r["color"] == "green" and r["colors"] == ["red", None]
    assert r["colors__raw"] == [1, 9] and r["body"] == {"pair": {"x": 4, "y": -4}, "node": None, "__bytes": None}
    assert r["width"] == 5 and r["doubled"] == 1000 and r["ratio"] == 250.0 and r["is_big"] is True and r["label"] == "hi!"
    child = {"value": 2, "has_child": 1, "child": {"value": 3, "has_child": 0, "child": None}}
    assert r["tree"]["value"] == 1 and json.loads(r["tree"]["child"]) == child
    [long] = list(spec.rows(str(f), u8="long"))
    assert long["a_u8"] == -1
