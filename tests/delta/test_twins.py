"""The compiled twin of the JSON log scan (``delta/_replay_c.pyx``) against the pure one (``log.replay_json`` with
``compiled=False``): the same actions, line numbers and errors, on the golden and written logs and on generated lines
around the fast path's shape (strings with quotes, backslashes and non-ASCII text, null fields, spaces, damage).
Both are held to ``json.loads``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lakestruct as ls
from lakestruct.delta import log
from lakestruct.delta.log import Replay, Source, replay_json

needs_c = pytest.mark.skipif(not log.COMPILED, reason="the compiled twin is not built (no Cython or no C compiler)")


def run(data: bytes, compiled: bool) -> tuple[Any, Any]:
    rp = Replay(0, [Source("log.json", "commit", 0, True)], keep_removes=True)
    try:
        replay_json(rp, 0, data, compiled=compiled)
    except ls.FormatError as e:
        return ("error", e.rule, e.path, e.offset), None
    return rp.adds, rp.removes


def _no_nulls(a: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in a.items() if not (v is None and k in ("tags", "baseRowId", "defaultRowCommitVersion", "clusteringProvider"))}


@needs_c
def test_golden_and_written_logs(golden_root: Path) -> None:
    files = sorted(golden_root.glob("*/_delta_log/*.json"))
    assert len(files) > 50
    for f in files:
        data = f.read_bytes()
        assert run(data, True) == run(data, False), f


text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
plain = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=12)


@st.composite
def add_lines(draw: st.DrawFn) -> bytes:
    a: dict[str, Any] = {
        "path": draw(st.one_of(plain.filter(bool), text)),
        "partitionValues": draw(st.dictionaries(st.one_of(plain, text), st.one_of(st.none(), plain, text), max_size=3)),
        "size": draw(st.one_of(st.integers(0, 2**63 - 1), st.integers(-5, 5))),
        "modificationTime": draw(st.integers(0, 10**19)),
        "dataChange": draw(st.booleans()),
    }
    if draw(st.booleans()):
        a["stats"] = json.dumps({"numRecords": draw(st.integers(0, 100)), "minValues": {"c": draw(text)}},
                                ensure_ascii=draw(st.booleans()))
    for k in draw(st.lists(st.sampled_from(["tags", "baseRowId", "defaultRowCommitVersion", "clusteringProvider"]), max_size=2)):
        a[k] = None
    line = json.dumps({"add": a}, separators=draw(st.sampled_from([(",", ":"), (", ", ": ")])), ensure_ascii=draw(st.booleans()))
    return line.encode()


@needs_c
@given(st.lists(st.one_of(add_lines(), st.just(b'{"remove":{"path":"x","dataChange":true}}'), st.just(b""), st.just(b"  ")),
                min_size=1, max_size=6), st.integers(0, 300), st.integers(0, 255), st.booleans())
def test_generated_lines(lines: list[bytes], at: int, byte: int, damage: bool) -> None:
    data = b"\n".join(lines) + b"\n"
    if damage and data:
        i = at % len(data)
        data = data[:i] + bytes([byte]) + data[i + 1 :]
    c, p = run(data, True), run(data, False)
    assert c == p
    if isinstance(c[0], dict):  # both read every add as json.loads does (null fields are absent ones)
        for raw, _, line in c[0].values():
            ref = json.loads(data.split(b"\n")[line - 1])["add"]
            assert _no_nulls(raw) == _no_nulls(ref)
