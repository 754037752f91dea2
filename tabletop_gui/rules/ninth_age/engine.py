"""The `ninth-age` ruleset on the rules interface (docs/rulesets/ninth-age.md).

Geometry comes from ``BoardGeometry`` (distance between unit boundaries in 2D, contact,
engaged facing, arc, contact models, sight, facing cover); ``build.py`` turns it into a
``Plan``; ``odds.py`` gives exact distributions and ``sequence.py`` rolls dice.

``attack --json`` extras: ``expected_casualties`` (models removed, whole models from the
rear, computed from the capped HP-lost distribution and the target's ``hp`` and
``hp_lost``); ``hits`` and ``wounds``: ``{"expected": x, "distribution": [[n, p], ...]}``
for the number of hits scored (after Area Attack and Battle Focus) and of successful
to-wound results (Poison's automatic wounds included, before any save), both uncapped.
In ``roll``: ``hits``, ``wounds`` and ``casualties`` of the rolled attack.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Mapping, Sequence
from itertools import repeat
from operator import le
from typing import TYPE_CHECKING, Any, Literal

from tabletop_gui.geometry.unit_arcs import CONTACT, arc_lines
from tabletop_gui.rules.base import (
    AttackReport,
    AttackRequest,
    Battle,
    DiceError,
    DiceShortage,
    DieRoll,
    OverlayShape,
    PairFacts,
    Resolution,
    RulesError,
    Ruleset,
    StateChange,
    Terms,
)
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.ninth_age.build import (
    Armed,
    Plan,
    Verdict,
    arm,
    plan_against,
    size_of,
    valid_against,
    verdict_against,
)
from tabletop_gui.rules.ninth_age.info import INFO, MAX_HITS, MAX_HP
from tabletop_gui.rules.ninth_age.odds import Measure, Odds, capped
from tabletop_gui.rules.ninth_age.sequence import Run, Runner, conditioned, dice_waiting
from tabletop_gui.rules.ninth_age.units import HAND_WEAPON, Situation, UnitView, WeaponView
from tabletop_gui.rules.resolver import DieAsk, Resolver, Steps

if TYPE_CHECKING:
    from tabletop_gui.geometry.board_geometry import BoardGeometry


class _Views(dict[str, UnitView]):
    """The units of one battle as the rules read them, each read once (kept with the
    battle: ``Battle.kept``; a battle is one revision of the document)."""

    def __init__(self, battle: Battle) -> None:
        super().__init__()


def unit_view(battle: Battle, uid: str) -> UnitView:
    """A unit as the rules read it: the combatant plus its formation from the Board (read
    once per battle: every pair of a scan reads the same views)."""
    views = battle.kept(_Views, _Views)
    view = views.get(uid)
    if view is None:
        view = views[uid] = _read_unit(battle, uid)
    return view


def _read_unit(battle: Battle, uid: str) -> UnitView:
    c = battle.combatant(uid)
    try:
        body = battle.board.body(uid)
    except KeyError:
        raise RulesError(f"{uid} is not on the battlefield") from None
    f = body.formation
    return UnitView(
        id=c.id, name=c.name, side=c.side, characteristics=c.characteristics,
        traits=tuple(c.traits),
        weapons=tuple(WeaponView(w.name, dict(w.values), w.parsed) for w in c.weapons),
        state=c.state,
        models=f.models if f else 1, files=f.files if f else 1,
        height_class=body.height_class, round_base=f.round_base if f else True,
    )


def situation_of(battle: Battle, attacker: str, target: str, threshold: str) -> Situation:
    """The geometric facts of one pair, from the geometry library."""
    g = battle.geometry
    cover = g.facing_cover(attacker, target, threshold=_threshold(threshold))
    return _Reading(battle, g).situation(
        attacker, target, g.measure(attacker, target).horizontal, cover.kind, cover.by,
        g.arc_of(target, attacker), g.sight(attacker, target).visible)


def _threshold(threshold: str) -> Literal["more_than_half", "half_or_more"]:
    return "half_or_more" if threshold == "half_or_more" else "more_than_half"


class _Reading:
    """What the situations of a battle read besides each pair's own facts (the units'
    heights, the hard-cover terrain), read once for every pair of a scan."""

    def __init__(self, battle: Battle, g: BoardGeometry) -> None:
        self.g = g
        self.height = {b.id: b.height for b in g.bodies.bodies}
        self.hard = battle.kept(_Scans, _Scans).hard

    def _low(self, by: tuple[str, ...], shooter: str) -> bool:
        """Is everything in ``by`` a unit no taller than the shooter? (NaN, never lower,
        for what is not a unit.)"""
        return all(map(le, map(self.height.get, by, repeat(math.nan)),
                       repeat(self.height[shooter] + 1e-9)))

    def situation(self, attacker: str, target: str, horizontal: float, kind: str,
                  by: tuple[str, ...], arc: str, visible: bool, contact: int | None = None
                  ) -> Situation:
        """The Situation of a pair from its horizontal gap, facing cover (kind and what
        gives it), arc and sight (and its contact models when in contact, if known)."""
        g = self.g
        engaged = g.touching(horizontal)
        low = False
        given_by: tuple[str, ...] = ()
        if by:
            low = self._low(by, attacker)
            # what gives the cover: nothing without cover; hard cover from hard terrain
            if kind == "soft":
                given_by = by
            elif kind == "hard":
                given_by = tuple(filter(self.hard.__contains__, by))
        if not engaged:  # the fields in order (a scan makes hundreds)
            return Situation(horizontal, False, None, arc, 0, visible, kind, given_by, low)
        return Situation(
            distance=horizontal,
            engaged=engaged,
            engaged_facing=g.engaged_facing(target, attacker),
            arc=arc,
            contact_models=(g.contact_models(attacker, target) if contact is None
                            else contact),
            visible=visible,
            cover=kind,
            cover_by=given_by,
            cover_only_low_units=low,
        )


SCAN_AFTER = 1  # pairs asked of one battle before every pair's situation is computed at once


class _Scans:
    """What was asked of one battle's situations (kept with it: ``Battle.kept``): the
    pairs asked one by one and their answers, every pair's once scanned (under
    ``threshold``), the hard-cover terrain."""

    def __init__(self, battle: Battle) -> None:
        self.asked: dict[tuple[str, str, str], Situation] = {}
        self.threshold: str | None = None
        self.situations: dict[tuple[str, str], Situation] = {}
        self.hard = frozenset(t.id for t in battle.board.terrains
                              if t.kind == "platform" or t.cover == "hard")


def scanned_situation(battle: Battle, attacker: str, target: str, threshold: str
                      ) -> Situation:
    """``situation_of``, each pair computed once per battle; once ``SCAN_AFTER`` pairs
    have been asked of one battle, a second one means a whole-battlefield question (`inspect`,
    a target list: a single attack asks of one pair), so every ordered pair of active
    units on different sides is computed at once (``scan_situations``) and answered
    from it."""
    scans = battle.kept(_Scans, _Scans)
    if scans.threshold == threshold:
        found = scans.situations.get((attacker, target))
        if found is not None:
            return found
    key = (attacker, target, threshold)
    found = scans.asked.get(key)
    if found is not None:
        return found
    if scans.threshold != threshold and len(scans.asked) >= SCAN_AFTER:
        situations = scan_situations(battle, threshold)
        scans.situations, scans.threshold = situations, threshold
        found = situations.get((attacker, target))
        if found is not None:
            return found
    found = scans.asked[key] = situation_of(battle, attacker, target, threshold)
    return found


def scan_situations(battle: Battle, threshold: str) -> dict[tuple[str, str], Situation]:
    """``situation_of`` of every ordered pair of active bodies on different sides, from
    the geometry's whole-battlefield answers (gaps a row at a time, facing cover of every
    pair at once, the sight table)."""
    g = battle.geometry
    ids = [b.id for b in g.bodies.bodies]
    pairs, kinds, _, _, by = g.facing_choices(_threshold(threshold))
    arcs = g.facing_arcs()  # g.arc_of(t, a) of each pair, from the same table
    visible = g.sight_matrix().tolist()
    gaps = g.horizontal_gaps()
    situation = _Reading(battle, g).situation
    # the contact models of the pairs in contact, measured at once
    touching = [(ids[i], ids[j]) for i, j in pairs if g.touching(gaps[i][j])]
    contact = dict(zip(touching, g.contact_models_of(touching), strict=True))
    out = {}
    for (i, j), kind, by_n, arc in zip(pairs, kinds, by, arcs, strict=True):
        a, t = ids[i], ids[j]
        out[(a, t)] = situation(a, t, gaps[i][j], kind, by_n, arc, visible[i][j],
                                contact.get((a, t)))
    return out


def facts_of(attacker: str, target: str, s: Situation) -> PairFacts:
    return PairFacts(attacker, target, s.distance, s.distance, 0.0, s.engaged, s.visible,
                     s.cover, s.cover_by, False, s.arc, None)


def casualties(hp_dist: Dist, hp: int, hp_lost: int) -> float:
    """Expected whole models removed, given Health Points lost (models die from the rear)."""
    before = hp_lost // hp
    return sum(q * ((hp_lost + v) // hp - before) for v, q in hp_dist.items())


def summary(d: Dist) -> dict[str, Any]:
    return {"expected": round(d.mean, 3), "distribution": d.pairs()}


def check_size(plan: Plan, attacker: str) -> None:
    """Refuse (RulesError naming the numbers) an attack larger than MAX_HITS / MAX_HP."""
    _check_size(attacker, plan.weapon, *size_of(plan))


def _check_size(attacker: str, weapon: str, rolls: int, each: int, most: int) -> None:
    """``check_size`` of an attack of ``rolls`` attack rolls, each success up to ``each``
    hits, each hit up to ``most`` Health Points (``build.size_of``)."""
    hits = rolls * each
    if hits <= MAX_HITS and hits * most <= MAX_HP:
        return
    what = f"{attacker} with {weapon}: {rolls:,} attack{'s' * (rolls != 1)}" + (
        f" of up to {each} hits each" if each > 1 else "")
    lower = ("lower the unit's attacks, or the models with --set attacking_models=N "
             "(and supporting_models)")
    if hits > MAX_HITS:
        raise RulesError(f"{what} make up to {hits:,} hits: more than the {MAX_HITS:,} one "
                         f"attack is computed for; {lower}")
    if hits * most > MAX_HP:
        raise RulesError(f"{what} can take up to {hits * most:,} Health Points ({hits:,} hits "
                         f"of up to {most} each): more than the {MAX_HP:,} one attack is "
                         f"computed for; {lower}")


def plan_distribution(plan: Plan, measure: Measure = "hp") -> Dist:
    """Exact distribution of the whole attack (HP lost capped at what the target has)."""
    odds = Odds(plan.profile, measure)
    cap = max(0, plan.remaining) if measure == "hp" else None
    if plan.shots is not None:
        d = odds.attacks_from_shots(plan.shots, plan.shooting_models, cap)
    else:
        d = odds.attacks(plan.attacks, cap)
    return capped(d, plan.remaining) if measure == "hp" else d


def armed_for(a: UnitView, weapon: str | None, situ: dict[str, Any]) -> list[Armed]:
    """The weapons an attack of unit ``a`` may use, armed (``build.arm``): the named one,
    else each of its weapons in order and the Hand Weapon every unit can fight with;
    refused (RulesError) as building the first refused plan would be."""
    if weapon is not None or situ.get("crush_attack"):
        return [arm(a, weapon, situ)]
    names = [w.name for w in a.weapons]
    if not a.close_combat_weapons() and a.weapon(HAND_WEAPON) is None:
        names.append(HAND_WEAPON)  # every unit can fight with its hand weapon
    return [arm(a, n, situ) for n in names]


def _plan_of(armed: Sequence[Armed], t: UnitView, s: Situation) -> Plan:
    """The plan of an attack on ``t``: the first valid weapon's (the first weapon's when
    none is valid), refused (RulesError) when it is too large to compute. Planning
    against a target is never refused, so the weapons after the first are only asked
    whether they are valid (``valid_against``) until one is, and only that one planned."""
    plan = plan_against(armed[0], t, s)
    if not plan.valid:
        valid = next((w for w in armed[1:] if valid_against(w, t, s)), None)
        if valid is not None:
            plan = plan_against(valid, t, s)
    check_size(plan, armed[0].attacker.id)
    return plan


def _verdict_of(armed: Sequence[Armed], t: UnitView, s: Situation) -> Verdict:
    """The checks of ``_plan_of(armed, t, s)`` (``build.verdict_against``: the same
    weapon chosen the same way, refused the same way when too large), without the plan."""
    verdict = verdict_against(armed[0], t, s)
    if not verdict.valid:
        valid = next((w for w in armed[1:] if valid_against(w, t, s)), None)
        if valid is not None:
            armed = [valid]
            verdict = verdict_against(valid, t, s)
    _check_size(armed[0].attacker.id, armed[0].label, verdict.rolls, verdict.each,
                verdict.most)
    return verdict


class NinthAgeRuleset(Ruleset):
    info = INFO
    damage_axis = "Health Points lost"

    # -- geometry ------------------------------------------------------------------------
    def situation(self, battle: Battle, attacker: str, target: str) -> Situation:
        scanned = battle.kept(_Scans, _Scans).threshold  # options read for the scan
        threshold = scanned if scanned is not None \
            else str(self.options(battle)["cover_threshold"])
        return scanned_situation(battle, attacker, target, threshold)

    def pair_facts(self, battle: Battle, attacker: str, target: str) -> PairFacts:
        return facts_of(attacker, target, self.situation(battle, attacker, target))

    def weapon_choices(self, battle: Battle, attacker: str) -> list[str]:
        """Its weapons and the Hand Weapon every unit has (``choose_weapon``)."""
        names = super().weapon_choices(battle, attacker)
        return names if HAND_WEAPON in names else [*names, HAND_WEAPON]

    def terms(self, battle: Battle) -> Terms:
        return Terms("contact", CONTACT, facing_cover=str(self.options(battle)["cover_threshold"]),
                     arcs=True)

    # -- plans ---------------------------------------------------------------------------
    def plan(self, battle: Battle, request: AttackRequest,
             situation: Situation | None = None) -> tuple[Plan, Situation]:
        if request.offhand is not None:
            raise RulesError("--offhand: ninth-age has no off-hand attacks (a unit fights "
                             "with one weapon: choose it with --weapon)")
        situ = self.situational(request)
        a = unit_view(battle, request.attacker)
        t = unit_view(battle, request.target)
        s = situation if situation is not None else self.situation(
            battle, request.attacker, request.target)
        return _plan_of(armed_for(a, request.weapon, situ), t, s), s

    def target_validity(self, battle: Battle, attacker: str, targets: Sequence[str],
                        weapon: str | None = None, offhand: str | None = None,
                        situational: Mapping[str, Any] | None = None,
                        explain: bool = True,
                        ) -> dict[str, tuple[bool, tuple[str, ...]]]:
        """``attack(...).valid`` and ``.reasons`` of each target from its plan's checks
        alone: the verdict is the plan's checks (and a refused plan's message), which is
        all an attack adds them to, so neither a distribution nor the plan is made
        (``_verdict_of``). The situations of the pairs come from the battle's scan
        (``scanned_situation``)."""
        out: dict[str, tuple[bool, tuple[str, ...]]] = {}
        request = AttackRequest(attacker, attacker, weapon, offhand, dict(situational or {}))
        try:
            if offhand is not None:
                self.plan(battle, request)  # refused: the same message for every target
            situ = self.situational(request)
            a = unit_view(battle, attacker)
        except RulesError as e:
            return {target: (False, (str(e),)) for target in targets}
        armed: list[Armed] = []  # the same for every target: armed once
        refused: str | None = None  # ... or refused for every target
        try:
            armed = armed_for(a, weapon, situ)
        except RulesError as e:
            refused = str(e)
        views = battle.kept(_Views, _Views)
        scans = battle.kept(_Scans, _Scans)
        for target in targets:
            try:
                t = views.get(target) or unit_view(battle, target)
                # the scanned situation when there is one (what ``situation`` reads first)
                s = ((scans.situations.get((attacker, target)) if scans.threshold is not None
                      else None) or self.situation(battle, attacker, target))
                verdict = None if refused is not None else _verdict_of(armed, t, s)
            except RulesError as e:
                out[target] = (False, (str(e),))
                continue
            if verdict is None:
                out[target] = (False, (str(refused),))
                continue
            valid = verdict.valid
            reasons = (tuple(c.text for c in verdict.checks if not c.ok)
                       if explain or valid else ())
            out[target] = (valid, reasons)
        return out

    def attack(self, battle: Battle, request: AttackRequest,
               situation: Situation | None = None) -> AttackReport:
        plan, s = self.plan(battle, request, situation)
        hp = plan_distribution(plan)
        extras: dict[str, Any] = {
            "expected_casualties": round(casualties(hp, plan.target_hp, plan.target_hp_lost), 3),
            "hits": summary(plan_distribution(plan, "hits")),
            "wounds": summary(plan_distribution(plan, "wounds")),
        }
        return AttackReport(
            ruleset=self.id, attacker=request.attacker, target=request.target,
            weapon=plan.weapon, offhand=None, attack_type=plan.attack_type,
            checks=plan.checks, modifiers=plan.modifiers,
            facts=facts_of(request.attacker, request.target, s), distribution=hp,
            table_row=plan.table_row, extras=extras,
            take_down_probability=(hp.prob_at_least(plan.remaining) if plan.remaining
                                   else 1.0),
        )

    def begin(self, battle: Battle, request: AttackRequest,
              situation: Situation | None = None) -> Resolver:
        plan, _ = self.plan(battle, request, situation)
        runner = Runner(plan.profile, plan.shots)
        trace: list[DieRoll] = []
        run = runner.start(plan.attacks, plan.shots, plan.shooting_models, trace)
        cap = max(0, plan.remaining)
        odds = Odds(plan.profile)
        return Resolver(
            _resolution(plan, request.target, runner.run(run)), trace,
            lambda fed: capped(runner.remainder(odds, run, plan.shots, cap), plan.remaining),
            lambda given: DiceShortage(len(run.dice) + max(1, dice_waiting(run)), given))

    def overlays(self, battle: Battle, request: AttackRequest) -> tuple[OverlayShape, ...]:
        """The target's arc lines (front, flanks and rear meet on them)."""
        return tuple(OverlayShape("arc_line", "135° arc line of the target (a model on a "
                                  "line is in the flank)", (a, b))
                     for a, b in arc_lines(battle.board, request.target))

    def odds_given(self, battle: Battle, request: AttackRequest, known: Sequence[int],
                   situation: Situation | None = None) -> Dist:
        plan, _ = self.plan(battle, request, situation)
        d, used = conditioned(plan.profile, plan.attacks, plan.shots, plan.shooting_models,
                              plan.remaining, list(known))
        if used < len(known):
            raise DiceError(f"too many dice: this attack needs {used}, {len(known)} were given")
        return d


def _resolution(plan: Plan, target: str, steps: Generator[DieAsk, int | str, Run]
                ) -> Steps:
    """The run of the attack's dice, then what it does to the target."""
    run = yield from steps
    damage = min(run.hp, plan.remaining)
    taken = plan.remaining > 0 and damage >= plan.remaining
    lost = plan.target_hp_lost + damage
    removed = lost // plan.target_hp - plan.target_hp_lost // plan.target_hp
    texts = [f"{d.label}: {d.face}, {d.outcome}" for d in run.dice]
    texts.append(f"{run.hits} hits, {run.wounds} wounds, {damage} Health Points lost, "
                 f"{removed} model{'' if removed == 1 else 's'} removed"
                 + (": the unit is destroyed" if taken else ""))
    state: dict[str, Any] = {"hp_lost": lost}
    if taken:
        state["taken_down"] = True
    return Resolution(
        dice=tuple(run.dice), damage=damage, taken_down=taken, steps=tuple(texts),
        changes=(StateChange(target, state),),
        extras={"hits": run.hits, "wounds": run.wounds, "casualties": removed},
    )


RULESET = NinthAgeRuleset()
