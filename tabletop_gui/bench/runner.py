"""Timing the cases: median, spread, and the ratio to the same-run reference."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop_gui.bench.registry import Case


@dataclass(frozen=True)
class Timing:
    name: str
    times_ms: tuple[float, ...]
    reference_ms: tuple[float, ...] = ()
    agrees: bool | None = None  # answer == reference answer (None: no reference)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "median_ms": round(self.median_ms, 3),
            "min_ms": round(min(self.times_ms), 3),
            "max_ms": round(max(self.times_ms), 3),
            "runs": len(self.times_ms),
        }
        if self.reference_ms:
            ref = statistics.median(self.reference_ms)
            out["reference_median_ms"] = round(ref, 3)
            out["speedup"] = round(ref / self.median_ms, 1) if self.median_ms > 0 else None
        return out


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    answer = fn()
    return (time.perf_counter() - t0) * 1000.0, answer


def run_case(case: Case, quick: bool) -> Timing:
    """Warm up once (untimed), time the runs, then the reference runs; compare answers."""
    if case.set_quick is not None:
        case.set_quick(quick)
    runs = case.quick_runs if quick else case.runs
    answer = case.compute()
    times = []
    for _ in range(max(1, runs)):
        ms, answer = _timed(case.compute)
        times.append(ms)
    if case.reference is None:
        return Timing(case.name, tuple(times))
    ref_times = []
    ref_answer: Any = None
    for _ in range(max(1, case.quick_reference_runs if quick else case.reference_runs)):
        ms, ref_answer = _timed(case.reference)
        ref_times.append(ms)
    if case.reference_scale is not None:
        factor = case.reference_scale()
        ref_times = [ms * factor for ms in ref_times]
    return Timing(case.name, tuple(times), tuple(ref_times), case.same(answer, ref_answer))


def machine() -> str:
    """A one-line description of the machine and the libraries."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numpy
    import shapely

    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, numpy {numpy.__version__}, "
            f"shapely {shapely.__version__}")
