"""Iceberg Java 1.10 reads tables lakestruct wrote (run by the PySpark 3.5 venv of tests/iceberg/iceberg_java_env.py).

    <venv35>/bin/python iceberg_java_reader.py JARS WAREHOUSE OUT.json TABLE...

The tables sit at ``WAREHOUSE/db/<TABLE>`` (the Hadoop catalog's layout: ``metadata/v<N>.metadata.json`` and
``version-hint.text``). For each, Iceberg says: its snapshots, the ``entries`` metadata table of the current snapshot
(status, content, path, referenced data file, sequence numbers), the live rows (``_file``, ``_pos``, ``id``) of every
snapshot (``VERSION AS OF``), and the current ``delete_files``. Written to OUT.json; nothing here knows lakestruct.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from iceberg_java_writer import plain, session  # type: ignore[import-not-found]


def read(spark: Any, t: str) -> dict[str, Any]:
    name = f"local.db.{t}"
    snaps = [plain(r) for r in spark.sql(f"SELECT snapshot_id, parent_id, operation, summary FROM {name}.snapshots "
                                         "ORDER BY committed_at").collect()]  # fmt: skip
    rows = {}
    for s in snaps:
        got = spark.sql(f"SELECT _file, _pos, id FROM {name} VERSION AS OF {s['snapshot_id']}").collect()
        rows[str(s["snapshot_id"])] = [[r["_file"], r["_pos"], r["id"]] for r in got]
    entries = [plain(r) for r in spark.sql(
        f"SELECT status, snapshot_id, sequence_number, file_sequence_number, data_file.content AS content, "
        f"data_file.file_path AS file_path, data_file.record_count AS record_count, "
        f"data_file.referenced_data_file AS referenced_data_file FROM {name}.entries").collect()]  # fmt: skip
    deletes = [plain(r) for r in spark.sql(
        f"SELECT content, file_path, file_format, record_count, referenced_data_file, content_offset, content_size_in_bytes "
        f"FROM {name}.delete_files").collect()]  # fmt: skip
    return {"snapshots": snaps, "rows": rows, "entries": entries, "delete_files": deletes}


def main() -> None:
    jars, warehouse, out = sys.argv[1], Path(sys.argv[2]).resolve(), Path(sys.argv[3])
    spark = session(jars, warehouse)
    spark.sparkContext.setLogLevel("ERROR")
    doc = {t: read(spark, t) for t in sys.argv[4:]}
    out.write_text(json.dumps(doc))
    spark.stop()


if __name__ == "__main__":
    main()
