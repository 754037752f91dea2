"""From two units, a weapon and the geometry to a ``Plan``: checks, modifiers, the number
of attacks and the ``AttackProfile`` every attack is resolved with.

Choices where the page is silent (also in the report):

- A unit without close-combat weapons fights with an implicit Hand Weapon (its own Str
  and AP, no attributes). ``--weapon "Hand Weapon"`` on a unit that carries other
  close-combat weapons needs Weapon Master.
- Crush Attack (``crush_attack=true``) needs "Crush Attack" among the unit's weapon
  attributes; every attacking model makes one attack, no Supporting Attacks.
- Devastating Charge applies when the attacker is charging (state or ``--set``).
- The defender fights with its first close-combat weapon: a Two-Handed one takes away
  its shield against close-combat attacks; a "Parry" one (or a shield with a hand weapon)
  parries attacks in its Front.
- A close-combat attack that is not in base contact is refused, and its odds assume the
  whole front rank attacking (what a charge into the Front would give).
- A unit in base contact with its target cannot shoot at it (refused).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tabletop_gui.rules.base import Check, Modifier, RulesError
from tabletop_gui.rules.fields import DiceSpec, RangeSpec
from tabletop_gui.rules.ninth_age import counts
from tabletop_gui.rules.ninth_age.attributes import (
    AreaAttack,
    AttributeParseError,
    Attributes,
    MultipleWounds,
    parse_attributes,
)
from tabletop_gui.rules.ninth_age.profile import CANNOT_HIT, AttackProfile, HitProfile
from tabletop_gui.rules.ninth_age.tables import (
    armour_needed,
    special_needed,
    to_wound_needed,
)
from tabletop_gui.rules.ninth_age.tohit import (
    ToHit,
    close_combat_to_hit,
    shooting_penalty,
    shooting_to_hit,
)
from tabletop_gui.rules.ninth_age.units import HAND_WEAPON, Situation, UnitView, WeaponView

CRUSH = "Crush Attack"
NORMAL_SHOOTING_RANKS = 2  # the first and second ranks shoot (docs/rulesets/ninth-age.md)


@dataclass(frozen=True)
class Plan:
    attack_type: str  # "close_combat" | "shooting"
    weapon: str
    checks: tuple[Check, ...]
    modifiers: tuple[Modifier, ...]
    table_row: str
    profile: AttackProfile
    attacks: int  # fixed attacks (all of them, or those not from shots dice)
    shots: DiceSpec | None  # shots per model when they are dice
    shooting_models: int
    target_hp: int
    target_hp_lost: int
    remaining: int  # Health Points the target has left

    @property
    def valid(self) -> bool:
        return all(c.ok for c in self.checks)


def _attrs(names: tuple[str, ...]) -> Attributes:
    try:
        return parse_attributes(names)
    except AttributeParseError as e:
        raise RulesError(str(e)) from None


def choose_weapon(attacker: UnitView, name: str | None) -> WeaponView:
    """The named weapon; the implicit Hand Weapon by name or when the unit has none."""
    if name is not None:
        w = attacker.weapon(name)
        if w is not None:
            return w
        if name.strip().lower() == HAND_WEAPON.lower():
            return WeaponView(HAND_WEAPON, {"kind": "close_combat"})
        known = ", ".join([w.name for w in attacker.weapons] + [HAND_WEAPON])
        raise RulesError(f"{attacker.id} has no weapon {name!r} (known: {known})")
    if attacker.weapons:
        return attacker.weapons[0]
    return WeaponView(HAND_WEAPON, {"kind": "close_combat"})


def hit_profile(attrs: Attributes, strength: int, ap: int, target: UnitView,
                close_combat: bool) -> HitProfile:
    """To wound, saves and Multiple Wounds of one hit with these values."""
    if attrs.toxic:
        strength, ap = 3, 10
    arm = target.char("arm")
    if target.has("shield") and not (
            close_combat and "two-handed" in {a.strip().lower() for a in
                                              target.fighting_weapon().attributes}):
        arm += 1
    aegis = special_needed(target.char("aegis"))
    vs_magic = target.trait_value("aegis_vs_magical")
    if attrs.magical and isinstance(vs_magic, int | float) and not isinstance(vs_magic, bool):
        aegis = min(aegis, special_needed(int(vs_magic)))
    fortitude = 7 if attrs.flaming else special_needed(target.char("fortitude"))
    return HitProfile(
        wound_needed=to_wound_needed(strength, target.char("res")),
        reroll_failed_wounds=attrs.flaming and target.has("flammable"),
        lethal_strike=attrs.lethal_strike,
        armour_needed=armour_needed(arm, ap),
        armour_needed_lethal=armour_needed(arm, 10),
        aegis_needed=aegis,
        divine=attrs.divine,
        fortitude_needed=fortitude,
        wounds=_wounds(attrs, target),
        hp_cap=target.hp,
    )


_ONE_WOUND = DiceSpec(1, 0)


def _wounds(attrs: Attributes, target: UnitView) -> DiceSpec:
    """Health Points each unsaved wound takes (Multiple Wounds, +1 with Clipped Wings
    against Fly), before the cap of the target's Health Points."""
    mw: MultipleWounds | None = attrs.multiple_wounds
    if mw is None:
        return _ONE_WOUND
    if mw.clipped_wings and target.has("fly"):
        return replace(mw.dice, bonus=mw.dice.bonus + 1)
    return mw.dice


