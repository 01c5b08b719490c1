"""The import graph of src/lakestruct, read from the source (AST), keeps the rooms' dependencies one-way.

Every ``import`` and ``from ... import`` counts, at module level or inside a function, relative or absolute; so do the
type-only imports under ``if TYPE_CHECKING:`` between rooms (a type names the room it comes from). Modules collapse
to rooms: the first package under ``lakestruct`` (``puffin``, ``deletes``, ``parquet``, ``cli``, ...). The top-level
modules are the shared base (``errors``, ``source``, ``rules``, ``codecs``, ``_atomic``, ...: below every room,
importing none), except the package facade ``lakestruct/__init__.py`` and ``scan.py``, which use the rooms and count
as rooms of their own. Rules:

- no circle between rooms (a circle inside a room is allowed);
- no room imports ``cli``, and none but ``cli`` imports ``spark``;
- Puffin is the container and knows no blob type: ``puffin`` imports neither ``deletes`` nor ``sketches``; they
  register their blob types into it (``puffin/decode.py``), and the composition root ``_plugins.py`` names the module
  that registers each of the spec's types (and the table rooms ``ls.tables.open`` calls: they build on ``tables``);
  every dynamic import (``importlib.import_module``) is listed below;
- ``parquet/read.py`` is the file and its footer: at run time it imports none of the modules built on it (page index,
  bloom filters, values, assembly); their ``ParquetFile`` methods are attached by ``parquet/__init__.py`` with the
  signatures ``read.py`` declares for type checkers.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import itertools
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "lakestruct"
BASE = "<base>"
#: top-level modules that use the rooms (not part of the base)
TOP_USERS = {"lakestruct": "lakestruct", "lakestruct.scan": "scan"}

#: every dynamic import in src/lakestruct, (module, why it is not a hidden dependency)
DYNAMIC_IMPORTS = {
    "lakestruct": "the facade imports its rooms on first use (it sits above every room)",
    "lakestruct.puffin.decode": "the blob types the composition root (_plugins.BLOB_TYPE_MODULES) names; checked below",
    "lakestruct.kaitai": "the kaitai room's own modules, on first use",
    "lakestruct.kaitai.runtime": "parsers generated from a user's Kaitai spec, in a package of their own",
    "lakestruct.spark": "the spark room's own modules, on first use",
    "lakestruct.spark.env": "optional third-party packages, to say which is missing",
    "lakestruct.tables": "the table rooms the composition root (_plugins.TABLE_FORMAT_MODULES) names; checked below",
}


@dataclass(frozen=True)
class Edge:
    src: str  # module
    dst: str  # module
    line: int
    type_only: bool  # under ``if TYPE_CHECKING:``


def _module_name(path: Path) -> tuple[str, bool]:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    is_pkg = parts[-1] == "__init__"
    if is_pkg:
        parts = parts[:-1]
    return ".".join(parts), is_pkg


def _is_module(name: str) -> bool:
    """``name`` is a module or package of src/lakestruct (or of the generated parsers)."""
    parts = name.split(".")
    if parts[0] != "lakestruct":
        return False
    if len(parts) > 1 and parts[1] == "_generated":
        return True
    p = SRC.parent.joinpath(*parts)
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            t = node.test
            name = t.id if isinstance(t, ast.Name) else t.attr if isinstance(t, ast.Attribute) else None
            if name == "TYPE_CHECKING":
                for sub in node.body:
                    for n in ast.walk(sub):
                        if hasattr(n, "lineno"):
                            lines.add(n.lineno)
    return lines


def _graph() -> tuple[list[Edge], dict[str, list[tuple[int, str]]]]:
    """All import edges between lakestruct modules, and the dynamic imports (module -> [(line, call)])."""
    edges: list[Edge] = []
    dynamic: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for path in sorted(SRC.rglob("*.py")):
        mod, is_pkg = _module_name(path)
        package = mod if is_pkg else mod.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        typing_only = _type_checking_lines(tree)
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    assert base, f"{path}:{node.lineno}: relative import beyond the package"
                    frm = ".".join(base + ([node.module] if node.module else []))
                else:
                    frm = node.module or ""
                # ``from pkg import name``: the submodule if ``name`` is one, else the module itself
                targets = [f"{frm}.{a.name}" if _is_module(f"{frm}.{a.name}") else frm for a in node.names]
            elif isinstance(node, ast.Call):
                f = node.func
                fname = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if fname in ("import_module", "__import__"):
                    dynamic[mod].append((node.lineno, ast.unparse(node)))
            for t in targets:
                if t == "lakestruct" or t.startswith("lakestruct."):
                    edges.append(Edge(mod, t, node.lineno, node.lineno in typing_only))
    return edges, dynamic


def room_of(module: str) -> str:
    if module in TOP_USERS:
        return TOP_USERS[module]
    parts = module.split(".")
    if len(parts) >= 2 and (SRC / parts[1] / "__init__.py").is_file():
        return parts[1]
    return BASE  # top-level modules and the generated parsers


EDGES, DYNAMIC = _graph()


def _room_edges() -> dict[tuple[str, str], list[Edge]]:
    out: dict[tuple[str, str], list[Edge]] = defaultdict(list)
    for e in EDGES:
        a, b = room_of(e.src), room_of(e.dst)
        if a != b:
            out[(a, b)].append(e)
    return out


ROOM_EDGES = _room_edges()


def _cycles(nodes: set[str], succ: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(succ.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def _one_circle(comp: list[str], succ: dict[str, set[str]]) -> list[str]:
    """A shortest circle through the component's first room, as a path a -> b -> ... -> a."""
    start = comp[0]
    prev: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(succ.get(v, ()) & set(comp)):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    return [*reversed(path), start]
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return comp


