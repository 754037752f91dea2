"""Qt-free helpers for the tests of the attack's model parts: the demo battlefields, their
first valid (or invalid) pair, and a controller with its target scanner coupled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tabletop_gui.model.attack_controller import AttackController
from tabletop_gui.model.target_scanner import TargetScanner, follow_attack
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.load import load_scenario
from tabletop_gui.scenario.snapshot import Snapshot

DEMOS = Path(__file__).resolve().parents[2] / "resources" / "demos"
RULESETS = ("warcry", "fight-vs-defense", "mordheim-warcry", "ninth-age", "circle-of-realms")


def demo_scenario(ruleset: str) -> Scenario:
    return load_scenario(DEMOS / f"{ruleset}.battle.json")


def first_pair(scenario: Scenario, valid: bool = True) -> tuple[str, str]:
    """(attacker, target) of the demo: the first ordered pair the engine calls valid
    (or invalid), in file order."""
    ruleset = registry.get(scenario.ruleset)
    battle = battle_of(scenario)
    for a in scenario.models:
        for t in scenario.models:
            if t.side == a.side or scenario.taken_down(a) or scenario.taken_down(t):
                continue
            if ruleset.attack(battle, AttackRequest(a.id, t.id)).valid == valid:
                return a.id, t.id
    raise AssertionError(f"no {'valid' if valid else 'invalid'} pair in the demo")


def raise_failure(where: str, error: Exception) -> None:
    raise error


def coupled(scenario: Scenario | None, **kw: Any) -> tuple[AttackController, TargetScanner]:
    """A controller on ``scenario``'s snapshot and a target scanner that follows it (on
    the controller's runner: inline unless ``runner`` is given), as the window couples
    them; a failure of either is raised."""
    c = AttackController(Snapshot.of(scenario) if scenario is not None else None, **kw)
    targets = TargetScanner(c.runner, raise_failure)
    follow_attack(targets, c)
    return c, targets
