"""Writing Puffin files that follow the spec to the letter.

Blob bytes stream to a temporary file next to the target as they are added; the
footer is built from the construct spec (:mod:`lakestruct.puffin.spec`) on
:meth:`PuffinWriter.close`, and only then is the file renamed into place. An
exception inside ``with PuffinWriter(...)`` leaves no file behind.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from typing import IO, Any

from .. import codecs
from .._atomic import AtomicFile
from .._version import __version__
from ..errors import UsageError
from ..source import _is_url
from .decode import blob_type
from .model import DELETION_VECTOR_V1, MAGIC, BlobMetadata, PuffinFile
from .spec import build_footer

__all__ = ["PuffinWriter", "footer_payload_json"]

_INT64 = (-(2**63), 2**63 - 1)


def footer_payload_json(meta: PuffinFile) -> bytes:
    """The footer JSON as Iceberg Java writes it: compact, UTF-8, spec key order."""
    return json.dumps(meta.to_json(), separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _check_str_map(m: Mapping[str, str] | None, what: str) -> dict[str, str]:
    out = dict(m or {})
    for k, v in out.items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise UsageError(f"{what} must map strings to strings; got {k!r}: {v!r}")
    return out


class PuffinWriter:
    """Write a Puffin file atomically.

    >>> with PuffinWriter("out.puffin", created_by="me 1.0") as w:   # doctest: +SKIP
    ...     w.add_blob("custom-type", b"...", fields=[1], codec="zstd")
    """

    def __init__(
        self,
        target: str | os.PathLike[str] | IO[bytes],
        *,
        created_by: str | None = None,
        properties: Mapping[str, str] | None = None,
        compress_footer: bool = False,
    ) -> None:
        #: File properties, editable until :meth:`close` (clear it to write a footer with none).
        self.properties = _check_str_map(properties, "properties")
        if created_by is not None:
            self.properties["created-by"] = created_by
        self.properties.setdefault("created-by", f"lakestruct {__version__}")
        self.compress_footer = compress_footer
        self._blobs: list[BlobMetadata] = []
        self._atomic: AtomicFile | None = None
        self._upload_to: str | None = None
        if isinstance(target, (str, os.PathLike)):
            path = os.fspath(target)
            if _is_url(path) and not path.startswith("file://"):
                # Remote stores: write locally, then upload in one piece on close.
                import tempfile

                fd, tmp = tempfile.mkstemp(suffix=".puffin")
                os.close(fd)
                self._upload_to = path
                path = tmp
            elif path.startswith("file://"):
                path = path[len("file://") :]
            self._atomic = AtomicFile(path)
            self._out: IO[bytes] = self._atomic.file
        else:
            self._out = target
        self._out.write(MAGIC)
        self._pos = len(MAGIC)
        self._closed = False
        self.metadata: PuffinFile | None = None

    # -- adding blobs ------------------------------------------------------------------
    def add_blob(
        self,
        type: str,
        data: bytes,
        *,
        fields: Iterable[int] = (),
        snapshot_id: int = -1,
        sequence_number: int = -1,
        codec: str | None = None,
        properties: Mapping[str, str] | None = None,
    ) -> BlobMetadata:
        """Append one blob; ``codec`` is ``None`` (stored as is), ``"lz4"`` or ``"zstd"``."""
        self._check_open()
        if not isinstance(type, str) or not type:
            raise UsageError("blob type must be a non-empty string")
        field_ids = tuple(fields)
        for f in field_ids:
            if isinstance(f, bool) or not isinstance(f, int) or not -(2**31) <= f < 2**31:
                raise UsageError(f"field ids must be 32-bit ints; got {f!r}")
        for name, v in (("snapshot_id", snapshot_id), ("sequence_number", sequence_number)):
            if isinstance(v, bool) or not isinstance(v, int) or not _INT64[0] <= v <= _INT64[1]:
                raise UsageError(f"{name} must be a 64-bit int; got {v!r}")
        if codec is not None and codec not in codecs.CODECS:
            raise UsageError(f"unknown codec {codec!r}; use None, 'lz4' or 'zstd'")
        stored = codecs.compress(codec, bytes(data)) if codec else bytes(data)
        blob = BlobMetadata(
            type=type,
            fields=field_ids,
            snapshot_id=snapshot_id,
            sequence_number=sequence_number,
            offset=self._pos,
            length=len(stored),
            compression_codec=codec,
            properties=_check_str_map(properties, "blob properties"),
        )
        self._out.write(stored)
        self._pos += len(stored)
        self._blobs.append(blob)
        return blob

    def add_deletion_vector(
        self,
        positions: Any,
        referenced_data_file: str,
        *,
        properties: Mapping[str, str] | None = None,
    ) -> BlobMetadata:
        """Append a ``deletion-vector-v1`` blob exactly as Iceberg Java writes it.

        ``positions``: any iterable of row positions, a NumPy array, a ``pyroaring.BitMap64``
        or a :class:`~lakestruct.deletes.DeletionVector`. The blob bytes, ``fields``
        (``_pos``), ``-1`` ids and the ``referenced-data-file``/``cardinality`` properties
        are Iceberg Java's; extra ``properties`` are added after them.
        """
        bt = blob_type(DELETION_VECTOR_V1)  # registered by lakestruct.deletes: Puffin knows no blob type
        if bt is None or bt.encode is None:
            raise UsageError(f"no writer is registered for {DELETION_VECTOR_V1} blobs")
        data, fields, props = bt.encode(positions, referenced_data_file, _check_str_map(properties, "blob properties"))
        return self.add_blob(DELETION_VECTOR_V1, data, fields=fields, properties=props)

    def add_raw_blob(self, blob: BlobMetadata, stored: bytes) -> BlobMetadata:
        """Copy a blob exactly as stored elsewhere (``PuffinReader.read_blob(raw=True)``)."""
        self._check_open()
        if len(stored) != blob.length:
            raise UsageError(f"blob metadata says {blob.length} bytes but {len(stored)} were given")
        moved = BlobMetadata(
            blob.type, blob.fields, blob.snapshot_id, blob.sequence_number, self._pos, blob.length,
            blob.compression_codec, blob.properties,
        )
        self._out.write(stored)
        self._pos += len(stored)
        self._blobs.append(moved)
        return moved

    # -- finishing ---------------------------------------------------------------------
    def close(self) -> PuffinFile:
        """Write the footer and move the file into place; returns the footer model."""
        if self._closed:
            assert self.metadata is not None
            return self.metadata
        meta = PuffinFile(tuple(self._blobs), self.properties)
        payload = footer_payload_json(meta)
        if self.compress_footer:
            payload = codecs.compress("lz4", payload)
        if len(payload) > 2**31 - 1:
            raise UsageError("footer payload exceeds the 2 GiB a signed 4-byte size can describe")
        try:
            self._out.write(build_footer(payload, self.compress_footer))
            if self._atomic is not None:
                self._atomic.commit()
                if self._upload_to is not None:
                    self._upload(self._atomic.path, self._upload_to)
            else:
                self._out.flush()
        except BaseException:
            self.abort()
            raise
        self._closed = True
        self.metadata = meta
        return meta

    @staticmethod
    def _upload(local: str, url: str) -> None:
        import fsspec

        try:
            fs, path = fsspec.core.url_to_fs(url)
            fs.put_file(local, path)
        finally:
            os.unlink(local)

    def abort(self) -> None:
        """Discard everything written; the target is left untouched."""
        self._closed = True
        if self._atomic is not None:
            self._atomic.abort()
            if self._upload_to is not None:
                try:
                    os.unlink(self._atomic.path)
                except FileNotFoundError:
                    pass

    def _check_open(self) -> None:
        if self._closed:
            raise UsageError("the writer is closed")

    def __enter__(self) -> PuffinWriter:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()

