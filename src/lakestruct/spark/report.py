"""The inventory's HTML report: one self-contained page (inline CSS and SVG, no script, no network).

Plots: the data-page size distribution, the deleted share per data file, and errors by rule; tables: the
worst offenders the summary found. Built from :func:`lakestruct.spark.inventory.summarize`'s dict, so it
needs no Spark.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from .. import __version__
from .._atomic import write_atomic

__all__ = ["bar_chart", "render", "write_report"]

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2em auto;max-width:1100px;color:#1b1f24;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em} h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #d0d7de;padding-bottom:.2em}
.meta{color:#57606a} table{border-collapse:collapse;margin:.5em 0;font-size:13px}
td,th{padding:3px 8px;border-bottom:1px solid #eaeef2;text-align:left}
th{background:#f6f8fa} td.n{text-align:right;font-variant-numeric:tabular-nums} code{font-size:12px;word-break:break-all}
.cards{display:flex;flex-wrap:wrap;gap:10px}.card{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;min-width:130px}
.card b{display:block;font-size:1.5em}.bad{color:#cf222e}.ok{color:#1a7f37} svg text{font:11px system-ui,sans-serif;fill:#1b1f24}
"""


def _esc(x: Any) -> str:
    return html.escape("" if x is None else str(x))


def _human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"  # pragma: no cover


