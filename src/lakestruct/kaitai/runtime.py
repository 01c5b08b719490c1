"""Running generated parsers shipped as strings: loading, limits, positions, and errors with offsets.

A :class:`Bundle` is what the Spark driver hands the executors: the generated Python modules as source text
and the specs as parsed (JSON), so executors need neither node nor the ``.ksy`` files nor a shared folder.
:func:`load` turns a bundle into a private in-memory package (once per process and bundle) and wraps every
generated class's ``_read`` to count objects (a per-file budget: a spec that loops on zero-size items stops
with :class:`~lakestruct.LimitError` instead of hanging) and, when asked, to record each object's absolute
offset and size. :func:`parse` parses one file and turns whatever the generated code raises into a
:class:`~lakestruct.FormatError` naming the rule, the byte offset in the file and the field path
(``packets[3].body.body.total_length``), recovered from the traceback at no cost to good files.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import importlib.abc
import importlib.machinery
import json
import linecache
import re
import sys
import threading
import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import kaitaistruct

from .._kaitai import validation_message
from ..errors import DecompressionError, FormatError, LimitError, TruncatedError, UsageError
from .model import Model, TypeDef
from .stream import Stream

__all__ = ["Bundle", "Loaded", "bundle_from_dir", "load", "parse"]

_PKG_PREFIX = "_lakestruct_kaitai_"
_IMPORT_LINE = re.compile(r"^import ([A-Za-z_][A-Za-z0-9_]*)$", re.M)


@dataclass(frozen=True)
class Bundle:
    """Generated modules (name -> Python source) and the specs they came from (id -> parsed tree)."""

    modules: Mapping[str, str]
    specs: Mapping[str, Any]
    main: str

    def to_json(self) -> str:
        # the specs keep their key order: it is the column order
        return json.dumps({"modules": dict(sorted(self.modules.items())), "specs": dict(self.specs), "main": self.main})

    @staticmethod
    def from_json(text: str) -> Bundle:
        d = json.loads(text)
        return Bundle(d["modules"], d["specs"], d["main"])

    @property
    def key(self) -> str:
        return hashlib.sha256(self.to_json().encode()).hexdigest()[:24]


def bundle_from_dir(folder: str | Path, main: str) -> Bundle:
    """The module ``main`` of a folder ``lakestruct gen`` wrote, with every module it imports from that folder."""
    from .toolchain import SIDECAR

    d = Path(folder)
    modules: dict[str, str] = {}
    specs: dict[str, Any] = {}
    todo = [main]
    while todo:
        name = todo.pop()
        if name in modules:
            continue
        py = d / f"{name}.py"
        side = d / f"{name}{SIDECAR}"
        if not py.is_file():
            raise UsageError(f"{py}: no such generated module")
        if not side.is_file():
            raise UsageError(
                f"{py} has no {side.name} beside it: the kaitai source derives its schema from the spec; "
                "generate the module with `lakestruct gen` (or pass the .ksy as the spec)"
            )
        src = py.read_text(encoding="utf-8")
        modules[name] = src
        specs[name] = json.loads(side.read_text(encoding="utf-8"))
        for m in re.finditer(r"^(?:import ([A-Za-z_]\w*)|from \. import ([A-Za-z_]\w*))$", src, re.M):
            dep = m.group(1) or m.group(2)
            if (d / f"{dep}.py").is_file() and dep != name:
                todo.append(dep)
    return Bundle(modules, specs, main)


# -- in-memory modules ---------------------------------------------------------------------------------


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``_lakestruct_kaitai_<key>.<module>`` from registered source strings."""

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname in self.sources:
            return importlib.machinery.ModuleSpec(fullname, self, origin=f"<kaitai:{fullname}>")
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        name = module.__name__
        src = self.sources[name]
        filename = f"<kaitai:{name}>"
        linecache.cache[filename] = (len(src), None, src.splitlines(keepends=True), filename)
        exec(compile(src, filename, "exec"), module.__dict__)


_FINDER = _Finder()
_LOCK = threading.Lock()


class _Budget(Exception):
    pass


class _RecordCap(Exception):
    pass


_UNLIMITED = 1 << 62


@dataclass
class _State:
    objects_left: int = _UNLIMITED  # limits apply only inside parse(); direct use of the classes is unlimited
    records_left: int = -1
    item_cls: Any = None
    stack: list[Any] = field(default_factory=list)


