"""Reading Puffin files: the footer with one tail read, blobs by their metadata.

The byte layout is parsed by the parser generated from ``formats/puffin/puffin.ksy``;
this module adds what a declarative spec cannot say: the JSON payload's schema,
codecs, blob ranges and decompression limits. Every violation raises a
:class:`~lakestruct.errors.FormatError` naming the offset, field path and rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from kaitaistruct import KaitaiStream

from .. import codecs
from .._generated.puffin import Puffin as _KsPuffin
from .._kaitai import kaitai_call
from ..errors import FormatError, TruncatedError, UsageError
from ..source import ByteSource, RangeReader, SourceLike, closing_on_error, open_source
from .model import MAGIC, BlobMetadata, FooterInfo, PuffinFile

__all__ = ["PuffinReader", "open", "read", "parse_footer_payload", "DEFAULT_TAIL_HINT"]

#: Bytes read from the end of the file on open; a footer that fits costs one read.
DEFAULT_TAIL_HINT = 8192
#: Smallest possible Puffin file: magic + footer magic + 12-byte tail (empty payload).
MIN_FILE_SIZE = 20
#: The footer JSON may not decompress to more than this (a real footer is kilobytes).
MAX_FOOTER_PAYLOAD = 256 * 1024 * 1024

_INT64 = (-(2**63), 2**63 - 1)
_INT32 = (-(2**31), 2**31 - 1)


#: Longest JSON number (in characters) the footer may hold: Jackson's default ``maxNumberLength``, which Iceberg
#: Java's parser enforces. Python's ``int()`` refuses more than 4,300 digits anyway; real footers hold longs.
MAX_JSON_NUMBER_LENGTH = 1000
_LONG_NUMBER = re.compile(rf"(?<=[:\[,])\s*(-?[0-9][-+0-9.eE]{{{MAX_JSON_NUMBER_LENGTH},}})")  # a value, not text in a string


class _NumberTooLong(Exception):
    pass


def _parse_int(text: str) -> int:
    if len(text) > MAX_JSON_NUMBER_LENGTH:
        raise _NumberTooLong
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_JSON_NUMBER_LENGTH:
        raise _NumberTooLong
    return float(text)


def _fail(msg: str, rule: str, path: str, offset: int | None) -> FormatError:
    return FormatError(msg, rule=rule, path=path, offset=offset)


def _json_int(obj: Mapping[str, Any], key: str, path: str, where: int | None, bounds: tuple[int, int] = _INT64) -> int:
    if key not in obj:
        raise _fail(f"required field {key!r} is missing", "puffin.json-required-field", f"{path}.{key}", where)
    v = obj[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise _fail(f"{key!r} must be a JSON integer, found {v!r}", "puffin.json-field-type", f"{path}.{key}", where)
    if not bounds[0] <= v <= bounds[1]:
        raise _fail(f"{key!r} = {v} is outside {bounds[0]}..{bounds[1]}", "puffin.json-field-range", f"{path}.{key}", where)
    return v


def _json_str_map(v: Any, path: str, where: int | None) -> dict[str, str]:
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise _fail(f"properties must be a JSON object, found {type(v).__name__}", "puffin.json-properties", path, where)
    for k, val in v.items():
        if not isinstance(val, str):
            raise _fail(
                f"property {k!r} must have a string value, found {val!r}", "puffin.json-properties", f"{path}.{k}", where
            )
    return dict(v)


def parse_footer_payload(text_or_bytes: str | bytes, *, payload_offset: int | None = None) -> PuffinFile:
    """Validate the footer JSON (``FileMetadata``) and build the model.

    ``payload_offset`` is the absolute offset of the payload, used to report
    offsets of syntax errors (it is ``None`` for a compressed payload, whose bytes
    are not the JSON's).
    """
    base = "footer.payload"
    if isinstance(text_or_bytes, bytes):
        try:
            text = text_or_bytes.decode("utf-8")
        except UnicodeDecodeError as e:
            at = payload_offset + e.start if payload_offset is not None else None
            raise _fail(f"payload is not UTF-8: {e.reason}", "puffin.json-utf8", base, at) from None
    else:
        text = text_or_bytes
    try:
        doc = json.loads(text, parse_int=_parse_int, parse_float=_parse_float)
    except _NumberTooLong:
        m = _LONG_NUMBER.search(text)
        at = payload_offset + len(text[: m.start(1)].encode("utf-8")) if payload_offset is not None and m else None
        raise _fail(
            f"a JSON number of {len(m.group(1)) if m else 'over ' + str(MAX_JSON_NUMBER_LENGTH)} characters; at most "
            f"{MAX_JSON_NUMBER_LENGTH} are allowed (the limit of Iceberg Java's JSON parser)",
            "puffin.json-number-length",
            base,
            at,
        ) from None
    except json.JSONDecodeError as e:
        at = payload_offset + len(text[: e.pos].encode("utf-8")) if payload_offset is not None else None
        raise _fail(f"payload is not JSON: {e.msg} (line {e.lineno} column {e.colno})", "puffin.json-syntax", base, at) from None
    except RecursionError:
        raise _fail("payload JSON nests too deeply", "puffin.json-syntax", base, payload_offset) from None
    where = payload_offset
    if not isinstance(doc, dict):
        raise _fail(f"payload must be a JSON object, found {type(doc).__name__}", "puffin.json-object", base, where)
    if "blobs" not in doc:
        raise _fail("required field 'blobs' is missing", "puffin.json-required-field", f"{base}.blobs", where)
    raw_blobs = doc["blobs"]
    if not isinstance(raw_blobs, list):
        raise _fail(f"'blobs' must be a JSON list, found {type(raw_blobs).__name__}", "puffin.json-field-type", f"{base}.blobs", where)
    blobs = []
    for i, rb in enumerate(raw_blobs):
        p = f"{base}.blobs[{i}]"
        if not isinstance(rb, dict):
            raise _fail(f"blob metadata must be a JSON object, found {type(rb).__name__}", "puffin.json-object", p, where)
        btype = rb.get("type")
        if "type" not in rb:
            raise _fail("required field 'type' is missing", "puffin.json-required-field", f"{p}.type", where)
        if not isinstance(btype, str):
            raise _fail(f"'type' must be a JSON string, found {btype!r}", "puffin.json-field-type", f"{p}.type", where)
        if "fields" not in rb:
            raise _fail("required field 'fields' is missing", "puffin.json-required-field", f"{p}.fields", where)
        fields = rb["fields"]
        if not isinstance(fields, list):
            raise _fail(f"'fields' must be a JSON list of ints, found {fields!r}", "puffin.json-field-type", f"{p}.fields", where)
        for j, f in enumerate(fields):
            if isinstance(f, bool) or not isinstance(f, int):
                raise _fail(f"field id must be a JSON int, found {f!r}", "puffin.json-field-type", f"{p}.fields[{j}]", where)
            if not _INT32[0] <= f <= _INT32[1]:
                raise _fail(f"field id {f} is outside the int range", "puffin.json-field-range", f"{p}.fields[{j}]", where)
        snapshot_id = _json_int(rb, "snapshot-id", p, where)
        sequence_number = _json_int(rb, "sequence-number", p, where)
        offset = _json_int(rb, "offset", p, where, (0, _INT64[1]))
        length = _json_int(rb, "length", p, where, (0, _INT64[1]))
        codec = rb.get("compression-codec")
        if codec is not None:
            if not isinstance(codec, str):
                raise _fail(
                    f"'compression-codec' must be a string, found {codec!r}", "puffin.json-field-type", f"{p}.compression-codec", where
                )
            if codec not in codecs.CODECS:
                raise _fail(
                    f"unknown compression codec {codec!r} (the spec allows {', '.join(codecs.CODECS)})",
                    "puffin.blob-codec",
                    f"{p}.compression-codec",
                    where,
                )
        props = _json_str_map(rb.get("properties"), f"{p}.properties", where)
        blobs.append(BlobMetadata(btype, tuple(fields), snapshot_id, sequence_number, offset, length, codec, props))
    props = _json_str_map(doc.get("properties"), f"{base}.properties", where)
    return PuffinFile(tuple(blobs), props)


class PuffinReader:
    """An open Puffin file: its footer is parsed, blobs are read on demand."""

    def __init__(
        self,
        source: SourceLike,
        *,
        tail_hint: int = DEFAULT_TAIL_HINT,
        max_blob_size: int | None = None,
        footer_size: int | None = None,
    ) -> None:
        if footer_size is not None and (isinstance(footer_size, bool) or not isinstance(footer_size, int) or footer_size < 0):
            raise UsageError(f"footer_size must be a non-negative int (file-footer-size-in-bytes), not {footer_size!r}")
        self.source: ByteSource = open_source(source)
        self.max_blob_size = max_blob_size
        self._header_checked = False
        self._closed = False
        with closing_on_error(self.source):
            if footer_size is not None:
                self._check_declared_footer(footer_size)
                tail_hint = min(footer_size, self.source.size)  # the declared footer is the one tail read
            self.footer, self.metadata = self._read_footer(max(tail_hint, MIN_FILE_SIZE))
            if footer_size is not None and footer_size != self.footer.size:
                raise self._footer_size_error(footer_size, f"the file's footer is {self.footer.size} bytes, at offset {self.footer.offset}")

    # -- a footer size declared by table metadata -----------------------------------------------
    def _footer_size_error(self, declared: int, what: str) -> FormatError:
        size = self.source.size
        return FormatError(
            f"table metadata declares a footer of {declared} bytes (file-footer-size-in-bytes) but {what}",
            rule="puffin.footer-size",
            path="footer",
            offset=size - declared if 0 <= size - declared <= size else None,
            source=self.source.name,
        )

    def _check_declared_footer(self, declared: int) -> None:
        """Before any read: a footer has at least 16 bytes (magic, 12-byte tail) and follows the 4-byte header magic."""
        smallest, largest = MIN_FILE_SIZE - 4, self.source.size - 4
        if not smallest <= declared <= largest:
            why = (
                f"a footer takes at least {smallest} bytes"
                if declared < smallest
                else f"the file has only {largest} bytes after its header magic"
            )
            raise self._footer_size_error(declared, why)

    # -- footer ---------------------------------------------------------------------------
    def _read_footer(self, tail_hint: int) -> tuple[FooterInfo, PuffinFile]:
        size = self.source.size
        if size < MIN_FILE_SIZE:
            raise TruncatedError(
                f"a Puffin file has at least {MIN_FILE_SIZE} bytes (magic, footer magic, 12-byte footer tail); this one has {size}",
                rule="puffin.min-size",
                path="file",
                offset=0,
            )
        reader = RangeReader(self.source)
        reader.prefetch(max(0, size - tail_hint), min(size, tail_hint))
        ks = _KsPuffin(KaitaiStream(reader))
        tail = kaitai_call("puffin", reader, lambda: ks.tail, path="tail")
        start = reader.cached_from()
        if 0 <= ks.ofs_footer < start:  # a footer larger than the hint: one more read for the rest
            reader.prefetch(ks.ofs_footer, start - ks.ofs_footer)
        footer = kaitai_call("puffin", reader, lambda: ks.footer, path="footer")
        info = FooterInfo(
            file_size=size,
            offset=ks.ofs_footer,
            payload_offset=ks.ofs_footer + 4,
            payload_length=tail.len_payload,
            compressed=bool(tail.flags.payload_compressed),
        )
        if size <= tail_hint:  # the header magic came with the tail read: check it now
            kaitai_call("puffin", reader, ks._read, path="magic")
            self._header_checked = True
        payload = bytes(footer.payload)
        if info.compressed:
            payload = codecs.decompress(
                "lz4",
                payload,
                limit=min(MAX_FOOTER_PAYLOAD, codecs.default_limit(len(payload))),
                rule="puffin.footer-lz4",
                path="footer.payload",
                offset=info.payload_offset,
            )
            meta = parse_footer_payload(payload, payload_offset=None)
        else:
            meta = parse_footer_payload(payload, payload_offset=info.payload_offset)
        for i, b in enumerate(meta.blobs):
            end = b.offset + b.length
            if b.offset < len(MAGIC) or end > info.offset:
                raise FormatError(
                    f"blob {i} occupies [{b.offset}, {end}) but blobs must lie in [{len(MAGIC)}, {info.offset}) "
                    "between the header magic and the footer",
                    rule="puffin.blob-range",
                    path=f"footer.payload.blobs[{i}]",
                    offset=info.payload_offset,
                )
        return info, meta

    # -- convenience ----------------------------------------------------------------------
    @property
    def blobs(self) -> tuple[BlobMetadata, ...]:
        return self.metadata.blobs

    @property
    def properties(self) -> Mapping[str, str]:
        return self.metadata.properties

    @property
    def name(self) -> str:
        return self.source.name

    def check_header(self) -> None:
        """Check the header magic (deferred on open when the file exceeds the tail hint)."""
        if self._header_checked:
            return
        self._check_open()
        data = self.source.read_exact(0, 4, rule="puffin.header-magic", path="magic")
        if data != MAGIC:
            reader = RangeReader(self.source)
            ks = _KsPuffin(KaitaiStream(reader))
            try:
                kaitai_call("puffin", reader, ks._read, path="magic")
            except FormatError as e:
                raise e.with_source(self.name) from None
        self._header_checked = True

    def _check_open(self) -> None:
        if self._closed:
            raise UsageError(
                f"{self.name}: the Puffin file is closed; read its blobs before close(), inside the `with ls.puffin.open(...)` block "
                "(the footer, blobs and properties stay available)"
            )

    def read_blob(self, blob: BlobMetadata | int, *, raw: bool = False, max_size: int | None = None) -> bytes:
        """The blob's bytes, decompressed unless ``raw`` (to copy a blob as stored). Raises
        :class:`~lakestruct.errors.UsageError` once the reader is closed."""
        self._check_open()
        if isinstance(blob, int):
            if not 0 <= blob < len(self.blobs):
                raise IndexError(f"blob index {blob} out of range (file has {len(self.blobs)} blobs)")
            index, blob = blob, self.blobs[blob]
        else:
            index = next((i for i, b in enumerate(self.blobs) if b is blob or b == blob), -1)
        path = f"blobs[{index}]" if index >= 0 else "blob"
        try:
            self.check_header()
            if blob.offset < len(MAGIC) or blob.offset + blob.length > self.footer.offset:
                raise FormatError(
                    f"blob range [{blob.offset}, {blob.offset + blob.length}) is outside the blob region",
                    rule="puffin.blob-range",
                    path=path,
                    offset=blob.offset,
                )
            data = self.source.read_exact(blob.offset, blob.length, rule="puffin.blob-range", path=path)
            if raw or blob.compression_codec is None:
                return data
            limit = max_size or self.max_blob_size or codecs.default_limit(len(data))
            return codecs.decompress(
                blob.compression_codec, data, limit=limit, rule="puffin.blob-decompress", path=path, offset=blob.offset
            )
        except FormatError as e:
            raise e.with_source(self.name) from None

    def iter_blobs(self, *, raw: bool = False) -> Iterator[tuple[BlobMetadata, bytes]]:
        for b in self.blobs:
            yield b, self.read_blob(b, raw=raw)

    def check(self, *, deep: bool = True) -> None:
        """Every check a reader can make: header magic, every blob decompresses, and (``deep``)
        every blob of a type the Iceberg spec defines decodes and agrees with its metadata
        (deletion vectors: envelope, CRC, Roaring, cardinality, -1 ids, one per data file;
        Theta sketches: sketch rules and the ``ndv`` property)."""
        self._check_open()
        self.check_header()
        if deep:
            from .decode import check_blobs

            check_blobs(self)  # reads every blob once: decodes the known types, decompresses the rest
        else:
            for i in range(len(self.blobs)):
                self.read_blob(i)

    def close(self) -> None:
        self._closed = True
        self.source.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> PuffinReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<PuffinReader {self.name!r} blobs={len(self.blobs)} footer={self.footer.size}B>"


def open(
    source: SourceLike, *, tail_hint: int = DEFAULT_TAIL_HINT, max_blob_size: int | None = None, footer_size: int | None = None
) -> PuffinReader:
    """Open a Puffin file (path, URL, bytes or binary file object); reads only its footer.

    ``footer_size`` is the footer size table metadata declares (Iceberg's ``file-footer-size-in-bytes``): the footer
    is then read with one tail read of exactly that many bytes, and a file whose footer differs raises
    ``puffin.footer-size``.
    """
    return PuffinReader(source, tail_hint=tail_hint, max_blob_size=max_blob_size, footer_size=footer_size)


def read(source: SourceLike) -> PuffinFile:
    """The footer metadata of a Puffin file, fully checked (header magic included)."""
    with open(source) as r:
        r.check_header()
        return r.metadata

