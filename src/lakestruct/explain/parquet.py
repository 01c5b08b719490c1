"""Explaining a Parquet file: magic, column chunks and their pages (header fields, level and value
sections, the decoded levels and first values), page indexes, bloom filters, the footer's Thrift
fields, the footer length and the trailing magic.

Only what the range asks for is read: the footer (the page walk needs its offsets; its Thrift fields
are parsed into nodes only when the range covers it), the page headers of the column chunks the range
touches (a chunk's walk stops at the range's end; pages before it cost a header read each) and the
bodies of the data pages in the range (and of their chunk's dictionary page) for levels and values.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from kaitaistruct import KaitaiStream

from .. import parquet
from .._generated.debug.parquet import Parquet as KsParquet
from .._generated.debug.thrift_compact import ThriftCompact
from .._kaitai import kaitai_call
from ..errors import FormatError
from ..parquet.assembly import leaf_converter
from ..parquet.encodings import ENCODINGS
from ..parquet.model import (
    BloomFilterHeader,
    ColumnChunk,
    ColumnIndex,
    FileMetaData,
    OffsetIndex,
    PageHeader,
    enum_name,
)
from ..parquet.values import ChunkSpec, DecodeBudget, PageData, PageSpec, iter_chunk, leaf_node, page_spec
from ..source import ByteSource
from ..thrift import kaitai as thrift_kaitai
from ..thrift.typed import from_raw
from .ks import span, thrift_nodes
from .tree import Explanation, Node, Reader, show_bytes, show_list

__all__ = ["explain_parquet"]

_CODECS = {0: "UNCOMPRESSED", 1: "SNAPPY", 2: "GZIP", 3: "LZO", 4: "BROTLI", 5: "LZ4", 6: "ZSTD", 7: "LZ4_RAW"}


class _Ctx:
    def __init__(self, ex: Explanation, reader: Reader, source: ByteSource) -> None:
        self.ex = ex
        self.reader = reader
        self.source = source
        self.lo, self.hi = ex.range

    def want(self, start: int, end: int) -> bool:
        return start < self.hi and end > self.lo

    def shows(self, level: int) -> bool:
        """Whether nodes at ``level`` (1 = top) are shown (so worth building)."""
        return self.ex.depth is None or level <= self.ex.depth


def _thrift_at(ctx: _Ctx, offset: int, length: int | None, model: Any, path: str) -> tuple[Any, int | None, Any, FormatError | None]:
    """Parse a Thrift compact struct at ``offset`` with the debug parser: (struct, bytes used, model, error).
    With a ``length`` the struct is read from exactly those bytes, else from the file's stream."""
    raw: Any
    if length is not None:
        raw = io.BytesIO(ctx.reader.fetch(offset, length))
        start = 0
    else:
        raw = ctx.reader
        start = offset
    stream = KaitaiStream(raw)
    stream.seek(start)
    st = ThriftCompact.CompactStruct(stream)
    try:
        kaitai_call("thrift_compact", raw, st._read, path=path)
    except FormatError as e:
        e.offset = offset if e.offset is None else e.offset + (offset if length is not None else 0)
        return st, None, None, e
    except RecursionError:
        return st, None, None, FormatError("structure nests too deeply", rule="thrift.depth", path=path, offset=offset)
    used = stream.pos() - start
    try:
        obj = from_raw(model, thrift_kaitai.from_kaitai(st, path), path=path, offset=offset)
    except FormatError as e:
        if e.offset is None:
            e.offset = offset
        return st, used, None, e
    return st, used, obj, None


def _struct_node(ctx: _Ctx, name: str, offset: int, length: int | None, model: Any, path: str, level: int) -> tuple[Node, Any]:
    """A node for the Thrift struct at ``offset`` (its fields as children), and the model read from it (None if broken)."""
    st, used, obj, err = _thrift_at(ctx, offset, length, model, path)
    if length is not None:
        end = offset + length
    elif used is not None:
        end = offset + used
    else:  # broken: as far as the parse got
        fields = st._debug.get("fields", {}).get("arr", [])
        end = max([offset + 1] + [int(d["end"]) for d in fields if "end" in d])
    node = Node(name, offset, end, kind=model.__name__, value="Thrift compact struct")
    if ctx.shows(level + 1):
        node.children = thrift_nodes(st, offset if length is not None else 0, model)
    if length is not None and used is not None and used < length:
        node.children.append(Node("(after the struct)", offset + used, offset + length, kind="bytes", value=f"{length - used} bytes"))
    if err is not None:
        ctx.ex.error(err, node)
    return node, obj


