"""Atomic output: a file appears complete under its name, or not at all."""

from __future__ import annotations

import os
import tempfile
from typing import IO

__all__ = ["AtomicFile", "write_atomic"]


def _umask() -> int:
    """The process's umask, read without changing it where Linux tells it (``/proc/self/status``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # elsewhere: set and restore (the only portable way to read it)
    os.umask(mask)
    return mask


def _output_mode(path: str) -> int:
    """The permission bits a plain ``open(path, "w")`` leaves: those of the file it replaces, or 0666 minus the umask."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        return 0o666 & ~_umask()


class AtomicFile:
    """A temporary file beside ``path``; :meth:`commit` fsyncs and renames it into place,
    :meth:`abort` removes it. The target is never seen half-written."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        directory = os.path.dirname(os.path.abspath(self.path))
        fd, self.tmp_path = tempfile.mkstemp(prefix=f".{os.path.basename(self.path)}.", suffix=".tmp", dir=directory)
        try:  # mkstemp creates 0600; the file gets the mode open() would give it (an existing file's, else 0666 - umask)
            os.fchmod(fd, _output_mode(self.path))
        except OSError:  # a file system without modes: keep what mkstemp gave
            pass
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
