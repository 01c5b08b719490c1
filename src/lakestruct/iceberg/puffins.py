"""The deletion vectors of a table's Puffin files, each file's footer read and parsed once.

A manifest entry names a DV by its Puffin file and ``content_offset`` / ``content_size_in_bytes``. Planning a table
reads many DVs of the same Puffin file (one DELETE writes one Puffin file holding a DV per data file it touched):
:class:`PuffinBlobs` parses each file's footer once (header magic, blob ranges and metadata checked as
:func:`lakestruct.puffin.open` does), indexes its blobs by (offset, length), and reads each DV by its range, keeping a
few sources open (least recently used closed first). What it keeps is the footer metadata of the Puffin files read:
in proportion to the DVs that the manifests read name.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from .. import puffin
from ..deletes.model import DeletionVector
from ..deletes.read import check_blob_metadata, decode_within_cardinality
from ..errors import FormatError, LakestructError
from ..puffin.model import DELETION_VECTOR_V1, BlobMetadata, FooterInfo
from ..source import ByteSource, open_source

__all__ = ["PuffinBlobs"]


@dataclass(frozen=True)
class _Footer:
    footer: FooterInfo
    blobs: tuple[BlobMetadata, ...]
    by_range: dict[tuple[int, int], int]  #: (offset, length) -> index of the first blob there


class PuffinBlobs:
    """Footers of Puffin files (by the path they are read at), parsed once each; deletion vectors read by range.

    Use as a context manager (or call :meth:`close`) to close the sources kept open."""

    def __init__(self, max_open: int = 8) -> None:
        self.max_open = max(1, max_open)
        self._footers: dict[str, _Footer | LakestructError] = {}
        self._open: OrderedDict[str, ByteSource] = OrderedDict()

    def __enter__(self) -> PuffinBlobs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        while self._open:
            _, src = self._open.popitem(last=False)
            src.close()

    def _source(self, path: str) -> ByteSource:
        src = self._open.get(path)
        if src is not None:
            self._open.move_to_end(path)
            return src
        src = open_source(path)
        self._open[path] = src
        if len(self._open) > self.max_open:
            _, old = self._open.popitem(last=False)
            old.close()
        return src

    def footer(self, path: str) -> _Footer:
        """The footer of the Puffin file at ``path`` (parsed, header magic checked). A file that cannot be read
        raises its error, and raises it again on every later call without being read again."""
        got = self._footers.get(path)
        if isinstance(got, _Footer):
            return got
        if got is not None:
            raise got.with_traceback(None)
        try:
            src = self._source(path)
            pf = puffin.PuffinReader(src)  # the footer parsed and checked; the source stays open here (the reader is not closed)
            pf.check_header()
        except LakestructError as e:
            gone = self._open.pop(path, None)
            if gone is not None:
                gone.close()
            self._footers[path] = e
            raise
        by_range: dict[tuple[int, int], int] = {}
        for i, b in enumerate(pf.blobs):
            by_range.setdefault((b.offset, b.length), i)
        ft = self._footers[path] = _Footer(pf.footer, pf.blobs, by_range)
        return ft

    def find(self, path: str, offset: int, length: int) -> tuple[int, BlobMetadata] | None:
        """(index, metadata) of the blob occupying exactly ``[offset, offset + length)``, or None."""
        ft = self.footer(path)
        i = ft.by_range.get((offset, length))
        return None if i is None else (i, ft.blobs[i])

    def dv_at(self, path: str, index: int) -> DeletionVector:
        """Blob ``index`` as a deletion vector: its footer metadata rules, then the blob decoded within its
        ``cardinality`` property (what :func:`lakestruct.deletes.read.read_dv_blob` checks)."""
        ft = self.footer(path)
        blob = ft.blobs[index]
        where = ft.footer.payload_offset
        ref, card = check_blob_metadata(blob, index=index, where=where)
        raw = self._source(path).read_exact(blob.offset, blob.length, rule="puffin.blob-range", path=f"blobs[{index}]")
        pos = decode_within_cardinality(raw, card, blob_offset=blob.offset, index=index, where=where)
        return DeletionVector(pos, ref, blob.offset, blob.length, blob.properties)

    def read_dv(self, path: str, offset: int, length: int) -> DeletionVector:
        """The DV a manifest entry points at: the range must be exactly one ``deletion-vector-v1`` blob of the footer
        (``deletion-vector.manifest-range``), as :func:`lakestruct.deletes.read_deletion_vector` requires."""
        ft = self.footer(path)
        i = ft.by_range.get((offset, length))
        if i is not None and ft.blobs[i].type != DELETION_VECTOR_V1:
            i = next((j for j, b in enumerate(ft.blobs) if b.offset == offset and b.length == length and b.type == DELETION_VECTOR_V1),
                     None)
        if i is None:
            shown = ", ".join(f"{x.type}@{x.offset}+{x.length}" for x in ft.blobs[:20]) or "none"
            more = f" and {len(ft.blobs) - 20} more" if len(ft.blobs) > 20 else ""
            raise FormatError(f"no deletion-vector-v1 blob of the Puffin footer occupies offset {offset} length {length} "
                              f"(blobs: {shown}{more})", rule="deletion-vector.manifest-range", path="footer.payload.blobs",
                              offset=offset)
        return self.dv_at(path, i)
