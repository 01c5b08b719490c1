"""A compiled Kaitai spec as a row reader: schema without data, rows of a file, errors as FormatErrors."""

from __future__ import annotations

import importlib.util
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..errors import LakestructError, LimitError, UsageError
from ..source import open_source
from .columns import Columns, unlink
from .model import Plan, plan
from .runtime import Bundle, bundle_from_dir, load, parse, paused_gc
from .toolchain import compile as compile_specs
from .walk import Walker

__all__ = ["BATCH_ROWS", "DEFAULT_MAX_FILE_BYTES", "DEFAULT_MAX_RECORDS", "OBJECTS_BASE", "OBJECTS_PER_BYTE", "Spec"]

#: files larger than this are not parsed (one error row); option max_file_bytes
DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024
#: records (row items) one file may hold; option max_records
DEFAULT_MAX_RECORDS = 10_000_000
#: a file may make at most OBJECTS_BASE + OBJECTS_PER_BYTE * size parser objects (user-type instances)
OBJECTS_BASE = 10_000
OBJECTS_PER_BYTE = 8
#: rows per record batch of Spec.batches
BATCH_ROWS = 4096


class Spec:
    """Generated parsers plus the specs they came from (a :class:`Bundle`), ready to read files."""

    def __init__(self, bundle: Bundle, *, fast: bool = True) -> None:
        self.bundle = bundle
        #: parse with lakestruct's stream and budget base class (False: the kaitaistruct runtime's own, see runtime.load)
        self.fast = fast
        self._plans: dict[tuple[Any, ...], Plan] = {}
        self._walkers: dict[tuple[Any, ...], Walker] = {}
        self._columns: dict[tuple[Any, ...], Columns] = {}

    @classmethod
    def from_ksy(cls, path: str | os.PathLike[str], *, import_dirs: Sequence[str | os.PathLike[str]] = ()) -> Spec:
        """Compile ``path`` (and its imports) with the pinned compiler; nothing is left on disk."""
        with tempfile.TemporaryDirectory(prefix="lakestruct-kaitai-") as tmp:
            res = compile_specs([path], tmp, import_dirs=import_dirs, python_package=".")
            modules = {m: (Path(tmp) / f"{m}.py").read_text(encoding="utf-8") for m in res.modules}
        return cls(Bundle(modules, res.specs, res.main[0]))

    @classmethod
    def from_module(cls, name: str) -> Spec:
        """A module ``lakestruct gen`` wrote (``pkg.pcap``, or ``pcap`` with its folder on sys.path)."""
        try:
            found = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            found = None
        if found is None or not found.origin or not found.origin.endswith(".py"):
            raise UsageError(f"spec {name!r}: no such .ksy file or importable generated module")
        origin = Path(found.origin)
        return cls(bundle_from_dir(origin.parent, origin.stem))

    @classmethod
    def open(cls, spec: str, *, import_dirs: Sequence[str | os.PathLike[str]] = ()) -> Spec:
        """A ``.ksy`` path, a generated module's ``.py`` file, or an importable generated module's name."""
        if spec.endswith(".py"):
            p = Path(spec)
            if not p.is_file():
                raise UsageError(f"spec {spec!r}: no such file")
            return cls(bundle_from_dir(p.parent, p.stem))
        if spec.endswith(".ksy") or os.sep in spec or Path(spec).is_file():
            return cls.from_ksy(spec, import_dirs=import_dirs)
        return cls.from_module(spec)

    @property
    def id(self) -> str:
        return self.bundle.main

    def plan(
        self, *, root: str = "", instances: Iterable[str] | None = None, u8: str = "decimal", positions: bool = False
    ) -> Plan:
        inst = tuple(instances) if instances is not None else None
        key = (root, inst, u8, positions)
        p = self._plans.get(key)
        if p is None:
            from .model import Model

            p = plan(Model(self.bundle.specs, self.bundle.main), root=root, instances=inst, u8=u8, positions=positions)
            self._plans[key] = p
        return p

    def schema(self, **options: Any) -> pa.Schema:
        """The Arrow schema of the rows (derived from the spec alone)."""
        return self.plan(**options).schema()

    def rows(
        self,
        path: str,
        *,
        root: str = "",
        instances: Iterable[str] | None = None,
        u8: str = "decimal",
        positions: bool = False,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        max_records: int = DEFAULT_MAX_RECORDS,
    ) -> Iterator[dict[str, Any]]:
        """The rows of one file. When the file breaks its spec, the rows read before the failure are
        yielded and then the :class:`~lakestruct.FormatError` is raised."""
        walker = self.walker(root=root, instances=instances, u8=u8, positions=positions)
        data = self._read(path, max_file_bytes)
        yield from self.rows_of(walker, data, max_records=max_records)

    def batches(
        self,
        path: str,
        *,
        root: str = "",
        instances: Iterable[str] | None = None,
        u8: str = "decimal",
        positions: bool = False,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        max_records: int = DEFAULT_MAX_RECORDS,
        batch_rows: int = BATCH_ROWS,
    ) -> Iterator[pa.RecordBatch | dict[str, Any]]:
        """The rows of :meth:`rows` as Arrow record batches of :meth:`schema` (built column by column,
        :mod:`lakestruct.kaitai.columns`); a row that carries an error (an instance that failed, a value
        out of range) comes as its dict, between the batches, in file order. Errors as in :meth:`rows`."""
        inst = tuple(instances) if instances is not None else None
        walker = self.walker(root=root, instances=inst, u8=u8, positions=positions)
        key = (root, inst, u8, positions)
        columns = self._columns.get(key)
        if columns is None:
            columns = self._columns[key] = Columns(walker)
        data = self._read(path, max_file_bytes)
        seen: list[Sequence[Any]] = []
        with paused_gc():  # no collector passes over the file's objects while they live (runtime.paused_gc)
            root, items, err = self._items(walker, data, max_records=max_records)
            part: list[Any] = []
            try:
                for start in range(0, len(items), batch_rows):
                    part = items[start : start + batch_rows]
                    try:
                        batch = columns.batch(part, start, seen)
                    except Exception:  # a row carries an error (or Arrow refuses a value): the walker decides, row by row
                        yield from _walked(walker, columns.schema, part, start)
                    else:
                        yield batch
            finally:  # the file is done: its objects go as their last references do
                unlink(seen)
                vars(root).clear()  # the root's other children (a header) point back at it: let go of the records
                del seen, root, items, part
                walker.root_stream = None
        if err is not None:
            raise err

    def walker(
        self, *, root: str = "", instances: Iterable[str] | None = None, u8: str = "decimal", positions: bool = False
    ) -> Walker:
        """The row-by-row converter of these options (cached)."""
        inst = tuple(instances) if instances is not None else None
        key = (root, inst, u8, positions)
        walker = self._walkers.get(key)
        if walker is None:
            loaded = load(self.bundle, positions=positions, fast=self.fast)
            walker = Walker(self.plan(root=root, instances=inst, u8=u8, positions=positions), loaded)
            self._walkers[key] = walker
        return walker

    def _read(self, path: str, max_file_bytes: int) -> bytes:
        with open_source(path) as src:
            size = src.size
            if size > max_file_bytes:
                raise LimitError(
                    f"{size} bytes is more than max_file_bytes ({max_file_bytes})", rule="kaitai.file-size", path=self.id, offset=0
                )
            return src.read_exact(0, size, rule=f"{self.id}.truncated", path=self.id)

    def _items(self, walker: Walker, data: bytes, *, max_records: int) -> tuple[Any, list[Any], LakestructError | None]:
        """The parsed root object of a file, its row items and the error that ended it early (raised at
        once when there are no items)."""
        p = walker.plan
        item = p.row.typedef if p.root_path and p.row.kind == "struct" else None
        obj, err = parse(walker.loaded, data, max_objects=OBJECTS_BASE + OBJECTS_PER_BYTE * len(data),
                         max_records=max_records if item is not None else -1, item=item)  # fmt: skip
        walker.root_stream = obj.__dict__.get("_io")
        if not p.root_path:
            if err is not None:
                raise err
            return obj, [obj], None
        items = walker.items(obj)
        if len(items) > max_records:
            items = items[:max_records]
            err = err or LimitError(f"more than max_records ({max_records}) records", rule="kaitai.record-limit",
                                    path=".".join(p.root_path), offset=None)  # fmt: skip
        return obj, items, err

    def rows_of(self, walker: Walker, data: bytes, *, max_records: int) -> Iterator[dict[str, Any]]:
        _, items, err = self._items(walker, data, max_records=max_records)
        yield from walker.rows(items)
        if err is not None:
            raise err


def _walked(walker: Walker, schema: pa.Schema, items: list[Any], start: int) -> Iterator[pa.RecordBatch | dict[str, Any]]:
    """Rows of ``items`` by the walker: good rows as record batches, rows with an error as dicts."""
    struct = pa.struct(list(schema))
    pending: list[dict[str, Any]] = []
    for r in walker.rows(items, start=start):
        if "error_rule" not in r:
            pending.append(r)
            continue
        if pending:
            yield pa.RecordBatch.from_struct_array(pa.array(pending, type=struct))
            pending = []
        yield r
    if pending:
        yield pa.RecordBatch.from_struct_array(pa.array(pending, type=struct))
