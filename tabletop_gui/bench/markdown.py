"""``--markdown``: the benchmark's report as the README shows it, printed by the run itself.

A heading line with the date, the kind of run and the machine, then one table row per
case (median, min, the same-run reference and the speedup where the case has one, the
target from ``targets.TARGETS`` and whether it was met), then the targets that no case
measured.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from tabletop_gui.bench.runner import Timing
from tabletop_gui.bench.targets import TARGETS, duration

COLUMNS = ("case", "runs", "median", "min", "reference, same run", "speedup", "target",
           "result")


def render(timings: Sequence[Timing], *, machine: str, when: datetime, quick: bool,
           all_cases: bool) -> str:
    """The Markdown report; ``all_cases``: every case ran, so unmeasured targets are named."""
    kind = ("`--quick` run (fewer repetitions: indicative only)" if quick
            else "full run")
    lines = [f"Benchmark of {when:%Y-%m-%d %H:%M} UTC, {kind}, "
             f"printed by `python -m tabletop_gui.bench --markdown`.",
             f"Machine: {machine}.",
             "",
             "| " + " | ".join(COLUMNS) + " |",
             "|" + "---|" * len(COLUMNS)]
    missed: list[str] = []
    for t in timings:
        lines.append("| " + " | ".join(_row(t, missed)) + " |")
    met = sum(1 for t in timings if t.name in TARGETS) - len(missed)
    lines.append("")
    summary = f"Targets met: {met} of {met + len(missed)}"
    lines.append(summary + (f"; missed: {', '.join(missed)}." if missed else "."))
    if all_cases:
        measured = {t.name for t in timings}
        absent = [f"{name} ({target.text()})" for name, target in TARGETS.items()
                  if name not in measured]
        if absent:
            lines.append(f"Not measured (the benchmark has no such case yet): "
                         f"{'; '.join(absent)}.")
    return "\n".join(lines)


def _row(t: Timing, missed: list[str]) -> list[str]:
    ref = t.reference_median_ms
    if ref is None:
        reference, speedup = "–", "–"
    else:
        reference = duration(ref)
        if t.reference_scale > 1.0:
            reference += f" (estimated: a sample scaled ×{t.reference_scale:,.0f})"
        if t.agrees is False:
            reference += " (answers DIFFER)"
        s = t.speedup
        speedup = "–" if s is None else f"×{s:,.0f}" if s >= 100 else f"×{s:.1f}"
    target = TARGETS.get(t.name)
    if target is None:
        goal, result = "–", "no target"
    else:
        goal = target.text()
        why = target.misses(t)
        result = "met" if not why else "missed: " + "; ".join(why)
        if why:
            missed.append(t.name)
    return [f"`{t.name}`", str(len(t.times_ms)), duration(t.median_ms),
            duration(min(t.times_ms)), reference, speedup, goal, result]
