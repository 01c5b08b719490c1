"""The HTML form of an explanation: one self-contained page (inline CSS and script, no network) with a
hex view of the range, each byte coloured by the field that holds it, and the field tree beside it.
Clicking a field highlights its bytes; clicking a byte selects (and reveals) its field.

The page embeds the tree and the bytes as JSON and builds its DOM on load. Elements tests rely on:
``#tree [data-path]`` (one per field, ``data-start``/``data-end`` = its range) and ``#hex [data-o]``
(one per byte, class ``hl`` while its field is selected; the selected field has class ``sel``).
"""

from __future__ import annotations

import html
import json
import os
from typing import Any

from .._atomic import write_atomic
from .tree import Explanation

__all__ = ["render_html", "write_html"]

_CSS = """
body{font:13px/1.35 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0;color:#222;background:#fafafa}
header{padding:8px 12px;background:#20303c;color:#fff}
header .err{color:#ffb4a8}
main{display:flex;height:calc(100vh - 40px)}
#tree{flex:1 1 55%;overflow:auto;padding:6px 10px;border-right:1px solid #ccc;background:#fff}
#hex{flex:1 1 45%;overflow:auto;padding:6px 10px;white-space:pre}
details{margin-left:14px}
#tree>details,#tree>.leaf{margin-left:0}
.leaf{margin-left:28px}
summary{cursor:pointer}
.node{cursor:pointer;border-radius:3px;padding:0 2px}
.node.sel{outline:2px solid #d33;background:#ffe9a8}
.sw{display:inline-block;width:9px;height:9px;margin-right:4px;border:1px solid #999}
.k{color:#777}
.v{color:#064}
.r{color:#999}
.note{margin-left:28px;color:#555}
.note:before{content:"\\2502  "}
.err{color:#b00}
.row .off{color:#888;margin-right:8px}
.b{cursor:pointer;padding:0 1px}
.b.hl{outline:1px solid #d33;background:#ffd24d!important}
.asc{color:#666;margin-left:8px}
"""

_JS = """
(function(){
const D = JSON.parse(document.getElementById('explain-data').textContent);
const nodes = D.nodes, base = D.base, bytes = D.hex.length / 2;
const color = i => 'hsl(' + ((i * 137.508) % 360).toFixed(1) + ',70%,82%)';
const rows = [], holders = [];
const tree = document.getElementById('tree');
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
nodes.forEach((n, i) => {
  const parent = n.p < 0 ? tree : holders[n.p];
  const row = el('span', 'node');
  row.dataset.i = i; row.dataset.path = n.path; row.dataset.start = n.s; row.dataset.end = n.e;
  const sw = el('span', 'sw'); sw.style.background = color(i); row.appendChild(sw);
  row.appendChild(el('b', '', n.n));
  if (n.k) { row.appendChild(document.createTextNode(' ')); row.appendChild(el('span', 'k', n.k)); }
  if (n.v) { row.appendChild(document.createTextNode(' ')); row.appendChild(el('span', 'v', n.v)); }
  const last = (n.e - 1).toString(16);
  row.appendChild(document.createTextNode(' '));
  row.appendChild(el('span', 'r', '[' + n.s.toString(16) + '..' + last + '] ' + (n.e - n.s) + ' B'));
  let box;
  if (n.c) { box = el('details'); const sum = el('summary'); sum.appendChild(row); box.appendChild(sum); if (n.lvl < 3) box.open = true; }
  else { box = el('div', 'leaf'); box.appendChild(row); }
  (n.notes || []).forEach(t => box.appendChild(el('div', 'note', t)));
  if (n.err) box.appendChild(el('div', 'note err', n.err));
  parent.appendChild(box);
  holders[i] = box; rows[i] = row;
});
const owner = new Int32Array(bytes).fill(-1);
nodes.forEach((n, i) => { for (let o = Math.max(n.s, base); o < Math.min(n.e, base + bytes); o++) owner[o - base] = i; });
const hex = document.getElementById('hex');
const spans = new Array(bytes);
for (let r = 0; r < bytes; r += 16) {
  const line = el('div', 'row');
  line.appendChild(el('span', 'off', (base + r).toString(16).padStart(8, '0')));
  let asc = '';
  for (let j = r; j < Math.min(r + 16, bytes); j++) {
    const v = parseInt(D.hex.substr(2 * j, 2), 16);
    const b = el('span', 'b', D.hex.substr(2 * j, 2));
    b.dataset.o = base + j;
    if (owner[j] >= 0) b.style.background = color(owner[j]);
    line.appendChild(b); line.appendChild(document.createTextNode(' '));
    spans[j] = b;
    asc += v >= 32 && v < 127 ? String.fromCharCode(v) : '.';
  }
  line.appendChild(el('span', 'asc', asc));
  hex.appendChild(line);
}
let selected = -1;
function select(i, fromHex) {
  if (selected >= 0) {
    rows[selected].classList.remove('sel');
    const p = nodes[selected];
    for (let o = Math.max(p.s, base); o < Math.min(p.e, base + bytes); o++) spans[o - base].classList.remove('hl');
  }
  selected = i;
  if (i < 0) return;
  const n = nodes[i];
  rows[i].classList.add('sel');
  for (let o = Math.max(n.s, base); o < Math.min(n.e, base + bytes); o++) spans[o - base].classList.add('hl');
  if (fromHex) {
    for (let p = holders[i].parentElement; p && p !== tree; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    rows[i].scrollIntoView({block: 'nearest'});
  } else if (n.s >= base && n.s < base + bytes) {
    spans[n.s - base].scrollIntoView({block: 'nearest'});
  }
}
tree.addEventListener('click', ev => { const r = ev.target.closest('.node'); if (r) select(+r.dataset.i, false); });
hex.addEventListener('click', ev => { const b = ev.target.closest('.b'); if (b) select(owner[+b.dataset.o - base], true); });
document.getElementById('status').textContent = nodes.length + ' fields, ' + bytes + ' bytes shown';
})();
"""


