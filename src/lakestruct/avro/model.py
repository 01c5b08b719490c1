"""The framing of an Avro object container file as frozen values: what :mod:`.spec` builds and parses, what
:mod:`.write` lays out, and what the Kaitai spec ``formats/avro/avro_ocf.ksy`` is held to in the tests."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Container", "MetaBlock", "StoredBlock"]


@dataclass(frozen=True)
class MetaBlock:
    """One block of the header's metadata map: its entries, and whether the block states its byte size (written
    with a negative count, which Avro allows; Avro's own writers never do it)."""

    entries: tuple[tuple[str, bytes], ...]
    sized: bool = False


@dataclass(frozen=True)
class StoredBlock:
    """One data block as stored: its record count and its bytes (compressed with the file's codec)."""

    count: int
    data: bytes


@dataclass(frozen=True)
class Container:
    """An object container file's framing: the metadata map (in blocks, the closing empty block implied), the
    16-byte sync marker, the data blocks."""

    meta_blocks: tuple[MetaBlock, ...]
    sync: bytes
    blocks: tuple[StoredBlock, ...]

    @property
    def metadata(self) -> dict[str, bytes]:
        """The metadata map (a later entry of the same key wins, as Avro's readers do)."""
        return {k: v for b in self.meta_blocks for k, v in b.entries}
