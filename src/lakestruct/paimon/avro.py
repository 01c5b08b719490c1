"""Reading Paimon's Avro manifests: the object-container framing checked here, records decoded by fastavro.

An Avro object container file is ``Obj\\x01``, a metadata map (``avro.schema``, ``avro.codec``), a 16-byte sync
marker, then blocks of (record count, byte size, the records, possibly compressed, the sync marker again). Paimon
writes ``zstandard`` (its default), ``snappy`` or ``deflate`` blocks; all are decompressed here with lakestruct's own
codec libraries (fastavro would need ``backports.zstd`` for zstandard on Python < 3.14), each block bounded by
:data:`MAX_BLOCK_BYTES`. Records of a block are decoded with ``fastavro.schemaless_reader`` against the file's own
writer schema, so 0.9-era files (root and nested records as nullable unions) and 1.x files both read as dicts.
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

from ..errors import FormatError, LimitError, TruncatedError

__all__ = ["MAX_BLOCK_BYTES", "AvroBlock", "AvroFile", "avro_header", "read_avro_records"]

MAGIC = b"Obj\x01"
#: The most bytes one decompressed Avro block may hold (``paimon.avro.block-size``). Paimon rolls manifests at
#: ``manifest.target-file-size`` (8 MiB by default), so a block is far smaller in practice.
MAX_BLOCK_BYTES = 256 * 1024 * 1024


def _err(msg: str, rule: str, path: str, offset: int | None) -> FormatError:
    return FormatError(msg, rule=f"paimon.avro.{rule}", path=path, offset=offset)


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
                raise TruncatedError("the file ends inside a variable-length integer", rule="paimon.avro.truncated", path=path,
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
                                 rule="paimon.avro.truncated", path=path, offset=self.pos)
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out


def _header(c: _Cursor) -> tuple[dict[str, bytes], bytes]:
    if c.take(4, "magic") != MAGIC:
        raise _err(f"an Avro object container starts with 4f 62 6a 01 ('Obj\\x01'), found {c.data[:4].hex(' ')}", "magic", "magic", 0)
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
    dctx = zstandard.ZstdDecompressor()
    with dctx.stream_reader(io.BytesIO(raw), read_across_frames=True) as r:
        streamed: bytes = r.read(limit + 1)
    return streamed


#: Parsed writer schemas by their JSON text (every manifest of a table carries the same few).
_PARSED: dict[bytes, Any] = {}


def _decompress(codec: str, raw: bytes, path: str, offset: int) -> bytes:
    limit = MAX_BLOCK_BYTES
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
            out = bytes(cramjam.snappy.decompress_raw(raw[:-4]))
            if zlib.crc32(out) != int.from_bytes(raw[-4:], "big"):
                raise _err("the snappy block's CRC-32 does not match its data", "block-crc", path, offset)
        elif codec == "zstandard":
            out = _zstd(raw, limit)
        elif codec == "bzip2":
            out = bz2.BZ2Decompressor().decompress(raw, limit + 1)
        elif codec == "xz":
            out = lzma.LZMADecompressor().decompress(raw, limit + 1)
        else:
            raise _err(f"unknown Avro codec {codec!r}", "codec", "metadata[avro.codec]", None)
    except FormatError:
        raise
    except Exception as e:  # the codec libraries' own errors
        raise _err(f"the {codec} block does not decompress: {e}", "block", path, offset) from None
    if len(out) > limit:
        raise LimitError(f"a block decompresses to more than {limit} bytes", rule="paimon.avro.block-size", path=path, offset=offset)
    return out


#: Headers seen (the bytes up to the sync marker, their metadata): a file that starts with the same bytes has the
#: same metadata, parsing them again would give the same result.
_HEADERS: list[tuple[bytes, dict[str, bytes]]] = []


class AvroFile:
    """An Avro object container's header (magic, metadata, sync marker) and its blocks, framing checked; the
    records of a block decoded by fastavro with the file's writer schema (:meth:`records`)."""

    def __init__(self, data: bytes) -> None:
        self._c = c = _Cursor(data)
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
        #: the writer schema's JSON text, as stored
        self.raw_schema: bytes = raw
        self.codec = meta.get("avro.codec", b"null").decode("utf-8", "replace")
        self._parsed: Any = None

    def parsed_schema(self) -> Any:
        """The writer schema parsed by fastavro (``paimon.avro.schema`` when it does not parse); cached by its text."""
        if self._parsed is None:
            parsed = _PARSED.get(self.raw_schema)
            if parsed is None:
                import fastavro

                try:
                    parsed = fastavro.parse_schema(json.loads(self.raw_schema.decode("utf-8")))
                except Exception as e:
                    raise _err(f"the writer schema does not parse: {e}", "schema", "metadata[avro.schema]", None) from None
                if len(_PARSED) < 64:
                    _PARSED[self.raw_schema] = parsed
            self._parsed = parsed
        return self._parsed

    def blocks(self) -> Iterator[AvroBlock]:
        """Every block: record count, decompressed bytes, where it is (``paimon.avro.block`` / ``.sync`` / ...)."""
        c, data = self._c, self._c.data
        index = 0
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
            yield AvroBlock(count, _decompress(self.codec, raw, path, data_at), path, data_at)
            index += 1

    def records(self, block: AvroBlock) -> Iterator[dict[str, Any]]:
        """The records of a block as fastavro decodes them with the writer schema (``paimon.avro.record``)."""
        import fastavro

        parsed = self.parsed_schema()
        path, data_at, body = block.path, block.data_at, block.body
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


class AvroBlock:
    """One block of an Avro object container: its record count and decompressed bytes, and where it is."""

    __slots__ = ("body", "count", "data_at", "path")

    def __init__(self, count: int, body: bytes, path: str, data_at: int) -> None:
        self.count, self.body, self.path, self.data_at = count, body, path, data_at


def read_avro_records(data: bytes, *, name: str = "") -> Iterator[dict[str, Any]]:
    """Every record of an Avro object container file, as fastavro decodes it with the file's writer schema."""
    f = AvroFile(data)
    f.parsed_schema()
    for block in f.blocks():
        yield from f.records(block)
