"""`tabletop-gui move FILE --fighter ID --path X,Y;X,Y;... [--json]` (grid rulesets).

Moves a fighter space by space along the path (space centres, inches) and reports every
Attack of Opportunity the path triggers. The file is not changed. The ruleset decides
everything (``Ruleset.move``); this command only reads the file and prints.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from tabletop_gui.commands import InputRefused
from tabletop_gui.commands.common import load_or_refuse
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import RulesError
from tabletop_gui.scenario.snapshot import Snapshot

#: Most points of one path (each is one step from space to space).
MAX_POINTS = 1000


def parse_path(text: str) -> list[tuple[float, float]]:
    """``"X,Y;X,Y;..."`` as points; every malformed point is reported."""
    points: list[tuple[float, float]] = []
    problems: list[str] = []
    parts = [p for p in text.split(";") if p.strip()]
    if not parts:
        raise InputRefused(["--path: give at least one point as X,Y (points separated by ;)"])
    if len(parts) > MAX_POINTS:
        raise InputRefused([f"--path: at most {MAX_POINTS:,} points, not {len(parts):,}"])
    for i, part in enumerate(parts, start=1):
        xy = part.split(",")
        try:
            if len(xy) != 2:
                raise ValueError
            x, y = float(xy[0]), float(xy[1])
            if not (math.isfinite(x) and math.isfinite(y)):
                raise ValueError
        except ValueError:
            problems.append(f"--path point {i} {part.strip()!r}: expected X,Y in inches")
            continue
        points.append((x, y))
    if problems:
        raise InputRefused(problems)
    return points


def _percent(p: float) -> str:
    return f"{100 * p:.1f}%"


def _text(report: dict[str, Any]) -> str:
    path = " -> ".join(f"({x:g}, {y:g})" for x, y in report["path"])
    lines = [f"{report['fighter']}: {path}"]
    mv = report.get("movement")
    if mv:
        over = "" if mv["within"] else "  (more than its movement allows)"
        lines.append(f"spaces moved: {mv['spaces']} of {mv['allowance']}{over}")
    attacks = report["attacks_of_opportunity"]
    if not attacks:
        lines.append("no Attacks of Opportunity")
    for a in attacks:
        x, y = a["leaving"]
        odds = ", ".join(f"{int(v)}: {_percent(p)}" for v, p in a["distribution"])
        die = f" with {a['die']}" if "die" in a else ""
        lines.append(f"Attack of Opportunity by {a['by']} leaving ({x:g}, {y:g}){die}: "
                     f"expected {a['expected_damage']:g} wounds ({odds})")
    if attacks and "take_down_probability" in report:
        lines.append(f"chance to be taken down on the way: "
                     f"{_percent(report['take_down_probability'])}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    scenario = load_or_refuse(args.file)
    points = parse_path(args.path)
    try:
        ruleset = registry.get(scenario.ruleset)
        battle = Snapshot.of(scenario).battle
        if args.fighter not in battle.combatants:
            raise RulesError(f"--fighter: unknown fighter id {args.fighter!r}")
        report = ruleset.move(battle, args.fighter, points)
    except RulesError as e:
        raise InputRefused(str(e).splitlines()) from None
    if args.json:
        print(json.dumps(report))
    else:
        print(_text(report))
    return 0
