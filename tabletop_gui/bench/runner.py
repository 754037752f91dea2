"""Timing the cases: median, spread, and the ratio to the same-run reference."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from tabletop_gui.bench.registry import Case
from tabletop_gui.geometry import jit


@dataclass(frozen=True)
class Timing:
    name: str
    times_ms: tuple[float, ...]
    reference_ms: tuple[float, ...] = ()
    agrees: bool | None = None  # answer == reference answer (None: no reference)
    reference_scale: float = 1.0  # > 1: the reference timed a sample, its time scaled up
    details: tuple[tuple[str, Any], ...] = ()  # what else the case measured (``details``)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms)

    @property
    def reference_median_ms(self) -> float | None:
        return statistics.median(self.reference_ms) if self.reference_ms else None

    @property
    def speedup(self) -> float | None:
        """How many times faster than the same-run reference (None: no reference)."""
        ref = self.reference_median_ms
        return None if ref is None or self.median_ms <= 0 else ref / self.median_ms

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "median_ms": round(self.median_ms, 3),
            "min_ms": round(min(self.times_ms), 3),
            "max_ms": round(max(self.times_ms), 3),
            "runs": len(self.times_ms),
        }
        ref, speedup = self.reference_median_ms, self.speedup
        if ref is not None:
            out["reference_median_ms"] = round(ref, 3)
            out["speedup"] = None if speedup is None else round(speedup, 1)
        out.update(self.details)
        return out


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    answer = fn()
    return (time.perf_counter() - t0) * 1000.0, answer


def run_case(case: Case, quick: bool) -> Timing:
    """Warm up once (untimed, with the compiled loops it started loading, ``geometry.jit``),
    time the runs (each after the case's untimed ``prepare``), then the reference runs;
    compare answers."""
    if case.set_quick is not None:
        case.set_quick(quick)
    runs = case.quick_runs if quick else case.runs
    jit.load_early()  # as the window does: a big board's kernels load in the background
    if case.prepare is not None:
        case.prepare()
    answer = case.compute()
    jit.wait()  # ... and the warm-up (untimed) waits for them
    times = []
    for _ in range(max(1, runs)):
        if case.prepare is not None:
            case.prepare()
        ms, answer = _timed(case.compute)
        times.append(ms)
    details = tuple(case.details(case.name).items()) if case.details is not None else ()
    if case.reference is None:
        return Timing(case.name, tuple(times), details=details)
    ref_times = []
    ref_answer: Any = None
    for _ in range(max(1, case.quick_reference_runs if quick else case.reference_runs)):
        ms, ref_answer = _timed(case.reference)
        ref_times.append(ms)
    factor = 1.0 if case.reference_scale is None else case.reference_scale()
    ref_times = [ms * factor for ms in ref_times]
    return Timing(case.name, tuple(times), tuple(ref_times), case.same(answer, ref_answer),
                  factor, details)


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

    try:  # the version only: the GUI cases import Qt themselves
        pyside = f", PySide6 {metadata.version('PySide6-Essentials')}"
    except metadata.PackageNotFoundError:
        pyside = ""
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, numpy {numpy.__version__}, "
            f"shapely {shapely.__version__}{pyside}")
