"""lakestruct's stream and object budget (kaitai.stream, the fast package of runtime.load) against the kaitaistruct
runtime they stand in for: the same values, exceptions and positions read by read, and the same rows and errors
(rule, offset, path) file by file, on the gallery's files, mutated captures and the limits."""

from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import Any

import kaitaistruct
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.errors import LakestructError
from lakestruct.kaitai import Spec
from lakestruct.kaitai.runtime import load, paused_gc
from lakestruct.kaitai.stream import Stream

from .conftest import Samples, compiled_specs

FIXED = ["u1", "s1", "u2be", "u2le", "s2be", "s2le", "u4be", "u4le", "s4be", "s4le", "u8be", "u8le", "s8be", "s8le",
         "f4be", "f4le", "f8be", "f8le"]  # fmt: skip

Op = tuple[str, Any]
OPS = st.one_of(
    st.tuples(st.sampled_from([f"read_{k}" for k in FIXED]), st.none()),
    st.tuples(st.just("read_bytes"), st.integers(-2, 40)),
    st.tuples(st.just("read_bits_int_be"), st.integers(1, 20)),
    st.tuples(st.just("read_bits_int_le"), st.integers(1, 20)),
    st.tuples(st.sampled_from(["is_eof", "pos", "size", "read_bytes_full", "align_to_byte"]), st.none()),
    st.tuples(st.just("seek"), st.integers(-1, 40)),
    st.tuples(st.just("read_bytes_term"), st.integers(0, 255)),
)


def _apply(s: Any, op: Op) -> tuple[str, Any]:
    name, arg = op
    try:
        if name == "read_bytes_term":
            r = s.read_bytes_term(arg, False, True, False)
        else:
            r = getattr(s, name)() if arg is None else getattr(s, name)(arg)
    except Exception as e:  # the exception is part of the behaviour compared
        return "raised", (type(e), str(e), getattr(e, "bytes_needed", None), getattr(e, "bytes_available", None))
    return "ok", repr(r)


@settings(max_examples=300)
@given(data=st.one_of(st.binary(max_size=8), st.binary(min_size=16, max_size=64)), ops=st.lists(OPS, max_size=25))
def test_each_read_is_the_runtimes(data: bytes, ops: list[Op]) -> None:
    ours, theirs = Stream(io.BytesIO(data)), kaitaistruct.KaitaiStream(io.BytesIO(data))
    for op in ops:
        assert _apply(ours, op) == _apply(theirs, op), op
        assert (ours.pos(), ours.bits_left, ours.bits) == (theirs.pos(), theirs.bits_left, theirs.bits), op


def test_bit_reads_are_the_runtimes() -> None:
    data = bytes([0xA5, 0x3C, 0xFF, 0x00, 0x96, 0x5A, 0x81, 0x7E, 0x11, 0xEE])
    for size in (len(data), 3):
        for first in range(0, 20):
            for second in range(1, 20):
                for then in ("read_u1", "read_bits_int_be", "pos"):
                    last: Op = (then, 3 if then == "read_bits_int_be" else None)
                    ops: list[Op] = [("read_bits_int_be", first), ("read_bits_int_be", second), last]
                    ours, theirs = Stream(io.BytesIO(data[:size])), kaitaistruct.KaitaiStream(io.BytesIO(data[:size]))
                    for op in ops:
                        assert _apply(ours, op) == _apply(theirs, op), ops
                        assert (ours.pos(), ours.bits_left, ours.bits) == (theirs.pos(), theirs.bits_left, theirs.bits), ops


def test_large_and_negative_reads_are_the_runtimes() -> None:
    data = bytes(range(256)) * 10
    for n in (-1, 0, 2560, 2561, 8 * 1024 * 1024, 9 * 1024 * 1024):
        ours, theirs = Stream(io.BytesIO(data)), kaitaistruct.KaitaiStream(io.BytesIO(data))
        assert _apply(ours, ("read_bytes", n)) == _apply(theirs, ("read_bytes", n)) and ours.pos() == theirs.pos()


def test_enums_resolve_as_the_runtime() -> None:
    import enum

    class Color(enum.IntEnum):
        red = 1
        green = 2
        also_red = 1

    for v in (1, 2, 3, -1, True, 2.0, Color.green):
        assert repr(Stream.resolve_enum(Color, v)) == repr(kaitaistruct.KaitaiStream.resolve_enum(Color, v))


def test_other_io_uses_the_runtime(tmp_path: Path) -> None:
    p = tmp_path / "x.bin"
    p.write_bytes(struct.pack(">HI", 7, 9))
    with open(p, "rb") as f:
        s = Stream(f)
        assert (s.read_u2be(), s.read_u4be(), s.is_eof(), s.size()) == (7, 9, True, 6)


def test_the_gc_pause_restores_the_collector() -> None:
    import gc

    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


