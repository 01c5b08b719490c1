"""One byte-source abstraction for every reader: local files, in-memory bytes,
seekable binary file objects and fsspec URLs, all read by ranges; and one way to list the
files under local folders and URLs (:func:`list_files`).

Readers never modify their input: files are opened read-only, buffers are never
written to, and a caller's file object gets its position restored after reads.
Every range read is counted (``ByteSource.reads``) so tests can hold readers to
their I/O budget (for example Puffin's single tail read).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any, Union

from .errors import FormatError, SourceError, TruncatedError

__all__ = ["STDIN", "ByteSource", "Input", "SourceLike", "list_files", "local_path", "open_source", "RangeReader", "closing_on_error"]

SourceLike = Union["ByteSource", str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]


def local_path(location: str) -> str:
    """The local path a ``file:`` URI names, as table metadata writes them (``file:/x`` by Iceberg Java and Hadoop,
    ``file:///x``, ``file://localhost/x``): ``/x``. Anything else (a plain path, an ``s3://`` URL, a ``file:`` URI
    naming another host) comes back unchanged."""
    if not location.startswith("file:"):
        return location
    rest = location[5:]
    if rest.startswith("//"):
        host, sep, tail = rest[2:].partition("/")
        if host not in ("", "localhost"):
            return location
        return "/" + tail.lstrip("/") if sep else "/"
    return rest


class ByteSource:
    """Random access to an immutable sequence of bytes."""

    name: str
    size: int
    reads: int
    #: reads are requests to a remote store (readers fetch less ahead)
    remote: bool = False

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self.reads = 0

    def _read(self, offset: int, length: int) -> bytes:  # pragma: no cover - abstract
        raise NotImplementedError

    def read(self, offset: int, length: int) -> bytes:
        """Return up to ``length`` bytes at ``offset`` (fewer only at the end)."""
        if offset < 0 or length < 0:
            raise SourceError(f"{self.name}: invalid range offset={offset} length={length}")
        if offset >= self.size or length == 0:
            return b""
        length = min(length, self.size - offset)
        self.reads += 1
        return self._read(offset, length)

    def read_exact(self, offset: int, length: int, *, rule: str, path: str) -> bytes:
        """Return exactly ``length`` bytes or raise :class:`TruncatedError`."""
        data = self.read(offset, length)
        if len(data) != length:
            raise TruncatedError(
                f"needs {length} bytes at offset {offset} but the input has {self.size} bytes",
                rule=rule,
                path=path,
                offset=offset,
                source=self.name,
            )
        return data

    def close(self) -> None:
        """Release what the source opened itself (never a caller's file object)."""

    def __enter__(self) -> ByteSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} size={self.size}>"


class BytesSource(ByteSource):
    def __init__(self, data: bytes | bytearray | memoryview, name: str = "<bytes>") -> None:
        self._view = memoryview(data).cast("B")
        self._bytes = data if type(data) is bytes else None  # read whole without a copy (bytes cannot change)
        super().__init__(name, len(self._view))

    def _read(self, offset: int, length: int) -> bytes:
        if self._bytes is not None and offset == 0 and length == len(self._bytes):
            return self._bytes
        return bytes(self._view[offset : offset + length])


class FileObjectSource(ByteSource):
    """A seekable binary file object; its position is restored after every read."""

    def __init__(self, fobj: IO[bytes], name: str, owned: bool = False) -> None:
        if not (fobj.readable() and fobj.seekable()):
            raise SourceError(f"{name}: file object must be readable and seekable")
        self._f = fobj
        self._owned = owned
        here = fobj.tell()
        size = fobj.seek(0, os.SEEK_END)
        fobj.seek(here)
        super().__init__(name, size)

    def _read(self, offset: int, length: int) -> bytes:
        here = self._f.tell()
        try:
            self._f.seek(offset)
            chunks = []
            remaining = length
            while remaining:
                chunk = self._f.read(remaining)
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
            return b"".join(chunks)
        except OSError as e:
            raise SourceError(f"{self.name}: read of {length} bytes at {offset} failed: {e}") from e
        finally:
            self._f.seek(here)

    def close(self) -> None:
        if self._owned:
            self._f.close()


