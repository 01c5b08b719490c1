"""The ``--html`` page in a real browser (headless Chromium through playwright-core): its field tree lists the
fields the seed document decodes, a click on a tree node highlights that field's bytes (the range the seed gives),
and a click on a byte selects the field that holds it. Skips, saying why, without /usr/bin/chromium (Debian's
``chromium`` package) or node_modules' playwright-core (``npm ci``)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from lakestruct.cli import main
from tests.explain.test_explain_seeds import _flatten, _json_line, _seed

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")


def _browser(page: Path, tree_path: str, byte: int) -> dict[str, object]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium); the HTML page is not opened in a browser")
    node = shutil.which("node")
    if node is None or not (REPO / "node_modules" / "playwright-core").is_dir():
        pytest.skip("node and node_modules/playwright-core (npm ci) are needed to drive the browser")
    out = subprocess.run(
        [node, str(REPO / "tests" / "explain" / "html_check.mjs"), str(page), str(CHROMIUM), tree_path, str(byte)],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=REPO,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result: dict[str, object] = json.loads(out.stdout.splitlines()[-1])
    return result


def test_html_page_in_chromium(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed = _seed("002")
    page = tmp_path / "simple.html"
    assert main(["explain", str(corpus / "seed-files" / "simple.parquet"), "--html", str(page)]) == 0
    assert "wrote" in capsys.readouterr().err
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)  # nothing to fetch: self-contained

    # the seed: "300~303バイト目(0x12b~0x12e)にある、186(ba 00 00 00)がFooterの長さ", "33(0x20)から77(0x4c)バイト目がデータの本体"
    m = re.search(r"\((0x[0-9a-f]+)~(0x[0-9a-f]+)\)にある、\d+\([0-9a-f ]+?\s*\)がFooterの長さ", seed)
    d = re.search(r"\d+\((0x[0-9a-f]+)\)から\d+\((0x[0-9a-f]+)\)バイト目がデータの本体", seed)
    assert m and d
    length_range = list(range(int(m[1], 16), int(m[2], 16) + 1))
    data_range = list(range(int(d[1], 16), int(d[2], 16) + 1))
    got = _browser(page, "footer_length", data_range[0])
    assert got["errors"] == [] and got["external"] == []

    # the tree lists every field of the FileMetaData the seed decodes, and the page's header fields
    paths = set(got["paths"])  # type: ignore[call-overload]
    want = set(_flatten(_json_line(seed, '{ "version": 2, "schema"'), "footer"))
    want |= set(_flatten(_json_line(seed, '{ "type": "DATA_PAGE_V2"'), "row_groups[0].columns[0].pages[0].header"))
    assert want <= paths, sorted(want - paths)

    after_tree = got["afterTree"]
    assert after_tree == {"highlighted": length_range, "selected": ["footer_length"]}  # type: ignore[comparison-overlap]
    after_byte = got["afterByte"]
    assert after_byte["highlighted"] == data_range  # type: ignore[index]
    assert after_byte["selected"] == ["row_groups[0].columns[0].pages[0].body.values"]  # type: ignore[index]