def _tail(ctx: _Ctx) -> Any:
    """The spec's root, read as far as it goes (magic, footer tail). Where it stops, the library's reader,
    which makes the same checks, names the rule."""
    root = KsParquet(KaitaiStream(ctx.reader))
    try:
        root._read()
    except Exception:  # parquet.open() below reports what is wrong, by its rule
        pass
    return root


def explain_parquet(ex: Explanation, reader: Reader, source: ByteSource) -> None:
    ctx = _Ctx(ex, reader, source)
    size = ex.size
    root = _tail(ctx)
    magic = span(root, "magic", 0)
    ms, me = magic if magic else (0, min(4, size))
    if me > ms:
        ex.nodes.append(Node("magic", ms, me, kind="bytes", value=show_bytes(reader.fetch(ms, me - ms)), data="PAR1"))
    tail = getattr(root, "_m_tail", None)
    if tail is not None and (r := span(tail, "len_footer", 0)) is not None:
        ex.nodes.append(Node("footer_length", r[0], r[1], kind="s4le", value=str(tail.len_footer), data=int(tail.len_footer)))
    elif size >= 8:
        raw = int.from_bytes(reader.fetch(size - 8, 4), "little", signed=True)
        ex.nodes.append(Node("footer_length", size - 8, size - 4, kind="s4le", value=str(raw), data=raw))
    if size >= 4:
        ex.nodes.append(Node("trailing_magic", size - 4, size, kind="bytes", value=show_bytes(reader.fetch(size - 4, 4))))
    try:
        pf = parquet.open(source)
    except parquet.EncryptedError as e:
        ex.notes.append(f"{e.rule} at offset {e.offset} ({e.path}): {e.message}")
        return
    except FormatError as e:
        ex.error(e)
        return
    foff, flen = pf.footer.offset, pf.footer.length
    if ctx.want(foff, foff + flen):
        node, _ = _struct_node(ctx, "footer", foff, flen, FileMetaData, "footer", 1)
        ex.count(node)
        node.value = f"FileMetaData, {pf.metadata.num_rows} rows, {len(pf.metadata.row_groups)} row group(s)"
        ex.nodes.append(node)
    else:
        ex.nodes.append(Node("footer", foff, foff + flen, kind="FileMetaData", value=f"{pf.metadata.num_rows} rows"))
    try:
        columns = pf.columns()
    except FormatError as e:
        ex.error(e)
        columns = []
    for rg, rgm in enumerate(pf.metadata.row_groups):
        rg_node = Node(f"row_groups[{rg}]", 0, 0, kind="RowGroup", value=f"{rgm.num_rows} rows, {len(rgm.columns)} column chunks")
        if len(rgm.columns) != len(columns) and columns:
            ex.error(pf.row_group_columns_error(rg))
        for c, cc in enumerate(rgm.columns):
            _chunk(ctx, pf, rg, c, cc, columns[c] if c < len(columns) else None, rg_node)
            _side_structures(ctx, pf, rg, c, cc)
        if rg_node.children:
            rg_node.start = min(n.start for n in rg_node.children)
            rg_node.end = max(n.end for n in rg_node.children)
            ex.nodes.append(rg_node)


