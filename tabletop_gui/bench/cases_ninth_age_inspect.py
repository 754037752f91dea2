"""Benchmark case ``ninth_age_inspect_40``: two Ninth Age armies of 20 units each (10-40
models, mixed bases, forests, hills, walls: ``battlefields.ninth_age_scenario(40)``):
every opposing pair's arc, contact, sight and facing cover, then every unit's valid
targets (``target_validity`` against every enemy), from a cold start: a new Board and
Battle each run (no geometry, table or scan kept), terrain prepared inside the timing.

No reference: the answers of the fast paths are compared with the obvious computations by
the tests (``tests/core/test_geometry_fan.py``). The answer is the facts and verdicts.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from tabletop_gui.bench.battlefields import ninth_age_scenario
from tabletop_gui.rules import registry
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.load import loads_scenario
from tabletop_gui.scenario.snapshot import Snapshot

NAME = "ninth_age_inspect_40"
UNITS = 40


@functools.cache
def scenario() -> Scenario:
    return loads_scenario(json.dumps(ninth_age_scenario(UNITS)))


def compute() -> tuple[list[Any], list[dict[str, tuple[bool, tuple[str, ...]]]]]:
    fresh = Snapshot.of(scenario()).battle  # a fresh snapshot: nothing built before
    ruleset = registry.get("ninth-age")
    units = list(fresh.board.bodies)
    facts = [ruleset.pair_facts(fresh, a.id, t.id) for a in units for t in units
             if a.side != t.side]
    targets = [ruleset.target_validity(fresh, a.id, [t.id for t in units if t.side != a.side])
               for a in units]
    return facts, targets


CASES: dict[str, tuple[Callable[[], Any], Callable[[], Any] | None]] = {NAME: (compute, None)}
RUNS = {NAME: 5}
QUICK_RUNS = {NAME: 2}
