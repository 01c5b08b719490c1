"""A fast constructor for the frozen dataclass models the hot readers build by the thousand (Paimon manifest entries,
Delta add actions): the instance's attribute dict is set at once from the values in field order, which is what the
dataclass's ``__init__`` ends with, one ``object.__setattr__`` at a time (the compiled twins do the same).

Imports no room: the base every room may use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

__all__ = ["constructor"]


def constructor(cls: type) -> Callable[..., Any]:
    """``make(*values)`` -> an instance of the dataclass ``cls`` holding ``values`` in field order (no ``__init__``,
    no ``__post_init__``: for readers whose values are already checked)."""
    names = tuple(f.name for f in fields(cls))
    new = object.__new__

    def make(*values: Any) -> Any:
        obj: Any = new(cls)
        obj.__dict__.update(zip(names, values))  # noqa: B905 - as many values as names, by construction
        return obj

    return make
