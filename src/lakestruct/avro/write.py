"""Writing Avro object container files: records encoded by fastavro against a schema, blocks compressed with
lakestruct's codec libraries, the framing built from the construct spec (:mod:`.spec`), the file written atomically.

>>> from lakestruct.avro.write import write_avro                    # doctest: +SKIP
>>> write_avro("m.avro", schema, records, codec="deflate", metadata={"format-version": "2"})

Tests use it to build manifests (and mutate them: :func:`encode_container` takes any framing, including broken
ones) for the readers.
"""

from __future__ import annotations

import io
import json
import os
import zlib
from collections.abc import Iterable, Mapping
from typing import Any

from .._atomic import write_atomic
from .model import Container, MetaBlock, StoredBlock
from .spec import encode_container

__all__ = ["CODECS", "compress_block", "encode_avro", "encode_container", "write_avro"]

#: the codecs the writer knows, by their Avro names (``zstd`` is accepted for ``zstandard``)
CODECS = ("null", "deflate", "zstandard")


def _codec_name(codec: str) -> str:
    name = "zstandard" if codec == "zstd" else codec
    if name not in CODECS:
        raise ValueError(f"unknown codec {codec!r}: one of {', '.join(CODECS)} (or zstd)")
    return name


def compress_block(codec: str, body: bytes) -> bytes:
    """A block's records as stored with ``codec``: as they are (``null``), raw deflate (RFC 1951, no zlib header,
    as Avro specifies) or one zstd frame that states its size (``zstandard``)."""
    name = _codec_name(codec)
    if name == "null":
        return body
    if name == "deflate":
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        return c.compress(body) + c.flush()
    import zstandard

    return bytes(zstandard.ZstdCompressor(write_content_size=True).compress(body))


def encode_avro(
    schema: Any,
    records: Iterable[Any],
    *,
    codec: str = "null",
    metadata: Mapping[str, str | bytes] | None = None,
    sync: bytes | None = None,
    block_records: int = 1000,
) -> bytes:
    """The bytes of an object container file holding ``records`` (encoded by fastavro with ``schema``, parsed JSON),
    ``block_records`` per block; ``metadata`` adds header entries (strings stored as UTF-8); ``sync`` defaults to
    16 random bytes."""
    import fastavro

    name = _codec_name(codec)
    if block_records < 1:
        raise ValueError("block_records must be at least 1")
    parsed = fastavro.parse_schema(schema)
    sync = os.urandom(16) if sync is None else sync
    entries: list[tuple[str, bytes]] = [("avro.schema", json.dumps(schema, separators=(",", ":")).encode()),
                                        ("avro.codec", name.encode())]
    for k, v in (metadata or {}).items():
        if k in ("avro.schema", "avro.codec"):
            raise ValueError(f"{k} is set by the writer")
        entries.append((k, v.encode() if isinstance(v, str) else bytes(v)))
    blocks: list[StoredBlock] = []
    buf = io.BytesIO()
    count = 0
    for rec in records:
        fastavro.schemaless_writer(buf, parsed, rec)
        count += 1
        if count == block_records:
            blocks.append(StoredBlock(count, compress_block(name, buf.getvalue())))
            buf, count = io.BytesIO(), 0
    if count:
        blocks.append(StoredBlock(count, compress_block(name, buf.getvalue())))
    return encode_container(Container((MetaBlock(tuple(entries)),), sync, tuple(blocks)))


def write_avro(path: str | os.PathLike[str], schema: Any, records: Iterable[Any], **options: Any) -> None:
    """Write :func:`encode_avro`'s bytes to ``path`` atomically (the whole file appears, or none of it)."""
    write_atomic(path, encode_avro(schema, records, **options))
