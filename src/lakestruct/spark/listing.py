"""Driver-side work of every lakestruct Spark source: list the input files, pack them into partitions.

Listing walks local folders (``os.scandir``) or any fsspec URL (``fs.find`` with sizes, one listing call per
folder tree, no file is opened). Packing follows Spark's own rule for file sources
(``FilePartition.maxSplitBytes``): every file costs its size plus a fixed *open cost*, a partition holds
files up to ``max(open_cost, min(max_partition_bytes, total_cost / min_partitions))`` bytes of cost, and a
file bigger than that sits alone. So 10,000 small Puffin files spread over all cores, many per task, while
a 2 GB Parquet file gets a task of its own.

Free of Spark: the plain single-process loop and the tests use the same functions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence

from ..errors import SourceError, UsageError

__all__ = [
    "DEFAULT_MAX_PARTITION_BYTES",
    "DEFAULT_OPEN_COST_BYTES",
    "Input",
    "input_paths",
    "list_files",
    "pack",
]

#: An input unit: (path or URL, size in bytes).
Input = tuple[str, int]

#: Spark's ``spark.sql.files.maxPartitionBytes`` default.
DEFAULT_MAX_PARTITION_BYTES = 128 * 1024 * 1024
#: Spark's ``spark.sql.files.openCostInBytes`` default: what opening one file is worth in bytes read.
DEFAULT_OPEN_COST_BYTES = 4 * 1024 * 1024


def _is_url(path: str) -> bool:
    scheme, sep, _ = path.partition("://")
    return bool(sep) and len(scheme) > 1 and scheme != "file"


def _hidden(name: str) -> bool:
    """Names Spark and Hadoop skip when listing: ``_SUCCESS``, ``.crc`` side files, ``_delta_log`` is kept."""
    return name.startswith(".") or (name.startswith("_") and name != "_delta_log")


def _walk_local(root: str) -> Iterable[Input]:
    stack = [root]
    while stack:
        d = stack.pop()
        try:
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as err:
            raise SourceError(f"{d}: cannot list: {err.strerror}") from err
        subdirs = []
        for entry in entries:
            if _hidden(entry.name):
                continue
            if entry.is_dir(follow_symlinks=True):
                subdirs.append(entry.path)
            elif entry.is_file(follow_symlinks=True):
                yield entry.path, entry.stat().st_size
        stack.extend(reversed(subdirs))


def _list_url(url: str) -> list[Input]:
    try:
        import fsspec

        fs, root = fsspec.core.url_to_fs(url)
        if fs.isfile(root):
            return [(url, int(fs.size(root)))]  # a file as given keeps the user's spelling
        found = fs.find(root, detail=True)
        if not found and not fs.exists(root):
            raise FileNotFoundError(root)
    except FileNotFoundError as e:
        raise SourceError(f"{url}: no such file or folder") from e
    except ImportError as e:
        raise SourceError(f"{url}: reading this URL needs an fsspec backend ({e}); for s3:// install lakestruct[s3]") from e
    except Exception as e:
        raise SourceError(f"{url}: cannot list: {e}") from e
    out = []
    for key in sorted(found):
        info = found[key]
        if info.get("type") == "directory":
            continue
        rel = key[len(root) :].lstrip("/") if key.startswith(root) else key
        if any(_hidden(part) for part in rel.split("/")):
            continue
        out.append((fs.unstrip_protocol(key), int(info.get("size") or 0)))
    return out


def list_files(paths: Sequence[str]) -> list[Input]:
    """Every file under ``paths`` with its size: folders recursively (sorted, hidden names skipped), files as
    given. Local paths and fsspec URLs. A path that does not exist is a :class:`SourceError`."""
    out: list[Input] = []
    seen: set[str] = set()
    for p in paths:
        if _is_url(p):
            found = _list_url(p)
        else:
            local = p[len("file://") :] if p.startswith("file://") else p
            if os.path.isdir(local):
                found = sorted(_walk_local(local))
            elif os.path.isfile(local):
                found = [(local, os.path.getsize(local))]
            else:
                raise SourceError(f"{p}: no such file or folder")
        for path, size in found:
            if path not in seen:
                seen.add(path)
                out.append((path, size))
    return out


def pack(
    inputs: Sequence[Input],
    *,
    min_partitions: int,
    max_partition_bytes: int = DEFAULT_MAX_PARTITION_BYTES,
    open_cost: int = DEFAULT_OPEN_COST_BYTES,
) -> list[list[Input]]:
    """Spark's packing of files into partitions (largest first, next-fit), in a deterministic order."""
    if not inputs:
        return []
    if min_partitions < 1 or max_partition_bytes < 1 or open_cost < 0:
        raise UsageError("min_partitions and max_partition_bytes must be positive, open_cost not negative")
    total = sum(size + open_cost for _, size in inputs)
    split = max(open_cost, min(max_partition_bytes, total // min_partitions), 1)
    parts: list[list[Input]] = []
    current: list[Input] = []
    current_cost = 0
    for path, size in sorted(inputs, key=lambda x: (-x[1], x[0])):
        cost = size + open_cost
        if current and current_cost + cost > split:
            parts.append(current)
            current, current_cost = [], 0
        current.append((path, size))
        current_cost += cost
    if current:
        parts.append(current)
    return parts


def input_paths(options: Mapping[str, str]) -> list[str]:
    """The paths of ``spark.read...load(path)`` / ``load([p1, p2])`` as Spark hands them to a data source
    (``path`` or ``paths``, a JSON list), or the ``paths`` option given as JSON or comma-separated."""
    out: list[str] = []
    if options.get("path"):
        out.append(options["path"])
    raw = options.get("paths")
    if raw:
        raw = raw.strip()
        if raw.startswith("["):
            try:
                items = json.loads(raw)
            except ValueError as e:
                raise UsageError(f"option paths is not a JSON list: {e}") from None
            out.extend(str(x) for x in items)
        else:
            out.extend(p.strip() for p in raw.split(",") if p.strip())
    return out
