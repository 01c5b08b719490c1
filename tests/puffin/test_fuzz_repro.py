"""Puffin files from ``fuzz-repro/`` (read in place): each ends in a named lakestruct error, or a bounded cost.

Before the fixes these raised ValueError (a 5,000-digit JSON integer; an ``ndv`` of 4,301 digits), OverflowError (an
``ndv`` of 400 digits), ZeroDivisionError (theta_long = 1) or MemoryError (2^27 one-bit v4 deltas behind 759 bytes).
"""

from __future__ import annotations

import decimal
import json
import math
import tracemalloc
from pathlib import Path

import datasketches as ds
import pytest

import lakestruct as ls
from lakestruct.cli import main
from lakestruct.errors import FormatError, LimitError
from lakestruct.puffin.read import MAX_JSON_NUMBER_LENGTH
from lakestruct.sketches.bounds import delta_of
from lakestruct.sketches.model import MAX_THETA

FOOTER_BIG_INT = "puffin_builtins.ValueError_lakestruct_puffin_read.py_82_parse_footer_payload.bin"
NDV_400 = "puffin_builtins.OverflowError_lakestruct_sketches_ndv.py_66_compare_ndv.bin"
NDV_4301 = "puffin_builtins.ValueError_lakestruct_sketches_ndv.py_65_compare_ndv.bin"
NDV_400_CRAFTED = "crafted_theta_ndv_400digits.puffin"
TINY_THETA = "crafted_theta_tiny_theta.puffin"
V4_2P24 = "crafted_theta_v4_2p24_zstd.puffin"
V4_2P27 = "crafted_theta_v4_2p27_zstd.puffin"


@pytest.fixture
def fr(corpus: Path) -> Path:
    folder = corpus / "fuzz-repro"
    if not folder.is_dir():
        pytest.skip("fuzz-repro/ is not in this corpus")
    return folder


