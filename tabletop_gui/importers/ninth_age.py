"""The Ninth Age (2nd edition) rosters become units.

A unit selection (or a character, a top-level model selection) becomes one unit:

- characteristics from its profiles ``1 Global`` (Adv, Mar, Dis), ``2 Defensive`` (HP,
  Def, Res, Arm) and ``3 Offensive`` (Att, Off, Str, AP, Agi), taken from the unit's own
  profiles or from its model selection with the most models (a second ``3 Offensive``
  profile, a rider or crew, is named in a warning);
- Arm plus the Save of every ``4 Armour`` profile of its equipment; a Shield gives the
  ``shield`` trait instead (the ruleset adds its +1 where a shield counts);
- ``Aegis (X+)``, ``Fortitude (X+)`` and ``Aegis (X+, against Magical Attacks)`` among
  the defensive rules become characteristics and the valued trait; Hard Target,
  Flammable, Distracting, Fly, Harnessed and Inanimate become traits;
- ``0 Size``: Height (Standard, Large, Gigantic) the height class, Type a trait
  (``infantry``...), Base ``20×20`` the base (width × depth) or ``60Ø`` a round base;
- ``5 Melee Weapon`` (Str and AP ``As User``, ``+N`` or absolute) and ``6 Ranged
  Weapon`` (Range, Shots, Str, AP, Aim when given) are its weapons; their Attributes are
  read with the ruleset's attribute parser; attack attributes among the model's
  offensive rules (Lightning Reflexes, Hatred...) go to its close-combat weapons;
- the model count is the sum of its child model selections (else its own number); the
  formation is ``files`` wide (``formation_files``).

Everything else read (rules, artefacts, prose the parser does not know) is named in one
warning per unit; a value filled in (a ranged weapon's Aim) is a warning too.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import Any, Literal, cast

from tabletop_gui.importers.roster import Profile, Roster, Selection, clean_name
from tabletop_gui.importers.values import (
    Problems,
    characteristic,
    checked,
    not_used,
    number,
    plain,
    unique_names,
)
from tabletop_gui.rules.fields import KINDS, FieldSpec
from tabletop_gui.rules.ninth_age.attributes import (
    AttributeParseError,
    parse_attributes,
    split_attributes,
)
from tabletop_gui.rules.ninth_age.info import INFO
from tabletop_gui.scenario.entities import Unit, Weapon

RULESET = "ninth-age"
DEFAULT_AIM = 4
#: shots as the "dice" kind reads them, before the ruleset's bound (which the loader tells)
ANY_DICE = FieldSpec("shots", "dice")
PROFILE_CHARS = {
    "global": {"adv": "adv", "mar": "mar", "dis": "dis"},
    "defensive": {"hp": "hp", "def": "def", "res": "res", "arm": "arm"},
    "offensive": {"att": "att", "off": "off", "str": "str", "ap": "ap", "agi": "agi"},
}
RULE_TRAITS = {"hard target": "hard_target", "flammable": "flammable",
               "distracting": "distracting", "fly": "fly", "harnessed": "harnessed",
               "inanimate": "inanimate"}
HEIGHTS = ("standard", "large", "gigantic")
_SPECIAL_SAVE = re.compile(r"^(aegis|fortitude)\s*\(\s*(\d)\s*\+?\s*(,\s*(.*))?\)$", re.I)
_BASE = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:[x×X*]\s*(\d+(?:\.\d+)?))?\s*(mm)?\s*([ØøO⌀])?"
                   r"\s*(mm)?$")


def kind_of(profile: Profile) -> str:
    """``5 Melee Weapon`` -> ``melee weapon``."""
    return re.sub(r"^\d+\s*", "", profile.type_name).strip().lower().replace("armor", "armour")


def is_unit(selection: Selection) -> bool:
    return selection.type in ("unit", "model") and any(
        kind_of(p) == "defensive" for p in [*selection.profiles, *_model_profiles(selection)])


def _model_profiles(selection: Selection) -> list[Profile]:
    return [p for s in selection.descendants() if s.type == "model" for p in s.profiles]


def formation_files(models: int) -> int:
    """A sensible width: 5 files up to 25 models, then 5 ranks deep (at most 10 files)."""
    if models <= 5:
        return models
    if models <= 25:
        return 5
    return min(10, math.ceil(models / 5))


def units_from_roster(roster: Roster, problems: Problems) -> list[Unit]:
    out: list[Unit] = []
    found = False
    for s in roster.selections():
        if is_unit(s):
            found = True
            unit = _unit(s, problems)
            if unit is not None:
                out.append(unit)
        elif s.type in ("unit", "model"):
            problems.error(s.place, 'no "2 Defensive" profile: a unit needs its "1 Global", '
                                    '"2 Defensive" and "3 Offensive" profiles')
        else:
            problems.warn(s.place, f"read but not used: {s.type or 'selection'} "
                                   f"{clean_name(s.name)!r} (not a unit)")
    if not found and not problems.errors:
        problems.error("", 'the roster has no units (no unit selection with a "2 Defensive" '
                           "profile)")
    names = unique_names(u.name for u in out)
    return [replace(u, name=n) for u, n in zip(out, names, strict=True)]


def _profile_source(selection: Selection) -> tuple[list[Profile], list[Selection], int]:
    """The profiles describing the models, the model selections, and the model count."""
    models = [s for s in selection.selections if s.type == "model"]
    count = sum(s.number for s in models) if models else selection.number
    own = [p for p in selection.profiles if kind_of(p) in PROFILE_CHARS or kind_of(p) == "size"]
    if any(kind_of(p) == "defensive" for p in own) or not models:
        return own, models, count
    main = max((s for s in models if any(kind_of(p) == "defensive" for p in s.profiles)),
               key=lambda s: s.number, default=models[0])
    return [p for p in main.profiles if kind_of(p) in PROFILE_CHARS or kind_of(p) == "size"
            ] + [p for p in own if kind_of(p) == "size"], models, count


def _unit(selection: Selection, problems: Problems) -> Unit | None:
    before = len(problems.errors)
    place = selection.place
    decl = INFO.declaration
    specs = {f.name: f for f in decl.characteristics}
    unused: list[str] = []
    profiles, _models, count = _profile_source(selection)
    chars: dict[str, Any] = {}
    traits: list[Any] = []
    model_rules: list[tuple[str, str]] = []  # (profile kind, rule text)
    seen_kinds: set[str] = set()
    refused: set[str] = set()
    for p in profiles:
        kind = kind_of(p)
        if kind in seen_kinds:
            if kind != "size":
                unused.append(f'{p.type_name} "{clean_name(p.name)}" (another model part)')
            continue
        seen_kinds.add(kind)
        if kind == "size":
            continue
        for name, text in p.characteristics.items():
            key = PROFILE_CHARS[kind].get(name.strip().lower())
            if name.strip().lower() == "rules":
                model_rules += [(kind, r) for r in split_attributes(text) if r.strip()]
                continue
            if key is None:
                unused.append(f"{p.type_name} {name} {text!r}")
                continue
            got = characteristic(specs[key], name, text, p.place, problems, unused)
            if got is None:
                refused.add(key)
            else:
                chars[key] = got
    for kind, names in PROFILE_CHARS.items():
        if kind not in seen_kinds:
            problems.error(place, f'no "{_number_of(kind)} {kind.title()}" profile (needed '
                                  f"for {', '.join(n.title() for n in names)})")
            continue
        for key in names.values():
            if specs[key].required and key not in chars and key not in refused:
                problems.error(place, f'the "{_number_of(kind)} {kind.title()}" profile has '
                                      f"no {key.title()}")
    size = next((p for p in profiles if kind_of(p) == "size"), None)
    formation = _formation(size, count, place, problems, traits)
    equipment = _equipment(selection, problems, unused)
    chars["arm"] = chars.get("arm", 0) + equipment.armour
    traits += equipment.traits
    cc_attributes: list[str] = []
    for kind, rule in model_rules:
        handled = _model_rule(kind, rule, chars, traits, cc_attributes)
        if not handled:
            unused.append(f"rule {rule}")
    weapons = _ordered_weapons(equipment.weapons, cc_attributes)
    for s in [selection, *selection.descendants()]:
        unused.extend(f"rule {r}" for r in s.rules)
    not_used(problems, place, unused)
    for w in equipment.aim_filled:
        problems.warn(place, f'{w}: the roster gives no Aim: {DEFAULT_AIM}+ assumed')
    if len(problems.errors) > before or formation is None:
        return None
    return Unit(id="", name=selection.shown_name, side="", x=0.0, y=0.0,
                characteristics=chars, traits=tuple(_dedupe(traits)), weapons=tuple(weapons),
                **formation)


def _number_of(kind: str) -> str:
    return {"global": "1", "defensive": "2", "offensive": "3"}[kind]


def _dedupe(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for t in items:
        if t not in out:
            out.append(t)
    return out


def _model_rule(kind: str, rule: str, chars: dict[str, Any], traits: list[Any],
                cc_attributes: list[str]) -> bool:
    text = " ".join(rule.split())
    low = text.lower()
    m = _SPECIAL_SAVE.match(text)
    if m:
        which, value, rest = m.group(1).lower(), int(m.group(2)), (m.group(4) or "").lower()
        if which == "aegis" and "magic" in rest:
            traits.append({"aegis_vs_magical": value})
            return True
        if not rest:
            chars[which] = value
            return True
        return False
    base = re.sub(r"\s*\(.*\)\s*$", "", low)
    if base in RULE_TRAITS:
        traits.append(RULE_TRAITS[base])
        if base in ("harnessed", "inanimate"):
            cc_attributes.append(text)
        return True
    if kind == "offensive" and _known_attribute(text):
        cc_attributes.append(text)
        return True
    return False


def _known_attribute(text: str) -> bool:
    try:
        return not parse_attributes([text]).unknown
    except AttributeParseError:
        return False


class _Equipment:
    def __init__(self) -> None:
        self.armour = 0
        self.traits: list[str] = []
        self.weapons: list[tuple[str, dict[str, Any]]] = []
        self.aim_filled: list[str] = []


def _equipment(selection: Selection, problems: Problems, unused: list[str]) -> _Equipment:
    """Armour, shields and weapons of the unit's equipment (each profile name once)."""
    eq = _Equipment()
    seen: set[tuple[str, str]] = set()
    specs = {f.name: f for f in INFO.declaration.weapon_fields}
    for s in [selection, *selection.descendants()]:
        for p in s.profiles:
            kind = kind_of(p)
            key = (kind, clean_name(p.name))
            if kind in PROFILE_CHARS or kind == "size" or key in seen:
                continue
            seen.add(key)
            if kind == "armour":
                _armour(p, eq, problems)
            elif kind in ("melee weapon", "ranged weapon"):
                weapon = _weapon(p, kind, specs, problems, unused, eq)
                if weapon is not None:
                    eq.weapons.append(weapon)
            else:
                unused.append(f'{p.type_name or "profile"} "{clean_name(p.name)}"')
    return eq