def _chunk(ctx: _Ctx, pf: Any, rg: int, c: int, cc: ColumnChunk, desc: Any, parent: Node) -> None:
    md = cc.meta_data
    if md is not None and md.num_values == 0 and md.total_compressed_size == 0:
        return  # an empty chunk (offsets 0): no bytes
    try:
        start, end = pf.chunk_range(rg, c)
    except parquet.EncryptedError as e:
        ctx.ex.notes.append(f"row group {rg}, column {c}: {e.message}")
        return
    except FormatError as e:
        ctx.ex.error(e)
        return
    assert md is not None
    name = desc.name if desc is not None else ".".join(md.path_in_schema)
    node = parent.add(
        Node(
            f"columns[{c}]",
            start,
            end,
            kind="ColumnChunk",
            value=f"{name}: {enum_name(md.type)} {_CODECS.get(int(md.codec), str(md.codec))}, {md.num_values} values",
        )
    )
    if not ctx.want(start, end) or not ctx.shows(3):
        return
    _pages(ctx, pf, rg, c, node, start, end, desc, md)
    last = max((n.end for n in node.children), default=end)
    if last > end:  # pf.chunk_pages() tolerates this too (a parquet.chunk-size warning)
        node.end = last
        node.notes.append(f"its pages run {last - end} bytes past the chunk's stated end {end} (total_compressed_size is short)")


def _pages(ctx: _Ctx, pf: Any, rg: int, c: int, node: Node, start: int, end: int, desc: Any, md: Any) -> None:
    reader = ctx.reader
    stream = KaitaiStream(reader)
    limit = pf.footer.offset
    specs: list[PageSpec] = []
    page_nodes: dict[int, Node] = {}
    pos, index = start, 0
    base = f"row_groups[{rg}].columns[{c}].pages"
    while pos < end and pos < ctx.hi:
        if pos >= ctx.lo and ctx.ex.exhausted(pos):
            break
        path = f"{base}[{index}].header"
        stream.seek(pos)
        ph = KsParquet.ParquetPageHeader(stream, None, None)
        try:
            kaitai_call("thrift_compact", reader, ph._read, path=path)
            hsize = stream.pos() - pos
            model = from_raw(PageHeader, thrift_kaitai.from_kaitai(ph.raw, path), path=path, offset=pos)
            psize = model.compressed_page_size
            if psize < 0 or model.uncompressed_page_size < 0:
                raise FormatError(
                    f"negative page size (compressed {psize}, uncompressed {model.uncompressed_page_size})",
                    rule="parquet.page-size",
                    path=path,
                    offset=pos,
                )
            if pos + hsize + psize > limit:
                raise FormatError(
                    f"page [{pos}, {pos + hsize + psize}) runs into the footer at {limit}",
                    rule="parquet.page-overrun",
                    path=path,
                    offset=pos,
                )
        except FormatError as e:
            bad = node.add(Node(f"pages[{index}]", pos, max(pos + 1, stream.pos()), kind="PageHeader", value="unreadable page header"))
            if ctx.shows(4):
                bad.children = thrift_nodes(ph.raw, 0, PageHeader) if getattr(ph, "raw", None) is not None else []
            ctx.ex.error(e, bad)
            return
        except RecursionError:
            ctx.ex.error(FormatError("page header nests too deeply", rule="thrift.depth", path=path, offset=pos), node)
            return
        sp = page_spec(index, pos, hsize, model)
        specs.append(sp)
        if ctx.want(pos, sp.data_offset + sp.compressed_size):
            page_nodes[index] = pn = _page_node(ctx, sp, ph, md)
            ctx.ex.count(pn)
        pos = sp.data_offset + sp.compressed_size
        index += 1
    for n in page_nodes.values():
        node.add(n)
    if desc is not None and page_nodes and ctx.shows(3):
        _levels_and_values(ctx, pf, rg, c, desc, md, specs, page_nodes, complete=pos >= end)


