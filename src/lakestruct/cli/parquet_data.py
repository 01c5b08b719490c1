"""``lakestruct parquet levels|values`` (data-decoding subcommands).

Registered by ``cli/parquet.py`` into the ``parquet`` subcommand group.
"""

from __future__ import annotations

from typing import Any

__all__ = ["register"]


def register(psub: Any) -> None:
    """Add the data-decoding subcommands to the ``parquet`` group (filled in with the value decoders)."""