def _armour(p: Profile, eq: _Equipment, problems: Problems) -> None:
    name = clean_name(p.name)
    kind = p.characteristics.get("Type", "")
    if "shield" in f"{name} {kind}".lower():
        eq.traits.append("shield")
        return
    save = plain(p.characteristics.get("Save", ""))
    m = re.match(r"^\+?(\d+)$", save)
    if not m:
        problems.error(p.place, f"Save: {save!r} is not an armour bonus such as +2")
        return
    eq.armour += int(m.group(1))


def _weapon(p: Profile, kind: str, specs: dict[str, FieldSpec], problems: Problems,
            unused: list[str], eq: _Equipment) -> tuple[str, dict[str, Any]] | None:
    name = clean_name(p.name) or "Weapon"
    chars = {k.strip().lower(): v for k, v in p.characteristics.items()}
    values: dict[str, Any] = {"kind": "close_combat" if kind == "melee weapon" else "shooting"}
    for field_name, key in (("str", "strength"), ("ap", "ap")):
        text = chars.get(field_name, "").strip()
        if not text or text.lower() in ("as user", "-", "user"):
            continue
        modifier = plain(text)
        raw: Any = modifier if modifier.startswith(("+", "-")) else number(modifier)
        got = checked(specs[key], raw if raw is not None else text, p.place,
                      field_name.title(), problems)
        if isinstance(got, float) and got.is_integer():
            got = int(got)
        if got is not None:
            values[key] = got
    if kind == "ranged weapon":
        rng = number(chars.get("range", ""))
        if rng is None:
            problems.error(p.place, f"Range: {chars.get('range', '')!r} is not a number "
                                    "of inches")
        else:
            values["range"] = checked(specs["range"], rng, p.place, "Range", problems)
        shots = plain(chars.get("shots", "1")) or "1"
        try:
            raw_shots = int(shots) if shots.isdigit() else shots
            KINDS["dice"].read(ANY_DICE, raw_shots)  # its bound is the loader's, told there
            values["shots"] = raw_shots
        except Exception:  # noqa: BLE001 - FieldError or a bad number: told the same way
            problems.error(p.place, f"Shots: {shots!r} is not a number or dice such as D3")
        aim = number(chars.get("aim", ""))
        if aim is None:
            eq.aim_filled.append(name)
            aim = DEFAULT_AIM
        values["aim"] = checked(specs["aim"], aim, p.place, "Aim", problems)
    attributes: list[str] = []
    for piece in split_attributes(chars.get("attributes", "")):
        if _known_attribute(piece):
            attributes.append(piece)
        elif piece.strip():
            unused.append(f'weapon "{name}" attribute {piece[:60]!r}')
    if attributes:
        values["attributes"] = attributes
    for k in chars:
        if k not in ("str", "ap", "range", "shots", "aim", "attributes"):
            unused.append(f'weapon "{name}" {k.title()} {chars[k]!r}')
    return name, values


