"""The kaitai source on Spark (the shared local[2] session) equals the plain single-process loop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from lakestruct.kaitai import KaitaiToolchainError, compile
from lakestruct.spark import full_schema, source
from lakestruct.spark.rowsource import plain_loop, prepared_options
from tests.kaitai.conftest import write_pcap


def _plain(paths: list[str], options: dict[str, str]) -> list[dict[str, Any]]:
    src = source("kaitai")
    opts = prepared_options(src, options)
    table = pa.Table.from_batches(list(plain_loop(src, paths, options)), schema=full_schema(src, opts))
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


def _key(r: dict[str, Any]) -> tuple[Any, ...]:
    return (r["file"], r.get("__index") if r.get("__index") is not None else -1, r["error_rule"] or "")


def test_kaitai_on_spark_equals_the_plain_loop(spark: Any, corpus: Path, tmp_path: Path) -> None:
    gallery = corpus / "kaitai-formats"
    lake = tmp_path / "captures"
    lake.mkdir()
    pcaps = [write_pcap(lake / f"c{i}.pcap", n=20 + i) for i in range(4)]
    cut = lake / "cut.pcap"
    cut.write_bytes(pcaps[0].path.read_bytes()[: pcaps[0].offsets[5] + 20])
    opts = {"spec": str(gallery / "network/pcap.ksy"), "import_path": str(gallery), "root": "packets", "positions": "true"}
    try:
        mine = _plain([str(lake)], opts)
    except KaitaiToolchainError as e:
        pytest.skip(str(e))
    df = spark.read.format("kaitai").options(**opts).option("min_partitions", "2").load(str(lake))
    assert df.rdd.getNumPartitions() >= 2  # files spread over tasks
    theirs = df.toArrow().to_pylist()
    assert sorted(theirs, key=_key) == sorted(mine, key=_key)
    assert len(theirs) == sum(len(p.packets) for p in pcaps) + 5 + 1
    errors = [r for r in theirs if r["error_rule"]]
    assert [(Path(r["file"]).name, r["error_rule"], r["error_path"], r["error_offset"]) for r in errors] == [
        ("cut.pcap", "pcap.truncated", "packets[5].body", pcaps[0].offsets[5] + 16)
    ]
    # SQL over the packets: UDP payloads by port
    df.createOrReplaceTempView("packets")
    got = spark.sql(
        "select body.ethernet_frame.body.ipv4_packet.body.body.udp_datagram.src_port as port from packets "
        "where body.ethernet_frame.body.ipv4_packet.body.body.udp_datagram is not null and file like '%c1.pcap'"
    ).toArrow().column("port").to_pylist()
    assert sorted(got) == sorted(p.udp[0] for p in pcaps[1].packets if p.udp)
    # a module `lakestruct gen` wrote (its .py file) instead of the .ksy
    try:
        compile([gallery / "archive/gzip.ksy"], tmp_path / "gen", import_dirs=[gallery])
    except KaitaiToolchainError as e:
        pytest.skip(str(e))
    gz = tmp_path / "gz"
    gz.mkdir()
    import gzip

    for i in range(3):
        (gz / f"{i}.gz").write_bytes(gzip.compress(b"x" * (i + 1) * 100, mtime=i))
    rows = spark.read.format("kaitai").option("spec", str(tmp_path / "gen" / "gzip.py")).load(str(gz)).toArrow().to_pylist()
    assert sorted(r["len_uncompressed"] for r in rows) == [100, 200, 300] and sorted(r["mod_time"] for r in rows) == [0, 1, 2]
