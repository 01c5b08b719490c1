"""A small demo lake written by real writers, for ``make run`` and the tests of the inventory job.

* ``warehouse/db/orders/data/*.parquet`` — Parquet data files written by pyarrow with the settings that
  make a lake slow or fast: page index and bloom filter, tiny pages, a dictionary that falls back to
  PLAIN, an uncompressed file of random bytes (poor compression), page CRCs.
* ``warehouse/db/orders/data/*-deletes.puffin`` — Iceberg v3 deletion vectors (lakestruct's Puffin/DV
  writer, byte-identical to Iceberg Java's) naming the data files by their ``s3://demo-bucket/...``
  location, as a table on object storage would.
* ``warehouse/db/orders/metadata/*.stats.puffin`` — Theta sketches (lakestruct's writer) with ``ndv``
  properties, one of which disagrees with its sketch.
* ``warehouse/db/events/`` — an Iceberg v3 table (data files by pyarrow, metadata, manifests and deletion vectors by
  lakestruct's table writer, :mod:`lakestruct.iceberg.write`): one append of 3 data files, a DELETE (DVs for 2
  files), a second DELETE whose DVs supersede the first's (more rows of the same files), a compaction of one file
  with its deletes, and an orphan data file no snapshot references. Its live state: ``00000`` 20 % deleted,
  ``00002`` none, the compacted file none; the superseded DVs and the compacted file stay on storage for the older
  snapshots (a file-level count adds both DVs of ``00000``: 30 %).
* ``delta/events/deletion_vector_*.bin`` — a Delta Lake deletion-vector file.
* ``broken/`` — deliberately broken files: a truncated Parquet file, a DV blob with a wrong CRC, a
  Puffin DV whose cardinality property disagrees with its bitmap, and a Parquet file whose page header is garbage.

Every file is written atomically by its writer; the lake is rebuilt from scratch on every call.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

import numpy as np

from .. import deletes, puffin, sketches
from .._atomic import write_atomic

__all__ = ["BUCKET", "EVENTS", "build"]

#: the bucket the deletion vectors name their data files in (the S3 test uploads the lake there)
BUCKET = "demo-bucket"
TABLE = "warehouse/db/orders"
#: the Iceberg v3 table of the demo lake
EVENTS = "warehouse/db/events"


def _put(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write_atomic(path, data)


def _orders(rng: np.random.Generator, n: int, start: int) -> Any:
    import pyarrow as pa

    customers = np.array([f"customer-{i:03d}" for i in range(40)])
    return pa.table(
        {
            "order_id": pa.array(np.arange(start, start + n, dtype=np.int64)),
            "customer": pa.array(customers[rng.integers(0, len(customers), n)]),
            "amount": pa.array(np.round(rng.gamma(2.0, 40.0, n), 2)),
            "note": pa.array([f"note {x:016x}" for x in rng.integers(0, 2**62, n)]),
        }
    )


def _theta(values: np.ndarray[Any, Any], k: int = 4096) -> sketches.ThetaSketch:
    """A compact Theta sketch of long values as Iceberg hashes them (8-byte little-endian)."""
    hashes = sorted({sketches.hash_item(int(v).to_bytes(8, "little", signed=True)) for v in values})
    if len(hashes) <= k:
        return sketches.ThetaSketch.from_hashes(hashes)
    return sketches.ThetaSketch.from_hashes(hashes[:k], theta=hashes[k])


def _events(rng: np.random.Generator, n: int, start: int) -> Any:
    import pyarrow as pa

    kinds = np.array(["view", "click", "cart", "buy"])
    schema = pa.schema([
        pa.field("event_id", pa.int64(), False, {"PARQUET:field_id": "1"}),
        pa.field("user_id", pa.int64(), True, {"PARQUET:field_id": "2"}),
        pa.field("kind", pa.string(), True, {"PARQUET:field_id": "3"}),
        pa.field("amount", pa.float64(), True, {"PARQUET:field_id": "4"}),
    ])  # fmt: skip
    return pa.table(
        [pa.array(np.arange(start, start + n, dtype=np.int64)), pa.array(rng.integers(0, 500, n)),
         pa.array(kinds[rng.integers(0, len(kinds), n)]), pa.array(np.round(rng.gamma(2.0, 10.0, n), 2))],
        schema=schema,
    )  # fmt: skip


def _iceberg_events(root: str, rng: np.random.Generator, rows: int, seed: int) -> tuple[list[str], list[str]]:
    """The Iceberg v3 table ``warehouse/db/events``: (every file written under it, the orphan files)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ..iceberg.write import TableWriter, data_file, fields_from_arrow

    table_root = os.path.join(root, EVENTS)
    data_dir = os.path.join(table_root, "data")
    os.makedirs(data_dir, exist_ok=True)
    tables = [_events(rng, rows, i * rows) for i in range(3)]
    files = []
    for i, t in enumerate(tables):
        path = os.path.join(data_dir, f"{i:05d}-0-events.parquet")
        pq.write_table(t, path, compression="zstd")
        files.append(data_file(path))
    w = TableWriter(table_root, fields_from_arrow(tables[0].schema), seed=seed, created_by="lakestruct demo lake")
    w.append(files)
    f0, f1 = files[0].file_path, files[1].file_path
    # DELETE: every 10th row of 00000 (10 %), the first 5 % of 00001
    w.delete_positions({f0: np.arange(0, rows, 10), f1: np.arange(0, rows // 20)})
    # DELETE again: 10 % more of 00000, 100 random rows more of 00001; the new DVs hold the union and supersede
    w.delete_positions({f0: np.arange(5, rows, 10), f1: rng.choice(np.arange(rows // 20, rows), min(100, rows // 2), replace=False)})
    # compaction of 00001 with its deletes: its live rows into one new file; 00001 and its DV are DELETED
    keep = np.ones(rows, dtype=bool)
    keep[w.deleted_positions(f1)] = False
    compacted = os.path.join(data_dir, "00003-1-events-compacted.parquet")
    pq.write_table(tables[1].filter(pa.array(keep)), compacted, compression="zstd")
    w.rewrite([f1], [data_file(compacted)])
    # an orphan: a data file a failed job left behind, which no snapshot references
    orphan = os.path.join(data_dir, "00099-0-events-orphan.parquet")
    pq.write_table(_events(rng, rows // 10, 10 * rows), orphan, compression="zstd")
    written = sorted(os.path.join(d, f) for d, _, fs in os.walk(table_root) for f in fs)
    return written, [orphan]


def build(root: str, *, rows_per_file: int = 20_000, seed: int = 7) -> dict[str, list[str]]:
    """Write the demo lake under ``root`` (replacing it); returns the written files by kind (``iceberg``: every file
    under the Iceberg table ``warehouse/db/events``, :data:`EVENTS`; ``iceberg-orphans``: its orphan files)."""
    import pyarrow.parquet as pq

    if os.path.isdir(root):
        shutil.rmtree(root)
    rng = np.random.default_rng(seed)
    out: dict[str, list[str]] = {"parquet": [], "puffin": [], "dv-file": [], "broken": [], "iceberg": [], "iceberg-orphans": []}
    data_dir = os.path.join(root, TABLE, "data")
    os.makedirs(data_dir, exist_ok=True)

    # -- data files: one per layout choice people get wrong ---------------------------------------
    layouts: list[tuple[str, dict[str, Any]]] = [
        (
            "00000-0-indexed",
            {
                "compression": "zstd",
                "write_page_index": True,
                "write_page_checksum": True,
                "bloom_filter_options": {"order_id": {"ndv": rows_per_file, "fpp": 0.01}},
            },
        ),
        ("00001-0-tiny-pages", {"compression": "snappy", "data_page_size": 1024, "write_batch_size": 64, "write_page_index": False}),
        ("00002-0-dict-fallback", {"compression": "zstd", "dictionary_pagesize_limit": 4096, "write_page_index": True}),
        ("00003-0-uncompressed", {"compression": "none", "use_dictionary": False, "write_page_index": False}),
    ]
    tables = {}
    for i, (name, opts) in enumerate(layouts):
        path = os.path.join(data_dir, f"{name}.parquet")
        table = _orders(rng, rows_per_file, i * rows_per_file)
        if name.endswith("uncompressed"):
            import pyarrow as pa

            table = table.append_column("payload", pa.array([rng.bytes(48) for _ in range(rows_per_file)], pa.binary()))
        tables[name] = table
        pq.write_table(table, path, **opts)
        out["parquet"].append(path)

    # -- deletion vectors naming the data files as they would sit on object storage ----------------
    dv_path = os.path.join(data_dir, "00000-1-deletes.puffin")
    with puffin.PuffinWriter(dv_path, created_by="lakestruct demo lake") as w:
        w.add_deletion_vector(np.arange(0, rows_per_file, 4), f"s3://{BUCKET}/{TABLE}/data/00000-0-indexed.parquet")  # 25%
        w.add_deletion_vector(
            rng.choice(rows_per_file, rows_per_file // 50, replace=False), f"s3://{BUCKET}/{TABLE}/data/00001-0-tiny-pages.parquet"
        )  # 2%
        w.add_deletion_vector(
            np.arange(rows_per_file - rows_per_file // 20, rows_per_file), f"s3://{BUCKET}/{TABLE}/data/00002-0-dict-fallback.parquet"
        )  # 5%
        w.add_deletion_vector([1, 2, 3], f"s3://{BUCKET}/{TABLE}/data/00099-0-not-scanned.parquet")  # no such file here
    out["puffin"].append(dv_path)

    # -- column statistics: Theta sketches with ndv, one of them wrong ----------------------------
    stats_path = os.path.join(root, TABLE, "metadata", "snap-1.stats.puffin")
    os.makedirs(os.path.dirname(stats_path), exist_ok=True)
    with puffin.PuffinWriter(stats_path, created_by="lakestruct demo lake") as w:
        order_ids = np.concatenate([t.column("order_id").to_numpy() for t in tables.values()])
        sk = _theta(order_ids)
        w.add_blob(
            puffin.THETA_V1,
            sk.to_bytes(3),
            fields=[1],
            snapshot_id=1,
            sequence_number=1,
            codec="zstd",
            properties={"ndv": str(int(sk.estimate()))},
        )
        amounts = np.concatenate([t.column("amount").to_numpy() for t in tables.values()])
        sk2 = _theta((amounts * 100).astype(np.int64))
        w.add_blob(
            puffin.THETA_V1,
            sk2.to_bytes(3),
            fields=[3],
            snapshot_id=1,
            sequence_number=1,
            codec="zstd",
            properties={"ndv": str(int(sk2.estimate()) * 2)},
        )  # wrong on purpose
    out["puffin"].append(stats_path)

    # -- a Delta Lake deletion-vector file ------------------------------------------------------------
    delta_bytes, _ = deletes.encode_delta_dv_file([[0, 5, 9], list(range(100, 200))])
    delta_path = os.path.join(root, "delta", "events", "deletion_vector_7c3c1fd8-d8c1-4a6c-9a38-9e3f3a6bb2a1.bin")
    _put(delta_path, delta_bytes)
    out["dv-file"].append(delta_path)

    # -- an Iceberg v3 table: two superseding DELETEs, a compaction, an orphan -----------------------------------
    out["iceberg"], out["iceberg-orphans"] = _iceberg_events(root, np.random.default_rng(seed + 1), max(rows_per_file // 4, 200), seed)

    # -- broken files --------------------------------------------------------------------------------
    broken = os.path.join(root, "broken")
    with open(out["parquet"][0], "rb") as f:
        good = f.read()
    _put(os.path.join(broken, "truncated.parquet"), good[: len(good) * 2 // 3])
    blob = bytearray(deletes.encode_deletion_vector_blob([3, 1, 4, 1, 5, 9, 2, 6]))
    blob[-1] ^= 0xFF
    _put(os.path.join(broken, "bad-crc.dv.bin"), bytes(blob))
    # a DV whose footer says it deletes more rows than its bitmap holds (a writer bug a reader must catch)
    with puffin.PuffinWriter(os.path.join(broken, "wrong-cardinality.puffin"), created_by="lakestruct demo lake") as w:
        w.add_blob(
            puffin.DELETION_VECTOR_V1,
            deletes.encode_deletion_vector_blob([10, 20, 30]),
            fields=[deletes.DV_FIELDS[0]],
            snapshot_id=-1,
            sequence_number=-1,
            properties={"referenced-data-file": f"s3://{BUCKET}/{TABLE}/data/00003-0-uncompressed.parquet", "cardinality": "4"},
        )
    garbage = bytearray(good)
    garbage[4:40] = rng.integers(0, 256, 36, dtype=np.uint8).tobytes()
    _put(os.path.join(broken, "garbage-page-header.parquet"), bytes(garbage))
    out["broken"] += sorted(os.path.join(broken, f) for f in os.listdir(broken))
    return out
