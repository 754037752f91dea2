"""Weapon profiles of the Warcry family, read from a combatant's weapons."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop_gui.rules.base import Combatant, RulesError
from tabletop_gui.rules.fields import DamageSpec, RangeSpec
from tabletop_gui.rules.warcry_family.fields import MAX_ATTACKS


@dataclass(frozen=True)
class Profile:
    """The numbers of one weapon (fields a ruleset does not use keep their defaults)."""

    name: str
    range: RangeSpec
    attacks: int
    damage: DamageSpec
    strength: int = 0
    kind: str = ""  # "melee" / "ranged" where the weapon says so
    piercing: int = 0
    parry: bool = False


def _int(values: Any, key: str, default: int | None, where: str) -> int:
    v = values.get(key, default)
    if v is None:
        raise RulesError(f"{where}: missing {key}")
    if isinstance(v, bool) or not isinstance(v, int | float) or not float(v).is_integer():
        raise RulesError(f"{where}: {key} must be a whole number, not {v!r}")
    return int(v)


def parsed_field(weapon: Any, key: str, kind: type[Any], where: str) -> Any:
    """A weapon field as the loader read it (``Weapon.parsed``); a weapon without it (made
    by code without reading it against the ruleset) is refused with the place named."""
    value = weapon.parsed.get(key)
    if not isinstance(value, kind):
        if key not in weapon.values:
            raise RulesError(f"{where}: missing {key}")
        raise RulesError(f"{where}: {key} {weapon.values[key]!r} was not read by the ruleset's "
                         f"field kinds (load the weapon, or make it with Weapon.read)")
    return value


def profile_of(weapon: Any, owner: str) -> Profile:
    """A weapon's numbers from its parsed values; missing data is refused with the place
    named."""
    values = weapon.values
    where = f"{owner} weapon {weapon.name!r}"
    rng = parsed_field(weapon, "range", RangeSpec, where)
    dmg = parsed_field(weapon, "damage", DamageSpec, where)
    attacks = _int(values, "attacks", None, where)
    if attacks > MAX_ATTACKS:
        raise RulesError(f"{where}: attacks must be at most {MAX_ATTACKS}")
    kind = values.get("kind", "")
    if not isinstance(kind, str):
        raise RulesError(f"{where}: kind must be a string")
    parry = values.get("parry", False)
    return Profile(
        name=str(weapon.name),
        range=rng,
        attacks=attacks,
        damage=dmg,
        strength=_int(values, "strength", 0, where),
        kind=kind,
        piercing=_int(values, "piercing", 0, where),
        parry=bool(parry),
    )


def find_weapon(combatant: Combatant, name: str) -> Any:
    for w in combatant.weapons:
        if w.name == name:
            return w
    names = ", ".join(w.name for w in combatant.weapons) or "none"
    raise RulesError(f"{combatant.id} has no weapon {name!r} (its weapons: {names})")


def weapon_names(combatant: Combatant) -> list[str]:
    return [str(w.name) for w in combatant.weapons]
