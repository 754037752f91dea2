"""`tabletop-gui validate FILE`: check a scenario file (docs/cli.md).

Exit 0 with a one-line summary on stdout; exit 2 with every problem on stderr, one per
line, each starting with the file name (``FILE: fighters[2].base.diameter_mm: ...``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tabletop_gui.commands.common import load_or_refuse
from tabletop_gui.rules.registry import INFOS
from tabletop_gui.rules.text import printable
from tabletop_gui.scenario.entities import Scenario


def run(args: argparse.Namespace) -> int:
    path = str(args.file)
    scenario = load_or_refuse(path)
    print(printable(f"ok: {Path(path).name} — {summary(scenario)}"))
    return 0


def summary(scenario: Scenario) -> str:
    """``warcry, 8 fighters, 3 obstacles, 1 platform``."""
    decl = INFOS[scenario.ruleset].declaration
    models = scenario.units if decl.models == "units" else scenario.fighters
    parts = [scenario.ruleset, _count(len(models), decl.models[:-1]),
             _count(len(scenario.obstacles), "obstacle"),
             _count(len(scenario.platforms), "platform")]
    if scenario.battlefield.grid is not None:
        grid = scenario.battlefield.grid
        parts.append(f'{grid.kind} grid of {grid.size:g}"')
    return ", ".join(parts)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