def _save_modifiers(attrs: Attributes, target: UnitView, h: HitProfile,
                    close_combat: bool, strength: int, ap: int) -> list[Modifier]:
    out: list[Modifier] = []
    if attrs.toxic:
        strength, ap = 3, 10
        out.append(Modifier("toxic attacks", "Strength 3, AP 10", "Toxic Attacks"))
    out.append(Modifier("to wound", f"{h.wound_needed}+",
                        f"Str {strength} vs Res {target.char('res')}"))
    arm = f"armour {target.char('arm')}"
    if target.has("shield"):
        two_handed = close_combat and "two-handed" in {
            a.strip().lower() for a in target.fighting_weapon().attributes}
        out.append(Modifier("shield", "no effect" if two_handed else "+1 armour",
                            "Two-Handed weapon in close combat" if two_handed
                            else f"{target.name} has a shield"))
        if not two_handed:
            arm += " + 1 (shield)"
    save = "no save" if h.armour_needed >= 7 else f"{h.armour_needed}+"
    out.append(Modifier("armour save", save, f"{arm}, AP {ap}"))
    if h.reroll_failed_wounds:
        out.append(Modifier("flaming attacks", "re-roll failed to-wound rolls",
                            f"{target.name} is Flammable"))
    if attrs.flaming and target.char("fortitude") > 0:
        out.append(Modifier("flaming attacks", "ignores Fortitude", "Flaming Attacks"))
    if h.lethal_strike:
        out.append(Modifier("lethal strike", "a natural 6 to wound: AP 10, no Fortitude",
                            "Lethal Strike"))
    if h.aegis_needed < 7:
        why = "Aegis" + (" (against Magical Attacks)" if attrs.magical and
                         target.trait_value("aegis_vs_magical") is not None else "")
        out.append(Modifier("aegis", f"{h.aegis_needed}+ special save", why))
        if h.divine:
            out.append(Modifier("divine attacks", "successful Aegis saves re-rolled",
                                "Divine Attacks"))
    if h.fortitude_needed < 7:
        out.append(Modifier("fortitude", f"{h.fortitude_needed}+ special save", "Fortitude"))
    if attrs.multiple_wounds is not None:
        mw = attrs.multiple_wounds
        fly = mw.clipped_wings and target.has("fly")
        out.append(Modifier("multiple wounds", f"each unsaved wound becomes {mw.text()}"
                            + (" +1" if fly else "") + f", at most {target.hp}",
                            "Clipped Wings against Fly" if fly else "Multiple Wounds"))
    return out


# the checks that read no number, made once (checks are frozen values): [False], [True]
_ENEMY = (Check("enemy", False, "the target is on the same side"),
          Check("enemy", True, "the target is an enemy"))
_ALIVE = (Check("alive", False, "the target is destroyed"),
          Check("alive", True, "the target stands"))
_IN_CONTACT = (Check("engaged", False, "not in base contact with the target"),
               Check("engaged", True, "in base contact"))
_VISIBLE = (Check("visible", False, "the target is not in line of sight"),
            Check("visible", True, "visible"))
_SHOOTING_IN_CONTACT = Check("engaged", False, "a unit in base contact with the target "
                             "cannot shoot at it")
_CANNOT_HIT = Check("to_hit", False, "cannot hit: the needed roll is 8 or more")


@dataclass(frozen=True)
class Shot:
    """What a shooting attack takes from the shooter, its weapon and the situational
    values alone (``arm``): range, aim and shots, the checks of its movement and
    reaction, the models that shoot and the modifiers saying so."""

    rng: float
    aim: int
    shots: DiceSpec
    checks: tuple[Check, ...]
    models: int
    modifiers: tuple[Modifier, ...]


