"""Atomic output: a file appears complete under its name, or not at all."""

from __future__ import annotations

import os
import tempfile
from typing import IO

__all__ = ["AtomicFile", "write_atomic"]


class AtomicFile:
    """A temporary file beside ``path``; :meth:`commit` fsyncs and renames it into place,
    :meth:`abort` removes it. The target is never seen half-written."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        directory = os.path.dirname(os.path.abspath(self.path))
        fd, self.tmp_path = tempfile.mkstemp(prefix=f".{os.path.basename(self.path)}.", suffix=".tmp", dir=directory)
        self.file: IO[bytes] = os.fdopen(fd, "wb")
        self.done = False

    def commit(self) -> None:
        if self.done:
            return
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        os.replace(self.tmp_path, self.path)
        self.done = True
        try:  # make the rename itself durable
            dfd = os.open(os.path.dirname(os.path.abspath(self.path)), os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(dfd)
        except OSError:
            pass
        finally:
            os.close(dfd)

    def abort(self) -> None:
        if self.done:
            return
        self.done = True
        self.file.close()
        try:
            os.unlink(self.tmp_path)
        except FileNotFoundError:
            pass


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` through an :class:`AtomicFile`: the whole file appears, or none of it."""
    out = AtomicFile(path)
    try:
        out.file.write(data)
        out.commit()
    finally:
        out.abort()
