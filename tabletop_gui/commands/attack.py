"""`tabletop-gui attack FILE --attacker ID --target ID ...` (docs/cli.md).

Generic over the registered rulesets: it asks the scenario's ruleset for the target
check, modifiers and odds, and rolls with given (``--dice``) or seeded (``--seed``) dice.
Refused input (unknown ids, weapons, options, wrong dice) exits 2 with one line each.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tabletop_gui.commands import InputRefused
from tabletop_gui.commands.common import load_or_refuse
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import (
    AttackReport,
    AttackRequest,
    Battle,
    DiceError,
    DiceSource,
    GivenDice,
    Resolution,
    RulesError,
    Ruleset,
    SeededDice,
    first_valid,
)
from tabletop_gui.rules.resolver import drive
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.snapshot import Snapshot


def set_pairs(sets: Sequence[Any] | None) -> list[str]:
    """`--set` may come several times, each with several KEY=VALUE: flatten."""
    out: list[str] = []
    for item in sets or []:
        if isinstance(item, str):
            out.append(item)
        else:
            out.extend(str(s) for s in item)
    return out


def parse_dice(text: str) -> list[int]:
    faces = []
    for part in text.split(","):
        p = part.strip()
        try:
            faces.append(int(p))
        except ValueError:
            raise InputRefused([f"--dice: {p!r} is not a whole number (give N,N,...)"]
                               ) from None
    return faces


def weapon_names(battle: Battle, cid: str) -> list[str]:
    return [str(w.name) for w in battle.combatant(cid).weapons]


def check_weapon(names: Sequence[str], cid: str, name: str | None, flag: str) -> None:
    if name is not None and name not in names:
        raise RulesError(f"{flag}: {cid} has no weapon {name!r} "
                         f"(its weapons: {', '.join(names) or 'none'})")


def default_report(ruleset: Ruleset, battle: Battle, request: AttackRequest) -> AttackReport:
    """The attacker's first weapon that can attack the target validly, else its first."""
    if request.weapon is not None:
        return ruleset.attack(battle, request)
    names = [n for n in weapon_names(battle, request.attacker) if n != request.offhand]
    if not names:
        return ruleset.attack(battle, request)
    return first_valid(names, lambda name: ruleset.attack(battle, replace(request, weapon=name)),
                       lambda report: report.valid)


def evaluate(scenario: Scenario, args: argparse.Namespace
             ) -> tuple[AttackReport, Resolution | None]:
    """The report (and roll) of the attack the arguments describe."""
    try:
        ruleset = registry.get(scenario.ruleset)
        battle = Snapshot.of(scenario).battle
        for flag, cid in (("--attacker", args.attacker), ("--target", args.target)):
            if cid not in battle.combatants:
                raise RulesError(f"{flag}: unknown fighter or unit id {cid!r}")
        check_weapon(ruleset.weapon_choices(battle, args.attacker), args.attacker,
                     args.weapon, "--weapon")
        check_weapon(weapon_names(battle, args.attacker), args.attacker, args.offhand,
                     "--offhand")
        situational = ruleset.parse_set(set_pairs(args.sets))
        request = AttackRequest(args.attacker, args.target, args.weapon, args.offhand,
                                situational)
        report = default_report(ruleset, battle, request)
        request = replace(request, weapon=report.weapon)
        dice: DiceSource | None = None
        if args.dice is not None and args.seed is not None:
            raise RulesError("give --dice or --seed, not both")
        if args.dice is not None:
            dice = GivenDice(parse_dice(args.dice))
        elif args.seed is not None:
            dice = SeededDice(args.seed)
        roll = resolve(ruleset, battle, request, dice) if dice is not None else None
    except RulesError as e:
        raise InputRefused([str(e)]) from None
    return report, roll


def resolve(ruleset: Ruleset, battle: Battle, request: AttackRequest, dice: DiceSource
            ) -> Resolution:
    """The rolled attack: a ``Resolver`` fed die by die from ``dice`` (a choice the dice
    call for takes the ``--set`` value or its default); dice that do not fit it are
    refused naming ``--dice``."""
    try:
        return drive(ruleset.begin(battle, request), dice)
    except DiceError as e:
        raise RulesError(f"--dice: {e}") from None


def run(args: argparse.Namespace) -> int:
    scenario = load_or_refuse(args.file)
    report, roll = evaluate(scenario, args)
    if args.json:
        print(json.dumps(report.to_json(roll)))
    else:
        print(render(report, roll))
    return 0


def _pct(p: float) -> str:
    return f"{100 * p:6.2f}%"


def render(report: AttackReport, roll: Resolution | None) -> str:
    """The readable table of an attack."""
    weapon = report.weapon or "(no weapon)"
    if report.offhand:
        weapon += f" + off-hand {report.offhand}"
    lines = [f"{report.ruleset}: {report.attacker} attacks {report.target} with {weapon} "
             f"({report.attack_type})",
             f"valid: {'yes' if report.valid else 'NO'}"]
    for c in report.checks:
        lines.append(f"  [{'ok' if c.ok else 'NO'}] {c.text}")
    geo = report.facts.geometry_json()
    lines.append("geometry: " + ", ".join(f"{k} {json.dumps(v)}" for k, v in geo.items()
                                          if v is not None))
    if report.modifiers:
        lines.append("modifiers:")
        lines += [f"  {m.name}: {m.effect} ({m.why})" for m in report.modifiers]
    else:
        lines.append("modifiers: none")
    if report.table_row is not None:
        lines.append(f"table row: {report.table_row}")
    for k, v in report.extras.items():
        if not k.startswith("_"):
            lines.append(f"{k}: {json.dumps(v)}")
    lines.append(f"expected damage: {report.expected_damage:.3f}   "
                 f"take down: {100 * report.take_down_probability:.2f}%")
    lines.append("damage  probability  at least")
    dist = report.distribution
    for value, p in dist.items():
        if p <= 1e-15:
            continue
        bar = "#" * max(1, round(40 * p)) if p >= 0.0125 else ""
        lines.append(f"{value:6d}  {_pct(p)}  {_pct(dist.prob_at_least(value))}  {bar}")
    if roll is not None:
        faces = ",".join(str(d.face) for d in roll.dice)
        lines.append(f"roll: dice {faces} -> {roll.damage} damage"
                     + (", taken down" if roll.taken_down else ""))
        lines += [f"  {s}" for s in roll.steps]
        for k, v in roll.extras.items():
            lines.append(f"  {k}: {json.dumps(v)}")
    return "\n".join(lines)
