"""Attack Attributes of The Ninth Age, parsed from a weapon's ``attributes`` list.

Names follow the rulebook's form, case-insensitive, parameters in brackets:
``"Area Attack (3x3)"``, ``"Multiple Wounds (D3)"``, ``"Multiple Wounds (2, Clipped Wings)"``,
``"Devastating Charge (+1 Strength, Poison Attacks)"``, ``"Extra Support (2)"``.

Choices where the page leaves the data form open (documented for players):

- An Area Attack's bracketed single hit is written after the size in square brackets:
  ``"Area Attack (1x3) [Strength 7, Armour Penetration 4, Multiple Wounds (D3)]"``
  (``Str``/``AP`` short forms accepted; values are absolute).
- Devastating Charge items ``+N <characteristic>`` change Strength, Armour Penetration,
  Offensive Skill, Attack Value or Agility; every other item is an attribute gained.
- ``Great Weapon`` and ``Parry`` are weapon rules read by Lightning Reflexes and by the
  to-hit of a defender; they are accepted alongside the 28 attributes.
- An unknown name is kept in ``unknown`` and reported as a modifier that was ignored.

Numbers are ASCII digits (``"Extra Support (²)"`` is refused, not read as 2), from 1 to
``MAX_NUMBER`` (Area Attack sizes, Extra Support), 0 to ``MAX_NUMBER`` (bracketed
Strength and AP) or up to ``MAX_NUMBER`` either way (Devastating Charge changes);
Multiple Wounds takes the dice of ``rules.fields.parse_dice``. An attribute is at most
``MAX_LENGTH`` characters, and attributes inside brackets (an Area Attack's bracketed
hit, what a Devastating Charge gives) are parsed too, at most ``MAX_NESTING`` deep: an
attribute list that parses once parses again wherever the engine merges it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from tabletop_gui.rules.fields import DiceSpec, FieldError, parse_dice, whole_number

FLAGS: dict[str, str] = {
    "accurate": "accurate",
    "battle focus": "battle_focus",
    "crush attack": "crush_attack",
    "divine attacks": "divine",
    "flaming attacks": "flaming",
    "harnessed": "harnessed",
    "inanimate": "inanimate",
    "hatred": "hatred",
    "lethal strike": "lethal_strike",
    "lightning reflexes": "lightning_reflexes",
    "magical attacks": "magical",
    "march and shoot": "march_and_shoot",
    "move or fire": "move_or_fire",
    "poison attacks": "poison",
    "quick to fire": "quick_to_fire",
    "reload!": "reload",
    "reload": "reload",
    "steady aim": "steady_aim",
    "toxic attacks": "toxic",
    "two-handed": "two_handed",
    "two handed": "two_handed",
    "unwieldy": "unwieldy",
    "volley fire": "volley_fire",
    "weapon master": "weapon_master",
    "great weapon": "great_weapon",
    "parry": "parry",
}
COUNTED = {
    "fight in extra rank": "fight_in_extra_rank",
    "shoot in extra rank": "shoot_in_extra_rank",
}

CHARACTERISTIC_NAMES: dict[str, str] = {
    "strength": "str", "str": "str",
    "armour penetration": "ap", "armor penetration": "ap", "ap": "ap",
    "offensive skill": "off", "off": "off",
    "attack value": "att", "attacks": "att", "att": "att",
    "agility": "agi", "agi": "agi",
}

_CALL = re.compile(r"^\s*([^()\[\]]+?)\s*(?:\((.*?)\))?\s*(?:\[(.*)\])?\s*$", re.ASCII)
_SIZE = re.compile(r"^\s*(\d+)\s*[x×X*]\s*(\d+)\s*$", re.ASCII)
_CHANGE = re.compile(r"^\s*([+-])\s*(\d+)\s+(.+?)\s*$", re.ASCII)
_SET = re.compile(r"^\s*(.+?)\s+(\S+)\s*$", re.ASCII)
#: Largest number an attribute takes; longest attribute; deepest brackets in brackets.
MAX_NUMBER = 100
MAX_LENGTH = 200
MAX_NESTING = 4


class AttributeParseError(ValueError):
    """An attribute whose parameters cannot be read (the message says which)."""


@dataclass(frozen=True)
class MultipleWounds:
    dice: DiceSpec
    clipped_wings: bool = False

    def text(self) -> str:
        d = self.dice
        core = str(d.count + d.bonus) if d.fixed else (
            f"{d.count if d.count > 1 else ''}D{d.sides}" + (f"+{d.bonus}" if d.bonus else ""))
        return core + (", Clipped Wings" if self.clipped_wings else "")


@dataclass(frozen=True)
class Bracketed:
    """The single hit of an Area Attack that uses bracketed values."""

    strength: int | None = None
    ap: int | None = None
    attributes: tuple[str, ...] = ()


@dataclass(frozen=True)
class AreaAttack:
    per_rank: int  # X: hits on each rank/file
    ranks: int  # Y: ranks or files
    bracketed: Bracketed | None = None


@dataclass(frozen=True)
class DevastatingCharge:
    changes: tuple[tuple[str, int], ...]  # (characteristic key, +N)
    attributes: tuple[str, ...]


@dataclass(frozen=True)
class Attributes:
    """Everything the attack's attributes switch on."""

    accurate: bool = False
    battle_focus: bool = False
    crush_attack: bool = False
    divine: bool = False
    flaming: bool = False
    harnessed: bool = False
    inanimate: bool = False
    hatred: bool = False
    lethal_strike: bool = False
    lightning_reflexes: bool = False
    magical: bool = False
    march_and_shoot: bool = False
    move_or_fire: bool = False
    poison: bool = False
    quick_to_fire: bool = False
    reload: bool = False
    steady_aim: bool = False
    toxic: bool = False
    two_handed: bool = False
    unwieldy: bool = False
    volley_fire: bool = False
    weapon_master: bool = False
    great_weapon: bool = False
    parry: bool = False
    fight_in_extra_rank: int = 0
    shoot_in_extra_rank: int = 0
    extra_support: int | None = None
    area_attack: AreaAttack | None = None
    multiple_wounds: MultipleWounds | None = None
    devastating_charge: tuple[DevastatingCharge, ...] = ()
    names: tuple[str, ...] = ()
    unknown: tuple[str, ...] = field(default=())


