"""Scenario builders for the Warcry-family rules tests (1" round bases: 25.4 mm)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop_gui.rules.base import AttackRequest, Battle
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import (
    Battlefield,
    Fighter,
    Obstacle,
    Platform,
    RoundBase,
    Scenario,
    Side,
    Weapon,
)

INCH_BASE = RoundBase(25.4)


def weapon(name: str, **values: Any) -> Weapon:
    return Weapon(name, dict(values))


def wc_weapon(name: str = "Sword", range: Any = 1, attacks: int = 4, strength: int = 4,
              damage: str = "1/3") -> Weapon:
    return weapon(name, range=range, attacks=attacks, strength=strength, damage=damage)


def v_weapon(name: str = "Sword", kind: str = "melee", range: Any = 1, attacks: int = 3,
             damage: str = "1/2", piercing: int = 0, parry: bool | None = None) -> Weapon:
    values: dict[str, Any] = dict(kind=kind, range=range, attacks=attacks, damage=damage,
                                  piercing=piercing)
    if parry is not None:
        values["parry"] = parry
    return Weapon(name, values)


def fighter(fid: str, side: str, x: float, y: float, chars: Mapping[str, float],
            weapons: Sequence[Weapon] = (), *, elevation: float | None = None,
            state: Mapping[str, Any] | None = None, traits: Sequence[str] = (),
            height: float = 1.25) -> Fighter:
    return Fighter(fid, fid, side, x, y, INCH_BASE, elevation=elevation, height=height,
                   characteristics=dict(chars), traits=tuple(traits), weapons=tuple(weapons),
                   state=dict(state or {}))


def warcry_chars(toughness: int = 4, wounds: int = 30) -> dict[str, float]:
    return {"move": 4, "toughness": toughness, "wounds": wounds}


def fvd_chars(fight: int = 4, shoot: int = 3, defense: int = 3, wounds: int = 30
              ) -> dict[str, float]:
    return {"move": 4, "fight": fight, "shoot": shoot, "defense": defense, "wounds": wounds}


def mh_chars(fight: int = 4, shoot: int = 3, armour: int = 0, wounds: int = 30
             ) -> dict[str, float]:
    return {"move": 4, "fight": fight, "shoot": shoot, "armour": armour, "wounds": wounds}


def wall(oid: str, x0: float, y0: float, x1: float, y1: float, height: float = 1.0,
         blocks_sight: bool = False, name: str = "Wall") -> Obstacle:
    return Obstacle(oid, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height, name,
                    blocks_sight=blocks_sight)


def platform(pid: str, x0: float, y0: float, x1: float, y1: float, height: float,
             name: str = "Tower") -> Platform:
    return Platform(pid, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height, name)


def scenario(ruleset: str, fighters: Sequence[Fighter], *, obstacles: Sequence[Obstacle] = (),
             platforms: Sequence[Platform] = (), options: Mapping[str, Any] | None = None,
             ) -> Scenario:
    return Scenario(ruleset, Battlefield(60, 44), (Side("red"), Side("blue")),
                    ruleset_options=dict(options or {}), fighters=tuple(fighters),
                    obstacles=tuple(obstacles), platforms=tuple(platforms))


def battle(ruleset: str, fighters: Sequence[Fighter], **kw: Any) -> Battle:
    return battle_of(scenario(ruleset, fighters, **kw))


def req(attacker: str = "a", target: str = "t", weapon: str | None = None,
        offhand: str | None = None, **situational: Any) -> AttackRequest:
    return AttackRequest(attacker, target, weapon, offhand, situational)
