"""Scenarios built from the entities, for the GUI tests (one per kind of battlefield)."""

from __future__ import annotations

from tabletop_gui.scenario.entities import (
    Battlefield,
    Fighter,
    Grid,
    Obstacle,
    OvalBase,
    Platform,
    RectBase,
    RoundBase,
    Scenario,
    Side,
    Unit,
    Weapon,
)

SIDES = (Side("red", "Iron Golems", "#c0392b"), Side("blue", "Untamed Beasts", "#2e86c1"))
SWORD = Weapon("Sword", {"range": 1, "attacks": 4, "strength": 4, "damage": "1/4"})


def fighter(fid: str, x: float, y: float, side: str = "red", **kw: object) -> Fighter:
    base = kw.pop("base", RoundBase(32))
    chars = kw.pop("characteristics", {"move": 4, "toughness": 4, "wounds": 18})
    return Fighter(fid, kw.pop("name", f"Fighter {fid}"), side, x, y, base,  # type: ignore[arg-type]
                   characteristics=chars, weapons=(SWORD,), **kw)  # type: ignore[arg-type]


def skirmish() -> Scenario:
    """A Warcry-like battlefield: three base shapes, an obstacle of each cover, a platform."""
    return Scenario(
        ruleset="warcry",
        name="Ambush at the ford",
        battlefield=Battlefield(30, 22),
        sides=SIDES,
        fighters=(
            fighter("f1", 6, 4.5, facing=90, name="Iron Sentinel"),
            fighter("f2", 10, 6, base=OvalBase(60, 35), facing=45, name="Beast Rider",
                    state={"damage": 6}),
            fighter("f3", 20, 15, side="blue", base=RectBase(50, 50), facing=270,
                    name="Ogre", elevation=None),
            fighter("f4", 22, 5, side="blue", name="Fallen", state={"damage": 18,
                                                                     "taken_down": True}),
        ),
        obstacles=(
            Obstacle("w1", ((10, 8), (14, 8), (14, 8.5), (10, 8.5)), 2.0, "Ruined wall"),
            Obstacle("h1", ((3, 12), (7, 12), (7, 15), (3, 15)), 1.0, "Hedge", cover="soft"),
        ),
        platforms=(Platform("p1", ((18, 13), (24, 13), (24, 18), (18, 18)), 3.0,
                            "Watchtower"),),
    )


def ranked() -> Scenario:
    """A Ninth Age-like battlefield: units with full and incomplete rear ranks."""
    chars = {"adv": 4, "mar": 8, "dis": 7, "hp": 1, "def": 3, "res": 3, "arm": 1,
             "att": 1, "off": 3, "str": 3, "ap": 0, "agi": 3}
    spear = Weapon("Spear", {"kind": "close_combat", "attributes": []})
    return Scenario(
        ruleset="ninth-age",
        battlefield=Battlefield(48, 24),
        sides=SIDES,
        units=(
            Unit("u1", "Spearmen", "blue", 12, 8, 18, 5, (20, 20), facing=90,
                 characteristics=chars, weapons=(spear,), state={"hp_lost": 3}),
            Unit("u2", "Knights", "red", 30, 16, 6, 3, (25, 50), facing=200,
                 characteristics={**chars, "hp": 2}, weapons=(spear,)),
            Unit("u3", "Giant", "red", 40, 6, 1, 1, (50, 50), round_base=True,
                 characteristics={**chars, "hp": 6}, weapons=(spear,)),
        ),
        obstacles=(Obstacle("o1", ((20, 10), (24, 10), (24, 12), (20, 12)), 1.0, "Forest",
                            cover="soft", blocks_sight=False),),
    )


def hexes(kind: str = "hex") -> Scenario:
    """A Circle of Realms battlefield on a grid of spaces."""
    chars = {"base_attack": 6, "defense": 6, "armour": 1, "movement": 3, "wounds": 5}
    return Scenario(
        ruleset="circle-of-realms",
        battlefield=Battlefield(20, 16, Grid(kind, 1.5)),  # type: ignore[arg-type]
        sides=SIDES,
        fighters=(
            fighter("c1", 0.75, 0.75, characteristics=chars, name="Knight"),
            fighter("c2", 3.0, 2.049, side="blue", characteristics=chars, name="Brute"),
        ),
    )


def crowd(n: int = 200) -> Scenario:
    """``n`` fighters on a 48" x 48" battlefield, for speed checks."""
    fighters = tuple(
        fighter(f"m{i}", 2 + (i % 20) * 2.2, 2 + (i // 20) * 2.2,
                side="red" if i % 2 else "blue", facing=(i * 37) % 360)
        for i in range(n)
    )
    return Scenario(ruleset="warcry", battlefield=Battlefield(48, 48), sides=SIDES,
                    fighters=fighters)
