"""``../shared/fuzz-repro-round2/theta_blob_report_unbounded.puffin`` (759 B, read in place): a zstd Theta v4 blob
declaring 2^27 hashes packed in 1 bit each (16 MiB decompressed). ``puffin inspect`` and ``check()`` refused it (their
bound comes from the blob's stored size), but the README's own pattern ``ThetaSketch.from_bytes(pf.read_blob(b))`` and
``theta_blob_report`` unpacked it: 1.24 GB, 8 s. Without ``max_entries`` they now bound the hashes by the input's size
(at most max(2^23, its bytes): 8 bytes of output per input byte, or 64 MiB)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import datasketches as ds
import pytest

import lakestruct as ls
from lakestruct.sketches import ThetaSketch, theta_blob_report
from lakestruct.sketches.read import MIN_ENTRIES_CAP

NAME = "theta_blob_report_unbounded.puffin"


def test_the_readme_pattern_is_bounded(fuzz_round2: Path, traced: None) -> None:
    with ls.puffin.open(fuzz_round2 / NAME) as pf:
        (b,) = pf.blobs
        assert b.type == "apache-datasketches-theta-v1" and b.compression_codec == "zstd"
        blob = pf.read_blob(b)
        base, _ = tracemalloc.get_traced_memory()
        for call in (lambda: ThetaSketch.from_bytes(blob), lambda: theta_blob_report(blob, b.properties)):
            with pytest.raises(ls.LimitError) as ei:
                call()
            assert ei.value.rule == "theta_compact.num-entries-limit" and "134217728 hashes" in ei.value.message
        _, peak = tracemalloc.get_traced_memory()
        assert peak - base < 96 << 20  # the 16 MiB blob parsed, then refused; 1.24 GB before
        # the same rule as the Puffin checks give
        with pytest.raises(ls.LimitError) as ei:
            pf.check()
        assert ei.value.rule == "theta_compact.num-entries-limit"


def test_max_entries_still_decides(fuzz_round2: Path) -> None:
    with ls.puffin.open(fuzz_round2 / NAME) as pf:
        blob = pf.read_blob(0)
    with pytest.raises(ls.LimitError):
        ThetaSketch.from_bytes(blob, max_entries=1000)
    with pytest.raises(ls.LimitError):
        theta_blob_report(blob, max_entries=len(blob))


@pytest.mark.parametrize("lg_k", [12, 16])
def test_real_sketches_read_under_the_default_bound(lg_k: int) -> None:
    # DataSketches' own sketches, estimation mode, every serial version it writes: nothing near the bound
    sk = ds.update_theta_sketch(lg_k)
    for i in range(1 << (lg_k + 2)):
        sk.update(i)
    compact = sk.compact()
    for data in (compact.serialize(), compact.serialize(compress=True)):
        ours = ThetaSketch.from_bytes(bytes(data))
        assert ours.num_retained == compact.num_retained <= MIN_ENTRIES_CAP
        assert ours.estimate() == pytest.approx(compact.get_estimate())
        assert theta_blob_report(bytes(data))["num_retained"] == compact.num_retained
