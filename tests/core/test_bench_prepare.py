"""A case's untimed preparation runs before each timed run, and its details are
reported beside its times (the window cases use both)."""

from __future__ import annotations

from tabletop_gui.bench.registry import Case
from tabletop_gui.bench.runner import run_case


def test_prepare_runs_before_every_run_and_details_are_reported():
    log: list[str] = []
    case = Case("c", lambda: log.append("run"), None, lambda a, b: a == b, runs=3,
                quick_runs=2, reference_runs=1, quick_reference_runs=1,
                prepare=lambda: log.append("prepare"),
                details=lambda name: {"seen": f"{name}: {log.count('run')} runs"})
    timing = run_case(case, quick=True)
    assert log == ["prepare", "run"] * 3  # the warm-up, then two timed runs
    assert len(timing.times_ms) == 2
    assert timing.to_json()["seen"] == "c: 3 runs"