@dataclass(frozen=True)
class Armed:
    """What an attack takes from the attacker, its weapon and the situational values
    alone, the same against every target (``arm``): the weapon and its attributes, the
    characteristics it attacks with, and the checks and modifiers that read nothing of the
    target. ``plan_against`` finishes the plan against one target."""

    attacker: UnitView
    situational: Mapping[str, Any]
    crush: bool
    weapon: WeaponView
    label: str  # the weapon's name in the plan (Crush Attack when declared)
    shooting: bool
    attrs: Attributes
    off: int
    strength: int
    ap: int
    att: int
    unable: bool  # Harnessed or Inanimate parts: no attacks with weapons
    bracketed: Attributes | None  # an Area Attack's bracketed hit: its attributes
    destroyed: tuple[Check, ...]  # the attacker's own check (between enemy and alive)
    checks: tuple[Check, ...]  # the attacker's checks after the target's
    modifiers: tuple[Modifier, ...]
    shot: Shot | None  # a shooting attack's part that reads no target


def arm(attacker: UnitView, weapon_name: str | None, situational: Mapping[str, Any]) -> Armed:
    """The part of ``build_plan`` that reads nothing of the target (every refusal of a
    plan is here: an unknown weapon, attributes that do not parse, a shooting weapon
    without range, aim and shots)."""
    crush = bool(situational.get("crush_attack", False))
    weapon = choose_weapon(attacker, None if crush and weapon_name is None else weapon_name)
    shooting = weapon.kind == "shooting" and not crush
    checks: list[Check] = []
    mods: list[Modifier] = []
    attrs = _attrs(weapon.attributes)
    for name in attrs.unknown:
        mods.append(Modifier("unknown attribute", "ignored", f"{name!r} is not an attribute"))
    off = attacker.char("off")
    strength = weapon.number("strength", attacker.char("str"))
    ap = weapon.number("ap", attacker.char("ap"))
    att = weapon.number("attacks", attacker.char("att"))
    charging = attacker.flag("charging", situational)
    if attrs.devastating_charge and charging and not shooting:
        gained: list[str] = []
        for dc in attrs.devastating_charge:
            for key, n in dc.changes:
                if key == "str":
                    strength += n
                elif key == "ap":
                    ap += n
                elif key == "off":
                    off += n
                elif key == "att":
                    att += n
            gained.extend(dc.attributes)
        attrs = _attrs((*attrs.names, *gained))
        mods.append(Modifier("devastating charge", ", ".join(
            [f"{n:+d} {k}" for dc in attrs.devastating_charge for k, n in dc.changes]
            + gained) or "no change", "charging"))

    destroyed = ((Check("attacker", False, "the attacking unit is destroyed"),)
                 if attacker.destroyed else ())
    parts_unable = attacker.has("harnessed") or attacker.has("inanimate") or (
        attrs.harnessed or attrs.inanimate)
    if parts_unable:
        checks.append(Check("harnessed", False,
                            "Harnessed or Inanimate parts make no attacks with weapons"))
    weapon_label = weapon.name
    if crush:
        has_crush = attacker.any_attribute(CRUSH)
        checks.append(Check("crush_attack", has_crush, "Crush Attack" if has_crush
                            else f"{attacker.name} has no Crush Attack"))
        attrs = parse_attributes(["Multiple Wounds (D3+1)"])
        strength, ap, att, weapon_label = 10, 10, 1, CRUSH
        mods.append(Modifier("crush attack", "one attack, Str 10, AP 10, Multiple Wounds "
                             "(D3+1)", "Crush Attack declared"))
    elif (weapon.name == HAND_WEAPON and attacker.weapon(HAND_WEAPON) is None
          and attacker.close_combat_weapons()):
        wm = attacker.any_attribute("Weapon Master")
        checks.append(Check("weapon_master", wm, "Weapon Master: fights with the hand weapon"
                            if wm else f"{attacker.name} must fight with its "
                            f"{attacker.close_combat_weapons()[0].name} (no Weapon Master)"))
        if wm:
            mods.append(Modifier("weapon master", "hand weapon chosen", "Weapon Master"))
    shot = _shot_of(attacker, weapon, attrs, situational) if shooting else None  # refused
    br = attrs.area_attack.bracketed if attrs.area_attack is not None else None
    b_attrs = _attrs((*attrs.names, *br.attributes)) if br is not None else None
    return Armed(attacker, situational, crush, weapon, weapon_label, shooting, attrs, off,
                 strength, ap, att, parts_unable, b_attrs, destroyed, tuple(checks),
                 tuple(mods), shot)


