"""Avro object container files (OCF): the framing checked here, records decoded by fastavro.

An Avro object container file is ``Obj\\x01``, a metadata map (``avro.schema``, ``avro.codec``, and whatever the
writer adds: Iceberg stores ``schema``, ``partition-spec``, ``format-version``, ``content``), a 16-byte sync
marker, then blocks of (record count, byte size, the records, possibly compressed, the sync marker again). Blocks
in ``null``, ``deflate``, ``snappy`` (with its CRC-32), ``zstandard``, ``bzip2`` and ``xz`` are decompressed with
lakestruct's own codec libraries (fastavro would need ``backports.zstd`` for zstandard on Python < 3.14), each
bounded by :data:`MAX_BLOCK_BYTES`. Records are decoded with ``fastavro.schemaless_reader`` against the file's own
writer schema. Paimon and Iceberg manifests are both read through this module; docs/avro.md describes it.

>>> import lakestruct as ls                                            # doctest: +SKIP
>>> f = ls.avro.open("snap-1-1-abc.avro")          # path, bytes, file object, fsspec URL or "-"
>>> f = ls.avro.AvroFile.from_bytes(data, name="m.avro")             # or from bytes already read
>>> f.schema, f.codec, f.metadata["format-version"]                # parsed JSON, "deflate", b"2"
>>> [(b.offset, b.count, b.size) for b in f.blocks()]               # every block, its body decompressed
>>> for rec in f.records(): ...                                     # every record, a dict (fastavro)

Bounds, whatever the input claims: a block's record count is at most its byte size + 1 and each of its records
must be decoded from the block's own bytes (all of them, none left over); a block decompresses to at most
:data:`MAX_BLOCK_BYTES`; the metadata map holds at most as many entries as the file has bytes. Every broken rule
is a :class:`~lakestruct.errors.FormatError` named ``avro.*`` with its byte offset and field path.
"""

from __future__ import annotations

import bz2
import io
import json
import lzma
import threading
import zlib
from collections.abc import Iterator
from typing import Any

from ..errors import FormatError, LimitError, MagicError, TruncatedError
from ..source import SourceLike, open_source

__all__ = ["MAGIC", "MAX_BLOCK_BYTES", "AvroBlock", "AvroFile", "avro_header", "open", "read_avro_records"]

MAGIC = b"Obj\x01"
#: The most bytes one decompressed Avro block may hold (``avro.block-size``). Paimon rolls manifests at
#: ``manifest.target-file-size`` (8 MiB by default) and Iceberg at ``commit.manifest.target-size-bytes`` (8 MiB),
#: so a block is far smaller in practice.
MAX_BLOCK_BYTES = 256 * 1024 * 1024
#: All the blocks of a file decompress to at most this many times the file's size (or :data:`MAX_BLOCK_BYTES`, when
#: that is more; ``avro.block-size``): the decompression work a file can ask for is bounded by the file. Deflate
#: cannot expand more than 1032 times; manifests compress 3 to 20 times.
MAX_EXPANSION = 1024
#: The array and map items one block may hold: max(MIN_ITEMS, ITEMS_PER_BYTE x the file's size) (``avro.items``, a
#: LimitError, raised before the block's records are built). A decoded item costs 8 to 60 bytes of Python objects
#: and takes as little as one byte of a block that zstd makes from almost nothing: a 5.5 KB Paimon manifest list
#: whose one block holds a ``_NULL_COUNTS`` of 2^27 nulls took 2.2 GB (fuzz round two). Manifests hold a few items a
#: record (one null count per column), far below either bound.
MIN_ITEMS = 1 << 22
ITEMS_PER_BYTE = 64


def _err(msg: str, rule: str, path: str, offset: int | None) -> FormatError:
    return FormatError(msg, rule=f"avro.{rule}", path=path, offset=offset)


class _Cursor:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def long(self, path: str) -> int:
        data, pos = self.data, self.pos
        shift = 0
        acc = 0
        start = pos
        while True:
            if pos >= len(data):
                raise TruncatedError("the file ends inside a variable-length integer", rule="avro.truncated", path=path,
                                     offset=start)
            b = data[pos]
            pos += 1
            acc |= (b & 0x7F) << shift
            if not b & 0x80:
                break
            shift += 7
            if shift > 63:
                raise _err("a variable-length integer runs over 10 bytes", "varint", path, start)
        self.pos = pos
        return (acc >> 1) ^ -(acc & 1)

    def take(self, n: int, path: str) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise TruncatedError(f"needs {n} bytes at offset {self.pos}, the file has {len(self.data)}",
                                 rule="avro.truncated", path=path, offset=self.pos)
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out


