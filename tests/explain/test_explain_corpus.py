"""``lakestruct explain`` on every file of the shared corpus that lakestruct recognises (fuzzing reproducers
and CRoaring's crash-prone inputs included): it never raises, every error it reports is a named rule, the
tree it builds is well formed (every field inside its parent), and it calls nothing broken that readers
accept: a Parquet file pyarrow reads has no error but a documented decoding limit, and another file
``lakestruct scan`` accepts has none.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lakestruct.errors import FormatError
from lakestruct.explain import Explanation, Node, explain, render_text
from lakestruct.scan import check_file, detect
from tests.conftest import corpus_dir

#: Rules that are explain's (and lakestruct's) documented decoding limits, not malformed input: a page whose
#: declared size is out of proportion to its stored bytes (docs/parquet-data.md).
LIMIT_RULES = {"parquet.codec.limit", "parquet.values.count-limit", "parquet.values.size-limit"}
#: Files pyarrow takes many seconds to read (it decompresses what they declare: MANIFEST.md says not to in tests).
#: The fuzzing reproducers are left out of the pyarrow comparison too: several are decompression bombs.
PYARROW_TOO_SLOW = {"parquet-testing/data/large_string_map.brotli.parquet"}
RULE = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)+")


def _files() -> list[str]:
    c = corpus_dir()
    if c is None:
        return []
    return sorted(str(p.relative_to(c)) for p in c.rglob("*") if p.is_file() and detect(str(p)) is not None)


FILES = _files()


def _check_tree(ex: Explanation, nodes: list[Node], lo: int, hi: int) -> int:
    n = 0
    for node in nodes:
        assert lo <= node.start <= node.end <= hi, (node.path, node.start, node.end, lo, hi)
        assert node.path and node.name
        n += 1 + _check_tree(ex, node.children, node.start, node.end)
    return n


def test_the_corpus_is_there(corpus: Path) -> None:
    assert len(FILES) > 150


@pytest.mark.parametrize("rel", FILES)
def test_explain_every_corpus_file(corpus: Path, rel: str) -> None:
    path = str(corpus / rel)
    fmt = detect(path)
    assert fmt is not None
    ex = explain(path)
    assert ex.format == fmt
    assert _check_tree(ex, ex.nodes, 0, ex.size) > 0
    lines = list(render_text(ex))
    assert len(lines) > 2
    rules = {e.rule for e in ex.errors}
    for e in ex.errors:
        assert isinstance(e, FormatError)
        assert RULE.fullmatch(e.rule), e.rule
        assert e.path, e
        assert any(e.rule in ln for ln in lines)
    if fmt == "parquet":
        if rel.startswith("fuzz-repro/") or rel in PYARROW_TOO_SLOW:
            return
        pq = pytest.importorskip("pyarrow.parquet")
        try:
            pq.read_table(path)
        except Exception:
            return
        assert rules <= LIMIT_RULES, f"pyarrow reads {rel}, explain reports {[str(e) for e in ex.errors]}"
    elif not rel.startswith("fuzz-repro/") and check_file(path, fmt).ok:  # (scan decodes what bombs declare)
        assert not rules, [str(e) for e in ex.errors]
