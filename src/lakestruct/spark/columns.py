"""Arrow arrays from Python lists without ``pa.array``: the sources' rows become columns here.

``pa.array`` of a Python list (or of a NumPy array) first asks pyarrow's pandas shim whether the object is a pandas
object, and that imports pandas (0.5 s of CPU, once per process: per Spark Python worker, and per plain loop). The
arrays here are assembled from NumPy buffers with :meth:`pyarrow.Array.from_buffers`, which never asks. For the types
:func:`supported` accepts, :func:`array` gives the array ``pa.array(values, type)`` gives (``None`` is null; lists
may be lists, tuples or NumPy arrays; maps lists of (key, value) pairs or dicts); :func:`batch` gives
``pa.RecordBatch.from_pylist``'s batch for dict rows.

Imports NumPy and pyarrow only (and the compiled twin of the scalar builders, ``spark/_chunks_c``, when it is built:
``int_column``, ``float_column``, ``bool_column`` and ``str_column`` fill the Arrow buffers from a list in one pass; on
any value they do not take they return None and the NumPy builders here decide).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

__all__ = ["array", "batch", "numeric", "repeat_strings", "supported"]

_NUMERIC = {
    pa.int8(): np.int8, pa.int16(): np.int16, pa.int32(): np.int32, pa.int64(): np.int64,
    pa.uint8(): np.uint8, pa.uint16(): np.uint16, pa.uint32(): np.uint32, pa.uint64(): np.uint64,
    pa.float32(): np.float32, pa.float64(): np.float64,
}  # fmt: skip
#: offsets of string, binary, list and map arrays are int32: their totals must stay below this
_MAX_OFFSET = 2**31 - 1


def supported(t: pa.DataType) -> bool:
    """Whether :func:`array` builds columns of type ``t``."""
    if t in _NUMERIC or t in (pa.string(), pa.binary(), pa.bool_()):
        return True
    if pa.types.is_list(t):
        return supported(t.value_type)
    if pa.types.is_map(t):
        return supported(t.key_type) and supported(t.item_type)
    return False


def _nulls(values: Sequence[Any], scalar: bool) -> int:
    if scalar and isinstance(values, (list, tuple)):
        return values.count(None)  # in C (sequences would be compared elementwise: NumPy arrays)
    return sum(v is None for v in values)


def _validity(values: Sequence[Any], nulls: int, scalar: bool = True) -> Any:
    """The validity bitmap of ``values`` (None when nothing is null)."""
    if not nulls:
        return None
    if scalar:  # a 1-d object array, compared in C
        valid = np.array(values, dtype=object) != None  # noqa: E711 - elementwise
    else:  # sequences would become a 2-d object array
        valid = np.fromiter((v is not None for v in values), dtype=np.bool_, count=len(values))
    return pa.py_buffer(np.packbits(valid, bitorder="little"))


def numeric(data: Any, t: pa.DataType, validity: Any = None, nulls: int = 0) -> pa.Array:
    """A column of type ``t`` over a 1-d NumPy array of the matching dtype (copied only when not contiguous)."""
    return pa.Array.from_buffers(t, len(data), [validity, pa.py_buffer(np.ascontiguousarray(data))], null_count=nulls)


def _offsets(lengths: Any, what: str) -> Any:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if offsets[-1] > _MAX_OFFSET:
        raise OverflowError(f"{what}: {offsets[-1]:,} do not fit a 32-bit offset array")
    return pa.py_buffer(offsets.astype(np.int32))


def _strings(values: Sequence[Any], nulls: int, t: pa.DataType) -> pa.Array:
    n = len(values)
    items: Sequence[Any] = [b"" if v is None else v for v in values] if t == pa.binary() else [v or "" for v in values] if nulls else values
    if t == pa.binary():
        data = b"".join(items)
        lengths = np.fromiter(map(len, items), dtype=np.int64, count=n)
    else:
        joined = "".join(items)
        if joined.isascii():
            data = joined.encode("ascii")
            lengths = np.fromiter(map(len, items), dtype=np.int64, count=n)
        else:
            encoded: list[bytes] = [v.encode("utf-8") for v in items]
            data = b"".join(encoded)
            lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=n)
    return pa.Array.from_buffers(t, n, [_validity(values, nulls), _offsets(lengths, "string bytes"), pa.py_buffer(data)],
                                 null_count=nulls)


def _entries(m: Any) -> Any:
    return m.items() if isinstance(m, dict) else m


def _twin() -> Any:
    """The compiled module ``spark/_chunks_c`` (the ``chunks`` twin), or None: not built, forced off
    (``LAKESTRUCT_PURE=chunks``) or a big-endian machine (it reads and writes buffers in the machine's byte order)."""
    global _TWIN
    if _TWIN is False:
        _TWIN = None
        import sys

        from .._twins import forced_pure

        if not forced_pure("chunks") and sys.byteorder == "little":
            try:
                from . import _chunks_c  # type: ignore[attr-defined,unused-ignore]

                _TWIN = _chunks_c
            except ImportError:
                pass
    return _TWIN


_TWIN: Any = False  # not looked up yet
_INT_WIDTH = {pa.int64(): 8, pa.int32(): 4}


def _compiled(values: list[Any], t: pa.DataType) -> pa.Array | None:
    """The compiled twin's array of ``values`` for int32/int64/float64/bool/string/binary columns, or None."""
    c = _twin()
    if c is None:
        return None
    n = len(values)
    width = _INT_WIDTH.get(t)
    if width is not None:
        got = c.int_column(values, width)
    elif t == pa.float64():
        got = c.float_column(values)
    elif t == pa.bool_():
        got = c.bool_column(values)
    elif t == pa.string() or t == pa.binary():
        s = c.str_column(values, t == pa.binary())
        if s is None:
            return None
        offsets, data, valid, nulls = s
        if nulls == n and n:
            return pa.nulls(n, t)
        return pa.Array.from_buffers(t, n, [None if valid is None else pa.py_buffer(valid), pa.py_buffer(offsets),
                                            pa.py_buffer(data)], null_count=nulls)
    else:
        return None
    if got is None:
        return None
    data, valid, nulls = got
    if nulls == n and n:
        return pa.nulls(n, t)
    return pa.Array.from_buffers(t, n, [None if valid is None else pa.py_buffer(valid), pa.py_buffer(data)], null_count=nulls)


def array(values: Sequence[Any], t: pa.DataType) -> pa.Array:
    """``pa.array(values, t)`` for the types :func:`supported` accepts, without importing pandas."""
    if type(values) is list:
        fast = _compiled(values, t)
        if fast is not None:
            return fast
    n = len(values)
    nulls = _nulls(values, not (pa.types.is_list(t) or pa.types.is_map(t)))
    if nulls == n and n:
        return pa.nulls(n, t)
    dtype = _NUMERIC.get(t)
    if dtype is not None:
        data = np.array([0 if v is None else v for v in values] if nulls else values, dtype=dtype)
        if n and data.shape != (n,):
            raise TypeError(f"a {t} column holds sequences")
        return numeric(data, t, _validity(values, nulls), nulls)
    if t == pa.string() or t == pa.binary():
        return _strings(values, nulls, t)
    if t == pa.bool_():
        bits = np.array([False if v is None else v for v in values] if nulls else values, dtype=np.bool_)
        return pa.Array.from_buffers(t, n, [_validity(values, nulls), pa.py_buffer(np.packbits(bits, bitorder="little"))],
                                     null_count=nulls)
    if pa.types.is_list(t):
        present = [v for v in values if v is not None] if nulls else values
        lengths = np.fromiter((0 if v is None else len(v) for v in values), dtype=np.int64, count=n)
        vt = t.value_type
        if present and vt in _NUMERIC and all(isinstance(v, np.ndarray) and v.ndim == 1 for v in present):
            child = numeric(np.concatenate(present).astype(_NUMERIC[vt], copy=False), vt)
        else:
            child = array(list(itertools.chain.from_iterable(present)), vt)
        return pa.Array.from_buffers(t, n, [_validity(values, nulls, False), _offsets(lengths, "list items")], null_count=nulls,
                                     children=[child])
    if pa.types.is_map(t):
        pairs = [list(_entries(v)) for v in values] if nulls == 0 else [[] if v is None else list(_entries(v)) for v in values]
        lengths = np.fromiter(map(len, pairs), dtype=np.int64, count=n)
        flat = list(itertools.chain.from_iterable(pairs))
        keys = array([k for k, _ in flat], t.key_type)
        items = array([v for _, v in flat], t.item_type)
        entries = pa.StructArray.from_arrays([keys, items], fields=[t.key_field, t.item_field])
        return pa.Array.from_buffers(t, n, [_validity(values, nulls, False), _offsets(lengths, "map entries")], null_count=nulls,
                                     children=[entries])
    raise TypeError(f"no column builder for {t}")


def batch(rows: Sequence[dict[str, Any]], schema: pa.Schema) -> pa.RecordBatch:
    """``pa.RecordBatch.from_pylist(rows, schema=schema)``: a missing key is null, other keys are ignored. Without
    pandas when every column type is :func:`supported`."""
    if not all(supported(f.type) for f in schema):
        return pa.RecordBatch.from_pylist(list(rows), schema=schema)
    return pa.RecordBatch.from_arrays([array([r.get(f.name) for r in rows], f.type) for f in schema], schema=schema)


def repeat_strings(values: Sequence[str], counts: Sequence[int]) -> pa.Array:
    """A string column holding ``values[i]`` ``counts[i]`` times, in order (the ``file`` column of a batch)."""
    encoded = [v.encode("utf-8") for v in values]
    reps = np.asarray(counts, dtype=np.int64)
    lengths = np.repeat(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)), reps)
    data = b"".join(e * int(c) for e, c in zip(encoded, counts, strict=True))
    n = int(reps.sum())
    return pa.Array.from_buffers(pa.string(), n, [None, _offsets(lengths, "string bytes"), pa.py_buffer(data)], null_count=0)
