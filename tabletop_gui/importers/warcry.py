"""Warcry rosters become fighters.

Each ``model``/``unit`` selection with a ``Model`` profile is a fighter (``number`` of
them): the Model profile's characteristics (Move, Toughness, Wounds), every ``Weapon``
profile in the selection or nested in its upgrades ("with X"): Range ``1`` or ``3-20``,
Attacks, Strength, Damage ``2/5``. Runemarks are the upgrade selections whose names
start with invisible characters (icon glyphs); they become traits, their names cleaned
(``Flying`` also gives the ruleset trait ``fly``). Warcry data carries no base size: it
comes from the fighter data library when one is loaded, else ``DEFAULT_BASE`` with a
warning.

The other Warcry-family rulesets read other characteristics (Fight, Defense...): a
profile characteristic counts when its name is one the ruleset declares. Their weapons
need a ``kind``: from a Kind or Type characteristic, else ranged beyond 3", melee
within (a warning says so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tabletop_gui.importers.roster import Roster, Selection, clean_name, starts_invisible
from tabletop_gui.importers.values import (
    Problems,
    characteristic,
    checked,
    not_used,
    number,
    range_value,
    unique_names,
)
from tabletop_gui.rules.fields import Declaration
from tabletop_gui.rules.registry import INFOS
from tabletop_gui.scenario.entities import Base, Fighter, RoundBase, Weapon

WARCRY_FAMILY = ("warcry", "fight-vs-defense", "mordheim-warcry")
DEFAULT_BASE = RoundBase(32.0)
MELEE_REACH = 3.0  # inches: a weapon reaching further is a ranged one (derived kinds)
ALIASES = {"defence": "defense", "armor": "armour", "movement": "move", "mv": "move"}
WEAPON_NAMES = {"rng": "range", "a": "attacks", "s": "strength", "d": "damage",
                "dmg": "damage", "type": "kind"}
FLYING = ("flying", "fly")

BaseLookup = Callable[[str], Base | None]


def _key(name: str, aliases: dict[str, str]) -> str:
    k = "_".join(name.strip().lower().split())
    return aliases.get(k, k)


def is_fighter(selection: Selection) -> bool:
    return selection.type in ("model", "unit") and any(
        p.type_name.lower() == "model" for p in selection.profiles)


def fighters_from_roster(roster: Roster, ruleset: str, bases: BaseLookup | None,
                         problems: Problems) -> list[Fighter]:
    """The roster's fighters (not yet placed: id, side and position are the caller's)."""
    decl = INFOS[ruleset].declaration
    out: list[Fighter] = []
    derived_kind = False
    for selection in _fighter_selections(roster, problems):
        made, derived = _fighter(selection, decl, ruleset, bases, problems)
        derived_kind = derived_kind or derived
        out.extend(made)
    if derived_kind:
        problems.warn("", f"{ruleset} weapons need a kind: those without one are ranged "
                          f"beyond {MELEE_REACH:g}\", melee within")
    names = unique_names(f.name for f in out)
    return [replace(f, name=n) for f, n in zip(out, names, strict=True)]


def _fighter_selections(roster: Roster, problems: Problems) -> list[Selection]:
    found: list[Selection] = []

    def visit(s: Selection, top: bool) -> None:
        if is_fighter(s):
            found.append(s)
            return
        inner = [c for c in s.descendants() if is_fighter(c)]
        if inner:
            for c in s.selections:
                visit(c, False)
        elif s.type in ("model", "unit"):
            problems.error(s.place, 'no "Model" profile: a fighter needs one (Move, '
                                    'Toughness, Wounds)')
        elif top:
            problems.warn(s.place, f"read but not used: {s.type or 'selection'} "
                                   f"{clean_name(s.name)!r} (not a fighter)")

    for s in roster.selections():
        visit(s, True)
    if not found and not problems.errors:
        problems.error("", "the roster has no fighters (no model selection with a "
                           '"Model" profile)')
    return found


def _fighter(selection: Selection, decl: Declaration, ruleset: str,
             bases: BaseLookup | None, problems: Problems) -> tuple[list[Fighter], bool]:
    place = selection.place
    unused: list[str] = []
    model = next(p for p in selection.profiles if p.type_name.lower() == "model")
    declared = {f.name: f for f in decl.characteristics}
    chars: dict[str, Any] = {}
    before = len(problems.errors)
    for name, text in model.characteristics.items():
        key = _key(name, ALIASES)
        spec = declared.get(key)
        if spec is None:
            unused.append(f"characteristic {name} {text}")
            continue
        got = characteristic(spec, name, text, model.place, problems, unused)
        if got is not None:
            chars[key] = got
    for spec in decl.characteristics:
        if spec.required and spec.name not in chars and not any(
                _key(n, ALIASES) == spec.name for n in model.characteristics):
            problems.error(model.place, f'the "Model" profile has no {spec.name.title()} '
                                        f"(needed by {ruleset})")
    weapons, derived = _weapons(selection, decl, ruleset, problems, unused)
    if decl.weapons_required and not weapons and len(problems.errors) == before:
        problems.error(place, 'no "Weapon" profile: a fighter needs at least one weapon')
    traits: list[str] = []
    for s in [selection, *selection.descendants()]:
        for p in s.profiles:
            if p.type_name.lower() not in ("model", "weapon"):
                unused.append(f'{p.type_name or "profile"} "{clean_name(p.name)}"')
        unused.extend(f"rule {r}" for r in s.rules)
        if s is not selection and starts_invisible(s.name) and clean_name(s.name):
            traits.append(clean_name(s.name))
    if any(t.lower() in FLYING for t in traits) and "fly" in decl.traits:
        traits.append("fly")
    not_used(problems, place, unused)
    if len(problems.errors) > before:
        return [], derived
    entry = clean_name(selection.name)
    base = bases(entry) if bases is not None else None
    if base is None:
        base = DEFAULT_BASE
        problems.warn(place, f"no base size for {entry!r} (Warcry data has none): "
                             f"{DEFAULT_BASE.diameter_mm:g} mm round assumed"
                             + ("" if bases is not None else
                                "; load fighter data with base sizes to use the real one"))
    fighter = Fighter(id="", name=selection.shown_name or entry, side="", x=0.0, y=0.0,
                      base=base, characteristics=chars, traits=tuple(dict.fromkeys(traits)),
                      weapons=tuple(weapons))
    return [fighter] * selection.number, derived


def _weapons(selection: Selection, decl: Declaration, ruleset: str, problems: Problems,
             unused: list[str]) -> tuple[list[Weapon], bool]:
    specs = {f.name: f for f in decl.weapon_fields}
    made: list[tuple[str, dict[str, Any]]] = []
    derived = False
    for s in [selection, *selection.descendants()]:
        for p in s.profiles:
            if p.type_name.lower() != "weapon":
                continue
            values: dict[str, Any] = {}
            for name, text in p.characteristics.items():
                key = _key(name, WEAPON_NAMES)
                spec = specs.get(key)
                if spec is None:
                    unused.append(f'weapon "{clean_name(p.name)}" {name} {text!r}')
                    continue
                raw = _weapon_raw(spec.kind, text)
                if raw is None:
                    problems.error(p.place, f"{name}: {text!r} is not a {spec.kind}")
                    continue
                got = checked(spec, raw, p.place, name, problems)
                if got is not None:
                    values[key] = got
            if "kind" in specs and "kind" not in values and "range" in values:
                rng = values["range"]
                reach = float(str(rng).rpartition("-")[2])
                values["kind"] = "ranged" if reach > MELEE_REACH else "melee"
                derived = True
            given = {_key(n, WEAPON_NAMES) for n in p.characteristics}
            missing = [f.name for f in decl.weapon_fields
                       if f.required and f.name not in values and f.name not in given]
            if len(values) < len([k for k in given if k in specs]):
                continue  # a value was refused (told)
            if missing:
                problems.error(p.place, f'the "Weapon" profile has no '
                                        f"{', '.join(m.title() for m in missing)} "
                                        f"(needed by {ruleset})")
                continue
            made.append((clean_name(p.name) or "Weapon", values))
    names = unique_names(n for n, _ in made)
    return [Weapon(n, v) for n, (_, v) in zip(names, made, strict=True)], derived


def _weapon_raw(kind: str, text: str) -> Any:
    if kind == "range":
        return range_value(text)
    if kind in ("int", "number", "die"):
        return number(text)
    if kind == "damage":
        return "".join(text.split())
    if kind == "enum":
        return text.strip().lower()
    if kind == "bool":
        return text.strip().lower() in ("yes", "true", "1", "x")
    return text.strip()
