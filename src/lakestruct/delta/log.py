"""The ``_delta_log`` of a Delta Lake table read from its bytes: listing, JSON commits, checkpoints (classic,
multi-part, V2 with sidecars, in JSON or Parquet), log compactions, ``_last_checkpoint``, and action
reconciliation (PROTOCOL.md "Action Reconciliation") to the state of one version.

Checkpoints and sidecars are read with lakestruct's own Parquet reader (:mod:`lakestruct.parquet`: the leaves of
the action columns decoded and assembled; ``add.stats_parsed`` and ``add.partitionValues_parsed`` are skipped, except
``stats_parsed.numRecords``).

Replay keeps the raw action of each logical file, keyed by ``(path, deletionVector.uniqueId)`` (the path alone when
there is no vector), newest wins; memory holds the live files and tombstones, one commit file at a time.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import FormatError, SourceError
from ..source import open_source
from .model import ACTIONS, LogFile, Where

__all__ = ["LogListing", "Replay", "list_log", "read_bytes", "read_checkpoint_rows", "replay"]

_COMMIT = re.compile(r"^(\d{20})\.json$")
_CLASSIC = re.compile(r"^(\d{20})\.checkpoint\.parquet$")
_PART = re.compile(r"^(\d{20})\.checkpoint\.(\d{10})\.(\d{10})\.parquet$")
_UUID = re.compile(r"^(\d{20})\.checkpoint\.([^./]+)\.(json|parquet)$")
_COMPACTION = re.compile(r"^(\d{20})\.(\d{20})\.compacted\.json$")
_CRC = re.compile(r"^(\d{20})\.crc$")

#: the top-level columns of a checkpoint that hold actions
_CHECKPOINT_ACTIONS = ("add", "remove", "metaData", "protocol", "txn", "domainMetadata", "checkpointMetadata", "sidecar")


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """The cyclic garbage collector paused: replay builds hundreds of thousands of acyclic dicts and tuples, and each
    collection would walk all of them again (quadratic in the log's length)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def is_url(path: str) -> bool:
    scheme, sep, _ = path.partition("://")
    return bool(sep) and len(scheme) > 1 and not path.startswith("file://")


def local_path(path: str) -> str | None:
    """The local path of ``path`` (``file://`` stripped), or None for another URL."""
    if path.startswith("file://"):
        return path[len("file://") :]
    return None if is_url(path) else path


def read_bytes(path: str) -> bytes:
    """The whole file (local paths read directly; URLs through lakestruct's byte sources)."""
    lp = local_path(path)
    if lp is not None:
        try:
            with open(lp, "rb") as f:
                return f.read()
        except FileNotFoundError:
            raise SourceError(f"{path}: no such file") from None
        except OSError as e:
            raise SourceError(f"{path}: cannot read: {e.strerror}") from None
    with open_source(path) as src:
        return src.read(0, src.size)


def _list_dir(path: str) -> list[tuple[str, int, int | None, bool]]:
    """(name, size, mtime in ms, is_dir) of the entries of a folder; [] when it does not exist."""
    lp = local_path(path)
    if lp is not None:
        try:
            with os.scandir(lp) as it:
                out: list[tuple[str, int, int | None, bool]] = []
                for e in it:
                    st = e.stat()
                    out.append((e.name, st.st_size, int(st.st_mtime * 1000), e.is_dir()))
                return out
        except FileNotFoundError:
            return []
        except NotADirectoryError:
            return []
        except OSError as e:
            raise SourceError(f"{path}: cannot list: {e.strerror}") from None
    try:
        import fsspec

        fs, p = fsspec.core.url_to_fs(path)
        if not fs.exists(p):
            return []
        out2: list[tuple[str, int, int | None, bool]] = []
        for info in fs.ls(p, detail=True):
            name = info["name"].rstrip("/").rsplit("/", 1)[-1]
            mtime = info.get("mtime") or info.get("LastModified")
            ms = None
            if isinstance(mtime, (int, float)):
                ms = int(mtime * 1000)
            elif mtime is not None and hasattr(mtime, "timestamp"):
                ms = int(mtime.timestamp() * 1000)
            out2.append((name, int(info.get("size") or 0), ms, info.get("type") == "directory"))
        return out2
    except ImportError as e:
        raise SourceError(f"{path}: reading this URL needs an fsspec backend ({e})") from None
    except Exception as e:
        raise SourceError(f"{path}: cannot list: {e}") from None


def classify(name: str, size: int, mtime_ms: int | None = None) -> LogFile:
    """A ``_delta_log`` file name as a :class:`LogFile`."""
    if m := _COMMIT.match(name):
        return LogFile(name, "commit", int(m.group(1)), size, mtime_ms=mtime_ms)
    if m := _CLASSIC.match(name):
        return LogFile(name, "checkpoint", int(m.group(1)), size, mtime_ms=mtime_ms)
    if m := _PART.match(name):
        return LogFile(name, "checkpoint-part", int(m.group(1)), size, part=int(m.group(2)), parts=int(m.group(3)),
                       mtime_ms=mtime_ms)
    if m := _UUID.match(name):
        return LogFile(name, "checkpoint-v2", int(m.group(1)), size, mtime_ms=mtime_ms)
    if m := _COMPACTION.match(name):
        return LogFile(name, "compaction", int(m.group(2)), size, start=int(m.group(1)), mtime_ms=mtime_ms)
    if m := _CRC.match(name):
        return LogFile(name, "crc", int(m.group(1)), size, mtime_ms=mtime_ms)
    if name == "_last_checkpoint":
        return LogFile(name, "last-checkpoint", None, size, mtime_ms=mtime_ms)
    if name.startswith("_sidecars/"):
        return LogFile(name, "sidecar", None, size, mtime_ms=mtime_ms)
    return LogFile(name, "other", None, size, mtime_ms=mtime_ms)


@dataclass
class LogListing:
    """The files of ``_delta_log`` (and ``_delta_log/_sidecars``), by kind."""

    log_dir: str
    files: list[LogFile]
    commits: dict[int, LogFile] = field(default_factory=dict)
    checkpoints: dict[int, list[list[LogFile]]] = field(default_factory=dict)  #: version -> complete checkpoints
    incomplete: list[LogFile] = field(default_factory=list)  #: parts of multi-part checkpoints that miss parts
    compactions: list[LogFile] = field(default_factory=list)
    last_checkpoint: LogFile | None = None

    def path(self, name: str) -> str:
        return f"{self.log_dir}/{name}"

    @property
    def latest(self) -> int | None:
        versions = [*self.commits, *self.checkpoints]
        return max(versions) if versions else None


def list_log(root: str) -> LogListing:
    """List ``<root>/_delta_log`` (one listing, plus ``_sidecars/``)."""
    log_dir = f"{root}/_delta_log"
    entries = _list_dir(log_dir)
    if not entries:
        raise SourceError(f"{root}: not a Delta table (no _delta_log/ or an empty one)")
    files = []
    for name, size, mtime, is_dir in sorted(entries):
        if is_dir:
            if name == "_sidecars":
                for sname, ssize, smtime, sdir in sorted(_list_dir(f"{log_dir}/_sidecars")):
                    if not sdir and not sname.startswith("."):
                        files.append(classify(f"_sidecars/{sname}", ssize, smtime))
            continue
        if name.startswith("."):
            continue  # Hadoop's .crc side files
        files.append(classify(name, size, mtime))
    out = LogListing(log_dir, files)
    parts: dict[tuple[int, int], dict[int, LogFile]] = {}
    for f in files:
        if f.kind == "commit":
            assert f.version is not None
            out.commits[f.version] = f
        elif f.kind in ("checkpoint", "checkpoint-v2"):
            assert f.version is not None
            out.checkpoints.setdefault(f.version, []).append([f])
        elif f.kind == "checkpoint-part":
            assert f.version is not None and f.parts is not None and f.part is not None
            parts.setdefault((f.version, f.parts), {})[f.part] = f
        elif f.kind == "compaction":
            out.compactions.append(f)
        elif f.kind == "last-checkpoint":
            out.last_checkpoint = f
    for (v, n), got in sorted(parts.items()):
        if set(got) == set(range(1, n + 1)):
            out.checkpoints.setdefault(v, []).append([got[i] for i in range(1, n + 1)])
        else:
            out.incomplete.extend(got.values())
    return out


# -- reading actions --------------------------------------------------------------------------------------------


def json_error(e: ValueError, data: bytes, line: int, offset: int, name: str) -> FormatError:
    text = data.split(b"\n", line)[line - 1] if line >= 1 else b""
    what = "an empty line" if not text.strip() else f"not one JSON object ({e})"
    return FormatError(f"{what}"[:300], rule="delta.log.json", path=f"line[{line}]", offset=offset, source=name)


def iter_json_lines(data: bytes, name: str) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(line from 1, byte offset, action object) of a newline-delimited JSON log file (``delta.log.json``)."""
    loads = json.loads
    off = 0
    lineno = 0
    for line in data.split(b"\n"):
        lineno += 1
        n = len(line)
        if n == 0 or (n < 3 and not line.strip()):
            off += n + 1
            continue
        try:
            obj = loads(line)
        except ValueError as e:
            raise json_error(e, data, lineno, off, name) from None
        if type(obj) is not dict:
            raise FormatError(f"a log line holds one JSON object (an action), this one a {type(obj).__name__}",
                              rule="delta.log.json", path=f"line[{lineno}]", offset=off, source=name)
        yield lineno, off, obj
        off += n + 1


def line_offset(data: bytes, line: int) -> int:
    """The byte offset of line ``line`` (from 1)."""
    off = 0
    for _ in range(line - 1):
        nl = data.find(b"\n", off)
        if nl < 0:
            return off
        off = nl + 1
    return off


def _as_dict(v: Any) -> Any:
    """A Parquet MAP as assembled (a list of (key, value) tuples) as the JSON log writes it (an object)."""
    if type(v) is list:
        return {k: x for k, x in v}
    return v


def read_checkpoint_rows(path: str, *, require_add: bool) -> tuple[list[tuple[int, dict[str, Any]]], set[str]]:
    """(row, {action: value}) of every action of a Parquet checkpoint, V2 checkpoint or sidecar, and the set of its
    action columns. ``require_add``: a checkpoint whose schema has no ``add`` column breaks
    ``delta.checkpoint.schema``."""
    from .. import parquet
    from ..parquet.assembly import assemble_column, leaf_chains, leaf_converter, schema_tree, top_level_leaves
    from ..parquet.values import DecodeBudget, concat_levels, read_column

    with parquet.open(path) as pf:
        try:
            root = schema_tree(pf.metadata.schema)
            names = [c.name for c in root.children]
            if require_add and "add" not in names:
                raise FormatError(f"a checkpoint has an `add` column (struct); this one has {', '.join(names) or 'none'}",
                                  rule="delta.checkpoint.schema", path="schema.add", offset=pf.footer.offset, source=path)
            chains = leaf_chains(root)
            tops = top_level_leaves(root)
            budget = DecodeBudget(objects=True)
            columns: dict[str, list[Any]] = {}
            for pos, top in enumerate(root.children):
                if top.name not in _CHECKPOINT_ACTIONS:
                    continue
                if not top.children:
                    raise FormatError(f"the checkpoint column {top.name!r} is a struct; here it is a leaf", rule="delta.checkpoint.schema",
                                      path=f"schema.{top.name}", offset=pf.footer.offset, source=path)
                leaves: dict[tuple[str, ...], Any] = {}
                convs: dict[int, Callable[[Any], Any]] = {}
                for i in tops[pos]:
                    chain = chains[i]
                    key = tuple(n.name for n in chain)
                    if len(key) > 2 and key[1] in ("stats_parsed", "partitionValues_parsed") and key[1:] != ("stats_parsed", "numRecords"):
                        continue  # typed copies of what stats/partitionValues hold as text
                    leaves[key] = concat_levels(read_column(pf, i, budget=budget))
                    convs[id(chain[-1])] = leaf_converter(chain[-1])

                def conv(node: Any, v: Any, convs: dict[int, Callable[[Any], Any]] = convs) -> Any:
                    return convs[id(node)](v)

                columns[top.name] = assemble_column(top, leaves, leaf=conv)
            rows: list[tuple[int, dict[str, Any]]] = []
            n = pf.metadata.num_rows
            for name, col in columns.items():
                if len(col) != n:
                    raise FormatError(f"column {name!r} has {len(col)} rows, the file {n}", rule="delta.checkpoint.schema",
                                      path=f"schema.{name}", offset=pf.footer.offset, source=path)
            for r in range(n):
                acts = {}
                for name, col in columns.items():
                    v = col[r]
                    if v is not None:
                        if name in ("add", "remove"):
                            v = dict(v)
                            for k in ("partitionValues", "tags"):
                                if k in v:
                                    v[k] = _as_dict(v[k])
                            sp = v.pop("stats_parsed", None)
                            v.pop("partitionValues_parsed", None)
                            if v.get("stats") is None and isinstance(sp, dict) and sp.get("numRecords") is not None:
                                v["stats"] = json.dumps({"numRecords": sp["numRecords"]})
                        elif name == "metaData":
                            v = dict(v)
                            v["configuration"] = _as_dict(v.get("configuration"))
                            fmt = v.get("format")
                            if isinstance(fmt, dict):
                                v["format"] = {**fmt, "options": _as_dict(fmt.get("options"))}
                        elif name in ("checkpointMetadata", "sidecar"):
                            v = dict(v)
                            if "tags" in v:
                                v["tags"] = _as_dict(v["tags"])
                        acts[name] = v
                if acts:
                    rows.append((r, acts))
            return rows, set(columns)
        except FormatError as e:
            raise e.with_source(path) from None


# -- replay ------------------------------------------------------------------------------------------------------


@dataclass
class Source:
    """A log file replay read: its path, kind and the version its actions belong to."""

    path: str
    kind: str  # "commit", "checkpoint", "sidecar", "compaction"
    version: int
    json: bool


def dv_unique_id(dv: Any) -> str | None:
    """``deletionVector.uniqueId`` of a raw descriptor (None when it is not a JSON object of the right shape)."""
    if type(dv) is not dict:
        return None
    st = dv.get("storageType")
    p = dv.get("pathOrInlineDv")
    if type(st) is not str or type(p) is not str:
        return None
    off = dv.get("offset")
    return f"{st}{p}" if off is None else f"{st}{p}@{off}"


@dataclass
class Replay:
    """The reconciled actions of one version: raw action objects with (source index, line or row)."""

    version: int
    sources: list[Source]
    adds: dict[Any, tuple[dict[str, Any], int, int]] = field(default_factory=dict)
    removes: dict[Any, tuple[dict[str, Any], int, int]] = field(default_factory=dict)
    protocol: tuple[dict[str, Any], int, int] | None = None
    metadata: tuple[dict[str, Any], int, int] | None = None
    txns: dict[str, dict[str, Any]] = field(default_factory=dict)
    domains: dict[str, dict[str, Any]] = field(default_factory=dict)
    checkpoint: list[str] = field(default_factory=list)  #: the checkpoint files replay started from
    #: keep the tombstones (``remove`` actions); without them memory holds only the live files, however long the log
    keep_removes: bool = False
    unknown: list[FormatError] = field(default_factory=list)  #: actions this reader does not know (ignored)

    def where(self, src: int, line: int) -> Where:
        s = self.sources[src]
        if s.json:
            try:
                off = line_offset(read_bytes(s.path), line)
            except SourceError:
                off = None
            return Where(s.path, line=line, offset=off)
        return Where(s.path, row=line)


def _bad_key(action: str, obj: Any, src: str, line: int, off: int | None, is_json: bool) -> FormatError:
    at = f"line[{line}]" if is_json else f"row[{line}]"
    if type(obj) is not dict:
        return FormatError(f"an `{action}` action is a JSON object; this one is {type(obj).__name__}", rule="delta.action.field",
                           path=f"{at}.{action}", offset=off, source=src)
    return FormatError(f"an `{action}` action names its file by a string `path`; found {obj.get('path')!r}"[:300],
                       rule="delta.action.field", path=f"{at}.{action}.path", offset=off, source=src)


def _apply(rp: Replay, si: int, acts: dict[str, Any], line: int, off: int | None) -> None:
    """Apply one line's (or row's) actions to the replay (the slow path: every action kind)."""
    src = rp.sources[si]
    for name, v in acts.items():
        if name == "add" or name == "remove":
            if type(v) is not dict or type(v.get("path")) is not str:
                raise _bad_key(name, v, src.path, line, off, src.json)
            dv = v.get("deletionVector")
            key: Any = v["path"] if dv is None else (v["path"], dv_unique_id(dv))
            if name == "add":
                rp.adds[key] = (v, si, line)
                rp.removes.pop(key, None)
            else:
                if rp.keep_removes:
                    rp.removes[key] = (v, si, line)
                rp.adds.pop(key, None)
        elif name == "protocol":
            rp.protocol = (v, si, line)
        elif name == "metaData":
            rp.metadata = (v, si, line)
        elif name == "txn":
            if type(v) is dict and type(v.get("appId")) is str:
                rp.txns[v["appId"]] = v
        elif name == "domainMetadata":
            if type(v) is dict and type(v.get("domain")) is str:
                if v.get("removed") is True:
                    rp.domains.pop(v["domain"], None)
                else:
                    rp.domains[v["domain"]] = v
        elif name in ("commitInfo", "cdc"):
            pass
        elif name in ("checkpointMetadata", "sidecar"):
            if src.kind in ("commit", "compaction"):
                at = f"line[{line}]" if src.json else f"row[{line}]"
                rp.unknown.append(FormatError(f"`{name}` belongs in V2 checkpoints only; a {src.kind} file may not hold it "
                                              "(ignored)", rule="delta.action.misplaced", path=f"{at}.{name}", offset=off,
                                              source=src.path))
        elif name not in ACTIONS:
            at = f"line[{line}]" if src.json else f"row[{line}]"
            rp.unknown.append(FormatError(f"unknown action `{name}` (ignored, as the protocol asks of readers)"[:300],
                                          rule="delta.action.unknown", path=f"{at}.{name}", offset=off, source=src.path))


# The shape most writers give an `add` without a deletion vector, matched whole (anything else is parsed as JSON):
# strings without escapes or control characters, partition values strings or null, optional stats (a JSON string).
_STR = rb'"[\x20\x21\x23-\x5b\x5d-\x7e]*"'  # printable ASCII but quote and backslash
_FAST_ADD = re.compile(
    rb'\{"add":\{"path":"([\x20\x21\x23-\x5b\x5d-\x7e]+)","partitionValues":\{((?:' + _STR + rb':(?:' + _STR + rb'|null)'
    rb'(?:,' + _STR + rb':(?:' + _STR + rb'|null))*)?)\},"size":(0|[1-9][0-9]{0,17}),"modificationTime":(0|[1-9][0-9]{0,17}),'
    rb'"dataChange":(true|false)(,"stats":"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")?'
    rb'(?:,"(?:tags|baseRowId|defaultRowCommitVersion|clusteringProvider)":null)*\}\}\r?')  # null fields (delta-rs) = absent
_FAST_PV = re.compile(rb'"([^"]*)":(?:"([^"]*)"|(null))').findall


def _pv_parse(pv_b: bytes) -> dict[str, str | None]:
    """The partitionValues of a plain add line (the text between its braces)."""
    return {k.decode(): (None if z else v.decode()) for k, v, z in _FAST_PV(pv_b)}


def _load_compiled() -> Any:
    from .._twins import forced_pure

    if forced_pure("delta"):  # LAKESTRUCT_PURE
        return None
    try:
        from . import _replay_c  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - built without Cython
        return None
    return _replay_c


_compiled = _load_compiled()
#: True when the compiled twin of the JSON log scan (``_replay_c``, Cython) is in use
COMPILED = _compiled is not None


def replay_json(rp: Replay, si: int, data: bytes, *, compiled: bool = True) -> None:
    """Apply a JSON commit (or compaction, or V2 checkpoint) file. Plain ``add`` lines (the shape of ``_FAST_ADD``) take
    a fast path, matched whole and built without the generic JSON objects (by the compiled twin ``_replay_c`` when it
    is built, ``compiled=False`` forces this pure one); every other line goes through ``json.loads``. Byte offsets of
    lines are computed only when an error (or an unknown action) names one."""
    src = rp.sources[si]
    name = src.path
    adds = rp.adds
    removes = rp.removes
    keep = rp.keep_removes
    loads = json.loads
    pv_cache: dict[bytes, dict[str, str | None]] = {}
    starts: list[int] = []

    def offset_of(line: int) -> int:
        if not starts:
            starts.append(0)
            starts.extend(m.end() for m in re.finditer(b"\n", data))
        return starts[line - 1]

    def slow(lineno: int, line: bytes) -> None:
        try:
            obj = loads(line)
        except ValueError as e:
            raise json_error(e, data, lineno, offset_of(lineno), name) from None
        if type(obj) is not dict:
            raise FormatError(f"a log line holds one JSON object (an action), this one a {type(obj).__name__}",
                              rule="delta.log.json", path=f"line[{lineno}]", offset=offset_of(lineno), source=name)
        if len(obj) == 1:
            ad = obj.get("add")
            if ad is not None:
                p = ad.get("path") if type(ad) is dict else None
                if type(p) is str:
                    dv = ad.get("deletionVector")
                    key: Any = p if dv is None else (p, dv_unique_id(dv))
                    adds[key] = (ad, si, lineno)
                    if removes:
                        removes.pop(key, None)
                    return
            r = obj.get("remove")
            if r is not None:
                p = r.get("path") if type(r) is dict else None
                if type(p) is str:
                    dv = r.get("deletionVector")
                    key = p if dv is None else (p, dv_unique_id(dv))
                    if keep:
                        removes[key] = (r, si, lineno)
                    adds.pop(key, None)
                    return
        _apply(rp, si, obj, lineno, offset_of(lineno))

    if compiled and _compiled is not None:
        _compiled.scan(data, adds, removes, si, pv_cache, _pv_parse, loads, slow)
        return
    fast = _FAST_ADD.fullmatch
    lineno = 0
    for line in data.split(b"\n"):
        lineno += 1
        m = fast(line)
        if m is not None:  # the common shape of an add, read without building the generic JSON objects
            path_b, pv_b, size_b, mt_b, dc_b, stats_b = m.groups()
            if stats_b:
                try:
                    stats = loads(stats_b[9:])
                except ValueError:  # not UTF-8: the generic path names the line
                    slow(lineno, line)
                    continue
            pv = pv_cache.get(pv_b)
            if pv is None:
                pv = _pv_parse(pv_b) if pv_b else {}
                if len(pv_cache) < 65536:
                    pv_cache[pv_b] = pv
            p = path_b.decode()
            a = {"path": p, "partitionValues": pv, "size": int(size_b), "modificationTime": int(mt_b), "dataChange": dc_b == b"true"}
            if stats_b:
                a["stats"] = stats
            adds[p] = (a, si, lineno)
            if removes:
                removes.pop(p, None)
        elif line.strip():
            slow(lineno, line)


def compaction_duplicates(data: bytes, name: str) -> FormatError | None:
    """A log compaction holds each logical file once (it is reconciled); the first one it holds twice, as an error
    (``delta.compaction.duplicate``), or None."""
    seen: dict[Any, int] = {}
    for line, off, obj in iter_json_lines(data, name):
        for k in ("add", "remove"):
            a = obj.get(k)
            if type(a) is dict and type(a.get("path")) is str:
                dv = a.get("deletionVector")
                key = a["path"] if dv is None else (a["path"], dv_unique_id(dv))
                if key in seen:
                    return FormatError(f"the logical file {a['path']!r} is named again (line {seen[key]}): a compaction holds the "
                                       "reconciled actions of its range, one per logical file (ignored: its commits are read)",
                                       rule="delta.compaction.duplicate", path=f"line[{line}].{k}.path", offset=off, source=name)
                seen[key] = line
    return None


def _sidecar_path(log_dir: str, p: Any, where: str, off: int | None, line: int, is_json: bool) -> str:
    from urllib.parse import unquote

    at = f"line[{line}]" if is_json else f"row[{line}]"
    if type(p) is not dict or type(p.get("path")) is not str:
        raise FormatError("a `sidecar` action names its file by a string `path`", rule="delta.action.field",
                          path=f"{at}.sidecar.path", offset=off, source=where)
    path: str = p["path"]
    if "://" in path or path.startswith("file:"):
        return path[len("file:") :] if path.startswith("file:") and not path.startswith("file://") else path
    return f"{log_dir}/_sidecars/{unquote(path)}"


def replay(listing: LogListing, version: int, *, use_compactions: bool = True, keep_removes: bool = False) -> Replay:
    """Reconcile the log up to ``version``: the newest complete checkpoint at or before it, then the commits after it
    (log compactions in their place where one covers a range inside them)."""
    with no_gc():
        return _replay(listing, version, use_compactions, keep_removes)


def _replay(listing: LogListing, version: int, use_compactions: bool, keep_removes: bool) -> Replay:
    log_dir = listing.log_dir
    cps = [v for v in listing.checkpoints if v <= version]
    start = max(cps) if cps else -1
    rp = Replay(version, [], keep_removes=keep_removes)
    if start >= 0:
        # prefer a UUID-named V2 checkpoint, then a classic one, then a multi-part one
        choices = sorted(listing.checkpoints[start], key=lambda fs: {"checkpoint-v2": 0, "checkpoint": 1}.get(fs[0].kind, 2))
        chosen = choices[0]
        rp.checkpoint = [listing.path(f.name) for f in chosen]
        _replay_checkpoint(rp, log_dir, chosen, start)
    missing = [v for v in range(start + 1, version + 1) if v not in listing.commits]
    if missing:
        where = f"checkpoint {start} and version {version}" if start >= 0 else f"versions 0 and {version}"
        raise FormatError(f"the log has no commit file for version(s) {_ranges(missing)} between {where}: version {version} "
                          "cannot be reconstructed", rule="delta.log.missing-commit",
                          path=f"_delta_log/{missing[0]:020d}.json", source=log_dir)
    comps: dict[int, int] = {}
    if use_compactions:
        for c in listing.compactions:
            assert c.start is not None and c.version is not None
            if c.start > start and c.version <= version and c.version > c.start:
                comps[c.start] = max(comps.get(c.start, -1), c.version)
    v = start + 1
    while v <= version:
        end = comps.get(v)
        if end is not None:
            name = f"{v:020d}.{end:020d}.compacted.json"
            data = read_bytes(listing.path(name))
            if compaction_duplicates(data, listing.path(name)) is None:
                rp.sources.append(Source(listing.path(name), "compaction", end, True))
                replay_json(rp, len(rp.sources) - 1, data)
                v = end + 1
                continue
            # not reconciled (a logical file twice, in no known order): the commits it stands for are read instead
        f = listing.commits[v]
        rp.sources.append(Source(listing.path(f.name), "commit", v, True))
        replay_json(rp, len(rp.sources) - 1, read_bytes(listing.path(f.name)))
        v += 1
    return rp


def _ranges(vs: list[int]) -> str:
    out = []
    i = 0
    while i < len(vs):
        j = i
        while j + 1 < len(vs) and vs[j + 1] == vs[j] + 1:
            j += 1
        out.append(str(vs[i]) if i == j else f"{vs[i]}-{vs[j]}")
        i = j + 1
    return ", ".join(out)


def _replay_checkpoint(rp: Replay, log_dir: str, files: list[LogFile], version: int) -> None:
    sidecars: list[str] = []
    v2 = files[0].kind == "checkpoint-v2"
    for f in files:
        path = f"{log_dir}/{f.name}"
        rp.sources.append(Source(path, "checkpoint", version, f.name.endswith(".json")))
        si = len(rp.sources) - 1
        if f.name.endswith(".json"):
            data = read_bytes(path)
            for line, off, obj in iter_json_lines(data, path):
                if "sidecar" in obj:
                    sidecars.append(_sidecar_path(log_dir, obj["sidecar"], path, off, line, True))
                _apply(rp, si, obj, line, off)
        else:
            rows, cols = read_checkpoint_rows(path, require_add=not v2 and len(files) > 1)
            has_sidecars = "sidecar" in cols and any("sidecar" in a for _, a in rows)
            if "add" not in cols and not has_sidecars and not (v2 or "checkpointMetadata" in cols):
                raise FormatError(f"a checkpoint has an `add` column (struct); this one has {', '.join(sorted(cols)) or 'none'}",
                                  rule="delta.checkpoint.schema", path="schema.add", source=path)
            for row, acts in rows:
                if "sidecar" in acts:
                    sidecars.append(_sidecar_path(log_dir, acts["sidecar"], path, None, row, False))
                _apply(rp, si, acts, row, None)
    if rp.protocol is None or rp.metadata is None:
        what = "protocol" if rp.protocol is None else "metaData"
        raise FormatError(f"a checkpoint holds the table's `{what}` action; this one has none", rule="delta.checkpoint.missing-action",
                          path=what, source=f"{log_dir}/{files[0].name}")
    for sc in sidecars:
        rp.sources.append(Source(sc, "sidecar", version, False))
        si = len(rp.sources) - 1
        rows, _ = read_checkpoint_rows(sc, require_add=True)
        for row, acts in rows:
            bad = [k for k in acts if k not in ("add", "remove")]
            if bad:
                raise FormatError(f"a sidecar holds `add` and `remove` actions only; row {row} holds `{bad[0]}`",
                                  rule="delta.checkpoint.sidecar", path=f"row[{row}].{bad[0]}", source=sc)
            _apply(rp, si, acts, row, None)
