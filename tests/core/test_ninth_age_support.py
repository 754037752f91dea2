"""Shared builders for the Ninth Age tests (no tests of its own)."""

from __future__ import annotations

from typing import Any

from tabletop_gui.rules.fields import read_values
from tabletop_gui.rules.ninth_age.build import Plan, build_plan
from tabletop_gui.rules.ninth_age.info import INFO
from tabletop_gui.rules.ninth_age.units import Situation, UnitView, WeaponView

BASE = {"adv": 4, "mar": 8, "dis": 7, "hp": 1, "def": 3, "res": 3, "arm": 0, "aegis": 0,
        "fortitude": 0, "att": 1, "off": 3, "str": 3, "ap": 0, "agi": 3}


def unit(uid: str = "a", side: str = "red", *, models: int = 10, files: int = 5,
         weapons: tuple[WeaponView, ...] = (), traits: tuple[Any, ...] = (),
         state: dict[str, Any] | None = None, height_class: str = "standard",
         round_base: bool = False, **chars: int) -> UnitView:
    return UnitView(uid, uid.upper(), side, {**BASE, **chars}, traits, weapons, state or {},
                    models, files, height_class, round_base)


def weapon_view(name: str, values: dict[str, Any]) -> WeaponView:
    """A weapon as the loader gives it to the engine: its values read by the field kinds."""
    return WeaponView(name, values, read_values(INFO.declaration.weapon_fields, values))


def cc(name: str = "Sword", *attributes: str, **values: Any) -> WeaponView:
    return weapon_view(name, {"kind": "close_combat", "attributes": list(attributes), **values})


def bow(name: str = "Bow", *attributes: str, range: float = 24, aim: int = 4,
        shots: Any = 1, **values: Any) -> WeaponView:
    return weapon_view(name, {"kind": "shooting", "range": range, "aim": aim, "shots": shots,
                              "attributes": list(attributes), **values})


def melee(attacker: UnitView, target: UnitView, weapon: str | None = None, *,
          facing: str = "front", contact: int = 5, **situational: Any) -> Plan:
    s = Situation(engaged=True, engaged_facing=facing, contact_models=contact, arc=facing)
    return build_plan(attacker, target, weapon, s, situational)


def shoot(attacker: UnitView, target: UnitView, weapon: str | None = None, *,
          distance: float = 6.0, arc: str = "front", cover: str = "none",
          visible: bool = True, low_units: bool = False, **situational: Any) -> Plan:
    s = Situation(distance=distance, arc=arc, visible=visible, cover=cover,
                  cover_by=("w1",) if cover != "none" else (), cover_only_low_units=low_units)
    return build_plan(attacker, target, weapon, s, situational)


def mods(plan: Plan) -> set[str]:
    return {m.name for m in plan.modifiers}


def reasons(plan: Plan) -> list[str]:
    return [c.text for c in plan.checks if not c.ok]