def _aim_of(weapon: WeaponView) -> tuple[RangeSpec, int, DiceSpec]:
    """A shooting weapon's range, aim and shots (refused when one is missing)."""
    reach = weapon.parsed.get("range")
    aim = weapon.parsed.get("aim")
    shots = weapon.parsed.get("shots", DiceSpec(1, 0))
    if not (isinstance(reach, RangeSpec) and isinstance(aim, int)
            and isinstance(shots, DiceSpec)):
        raise RulesError(f"shooting weapon {weapon.name!r} needs range, aim and shots")
    return reach, aim, shots


def build_plan(attacker: UnitView, target: UnitView, weapon_name: str | None,
               situation: Situation, situational: Mapping[str, Any]) -> Plan:
    """Checks, modifiers, counts and the per-attack profile of one attack."""
    return plan_against(arm(attacker, weapon_name, situational), target, situation)


def plan_against(armed: Armed, target: UnitView, situation: Situation) -> Plan:
    """``build_plan`` of an armed attacker against one target (never refused here)."""
    attacker, attrs, shooting = armed.attacker, armed.attrs, armed.shooting
    strength, ap = armed.strength, armed.ap
    checks = _target_checks(armed, target)
    mods: list[Modifier] = list(armed.modifiers)
    situ = dict(armed.situational)
    if armed.shot is not None:
        hit, n_att, shots, models = _shooting(attacker, target, armed.shot, attrs, situation,
                                              situ, checks, mods)
    else:
        hit, n_att = _close_combat(armed, target, situation, situ, checks, mods)
        shots, models = None, 0
    mods.extend(hit.modifiers)
    normal = hit_profile(attrs, strength, ap, target, not shooting)
    mods.extend(_save_modifiers(attrs, target, normal, not shooting, strength, ap))
    bracketed: HitProfile | None = None
    per_success = 1
    if attrs.area_attack is not None:
        aa = attrs.area_attack
        per_success, position, lines = _area(aa, shooting, target, situation)
        kind = "files" if position in ("left_flank", "right_flank") else "ranks"
        mods.append(Modifier("area attack", f"each hit becomes {per_success} hits",
                             f"{aa.per_rank}x{aa.ranks} on the {kind} {lines} "
                             f"({position.replace('_', ' ')})"))
        br = aa.bracketed
        if br is not None and armed.bracketed is not None:
            b_attrs = armed.bracketed
            b_str = br.strength if br.strength is not None else strength
            b_ap = br.ap if br.ap is not None else ap
            bracketed = hit_profile(b_attrs, b_str, b_ap, target, not shooting)
            mods.append(Modifier("area attack", "one hit uses the bracketed values",
                                 f"Str {b_str}, AP {b_ap}" + "".join(
                                     f", {a}" for a in br.attributes)))
    if attrs.battle_focus:
        mods.append(Modifier("battle focus", "a natural 6 scores one more hit", "Battle Focus"))
    if attrs.poison:
        mods.append(Modifier("poison attacks", "a natural 6 to hit wounds automatically",
                             "Poison Attacks"))
    profile = AttackProfile(
        hit_needed=hit.needed, reroll_failed_hits=hit.reroll_failed,
        battle_focus=attrs.battle_focus, poison=attrs.poison,
        hits_per_success=per_success, normal=normal, bracketed=bracketed,
    )
    return Plan("shooting" if shooting else "close_combat", armed.label, tuple(checks),
                tuple(mods), hit.table_row, profile, n_att, shots, models,
                target.hp, target.hp_lost, target.remaining_hp)


def _target_checks(armed: Armed, target: UnitView) -> list[Check]:
    """The first checks of every plan: an enemy, the attacker's own, the target stands,
    then the attacker's checks (``arm``)."""
    return [_ENEMY[armed.attacker.side != target.side], *armed.destroyed,
            _ALIVE[not target.destroyed], *armed.checks]


def _area(aa: AreaAttack, shooting: bool, target: UnitView, situation: Situation
          ) -> tuple[int, str, list[int]]:
    """An Area Attack's hits per success on the target, the position they are counted
    from (the arc when shooting, the engaged facing in close combat) and the target's
    ranks or files there."""
    position = (situation.arc if shooting else (situation.engaged_facing or "front"))
    lines = counts.area_lines(position, target.alive, target.files, target.round_base)
    return max(1, counts.area_hits(aa.per_rank, aa.ranks, lines)), position, lines


