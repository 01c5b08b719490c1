"""Every Puffin file of the shared corpus, judged against what its writers and other readers say."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pyiceberg.table.puffin import PuffinFile as IcebergPuffinFile

import lakestruct as ls
from lakestruct.cli import main as cli_main
from tests.conftest import corpus_dir, shared_dir
from tests.helpers import webide_parse

#: The corpus folder of fuzzing reproducers (malformed on purpose); tests/conformance/test_fuzz_repro_covered.py
#: makes sure each one has its own test.
FUZZ_REPRO = "fuzz-repro"


def puffin_files() -> list[Path]:
    c = corpus_dir()
    if c is None:
        return []
    found = []
    for p in sorted(c.rglob("*")):
        if FUZZ_REPRO in p.relative_to(c).parts:
            continue  # deliberately malformed inputs: each has its own test with the outcome it must have
        if p.is_file() and p.stat().st_size >= 4:
            with p.open("rb") as f:
                head = f.read(4)
            if head == b"PFA1":
                found.append(p)
    return found


FILES = puffin_files()


def ids(paths: list[Path]) -> list[str]:
    c = corpus_dir()
    return [str(p.relative_to(c)) for p in paths] if c else []


def test_corpus_has_the_files_the_issue_names(corpus: Path) -> None:
    names = {p.name for p in FILES}
    assert {"empty-puffin-uncompressed.bin", "sample-metric-data-compressed-zstd.bin", "deletion-vector-v1.puffin"} <= names
    assert len([p for p in FILES if "generated-seed1" in p.parts]) == 14


@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_agrees_with_pyiceberg(path: Path) -> None:
    data = path.read_bytes()
    theirs = IcebergPuffinFile(data)
    with ls.puffin.open(path) as r:
        r.check()
        assert dict(r.properties) == theirs.footer.properties
        assert len(r.blobs) == len(theirs.footer.blobs)
        for ours, b in zip(r.blobs, theirs.footer.blobs, strict=True):
            assert (ours.type, list(ours.fields), ours.snapshot_id, ours.sequence_number) == (
                b.type,
                b.fields,
                b.snapshot_id,
                b.sequence_number,
            )
            assert (ours.offset, ours.length, ours.compression_codec, dict(ours.properties)) == (
                b.offset,
                b.length,
                b.compression_codec,
                b.properties,
            )
            assert r.read_blob(ours) == theirs.get_blob_payload(b)


def expected_iceberg() -> dict[str, Any]:
    c = corpus_dir()
    if c is None:
        pytest.skip("shared corpus absent")
    result: dict[str, Any] = json.loads((c / "generated-seed1/iceberg/expected.json").read_text())
    return result


def test_generated_seed1_deletion_vector_files_match_iceberg_manifests(corpus: Path) -> None:
    exp = expected_iceberg()
    checked = 0
    for name, entry in exp["files"].items():
        if entry.get("kind") != "deletion-vectors":
            continue
        path = corpus / "generated-seed1/iceberg/files" / name
        with ls.puffin.open(path) as r:
            r.check()
            assert r.footer.file_size == entry["file_size_in_bytes"]
            by_file = {b.properties["referenced-data-file"]: b for b in r.blobs}
            assert len(by_file) == len(entry["blobs"])
            for want in entry["blobs"]:
                b = by_file[want["referenced_data_file"]]
                # what Iceberg's all_entries reports for the delete file equals the footer
                assert (b.offset, b.length) == (want["content_offset"], want["content_size_in_bytes"])
                assert b.properties["cardinality"] == str(want["record_count"])
                assert b.type == ls.puffin.DELETION_VECTOR_V1
                assert b.compression_codec is None
                assert (b.snapshot_id, b.sequence_number) == (-1, -1)
                assert b.fields == (2147483645,)
                checked += 1
    assert checked >= 30


def test_generated_seed1_statistics_files_match_table_metadata(corpus: Path) -> None:
    exp = expected_iceberg()
    checked = 0
    for name, entry in exp["files"].items():
        if entry.get("kind") != "theta-statistics":
            continue
        stats = entry["statistics"]
        path = corpus / "generated-seed1/iceberg/files" / name
        with ls.puffin.open(path) as r:
            r.check()
            assert r.footer.file_size == stats["file-size-in-bytes"]
            assert r.footer.size == stats["file-footer-size-in-bytes"]
            assert len(r.blobs) == len(stats["blob-metadata"])
            for ours, want in zip(r.blobs, stats["blob-metadata"], strict=True):
                assert ours.type == want["type"]
                assert list(ours.fields) == want["fields"]
                assert ours.snapshot_id == want["snapshot-id"]
                assert ours.sequence_number == want["sequence-number"]
                assert dict(ours.properties) == want["properties"]
                assert ours.compression_codec == "zstd"
                assert len(r.read_blob(ours)) == want["datasketches_python"]["serialized_size"]
                checked += 1
    assert checked >= 20


def seed_blocks() -> tuple[str, list[dict[str, str]]]:
    """The puffin-tools output the Puffin walkthrough seed shows, parsed from the seed text."""
    seeds = shared_dir() / "seeds"
    text = next((p.read_text() for p in sorted(seeds.glob("*.txt")) if "puffin-tools" in p.read_text()), None)
    if text is None:
        pytest.skip("Puffin walkthrough seed not found")
    outputs = re.findall(r"\./puffin-tools\.jar --path (\S+)\n(.*?)(?=\n[^\n]*\./puffin-tools\.jar|\Z)", text, re.S)
    return text, [{"file": f, "body": body} for f, body in outputs]


def test_cli_shows_what_the_seed_shows(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, blocks = seed_blocks()
    assert len(blocks) == 2
    for block in blocks:
        path = corpus / "puffin-tools/src/test/resources" / block["file"]
        body = block["body"]
        created_by = re.search(r"\{created-by=(.*?)\}", body)
        assert created_by
        blob = dict(re.findall(r"^(\w+): (.*)$", body.split("=== blob ===", 1)[1], re.M))
        assert cli_main(["puffin", "inspect", str(path), "--json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        first = shown["blobs"][0]
        assert shown["properties"]["created-by"] == created_by.group(1)
        assert first["type"] == blob["type"]
        assert first["fields"] == json.loads(blob["inputFields"])
        assert first["snapshot-id"] == int(blob["snapshotId"])
        assert first["sequence-number"] == int(blob["sequenceNumber"])
        assert first["offset"] == int(blob["offset"])
        assert first["length"] == int(blob["length"])
        assert first.get("compression-codec", "null") == blob["compressionCodec"]
        props = dict(kv.split("=", 1) for kv in re.findall(r"(?:^|, )([\w-]+=[^,}]*)", blob["properties"].strip("{}")))
        for k, v in props.items():
            assert first["properties"][k] == v
        # and the text form shows the same values
        assert cli_main(["puffin", "inspect", str(path)]) == 0
        out = capsys.readouterr().out
        for value in (created_by.group(1), blob["type"], blob["snapshotId"], blob["offset"], blob["length"]):
            assert value in out
    # the seed's derived facts: ndv=5 on the theta blobs, cardinality=3 on the DV blob
    with ls.puffin.open(corpus / "puffin-tools/src/test/resources/apache-datasketches-theta-v1.puffin") as r:
        assert [b.properties["ndv"] for b in r.blobs] == ["5", "5", "5"]
    with ls.puffin.open(corpus / "puffin-tools/src/test/resources/deletion-vector-v1.puffin") as r:
        assert r.blobs[0].properties["cardinality"] == "3"


def test_seed_hexdump_is_the_rebuilt_file(corpus: Path) -> None:
    """The xxd dump in the walkthrough seed is byte for byte the file lakestruct reads."""
    text, _ = seed_blocks()
    dumped = b""
    for row in re.findall(r"^[0-9a-f]{8}: (.*)$", text, re.M):
        line = b""
        for token in row.split(" "):  # xxd: up to 16 bytes in groups of 2, then the ASCII column
            if len(line) == 16 or not re.fullmatch(r"(?:[0-9a-f]{2}){1,2}", token):
                break
            line += bytes.fromhex(token)
        dumped += line
    rebuilt = (corpus / "seed-files/deletion-vector-v1.puffin").read_bytes()
    assert dumped == rebuilt
    with ls.puffin.open(dumped) as r:
        assert (r.blobs[0].offset, r.blobs[0].length) == (4, 46)


@pytest.mark.node
def test_webide_parses_every_corpus_puffin_file_like_python(corpus: Path, tmp_path: Path) -> None:
    # plus files only lakestruct can write: an LZ4-compressed footer
    lz4_footer = tmp_path / "lz4.puffin"
    with ls.puffin.PuffinWriter(lz4_footer, compress_footer=True) as w:
        w.add_blob("t", b"x" * 100, codec="zstd")
    files = [*FILES, lz4_footer]
    results = webide_parse("formats/puffin/puffin.ksy", files)
    assert len(results) == len(files)
    for res, path in zip(results, files, strict=True):
        assert res["ok"], res
        tree = res["tree"]
        with ls.puffin.open(path) as r:
            assert tree["ofs_footer"] == r.footer.offset
            assert tree["tail"]["len_payload"] == r.footer.payload_length
            assert tree["tail"]["flags"]["payload_compressed"] == r.footer.compressed
            assert tree["blob_region"]["len"] == r.footer.offset - 4
            if not r.footer.compressed:
                assert json.loads(tree["footer"]["payload_text"]) == r.metadata.to_json()
    # and the IDE rejects what lakestruct rejects
    bad = tmp_path / "bad.puffin"
    data = bytearray(lz4_footer.read_bytes())
    data[-1] ^= 1
    bad.write_bytes(bytes(data))
    (res,) = webide_parse("formats/puffin/puffin.ksy", [bad])
    assert not res["ok"] and "validation" in res["error"].lower()