def split_attributes(text: str) -> list[str]:
    """Split on commas that are not inside brackets."""
    parts: list[str] = []
    depth = 0
    cur = ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def _dice(text: str, where: str) -> DiceSpec:
    try:
        return parse_dice(text.strip())
    except FieldError as e:
        raise AttributeParseError(f"{where}: {e}") from None


def _number(text: str, where: str, what: str, least: int) -> int:
    """A whole number in ASCII digits from ``least`` to MAX_NUMBER, else the error."""
    n = whole_number(text)
    if n is None or not least <= n <= MAX_NUMBER:
        raise AttributeParseError(f"{where}: {what} takes a whole number from {least} to "
                                  f"{MAX_NUMBER}, not {text.strip()!r}")
    return n


def _bracketed(text: str, where: str, depth: int) -> Bracketed:
    strength: int | None = None
    ap: int | None = None
    attrs: list[str] = []
    for item in split_attributes(text):
        m = _SET.match(item)
        key = CHARACTERISTIC_NAMES.get(m.group(1).strip().lower()) if m else None
        if m and key == "str":
            strength = _number(m.group(2), where, "a bracketed Strength", 0)
        elif m and key == "ap":
            ap = _number(m.group(2), where, "a bracketed Armour Penetration", 0)
        else:
            attrs.append(item)
    _parse(attrs, depth + 1)  # what the engine merges in later must parse now
    return Bracketed(strength, ap, tuple(attrs))


