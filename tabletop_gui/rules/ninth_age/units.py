"""Plain views of the two units and of the geometry between them.

``UnitView`` reads a unit (any ``Combatant`` plus its formation from the Board), so the
rules never import the scenario layer; ``Situation`` carries the geometric facts one
attack needs. Tests build both directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from tabletop_gui.rules.combatant import models_left
from tabletop_gui.rules.fields import ModifierSpec

HAND_WEAPON = "Hand Weapon"


@dataclass(frozen=True)
class WeaponView:
    """A weapon: its values as in the file and ``parsed``, the same values as the field
    kinds read them when the unit was loaded (``ModifierSpec``, ``RangeSpec``, ...)."""

    name: str
    values: Mapping[str, Any] = field(default_factory=dict)
    parsed: Mapping[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return str(self.values.get("kind", "close_combat"))

    @property
    def attributes(self) -> tuple[str, ...]:
        raw = self.values.get("attributes") or []
        return tuple(str(a) for a in raw)

    def number(self, key: str, own: float) -> int:
        """A characteristic the weapon sets (absolute or "+N"), else the unit's own."""
        v = self.parsed.get(key)
        return int(v.on(own)) if isinstance(v, ModifierSpec) else int(own)


@dataclass(frozen=True)
class UnitView:
    id: str
    name: str
    side: str
    characteristics: Mapping[str, float]
    traits: tuple[Any, ...] = ()
    weapons: tuple[WeaponView, ...] = ()
    state: Mapping[str, Any] = field(default_factory=dict)
    models: int = 1
    files: int = 1
    height_class: str = "standard"
    round_base: bool = False

    def char(self, key: str, default: int = 0) -> int:
        return int(self.characteristics.get(key, default))

    # read once per view (a plan reads them many times): a view is built for one question
    # and its unit's values do not change while it is asked
    @cached_property
    def hp(self) -> int:
        return max(1, self.char("hp", 1))

    @cached_property
    def hp_lost(self) -> int:
        return int(self.state.get("hp_lost", 0) or 0)

    @cached_property
    def remaining_hp(self) -> int:
        return max(0, self.models * self.hp - self.hp_lost)

    @cached_property
    def alive(self) -> int:
        return models_left(self.models, self.hp, self.hp_lost)

    @cached_property
    def destroyed(self) -> bool:
        return self.remaining_hp <= 0 or bool(self.state.get("taken_down", False))

    def has(self, trait: str) -> bool:
        for t in self.traits:
            if t == trait or (isinstance(t, Mapping) and trait in t):
                return True
        return False

    def trait_value(self, trait: str) -> Any:
        for t in self.traits:
            if isinstance(t, Mapping) and trait in t:
                return t[trait]
        return None

    def flag(self, key: str, situational: Mapping[str, Any]) -> bool:
        """A state flag (charging, moved, marched), also set by ``--set``."""
        return bool(self.state.get(key, False)) or bool(situational.get(key, False))

    def weapon(self, name: str) -> WeaponView | None:
        return next((w for w in self.weapons if w.name == name), None)

    def close_combat_weapons(self) -> list[WeaponView]:
        return [w for w in self.weapons if w.kind == "close_combat"]

    def fighting_weapon(self) -> WeaponView:
        """The weapon this unit fights with when attacked (its first close-combat weapon)."""
        cc = self.close_combat_weapons()
        return cc[0] if cc else WeaponView(HAND_WEAPON, {"kind": "close_combat"})

    def any_attribute(self, name: str) -> bool:
        low = name.lower()
        return any(a.strip().lower() == low for w in self.weapons for a in w.attributes)


@dataclass(frozen=True)
class Situation:
    """The geometry of one attack (from BoardGeometry, or given directly in tests)."""

    distance: float = 0.0
    engaged: bool = False
    engaged_facing: str | None = None  # close combat: the target's facing in contact
    arc: str = "front"  # shooting: the target's arc the attacker is Located in
    contact_models: int = 0
    visible: bool = True
    cover: str = "none"
    cover_by: tuple[str, ...] = ()
    cover_only_low_units: bool = False  # every cover_by is a unit no taller than the shooter