def _cut_middle(text: str, room: int, focus: int | None = None) -> str:
    """``text`` in ``room`` characters: its start and end around a ``…`` (the end gets the larger share); when
    ``focus`` (where it differs from a look-alike) would fall in the cut, its neighbourhood between two ``…``."""
    if len(text) <= room:
        return text
    tail = (room - 1) * 3 // 5
    head = room - 1 - tail
    if focus is None or focus < head - 3 or focus >= len(text) - tail:
        return text[:head] + "…" + text[-tail:]
    side = (room - 2) // 3
    mid = room - 2 - 2 * side
    at = min(max(side, focus - mid // 3), len(text) - side - mid)
    return text[:side] + "…" + text[at : at + mid] + "…" + text[-side:]


def _short_label(label: str, limit: int, focus: int | None = None) -> str:
    """A path in ``limit`` characters: the folder shortened first, then the file name cut in its middle."""
    if len(label) <= limit:
        return label
    name_at = label.rfind("/") + 1
    if name_at == 0 or (focus is not None and focus < name_at):
        return _cut_middle(label, limit, focus)
    name = label[name_at:]
    if len(name) + 2 <= limit:  # the start of the folder, "…", the whole file name
        return label[: limit - 1 - len(name)] + "…" + name
    return "…" + _cut_middle(name, limit - 1, None if focus is None else focus - name_at)


def _short_labels(labels: Sequence[str], limit: int = 48) -> list[str]:
    """Bar labels of at most ``limit`` characters, cut in the middle (a folder path shortened first), so that
    labels that differ stay different: Iceberg data files share a long UUID and differ in their task prefix or
    their counter, which a cut from either end loses. The full label goes in the bar's tooltip."""
    first = [_short_label(lab, limit) for lab in labels]
    shorts = list(first)
    for i, lab in enumerate(labels):
        rivals = [other for j, other in enumerate(labels) if first[j] == first[i] and other != lab]
        if rivals:
            diff_at = min(next((k for k, (a, b) in enumerate(zip(lab, o, strict=False)) if a != b), min(len(lab), len(o))) for o in rivals)
            shorts[i] = _short_label(lab, limit, diff_at)
    return shorts


def bar_chart(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    title: str,
    horizontal: bool = False,
    value_fmt: str = "{:,.0f}",
    color: str = "#0969da",
    width: int = 760,
) -> str:
    """An inline SVG bar chart (vertical bars, or horizontal ones for long labels)."""
    n = len(values)
    if n == 0:
        return f'<p class="meta">{_esc(title)}: nothing to plot.</p>'
    vmax = max(max(values), 1e-12)
    parts = [f'<figure><svg role="img" aria-label="{_esc(title)}" xmlns="http://www.w3.org/2000/svg" ']
    if horizontal:
        row, label_w = 20, 300
        h = row * n + 30
        parts.append(f'width="{width}" height="{h}" viewBox="0 0 {width} {h}"><title>{_esc(title)}</title>')
        plot_w = width - label_w - 80
        for i, (lab, short, v) in enumerate(zip(labels, _short_labels(labels), values, strict=True)):
            y = 10 + i * row
            w = max(1.0, plot_w * v / vmax) if v > 0 else 0.0
            parts.append(f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end"><title>{_esc(lab)}</title>{_esc(short)}</text>')
            parts.append(f'<rect x="{label_w}" y="{y + 2}" width="{w:.1f}" height="{row - 5}" fill="{color}"/>')
            parts.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 13}">{_esc(value_fmt.format(v))}</text>')
    else:
        h, base, left = 260, 220, 50
        parts.append(f'width="{width}" height="{h}" viewBox="0 0 {width} {h}"><title>{_esc(title)}</title>')
        plot_w = width - left - 10
        bw = plot_w / n
        for frac in (0.0, 0.5, 1.0):
            gy = base - 190 * frac
            parts.append(f'<line x1="{left}" x2="{width - 10}" y1="{gy:.1f}" y2="{gy:.1f}" stroke="#d0d7de"/>')
            parts.append(f'<text x="{left - 4}" y="{gy + 4:.1f}" text-anchor="end">{_esc(value_fmt.format(vmax * frac))}</text>')
        for i, (lab, v) in enumerate(zip(labels, values, strict=True)):
            bh = 190 * v / vmax
            x = left + i * bw
            parts.append(
                f'<rect x="{x + 1:.1f}" y="{base - bh:.1f}" width="{max(bw - 2, 1):.1f}" height="{bh:.1f}" fill="{color}">'
                f"<title>{_esc(lab)}: {_esc(value_fmt.format(v))}</title></rect>"
            )
            if n <= 24 or i % max(1, n // 12) == 0:
                parts.append(f'<text x="{x + bw / 2:.1f}" y="{base + 14}" text-anchor="middle">{_esc(lab)}</text>')
    parts.append(f'</svg><figcaption class="meta">{_esc(title)}</figcaption></figure>')
    return "".join(parts)


def _table(rows: Sequence[dict[str, Any]], cols: Sequence[tuple[str, str]], numeric: set[str] | None = None) -> str:
    if not rows:
        return '<p class="meta">none</p>'
    numeric = numeric or set()
    out = ["<table><tr>", *(f"<th>{_esc(h)}</th>" for _, h in cols), "</tr>"]
    for r in rows:
        out.append("<tr>")
        for key, _ in cols:
            v = r.get(key)
            if isinstance(v, float):
                v = f"{v:.1%}" if key == "deleted_share" else f"{v:,.2f}"
            elif isinstance(v, int) and not isinstance(v, bool):
                v = f"{v:,}"
            elif isinstance(v, (list, tuple)):
                v = ", ".join(map(str, v))
            cls = ' class="n"' if key in numeric else ""
            cell = f"<code>{_esc(v)}</code>" if key in ("file", "data_file", "referenced_data_file") else _esc(v)
            out.append(f"<td{cls}>{cell}</td>")
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _size_label(bucket: int) -> str:
    return _human_bytes(2**bucket).replace(".0 ", " ")


def render(summary: dict[str, Any], *, paths: Sequence[str] = (), title: str = "Lake inventory") -> str:
    """The report page as a string."""
    s = summary
    fmts = s.get("files_by_format", {})
    total_files = sum(c["files"] for c in fmts.values())
    failed = sum(c["failed"] or 0 for f, c in fmts.items() if f != "other")
    cards = [
        ("files", f"{total_files:,}", ""),
        ("breaking a rule", f"{failed:,}", "bad" if failed else "ok"),
        ("Parquet files", f"{s.get('parquet_files', 0):,}", ""),
        ("data pages", f"{s.get('pages', 0):,}", ""),
        ("deletion vectors", f"{s.get('deletion_vectors', 0):,}", ""),
        ("Theta sketches", f"{s.get('theta_blobs', 0):,}", ""),
    ]
    body = [
        f"<h1>{_esc(title)}</h1>",
        f'<p class="meta">lakestruct {_esc(__version__)} · {datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {_esc(", ".join(paths))}</p>',
        '<div class="cards">',
        *(f'<div class="card"><b class="{c}">{_esc(v)}</b>{_esc(k)}</div>' for k, v, c in cards),
        "</div>",
        "<h2>Files by format</h2>",
        _table(
            [{"format": f, **c} for f, c in fmts.items()],
            [("format", "format"), ("files", "files"), ("ok", "ok"), ("failed", "breaking a rule"), ("bytes", "bytes")],
            {"files", "ok", "failed", "bytes"},
        ),
        "<h2>Errors by rule</h2>",
    ]
    errs = s.get("errors_by_rule", [])
    body.append(
        bar_chart(
            [e["rule"] for e in errs[:30]],
            [e["files"] for e in errs[:30]],
            title=f"files breaking each rule ({30} of {len(errs)} rules shown)" if len(errs) > 30 else "files breaking each rule",
            horizontal=True,
            color="#cf222e",
        )
    )
    failed_rows = s.get("failed_files", [])
    if s.get("failed_files_total", 0) > len(failed_rows):
        body.append(f"<p>{len(failed_rows):,} of {s['failed_files_total']:,} files breaking a rule shown (the inventory's "
                    "<code>files</code> table has them all).</p>")
    body.append(
        _table(
            failed_rows,
            [("file", "file"), ("format", "format"), ("error_rule", "rule"), ("error_offset", "offset"), ("error", "message")],
            {"error_offset"},
        )
    )
    counts = {h["bucket"]: h["pages"] for h in s.get("page_size_histogram", [])}
    buckets = range(min(counts), max(counts) + 1) if counts else range(0)  # empty buckets shown as empty bars
    body += [
        "<h2>Parquet data pages</h2>",
        bar_chart(
            [_size_label(b) for b in buckets],
            [counts.get(b, 0) for b in buckets],
            title="data pages by stored size (each bar: sizes from its label up to twice it)",
        ),
        f"<p>{s.get('no_page_index', 0):,} of {s.get('parquet_files', 0):,} Parquet files have no page index; "
        f"{s.get('no_bloom_filter', 0):,} have no bloom filter.</p>",
        "<h3>Files with tiny pages (median data page &lt; 16 KiB)</h3>",
        _table(
            s.get("tiny_pages", []),
            [("file", "file"), ("pages", "pages"), ("median_page_bytes", "median page bytes"), ("max_page_bytes", "largest page")],
            {"pages", "median_page_bytes", "max_page_bytes"},
        ),
        "<h3>Files with oversized pages (&gt; 8 MiB)</h3>",
        _table(
            s.get("huge_pages", []), [("file", "file"), ("pages", "pages"), ("max_page_bytes", "largest page")], {"pages", "max_page_bytes"}
        ),
        "<h3>Dictionary fallback</h3>",
        _table(
            s.get("dictionary_fallback", []),
            [("file", "file"), ("chunks", "chunks"), ("dictionary_fallback", "chunks falling back")],
            {"chunks", "dictionary_fallback"},
        ),
        "<h3>Poor compression (raw / stored &lt; 1.1)</h3>",
        _table(
            s.get("poor_compression", []),
            [("file", "file"), ("raw_bytes", "raw bytes"), ("stored_bytes", "stored bytes"), ("compression_ratio", "ratio")],
            {"raw_bytes", "stored_bytes", "compression_ratio"},
        ),
    ]
    tables = s.get("tables", [])
    if tables:
        ok = [t for t in tables if not t.get("error_rule")]
        body += [
            "<h2>Tables</h2>",
            "<p>Counted from each table's metadata: the live data files of its current snapshot and the deletes that apply "
            "to them now. Files of old snapshots stay on storage; they are not live, and superseded deletion vectors are "
            "not counted.</p>",
            bar_chart(
                [t["table"] for t in ok[:40]],
                [100.0 * (t.get("deleted_share") or 0.0) for t in ok[:40]],
                title="deleted share of each table's live rows (%)",
                horizontal=True,
                value_fmt="{:.1f}%",
                color="#8250df",
            ),
            _table(
                tables,
                [
                    ("table", "table"),
                    ("format", "format"),
                    ("snapshot_id", "snapshot"),
                    ("data_files", "live data files"),
                    ("record_count", "rows"),
                    ("deleted_rows", "deleted rows"),
                    ("deleted_share", "deleted share"),
                    ("delete_files", "live delete files"),
                    ("orphan_files", "orphan files"),
                    ("orphan_bytes", "orphan bytes"),
                    ("missing_files", "missing files"),
                    ("rules_broken", "rules broken"),
                    ("error", "not read"),
                ],
                {"snapshot_id", "data_files", "record_count", "deleted_rows", "deleted_share", "delete_files", "orphan_files",
                 "orphan_bytes", "missing_files"},
            ),
            bar_chart(
                [t["table"] for t in ok[:40]],
                [float(t.get("orphan_bytes") or 0) for t in ok[:40]],
                title="bytes of orphan files per table (referenced by no retained snapshot)",
                horizontal=True,
                value_fmt="{:,.0f}",
                color="#bf8700",
            ),
            f"<h3>Orphan and missing files ({min(len(s.get('orphans', [])), 200):,} of {s.get('orphans_total', 0):,} shown)</h3>",
            _table(
                s.get("orphans", [])[:200],
                [("table", "table"), ("file", "file"), ("kind", "kind"), ("role", "role"), ("size", "bytes"), ("rows", "rows")],
                {"size", "rows"},
            ),
        ]
    deletes = s.get("deletes", [])
    shared = [d for d in deletes if d.get("deleted_share") is not None]
    body += [
        "<h2>Deletes per data file</h2>",
        "<p>Rows with a table come from that table's live state; the others are deletion vectors found outside any "
        "table, counted as the vectors on storage say.</p>",
        bar_chart(
            [d.get("data_file") or d["referenced_data_file"] for d in shared[:40]],
            [100.0 * d["deleted_share"] for d in shared[:40]],
            title="deleted share of each data file (%), highest first: rewrite candidates",
            horizontal=True,
            value_fmt="{:.1f}%",
            color="#8250df",
        ),
        _table(
            deletes[:50],
            [
                ("table", "table"),
                ("referenced_data_file", "referenced data file"),
                ("match", "matched by"),
                ("vectors", "vectors"),
                ("deleted_rows", "deleted rows"),
                ("row_count", "rows"),
                ("deleted_share", "deleted share"),
                ("positions_past_end", "positions past end"),
            ],
            {"vectors", "deleted_rows", "row_count", "deleted_share"},
        ),
        "<h2>Theta sketches whose ndv disagrees</h2>",
        _table(
            s.get("ndv_mismatch", []),
            [("file", "file"), ("blob_index", "blob"), ("fields", "fields"), ("ndv", "ndv"), ("theta_estimate", "estimate")],
            {"blob_index", "ndv", "theta_estimate"},
        ),
    ]
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>'
        f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n"
    )


def write_report(path: str, summary: dict[str, Any], *, paths: Sequence[str] = ()) -> str:
    """Write the page atomically (temp file + rename); returns ``path``."""
    page = render(summary, paths=paths).encode("utf-8")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    write_atomic(path, page)
    return path