@dataclass(eq=False)
class Loaded:
    """A bundle's modules, imported, with its model and the class of every type."""

    bundle: Bundle
    package: str
    model: Model
    positions: bool
    classes: dict[str, Any]  # TypeDef.qualname -> generated class
    typedefs: dict[Any, TypeDef]  # generated class -> TypeDef
    state: _State
    fast: bool = True

    @property
    def root_class(self) -> Any:
        return self.classes[self.model.root.qualname]

    def class_of(self, t: TypeDef) -> Any:
        return self.classes[t.qualname]

    def enum_class(self, path: tuple[str, ...]) -> Any:
        obj: Any = sys.modules[f"{self.package}.{path[0]}"]
        for p in path[1:]:
            obj = getattr(obj, p)
        return obj


_LOADED: dict[tuple[str, bool, bool], Loaded] = {}
#: the generated modules' import of the runtime; load() points it at the package's own classes
_RUNTIME_LINE = re.compile(r"^from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO$", re.M)
_CLASS_BASES = re.compile(r"^\s*class \w+\(([^)]*)\):", re.M)
_SUPER_INIT = re.compile(r"^(\s*)super\([\w.]+, self\)\.__init__\(_io\)$", re.M)


def load(bundle: Bundle, *, positions: bool = False, fast: bool = True) -> Loaded:
    """Import ``bundle``'s modules (once per process) into a private package.

    ``fast`` (the default): the modules read through :class:`~lakestruct.kaitai.stream.Stream` and their
    classes count themselves against the object budget as they are constructed (a base class of the
    package's own); otherwise they use the runtime's ``KaitaiStream`` and every ``_read`` is wrapped to
    count, as before (the reference the fast package is tested against). With ``positions`` ``_read``
    is wrapped either way, to record offsets."""
    key = (bundle.key, positions, fast)
    with _LOCK:
        hit = _LOADED.get(key)
        if hit is not None:
            return hit
        package = f"{_PKG_PREFIX}{bundle.key}{'_pos' if positions else ''}{'' if fast else '_ref'}"
        pkg = types.ModuleType(package)
        pkg.__path__ = []
        state = _State()
        init = _counting_init(state)
        base: Any = kaitaistruct.KaitaiStruct if positions else _counting_base(init)
        if fast:
            pkg.KaitaiStruct = base  # type: ignore[attr-defined]
            pkg.KaitaiStream = Stream  # type: ignore[attr-defined]
            pkg.BytesIO = kaitaistruct.BytesIO  # type: ignore[attr-defined]
            pkg._ls_init = init  # type: ignore[attr-defined]
        sys.modules[package] = pkg
        names = set(bundle.modules)
        for name, src in bundle.modules.items():
            src = _IMPORT_LINE.sub(lambda m: f"from . import {m.group(1)}" if m.group(1) in names else m.group(0), src)
            if fast and _RUNTIME_LINE.search(src):  # every rewrite keeps the line count: tracebacks still point at the generated lines
                if not positions and set(_CLASS_BASES.findall(src)) <= {"KaitaiStruct", "IntEnum"}:
                    # constructors call the budget's count directly instead of super().__init__ (which is it)
                    src = _SUPER_INIT.sub(r"\1_ls_init(self, _io)", src)
                    src = _RUNTIME_LINE.sub("from . import KaitaiStruct, KaitaiStream, BytesIO, _ls_init", src)
                else:
                    src = _RUNTIME_LINE.sub("from . import KaitaiStruct, KaitaiStream, BytesIO", src)
            _FINDER.sources[f"{package}.{name}"] = src
        if _FINDER not in sys.meta_path:
            sys.meta_path.append(_FINDER)
        mods = {name: importlib.import_module(f"{package}.{name}") for name in sorted(bundle.modules)}
        model = Model(bundle.specs, bundle.main)
        classes: dict[str, Any] = {}
        typedefs: dict[Any, TypeDef] = {}
        for t in model.all_types():
            mod = mods.get(t.spec_id)
            if mod is None:
                continue
            obj: Any = mod
            for part in t.class_path[1:]:
                obj = getattr(obj, part, None)
                if obj is None:
                    break
            if obj is not None:
                classes[t.qualname] = obj
                typedefs[obj] = t
        for cls in typedefs:
            if positions or not issubclass(cls, base):  # a module whose import was not rewritten counts in _read
                _wrap(cls, state, positions)
        loaded = Loaded(bundle, package, model, positions, classes, typedefs, state, fast)
        _LOADED[key] = loaded
        return loaded