def _header(c: _Cursor) -> tuple[dict[str, bytes], bytes]:
    if c.take(4, "magic") != MAGIC:
        raise MagicError(f"an Avro object container starts with 4f 62 6a 01 ('Obj\\x01'), found {c.data[:4].hex(' ')}",
                         rule="avro.magic", path="magic", offset=0)
    meta: dict[str, bytes] = {}
    while True:
        count = c.long("metadata.count")
        if count == 0:
            break
        if count < 0:
            count = -count
            c.long("metadata.size")
        if count > len(c.data):
            raise _err(f"{count} metadata entries cannot fit a {len(c.data)}-byte file", "header", "metadata.count", c.pos)
        for _ in range(count):
            key = c.take(c.long("metadata.key"), "metadata.key").decode("utf-8", "replace")
            meta[key] = c.take(c.long(f"metadata[{key}]"), f"metadata[{key}]")
    return meta, c.take(16, "sync")


def avro_header(data: bytes) -> tuple[Any, str]:
    """(writer schema as JSON, codec) of an Avro object container file."""
    meta, _ = _header(_Cursor(data))
    try:
        schema = json.loads(meta["avro.schema"].decode("utf-8"))
    except KeyError:
        raise _err("the header has no avro.schema", "schema", "metadata", None) from None
    except ValueError as e:
        raise _err(f"the writer schema is not JSON: {e}", "schema", "metadata[avro.schema]", None) from None
    return schema, meta.get("avro.codec", b"null").decode("utf-8", "replace")


_LOCAL = threading.local()


