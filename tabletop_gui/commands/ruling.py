"""`tabletop-gui ruling FILE --attacker ID --target ID [--weapon NAME] [--set KEY=VALUE ...]
[--out PATH.png|.svg|.pdf|.md] [--json]`: one pair explained (docs/cli.md, docs/rulings.md).

The attack is chosen as `attack` chooses it (the weapon by default: the first that can
attack validly); ``rules.ruling.build_ruling`` gathers the facts, the closest points,
the sight lines, the checks and the tipping points. ``--out`` draws the picture with the
window's own canvas code (``ui.ruling_picture``), offscreen: Qt is imported only then, so
``ruling --json`` runs where Qt is not installed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tabletop_gui.commands import InputRefused
from tabletop_gui.commands.attack import evaluate
from tabletop_gui.commands.common import load_or_refuse
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import RulesError
from tabletop_gui.rules.ruling import Ruling, build_ruling
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.snapshot import Snapshot

OUT_KINDS = (".png", ".svg", ".pdf", ".md")


def ruling_of(scenario: Scenario, args: argparse.Namespace) -> Ruling:
    request = argparse.Namespace(attacker=args.attacker, target=args.target,
                                 weapon=args.weapon, offhand=None, sets=args.sets,
                                 dice=None, seed=None)
    report, _ = evaluate(scenario, request)
    try:
        return build_ruling(registry.get(scenario.ruleset), Snapshot.of(scenario).battle, report)
    except RulesError as e:
        raise InputRefused([str(e)]) from None


def out_path(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() not in OUT_KINDS:
        raise InputRefused([f"--out {text}: give a file ending in "
                            f"{', '.join(OUT_KINDS)} (picture, PDF or Markdown)"])
    if not path.parent.is_dir():
        raise InputRefused([f"--out {text}: the folder {path.parent} does not exist"])
    return path


def run(args: argparse.Namespace) -> int:
    out = out_path(args.out) if args.out else None
    scenario = load_or_refuse(args.file)
    ruling = ruling_of(scenario, args)
    if out is not None:
        from tabletop_gui.ui.ruling_picture import write_ruling  # lazy: Qt, for --out

        try:
            written = write_ruling(scenario, ruling, out)
        except OSError as e:
            raise InputRefused([f"--out {out}: cannot write it ({e.strerror or e})"]) from None
        if not written:
            raise InputRefused([f"--out {out}: cannot write it"])
    if args.json:
        print(json.dumps(ruling.to_json()))
    else:
        print(ruling.text())
        if out is not None:
            print(f"written: {out}")
    return 0