def _ordered_weapons(weapons: list[tuple[str, dict[str, Any]]],
                     cc_attributes: list[str]) -> list[Weapon]:
    """Close-combat weapons first (the unit fights with the first), a Hand Weapon after
    the others; the model's attack attributes added to every close-combat weapon (to an
    explicit Hand Weapon when it carries none)."""
    close = [w for w in weapons if w[1]["kind"] == "close_combat"]
    hand = [w for w in close if w[0].lower() == "hand weapon"]
    other = [w for w in close if w not in hand]
    shooting = [w for w in weapons if w[1]["kind"] == "shooting"]
    if cc_attributes and not close:
        hand = [("Hand Weapon", {"kind": "close_combat"})]
    ordered = [*other, *hand, *shooting]
    names = unique_names(n for n, _ in ordered)
    out: list[Weapon] = []
    for n, (_, values) in zip(names, ordered, strict=True):
        if values["kind"] == "close_combat" and cc_attributes:
            values = {**values, "attributes": list(dict.fromkeys(
                [*values.get("attributes", []), *cc_attributes]))}
        out.append(Weapon(n, values))
    return out


def _formation(size: Profile | None, count: int, place: str, problems: Problems,
               traits: list[Any]) -> dict[str, Any] | None:
    if size is None:
        problems.error(place, 'no "0 Size" profile (needed for the base and height)')
        return None
    chars = {k.strip().lower(): v for k, v in size.characteristics.items()}
    height = chars.get("height", "").strip().lower()
    if height not in HEIGHTS:
        problems.error(size.place, f"Height: {chars.get('height', '')!r} is not Standard, "
                                   "Large or Gigantic")
        return None
    kind = "_".join(chars.get("type", "").strip().lower().split())
    if kind:
        traits.append(kind)
    base_text = " ".join(chars.get("base", "").split())
    m = _BASE.match(base_text)
    if not m or (m.group(2) is None and m.group(4) is None):
        problems.error(size.place, f'Base: {base_text!r} is not a base such as "20×20" or '
                                   '"60Ø"')
        return None
    width = float(m.group(1))
    depth = float(m.group(2)) if m.group(2) is not None else width
    if not (0 < width <= 1000 and 0 < depth <= 1000):
        problems.error(size.place, f"Base: {base_text!r} is not a sensible size in mm")
        return None
    if count < 1:
        problems.error(place, "the unit has no models")
        return None
    round_base = m.group(4) is not None and count == 1
    if m.group(4) is not None and count > 1:
        problems.warn(place, f"round {base_text} bases in a unit of {count}: placed as "
                             "square bases")
    files = 1 if round_base else formation_files(count)
    return {"models": count, "files": files, "base_mm": (width, depth),
            "round_base": round_base,
            "height_class": cast(Literal["standard", "large", "gigantic"], height)}
