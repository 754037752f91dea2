"""`circle-of-realms` on the rules interface: target check, exact odds, rolls and moves.

The grid geometry (spaces, neighbours, distances, sight) comes from
``geometry.board_geometry.BoardGeometry``; the arithmetic lives in ``resolution`` and
``rolled``, the Dismemberment Die in ``dismemberment``, Zones of Control in ``zones``.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.rules.base import (
    AttackReport,
    AttackRequest,
    Battle,
    Check,
    DiceError,
    DiceShortage,
    DieRoll,
    GivenDice,
    Modifier,
    PairFacts,
    Resolution,
    RulesError,
    Ruleset,
    StateChange,
    Terms,
)
from tabletop_gui.rules.circle_of_realms.dismemberment import cuts, parse_faces
from tabletop_gui.rules.circle_of_realms.info import INFO
from tabletop_gui.rules.circle_of_realms.profile import (
    UNARMED_TYPE,
    FighterProfile,
    WeaponProfile,
)
from tabletop_gui.rules.circle_of_realms.resolution import Odds, Setup, odds_of
from tabletop_gui.rules.circle_of_realms.rolled import Rolled, attack_steps, roll_attack
from tabletop_gui.rules.circle_of_realms.zones import GridLike, Space, move_report
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.resolver import Ask, Resolver, Steps


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class Planned:
    """An attack request read against the battle: the setup and what explains it."""

    setup: Setup
    weapon_name: str | None
    facts: PairFacts
    checks: tuple[Check, ...]
    modifiers: tuple[Modifier, ...]


class CircleOfRealms(Ruleset):
    info = INFO
    damage_axis = "wounds"

    # -- geometry -----------------------------------------------------------------
    def _grid(self, battle: Battle) -> tuple[BoardGeometry, GridLike, float]:
        spec = battle.board.grid
        geo = battle.geometry
        grid = geo.grid
        if spec is None or grid is None:
            raise RulesError("circle-of-realms needs a battlefield grid (square or hex)")
        return geo, grid, spec.size

    def _space(self, battle: Battle, grid: GridLike, cid: str) -> Space:
        fp = battle.board.body(cid).footprint
        s = grid.space_at(fp.x, fp.y)
        return (int(s[0]), int(s[1]))

    def pair_facts(self, battle: Battle, attacker: str, target: str) -> PairFacts:
        battle.combatant(attacker)
        battle.combatant(target)
        geo, grid, _ = self._grid(battle)
        spaces = grid.distance(self._space(battle, grid, attacker),
                               self._space(battle, grid, target))
        gap = geo.measure(attacker, target).horizontal
        return PairFacts(
            attacker=attacker, target=target, distance=gap, horizontal_distance=gap,
            vertical_distance=0.0, engaged=spaces <= 1,
            visible=geo.sight(attacker, target).visible, cover="none", spaces=spaces,
        )

    def terms(self, battle: Battle) -> Terms:
        return Terms("adjacent")  # range and engagement in spaces, sight as the others

    # -- reading a request ----------------------------------------------------------
    def _plan(self, battle: Battle, request: AttackRequest) -> Planned:
        opts = self.options(battle)
        sit = self.situational(request)
        faces = parse_faces(str(opts["dismemberment_faces"]))
        if request.offhand:
            raise RulesError("circle-of-realms has no off-hand attacks: choose the weapon "
                             "with --weapon (its `hand` says which hand holds it)")
        att = FighterProfile.of(battle.combatant(request.attacker))
        dfn = FighterProfile.of(battle.combatant(request.target))
        facts = self.pair_facts(battle, att.id, dfn.id)
        spaces = facts.spaces if facts.spaces is not None else 0
        melee = spaces <= 1

        chosen: WeaponProfile | None
        if request.weapon:
            chosen = att.weapon(request.weapon)
        else:
            usable = [w for w in att.weapons if att.can_use(w)]
            in_range = [w for w in usable if spaces <= w.range]
            options = in_range or usable or list(att.weapons)
            chosen = options[0] if options else None
        rolled = chosen if chosen is not None and att.can_use(chosen) else None
        reach = rolled.range if rolled is not None else 1
        attack_type = rolled.attack_type if rolled is not None else UNARMED_TYPE

        d_name = str(sit.get("defender_weapon") or "")
        try:
            d_weapon = dfn.weapon(d_name) if d_name else next(
                (w for w in dfn.weapons if dfn.can_use(w)), None)
        except RulesError as e:
            raise RulesError(f"--set defender_weapon={d_name}: {e}") from None
        defender_type = d_weapon.attack_type if d_weapon and dfn.can_use(d_weapon) else None

        setup = Setup(
            attacker=att, defender=dfn, weapon=rolled, attack_type=attack_type,
            defender_type=defender_type, melee=melee, night=bool(sit["night"]),
            bonus=int(sit["attack_bonus"]), counter=str(opts["counter_damage"]),
            faces=faces, limb_choice=str(sit["limb_choice"]),
        )
        checks = self._checks(att, dfn, facts, spaces, reach)
        if chosen is not None and rolled is None:
            # a dropped weapon: the base die alone, unless a weapon still held can attack
            others = [w.name for w in att.weapons if att.can_use(w) and spaces <= w.range]
            text = (f"{chosen.name} is held in a lost hand: attack with "
                    f"{' or '.join(others)} instead" if others
                    else f"{chosen.name} is held in a lost hand: base attack die alone")
            checks = (*checks, Check("weapon", not others, text))
        mods = self._modifiers(setup, chosen.name if chosen else None, d_weapon)
        return Planned(setup, chosen.name if chosen else None, facts, checks, mods)

    def _checks(self, att: FighterProfile, dfn: FighterProfile, facts: PairFacts,
                spaces: int, reach: int) -> tuple[Check, ...]:
        in_range = spaces <= reach
        return (
            Check("attacker", not att.taken_down,
                  f"{att.id} is taken down" if att.taken_down else f"{att.id} can attack"),
            Check("friendly_fire", att.side != dfn.side,
                  "target is an enemy" if att.side != dfn.side
                  else f"{dfn.id} is on the attacker's side ({dfn.side})"),
            Check("taken_down", not dfn.taken_down,
                  f"{dfn.id} is taken down" if dfn.taken_down else "target is not taken down"),
            Check("visible", facts.visible,
                  "target is visible" if facts.visible else "target is not visible"),
            Check("range", in_range,
                  f"{'in range' if in_range else 'out of range'}: {_plural(spaces, 'space')} "
                  f"{'<=' if in_range else '>'} range {reach}",
                  value=spaces, threshold=reach, margin=reach - spaces),
        )

    def _modifiers(self, s: Setup, chosen: str | None, d_weapon: Any) -> tuple[Modifier, ...]:
        att, dfn = s.attacker, s.defender
        mods: list[Modifier] = []
        if chosen is not None and s.weapon is None:
            mods.append(Modifier("weapon dropped", "base attack die alone, blunt",
                                 f"{chosen} is held in a lost hand"))
        elif chosen is None:
            mods.append(Modifier("unarmed", "base attack die alone, blunt",
                                 f"{att.id} has no weapon"))
        if s.bonus:
            mods.append(Modifier("attack bonus", f"{s.bonus:+d} attack", "pre-rolled bonus"))
        if att.precision > 0:
            mods.append(Modifier("critical hits", f"on multiples of {att.precision}",
                                 f"precision {att.precision}; halves the defense roll"))
        if s.night:
            if att.scout:
                mods.append(Modifier("night", "no attack penalty", f"{att.id} is a scout"))
            elif att.precision:
                mods.append(Modifier("night", f"-{att.precision} attack",
                                     f"night turn: attacker's precision {att.precision}"))
        if s.counter_applies:
            why = ("melee attack" if s.counter == "melee" else "counter_damage=always")
            if s.night and dfn.scout:
                why += f"; {dfn.id} is a scout: no night reduction"
            elif s.counter_reduction:
                mods.append(Modifier("night", f"-{s.counter_reduction} damage back",
                                     f"night turn: defender's precision {dfn.precision}"))
            mods.append(Modifier("damage back", "a defense roll above the attack wounds "
                                 "the attacker", why))
        if cuts(s.attack_type):
            mods.append(Modifier("dismemberment", f"{dfn.id} may lose a limb",
                                 f"{s.attack_type} attack"))
        if cuts(s.defender_type) and d_weapon is not None:
            mods.append(Modifier("dismemberment", f"{att.id} may lose a limb",
                                 f"{dfn.id} wields {d_weapon.name} ({s.defender_type})"))
        return tuple(mods)

    # -- the interface --------------------------------------------------------------
    def attack(self, battle: Battle, request: AttackRequest) -> AttackReport:
        plan = self._plan(battle, request)
        odds = odds_of(plan.setup)
        return AttackReport(
            ruleset=self.id, attacker=request.attacker, target=request.target,
            weapon=plan.weapon_name, offhand=None,
            attack_type="melee" if plan.setup.melee else "ranged",
            checks=plan.checks, modifiers=plan.modifiers, facts=plan.facts,
            distribution=odds.target, extras=_extras(plan.setup, odds),
            take_down_probability=odds.target_down,
        )

    def begin(self, battle: Battle, request: AttackRequest) -> Resolver:
        setup = self._plan(battle, request).setup
        trace: list[DieRoll] = []
        fixed = len(setup.attack_dice) + 1  # the attack and defense dice are always rolled
        return Resolver(
            _resolution(attack_steps(setup, trace)), trace,
            lambda fed: odds_of(setup, fed[:fixed]).target,
            lambda given: DiceShortage(max(len(trace) + 1, fixed), given))

    def odds_given(self, battle: Battle, request: AttackRequest, known: Sequence[int]) -> Dist:
        setup = self._plan(battle, request).setup
        sizes = (*setup.attack_dice, setup.defender.defense)
        if len(known) > len(sizes):  # dismemberment dice too: the outcome is known
            given = GivenDice(known)
            rolled = roll_attack(setup, given)
            given.finish()
            return Dist.point(rolled.target_wounds)
        for i, face in enumerate(known):
            if not 1 <= face <= sizes[i]:
                raise DiceError(f"die {i + 1} shows {face}, but a d{sizes[i]} shows 1 to "
                                 f"{sizes[i]}")
        return odds_of(setup, tuple(known)).target

    def move(self, battle: Battle, mover: str, path: Sequence[tuple[float, float]]
             ) -> dict[str, Any]:
        who = FighterProfile.of(battle.combatant(mover))
        rule = str(self.options(battle)["zoc_exit"])
        _, grid, size = self._grid(battle)
        if who.taken_down:
            raise RulesError(f"--fighter: {mover} is taken down and cannot move")
        enemies = [
            (FighterProfile.of(c), self._space(battle, grid, cid))
            for cid, c in battle.combatants.items() if cid != mover and c.side != who.side
        ]
        return move_report(grid, size, who, self._space(battle, grid, mover), path, enemies,
                           rule)


def _resolution(steps: Generator[Ask, int | str, Rolled]) -> Steps:
    """The rolled attack as a ``Resolution``: both fighters' new states and the extras."""
    r = yield from steps
    return Resolution(
        dice=r.dice, damage=r.target_wounds, taken_down=r.defender.taken_down,
        steps=r.steps,
        changes=(StateChange(r.defender.id, r.defender.state_json()),
                 StateChange(r.attacker.id, r.attacker.state_json())),
        extras={"attacker_damage": r.attacker_wounds, "critical": r.critical,
                "dismemberment": r.limbs},
    )


def _extras(setup: Setup, odds: Odds) -> dict[str, Any]:
    return {
        "damage_type": setup.attack_type,
        "attacker_distribution": odds.attacker.pairs(),
        "attacker_expected_damage": round(odds.attacker.mean, 3),
        "attacker_take_down_probability": round(odds.attacker_down, 12),
        "critical_probability": round(odds.critical, 12),
        "dismemberment_probability": {k: round(v, 12) for k, v in odds.dismemberment.items()},
        "limb_loss_probability": {
            side: {limb: round(p, 12) for limb, p in limbs.items() if p > 0}
            for side, limbs in odds.limbs.items()
        },
    }


RULESET = CircleOfRealms()