def _zstd(raw: bytes, limit: int) -> bytes:
    import zstandard

    size = zstandard.frame_content_size(raw) if len(raw) >= 4 else -1
    if 0 <= size <= limit:  # one frame that states its size (pypaimon's writer): one call
        dctx = getattr(_LOCAL, "zstd", None)  # one decompression context per thread, reused (creating one costs more)
        if dctx is None:
            dctx = _LOCAL.zstd = zstandard.ZstdDecompressor()
        try:
            out: bytes = dctx.decompress(raw, allow_extra_data=False)
            return out
        except zstandard.ZstdError:
            pass  # more frames follow: stream them
    # several frames, or sizes not stated: streamed in pieces (a read of limit + 1 would allocate that much at once),
    # stopping once past the limit; the decoder's window is the zstandard library's, at most 2^27 bytes by default
    chunks: list[bytes] = []
    total = 0
    with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw), read_across_frames=True) as r:
        while total <= limit:
            chunk: bytes = r.read(min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _snappy_length(raw: bytes) -> int:
    """The uncompressed length a raw snappy block states first (a varint; -1 when it is not one)."""
    acc = shift = 0
    for b in raw[:5]:
        acc |= (b & 0x7F) << shift
        if b < 0x80:
            return acc
        shift += 7
    return -1


#: Parsed writer schemas by their JSON text (every manifest of a table carries the same few).
_PARSED: dict[bytes, Any] = {}


def _decompress(codec: str, raw: bytes, path: str, offset: int, limit: int) -> bytes:
    try:
        if codec == "null":
            out = raw
        elif codec == "deflate":
            d = zlib.decompressobj(-15)
            out = d.decompress(raw, limit + 1)
        elif codec == "snappy":
            import cramjam

            if len(raw) < 4:
                raise _err("a snappy block ends with a 4-byte CRC of its data", "block", path, offset)
            declared = _snappy_length(raw)
            if declared > limit:  # refused before the decompressor allocates it
                raise LimitError(f"a snappy block declares {declared} bytes, more than {limit}", rule="avro.block-size", path=path,
                                 offset=offset)
            out = bytes(cramjam.snappy.decompress_raw(raw[:-4]))
            if zlib.crc32(out) != int.from_bytes(raw[-4:], "big"):
                raise _err("the snappy block's CRC-32 does not match its data", "block-crc", path, offset)
        elif codec == "zstandard":
            out = _zstd(raw, limit)
        elif codec == "bzip2":
            out = bz2.BZ2Decompressor().decompress(raw, limit + 1)
        elif codec == "xz":
            try:  # the decoder's dictionary is as large as the stream declares: bounded like the output
                out = lzma.LZMADecompressor(memlimit=limit + (1 << 20)).decompress(raw, limit + 1)
            except lzma.LZMAError as e:
                if "limit" not in str(e).lower():
                    raise
                raise LimitError(f"the xz block needs more than {limit + (1 << 20)} bytes of decoder memory", rule="avro.block-size",
                                 path=path, offset=offset) from None
        else:
            raise _err(f"unknown Avro codec {codec!r}", "codec", "metadata[avro.codec]", None)
    except FormatError:
        raise
    except Exception as e:  # the codec libraries' own errors
        raise _err(f"the {codec} block does not decompress: {e}", "block", path, offset) from None
    if len(out) > limit:
        if limit < MAX_BLOCK_BYTES:
            raise LimitError(f"the blocks decompress to more than {MAX_EXPANSION} times the file's size (at least "
                             f"{MAX_BLOCK_BYTES} bytes) in all", rule="avro.block-size", path=path, offset=offset)
        raise LimitError(f"a block decompresses to more than {limit} bytes", rule="avro.block-size", path=path, offset=offset)
    return out


#: Headers seen (the bytes up to the sync marker, their metadata): a file that starts with the same bytes has the
#: same metadata, parsing them again would give the same result.
_HEADERS: list[tuple[bytes, dict[str, bytes]]] = []


class AvroFile:
    """An Avro object container's header (magic, metadata, sync marker) and its blocks, framing checked; the
    records decoded by fastavro with the file's writer schema (:meth:`records`).

    ``data`` is the whole file; ``name`` (a path or URL) is recorded in every error raised. Nothing past the header
    is read until :meth:`blocks` or :meth:`records` is iterated; each call starts again from the first block.
    """

    def __init__(self, data: bytes, *, name: str | None = None) -> None:
        self.name = name
        c = _Cursor(data)
        try:
            seen = next((h for h in _HEADERS if data.startswith(h[0])), None)  # a table's manifests share their header
            if seen is not None:
                c.pos = len(seen[0])
                meta = seen[1]
                self.sync = c.take(16, "sync")
            else:
                meta, self.sync = _header(c)
                if len(_HEADERS) < 16:
                    _HEADERS.append((data[: c.pos - 16], meta))
            raw = meta.get("avro.schema")
            if raw is None:
                raise _err("the header has no avro.schema", "schema", "metadata", None)
        except FormatError as e:
            raise e.with_source(name) if name else e from None
        self._data = data
        self._meta = meta
        #: where the first block starts (the header's size)
        self.header_size: int = c.pos
        #: the writer schema's JSON text, as stored
        self.raw_schema: bytes = raw
        #: the codec of every block (``avro.codec``, ``null`` when absent)
        self.codec: str = meta.get("avro.codec", b"null").decode("utf-8", "replace")
        self._parsed: Any = None
        self._schema: Any = None
        #: the array and map items one block may hold (``avro.items``; see :data:`MIN_ITEMS`)
        self.max_items: int = max(MIN_ITEMS, ITEMS_PER_BYTE * len(data))

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview, *, name: str | None = None) -> AvroFile:
        """The container in ``data`` (the whole file)."""
        return cls(bytes(data), name=name)

    @property
    def metadata(self) -> dict[str, bytes]:
        """The header's metadata map, key to raw value (a copy): ``avro.schema``, ``avro.codec`` and the writer's own."""
        return dict(self._meta)

    @property
    def schema(self) -> Any:
        """The writer schema as parsed JSON (``avro.schema`` when it is not JSON)."""
        if self._schema is None:
            try:
                self._schema = json.loads(self.raw_schema.decode("utf-8"))
            except ValueError as e:
                raise self._named(_err(f"the writer schema is not JSON: {e}", "schema", "metadata[avro.schema]", None)) from None
        return self._schema

    def _named(self, e: FormatError) -> FormatError:
        return e.with_source(self.name) if self.name else e

    def parsed_schema(self) -> Any:
        """The writer schema parsed by fastavro (``avro.schema`` when it does not parse); cached by its text."""
        if self._parsed is None:
            parsed = _PARSED.get(self.raw_schema)
            if parsed is None:
                import fastavro

                try:
                    parsed = fastavro.parse_schema(json.loads(self.raw_schema.decode("utf-8")))
                except Exception as e:
                    raise self._named(_err(f"the writer schema does not parse: {e}", "schema", "metadata[avro.schema]", None)) from None
                if len(_PARSED) < 64:
                    _PARSED[self.raw_schema] = parsed
            self._parsed = parsed
        return self._parsed

    def blocks(self) -> Iterator[AvroBlock]:
        """Every block, in order: where it starts, record count, stored size, decompressed bytes (rules ``avro.block``,
        ``avro.sync``, ``avro.truncated``, ``avro.block-size``, ...)."""
        try:
            yield from self._blocks()
        except FormatError as e:
            raise self._named(e) from None

    def _blocks(self) -> Iterator[AvroBlock]:
        data = self._data
        c = _Cursor(data)
        c.pos = self.header_size
        index = 0
        budget = max(MAX_BLOCK_BYTES, MAX_EXPANSION * len(data))  # decompressed bytes left for the file's blocks
        while c.pos < len(data):
            path = f"blocks[{index}]"
            start = c.pos
            count = c.long(f"{path}.count")
            size = c.long(f"{path}.size")
            if count < 0 or size < 0 or count > size + 1:
                raise _err(f"a block of {count} records in {size} bytes", "block", path, start)
            raw = c.take(size, f"{path}.data")
            data_at = c.pos - size
            if c.take(16, f"{path}.sync") != self.sync:
                raise _err("the block does not end with the file's sync marker", "sync", f"{path}.sync", c.pos - 16)
            body = _decompress(self.codec, raw, path, data_at, min(MAX_BLOCK_BYTES, budget))
            budget -= len(body)
            yield AvroBlock(count, body, path, data_at, start, size)
            index += 1

    def records(self, block: AvroBlock | None = None) -> Iterator[dict[str, Any]]:
        """The records of one block, or of every block when ``block`` is None, as fastavro decodes them with the
        writer schema (``avro.record``; ``avro.block`` when a block's records do not fill it exactly)."""
        try:
            if block is not None:
                yield from self._records(block)
                return
            self.parsed_schema()
            for b in self._blocks():
                yield from self._records(b)
        except FormatError as e:
            raise self._named(e) from None

    def _records(self, block: AvroBlock) -> Iterator[dict[str, Any]]:
        import fastavro

        parsed = self.parsed_schema()
        path, data_at, body = block.path, block.data_at, block.body
        if len(body) > self.max_items or _zero_width_items(parsed):  # else the block cannot hold more items than that
            _ItemCounter(body, self.max_items, path, data_at).records(parsed, block.count)
        bio = io.BytesIO(body)
        read = fastavro.schemaless_reader
        for i in range(block.count):
            try:
                rec = read(bio, parsed, None)
            except Exception as e:
                raise _err(f"record {i} does not decode with the writer schema: {e}", "record", f"{path}.records[{i}]", data_at) from None
            if not isinstance(rec, dict):
                raise _err(f"not a record: {type(rec).__name__}", "record", f"{path}.records[{i}]", data_at)
            yield rec
        if bio.tell() != len(body):
            raise _err(f"the records end after {bio.tell()} of the block's {len(body)} bytes", "block", path, data_at)


