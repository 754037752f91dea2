"""`tabletop-gui import FILE... -o OUT.battle.json [--ruleset ID] [--into SCENARIO] [--json]`.

Rosters (BattleScribe .ros/.rosz, New Recruit JSON), a Universal VTT map, Tabletop
Simulator table positions, and Warcry fighter data or base sizes, each recognised by its
content, combine into one scenario (``tabletop_gui.importers.combine``; docs/import.md).
The result is checked like any scenario file and written atomically to OUT; a refusal
(every located problem, one line each on stderr, exit 2) writes nothing.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tabletop_gui.commands import InputRefused
from tabletop_gui.commands.common import load_or_refuse
from tabletop_gui.importers.combine import ImportResult, import_files
from tabletop_gui.importers.sources import ImportRefused
from tabletop_gui.scenario.save import save_scenario


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.battle.json")
    p.add_argument("--ruleset", metavar="ID")
    p.add_argument("--into", metavar="SCENARIO")
    p.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    into = load_or_refuse(args.into) if args.into else None
    try:
        result = import_files(args.files, ruleset=args.ruleset, into=into,
                              into_source=args.into or "--into")
    except ImportRefused as e:
        raise InputRefused(e.lines) from None
    out = Path(args.output)
    try:
        save_scenario(result.scenario, out)
    except OSError as e:
        raise InputRefused([f"{out}: cannot write: {e.strerror or type(e).__name__}"]
                           ) from None
    if args.json:
        print(json.dumps(result.summary_json()))
    else:
        print(render(result, out))
    return 0


def render(result: ImportResult, out: Path) -> str:
    s = result.scenario
    got = result.imported
    lines = [f"wrote {out} ({s.ruleset}): {len(s.fighters)} fighters, {len(s.units)} units, "
             f"{len(s.obstacles)} obstacles"]
    lines.append(f"imported: {got['fighters']} fighters, {got['units']} units, "
                 f"{got['obstacles']} walls; {got['positioned']} placed from table positions")
    for side in s.sides:
        n = sum(1 for m in s.models if m.side == side.id)
        lines.append(f"  side {side.id} ({side.name}): {n} models")
    if s.battlefield.background is not None:
        lines.append("  background picture from the map")
    if result.warnings:
        lines.append(f"warnings ({len(result.warnings)}):")
        lines += [f"  {w}" for w in result.warnings]
    return "\n".join(lines)
