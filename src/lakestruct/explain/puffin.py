"""Explaining a Puffin file: the magic, each blob (a deletion vector's envelope and Roaring containers,
an uncompressed Theta sketch's fields) and the footer (magic, the JSON payload pretty printed beside
its bytes, payload size, flags, trailing magic).

The footer is read from the end (one read of the tail, one of the payload when it is longer); a blob
is read only when the range covers it.
"""

from __future__ import annotations

import json
from typing import Any

from kaitaistruct import KaitaiStream

from .. import codecs, puffin
from .._generated.debug.puffin import Puffin as KsPuffin
from .._kaitai import kaitai_call
from ..errors import FormatError
from ..puffin.read import MAX_FOOTER_PAYLOAD
from ..source import ByteSource
from .ks import span, struct_nodes
from .small import MAX_TREE_BYTES, structure_nodes
from .tree import Explanation, Node, Reader, show_bytes

__all__ = ["explain_puffin"]

_BLOB_FORMATS = {"deletion-vector-v1": "dv-blob", "apache-datasketches-theta-v1": "theta"}


def explain_puffin(ex: Explanation, reader: Reader, source: ByteSource) -> None:
    lo, hi = ex.range
    size = ex.size
    root = KsPuffin(KaitaiStream(reader))
    try:
        kaitai_call("puffin", reader, root._read, path="magic")
    except FormatError as e:
        ex.error(e)
    magic = span(root, "magic", 0)
    ms, me = magic if magic else (0, min(4, size))
    if me > ms:
        ex.nodes.append(Node("magic", ms, me, kind="bytes", value=show_bytes(reader.fetch(ms, me - ms))))
    meta: Any = None
    try:
        with puffin.open(source) as pf:
            meta = pf.metadata
    except FormatError as e:
        if not any(x.rule == e.rule and x.offset == e.offset for x in ex.errors):
            ex.error(e)
    footer = _footer(ex, root, meta)
    if meta is None:
        return
    limit = footer.start if footer is not None else size
    for i, b in enumerate(meta.blobs):
        end = b.offset + b.length
        codec = f", {b.compression_codec}-compressed" if b.compression_codec else ""
        node = Node(f"blobs[{i}]", b.offset, end, kind=b.type, value=f"{b.type}, {b.length} bytes{codec}, fields {list(b.fields)}")
        node.notes.extend(f"{k}: {v}" for k, v in b.properties.items())
        ex.nodes.append(node)
        if not (b.offset < hi and end > lo) or not (4 <= b.offset <= end <= limit):
            continue
        if ex.depth is not None and ex.depth < 2:
            continue
        fmt = _BLOB_FORMATS.get(b.type)
        if fmt is None:
            continue
        if b.compression_codec is not None:
            node.notes.append("compressed: its structure is not at file offsets (decompress the blob and explain it on its own)")
            continue
        if ex.exhausted(b.offset):
            continue
        if b.length > MAX_TREE_BYTES:
            node.notes.append(f"{b.length} bytes: larger than explain parses into fields ({MAX_TREE_BYTES} bytes); not parsed")
            continue
        structure_nodes(ex, fmt, reader.fetch(b.offset, b.length), b.offset, node)
        ex.count(node)


def _footer(ex: Explanation, root: Any, meta: Any) -> Node | None:
    """The footer node: magic, payload (with its JSON beside), and the tail (size, flags, magic)."""
    tail = getattr(root, "_m_tail", None)
    footer = getattr(root, "_m_footer", None)
    size = ex.size
    start = size - 12
    node: Node | None = None
    if footer is not None and (r := span(root, "_m_footer", 0)) is not None:
        start = r[0]
    if tail is None:
        return None
    node = Node("footer", start, size, kind="Footer")
    if footer is not None:
        node.children.extend(struct_nodes(footer, 0, {}, skip=frozenset({"payload_text"})))
        payload = next((n for n in node.children if n.name == "payload"), None)
        if payload is not None:
            raw = bytes(footer.payload)
            compressed = bool(tail.flags.payload_compressed) if hasattr(tail, "flags") else False
            payload.value = f"{len(raw)} bytes of JSON" + (", LZ4-compressed" if compressed else "")
            payload.data = None
            payload.beside = _pretty(raw, compressed)
        node.value = f"{len(meta.blobs)} blob(s)" if meta is not None else ""
    tail_node = Node("tail", size - 12, size, kind="FooterTail", value="payload size, flags, trailing magic")
    tail_node.children = struct_nodes(tail, 0, {})
    for n in tail_node.children:
        if n.name == "flags" and hasattr(tail, "flags"):
            n.value = "compressed" if tail.flags.payload_compressed else "not compressed"
    node.children.append(tail_node)
    ex.nodes.append(node)
    return node


def _pretty(raw: bytes, compressed: bool) -> list[str]:
    try:
        if compressed:
            raw = codecs.decompress("lz4", raw, limit=MAX_FOOTER_PAYLOAD, rule="puffin.footer-lz4", path="footer.payload", offset=None)
        text: str = json.dumps(json.loads(raw.decode("utf-8")), indent=2, ensure_ascii=False)
    except (FormatError, ValueError, RecursionError):
        return []
    return text.splitlines()