@dataclass(frozen=True)
class Verdict:
    """What ``plan_against`` decides, without the plan's modifiers and profile: its checks,
    and the size of the attack ``engine.check_size`` reads (``size_of`` of the plan)."""

    checks: tuple[Check, ...]
    valid: bool  # every check is met
    rolls: int  # attack rolls at most
    each: int  # hits one success makes at most
    most: int  # Health Points one hit takes at most


def size_of(plan: Plan) -> tuple[int, int, int]:
    """The attack rolls at most, the hits one success makes at most and the Health Points
    one hit takes at most of a plan (``Verdict.rolls``, ``each`` and ``most``)."""
    p = plan.profile
    rolls = plan.attacks
    if plan.shots is not None:
        rolls += plan.shooting_models * max(0, plan.shots.largest)
    most = max(min(h.hp_cap, max(1, h.wounds.largest))
               for h in (p.normal, p.bracketed) if h is not None)
    return rolls, p.hits_per_success + (1 if p.battle_focus else 0), most


def verdict_against(armed: Armed, target: UnitView, situation: Situation) -> Verdict:
    """The checks and the size of ``plan_against(armed, target, situation)`` from the same
    functions, without making its modifiers and profile (a target list needs no more)."""
    attrs = armed.attrs
    checks = _target_checks(armed, target)
    shot = armed.shot
    if shot is not None:
        checks.extend(shot.checks)
        _aim_checks(shot, situation, checks)
        needed = shot.aim + shooting_penalty(
            armed.attacker, target, attrs, shot.rng, situation, armed.situational, None)
        if needed >= CANNOT_HIT:
            checks.append(_CANNOT_HIT)
        shots = shot.shots
        rolls = shot.models * (shots.count + shots.bonus if shots.fixed
                               else max(0, shots.largest))
    else:
        checks.append(_IN_CONTACT[situation.engaged])
        rolls = _count(armed, situation, armed.situational).attacks
    per_success = 1
    most = min(target.hp, max(1, _wounds(attrs, target).largest))
    aa = attrs.area_attack
    if aa is not None:
        per_success = _area(aa, armed.shooting, target, situation)[0]
        if aa.bracketed is not None and armed.bracketed is not None:
            most = max(most, min(target.hp, max(1, _wounds(armed.bracketed, target).largest)))
    return Verdict(tuple(checks), all(c.ok for c in checks), rolls,
                   per_success + (1 if attrs.battle_focus else 0), most)


def valid_against(armed: Armed, target: UnitView, situation: Situation) -> bool:
    """``plan_against(armed, target, situation).valid``, without making the plan (its
    checks alone: ``verdict_against``; in close combat they read nothing but the sides,
    the units' state and base contact: the checks of ``plan_against`` and
    ``_close_combat``)."""
    if armed.shooting:
        return verdict_against(armed, target, situation).valid
    return (armed.attacker.side != target.side and not armed.destroyed
            and not target.destroyed and all(c.ok for c in armed.checks)
            and situation.engaged)


def _count(armed: Armed, situation: Situation, situational: Mapping[str, Any]
           ) -> counts.CloseCombatCount:
    """The models attacking and supporting in close combat, and their attacks."""
    attacker, attrs = armed.attacker, armed.attrs
    engaged = situation.engaged
    contact = situation.contact_models if engaged else min(attacker.files, attacker.alive)
    cc = counts.close_combat_count(
        contact=contact, alive=attacker.alive, files=attacker.files, att=armed.att,
        height_class=attacker.height_class, fight_in_extra_rank=attrs.fight_in_extra_rank,
        extra_support=attrs.extra_support,
        attacking_override=int(situational.get("attacking_models", -1)),
        supporting_override=int(situational.get("supporting_models", -1)))
    if armed.crush:
        cc = replace(cc, attacks_each=1, supporting_models=0)
    if armed.unable:
        cc = replace(cc, attacking_models=0, supporting_models=0)
    return cc