def _data(ex: Explanation) -> dict[str, Any]:
    nodes: list[dict[str, Any]] = []
    stack: list[int] = []  # indexes of the open ancestors, by level
    for level, n in ex.walk():
        del stack[level - 1 :]
        d: dict[str, Any] = {
            "p": stack[-1] if stack else -1,
            "n": n.name,
            "path": n.path,
            "s": n.start,
            "e": n.end,
            "k": n.kind,
            "v": n.value,
            "lvl": level,
            "c": 0,
        }
        if n.notes or n.beside:
            d["notes"] = n.notes + n.beside
        if n.error is not None:
            d["err"] = f"{n.error.rule} at offset {n.error.offset} ({n.error.path}): {n.error.message}"
        if stack:
            nodes[stack[-1]]["c"] = 1
        stack.append(len(nodes))
        nodes.append(d)
    base, data = ex.data if ex.data is not None else (ex.range[0], b"")
    return {"name": ex.name, "format": ex.format, "size": ex.size, "range": list(ex.range), "base": base, "hex": data.hex(), "nodes": nodes}


def render_html(ex: Explanation) -> str:
    """The page, as text (``ex`` needs its bytes: ``explain(..., with_bytes=True)``)."""
    payload = json.dumps(_data(ex), ensure_ascii=True).replace("</", "<\\/")
    lo, hi = ex.range
    title = f"{ex.name}: {ex.format}, {ex.size} bytes"
    if (lo, hi) != (0, ex.size):
        title += f", range {lo:#x}:{hi:#x}"
    errs = "".join(
        f'<div class="err">{html.escape(f"{e.rule} at offset {e.offset} ({e.path}): {e.message}")}</div>' for e in ex.errors
    )
    shown = len(ex.data[1]) if ex.data is not None else 0
    cut = f" (hex view: the first {shown} bytes of the range)" if shown < hi - lo else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>lakestruct explain: {html.escape(ex.name)}</title><style>{_CSS}</style></head><body>"
        f"<header>{html.escape(title)}{html.escape(cut)} &middot; <span id=\"status\"></span>{errs}</header>"
        '<main><div id="tree"></div><div id="hex"></div></main>'
        f'<script type="application/json" id="explain-data">{payload}</script>'
        f"<script>{_JS}</script></body></html>\n"
    )


def write_html(ex: Explanation, path: str | os.PathLike[str]) -> None:
    """Write the page to ``path`` atomically (a temporary file renamed into place)."""
    write_atomic(path, render_html(ex).encode("utf-8"))
