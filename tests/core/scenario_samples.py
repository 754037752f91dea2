"""Small valid scenario documents for the loader tests (plain dicts, freshly built)."""

from __future__ import annotations

import json
from typing import Any


def warcry_doc() -> dict[str, Any]:
    return {
        "format": "tabletop-gui/scenario",
        "schema_version": 1,
        "name": "Test",
        "ruleset": "warcry",
        "ruleset_options": {},
        "battlefield": {"width": 30, "depth": 22, "grid": None},
        "sides": [{"id": "red", "name": "Red", "color": "#c0392b"},
                  {"id": "blue", "name": "Blue", "color": "#2e86c1"}],
        "fighters": [
            {"id": "f1", "name": "A", "side": "red", "x": 5, "y": 5, "facing": 90,
             "base": {"shape": "round", "diameter_mm": 32}, "elevation": None, "height": 1.25,
             "characteristics": {"move": 4, "toughness": 4, "wounds": 10}, "traits": [],
             "weapons": [{"name": "Sword", "range": 1, "attacks": 3, "strength": 4,
                          "damage": "1/3"}],
             "state": {"damage": 0}},
            {"id": "f2", "name": "B", "side": "blue", "x": 10, "y": 12,
             "base": {"shape": "oval", "length_mm": 60, "width_mm": 35},
             "characteristics": {"move": 5, "toughness": 3, "wounds": 8},
             "weapons": [{"name": "Bow", "range": "3-12", "attacks": 2, "strength": 3,
                          "damage": "1/2"}]},
        ],
        "units": [],
        "obstacles": [{"id": "w1", "name": "Wall", "polygon": [[6, 8], [9, 8], [9, 8.5], [6, 8.5]],
                       "height": 2, "blocks_sight": True, "cover": "hard"}],
        "platforms": [{"id": "p1", "name": "Tower", "polygon": [[20, 14], [24, 14], [24, 18],
                                                                  [20, 18]], "height": 3}],
    }


def ninth_age_doc() -> dict[str, Any]:
    chars = {"adv": 4, "mar": 8, "dis": 7, "hp": 1, "def": 3, "res": 3, "arm": 1, "att": 1,
             "off": 3, "str": 3, "ap": 0, "agi": 3}
    return {
        "format": "tabletop-gui/scenario",
        "schema_version": 1,
        "ruleset": "ninth-age",
        "battlefield": {"width": 48, "depth": 36},
        "sides": [{"id": "a"}, {"id": "b"}],
        "units": [
            {"id": "u1", "name": "Spearmen", "side": "a", "x": 20, "y": 10, "models": 20,
             "files": 5, "base_mm": [20, 20], "characteristics": chars,
             "weapons": [{"name": "Spear", "kind": "close_combat",
                          "attributes": ["Fight in Extra Rank"]}]},
            {"id": "u2", "name": "Archers", "side": "b", "x": 20, "y": 30, "facing": 270,
             "models": 10, "files": 5, "base_mm": [20, 20], "characteristics": chars,
             "traits": [{"aegis_vs_magical": 4}],
             "weapons": [{"name": "Bow", "kind": "shooting", "range": 24, "aim": 4,
                          "shots": 1, "strength": 3, "ap": 0}]},
        ],
    }


def circle_doc() -> dict[str, Any]:
    chars = {"base_attack": 6, "defense": 6, "armour": 1, "precision": 3, "movement": 4,
             "wounds": 10}
    return {
        "format": "tabletop-gui/scenario",
        "schema_version": 1,
        "ruleset": "circle-of-realms",
        "battlefield": {"width": 10, "depth": 10, "grid": {"kind": "square", "size": 1}},
        "sides": [{"id": "a"}, {"id": "b"}],
        "fighters": [
            {"id": "c1", "side": "a", "x": 2.5, "y": 2.5,
             "base": {"shape": "round", "diameter_mm": 25}, "characteristics": chars,
             "weapons": []},
            {"id": "c2", "side": "b", "x": 3.5, "y": 3.5,
             "base": {"shape": "rect", "width_mm": 25, "depth_mm": 25}, "characteristics": chars,
             "weapons": [{"name": "Axe", "attack": 8, "attack_type": "hacking"}],
             "state": {"limbs_lost": ["LH"]}},
        ],
    }


def text(doc: Any) -> str:
    return json.dumps(doc, allow_nan=True)