class FsspecSource(ByteSource):
    """Any fsspec URL (s3://, gs://, memory://, ...); ranges become range requests."""

    remote = True

    def __init__(self, url: str) -> None:
        try:
            import fsspec
        except ImportError as e:  # pragma: no cover - fsspec is a dependency
            raise SourceError(f"{url}: reading URLs needs the 'fsspec' package") from e
        try:
            fs, path = fsspec.core.url_to_fs(url)
            size = int(fs.size(path))
        except FileNotFoundError as e:
            raise SourceError(f"{url}: no such file") from e
        except Exception as e:
            raise SourceError(f"{url}: cannot open: {e}") from e
        self._fs: Any = fs
        self._path = path
        super().__init__(url, size)

    def _read(self, offset: int, length: int) -> bytes:
        try:
            return bytes(self._fs.cat_file(self._path, start=offset, end=offset + length))
        except Exception as e:
            raise SourceError(f"{self.name}: range read {offset}+{length} failed: {e}") from e


@contextmanager
def closing_on_error(source: ByteSource) -> Iterator[None]:
    """For readers' constructors: if the block raises, close ``source`` (the reader
    will never be returned to close it) and name it in a :class:`FormatError`."""
    try:
        yield
    except FormatError as e:
        source.close()
        raise e.with_source(source.name) from None
    except BaseException:
        source.close()
        raise


def _is_url(s: str) -> bool:
    scheme, sep, _ = s.partition("://")
    return bool(sep) and scheme.isidentifier() and len(scheme) > 1


#: The path that names standard input (as on most command lines); its source is named ``STDIN_NAME``.
STDIN = "-"
STDIN_NAME = "<stdin>"
_stdin_data: bytes | None = None


def _stdin_source() -> ByteSource:
    """Standard input as a source. A seekable one (``< file``) is read by ranges like a file; a pipe is
    read into memory once, on first use, and every later ``open_source("-")`` in the process shares
    those bytes (a command may open its input more than once: to sniff it, then to read it)."""
    global _stdin_data
    stream = sys.stdin.buffer
    if _stdin_data is None:
        try:
            if stream.seekable():
                return FileObjectSource(stream, STDIN_NAME)
        except (OSError, ValueError):
            pass
        try:
            _stdin_data = stream.read()
        except OSError as e:
            raise SourceError(f"{STDIN_NAME}: cannot read: {e}") from e
    return BytesSource(_stdin_data, STDIN_NAME)


#: path -> its bytes, read once: :func:`open_source` of a pinned path reads memory (see :func:`pinned`)
_PINNED: dict[str, bytes] = {}


@contextmanager
def pinned(path: str, data: bytes | None) -> Iterator[None]:
    """While the block runs, :func:`open_source` of ``path`` (as spelled) reads ``data`` instead of the file:
    a job that runs several readers over one file (the inventory's one pass) reads its bytes once. ``None``
    pins nothing (a file too large to hold)."""
    if data is None:
        yield
        return
    _PINNED[path] = data
    try:
        yield
    finally:
        _PINNED.pop(path, None)


def open_source(src: SourceLike, *, name: str | None = None) -> ByteSource:
    """Turn a path, URL, bytes-like object or binary file object into a ByteSource.

    The path ``"-"`` is standard input (see :func:`_stdin_source`); ``./-`` names a file called ``-``.
    """
    if _PINNED and isinstance(src, str) and src in _PINNED:
        return BytesSource(_PINNED[src], name or src)
    if isinstance(src, ByteSource):
        return src
    if isinstance(src, (bytes, bytearray, memoryview)):
        return BytesSource(src, name or "<bytes>")
    if isinstance(src, str) and src == STDIN:
        return _stdin_source()
    if isinstance(src, (str, os.PathLike)):
        path = os.fspath(src)
        if _is_url(path) and not path.startswith("file://"):
            return FsspecSource(path)
        if path.startswith("file://"):
            path = path[len("file://") :]
        try:
            f = open(path, "rb")  # noqa: SIM115 - owned by the source
        except FileNotFoundError as e:
            raise SourceError(f"{path}: no such file") from e
        except IsADirectoryError as e:
            raise SourceError(f"{path}: is a directory") from e
        except OSError as e:
            raise SourceError(f"{path}: cannot open: {e.strerror}") from e
        except ValueError as e:  # a name holding a NUL byte (read from damaged metadata): no file system has it
            raise SourceError(f"{path!r}: no such file (the name holds a NUL byte, which no file system allows)") from e
        return FileObjectSource(f, name or path, owned=True)
    if hasattr(src, "read") and hasattr(src, "seek"):
        return FileObjectSource(src, name or str(getattr(src, "name", "<file>")))
    raise SourceError(f"cannot read bytes from {type(src).__name__}")


