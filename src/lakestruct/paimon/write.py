"""Writing what Paimon writes: serialized BinaryRows (``BinaryRowWriter`` + ``serializeBinaryRow``), deletion-vector
index files of either kind (byte for byte as Paimon Java: 32-bit ``BitmapDeletionVector`` entries hold the
``runOptimize()``-d RoaringBitmap, 64-bit ``Bitmap64DeletionVector`` entries the Iceberg ``deletion-vector-v1``
blob), data-file index containers (``FileIndexFormat``) and their payloads: bloom filters (``BloomFilterFileIndex``,
sized and hashed as Paimon's writer does), bitmap indexes of version 1 and 2 (``BitmapFileIndex``) and bit-sliced
indexes (``BitSliceIndexBitmapFileIndex``). Containers and payloads are built with the construct specs of
:mod:`lakestruct.paimon.spec`.
"""

from __future__ import annotations

import datetime
import math
import os
import struct
from collections.abc import Mapping, Sequence
from decimal import Context, Decimal
from typing import Any

import numpy as np

from .._atomic import write_atomic
from ..deletes import encode_deletion_vector_blob
from ..errors import UsageError
from ..roaring.spec import ROARING32
from ..roaring.write import encode32, normalize_positions
from .binrow import Timestamp, element_size, null_bits_size
from .indexes import _key_codec, _sort_key, bloom_hash, index_value
from .spec import (
    BINARY_ROW,
    BLOOM_FILTER_PAYLOAD,
    BSI_PAYLOAD,
    DV_ENTRY,
    DV_INDEX_FILE,
    FILE_INDEX,
    FILE_INDEX_V2,
    MAGIC32,
    bitmap_index_payload,
    bitmap_key,
)
from .types import DataType

__all__ = [
    "encode_binary_row",
    "encode_bitmap_index",
    "encode_bloom_filter",
    "encode_bsi_index",
    "encode_dv_entry",
    "encode_dv_index_file",
    "encode_file_index",
    "write_dv_index_file",
    "write_file_index",
]

#: Largest position of a 32-bit Paimon deletion vector (``RoaringBitmap32.MAX_VALUE``).
MAX_POSITION32 = 2**31 - 1
_EPOCH = datetime.date(1970, 1, 1)
_MILLI = datetime.timedelta(milliseconds=1)
#: Decimal arithmetic exact for 38-digit unscaled values (the default context rounds to 28 digits).
_CTX = Context(prec=40)


def _pad8(n: int) -> int:
    return (n + 7) & ~7


def _unscaled(v: Any, t: DataType) -> int:
    d = v if isinstance(v, Decimal) else Decimal(v)
    scaled = d.scaleb(t.scale or 0, _CTX)
    if scaled != scaled.to_integral_value():
        raise UsageError(f"{v} has more than {t.scale} decimal places for {t}")
    u = int(scaled)
    if len(str(abs(u))) > (t.precision or 10):
        raise UsageError(f"{v} does not fit {t}")
    return u