def _zero_width_items(schema: Any) -> bool:
    """Whether an array or map of the (fastavro-parsed) schema may have items that take no bytes (null, an empty
    record): then the items of a block are not bounded by its bytes."""
    found = False
    seen: set[int] = set()

    def width0(t: Any) -> bool:
        if isinstance(t, str):
            return t == "null"
        if isinstance(t, list):
            return False  # a union's branch index takes a byte
        if isinstance(t, dict):
            kind = t.get("type")
            if kind == "record":
                return all(width0(f["type"]) for f in t.get("fields", []))
            if kind == "fixed":
                return int(t.get("size", 1)) == 0
            if isinstance(kind, (dict, list)) or kind == "null":
                return width0(kind)
        return False

    def walk(t: Any) -> None:
        nonlocal found
        if found or id(t) in seen:
            return
        if isinstance(t, list):
            for b in t:
                walk(b)
        elif isinstance(t, dict):
            seen.add(id(t))
            kind = t.get("type")
            if kind in ("array", "map"):
                item = t.get("items") if kind == "array" else t.get("values")
                if width0(item):
                    found = True
                walk(item)
            elif kind == "record":
                for f in t.get("fields", []):
                    walk(f["type"])
            elif isinstance(kind, (dict, list)):
                walk(kind)

    walk(schema)
    return found