class RangeReader(io.RawIOBase):
    """A read-only, seekable file view of a ByteSource with a range cache.

    Kaitai parsers read through this: ranges fetched ahead (``prefetch``) are
    served from memory, anything else is one range read of exactly what the parser
    asked for. So a parser that seeks to the end of a 10 GB object touches only the
    bytes it parses.
    """

    def __init__(self, source: ByteSource) -> None:
        super().__init__()
        self.source = source
        self._pos = 0
        self._chunks: list[tuple[int, bytes]] = []

    def prefetch(self, offset: int, length: int) -> None:
        """Fetch a range in one read; it merges with a cached range it touches."""
        data = self.source.read(offset, length)
        if not data:
            return
        end = offset + len(data)
        for i, (off, chunk) in enumerate(self._chunks):
            if off == end:
                self._chunks[i] = (offset, data + chunk)
                return
            if off + len(chunk) == offset:
                self._chunks[i] = (off, chunk + data)
                return
        self._chunks.append((offset, data))

    def cached_from(self) -> int:
        """The lowest offset of the cached range that reaches the end of the source (or the size)."""
        return min((off for off, chunk in self._chunks if off + len(chunk) == self.source.size), default=self.source.size)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_SET:
            pos = offset
        elif whence == io.SEEK_CUR:
            pos = self._pos + offset
        elif whence == io.SEEK_END:
            pos = self.source.size + offset
        else:
            raise ValueError(f"invalid whence {whence}")
        if pos < 0:
            raise ValueError(f"negative seek position {pos}")
        self._pos = pos
        return pos

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            size = max(0, self.source.size - self._pos)
        size = min(size, max(0, self.source.size - self._pos))
        if size == 0:
            return b""
        start, end = self._pos, self._pos + size
        for off, data in self._chunks:
            if off <= start and end <= off + len(data):
                self._pos = end
                return data[start - off : end - off]
        data = self.source.read(start, size)
        self._pos += len(data)
        return data

    def readinto(self, b: Any) -> int:
        data = self.read(len(b))
        n = len(data)
        b[:n] = data
        return n


# -- listing ------------------------------------------------------------------------------------------

#: A listed file: (path or URL, size in bytes).
Input = tuple[str, int]


def _hidden(name: str) -> bool:
    """Names Spark and Hadoop skip when listing: ``_SUCCESS``, ``.crc`` side files, ``_delta_log`` is kept."""
    return name.startswith(".") or (name.startswith("_") and name != "_delta_log")


def _walk_local(root: str) -> Iterable[Input]:
    stack = [root]
    while stack:
        d = stack.pop()
        try:
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as err:
            raise SourceError(f"{d}: cannot list: {err.strerror}") from err
        subdirs = []
        for entry in entries:
            if _hidden(entry.name):
                continue
            if entry.is_dir(follow_symlinks=True):
                subdirs.append(entry.path)
            elif entry.is_file(follow_symlinks=True):
                yield entry.path, entry.stat().st_size
        stack.extend(reversed(subdirs))


def _list_url(url: str) -> list[Input]:
    try:
        import fsspec

        fs, root = fsspec.core.url_to_fs(url)
        if fs.isfile(root):
            return [(url, int(fs.size(root)))]  # a file as given keeps the user's spelling
        found = fs.find(root, detail=True)
        if not found and not fs.exists(root):
            raise FileNotFoundError(root)
    except FileNotFoundError as e:
        raise SourceError(f"{url}: no such file or folder") from e
    except ImportError as e:
        raise SourceError(f"{url}: reading this URL needs an fsspec backend ({e}); for s3:// install lakestruct[s3]") from e
    except Exception as e:
        raise SourceError(f"{url}: cannot list: {e}") from e
    out = []
    for key in sorted(found):
        info = found[key]
        if info.get("type") == "directory":
            continue
        rel = key[len(root) :].lstrip("/") if key.startswith(root) else key
        if any(_hidden(part) for part in rel.split("/")):
            continue
        out.append((fs.unstrip_protocol(key), int(info.get("size") or 0)))
    return out


def list_files(paths: Sequence[str]) -> list[Input]:
    """Every file under ``paths`` with its size: folders recursively (sorted, hidden names skipped), files as
    given. Local paths and fsspec URLs. A path that does not exist is a :class:`SourceError`."""
    out: list[Input] = []
    seen: set[str] = set()
    for p in paths:
        if _is_url(p) and not p.startswith("file://"):
            found = _list_url(p)
        else:
            local = p[len("file://") :] if p.startswith("file://") else p
            if os.path.isdir(local):
                found = sorted(_walk_local(local))
            elif os.path.isfile(local):
                found = [(local, os.path.getsize(local))]
            else:
                raise SourceError(f"{p}: no such file or folder")
        for path, size in found:
            if path not in seen:
                seen.add(path)
                out.append((path, size))
    return out
