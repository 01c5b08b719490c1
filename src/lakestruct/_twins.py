"""``LAKESTRUCT_PURE``: force the pure twins of the modules that have a compiled (Cython) one.

``LAKESTRUCT_PURE=1`` (or ``all``, ``true``, ``yes``, ``on``) forces every pure twin; a comma-separated list of twin
names forces those (``LAKESTRUCT_PURE=roaring,thrift``); unset, empty or ``0`` changes nothing. The names are those of
:func:`lakestruct.twins`: ``roaring`` (``roaring/_decode_c``), ``thrift`` (``thrift/_compact_c``), ``avro``
(the Avro block decoder of table manifests, ``avro/_plan_c``; ``paimon`` names it too), ``delta`` (the Delta log
line scan, ``delta/_replay_c``) and ``chunks`` (the row loop of the ``parquet_chunks`` Spark source,
``spark/_chunks_c``). The variable is read once,
when the module is first imported, so set it before Python starts (``LAKESTRUCT_PURE=1 lakestruct --version``);
:func:`lakestruct.twins` and ``lakestruct --version`` then report ``pure``. An explicit ``impl="c"`` (the Roaring
decoders) still reaches a built compiled twin.
"""

from __future__ import annotations

import os
import warnings

__all__ = ["ENV", "NAMES", "forced", "forced_pure"]

ENV = "LAKESTRUCT_PURE"
NAMES = ("roaring", "thrift", "avro", "paimon", "delta", "chunks")
_ALIASES = {"paimon": "avro"}  # the Avro twin's name when only Paimon used it
_ALL = frozenset(("1", "all", "true", "yes", "on"))
_NONE = frozenset(("", "0", "false", "no", "off"))


def forced() -> frozenset[str]:
    """The twin names ``LAKESTRUCT_PURE`` forces to pure (an unknown name is warned about and ignored)."""
    text = os.environ.get(ENV, "").strip().lower()
    if text in _NONE:
        return frozenset()
    if text in _ALL:
        return frozenset(NAMES)
    names = {n.strip() for n in text.split(",") if n.strip()}
    unknown = sorted(names - set(NAMES))
    if unknown:
        warnings.warn(f"{ENV}: unknown twin name(s) {', '.join(unknown)} ignored; known: {', '.join(NAMES)} (or 1 for all)",
                      RuntimeWarning, stacklevel=2)
    names &= set(NAMES)
    names |= {_ALIASES[n] for n in names if n in _ALIASES} | {a for a, n in _ALIASES.items() if n in names}
    return frozenset(names)


def forced_pure(name: str) -> bool:
    """Whether ``LAKESTRUCT_PURE`` forces the pure twin ``name`` (one of :data:`NAMES`)."""
    return name in forced()
