"""I/O behaviour: one tail read, every kind of source, untouched inputs, atomic writes."""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path

import fsspec
import pytest

import lakestruct as ls
from lakestruct.source import open_source


def big_file(path: Path, footer_props: int = 0) -> bytes:
    with ls.puffin.PuffinWriter(path, properties={f"k{i}": "v" * 50 for i in range(footer_props)}) as w:
        w.add_blob("big", os.urandom(2 << 20))
        w.add_blob("small", b"tiny", codec="zstd")
    return path.read_bytes()


def test_footer_costs_one_tail_read(tmp_path: Path) -> None:
    path = tmp_path / "big.puffin"
    data = big_file(path)
    src = open_source(path)
    r = ls.puffin.open(src)
    assert src.reads == 1
    assert len(r.blobs) == 2
    # the header magic is checked when a blob is read (the file is larger than the tail hint)
    assert r.read_blob(1) == b"tiny"
    assert src.reads == 3
    r.close()
    assert data == path.read_bytes()


def test_large_footer_costs_a_second_read(tmp_path: Path) -> None:
    path = tmp_path / "wide.puffin"
    big_file(path, footer_props=400)  # ~25 KB footer, more than the 8 KiB hint
    src = open_source(path)
    r = ls.puffin.open(src)
    assert src.reads == 2
    assert len(r.properties) == 401
    src2 = open_source(path)
    ls.puffin.open(src2, tail_hint=64 << 10)
    assert src2.reads == 1


def test_small_file_is_fully_checked_on_open() -> None:
    buf = io.BytesIO()
    with ls.puffin.PuffinWriter(buf) as w:
        w.add_blob("a", b"1")
    data = bytearray(buf.getvalue())
    data[0:4] = b"XXXX"
    with pytest.raises(ls.MagicError):
        ls.puffin.open(bytes(data))


def test_deferred_header_check_still_fires(tmp_path: Path) -> None:
    path = tmp_path / "big.puffin"
    data = bytearray(big_file(path))
    data[0] = ord("X")
    path.write_bytes(bytes(data))
    r = ls.puffin.open(path)  # only the tail was read
    with pytest.raises(ls.MagicError) as ei:
        r.read_blob(0)
    assert ei.value.rule == "puffin.header-magic" and ei.value.offset == 0
    with pytest.raises(ls.MagicError):
        ls.puffin.read(path)


def test_every_source_kind_reads_the_same(tmp_path: Path) -> None:
    path = tmp_path / "f.puffin"
    with ls.puffin.PuffinWriter(path) as w:
        w.add_blob("a", b"payload", codec="lz4")
    data = path.read_bytes()
    fs = fsspec.filesystem("memory")
    fs.pipe("/lakestruct-test/f.puffin", data)
    with open(path, "rb") as fobj:
        fobj.seek(3)
        sources: list[object] = [str(path), path, f"file://{path}", data, bytearray(data), memoryview(data), fobj, "memory://lakestruct-test/f.puffin"]
        for s in sources:
            with ls.puffin.open(s) as r:  # type: ignore[arg-type]
                assert r.read_blob(0) == b"payload", s
        assert fobj.tell() == 3, "the caller's file position is restored"
        assert not fobj.closed, "a caller's file object is not closed by the reader"


def test_reader_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "f.puffin"
    big_file(path)
    os.chmod(path, 0o444)
    before = hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns
    with ls.puffin.open(path) as r:
        r.check()
    assert (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns) == before


def test_writer_is_atomic(tmp_path: Path) -> None:
    path = tmp_path / "out.puffin"
    path.write_bytes(b"previous contents")
    with pytest.raises(RuntimeError), ls.puffin.PuffinWriter(path) as w:
        w.add_blob("a", b"x" * 1000)
        assert path.read_bytes() == b"previous contents"  # nothing visible while writing
        raise RuntimeError("crash in the middle")
    assert path.read_bytes() == b"previous contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.puffin"], "no temporary file left behind"
    with ls.puffin.PuffinWriter(path) as w:
        w.add_blob("a", b"x")
    assert ls.puffin.read(path).blobs[0].type == "a"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.puffin"]


def test_writer_rejects_what_cannot_be_written(tmp_path: Path) -> None:
    w = ls.puffin.PuffinWriter(tmp_path / "x.puffin")
    with pytest.raises(ls.UsageError):
        w.add_blob("t", b"", codec="snappy")
    with pytest.raises(ls.UsageError):
        w.add_blob("t", b"", fields=[2**31])
    with pytest.raises(ls.UsageError):
        w.add_blob("", b"")
    with pytest.raises(ls.UsageError):
        w.add_blob("t", b"", properties={"n": 5})  # type: ignore[dict-item]
    w.abort()
    assert not (tmp_path / "x.puffin").exists()
    assert list(tmp_path.iterdir()) == []


def test_created_by_defaults_to_lakestruct(tmp_path: Path) -> None:
    path = tmp_path / "x.puffin"
    with ls.puffin.PuffinWriter(path):
        pass
    assert ls.puffin.read(path).created_by == f"lakestruct {ls.__version__}"


def test_lz4_footer_round_trip_and_raw_copy(tmp_path: Path) -> None:
    src_path, dst_path = tmp_path / "a.puffin", tmp_path / "b.puffin"
    with ls.puffin.PuffinWriter(src_path, compress_footer=True, created_by="x") as w:
        w.add_blob("z", b"abc" * 100, codec="zstd", snapshot_id=5, sequence_number=6, properties={"p": "q"})
    with ls.puffin.open(src_path) as r, ls.puffin.PuffinWriter(dst_path, created_by="x") as w2:
        assert r.footer.compressed
        w2.add_raw_blob(r.blobs[0], r.read_blob(r.blobs[0], raw=True))
    with ls.puffin.open(src_path) as a, ls.puffin.open(dst_path) as b:
        assert not b.footer.compressed
        assert a.metadata == b.metadata
        assert a.read_blob(0) == b.read_blob(0) == b"abc" * 100


def test_a_name_with_a_nul_byte_is_a_source_error() -> None:
    """Damaged metadata can name a file with a NUL byte in it: that is no such file, not a ValueError from open()."""
    import lakestruct as ls
    from lakestruct.source import open_source

    with pytest.raises(ls.SourceError, match="NUL byte"):
        open_source("/tmp/v1\x00tadata/x.avro")