def _devastating(param: str, where: str, depth: int) -> DevastatingCharge:
    changes: list[tuple[str, int]] = []
    gained: list[str] = []
    for item in split_attributes(param):
        c = _CHANGE.match(item)
        key = CHARACTERISTIC_NAMES.get(c.group(3).lower()) if c else None
        if c and key:
            n = _number(c.group(2), where, "a Devastating Charge change", 0)
            changes.append((key, -n if c.group(1) == "-" else n))
        elif item.lstrip()[:1] in ("+", "-"):
            raise AttributeParseError(f"{where}: {item!r} is not a change such as "
                                      "+1 Strength (Strength, Armour Penetration, Offensive "
                                      "Skill, Attack Value or Agility)")
        else:
            gained.append(item)
    _parse(gained, depth + 1)  # the attributes gained when charging must parse now
    return DevastatingCharge(tuple(changes), tuple(gained))


def parse_attributes(names: Iterable[str]) -> Attributes:
    """Parse a weapon's attribute names; raises AttributeParseError on bad parameters
    (also of the attributes inside brackets)."""
    return _parse(names, 0)


def check_attributes(value: object) -> object:
    """The loader's reading of a weapon's ``attributes``: exactly the engine's, each
    item on its own, so that a refusal names the item (FieldError with ``at``); the
    list itself is the typed value."""
    if not isinstance(value, list):
        return value
    for i, raw in enumerate(value):
        try:
            parse_attributes([raw])
        except AttributeParseError as e:
            raise FieldError(str(e), at=f"[{i}]") from None
    return value


def _parse(names: Iterable[str], depth: int) -> Attributes:
    values: dict[str, object] = {}
    counts = {"fight_in_extra_rank": 0, "shoot_in_extra_rank": 0}
    dev: list[DevastatingCharge] = []
    unknown: list[str] = []
    kept: list[str] = []
    for raw in names:
        kept.append(raw)
        where = f"attribute {raw!r}" if len(raw) <= 60 else f"attribute {raw[:60]!r}..."
        if len(raw) > MAX_LENGTH:
            raise AttributeParseError(f"{where}: longer than {MAX_LENGTH} characters")
        if depth > MAX_NESTING:
            raise AttributeParseError(f"{where}: attributes nested more than {MAX_NESTING} "
                                      "deep")
        m = _CALL.match(raw)
        if not m:
            unknown.append(raw)
            continue
        name = m.group(1).strip().lower()
        param = m.group(2)
        if name in FLAGS and param is None:
            values[FLAGS[name]] = True
        elif name in COUNTED:
            counts[COUNTED[name]] += 1
        elif name == "extra support" and param is not None:
            values["extra_support"] = _number(param, where, "Extra Support", 1)
        elif name == "area attack" and param is not None:
            size = _SIZE.match(param)
            if not size:
                raise AttributeParseError(f"{where}: needs a size such as (3x3)")
            per_rank = _number(size.group(1), where, "an Area Attack size", 1)
            ranks = _number(size.group(2), where, "an Area Attack size", 1)
            br = _bracketed(m.group(3), where, depth) if m.group(3) else None
            values["area_attack"] = AreaAttack(per_rank, ranks, br)
        elif name == "multiple wounds" and param is not None:
            parts = [p.strip() for p in param.split(",")]
            clipped = any(p.lower() == "clipped wings" for p in parts[1:])
            wounds = _dice(parts[0], where)
            if wounds.largest > MAX_NUMBER:
                raise AttributeParseError(f"{where}: Multiple Wounds of at most {MAX_NUMBER}, "
                                          f"not up to {wounds.largest}")
            values["multiple_wounds"] = MultipleWounds(wounds, clipped)
        elif name == "devastating charge" and param is not None:
            dev.append(_devastating(param, where, depth))
        else:
            unknown.append(raw)
    return Attributes(
        **values,  # type: ignore[arg-type]
        fight_in_extra_rank=counts["fight_in_extra_rank"],
        shoot_in_extra_rank=counts["shoot_in_extra_rank"],
        devastating_charge=tuple(dev),
        names=tuple(kept),
        unknown=tuple(unknown),
    )
