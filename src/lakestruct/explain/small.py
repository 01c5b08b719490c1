"""Explaining the formats parsed as one structure: deletion-vector blobs and files, Roaring bitmaps,
Theta sketches (standalone, or as a Puffin blob).

Their layouts are sequential (each part's position follows from the parts before it), so the whole
structure is parsed, up to :data:`MAX_TREE_BYTES`; ``--range`` then limits what is shown. The
library's own reader runs too: it gives the named error of a broken structure (with its absolute
offset; the fields the debug parser read before the break are shown) and the decoded positions or
estimate shown under the structure.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import numpy as np
from kaitaistruct import KaitaiStream

from .. import deletes, roaring, sketches
from .._generated.debug.deletion_vector_file import DeletionVectorFile
from .._generated.debug.deletion_vector_v1 import DeletionVectorV1
from .._generated.debug.roaring32 import Roaring32
from .._generated.debug.roaring64 import Roaring64
from .._generated.debug.theta_compact import ThetaCompact
from ..errors import FormatError, LimitError
from .ks import Summaries, struct_nodes, summary
from .tree import Explanation, Node, show_list

__all__ = ["MAX_TREE_BYTES", "NOTE_MAX_POSITIONS", "ROOT_NAMES", "SUMMARIES", "explain_structure", "structure_nodes"]

#: Largest structure parsed into a tree in one piece (a DV blob, a Roaring bitmap, a sketch); a larger
#: one is shown as one field with a note. A 64 MiB bitmap is ~30 million fields.
MAX_TREE_BYTES = 64 << 20
#: Positions (of a DV or bitmap) decoded for the note under it; more are not listed.
NOTE_MAX_POSITIONS = 1 << 20

_KINDS = {0: "array", 1: "bitmap", 2: "run"}

SUMMARIES: Summaries = {
    "Roaring32": lambda o: f"{o.num_containers} containers" + (", run containers" if o.has_runs else ""),
    "Roaring32.Descriptor": lambda o: f"key {o.key}, cardinality {o.cardinality}",
    "Roaring32.Container": lambda o: f"key {o.key}: {_KINDS.get(o.kind, o.kind)} container, cardinality {o.cardinality}",
    "Roaring32.ArrayContainer": lambda o: f"{o.num_values} sorted values",
    "Roaring32.BitmapContainer": lambda o: "8 KiB bitmap",
    "Roaring32.RunContainer": lambda o: f"{o.num_runs} runs",
    "Roaring32.Run": lambda o: f"{o.start}..{o.start + o.length_minus_one}",
    "Roaring64": lambda o: f"{o.num_bitmaps} bitmaps",
    "Roaring64.Bucket": lambda o: f"key {o.key} (high 32 bits), {o.bitmap.num_containers} containers",
    "DeletionVectorV1": lambda o: f"deletion vector: {o.len_vector}-byte Roaring64, crc {o.crc:08x}",
    "DeletionVectorFile": lambda o: f"version {o.version}, {len(o.entries)} deletion vectors",
    "DeletionVectorFile.Entry": lambda o: f"{'64' if o.is_64 else '32'}-bit deletion vector, {o.len_body} bytes, crc {o.crc:08x}",
    "ThetaCompact": lambda o: f"compact Theta sketch, serial version {o.serial_version}",
}


def _summaries() -> Summaries:
    return SUMMARIES


def _kaitai(fmt: str) -> Callable[[KaitaiStream], Any]:
    """The debug-mode parser of a format's root type."""
    parsers: dict[str, Callable[[KaitaiStream], Any]] = {
        "dv-blob": DeletionVectorV1,
        "dv-file": DeletionVectorFile,
        "roaring32": Roaring32,
        "roaring64": Roaring64,
        "theta": ThetaCompact,
    }
    return parsers[fmt]


