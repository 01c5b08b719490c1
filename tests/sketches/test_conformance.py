"""Real sketches written by DataSketches Java and C++ and by Iceberg, against the datasketches package.

Every corpus file must decode to what ``datasketches.compact_theta_sketch``
(the C++ library) reports for it, and our writer must reproduce the package's
serialization byte for byte, uncompressed (v3) and compressed (v4).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import datasketches as ds
import pytest

import lakestruct
from lakestruct.sketches import ThetaSketch, check_ndv, compute_seed_hash, iceberg_ndv
from tests.sketches._corpus import EXPECTED, PUFFIN_TOOLS_THETA, ids, stats_files, theta_files

pytestmark = pytest.mark.corpus

SK = theta_files()


def _agree(ours: ThetaSketch, theirs: ds.compact_theta_sketch) -> None:
    assert ours.estimate() == theirs.get_estimate()
    assert ours.theta_long == theirs.theta64
    assert ours.theta == theirs.theta
    assert ours.num_retained == theirs.num_retained
    assert ours.seed_hash == theirs.get_seed_hash()
    assert ours.empty == theirs.is_empty()
    assert ours.ordered == theirs.is_ordered()
    assert ours.is_estimation_mode == theirs.is_estimation_mode()
    assert list(ours.entries) == list(theirs)
    for sd in (1, 2, 3):
        assert ours.lower_bound(sd) == theirs.get_lower_bound(sd)
        assert ours.upper_bound(sd) == theirs.get_upper_bound(sd)


@pytest.mark.parametrize("path", SK, ids=ids(SK))
def test_sk_file_matches_datasketches(path: Path) -> None:
    data = path.read_bytes()
    ours = ThetaSketch.from_bytes(data)
    _agree(ours, ds.compact_theta_sketch.deserialize(data))
    assert ThetaSketch.from_bytes(path) == ours  # a path reads the same as its bytes


@pytest.mark.parametrize("path", SK, ids=ids(SK))
def test_writer_is_byte_identical_to_datasketches(path: Path) -> None:
    data = path.read_bytes()
    theirs = ds.compact_theta_sketch.deserialize(data)
    ours = ThetaSketch.from_bytes(data)
    assert ours.to_bytes(3) == theirs.serialize()
    assert ours.to_bytes(4) == theirs.serialize(True)


def test_serial_versions_and_forms_of_the_corpus() -> None:
    """What each file is, per the corpus manifest, and that C++-written bytes are reproduced exactly."""
    if not SK:
        pytest.skip("corpus absent")
    by = {p.name: p for p in SK}
    got = {name: ThetaSketch.from_bytes(p) for name, p in by.items()}
    assert got["theta_n0_java.sk"].empty and got["theta_n0_java.sk"].seed_hash == 0  # Java writes 0
    assert got["theta_n0_cpp.sk"].empty and got["theta_n0_cpp.sk"].seed_hash == 0x93CC
    assert got["theta_n1_java.sk"].flags == 0x3A and got["theta_n1_java.sk"].single_item
    assert got["theta_n1_cpp.sk"].flags == 0x1A and got["theta_n1_cpp.sk"].single_item
    assert got["theta_n1_java.sk"] == got["theta_n1_cpp.sk"]  # same content, Java vs C++ flags
    ne = got["theta_non_empty_no_entries_java.sk"]
    assert not ne.empty and ne.num_retained == 0 and ne.pre_longs == 3 and ne.estimate() == 0.0
    for n in (10, 100, 1000, 10000, 100000, 1000000):
        v3, v4 = got[f"theta_n{n}_java.sk"], got[f"theta_compressed_n{n}_java.sk"]
        assert (v3.serial_version, v4.serial_version) == (3, 4)
        assert v3 == v4
        # Java v4 and v3 images are what our (C++-identical) writer produces
        assert v3.to_bytes(3) == by[f"theta_n{n}_java.sk"].read_bytes()
        assert v3.to_bytes(4) == by[f"theta_compressed_n{n}_java.sk"].read_bytes()
    assert got["theta_n0_cpp.sk"].to_bytes(3) == by["theta_n0_cpp.sk"].read_bytes()
    assert got["theta_n1_cpp.sk"].to_bytes(4) == by["theta_n1_cpp.sk"].read_bytes()  # v4 falls back to v3
    for v in (1, 2):
        est = got[f"theta_compact_estimation_from_java_v{v}.sk"]
        assert est.serial_version == v and est.num_retained == 4342 and est.ordered
        assert got[f"theta_compact_empty_from_java_v{v}.sk"].empty
    assert got["theta_compact_estimation_from_java_v1.sk"] == got["theta_compact_estimation_from_java_v2.sk"]


STATS = stats_files()


@pytest.mark.parametrize("path", STATS, ids=ids(STATS))
def test_iceberg_stats_blobs_match_expected_json(path: Path, corpus: Path) -> None:
    expected = json.loads((corpus / EXPECTED).read_text())["files"][path.name]["statistics"]["blob-metadata"]
    with lakestruct.puffin.open(path) as pf:
        assert len(pf.blobs) == len(expected)
        for blob, exp in zip(pf.blobs, expected, strict=True):
            assert blob.type == exp["type"] == "apache-datasketches-theta-v1"
            assert list(blob.fields) == exp["fields"]
            data = pf.read_blob(blob)
            sk = ThetaSketch.from_bytes(data)
            want = exp["datasketches_python"]
            assert sk.estimate() == want["estimate"]
            assert sk.theta == want["theta"]
            assert sk.theta_long == want["theta64"]
            assert sk.num_retained == want["num_retained"]
            assert sk.seed_hash == want["seed_hash"] == compute_seed_hash(9001)
            assert sk.is_estimation_mode == want["estimation_mode"]
            assert len(data) == want["serialized_size"]
            assert sk.lower_bound(2) == want["lower_bound_2sd"]
            assert sk.upper_bound(2) == want["upper_bound_2sd"]
            # Iceberg writes ndv = (long) estimate: truncation, checked on every blob
            assert blob.properties["ndv"] == exp["properties"]["ndv"] == str(iceberg_ndv(sk))
            assert check_ndv(sk, blob.properties["ndv"]).ok
            assert sk.to_bytes(3) == data  # Iceberg (Java) bytes, reproduced (p = 1.0f kept)
            theirs = ds.compact_theta_sketch.deserialize(data)
            assert replace(sk, p=0.0).to_bytes(3) == theirs.serialize()
            assert sk.to_bytes(4) == theirs.serialize(True)


def test_puffin_tools_theta_blobs(corpus: Path) -> None:
    path = corpus / PUFFIN_TOOLS_THETA
    with lakestruct.puffin.open(path) as pf:
        assert [b.fields for b in pf.blobs] == [(1,), (2,), (3,)]
        for blob in pf.blobs:
            data = pf.read_blob(blob)
            assert len(data) == 56 and data[12:16] == b"\x00\x00\x80\x3f"  # p = 1.0f, as Trino/older Java wrote it
            sk = ThetaSketch.from_bytes(data)
            theirs = ds.compact_theta_sketch.deserialize(data)
            _agree(sk, theirs)
            assert sk.estimate() == 5.0 and not sk.is_estimation_mode and sk.serial_version == 3
            assert blob.properties["ndv"] == "5"
            assert check_ndv(sk, blob.properties["ndv"]).ndv == 5
            assert sk.p == 1.0 and sk.to_bytes(3) == data  # read -> write reproduces the blob
            assert replace(sk, p=0.0).to_bytes(3) == theirs.serialize()  # C++ writes p = 0