def _explain(a: str, b: str) -> str:
    e = ROOM_EDGES[(a, b)][0]
    more = len(ROOM_EDGES[(a, b)]) - 1
    return f"{a} -> {b} ({e.src}:{e.line} imports {e.dst}{f', and {more} more' if more else ''})"


def test_the_graph_sees_the_known_edges() -> None:
    """The reader of the graph works: edges the code certainly has are found (relative, absolute, in a function)."""
    pairs = {(e.src, e.dst) for e in EDGES}
    assert ("lakestruct.deletes.blob", "lakestruct.puffin.decode") in pairs  # from ..puffin.decode import ...
    assert ("lakestruct.parquet.values", "lakestruct.parquet.read") in pairs  # from .read import ParquetFile
    assert ("lakestruct.scan", "lakestruct.puffin") in pairs  # from . import deletes, parquet, puffin, ...
    assert ("lakestruct.iceberg.table", "lakestruct.parquet") in pairs  # inside a function
    assert room_of("lakestruct.errors") == BASE and room_of("lakestruct._generated.puffin") == BASE
    assert room_of("lakestruct.parquet.read") == "parquet" and room_of("lakestruct.scan") == "scan"
    # the collapsing finds a circle when there is one
    assert _cycles({"a", "b", "c"}, {"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert _one_circle(["a", "b", "c"], {"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_circle_between_rooms() -> None:
    succ: dict[str, set[str]] = defaultdict(set)
    for a, b in ROOM_EDGES:
        succ[a].add(b)
    nodes = set(succ) | {b for s in succ.values() for b in s}
    circles = _cycles(nodes, succ)
    msgs = []
    for comp in circles:
        path = _one_circle(comp, succ)
        hops = "; ".join(_explain(x, y) for x, y in itertools.pairwise(path))
        msgs.append(f"rooms {comp} import each other: {hops}")
    assert not circles, "\n".join(msgs)


def test_the_base_imports_no_room() -> None:
    bad = [_explain(a, b) for (a, b) in ROOM_EDGES if a == BASE]
    assert not bad, "the shared base (top-level modules) must not import a room:\n" + "\n".join(bad)


def test_no_room_imports_spark_or_cli() -> None:
    bad = [_explain(a, b) for (a, b) in ROOM_EDGES if b == "cli" or (b == "spark" and a != "cli")]
    assert not bad, "format rooms (and spark) must not import cli/ or spark/:\n" + "\n".join(bad)


def test_puffin_knows_no_blob_type() -> None:
    for room in ("deletes", "sketches"):
        assert ("puffin", room) not in ROOM_EDGES, _explain("puffin", room)


def test_blob_types_are_registered_by_the_rooms_that_build_on_puffin() -> None:
    from lakestruct._plugins import BLOB_TYPE_MODULES
    from lakestruct.puffin import DELETION_VECTOR_V1, THETA_V1
    from lakestruct.puffin.decode import blob_type

    assert set(BLOB_TYPE_MODULES) == {DELETION_VECTOR_V1, THETA_V1}
    for name, module in BLOB_TYPE_MODULES.items():
        assert room_of(module) != "puffin"
        assert any(e.src == module and room_of(e.dst) == "puffin" for e in EDGES), f"{module} must build on puffin"
        bt = blob_type(name)  # imports the module, which registers the type
        assert bt is not None and bt.name == name and module in sys.modules
        assert inspect.getmodule(bt.decode) is sys.modules[module]
    assert blob_type("no-such-type") is None


def test_every_dynamic_import_is_listed() -> None:
    assert set(DYNAMIC) <= set(DYNAMIC_IMPORTS), {m: DYNAMIC[m] for m in set(DYNAMIC) - set(DYNAMIC_IMPORTS)}
    assert {m for m in DYNAMIC_IMPORTS if m in DYNAMIC} == set(DYNAMIC)
    # Puffin's and tables' one dynamic import each take their module names from the composition root, never a literal
    assert [call for _, call in DYNAMIC["lakestruct.puffin.decode"]] == ["importlib.import_module(BLOB_TYPE_MODULES[name])"]
    assert [call for _, call in DYNAMIC["lakestruct.tables"]] == ["importlib.import_module(TABLE_FORMAT_MODULES[fmt])"]


def test_table_rooms_build_on_tables() -> None:
    """``ls.tables.open`` reaches the table rooms through the composition root; each builds on tables, which imports
    none of them."""
    from lakestruct._plugins import TABLE_FORMAT_MODULES
    from lakestruct.tables import FORMATS

    assert set(TABLE_FORMAT_MODULES) == set(FORMATS)
    for fmt, module in TABLE_FORMAT_MODULES.items():
        assert room_of(module) == fmt and (fmt, "tables") in ROOM_EDGES, f"{module} must build on tables"
        assert ("tables", fmt) not in ROOM_EDGES, _explain("tables", fmt)
        assert callable(importlib.import_module(module).open_table)


PARQUET_LAYERS = ("index", "bloom", "values", "assembly", "levels", "encodings", "compression")


def test_parquet_read_imports_no_module_built_on_it() -> None:
    bad = [
        f"{e.src}:{e.line} imports {e.dst}"
        for e in EDGES
        if e.src == "lakestruct.parquet.read" and not e.type_only
        and any(e.dst == f"lakestruct.parquet.{m}" or e.dst.startswith(f"lakestruct.parquet.{m}.") for m in PARQUET_LAYERS)
    ]
    assert not bad, "parquet/read.py is the file and its footer; the layers build on it:\n" + "\n".join(bad)
    built_on = {e.src for e in EDGES if e.dst == "lakestruct.parquet.read"}
    assert {"lakestruct.parquet.values", "lakestruct.parquet.index", "lakestruct.parquet.bloom"} <= built_on


def _declared_methods() -> dict[str, ast.FunctionDef]:
    """The ParquetFile methods read.py declares under ``if TYPE_CHECKING:``."""
    tree = ast.parse((SRC / "parquet" / "read.py").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ParquetFile")
    out = {}
    for node in cls.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            out.update({f.name: f for f in node.body if isinstance(f, ast.FunctionDef)})
    return out


def _ast_signature(f: ast.FunctionDef) -> list[tuple[str, str, str | None, str | None]]:
    a = f.args
    out = []
    pos = a.posonlyargs + a.args
    defaults: list[ast.expr | None] = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for arg, d in zip(pos[1:], defaults[1:], strict=True):  # without self
        out.append((arg.arg, "POSITIONAL_OR_KEYWORD", ast.unparse(arg.annotation) if arg.annotation else None,
                    ast.unparse(d) if d is not None else None))
    for arg, kd in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        out.append((arg.arg, "KEYWORD_ONLY", ast.unparse(arg.annotation) if arg.annotation else None,
                    ast.unparse(kd) if kd is not None else None))
    out.append(("return", "", ast.unparse(f.returns) if f.returns else None, None))
    return out


def _runtime_signature(fn: object) -> list[tuple[str, str, str | None, str | None]]:
    sig = inspect.signature(fn)  # type: ignore[arg-type]
    out = []
    for p in list(sig.parameters.values())[1:]:  # without the ParquetFile
        ann = None if p.annotation is inspect.Parameter.empty else str(p.annotation)
        default = None if p.default is inspect.Parameter.empty else repr(p.default)
        out.append((p.name, p.kind.name, ann, default))
    out.append(("return", "", None if sig.return_annotation is inspect.Signature.empty else str(sig.return_annotation), None))
    return out


def test_parquet_layer_methods_are_attached_as_declared() -> None:
    import lakestruct.parquet as pq_room
    from lakestruct.parquet.read import ParquetFile

    declared = _declared_methods()
    assert set(declared) == set(pq_room.LAYER_METHODS) == {"check", "column_index", "offset_index", "bloom_filter", "levels", "values"}
    for name, fn in pq_room.LAYER_METHODS.items():
        assert getattr(ParquetFile, name) is fn
        assert room_of(fn.__module__) == "parquet" and fn.__module__ != "lakestruct.parquet.read"
        assert _runtime_signature(fn) == _ast_signature(declared[name]), name


def test_parquet_methods_work_in_a_fresh_process(tmp_path: Path) -> None:
    """Importing only ``lakestruct.parquet.read`` (the package runs first) gives a ParquetFile with every method."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"a": [1, 2, 3]}), path, write_page_index=True)
    code = (
        "from lakestruct.parquet.read import open\n"
        f"with open({str(path)!r}) as f:\n"
        "    assert f.check() >= 1\n"
        "    assert f.values('a') == [1, 2, 3]\n"
        "    assert f.offset_index(0, 0).page_locations[0].first_row_index == 0\n"
        "    assert f.bloom_filter(0, 0) is None\n"
        "print('ok')\n"
    )
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_puffin_alone_loads_no_blob_room_until_it_meets_a_blob(tmp_path: Path) -> None:
    """``import lakestruct.puffin`` imports neither deletes nor sketches; a deletion vector then still decodes (and
    a broken one still fails) because Puffin loads its type's module by name."""
    import lakestruct as ls

    good, bad = tmp_path / "good.puffin", tmp_path / "bad.puffin"
    with ls.puffin.PuffinWriter(good) as w:
        w.add_deletion_vector([1, 5, 2**32 + 3], "s3://b/t/f.parquet")
    data = bytearray(good.read_bytes())
    blob = ls.puffin.open(bytes(data)).blobs[0]
    data[blob.offset + blob.length - 1] ^= 0xFF  # the blob's CRC
    bad.write_bytes(bytes(data))
    code = (
        "import sys\n"
        "import lakestruct.puffin as p\n"
        "assert 'lakestruct.deletes' not in sys.modules and 'lakestruct.sketches' not in sys.modules\n"
        f"with p.open({str(good)!r}) as r:\n"
        "    (d,) = p.decode.check_blobs(r)\n"
        "    assert d.deletion_vector.positions().tolist() == [1, 5, 2**32 + 3], d\n"
        f"with p.open({str(bad)!r}) as r:\n"
        "    try:\n"
        "        r.check()\n"
        "    except Exception as e:\n"
        "        print(e.rule)\n"
    )
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "deletion-vector.crc"
    # and the registry is what the writer used: the same bytes as the deletes room's own encoder
    assert ls.puffin.open(good).read_blob(0) == ls.deletes.encode_deletion_vector_blob([1, 5, 2**32 + 3])


def test_importing_each_room_alone_works() -> None:
    """No room needs another to be imported first (a circle between rooms would show here as an ImportError)."""
    import subprocess

    rooms = sorted({room_of(m) for m in {e.src for e in EDGES}} - {BASE, "lakestruct", "spark", "cli"})
    code = "import importlib, sys\nfor r in sys.argv[1:]:\n    importlib.import_module('lakestruct.' + r)\n"
    for r in rooms:
        out = subprocess.run([sys.executable, "-c", code, r], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, f"import lakestruct.{r}: {out.stderr[-2000:]}"
    importlib.import_module("lakestruct.parquet")