def _cli_fails(args: list[str], rule: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 1
    err = capsys.readouterr().err
    assert rule in err and "Traceback" not in err
    return err


# -- footer JSON: a 5,000-digit integer ---------------------------------------------------------------
def test_footer_with_a_5000_digit_integer(fr: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = fr / FOOTER_BIG_INT
    with pytest.raises(FormatError) as e:
        ls.puffin.open(path)
    assert e.value.rule == "puffin.json-number-length" and e.value.path == "footer.payload"
    assert "5000 characters" in e.value.message
    assert e.value.offset is None  # the footer is LZ4-compressed: no file offset for a JSON position
    _cli_fails(["puffin", "inspect", str(path)], "puffin.json-number-length", capsys)


def _footer_file(payload: bytes) -> bytes:
    return b"PFA1" + b"PFA1" + payload + len(payload).to_bytes(4, "little") + bytes(4) + b"PFA1"


def test_json_number_length_limit_and_offset() -> None:
    ok = json.dumps({"blobs": [], "x": int("9" * MAX_JSON_NUMBER_LENGTH)}).encode()
    with ls.puffin.open(_footer_file(ok)) as r:
        assert r.blobs == ()
    for number in ("1" + "0" * MAX_JSON_NUMBER_LENGTH, "1." + "0" * MAX_JSON_NUMBER_LENGTH, "-" + "7" * 5000):
        # a string of digits before it must not be taken for the number
        payload = ('{"blobs": [], "properties": {"a": "' + "5" * 3000 + '"}, "x": ' + number + "}").encode()
        with pytest.raises(FormatError) as e:
            ls.puffin.open(_footer_file(payload))
        assert e.value.rule == "puffin.json-number-length"
        assert e.value.offset == 8 + payload.index(number.encode())


# -- ndv properties beyond a long ---------------------------------------------------------------------
@pytest.mark.parametrize(("name", "index", "digits"), [(NDV_400, 1, 400), (NDV_4301, 1, 4301), (NDV_400_CRAFTED, 0, 400)])
def test_ndv_beyond_a_long(fr: Path, name: str, index: int, digits: int, capsys: pytest.CaptureFixture[str]) -> None:
    path = fr / name
    with ls.puffin.open(path) as r:
        assert len(r.blobs[index].properties["ndv"]) == digits
        with pytest.raises(FormatError) as e:
            r.check()
    assert e.value.rule == "theta_compact.ndv-range"
    assert e.value.path == f"footer.payload.blobs[{index}].properties.ndv"
    assert f"({digits} digits)" in e.value.message and len(str(e.value)) < 400  # not the digits themselves
    _cli_fails(["puffin", "inspect", str(path)], "theta_compact.ndv-range", capsys)
    _cli_fails(["puffin", "inspect", str(path), "--json"], "theta_compact.ndv-range", capsys)


# -- theta_long = 1 -----------------------------------------------------------------------------------
def _exact_upper_k0(theta_long: int, sd: int) -> float:
    """ceil(log(delta) / log(1 - theta)) at 60 digits (the closed form for no retained hash)."""
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        theta = decimal.Decimal(theta_long) / decimal.Decimal(MAX_THETA)
        raw = decimal.Decimal(delta_of(sd)).ln() / (1 - theta).ln()
        return float(raw.to_integral_value(rounding=decimal.ROUND_CEILING))


def test_tiny_theta_bounds(fr: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = fr / TINY_THETA
    with ls.puffin.open(path) as r:
        (decoded,) = ls.puffin.decode.check_blobs(r)
        raw = r.read_blob(0)
    sk = decoded.sketch
    assert sk is not None and sk.theta_long == 1 and sk.num_retained == 0 and not sk.empty
    assert sk.lower_bound(2) == 0.0
    for sd in (1, 2, 3):
        # no hash retained at theta ~1.08e-19: up to ~-log(delta)/theta items (3.49e19 at 2 sd), not 0
        assert sk.upper_bound(sd) == pytest.approx(_exact_upper_k0(1, sd), rel=1e-12)
        assert sk.upper_bound(sd) == pytest.approx(-math.log(delta_of(sd)) * MAX_THETA, rel=1e-12)
    theirs = ds.compact_theta_sketch.deserialize(raw)  # DataSketches reads it: same estimate, its bound collapses to 0
    assert (theirs.theta64, theirs.num_retained, theirs.get_estimate()) == (1, 0, sk.estimate())
    assert main(["puffin", "inspect", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["blobs"][0]["decoded"]
    assert shown["upper_bound_2sd"] == sk.upper_bound(2) and shown["ndv_check"].startswith("ndv 0 matches")
    assert main(["puffin", "inspect", str(path)]) == 0
    assert f"estimate 0 [0, {_exact_upper_k0(1, 2):.6g} at 2 sd]" in capsys.readouterr().out


# -- v4 sketches of 2^24 and 2^27 one-bit deltas behind a few hundred bytes ----------------------------
@pytest.mark.parametrize(("name", "hashes"), [(V4_2P24, 2**24), (V4_2P27, 2**27)])
def test_v4_delta_bomb_is_refused_before_unpacking(
    fr: Path, name: str, hashes: int, traced: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = fr / name
    size = path.stat().st_size
    with ls.puffin.open(path) as r, pytest.raises(LimitError) as e:
        r.check()
    _, peak = tracemalloc.get_traced_memory()
    assert e.value.rule == "theta_compact.num-entries-limit" and e.value.path == "blobs[0].body.num_entries"
    assert str(hashes) in e.value.message
    # the blob may decompress to the codec bound (64 MiB); its hashes are never unpacked (2^27 took > 3 GB before)
    assert peak < 100 * 2**20, f"{peak / 2**20:.0f} MiB for a {size}-byte file"
    _cli_fails(["puffin", "inspect", str(path)], "theta_compact.num-entries-limit", capsys)


def test_v4_sketch_hashes_stored_compactly(fr: Path, traced: None) -> None:
    with ls.puffin.open(fr / V4_2P24) as r:
        blob = r.read_blob(0)  # 2 MiB: 2^24 one-bit deltas
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    # outside a Puffin file the bound is relative to the input (fuzz round two): 2^24 hashes from 2 MiB is more than
    # max(2^23, 2 MiB) allows, so a caller who trusts the sketch says how many it may hold
    with pytest.raises(LimitError) as e:
        ls.sketches.ThetaSketch.from_bytes(blob)
    assert e.value.rule == "theta_compact.num-entries-limit"
    tracemalloc.reset_peak()
    sk = ls.sketches.ThetaSketch.from_bytes(blob, max_entries=2**24)
    _, peak = tracemalloc.get_traced_memory()
    assert sk.num_retained == 2**24 and sk.estimate() == 2**24
    assert sk.hashes[0] == 1 and sk.hashes[-1] == 2**24  # deltas of 1: hashes 1, 2, ..., 2^24
    # 8 bytes per hash plus transients (it took ~65 bytes per hash as Python ints)
    assert peak - base < 12 * 2**24, f"{(peak - base) / 2**24:.1f} bytes per hash"
    with pytest.raises(LimitError) as e:
        ls.sketches.ThetaSketch.from_bytes(blob, max_entries=2**24 - 1)
    assert e.value.rule == "theta_compact.num-entries-limit"