class _ItemCounter:
    """Steps over a block's records with the writer schema, building nothing, and counts the items of every array and
    map: more than ``limit`` is ``avro.items`` (a LimitError), raised as soon as a block header says so. Malformed
    bytes end the count quietly: fastavro's decoding, next, names them."""

    def __init__(self, body: bytes, limit: int, path: str, at: int) -> None:
        self.b, self.pos, self.items, self.limit, self.path, self.at = body, 0, 0, limit, path, at
        self.names: dict[str, Any] = {}

    def _collect(self, t: Any, depth: int = 0) -> None:
        """Every named type of the schema, wherever it is defined (a later field may refer to it by name)."""
        if depth > 256:
            return
        if isinstance(t, list):
            for b in t:
                self._collect(b, depth + 1)
        elif isinstance(t, dict):
            kind = t.get("type")
            if kind in ("record", "enum", "fixed") and isinstance(t.get("name"), str):
                self.names.setdefault(t["name"], t)
            if kind == "record":
                for f in t.get("fields", []):
                    self._collect(f.get("type"), depth + 1)
            elif kind == "array":
                self._collect(t.get("items"), depth + 1)
            elif kind == "map":
                self._collect(t.get("values"), depth + 1)
            elif isinstance(kind, (dict, list)):
                self._collect(kind, depth + 1)

    def long(self) -> int:
        b, pos, acc, shift = self.b, self.pos, 0, 0
        while True:
            byte = b[pos]
            pos += 1
            acc |= (byte & 0x7F) << shift
            if byte < 0x80:
                break
            shift += 7
            if shift > 63:
                raise ValueError("varint")
        self.pos = pos
        return (acc >> 1) ^ -(acc & 1)

    def records(self, schema: Any, count: int) -> None:
        self._collect(schema)
        try:
            for _ in range(count):
                self.value(schema, 0)
        except LimitError:
            raise
        except (IndexError, ValueError, KeyError, TypeError, RecursionError):
            return  # malformed: fastavro says how

    def value(self, t: Any, depth: int) -> None:
        if depth > 256:
            raise ValueError("depth")
        if isinstance(t, list):  # a union
            self.value(t[self.long()], depth + 1)
            return
        if isinstance(t, str):
            if t in self.names:
                self.value(self.names[t], depth + 1)
                return
            kind: Any = t
            spec: dict[str, Any] = {}
        else:
            spec = t
            kind = t["type"]
            if isinstance(kind, (dict, list)):
                self.value(kind, depth + 1)
                return
        if kind == "null":
            return
        if kind == "boolean":
            self.pos += 1
        elif kind in ("int", "long", "enum"):
            self.long()
        elif kind == "float":
            self.pos += 4
        elif kind == "double":
            self.pos += 8
        elif kind in ("bytes", "string"):
            n = self.long()
            if n < 0:
                raise ValueError("length")
            self.pos += n
        elif kind == "fixed":
            self.pos += int(spec["size"])
        elif kind == "record":
            for f in spec["fields"]:
                self.value(f["type"], depth + 1)
        elif kind in ("array", "map"):
            item = spec["items"] if kind == "array" else spec["values"]
            while True:
                n = self.long()
                if n == 0:
                    break
                if n < 0:
                    n = -n
                    self.long()  # the block's byte size
                self.items += n
                if self.items > self.limit:
                    raise LimitError(
                        f"the block's arrays and maps hold more than {self.limit} items (an item costs 8 to 60 bytes "
                        "decoded; the file's size justifies at most that many)",
                        rule="avro.items",
                        path=self.path,
                        offset=self.at,
                    )
                for _ in range(n):
                    if kind == "map":
                        k = self.long()
                        if k < 0:
                            raise ValueError("length")
                        self.pos += k
                    self.value(item, depth + 1)
        else:
            raise ValueError(f"type {kind!r}")
        if self.pos > len(self.b):
            raise IndexError("past the block")


class AvroBlock:
    """One block of an Avro object container: where it starts (``offset``, at its record count), its record
    count, its stored (possibly compressed) byte ``size``, its decompressed bytes (``body``), where the stored bytes
    start (``data_at``) and its field path (``blocks[i]``)."""

    __slots__ = ("body", "count", "data_at", "offset", "path", "size")

    def __init__(self, count: int, body: bytes, path: str, data_at: int, offset: int = -1, size: int = -1) -> None:
        self.count, self.body, self.path, self.data_at, self.offset, self.size = count, body, path, data_at, offset, size

    def __repr__(self) -> str:
        return f"AvroBlock({self.path}, offset={self.offset}, count={self.count}, size={self.size})"


def open(src: SourceLike, *, name: str | None = None) -> AvroFile:
    """An Avro object container file from a path, bytes, binary file object, fsspec URL or ``"-"`` (standard input),
    read whole (a container is read front to back)."""
    with open_source(src, name=name) as s:
        data = s.read_exact(0, s.size, rule="avro.truncated", path="file")
        label = s.name
    return AvroFile(data, name=label)


def read_avro_records(data: bytes, *, name: str = "") -> Iterator[dict[str, Any]]:
    """Every record of an Avro object container file, as fastavro decodes it with the file's writer schema."""
    f = AvroFile(data, name=name or None)
    f.parsed_schema()
    yield from f.records()