def _check(fmt: str, data: bytes, base: int) -> tuple[list[str], FormatError | None]:
    """The library's reading of the structure: notes (positions, estimate) and its error, if any."""
    try:
        if fmt == "dv-blob":
            dv = deletes.DeletionVector.from_blob(data, base_offset=base, max_positions=NOTE_MAX_POSITIONS)
            return [f"deleted positions: {show_list(dv.positions()[:16].tolist(), dv.cardinality)}"], None
        if fmt == "dv-file":
            entries = deletes.read_paimon_deletion_vectors(data, max_positions=NOTE_MAX_POSITIONS)
            return [
                f"vector {i} ({e.bits}-bit): deleted positions {show_list(e.vector.positions()[:16].tolist(), e.vector.cardinality)}"
                for i, e in enumerate(entries[:16])
            ], None
        if fmt in ("roaring32", "roaring64"):
            fn = roaring.decode_roaring32 if fmt == "roaring32" else roaring.decode_roaring64
            values: np.ndarray = fn(data, base_offset=base, max_positions=NOTE_MAX_POSITIONS)
            return [f"values: {show_list(values[:16].tolist(), int(values.size))}"], None
        if fmt == "theta":
            sk = sketches.ThetaSketch.from_bytes(data, seed=None)
            return [f"{sk.num_retained} hashes retained, theta {sk.theta:.6g}, estimate {sk.estimate():.6g}"], None
    except LimitError as e:
        if e.rule == "roaring.max-positions":
            return [f"more than {NOTE_MAX_POSITIONS} positions: not listed"], None
        return [], e
    except FormatError as e:
        return [], e
    raise ValueError(fmt)


def structure_nodes(ex: Explanation, fmt: str, data: bytes, base: int, parent: Node) -> None:
    """Parse ``data`` (at absolute offset ``base``) as ``fmt`` and add its fields under ``parent``;
    errors go to ``ex`` (the library's, which name the absolute offset, before the parser's)."""
    if len(data) > MAX_TREE_BYTES:
        parent.notes.append(f"{len(data)} bytes: larger than explain parses into fields ({MAX_TREE_BYTES} bytes); not parsed")
        return
    cls = _kaitai(fmt)
    buf = io.BytesIO(data)
    obj = cls(KaitaiStream(buf))
    stopped: str | None = None
    try:
        obj._read()
    except RecursionError:
        stopped = "structure nests too deeply"
    except Exception as e:  # the generated parser's own errors: the library's reading below names the rule
        stopped = f"{type(e).__name__}: {e}"
    try:
        parent.children.extend(struct_nodes(obj, base, _summaries()))
    except RecursionError:  # pragma: no cover - the parse above fails first
        pass
    if not parent.value:
        parent.value = summary(obj, _summaries())
    notes, err = _check(fmt, data, base)
    parent.notes.extend(notes)
    if err is not None:
        ex.error(err, parent)
    elif stopped is not None:  # the spec refused what the reader accepts: say so (the fields read so far are shown)
        parent.notes.append(f"the Kaitai spec stopped at offset {base + buf.tell()}: {stopped}")


#: the top-level field's name for each format
ROOT_NAMES = {"dv-blob": "deletion_vector", "dv-file": "deletion_vector_file", "roaring32": "roaring32", "roaring64": "roaring64",
              "theta": "theta_sketch"}


def explain_structure(ex: Explanation, fmt: str, fetch: Callable[[int, int], bytes]) -> None:
    """A whole file that is one structure (``dv-blob``, ``dv-file``, ``roaring32``, ``roaring64``, ``theta``)."""
    node = Node(ROOT_NAMES[fmt], 0, ex.size, kind=fmt)
    ex.nodes.append(node)
    if ex.size > MAX_TREE_BYTES:
        node.notes.append(f"{ex.size} bytes: larger than explain parses into fields ({MAX_TREE_BYTES} bytes); not parsed")
        return
    structure_nodes(ex, fmt, fetch(0, ex.size), 0, node)
