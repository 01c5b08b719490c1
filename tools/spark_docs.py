"""Rewrite the schema section of docs/spark.md from lakestruct.spark.sources (tests/spark/test_docs.py checks it)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from lakestruct.spark.sources import docs_markdown

DOC = Path(__file__).resolve().parent.parent / "docs" / "spark.md"
PATTERN = re.compile(r"(<!-- schemas:begin -->\n).*(<!-- schemas:end -->)", re.S)


def main() -> int:
    text = DOC.read_text(encoding="utf-8")
    if not PATTERN.search(text):
        print(f"{DOC}: no <!-- schemas:begin --> ... <!-- schemas:end --> markers", file=sys.stderr)
        return 1
    DOC.write_text(PATTERN.sub(lambda m: m.group(1) + docs_markdown() + "\n" + m.group(2), text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
