"""docs/spark.md shows the schemas exactly as lakestruct.spark.sources defines them."""

from __future__ import annotations

import re
from pathlib import Path

from lakestruct.spark.sources import SOURCES, docs_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "spark.md"


def test_docs_show_the_schemas_the_code_defines() -> None:
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"<!-- schemas:begin -->\n(.*)<!-- schemas:end -->", text, re.S)
    assert m, "docs/spark.md lost its schema markers"
    assert m.group(1) == docs_markdown() + "\n", "docs/spark.md is stale: run .venv/bin/python tools/spark_docs.py"
    for name in SOURCES:
        assert f"#### `{name}`" in m.group(1)
