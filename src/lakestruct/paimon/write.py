"""Writing what Paimon writes: serialized BinaryRows (``BinaryRowWriter`` + ``serializeBinaryRow``), deletion-vector
index files of either kind (byte for byte as Paimon Java: 32-bit ``BitmapDeletionVector`` entries hold the
``runOptimize()``-d RoaringBitmap, 64-bit ``Bitmap64DeletionVector`` entries the Iceberg ``deletion-vector-v1``
blob), and data-file index containers (``FileIndexFormat``). The containers are built with the construct specs of
:mod:`lakestruct.paimon.spec`.
"""

from __future__ import annotations

import datetime
import os
import struct
from collections.abc import Mapping, Sequence
from decimal import Context, Decimal
from typing import Any

import numpy as np

from .._atomic import write_atomic
from ..deletes import encode_deletion_vector_blob
from ..errors import UsageError
from ..roaring.write import encode32, normalize_positions
from .binrow import Timestamp, element_size, null_bits_size
from .spec import BINARY_ROW, DV_ENTRY, DV_INDEX_FILE, FILE_INDEX, MAGIC32
from .types import DataType

__all__ = ["encode_binary_row", "encode_dv_entry", "encode_dv_index_file", "encode_file_index", "write_dv_index_file"]

#: Largest position of a 32-bit Paimon deletion vector (``RoaringBitmap32.MAX_VALUE``).
MAX_POSITION32 = 2**31 - 1
_EPOCH = datetime.date(1970, 1, 1)
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
            ms = int(v.total_seconds() * 1000) if isinstance(v, datetime.timedelta) else int(v)
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


def encode_file_index(columns: Mapping[str, Mapping[str, bytes]]) -> bytes:
    """A data-file index image (``FileIndexFormat.Writer``): {column: {index type: payload}}; an empty payload is
    recorded as start -1, length 0."""
    cols = [(name, list(idx.items())) for name, idx in columns.items()]
    head = 8 + 4 + 4 + 4 + 4
    for name, idx in cols:
        head += 2 + len(name.encode("utf-8")) + 4
        head += sum(2 + len(t.encode("utf-8")) + 8 for t, _ in idx)
    body = bytearray()
    out_cols = []
    for name, idx in cols:
        refs = []
        for t, payload in idx:
            if payload:
                refs.append({"type": t, "start": head + len(body), "length": len(payload)})
                body += payload
            else:
                refs.append({"type": t, "start": -1, "length": 0})
        out_cols.append({"name": name, "indexes": refs})
    built: bytes = FILE_INDEX.build({"len_head": head, "columns": out_cols, "redundant": b"", "body": bytes(body)})
    return built