def _close_combat(armed: Armed, target: UnitView, situation: Situation,
                  situational: dict[str, Any], checks: list[Check], mods: list[Modifier]
                  ) -> tuple[ToHit, int]:
    attacker, attrs = armed.attacker, armed.attrs
    engaged = situation.engaged
    checks.append(_IN_CONTACT[engaged])
    cc = _count(armed, situation, situational)
    facing = (situation.engaged_facing or "front").replace("_", " ")
    why = ("given" if int(situational.get("attacking_models", -1)) >= 0 else
           f"front-rank models touching the {facing} facing"
           if engaged else "not in contact: the whole front rank assumed")
    mods.append(Modifier("attacks", f"{cc.attacking_models} models x {cc.attacks_each}", why))
    if cc.supporting_models:
        mods.append(Modifier("supporting attacks",
                             f"{cc.supporting_models} models x {cc.supporting_each}",
                             f"{cc.supporting_ranks} supporting rank(s)"
                             + (", Extra Support" if attrs.extra_support else "")))
    hit = close_combat_to_hit(attacker, target, attrs, armed.off, situation, situational)
    return hit, cc.attacks


def _shot_of(attacker: UnitView, weapon: WeaponView, attrs: Attributes,
             situational: Mapping[str, Any]) -> Shot:
    """The part of a shooting attack that reads no target (refused: ``_aim_of``)."""
    reach, aim, shots = _aim_of(weapon)
    moved = attacker.flag("moved", situational)
    marched = attacker.flag("marched", situational)
    sas = bool(situational.get("stand_and_shoot", False))
    checks: list[Check] = []
    mods: list[Modifier] = []
    if attrs.move_or_fire and (moved or marched):
        checks.append(Check("move_or_fire", False, "Move or Fire: the unit moved this turn"))
    if marched and not attrs.march_and_shoot:
        checks.append(Check("marched", False, "the unit marched this turn (no March and Shoot)"))
    if attrs.reload and sas:
        checks.append(Check("reload", False, "Reload!: not with a Stand and Shoot reaction"))
    ranks = NORMAL_SHOOTING_RANKS + attrs.shoot_in_extra_rank
    if (attrs.volley_fire and not sas and not moved and not marched
            and counts.line_formation(attacker.alive, attacker.files)):
        ranks += 1
        mods.append(Modifier("volley fire", "one more rank shoots",
                             "line formation, not moved"))
    unable = attacker.has("harnessed") or attacker.has("inanimate") or attrs.harnessed or (
        attrs.inanimate)
    models = 0 if unable else counts.shooting_models(
        attacker.alive, attacker.files, ranks, int(situational.get("attacking_models", -1)))
    mods.append(Modifier("shots", f"{models} models x {_dice_text(shots)}",
                         _shooting_ranks_text(ranks)))
    return Shot(reach.maximum, aim, shots, tuple(checks), models, tuple(mods))


def _aim_checks(shot: Shot, situation: Situation, checks: list[Check]) -> None:
    """The checks of a shot at one target: not in base contact, in range, visible."""
    if situation.engaged:
        checks.append(_SHOOTING_IN_CONTACT)
    d, rng = situation.distance, shot.rng
    checks.append(Check("range", d <= rng + 1e-9, f'in range: {d:.2f}" <= {rng:g}"'
                        if d <= rng + 1e-9 else f'out of range: {d:.2f}" > {rng:g}"',
                        d, rng, rng - d))
    checks.append(_VISIBLE[situation.visible])


def _shooting(attacker: UnitView, target: UnitView, shot: Shot, attrs: Attributes,
              situation: Situation, situational: dict[str, Any], checks: list[Check],
              mods: list[Modifier]) -> tuple[ToHit, int, DiceSpec | None, int]:
    checks.extend(shot.checks)
    _aim_checks(shot, situation, checks)
    mods.extend(shot.modifiers)
    hit = shooting_to_hit(attacker, target, attrs, shot.aim, shot.rng, situation, situational)
    if hit.needed >= CANNOT_HIT:
        checks.append(_CANNOT_HIT)
    shots, models = shot.shots, shot.models
    if shots.fixed:
        return hit, models * (shots.count + shots.bonus), None, models
    return hit, 0, shots, models


def _shooting_ranks_text(ranks: int) -> str:
    """Which ranks shoot, in words: the first and second normally; each Shoot in Extra
    Rank (or Volley Fire) adds the next one."""
    if ranks <= NORMAL_SHOOTING_RANKS:
        return "the first and second ranks shoot"
    extra = ranks - NORMAL_SHOOTING_RANKS
    return (f"the first {ranks} ranks shoot (first and second, and {extra} more from "
            f"Shoot in Extra Rank or Volley Fire)")


def _dice_text(d: DiceSpec) -> str:
    if d.fixed:
        return str(d.count + d.bonus)
    return f"{d.count if d.count > 1 else ''}D{d.sides}" + (f"{d.bonus:+d}" if d.bonus else "")