def _counting_init(state: _State) -> Any:
    """``KaitaiStruct.__init__`` of one loaded package: sets ``_io``, and counts the object against the
    budget (generated constructors call it first, then ``_read``), as the ``_read`` wrappers count."""

    def __init__(self: Any, _io: Any) -> None:
        self._io = _io
        state.objects_left -= 1
        if state.objects_left < 0:
            raise _Budget()
        if type(self) is state.item_cls:
            state.records_left -= 1
            if state.records_left == -1:
                raise _RecordCap()

    return __init__


def _counting_base(init: Any) -> Any:
    """The KaitaiStruct of one loaded package, whose constructor is ``init``."""

    class KaitaiStruct(kaitaistruct.KaitaiStruct):  # type: ignore[misc]
        __init__ = init

    return KaitaiStruct


def _wrap(cls: Any, state: _State, positions: bool) -> None:
    orig = cls.__dict__.get("_read")
    if orig is None or getattr(orig, "_lakestruct", False):
        return

    if positions:

        def _read(self: Any) -> None:
            state.objects_left -= 1
            if state.objects_left < 0:
                raise _Budget()
            if type(self) is state.item_cls:
                state.records_left -= 1
                if state.records_left == -1:
                    raise _RecordCap()
            io = self._io
            base = io.__dict__.get("_ls_base", _UNSET)
            if base is _UNSET:
                base = _base_from(self, state.stack[-1] if state.stack else self._parent)
                io._ls_base = base
            start = io.pos()
            state.stack.append(self)
            try:
                orig(self)
            finally:
                state.stack.pop()
            self._ls_off = None if base is None else base + start
            self._ls_size = io.pos() - start

    else:

        def _read(self: Any) -> None:
            state.objects_left -= 1
            if state.objects_left < 0:
                raise _Budget()
            if type(self) is state.item_cls:
                state.records_left -= 1
                if state.records_left == -1:
                    raise _RecordCap()
            orig(self)

    _read._lakestruct = True  # type: ignore[attr-defined]
    cls._read = _read


_UNSET = object()


def _base_from(obj: Any, outer: Any) -> int | None:
    """Absolute offset of ``obj``'s stream when it is a substream cut from ``outer``'s stream just now
    (``self._raw_x = self._io.read_bytes(n)`` then ``X(KaitaiStream(BytesIO(self._raw_x)))``)."""
    if not isinstance(outer, kaitaistruct.KaitaiStruct):
        return None
    oio = outer._io
    obase = oio.__dict__.get("_ls_base")
    if oio is obj._io:
        return obase  # type: ignore[no-any-return]
    if obase is None:
        return None
    buf = obj._io._io
    getvalue = getattr(buf, "getvalue", None)
    if getvalue is not None:
        raw = getvalue()
        d = outer.__dict__
        for k in d:
            if k.startswith("_raw__raw_") and d.get(k[len("_raw_"):]) is raw:
                return None  # processed (decompressed, xored) bytes: no file offset
    size = obj._io.size()
    return int(obase) + int(oio.pos()) - int(size)


# -- parsing ----------------------------------------------------------------------------------------------


