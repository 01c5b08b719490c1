"""``decode_tuples`` (the compiled decoder with some structs as plain tuples) reads exactly what ``decode_model`` reads.

It runs the compiled decoder's own reading and checks and only builds tuples instead of models for the classes
asked for, so: on every input it declines exactly when the compiled ``decode_model`` declines, and otherwise its
value, with each tuple read as the model of its class, is the model ``decode_model`` builds. Held here on random
valid FileMetaData (thriftpy2's serialisation, tests/parquet/_thrift_ref.py), on every Parquet footer of the corpus,
and on those footers mutated and cut."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakestruct.parquet import model as m
from lakestruct.thrift import compact
from lakestruct.thrift.typed import compiled_plan, decode_tuples, tuple_fields
from tests.parquet import _thrift_ref as ref

_c = compact._compiled
pytestmark = pytest.mark.skipif(_c is None, reason="the compiled twin is not built (pip install -e .)")

TUPLES = frozenset({m.RowGroup, m.ColumnChunk, m.ColumnMetaData, m.Statistics, m.PageEncodingStats, m.SizeStatistics})


def _project(v: Any) -> Any:
    """A model as nested plain values: a model of TUPLES as the tuple of its tuple_fields, any other model as its class
    and (name, value) pairs."""
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        if type(v) in TUPLES:
            return tuple(_project(getattr(v, f)) for f in tuple_fields(type(v)))
        return (type(v), tuple((f.name, _project(getattr(v, f.name))) for f in dataclasses.fields(v)))
    if isinstance(v, tuple):
        return tuple(_project(x) for x in v)
    return v


def _agree(data: bytes) -> bool:
    """Both read ``data`` alike; True when they decoded it (False: both declined)."""
    model = _c.decode_model(data, 0, len(data), compiled_plan(m.FileMetaData))
    tuples = decode_tuples(m.FileMetaData, data, tuples=TUPLES)
    assert (model is None) == (tuples is None)
    if model is None:
        return False
    assert tuples is not None and model[1] == tuples[1]
    assert _project(model[0]) == _project(tuples[0])
    return True


@settings(max_examples=25, deadline=None)
@given(ref.strategy("FileMetaData"))
def test_random_footers(obj: Any) -> None:
    assert _agree(ref.serialize(obj))


def _footers(corpus: Path) -> list[bytes]:
    out = []
    for p in sorted(corpus.rglob("*")):
        if p.is_file() and p.stat().st_size < 64 << 20:
            b = p.read_bytes()
            if len(b) >= 12 and b[:4] == b"PAR1" and b[-4:] == b"PAR1":
                n = int.from_bytes(b[-8:-4], "little")
                if 0 < n <= len(b) - 12:
                    out.append(b[-8 - n : -8])
    return out


def test_every_corpus_footer(corpus: Path) -> None:
    footers = _footers(corpus)
    decided = sum(_agree(f) for f in footers)
    assert len(footers) > 100 and decided > 100, (len(footers), decided)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mutated_and_cut_footers(corpus: Path, data: st.DataObject) -> None:
    footers = _footers(corpus)
    raw = bytearray(data.draw(st.sampled_from(footers)))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    _agree(bytes(raw))
    _agree(bytes(raw[:cut]))
