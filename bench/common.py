"""Shared pieces of the benchmarks: timing and the Result record."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Result:
    name: str  # what is measured
    peer: str  # the named peer it is compared with
    ratio: float  # how many times better lakestruct is (peer time / our time, or a memory ratio)
    goal: float  # the ratio the issue asks for; 0 = informational (no goal)
    detail: str = ""
    higher_is_better: bool = True

    @property
    def informational(self) -> bool:
        return self.goal == 0

    @property
    def met(self) -> bool:
        return self.ratio >= self.goal if self.higher_is_better else self.ratio <= self.goal

    @property
    def goal_text(self) -> str:
        if self.informational:
            return "-"
        return f"{'>=' if self.higher_is_better else '<='}{self.goal:g}"


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """Best wall time of ``repeat`` runs of ``number`` calls, in seconds per call."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def spark_missing(bench: str) -> bool:
    """Whether PySpark or Java is missing (then say so on stderr: the bench is skipped, not failed)."""
    from lakestruct.spark.env import JavaMissingError, SparkMissingError, check_java, check_pyspark

    try:
        check_pyspark()
        check_java()
    except (JavaMissingError, SparkMissingError) as e:  # pragma: no cover - machine without Java/PySpark
        print(f"{bench} skipped: {e}", file=sys.stderr)
        return True
    return False