# -- whole files: the fast package against the runtime's own -----------------------------------------------------


def _rows(spec: Spec, path: Path, opts: dict[str, Any]) -> tuple[str, Any]:
    rows: list[dict[str, Any]] = []
    err: LakestructError | None = None
    try:
        rows.extend(spec.rows(str(path), **opts))
    except LakestructError as e:
        err = e
    where = (getattr(err, "rule", None), getattr(err, "offset", None), getattr(err, "path", None), str(err))
    return repr(rows), where


def assert_same_runtime(spec: Spec, path: Path, opts: dict[str, Any]) -> None:
    assert _rows(spec, path, opts) == _rows(Spec(spec.bundle, fast=False), path, opts)


def test_the_packages_differ_only_in_the_runtime(gallery_specs: dict[str, Spec]) -> None:
    bundle = gallery_specs["pcap"].bundle
    fast, ref = load(bundle), load(bundle, fast=False)
    assert fast.package != ref.package and fast.root_class is not ref.root_class
    mod = f"{fast.package}.pcap"
    import sys

    assert sys.modules[mod].KaitaiStream is Stream and issubclass(fast.root_class, kaitaistruct.KaitaiStruct)
    assert sys.modules[f"{ref.package}.pcap"].KaitaiStream is kaitaistruct.KaitaiStream
    # the fast package's sources: constructors count directly instead of calling super().__init__, and every
    # line stays where it was (error paths are read from the lines of the failing frames)
    from lakestruct.kaitai.runtime import _FINDER

    for name, text in bundle.modules.items():
        fast_src, ref_src = _FINDER.sources[f"{fast.package}.{name}"], _FINDER.sources[f"{ref.package}.{name}"]
        assert len(fast_src.splitlines()) == len(ref_src.splitlines()) == len(text.splitlines())
        assert "super(" in ref_src and "super(" not in fast_src and "_ls_init(self, _io)" in fast_src


OPTS: list[dict[str, Any]] = [{"root": "packets"}, {"root": "packets", "positions": True}, {}, {"root": "packets", "max_records": 3}]


@pytest.mark.parametrize("opts", OPTS, ids=str)
def test_pcap_rows_and_errors(gallery_specs: dict[str, Spec], samples: Samples, tmp_path: Path, opts: dict[str, Any]) -> None:
    spec = gallery_specs["pcap"]
    assert_same_runtime(spec, samples.pcap.path, opts)
    data = samples.pcap.path.read_bytes()
    for cut in (samples.pcap.offsets[7] + 9, samples.pcap.offsets[7] + 26, 30, 10):
        p = tmp_path / f"cut{cut}.pcap"
        p.write_bytes(data[:cut])
        assert_same_runtime(spec, p, opts)


@settings(max_examples=60)
@given(data=st.data())
def test_mutated_pcaps(
    gallery_specs: dict[str, Spec], samples: Samples, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    raw = bytearray(samples.pcap.path.read_bytes())
    raw = raw[: data.draw(st.integers(0, len(raw)), label="cut")]
    for _ in range(data.draw(st.integers(0, 6), label="flips")):
        if raw:
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path = tmp_path_factory.mktemp("mut") / "m.pcap"
    path.write_bytes(bytes(raw))
    assert_same_runtime(gallery_specs["pcap"], path, data.draw(st.sampled_from(OPTS)))


def test_other_gallery_files(gallery_specs: dict[str, Spec], samples: Samples) -> None:
    cases: list[tuple[str, Path, dict[str, Any]]] = [
        ("zip", samples.zip, {"root": "sections"}), ("gzip", samples.gzip, {"positions": True}),
        ("sqlite3", samples.sqlite, {"instances": ["all"]}), ("elf", samples.elf, {}), ("elf", samples.elf, {"instances": ["all"]}),
    ]  # fmt: skip
    for name, path, opts in cases:
        assert_same_runtime(gallery_specs[name], path, opts)


@pytest.mark.parametrize("size", [0, 3, 100])
def test_the_object_budget(tmp_path: Path, size: int) -> None:
    (tmp_path / "loop.ksy").write_text(
        "meta:\n  id: loop\nseq:\n  - id: items\n    type: empty\n    repeat: until\n    repeat-until: false\n"
        "types:\n  empty:\n    seq:\n      - id: nothing\n        size: 0\n"
    )
    spec = compiled_specs([tmp_path / "loop.ksy"], tmp_path / "out", [])["loop"]
    (tmp_path / "x.bin").write_bytes(bytes(size))
    rows, where = _rows(spec, tmp_path / "x.bin", {})
    assert where[0] == "kaitai.object-limit"
    assert (rows, where) == _rows(Spec(spec.bundle, fast=False), tmp_path / "x.bin", {})
    assert (rows, where) == _rows(spec, tmp_path / "x.bin", {"positions": True})