def _page_node(ctx: _Ctx, sp: PageSpec, ph: Any, md: Any) -> Node:
    end = sp.data_offset + sp.compressed_size
    enc = ENCODINGS.get(sp.encoding, str(sp.encoding)) if sp.encoding is not None else None
    what = [sp.type_name]
    if enc:
        what.append(enc)
    if sp.num_values is not None:
        what.append(f"{sp.num_values} values")
    if sp.num_nulls is not None:
        what.append(f"{sp.num_nulls} nulls")
    if sp.num_rows is not None:
        what.append(f"{sp.num_rows} rows")
    page = Node(f"pages[{sp.index}]", sp.offset, end, kind=sp.type_name, value=", ".join(what))
    header = page.add(Node("header", sp.offset, sp.data_offset, kind="PageHeader", value="Thrift compact struct"))
    if ctx.shows(5):
        header.children = thrift_nodes(ph.raw, 0, PageHeader)
    codec = _CODECS.get(int(md.codec), str(md.codec))
    stored = "stored" if md.codec == 0 or (sp.type == 3 and not sp.is_compressed) else f"{codec}-compressed"
    what_body = f"{sp.compressed_size} bytes {stored}, {sp.uncompressed_size} uncompressed"
    body = page.add(Node("body", sp.data_offset, end, kind="bytes", value=what_body))
    if sp.type == 3:
        rl, dl = sp.repetition_levels_byte_length or 0, sp.definition_levels_byte_length or 0
        at = sp.data_offset
        if rl >= 0 and dl >= 0 and rl + dl <= sp.compressed_size:
            hybrid = "RLE/bit-packed hybrid"
            if rl:
                body.add(Node("repetition_levels", at, at + rl, kind=hybrid, value=f"{rl} bytes, never compressed"))
            if dl:
                body.add(Node("definition_levels", at + rl, at + rl + dl, kind=hybrid, value=f"{dl} bytes, never compressed"))
            if at + rl + dl < end:
                body.add(Node("values", at + rl + dl, end, kind=enc or "values", value=f"{end - at - rl - dl} bytes {stored}"))
    return page


def _levels_and_values(
    ctx: _Ctx, pf: Any, rg: int, c: int, desc: Any, md: Any, specs: list[PageSpec], pages: dict[int, Node], *, complete: bool
) -> None:
    """Decode the levels and values of the data pages shown, with lakestruct.parquet's values API, and note
    them under each page. The chunk's dictionary page is decoded too (the values need it)."""
    shown = [sp for sp in specs if sp.index in pages]
    dictionary = [sp for sp in specs if sp.type == 2 and sp.index not in pages][:1]
    whole = complete and len(shown) == len(specs)
    first_data = next((sp.index for sp in specs if sp.type in (0, 3)), None)
    try:
        conv: Callable[[Any], Any] | None = leaf_converter(leaf_node(pf, c), lambda w: None)
    except FormatError:
        conv = None

    def note(pd: PageData) -> None:
        pn = pages.get(pd.index)
        if pn is None:
            return
        if pd.type == 2:
            vals = [] if pd.dictionary is None else pd.dictionary[:16].tolist()
            pn.notes.append(f"dictionary: {show_list(_convert(conv, vals), pd.num_values)}")
            return
        if pd.repetition_levels is not None:
            pn.notes.append(f"repetition levels: {show_list(pd.repetition_levels[:32].tolist(), pd.num_values, 32)}")
        if pd.definition_levels is not None:
            pn.notes.append(f"definition levels: {show_list(pd.definition_levels[:32].tolist(), pd.num_values, 32)}")
        if pd.values is not None:
            pn.notes.append(f"values: {show_list(_convert(conv, pd.values[:16].tolist()), len(pd.values))}")
        _v1_sections(pn, pd)

    remaining = list(shown)
    budget = DecodeBudget()
    read = ctx.reader.fetch
    while remaining:
        spec = ChunkSpec(
            row_group=rg,
            column=c,
            path=desc.name,
            physical_type=int(desc.physical_type),
            max_definition_level=desc.max_definition_level,
            max_repetition_level=desc.max_repetition_level,
            codec=int(md.codec),
            pages=dictionary + remaining,
            type_length=desc.type_length,
            num_values=md.num_values if whole else None,
            num_rows=pf.metadata.row_groups[rg].num_rows if whole else None,
        )
        done: set[int] = set()
        try:
            for pd in iter_chunk(spec, read, values=True, budget=budget):
                done.add(pd.index)
                note(pd)
            return
        except FormatError as e:
            failing = next((sp for sp in spec.pages if sp.index not in done), None)
            if failing is None:  # a chunk-level check, after the last page
                ctx.ex.error(e.with_source(ctx.ex.name), pages[shown[-1].index])
                return
            pn = pages.get(failing.index)
            continues = failing.type == 0 and failing.index != first_data and e.rule == "parquet.levels.first-repetition"
            if not continues:  # the first error ends the chunk's decoding (later pages would repeat it, or need what failed)
                ctx.ex.error(e.with_source(ctx.ex.name), pn)
                return
            if pn is not None:  # not an error: the range starts inside a record
                pn.notes.append("levels not decoded: this page continues a record begun on an earlier page (explain its whole chunk)")
            remaining = [sp for sp in remaining if sp.index > failing.index]