class _Layout:
    """One structure being written: its fixed part and its variable part (offsets from the structure's start)."""

    def __init__(self, fixed: int) -> None:
        self.buf = bytearray(fixed)

    def append(self, data: bytes, reserve: int | None = None) -> int:
        """Append ``data`` (in ``reserve`` bytes, or padded to 8) to the variable part; return its offset."""
        at = len(self.buf)
        size = reserve if reserve is not None else _pad8(len(data))
        self.buf += data + bytes(size - len(data))
        return at

    def slot(self, at: int, offset: int, low: int) -> None:
        struct.pack_into("<Q", self.buf, at, (offset << 32) | low)

    def null_bit(self, bit: int, base: int = 0) -> None:
        self.buf[base + (bit >> 3)] |= 1 << (bit & 7)

    def put(self, at: int, v: Any, t: DataType) -> None:
        r = t.root
        b = self.buf
        if r == "BOOLEAN":
            b[at] = 1 if v else 0
        elif r == "TINYINT":
            struct.pack_into("<b", b, at, v)
        elif r == "SMALLINT":
            struct.pack_into("<h", b, at, v)
        elif r == "INT":
            struct.pack_into("<i", b, at, v)
        elif r == "DATE":
            struct.pack_into("<i", b, at, (v - _EPOCH).days if isinstance(v, datetime.date) else int(v))
        elif r == "TIME":
            ms = v // _MILLI if isinstance(v, datetime.timedelta) else int(v)  # exact: total_seconds() * 1000 can round down
            struct.pack_into("<i", b, at, ms)
        elif r == "BIGINT":
            struct.pack_into("<q", b, at, v)
        elif r == "FLOAT":
            struct.pack_into("<f", b, at, v)
        elif r == "DOUBLE":
            struct.pack_into("<d", b, at, v)
        elif r == "DECIMAL":
            u = _unscaled(v, t)
            if t.compact:
                struct.pack_into("<q", b, at, u)
            else:
                bl = u.bit_length() if u >= 0 else (~u).bit_length()
                raw = u.to_bytes(bl // 8 + 1, "big", signed=True)  # Java BigInteger.toByteArray
                self.slot(at, self.append(raw, 16), len(raw))
        elif r in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            ts = v if isinstance(v, Timestamp) else Timestamp(int(v))
            if t.compact:
                struct.pack_into("<q", b, at, ts.millisecond)
            else:
                self.slot(at, self.append(struct.pack("<q", ts.millisecond), 8), ts.nano_of_millisecond)
        elif r in ("CHAR", "VARCHAR", "BINARY", "VARBINARY", "BLOB", "VARIANT"):
            raw = v.encode("utf-8") if isinstance(v, str) else bytes(v)
            if len(raw) <= 7:
                b[at : at + len(raw)] = raw
                b[at + 7] = 0x80 | len(raw)
            else:
                self.slot(at, self.append(raw), len(raw))
        elif r in ("ARRAY", "VECTOR"):
            assert t.element is not None
            data = encode_array(list(v), t.element)
            self.slot(at, self.append(data), len(data))
        elif r in ("MAP", "MULTISET"):
            kt = t.key if r == "MAP" else t.element
            vt = t.value if r == "MAP" else DataType("INT", False)
            assert kt is not None and vt is not None
            items = list(v.items()) if isinstance(v, Mapping) else list(v)
            kb = encode_array([k for k, _ in items], kt)
            vb = encode_array([x for _, x in items], vt)
            data = struct.pack("<i", len(kb)) + kb + vb
            self.slot(at, self.append(data), len(data))
        elif r == "ROW":
            vals = [v.get(f.name) for f in t.fields] if isinstance(v, Mapping) else list(v)
            data = encode_row_body(vals, [f.type for f in t.fields])
            self.slot(at, self.append(data), len(data))
        else:  # pragma: no cover - types.py knows every root
            raise UsageError(f"cannot write values of type {t}")

    def put_null(self, at: int, t: DataType) -> None:
        """What Java's null setters leave in the slot: non-compact decimals and timestamps keep an offset."""
        if t.root == "DECIMAL" and not t.compact:
            self.slot(at, self.append(b"", 16), 0)
        elif t.root in ("TIMESTAMP", "TIMESTAMP_LTZ") and not t.compact:
            self.slot(at, self.append(b"", 8), 0)


def encode_row_body(values: Sequence[Any], types: Sequence[DataType], row_kind: int = 0) -> bytes:
    """A BinaryRow without the arity prefix (a nested row, or the row part of a serialized one)."""
    if len(values) != len(types):
        raise UsageError(f"{len(values)} values for {len(types)} fields")
    if not 0 <= row_kind <= 3:
        raise UsageError(f"row_kind is 0..3, not {row_kind}")
    n = len(types)
    nb = null_bits_size(n)
    lay = _Layout(nb + 8 * n)
    lay.buf[0] = row_kind
    for i, (v, t) in enumerate(zip(values, types, strict=True)):
        at = nb + 8 * i
        if v is None:
            lay.null_bit(i + 8)
            lay.put_null(at, t)
        else:
            lay.put(at, v, t)
    return bytes(lay.buf)


def encode_array(values: Sequence[Any], et: DataType) -> bytes:
    """A BinaryArray: int32 count, null bits in 4-byte words, fixed-width elements, variable part."""
    n = len(values)
    head = 4 + ((n + 31) // 32) * 4
    es = element_size(et)
    lay = _Layout(_pad8(head + es * n))
    struct.pack_into("<i", lay.buf, 0, n)
    for i, v in enumerate(values):
        if v is None:
            lay.null_bit(i, 4)
            lay.put_null(head + i * es, et)
        else:
            lay.put(head + i * es, v, et)
    return bytes(lay.buf)


def encode_binary_row(values: Sequence[Any], types: Sequence[DataType], row_kind: int = 0) -> bytes:
    """A serialized BinaryRow (as Paimon stores partitions, keys and statistics in manifests): the big-endian arity,
    then the row. ``values`` are Python values of the field types (``None`` for null): int, float, bool, str, bytes,
    ``decimal.Decimal``, ``datetime.date``, ``datetime.timedelta`` (TIME), :class:`Timestamp`, lists, dicts."""
    body = encode_row_body(values, types, row_kind)
    nb = null_bits_size(len(types))
    fixed = nb + 8 * len(types)
    slots = list(struct.unpack_from(f"<{len(types)}Q", body, nb))
    built: bytes = BINARY_ROW.build(
        {"arity": len(types), "row_kind": row_kind, "null_bits": body[1:nb], "slots": slots, "var_part": body[fixed:]}
    )
    return built


def encode_dv_entry(positions: Any, bits: int = 32) -> bytes:
    """One DV index entry as Paimon Java writes it: 32-bit (``BitmapDeletionVector``, positions <= 2^31 - 1) or
    64-bit (``Bitmap64DeletionVector``, the Iceberg blob)."""
    if bits == 64:
        return encode_deletion_vector_blob(positions)
    if bits != 32:
        raise UsageError(f"bits is 32 or 64, not {bits}")
    pos = normalize_positions(positions)
    if pos.size and int(pos[-1]) > MAX_POSITION32:
        raise UsageError(f"position {int(pos[-1])} exceeds 2^31 - 1, the limit of a 32-bit Paimon deletion vector")
    bitmap = encode32(pos.astype(np.uint32), sorted_unique=True)
    built: bytes = DV_ENTRY.build({"magic": MAGIC32, "bitmap": bitmap})
    return built


def encode_dv_index_file(vectors: Sequence[Any], bits: int = 32) -> tuple[bytes, list[tuple[int, int, int]]]:
    """A DV index file (version byte 1, then one entry per vector) and, per vector, the ``(offset, length,
    cardinality)`` its DeletionVectorMeta records: offset of the size field, length S (32-bit) or S + 8 (64-bit)."""
    entries = [encode_dv_entry(v, bits) for v in vectors]
    data: bytes = DV_INDEX_FILE.build({"entries": [DV_ENTRY.parse(e) for e in entries]})
    metas = []
    at = 1
    for e, v in zip(entries, vectors, strict=True):
        size = len(e) - 8
        metas.append((at, size if bits == 32 else size + 8, int(normalize_positions(v).size)))
        at += len(e)
    return data, metas


def write_dv_index_file(path: str | os.PathLike[str], vectors: Sequence[Any], bits: int = 32) -> list[tuple[int, int, int]]:
    """Write :func:`encode_dv_index_file`'s bytes atomically; return the metas."""
    data, metas = encode_dv_index_file(vectors, bits)
    write_atomic(path, data)
    return metas


def encode_file_index(columns: Mapping[str, Mapping[str, bytes | None]], *, version: int = 1) -> bytes:
    """A data-file index image (``FileIndexFormat``): {column: {index type: payload}}; a None payload is an empty
    index (start -1, length 0). Version 1 (``FileIndexFormatV1``: a head with int32 offsets, then the bodies) or 2
    (``FileIndexFormatV2``: the bodies, then a footer with int64 offsets, its length and the tail magic)."""
    if version not in (1, 2):
        raise UsageError(f"file index version is 1 or 2, not {version}")
    cols = [(name, list(idx.items())) for name, idx in columns.items()]
    head = 12
    if version == 1:
        head += 4 + 4 + 4
        for name, idx in cols:
            head += 2 + len(name.encode("utf-8")) + 4
            head += sum(2 + len(t.encode("utf-8")) + 8 for t, _ in idx)
    body = bytearray()
    out_cols = []
    for name, idx in cols:
        refs = []
        for t, payload in idx:
            if payload is None or (version == 1 and not payload):  # FileIndexFormatV1 wrote empty payloads as empty
                refs.append({"type": t, "start": -1, "length": 0})
            else:
                refs.append({"type": t, "start": head + len(body), "length": len(payload)})
                body += payload
        out_cols.append({"name": name, "indexes": refs})
    if version == 2:
        built: bytes = FILE_INDEX_V2.build({"body": bytes(body), "footer": {"columns": out_cols}})
        return built
    built = FILE_INDEX.build({"len_head": head, "columns": out_cols, "redundant": b"", "body": bytes(body)})
    return built


def write_file_index(path: str | os.PathLike[str], columns: Mapping[str, Mapping[str, bytes | None]], *, version: int = 1) -> None:
    """Write :func:`encode_file_index`'s bytes atomically (a ``<data file>.index`` file)."""
    write_atomic(path, encode_file_index(columns, version=version))


def encode_bloom_filter(values: Sequence[Any], t: DataType, *, items: int = 1_000_000, fpp: float = 0.1) -> bytes:
    """A ``bloom-filter`` payload as Paimon's writer builds it for a column of type ``t`` (options ``items`` and
    ``fpp``, defaults 1,000,000 and 0.1): ``BloomFilter64(items, fpp)`` sizes the bit set to
    ``-items * ln(fpp) / ln(2)^2`` bits rounded up to whole bytes and uses ``round(bits / items * ln 2)`` hash
    functions; every non-null value's ``FastHash`` sets its bits."""
    if not 0 < fpp < 1:
        raise UsageError(f"fpp is in (0, 1), not {fpp}")
    if items <= 0:
        raise UsageError(f"items is positive, not {items}")
    nb = int(-items * math.log(fpp) / (math.log(2) * math.log(2)))
    num_bits = nb + (8 - nb % 8)
    k = max(1, math.floor(num_bits / items * math.log(2) + 0.5))  # Java Math.round
    bits = bytearray(num_bits // 8)
    for v in values:
        if v is None:
            continue
        u = bloom_hash(index_value(v, t), t) & 0xFFFFFFFFFFFFFFFF
        h1, h2 = u & 0xFFFFFFFF, u >> 32
        for i in range(1, k + 1):
            c = (h1 + i * h2) & 0xFFFFFFFF
            if c >> 31:
                c = ~c & 0x7FFFFFFF  # Java: a negative int is flipped
            pos = c % num_bits
            bits[pos >> 3] |= 1 << (pos & 7)
    built: bytes = BLOOM_FILTER_PAYLOAD.build({"num_hash_functions": k, "bits": bytes(bits)})
    return built


def _bitmap32(rows: Sequence[int]) -> bytes:
    return encode32(np.asarray(rows, dtype=np.uint32), sorted_unique=True)


def encode_bitmap_index(values: Sequence[Any], t: DataType, *, version: int = 2, index_block_size: int = 16 * 1024) -> bytes:
    """A ``bitmap`` payload (``BitmapFileIndex`` version 1 or 2; ``index-block-size`` 16 KiB) of a column of type
    ``t`` whose rows hold ``values`` (None: null). Laid out as Paimon's writer does (a value in one row is stored as
    its row, -1 - row, without a bitmap; version 2 sorts the keys into index blocks), except for the order of the
    version 1 dictionary and of the bitmaps, which is the values' first appearance here (a Java ``HashMap``'s there)."""
    if version not in (1, 2):
        raise UsageError(f"bitmap index version is 1 or 2, not {version}")
    kind, _ = _key_codec(t)
    rows_of: dict[Any, list[int]] = {}
    nulls: list[int] = []
    for row, v in enumerate(values):
        if v is None:
            nulls.append(row)
        else:
            rows_of.setdefault(index_value(v, t), []).append(row)
    null_bytes = _bitmap32(nulls)
    offset = len(null_bytes) if len(nulls) > 1 else 0
    offsets: dict[Any, int] = {}
    bodies = [null_bytes] if len(nulls) > 1 else []
    for k, rows in rows_of.items():
        if len(rows) == 1:
            offsets[k] = -1 - rows[0]
        else:
            b = _bitmap32(rows)
            bodies.append(b)
            offsets[k] = offset
            offset += len(b)
    null_offset = -1 - nulls[0] if len(nulls) == 1 else 0
    doc: dict[str, Any] = {"version": version, "row_count": len(values), "num_values": len(rows_of), "has_null": bool(nulls),
                           "null_offset": null_offset, "null_length": len(null_bytes), "body": b"".join(bodies), "entries": None,
                           "blocks": None, "bitmap_body_offset": None, "index_blocks": None}
    if version == 1:
        doc["entries"] = [{"key": k, "offset": o} for k, o in offsets.items()]
    else:
        # BitmapFileIndexMetaV2: lengths from consecutive non-negative offsets (the null bitmap's first), the last
        # one up to the end of the bitmaps
        lengths: dict[Any, int] = {}
        last_key: Any = _NULL_KEY
        last_off = null_offset
        for k, o in offsets.items():
            if o >= 0:
                if last_off >= 0:
                    lengths[last_key] = o - last_off
                last_key, last_off = k, o
        lengths[last_key] = offset - last_off
        size = _key_size(kind)
        blocks: list[dict[str, Any]] = []
        used = 0
        for k in sorted(offsets, key=lambda x: _sort_key(x, t)):
            entry = {"key": k, "offset": offsets[k], "length": lengths.get(k, -1) if offsets[k] >= 0 else -1}
            need = 8 + size(k)
            if not blocks or used + need > index_block_size:
                start = blocks[-1]["offset"] + used if blocks else 0
                if 4 + need > index_block_size:
                    raise UsageError(f"a key of {need - 8} bytes does not fit an index block of {index_block_size} bytes")
                blocks.append({"key": k, "offset": start, "entries": []})
                used = 4
            blocks[-1]["entries"].append(entry)
            used += need
        doc["blocks"] = [{"key": b["key"], "offset": b["offset"]} for b in blocks]
        doc["index_blocks"] = [{"entries": b["entries"]} for b in blocks]
        doc["bitmap_body_offset"] = blocks[-1]["offset"] + used if blocks else 0
    built: bytes = bitmap_index_payload(bitmap_key(kind)).build(doc)
    return built


_NULL_KEY = object()


def _key_size(kind: str) -> Any:
    if kind == "string":
        return lambda k: 4 + len(k)
    if kind == "bool":
        return lambda k: 1
    n = struct.calcsize(kind)
    return lambda k: n


def encode_bsi_index(values: Sequence[Any], t: DataType) -> bytes:
    """A ``bsi`` payload (``BitSliceIndexBitmapFileIndex`` version 1) of a column of type ``t`` (integer types, DATE,
    TIME, TIMESTAMP, compact DECIMAL) whose rows hold ``values`` (None: null), as Paimon's writer builds it: the
    non-negative values and the magnitudes of the negative ones in two bit-sliced bitmaps, each with min 0 (the
    writer's statistics start from 0), its max and one slice per bit of the max."""
    keys = [None if v is None else int(index_value(v, t)) for v in values]
    if any(k == -(1 << 63) for k in keys):
        raise UsageError("Paimon's bit-sliced index cannot hold the smallest long (Math.abs overflows)")
    parts: list[dict[str, Any] | None] = []
    for sign in (1, -1):
        rows = [r for r, k in enumerate(keys) if k is not None and (k >= 0 if sign == 1 else k < 0)]
        mags = [abs(keys[r]) for r in rows]  # type: ignore[arg-type]
        top = max(mags, default=0)
        if not rows:
            parts.append(None)
            continue
        slices = [[r for r, m in zip(rows, mags, strict=True) if m >> i & 1] for i in range(top.bit_length())]
        parts.append({"min": 0, "max": top, "ebm": ROARING32.parse(_bitmap32(rows)),
                      "slices": [ROARING32.parse(_bitmap32(s)) for s in slices]})
    built: bytes = BSI_PAYLOAD.build({"row_count": len(keys), "has_positive": parts[0] is not None, "positive": parts[0],
                                      "has_negative": parts[1] is not None, "negative": parts[1]})
    return built