def parse(
    loaded: Loaded, data: bytes, *, max_objects: int, max_records: int = -1, item: TypeDef | None = None
) -> tuple[Any, FormatError | None]:
    """Parse ``data`` with the main spec's root type: (the object, even when parsing stopped early; the error)."""
    cls = loaded.root_class
    st = loaded.state
    st.objects_left = max_objects
    st.records_left = max_records
    st.item_cls = loaded.classes.get(item.qualname) if item is not None and max_records >= 0 else None
    st.stack.clear()
    stream = (Stream if loaded.fast else kaitaistruct.KaitaiStream)(kaitaistruct.BytesIO(data))
    stream._ls_base = 0
    obj = cls.__new__(cls)
    try:
        with paused_gc():
            obj.__init__(stream)
            if hasattr(cls, "SEQ_FIELDS"):  # debug-mode parsers do not read themselves on construction
                obj._read()
    except Exception as e:  # whatever generated code raises on bad input (RecursionError too) becomes a FormatError
        return obj, translate(loaded, e, stream)
    finally:
        st.objects_left, st.records_left, st.item_cls = _UNLIMITED, -1, None
    return obj, None


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection inside: a parse makes objects by the hundred thousand and frees none
    (each object points at its parent and the root, so they all live until the file is done), and the
    collector's passes over that growing heap took as long as the parse itself. Objects are freed by
    reference counting as usual; the collector resumes (if it ran before) when the block ends."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def translate(loaded: Loaded, e: BaseException, root_stream: Any) -> FormatError:
    """A generated parser's exception as a FormatError with rule, offset and field path."""
    spec = loaded.model.main
    frames = _frames(loaded, e)
    path, offset = _where(loaded, frames, e, root_stream)
    if isinstance(e, _Budget):
        return LimitError(
            "more objects than the file's size justifies (a spec looping on zero-size items?)",
            rule="kaitai.object-limit", path=path, offset=offset,
        )  # fmt: skip
    if isinstance(e, _RecordCap):
        return LimitError("more records than max_records", rule="kaitai.record-limit", path=path, offset=offset)
    if isinstance(e, RecursionError):
        return LimitError("structures nested deeper than Python's recursion limit", rule="kaitai.depth", path=path, offset=offset)
    if isinstance(e, kaitaistruct.ValidationFailedError):
        rule, msg = _validation(loaded, frames, e)
        return FormatError(msg, rule=rule, path=path, offset=offset)
    if isinstance(e, kaitaistruct.EndOfStreamError):
        return TruncatedError(
            f"input ends early: needs {e.bytes_needed} more bytes, {e.bytes_available} available",
            rule=f"{spec}.truncated", path=path, offset=offset,
        )  # fmt: skip
    if isinstance(e, kaitaistruct.KaitaiStructError):
        return FormatError(str(e), rule=f"{spec}.structure", path=path, offset=offset)
    if isinstance(e, UnicodeDecodeError):
        return FormatError(f"not valid {e.encoding}: {e.reason}", rule=f"{spec}.encoding", path=path, offset=offset)
    if type(e).__module__ == "zlib":
        return DecompressionError(f"zlib: {e}", rule=f"{spec}.process", path=path, offset=offset)
    return FormatError(f"{type(e).__name__}: {e}", rule=f"{spec}.evaluation", path=path, offset=offset)


def _frames(loaded: Loaded, e: BaseException) -> list[tuple[Any, int, str]]:
    """(self, line number, file name) of every frame of generated code or the Kaitai runtime, outermost first."""
    out: list[tuple[Any, int, str]] = []
    tb = e.__traceback__
    prefix = loaded.package + "."
    while tb is not None:
        f = tb.tb_frame
        mod = f.f_globals.get("__name__", "")
        if mod.startswith(prefix) or mod in _RUNTIME_MODULES:
            out.append((f.f_locals.get("self"), tb.tb_lineno, f.f_code.co_filename))
        tb = tb.tb_next
    return out


_RUNTIME_MODULES = ("kaitaistruct", Stream.__module__)
_ASSIGN = re.compile(r"^\s*self\.(?:_raw_)?(?:_m_)?([A-Za-z]\w*)(?:\.append\(|\s*=)")
_TEMP = re.compile(r"^\s*_ = ")


def _component(obj: Any, lineno: int, filename: str) -> str | None:
    line = linecache.getline(filename, lineno)
    if _TEMP.match(line):  # repeat-until: `_ = X(...)` then `self.name.append(_)`
        for n in range(lineno + 1, lineno + 4):
            m = re.match(r"^\s*self\.(\w+)\.append\(_\)", linecache.getline(filename, n))
            if m:
                line = f"self.{m.group(1)}.append("
                break
    m = _ASSIGN.match(line)
    if not m:
        return None
    name = m.group(1)
    if ".append(" in line.split("=", 1)[0]:
        lst = getattr(obj, name, None)
        return f"{name}[{len(lst) if isinstance(lst, list) else '?'}]"
    return name


