"""The benchmark's cases, gathered from case modules.

A case module defines ``CASES: dict[str, tuple[compute, reference | None]]``: ``compute()``
does the timed work and returns its answer; ``reference()`` (when there is one) computes
the same answer the slow, obvious way in the same run. It may define
``same(answer, reference_answer) -> bool`` (default ``==``), and ``QUICK_RUNS`` / ``RUNS``
(dicts by case name) to choose repetitions, ``REFERENCE_SCALE`` (case name -> a function
giving the factor applied to the reference's time when it computes only a sample), and
``set_quick(bool)`` to hear about ``--quick``, ``PREPARE`` (case name -> a function run
untimed before each timed run: the state the case starts from) and ``details(case name)
-> dict`` (what else the case measured, reported beside its times). To add cases, write a
module and append its name to ``CASE_MODULES``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

CASE_MODULES: list[str] = [
    "tabletop_gui.bench.cases_geometry",
    "tabletop_gui.bench.cases_ninth_age",
    "tabletop_gui.bench.cases_ninth_age_inspect",
    "tabletop_gui.bench.cases_inspect_files",
    "tabletop_gui.bench.cases_odds",
    "tabletop_gui.bench.cases_circle",
    "tabletop_gui.bench.cases_gui",
    "tabletop_gui.bench.cases_window",
]


@dataclass(frozen=True)
class Case:
    name: str
    compute: Callable[[], Any]
    reference: Callable[[], Any] | None
    same: Callable[[Any, Any], bool]
    runs: int
    quick_runs: int
    reference_runs: int
    quick_reference_runs: int
    reference_scale: Callable[[], float] | None = None
    set_quick: Callable[[bool], None] | None = None
    prepare: Callable[[], object] | None = None
    details: Callable[[str], dict[str, Any]] | None = None


def _equal(a: Any, b: Any) -> bool:
    return bool(a == b)


def load_cases(modules: list[str] | None = None) -> list[Case]:
    """Every case of the modules, in module order then the module's order."""
    out: list[Case] = []
    for name in CASE_MODULES if modules is None else modules:
        mod = importlib.import_module(name)
        same = getattr(mod, "same", _equal)
        runs: dict[str, int] = getattr(mod, "RUNS", {})
        quick: dict[str, int] = getattr(mod, "QUICK_RUNS", {})
        ref_runs: dict[str, int] = getattr(mod, "REFERENCE_RUNS", {})
        quick_ref: dict[str, int] = getattr(mod, "QUICK_REFERENCE_RUNS", {})
        scale: dict[str, Callable[[], float]] = getattr(mod, "REFERENCE_SCALE", {})
        prepare: dict[str, Callable[[], object]] = getattr(mod, "PREPARE", {})
        for case, (compute, reference) in mod.CASES.items():
            out.append(Case(case, compute, reference, same, runs.get(case, 20),
                            quick.get(case, 5), ref_runs.get(case, 5),
                            quick_ref.get(case, 1), scale.get(case),
                            getattr(mod, "set_quick", None), prepare.get(case),
                            getattr(mod, "details", None)))
    return out
