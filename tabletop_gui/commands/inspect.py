"""`tabletop-gui inspect FILE [--json]`: the geometry between every pair of opposing models.

One entry per ordered pair (attacker, target) of models on different sides, taken-down
fighters and destroyed units left out, in the file's order (attackers, then targets).
The facts are the ruleset's own reading of the geometry: the scenario's ruleset engine
answers ``pair_facts`` for each pair (``rules.base.Ruleset.pair_facts``), so `cover` and
`flanked` are exactly what an attack would use (Warcry family: 3D distance, cover by the
closest-points line and platforms, flanking of fight-vs-defense; The Ninth Age: 2D, base
contact, facing cover, the arc; Circle of Realms: spaces). Distances are rounded to 3
decimals. Without ``--json`` a table for a person.

Refused (exit 2): a file the loader refuses (every problem, one line each, prefixed with
the file name), or one that cannot be read.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Sequence
from typing import Any

from tabletop_gui.commands import InputRefused
from tabletop_gui.commands.common import load_or_refuse
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import Battle, PairFacts, RulesError
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.snapshot import Snapshot


def opposing_pairs(scenario: Scenario) -> Iterator[tuple[str, str]]:
    """Ordered (attacker, target) ids on different sides, both still in the fight."""
    models = [m for m in scenario.models if not scenario.taken_down(m)]
    for a in models:
        for t in models:
            if a.side != t.side:
                yield a.id, t.id


def inspect_facts(scenario: Scenario) -> list[PairFacts]:
    battle: Battle = Snapshot.of(scenario).battle
    ruleset = registry.get(scenario.ruleset)
    try:
        return [ruleset.pair_facts(battle, a, t) for a, t in opposing_pairs(scenario)]
    except RulesError as e:
        raise InputRefused([str(e)]) from None


def to_json(scenario: Scenario, facts: Sequence[PairFacts]) -> dict[str, Any]:
    return {"ruleset": scenario.ruleset, "pairs": [f.to_json() for f in facts]}


_COLUMNS = ("attacker", "target", "distance", "horiz", "vert", "engaged", "visible", "cover",
            "flanked", "arc", "spaces")


def table(scenario: Scenario, facts: Sequence[PairFacts]) -> str:
    """A plain-text table, one line per pair."""
    rows = [_COLUMNS]
    for f in facts:
        cover = f.cover if not f.cover_by else f"{f.cover} ({', '.join(f.cover_by)})"
        rows.append((
            f.attacker, f.target, f'{f.distance:.3f}"', f'{f.horizontal_distance:.3f}"',
            f'{f.vertical_distance:.3f}"', _yes(f.engaged), _yes(f.visible), cover,
            _yes(f.flanked), f.arc or "-", "-" if f.spaces is None else str(f.spaces),
        ))
    widths = [max(len(r[c]) for r in rows) for c in range(len(_COLUMNS))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    title = f"{scenario.name or 'scenario'} ({scenario.ruleset}): {len(facts)} pairs"
    if not facts:
        return title + "\nno opposing pairs (fewer than two sides still in the fight)"
    return title + "\n" + "\n".join(lines)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def run(args: argparse.Namespace) -> int:
    path = str(args.file)
    scenario = load_or_refuse(path)
    facts = inspect_facts(scenario)
    if getattr(args, "json", False):
        print(json.dumps(to_json(scenario, facts)))
    else:
        print(table(scenario, facts))
    return 0