def _convert(conv: Callable[[Any], Any] | None, values: list[Any]) -> list[Any]:
    if conv is None:
        return values
    out = []
    for v in values:
        try:
            out.append(conv(v))
        except (FormatError, ValueError, OverflowError):
            out.append(v)
    return out


def _v1_sections(page: Node, pd: PageData) -> None:
    """The level and value sections of an uncompressed v1 page (known once its levels are decoded)."""
    if pd.type != 0 or pd.values_at is None:
        return
    body = next((n for n in page.children if n.name == "body"), None)
    if body is None or body.children:
        return
    marks = [("repetition_levels", pd.repetition_levels_at), ("definition_levels", pd.definition_levels_at), ("values", pd.values_at)]
    present = [(n, at) for n, at in marks if at is not None]
    for i, (name, at) in enumerate(present):
        stop = present[i + 1][1] if i + 1 < len(present) else body.end
        assert stop is not None
        kind = "4-byte length + RLE/bit-packed hybrid" if name != "values" else (pd.encoding_name or "values")
        if stop > at:
            body.add(Node(name, at, stop, kind=kind, value=f"{stop - at} bytes"))


def _side_structures(ctx: _Ctx, pf: Any, rg: int, c: int, cc: ColumnChunk) -> None:
    """The chunk's ColumnIndex, OffsetIndex and bloom filter, where the range covers them. The library reads
    each first (its checks name what is wrong: a range outside the page region, a bad header); the debug
    parser then gives the fields' positions."""
    where = f"row_groups[{rg}].columns[{c}]"
    size = ctx.ex.size
    if cc.crypto_metadata is not None or cc.meta_data is None:
        return  # an encrypted column's page index is encrypted too
    for name, off, length, model, read in (
        ("column_index", cc.column_index_offset, cc.column_index_length, ColumnIndex, pf.column_index),
        ("offset_index", cc.offset_index_offset, cc.offset_index_length, OffsetIndex, pf.offset_index),
    ):
        if off is None or length is None or not ctx.want(off, off + length) or ctx.ex.exhausted(off):
            continue
        try:
            read(rg, c)
        except FormatError as e:
            ctx.ex.error(e.with_source(ctx.ex.name))
            continue
        except IndexError:  # more chunks than leaf columns (parquet.row-group-columns, reported once per row group)
            pass
        if not (off >= 0 and length > 0 and off + length <= size):
            continue
        side = _struct_node(ctx, f"{where}.{name}", off, length, model, f"{where}.{name}", 1)[0]
        ctx.ex.count(side)
        ctx.ex.nodes.append(side)
    md = cc.meta_data
    if md is None or md.bloom_filter_offset is None:
        return
    off = md.bloom_filter_offset
    if not 0 <= off < size:
        return
    length = md.bloom_filter_length
    if not ctx.want(off, off + (length or 1)) or ctx.ex.exhausted(off):
        return
    try:
        pf.bloom_filter(rg, c)
    except FormatError as e:
        ctx.ex.error(e.with_source(ctx.ex.name))
        return
    except IndexError:  # more chunks than leaf columns (parquet.row-group-columns, reported once per row group)
        pass
    bf = Node(f"{where}.bloom_filter", off, off + (length or 0), kind="BloomFilter", value="split-block bloom filter")
    header, h = _struct_node(ctx, "header", off, None, BloomFilterHeader, f"{where}.bloom_filter.header", 2)
    bf.add(header)
    nbytes = int(h.numBytes) if h is not None else -1
    if nbytes >= 0 and header.end + nbytes <= size:
        bf.add(Node("bitset", header.end, header.end + nbytes, kind="bytes", value=f"{nbytes // 32} blocks of 32 bytes"))
        bf.end = max(bf.end, header.end + nbytes)
    bf.end = max(bf.end, header.end)
    ctx.ex.nodes.append(bf)