def _where(loaded: Loaded, frames: list[tuple[Any, int, str]], e: BaseException, root_stream: Any) -> tuple[str, int | None]:
    """The field path and absolute offset of the failure."""
    parts: list[str] = []
    bases: dict[int, int | None] = {id(root_stream): 0}
    prev: Any = None
    stream: Any = None
    for obj, lineno, filename in frames:
        if isinstance(obj, kaitaistruct.KaitaiStruct):
            io = obj._io
            if id(io) not in bases:
                known = io.__dict__.get("_ls_base", _UNSET)
                if known is not _UNSET:
                    bases[id(io)] = known
                elif prev is not None and prev._io is io:
                    bases[id(io)] = bases.get(id(prev._io))
                elif prev is not None and bases.get(id(prev._io)) is not None:
                    prev._io._ls_base = bases[id(prev._io)]
                    bases[id(io)] = _base_from(obj, prev)
                else:
                    bases[id(io)] = None
            comp = _component(obj, lineno, filename)
            if comp:
                parts.append(comp)
            prev = obj
        elif isinstance(obj, kaitaistruct.KaitaiStream):
            stream = obj
    if isinstance(e, kaitaistruct.ValidationFailedError) and e.io is not None:
        stream = e.io
    if stream is None and prev is not None:
        stream = prev._io
    offset: int | None = None
    if stream is not None:
        base = bases.get(id(stream), stream.__dict__.get("_ls_base"))
        if base is not None:
            pos = stream.pos()
            if isinstance(e, kaitaistruct.EndOfStreamError) and e.bytes_needed < 8 * 1024 * 1024:
                pos -= e.bytes_available
            elif isinstance(e, kaitaistruct.ValidationFailedError):
                pos -= _width(loaded, frames, e)
            offset = int(base) + max(int(pos), 0)
    if isinstance(e, kaitaistruct.ValidationFailedError):
        name = _validated_field(loaded, frames, e)
        if name and (not parts or parts[-1] != name):
            parts.append(name)
    return ".".join(parts) or loaded.model.main, offset


def _failing_type(loaded: Loaded, frames: list[tuple[Any, int, str]]) -> TypeDef | None:
    for obj, _, _ in reversed(frames):
        if isinstance(obj, kaitaistruct.KaitaiStruct):
            return loaded.typedefs.get(type(obj)) or next(
                (t for c, t in loaded.typedefs.items() if isinstance(obj, c)), None
            )
    return None


def _validated_attr(loaded: Loaded, frames: list[tuple[Any, int, str]], e: Any) -> tuple[TypeDef | None, Mapping[str, Any] | None, str]:
    t = _failing_type(loaded, frames)
    src = str(e.src_path or "")
    m = re.search(r"/(seq|instances)/([^/]+)$", src)
    if t is None or not m:
        return t, None, ""
    if m.group(1) == "seq":
        i = int(m.group(2))
        a = t.seq[i] if i < len(t.seq) else None
        return t, a, str(a.get("id", "")) if a else ""
    return t, t.instances.get(m.group(2)), m.group(2)


def _validated_field(loaded: Loaded, frames: list[tuple[Any, int, str]], e: Any) -> str:
    return _validated_attr(loaded, frames, e)[2]


_WIDTH = {"u1": 1, "s1": 1, "u2": 2, "s2": 2, "u4": 4, "s4": 4, "u8": 8, "s8": 8, "f4": 4, "f8": 8}


def _width(loaded: Loaded, frames: list[tuple[Any, int, str]], e: Any) -> int:
    """Bytes of the validated field, to report where it starts (the stream is past it)."""
    _, a, _ = _validated_attr(loaded, frames, e)
    if a is None:
        return 0
    if "contents" in a:
        c = a["contents"]
        if isinstance(c, str):
            return len(c.encode())
        if isinstance(c, list):
            return sum(len(x.encode()) if isinstance(x, str) else 1 for x in c)
    if isinstance(a.get("size"), int):
        return int(a["size"])
    ty = a.get("type")
    if isinstance(ty, str):
        return _WIDTH.get(re.sub(r"(le|be)$", "", ty), 0)
    return 0


def _validation(loaded: Loaded, frames: list[tuple[Any, int, str]], e: Any) -> tuple[str, str]:
    t, a, name = _validated_attr(loaded, frames, e)
    if a is not None and a.get("-lakestruct-rule"):
        rule = str(a["-lakestruct-rule"])
    elif t is not None and name:
        rule = ".".join((t.spec_id, *t.path, name))
    else:
        rule = f"{loaded.model.main}.valid"
    return rule, validation_message(e)
