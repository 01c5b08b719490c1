"""Running generated Kaitai parsers and turning their exceptions into lakestruct errors.

Validation failures are mapped through ``_generated._rules.RULES``, which
``make gen`` extracts from the specs: each ``valid:``/``contents:`` attribute
names its rule (``-lakestruct-rule``), its field path and its width, so the
offset reported is where the offending field starts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import kaitaistruct

from ._generated._rules import RULES
from .errors import FormatError, MagicError, TruncatedError

__all__ = ["kaitai_call"]

T = TypeVar("T")

#: kaitaistruct checks reads of this size against the stream size before reading; smaller
#: reads are attempted, and a short one consumes the bytes that were there.
_RUNTIME_PRECHECK = 8 * 1024 * 1024


class Tellable(Protocol):
    def tell(self) -> int: ...


def _lookup(spec: str, src_path: str | None) -> tuple[str, str, int | None] | None:
    if src_path is None:
        return None
    tables: dict[str, dict[str, tuple[str, str, int | None]]] = RULES
    hit = tables.get(spec, {}).get(src_path)
    if hit is not None:
        return hit
    for table in tables.values():  # an imported spec raised it
        if src_path in table:
            return table[src_path]
    return None


def kaitai_call(spec: str, reader: Tellable | None, fn: Callable[[], T], *, path: str = "", root: str = "") -> T:
    """Run ``fn`` (which drives a generated parser) and translate Kaitai errors.

    ``reader`` is the stream the parser reads from, used to report the offset of
    an end-of-stream error; ``path`` names the structure being parsed; ``root``, when
    the spec's root type sits somewhere inside a larger structure (a Thrift struct in a
    Parquet file), prefixes the field paths of the spec's rules.
    """
    try:
        return fn()
    except kaitaistruct.ValidationFailedError as e:
        hit = _lookup(spec, e.src_path)
        field, rule, width = hit if hit else (path or str(e.src_path), f"{spec}.valid", None)
        if hit and root:
            field = f"{root}.{field}"
        offset: int | None = None
        if e.io is not None:
            offset = e.io.pos()
            if width is not None:
                offset -= width
            elif getattr(e.io, "bits_left", 0) > 0:  # a bit field: report the byte holding it
                offset -= 1
        msg = validation_message(e)
        cls = MagicError if isinstance(e.expected if isinstance(e, kaitaistruct.ValidationNotEqualError) else None, bytes) else FormatError
        raise cls(msg, rule=rule, path=field, offset=offset) from None
    except kaitaistruct.EndOfStreamError as e:
        offset = reader.tell() if reader is not None else None
        if offset is not None and e.bytes_needed < _RUNTIME_PRECHECK:
            offset -= e.bytes_available  # report where the read that ran out started
        raise TruncatedError(
            f"input ends early: needs {e.bytes_needed} more bytes, {e.bytes_available} available",
            rule=f"{spec}.truncated",
            path=path or spec,
            offset=offset,
        ) from None
    except kaitaistruct.KaitaiStructError as e:
        raise FormatError(str(e), rule=f"{spec}.structure", path=path or spec, offset=reader.tell() if reader else None) from None
    except UnicodeDecodeError as e:
        raise FormatError(f"not valid UTF-8: {e.reason}", rule=f"{spec}.utf8", path=path or spec) from None


def validation_message(e: kaitaistruct.ValidationFailedError) -> str:
    """What a Kaitai ``valid:`` failure says, in words (``expected 50 41 52 31 ('PAR1'), found ...``)."""
    actual = getattr(e, "actual", None)
    if isinstance(e, kaitaistruct.ValidationNotEqualError):
        return f"expected {_show(e.expected)}, found {_show(actual)}"
    if isinstance(e, kaitaistruct.ValidationLessThanError):
        return f"{_show(actual)} is below the minimum {_show(e.min)}"
    if isinstance(e, kaitaistruct.ValidationGreaterThanError):
        return f"{_show(actual)} is above the maximum {_show(e.max)}"
    return f"value {_show(actual)} is not allowed"


def _show(v: object) -> str:
    if isinstance(v, bytes | bytearray):
        shown = bytes(v[:32])
        text = shown.decode("latin-1")
        more = " ..." if len(v) > 32 else ""
        return f"{shown.hex(' ')}{more} ({text!r})" if text.isprintable() else shown.hex(" ") + more
    return repr(v)
