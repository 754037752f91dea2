"""The target rules of the Warcry family, written once against ``BoardGeometry``.

Each function returns ``Check`` values with the numbers behind them (distance, limit and
margin), so that a refused target says why in a sentence a player understands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.geometry.facts import Cover, Flank, Measure, Sight
from tabletop_gui.rules.base import Battle, Check, Combatant, is_taken_down
from tabletop_gui.rules.fields import RangeSpec

EPS = 1e-9
ENGAGE = 1.0  # the 1" of engagement and of the friendly-fire rule


def inches(x: float) -> str:
    """3.5 -> '3.5"', 3.0 -> '3"', 2.345678 -> '2.35"'."""
    r = round(x, 2)
    text = str(int(r)) if float(r).is_integer() else f"{r:g}"
    return text + '"'


K = TypeVar("K")
V = TypeVar("V")
MEMO_LIMIT = 50_000  # answers kept per battle and kind, then forgotten all at once


def _keep(memo: dict[K, V], key: K, value: V) -> V:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


@dataclass(frozen=True)
class Near:
    """A fighter near another one: its id and the 3D distance between them."""

    id: str
    distance: float


class Targeting:
    """The geometry of one battle as the Warcry family's target rules read it.

    ``Targeting.of(battle)`` is kept with the battle (``Battle.kept``), so that scanning
    every target of one attacker measures its surroundings once.
    """

    def __init__(self, battle: Battle) -> None:
        # the battle's parts, not the battle, which keeps this (``Battle.kept``): a cycle
        # would leave the battle and its geometry to the cyclic collector
        self.combatants = battle.combatants
        self.board = battle.board
        self.g = battle.geometry
        self._measures: dict[tuple[str, str], Measure] = {}
        self._engaging: dict[str, list[Near]] = {}
        self._sights: dict[tuple[str, str], Sight] = {}
        self._covers: dict[tuple[str, str, bool, float, bool], Cover] = {}
        self._flanks: dict[tuple[str, str], Flank] = {}
        self._enemies: dict[str, list[tuple[str, float]]] = {}

    @classmethod
    def of(cls, battle: Battle) -> Targeting:
        return battle.kept(cls, cls)

    def measure(self, a: str, b: str) -> Measure:
        key = (a, b)
        m = self._measures.get(key)
        if m is None:
            m = _keep(self._measures, key, self.g.measure(a, b))
        return m

    def sight(self, a: str, b: str) -> Sight:
        key = (a, b)
        v = self._sights.get(key)
        if v is None:
            v = _keep(self._sights, key, self.g.sight(a, b))
        return v

    def cover(self, attacker: str, target: str, *, gate_1in: bool, platform_threshold: float,
              platform_applies: bool = True) -> Cover:
        """The Warcry family's cover: ``BoardGeometry.cover`` with this family's parameters."""
        key = (attacker, target, gate_1in, platform_threshold, platform_applies)
        v = self._covers.get(key)
        if v is None:
            rule = CoverRule(gate_1in, float(platform_threshold), platform_applies)
            v = _keep(self._covers, key, self.g.cover(attacker, target, rule))
        return v

    def flanked(self, attacker: str, target: str) -> Flank:
        key = (attacker, target)
        v = self._flanks.get(key)
        if v is None:
            v = _keep(self._flanks, key, self.g.flanked(attacker, target))
        return v

    def enemies_by_distance(self, fighter: str) -> list[tuple[str, float]]:
        v = self._enemies.get(fighter)
        if v is None:
            v = _keep(self._enemies, fighter, self.g.enemies_by_distance(fighter))
        return list(v)

    def elevation(self, body_id: str) -> float:
        return float(self.g.elevation(body_id))

    def engaging(self, fighter: str) -> list[Near]:
        """Active enemies within 1" of the fighter, nearest first."""
        near = self._engaging.get(fighter)
        if near is None:
            known = self._enemies.get(fighter)  # every enemy ranked already, or the few
            ranked = known if known is not None else self.g.enemies_within(fighter,
                                                                          ENGAGE + EPS)
            near = sorted((Near(i, d) for i, d in ranked if d <= ENGAGE + EPS),
                          key=lambda n: (n.distance, n.id))
            _keep(self._engaging, fighter, near)
        return list(near)

    def friends_near_target(self, attacker: Combatant, target: str) -> list[Near]:
        """Fighters of the attacker's side (not the attacker) within 1" of the target."""
        out = []
        for n in self.engaging(target):
            if n.id == attacker.id:
                continue
            other = self.combatants.get(n.id)
            if other is not None and other.side == attacker.side:
                out.append(n)
        return out

    # -- checks ----------------------------------------------------------------------
    def enemy_checks(self, attacker: Combatant, target: Combatant) -> list[Check]:
        out = []
        if is_taken_down(attacker):  # listed only when it fails: a fighter out of the game
            out.append(Check("attacker", False, f"{attacker.id} is taken down and cannot "
                                                "attack"))
        if target.side == attacker.side:
            out.append(Check("enemy", False, f"not an enemy: {target.id} is on "
                             f"{attacker.id}'s side ({target.side})"))
        else:
            out.append(Check("enemy", True, f"{target.id} is an enemy fighter"))
        down = is_taken_down(target)
        text = f"{target.id} is taken down" if down else f"{target.id} is not taken down"
        out.append(Check("taken_down", not down, text))
        return out

    def visible_check(self, attacker: str, target: str) -> Check:
        sight = self.sight(attacker, target)
        if sight.visible:
            return Check("visible", True, f"{target} is visible")
        labels = [self._terrain_label(t) for t in sight.blocked_by]
        by = f": sight blocked by {', '.join(labels)}" if labels else ""
        return Check("visible", False, f"not visible{by}")

    def _terrain_label(self, tid: str) -> str:
        for t in self.board.terrains:
            if t.id == tid:
                return t.label
        return tid

    @staticmethod
    def range_checks(distance: float, rng: RangeSpec, weapon: str = "") -> list[Check]:
        of = f" of {weapon}" if weapon else ""
        mx = rng.maximum
        ok = distance <= mx + EPS
        text = (f"in range{of}: {inches(distance)} <= {inches(mx)}" if ok
                else f"out of range{of}: {inches(distance)} > {inches(mx)}")
        out = [Check("range", ok, text, distance, mx, mx - distance)]
        if rng.minimum is not None:
            mn = rng.minimum
            ok = distance > mn + EPS
            text = (f"beyond minimum range{of}: {inches(distance)} > {inches(mn)}" if ok
                    else f"within minimum range{of}: {inches(distance)} <= {inches(mn)}")
            out.append(Check("minimum_range", ok, text, distance, mn, distance - mn))
        return out

    def engaged_check(self, attacker: str, target: str) -> tuple[Check, list[Near]]:
        """If enemies are within 1" of the attacker, the target must be one of them."""
        near = self.engaging(attacker)
        if not near:
            return Check("engaged", True, 'no enemy within 1" of the attacker'), near
        listed = ", ".join(f"{n.id} at {inches(n.distance)}" for n in near)
        mine = next((n for n in near if n.id == target), None)
        if mine is not None:
            return Check("engaged", True, f'{target} is within 1" of the attacker',
                         mine.distance, ENGAGE, ENGAGE - mine.distance), near
        d = self.measure(attacker, target).distance  # the target is beyond 1": margin < 0
        return Check("engaged", False,
                     f'an enemy is within 1" of the attacker ({listed}): '
                     "the target must be one of them",
                     d, ENGAGE, ENGAGE - d), near

    def friendly_fire_check(self, attacker: Combatant, target: str, distance: float,
                            exception: bool, rng: RangeSpec,
                            near: list[Near] | None = None) -> Check:
        """A missile/ranged attack may not target an enemy within 1" of the attacker's
        friends; with ``exception`` (Warcry) it may when the weapon has no minimum range
        and the attacker is within 3" of the target. ``near``: those friends, nearest
        first, when the caller already has them (``friends_near_target``)."""
        if near is None:
            near = self.friends_near_target(attacker, target)
        if not near:
            return Check("friendly_fire", True, f'no fighter of {attacker.id}\'s side '
                         f'within 1" of {target}')
        f = near[0]
        base = f"{target} is within 1\" of {f.id} ({inches(f.distance)})"
        if exception:
            close = distance <= 3.0 + EPS
            if rng.minimum is None and close:
                return Check("friendly_fire", True,
                             f"{base}, allowed: no minimum range and the attacker is within "
                             f"3\" ({inches(distance)})", distance, 3.0, 3.0 - distance)
            if rng.minimum is not None:
                return Check("friendly_fire", False,
                             f"friendly fire: {base} and the weapon has a minimum range",
                             f.distance, ENGAGE, f.distance - ENGAGE)
            return Check("friendly_fire", False, f"friendly fire: {base} and the attacker is "
                         f"{inches(distance)} away, more than 3\"",
                         distance, 3.0, 3.0 - distance)
        return Check("friendly_fire", False, f"friendly fire: {base}",
                     f.distance, ENGAGE, f.distance - ENGAGE)
