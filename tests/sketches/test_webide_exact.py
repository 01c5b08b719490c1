"""Theta values above 2^53 in the Kaitai Web IDE: JavaScript numbers are doubles, so theta = 2^63-1 showed as
0x8000000000000000 and hashes rounded. The spec reads the same bytes again as two 32-bit halves and shows them as
exact decimal strings (``theta_text``, ``entries_exact``, ``u8_exact``), also in the object's label."""

from __future__ import annotations

from pathlib import Path

import pytest
from lakestruct._generated.theta_compact import ThetaCompact

from lakestruct.sketches import ThetaSketch
from tests.helpers import webide_parse

SPEC = "formats/sketches/theta_compact.ksy"
pytestmark = [pytest.mark.node]

MAX = 2**63 - 1
# hashes whose doubles differ from them, the largest below theta, and small ones (the six-digit split's edges)
HASHES = sorted({1, 999_999, 1_000_000, 2**32 - 1, 2**32, 2**53 + 1, 2**62 + 12_345, 2**63 - 25, 4_294_000_000_000_001})


def test_exact_theta_and_hashes_in_javascript(tmp_path: Path) -> None:
    samples = {
        "exact_v3.sk": (ThetaSketch.from_hashes(HASHES).to_bytes(3), MAX),
        "estimation_v3.sk": (ThetaSketch.from_hashes(HASHES, theta=2**63 - 7).to_bytes(3), 2**63 - 7),
        "estimation_v4.sk": (ThetaSketch.from_hashes(HASHES, theta=2**63 - 11).to_bytes(4), 2**63 - 11),
        "single.sk": (ThetaSketch.from_hashes([2**62 + 3]).to_bytes(3), MAX),
    }
    for name, (data, _) in samples.items():
        (tmp_path / name).write_bytes(data)
    outs = webide_parse(SPEC, [tmp_path / n for n in samples], "--labels")
    for out, (name, (data, theta)) in zip(outs, samples.items(), strict=True):
        assert out["ok"], (name, out["error"])
        body = out["tree"]["body"]
        py = ThetaCompact.from_bytes(data).body
        assert py.theta == theta and body["theta_text"] == str(theta), (name, body["theta_text"])
        assert f"theta={theta} " in body["@label"], (name, body["@label"])
        assert float(body["theta"]) != theta or theta < 2**53  # the plain number is still rounded: why the text exists
        if "v4" not in name:
            want = [str(h) for h in py.entries]
            assert [e["text"] for e in body["entries_exact"]] == want, name
            assert [int(t) for t in want] == [h for h in HASHES if h < theta][: len(want)] or name == "single.sk"


def test_python_reads_the_same_text() -> None:
    k = ThetaCompact.from_bytes(ThetaSketch.from_hashes(HASHES, theta=2**63 - 7).to_bytes(3)).body
    assert [int(e.text) for e in k.entries_exact] == list(k.entries) and k.theta_text == str(2**63 - 7)
