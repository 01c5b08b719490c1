"""One error hierarchy for every format.

Every malformed input raises a :class:`FormatError` (or a subclass) that names
where it went wrong (``offset``: absolute byte offset in the input, when known),
what (``path``: the field path, such as ``footer.payload.blobs[2].offset``) and
which rule was broken (``rule``: a stable dotted name such as
``puffin.trailing-magic``). Problems reaching the bytes at all (a missing file, a
failed range read) raise :class:`SourceError`; misuse of a writer raises
:class:`UsageError`.
"""

from __future__ import annotations

__all__ = [
    "ChecksumError",
    "DecompressionError",
    "FormatError",
    "LakestructError",
    "LimitError",
    "MagicError",
    "SourceError",
    "TruncatedError",
    "UsageError",
]


class LakestructError(Exception):
    """Base class of every error lakestruct raises on purpose."""


class FormatError(LakestructError, ValueError):
    """The input breaks a rule of its format."""

    def __init__(
        self,
        message: str,
        *,
        rule: str,
        path: str,
        offset: int | None = None,
        source: str | None = None,
    ) -> None:
        self.message = message
        self.rule = rule
        self.path = path
        self.offset = offset
        self.source = source
        super().__init__(message)

    def __str__(self) -> str:
        where = f"offset {self.offset}" if self.offset is not None else "offset unknown"
        head = f"{self.source}: " if self.source else ""
        return f"{head}{self.rule} at {where} ({self.path}): {self.message}"

    def with_source(self, source: str) -> FormatError:
        """Return self after recording the input's name (used by readers)."""
        if self.source is None:
            self.source = source
        return self


class MagicError(FormatError):
    """A magic number or constant is not what the format requires."""


class TruncatedError(FormatError):
    """The input ends before a structure it declares."""


class ChecksumError(FormatError):
    """A stored checksum does not match the bytes it covers."""


class DecompressionError(FormatError):
    """Compressed bytes do not decode as their codec requires."""


class LimitError(FormatError):
    """The input asks for more memory or work than its size justifies."""


class SourceError(LakestructError, OSError):
    """The bytes could not be read (missing file, failed range read, bad argument)."""


class UsageError(LakestructError, ValueError):
    """An API was called with arguments that cannot produce a valid file."""
