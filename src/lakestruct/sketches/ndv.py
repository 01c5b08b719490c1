"""The Puffin ``ndv`` blob property against the decoded Theta sketch.

Iceberg (``NDVSketchUtil``, Spark) and Trino write ``ndv`` as
``String.valueOf((long) sketch.getEstimate())``: the compact sketch's estimate
truncated toward zero, not rounded. Observed on every Theta blob of the shared
corpus (23 blobs written by Iceberg 1.10.2 and the 3 puffin-tools blobs):
``ndv == int(estimate)``, including estimates such as 55668.52 -> "55668" where
rounding would give 55669.

The check accepts any ``ndv`` less than 1 away from the estimate (truncated,
rounded or ceiled), so a writer that rounds is not reported; it reports
``theta_compact.ndv-mismatch`` otherwise, ``theta_compact.ndv-syntax`` when
the property is not the decimal digits the Puffin spec requires and
``theta_compact.ndv-range`` when it exceeds a Java long (Iceberg writes a long).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import FormatError
from .model import ThetaSketch

__all__ = ["NdvCheck", "compare_ndv", "check_ndv", "iceberg_ndv", "theta_blob_report"]

#: ``ndv`` is a Java long: larger values break ``theta_compact.ndv-range`` (decided on the text, before any conversion).
MAX_LONG = 2**63 - 1


def iceberg_ndv(sketch: ThetaSketch) -> int:
    """The ``ndv`` Iceberg and Trino write for this sketch: ``int(estimate)``."""
    return int(sketch.estimate())


@dataclass(frozen=True)
class NdvCheck:
    """The outcome of comparing an ``ndv`` property with a sketch's estimate."""

    #: The property parsed as an int (None when it is not decimal digits or exceeds a long).
    ndv: int | None
    #: The sketch's estimate.
    estimate: float
    #: What Iceberg/Trino would have written: ``int(estimate)``.
    expected: int
    #: None when consistent, else ``theta_compact.ndv-syntax``, ``theta_compact.ndv-range`` or ``theta_compact.ndv-mismatch``.
    rule: str | None
    #: A one-line explanation.
    message: str

    @property
    def ok(self) -> bool:
        return self.rule is None

    def raise_for_rule(self, *, path: str = "properties.ndv", offset: int | None = None) -> None:
        if self.rule is not None:
            raise FormatError(self.message, rule=self.rule, path=path, offset=offset)


def compare_ndv(sketch: ThetaSketch, ndv_property: str | int) -> NdvCheck:
    """Compare the ``ndv`` property with the decoded estimate; never raises."""
    est = sketch.estimate()
    expected = int(est)
    if isinstance(ndv_property, bool) or not isinstance(ndv_property, (str, int)):
        return NdvCheck(None, est, expected, "theta_compact.ndv-syntax", f"ndv must be a string of digits, found {ndv_property!r}")
    text = str(ndv_property)
    if not (text.isascii() and text.isdigit()):
        return NdvCheck(None, est, expected, "theta_compact.ndv-syntax", f"ndv {text!r} is not a non-negative integer in decimal digits")
    digits = text.lstrip("0") or "0"
    if len(digits) > 19 or int(digits) > MAX_LONG:  # decided on the text: no int() of thousands of digits, no float overflow
        shown = text if len(text) <= 40 else f"{text[:12]}...{text[-4:]} ({len(text)} digits)"
        return NdvCheck(
            None,
            est,
            expected,
            "theta_compact.ndv-range",
            f"ndv {shown} is outside the range of a Java long (Iceberg writes a long; the estimate is {est!r})",
        )
    ndv = int(digits)
    if abs(ndv - est) >= 1.0:
        return NdvCheck(
            ndv,
            est,
            expected,
            "theta_compact.ndv-mismatch",
            f"ndv {ndv} disagrees with the sketch's estimate {est!r} (Iceberg writes int(estimate) = {expected})",
        )
    how = "as Iceberg writes it" if ndv == expected else f"though Iceberg would write {expected}"
    return NdvCheck(ndv, est, expected, None, f"ndv {ndv} matches the estimate {est!r} ({how})")


def check_ndv(sketch: ThetaSketch, ndv_property: str | int, *, path: str = "properties.ndv", offset: int | None = None) -> NdvCheck:
    """Like :func:`compare_ndv` but raise :class:`FormatError` (with the rule) on a problem."""
    result = compare_ndv(sketch, ndv_property)
    result.raise_for_rule(path=path, offset=offset)
    return result


def theta_blob_report(
    data: bytes, properties: Mapping[str, str] | None = None, *, seed: int | None = 9001, max_entries: int | None = None
) -> dict[str, object]:
    """Decode one ``apache-datasketches-theta-v1`` blob (decompressed bytes) for display.

    Returns :meth:`ThetaSketch.summary` plus, when ``properties`` has ``ndv``,
    ``ndv`` (the property as stored), ``ndv_ok`` and ``ndv_rule``/``ndv_message``.
    Malformed sketch bytes raise :class:`FormatError`; an ``ndv`` problem is
    reported in the dict, not raised (use :func:`check_ndv` to raise). ``max_entries`` bounds the hashes as in
    :meth:`ThetaSketch.from_bytes` (default: relative to ``len(data)``).
    """
    sk = ThetaSketch.from_bytes(data, seed=seed, max_entries=max_entries)
    out = sk.summary()
    if properties is not None and "ndv" in properties:
        r = compare_ndv(sk, properties["ndv"])
        out.update(ndv=properties["ndv"], ndv_ok=r.ok, ndv_rule=r.rule, ndv_message=r.message)
    return out
