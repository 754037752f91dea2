"""Zones of Control and Attacks of Opportunity along a path of spaces.

A fighter's Zone of Control is the set of spaces neighbouring its own. A mover suffers an
Attack of Opportunity from an enemy each time a step takes it from a space inside that
enemy's zone to a space outside it (moving within the zone, or only entering it, costs
nothing; option ``zoc_exit="space"`` counts every step away from a space in the zone).
The enemy must be ``infantry`` and not taken down; a mover that ``ignores_zoc`` suffers
none. Every exit counts, so leaving the same zone twice costs two attacks.

The attack of opportunity rolls one die, the base attack die or the die of a weapon the
enemy can still hold, whichever deals more wounds on average against the mover's armour
(ties: the base die); no modifiers, no night penalty, no critical hit, no defense roll:
wounds = max(0, roll - armour), at most the wounds the mover has left before the move.
Each attack's distribution stands alone; ``take_down_probability`` combines them all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tabletop_gui.rules.base import RulesError
from tabletop_gui.rules.circle_of_realms.profile import FighterProfile
from tabletop_gui.rules.dist import Dist

Space = tuple[int, int]
Point = tuple[float, float]
CENTRE_TOLERANCE = 0.01  # fraction of a space: how far a path point may sit from a centre


class GridLike(Protocol):
    """What the rules read of a grid (``geometry``'s GridGeometry provides it)."""

    def space_at(self, x: float, y: float) -> Any: ...
    def centre(self, space: Any) -> Any: ...
    def neighbours(self, space: Any) -> Any: ...
    def distance(self, s1: Any, s2: Any) -> int: ...


def _space(value: Any) -> Space:
    return (int(value[0]), int(value[1]))


def path_spaces(grid: GridLike, size: float, start: Space,
                points: Sequence[Point]) -> list[Space]:
    """The spaces of a path from ``start``: each point a space centre, each step adjacent.

    The path may begin with the mover's own space or with a neighbouring one. Every
    problem is collected; they are raised together, one per line.
    """
    problems: list[str] = []
    spaces: list[Space] = []
    for i, (x, y) in enumerate(points, start=1):
        space = _space(grid.space_at(x, y))
        cx, cy = (float(v) for v in grid.centre(space))
        if abs(cx - x) > CENTRE_TOLERANCE * size or abs(cy - y) > CENTRE_TOLERANCE * size:
            problems.append(f"--path point {i} ({x:g}, {y:g}) is not on a space centre "
                            f"(nearest centre ({cx:g}, {cy:g}))")
        spaces.append(space)
    if not spaces:
        problems.append("--path: the path is empty")
    if problems:
        raise RulesError("\n".join(problems))
    if spaces[0] != start:
        spaces.insert(0, start)
    for i in range(1, len(spaces)):
        a, b = spaces[i - 1], spaces[i]
        if grid.distance(a, b) != 1:
            cx, cy = (float(v) for v in grid.centre(b))
            problems.append(f"--path step {i} to ({cx:g}, {cy:g}) is {grid.distance(a, b)} "
                            "spaces from the space before it: each step must go to a "
                            "neighbouring space")
    if problems:
        raise RulesError("\n".join(problems))
    return spaces


@dataclass(frozen=True)
class ZoneExit:
    enemy: str
    step: int  # index in the path of the space left
    space: Space


def zone_exits(grid: GridLike, path: Sequence[Space], enemies: Mapping[str, Space],
               rule: str = "zone") -> list[ZoneExit]:
    """Every step leaving an enemy's Zone of Control, in path order (enemies in given order).

    ``rule`` (option ``zoc_exit``): ``"zone"`` counts a step from inside the zone to
    outside it; ``"space"`` counts every step away from a space inside the zone.
    """
    zones = {eid: {_space(s) for s in grid.neighbours(space)} for eid, space in enemies.items()}
    exits: list[ZoneExit] = []
    for i in range(len(path) - 1):
        here, there = path[i], path[i + 1]
        for eid, zone in zones.items():
            if here in zone and (there not in zone or rule == "space"):
                exits.append(ZoneExit(eid, i, here))
    return exits


@dataclass(frozen=True)
class OpportunityDie:
    label: str  # "base attack d6" or "Sword d8"
    sides: int
    wounds: Dist


def aoo_wounds(sides: int, armour: int, wounds_left: int) -> Dist:
    return Dist.die(sides).map(lambda r: min(wounds_left, max(0, r - armour)))


def opportunity_die(enemy: FighterProfile, mover: FighterProfile) -> OpportunityDie:
    """The die an enemy rolls for an Attack of Opportunity (highest expected wounds)."""
    left = mover.wounds_left
    best = OpportunityDie(f"base attack d{enemy.base_attack}", enemy.base_attack,
                          aoo_wounds(enemy.base_attack, mover.armour, left))
    for w in enemy.weapons:
        if not enemy.can_use(w):
            continue
        cand = OpportunityDie(f"{w.name} d{w.die}", w.die, aoo_wounds(w.die, mover.armour, left))
        if cand.wounds.mean > best.wounds.mean + 1e-12:
            best = cand
    return best


def may_attack(enemy: FighterProfile) -> bool:
    return enemy.infantry and not enemy.taken_down


def move_report(grid: GridLike, size: float, mover: FighterProfile, start: Space,
                points: Sequence[Point], enemies: Sequence[tuple[FighterProfile, Space]],
                rule: str = "zone") -> dict[str, Any]:
    """The `move --json` object: the path and every Attack of Opportunity it triggers."""
    path = path_spaces(grid, size, start, points)
    attackers = {} if mover.ignores_zoc else {
        e.id: space for e, space in enemies if e.side != mover.side and may_attack(e)}
    by_id = {e.id: e for e, _ in enemies}
    attacks: list[dict[str, Any]] = []
    total = Dist.point(0)
    for ex in zone_exits(grid, path, attackers, rule):
        die = opportunity_die(by_id[ex.enemy], mover)
        total = (total + die.wounds).clip(hi=mover.wounds_left)
        cx, cy = (float(v) for v in grid.centre(ex.space))
        attacks.append({
            "by": ex.enemy,
            "leaving": [round(cx, 6), round(cy, 6)],
            "die": die.label,
            "expected_damage": round(die.wounds.mean, 3),
            "distribution": die.wounds.pairs(),
        })
    centres = [[round(float(v), 6) for v in grid.centre(s)] for s in path]
    steps = len(path) - 1
    return {
        "fighter": mover.id,
        "path": centres,
        "attacks_of_opportunity": attacks,
        "expected_damage": round(total.mean, 3),
        "take_down_probability": round(total.prob_at_least(max(1, mover.wounds_left)), 12)
        if attacks else 0.0,
        "movement": {"spaces": steps, "allowance": mover.movement_allowance,
                     "within": steps <= mover.movement_allowance},
    }
