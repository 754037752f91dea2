"""Battlefields of hidden edge cases with answers computed by hand (tests of `ruling`).

Each case is a scenario file (dict), the pair to rule on, and what the ruling must say.
The geometry is chosen so that the answers are exact: round bases of 1" (25.4 mm), an
oval of 2" x 1" (50.8 x 25.4 mm), axis-aligned walls, a unit of 5 x 2 one-inch bases.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.core.test_ninth_age_cli import CHARS

INCH_BASE = {"shape": "round", "diameter_mm": 25.4}
OVAL_2X1 = {"shape": "oval", "length_mm": 50.8, "width_mm": 25.4}
WARCRY_CHARS = {"move": 4, "toughness": 4, "wounds": 20}
SWORD = {"name": "Sword", "range": 1, "attacks": 3, "strength": 4, "damage": "1/3"}
BOW = {"name": "Bow", "range": 8, "attacks": 2, "strength": 3, "damage": "1/2"}


def fighter(fid: str, side: str, x: float, y: float, weapon: dict[str, Any],
            base: dict[str, Any] | None = None, facing: float = 90) -> dict[str, Any]:
    return {"id": fid, "side": side, "x": x, "y": y, "facing": facing,
            "base": base or INCH_BASE, "characteristics": WARCRY_CHARS, "weapons": [weapon]}


def warcry(fighters: list[dict[str, Any]], obstacles: list[dict[str, Any]] = (),  # type: ignore[assignment]
           platforms: list[dict[str, Any]] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    return {"format": "tabletop-gui/scenario", "schema_version": 1, "ruleset": "warcry",
            "battlefield": {"width": 30, "depth": 22},
            "sides": [{"id": "red"}, {"id": "blue"}],
            "fighters": fighters, "obstacles": list(obstacles), "platforms": list(platforms)}


def box(oid: str, x0: float, y0: float, x1: float, y1: float, height: float,
        blocks_sight: bool = False, name: str = "Wall") -> dict[str, Any]:
    return {"id": oid, "name": name, "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
            "height": height, "blocks_sight": blocks_sight}


def write(tmp: Path, name: str, scenario: dict[str, Any]) -> Path:
    path = tmp / f"{name}.battle.json"
    path.write_text(json.dumps(scenario))
    return path


# two 2" x 1" ovals, lengths along x, centres 3" apart: gap 3 - 1 - 1 = 1" exactly,
# closest points (11, 10) and (12, 10)
OVALS = warcry([fighter("a", "red", 10, 10, SWORD, OVAL_2X1, facing=0),
                fighter("t", "blue", 13, 10, SWORD, OVAL_2X1, facing=0)])

# two 1" bases 10" apart on y = 10; two tall triangles touch the centre line at their
# apexes (15, 10), one from below and one from above. The lines on y = 10 (centre to
# centre, front to front, front to centre, centre to front) and the two crossing lines
# (through the midpoint (15, 10)) only graze the apexes: clear, 6 plan paths x 9 heights
# = 54 lines; the two outer paths (y = 10.5 and y = 9.5) cross a triangle: 18 blocked.
GRAZING = warcry(
    [fighter("a", "red", 10, 10, BOW), fighter("t", "blue", 20, 10, BOW)],
    obstacles=[
        {"id": "low", "name": "Spike", "polygon": [[13, 5], [17, 5], [15, 10]],
         "height": 5, "blocks_sight": True},
        {"id": "high", "name": "Crag", "polygon": [[13, 15], [17, 15], [15, 10]],
         "height": 5, "blocks_sight": True},
    ])


def wall_case(x0: float, x1: float) -> dict[str, Any]:
    """Bases at (10, 10) and (16, 10): the line of cover runs from (10.5, 10) to
    (15.5, 10); a low wall across it from x0 to x1 (not blocking sight)."""
    return warcry([fighter("a", "red", 10, 10, BOW), fighter("t", "blue", 16, 10, BOW)],
                  obstacles=[box("w1", x0, 8, x1, 12, 1.0)])


# the wall's far face 0.5" from the target's base: it leaves the line 4.5" from the
# attacker's base, 4" beyond the ignored half inch: cover
WALL_NEAR_TARGET = wall_case(14.8, 15.0)
# the wall 0.1" to 0.3" from the attacker's base: inside the ignored half inch, no cover;
# 0.2" further from the base and it would count
WALL_NEAR_ATTACKER = wall_case(10.6, 10.8)
# the wall ends exactly 0.5" from the attacker's base: the part beyond the half inch has
# no length, no cover
WALL_AT_HALF_INCH = wall_case(10.8, 11.0)


def platform_case(height: float) -> dict[str, Any]:
    """The target on a platform of ``height`` (its elevation), the attacker on the floor
    6" away (centres): gap 5", vertical ``height``."""
    return warcry([fighter("a", "red", 10, 10, BOW), fighter("t", "blue", 16, 10, BOW)],
                  platforms=[{"id": "p1", "name": "Tower",
                              "polygon": [[14, 8], [18, 8], [18, 12], [14, 12]],
                              "height": height}])


NINTH_CHARS = CHARS

# The target: 10 models in 5 files of 1" bases, centre (36, 24), facing +y: 5" wide, 2"
# deep, front-right corner (38.5, 25). The shooter: one model on a 2" round base at
# (42.5, 29) = the corner + (4, 4), on the corner's 135° line. In the target's frame the
# point is (u, v) = (6.5, 5): |v| - d = 4 = |u| - w, a tie: the right flank. Turned
# clockwise at all, the target faces it more: front arc. Anticlockwise, the point reaches
# the rear line at -atan2(5, 6.5): after 2 atan2(5, 6.5) = 75.14°. The gap: from the
# centre to the corner sqrt(32), less the radius 1.
ARC_LINE = {
    "format": "tabletop-gui/scenario", "schema_version": 1, "ruleset": "ninth-age",
    "battlefield": {"width": 72, "depth": 48},
    "sides": [{"id": "red"}, {"id": "blue"}],
    "units": [
        {"id": "s", "name": "Bolt thrower", "side": "red", "x": 42.5, "y": 29,
         "facing": 225, "models": 1, "files": 1, "base_mm": [50.8, 50.8], "round_base": True,
         "characteristics": NINTH_CHARS,
         "weapons": [{"name": "Bolt", "kind": "shooting", "range": 24, "aim": 4,
                      "shots": 1}]},
        {"id": "u", "name": "Spearmen", "side": "blue", "x": 36, "y": 24, "facing": 90,
         "models": 10, "files": 5, "base_mm": [25.4, 25.4], "characteristics": NINTH_CHARS,
         "weapons": [{"name": "Spear", "kind": "close_combat", "attributes": []}]},
    ],
}
