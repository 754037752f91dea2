"""Shipped resources: demos, profile libraries and the JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tabletop_gui.geometry.board import Board
from tabletop_gui.rules.base import RulesError
from tabletop_gui.rules.registry import INFOS, RULESET_IDS
from tabletop_gui.scenario import load as load_module
from tabletop_gui.scenario import load_models, load_terrain
from tabletop_gui.scenario.battle import board_of
from tabletop_gui.scenario.entities import OvalBase, RectBase, RoundBase
from tabletop_gui.scenario.problems import ScenarioError
from tabletop_gui.scenario.resources import (
    FIGHTER_PROFILE_FIELDS,
    RESOURCES,
    SCHEMA_PATH,
    UNIT_PROFILE_FIELDS,
    demo_path,
    load_demo,
    load_profiles,
    profiles_from_json,
    profiles_path,
)


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_demo_read_as_shipped_is_the_demo_fully_checked(ruleset: str) -> None:
    """A demo is read without the shapely check of its polygons (``load_demo``): checked
    here instead. A shipped polygon that crosses itself would fail this test."""
    assert load_demo(ruleset) == load_module.load_scenario(demo_path(ruleset))


def test_only_the_polygon_check_is_left_out_of_a_shipped_file() -> None:
    doc = json.loads(demo_path("warcry").read_text(encoding="utf-8"))
    doc["obstacles"][0]["polygon"] = [[0, 0], [4, 4], [4, 0], [0, 4]]  # a bow tie
    with pytest.raises(ScenarioError, match="crosses or touches itself"):
        load_module.loads_scenario(json.dumps(doc))
    load_module.loads_scenario(json.dumps(doc), shipped=True)
    doc["obstacles"][0]["polygon"] = [[0, 0], [4, 4], [4, 0]]
    doc["obstacles"][0]["height"] = -1
    with pytest.raises(ScenarioError, match="height"):  # every other check is made
        load_module.loads_scenario(json.dumps(doc), shipped=True)


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_demo_is_a_little_game(ruleset: str) -> None:
    s = load_demo(ruleset)
    assert demo_path(ruleset).name == f"{ruleset}.battle.json"
    assert s.ruleset == ruleset and s.name and len(s.sides) == 2
    assert all(side.name and side.color.startswith("#") for side in s.sides)
    decl = INFOS[ruleset].declaration
    if decl.models == "units":
        assert 4 <= len(s.units) <= 6 and not s.fighters
        assert s.battlefield.width == 48 and s.battlefield.depth == 36
    else:
        assert 6 <= len(s.fighters) <= 12 and not s.units
        assert {type(f.base) for f in s.fighters} == {RoundBase, OvalBase, RectBase}
    for side in s.sides:
        assert any(m.side == side.id for m in s.models)
    assert s.obstacles and s.platforms
    assert isinstance(board_of(s), Board)


def test_warcry_demo_has_ranged_melee_and_a_min_max_range() -> None:
    s = load_demo("warcry")
    ranges = [w.get("range") for f in s.fighters for w in f.weapons]
    assert any(isinstance(r, str) and "-" in r for r in ranges)
    assert any(isinstance(r, int | float) and r <= 3 for r in ranges)
    assert any(isinstance(r, int | float) and r > 3 for r in ranges)


def test_circle_of_realms_demo_is_on_space_centres() -> None:
    s = load_demo("circle-of-realms")
    grid = s.battlefield.grid
    assert grid is not None and grid.kind == "square" and grid.size == 1.0
    for f in s.fighters:
        assert (f.x % 1.0, f.y % 1.0) == (0.5, 0.5), f.id
    kinds = {w.get("attack_type") for f in s.fighters for w in f.weapons}
    assert len(kinds) >= 4


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_profile_library_has_a_dozen_valid_profiles(ruleset: str) -> None:
    profiles = load_profiles(ruleset)
    assert len(profiles) >= 12
    fields = UNIT_PROFILE_FIELDS if INFOS[ruleset].declaration.models == "units" \
        else FIGHTER_PROFILE_FIELDS
    for p in profiles:
        assert set(p) <= set(fields) and p["name"]
    assert len({p["name"] for p in profiles}) == len(profiles)


def test_a_bad_profile_is_refused_with_its_place() -> None:
    doc = {"ruleset": "warcry", "profiles": [
        {"name": "A", "base": {"shape": "round", "diameter_mm": 32},
         "characteristics": {"move": 4, "toughness": 4, "wounds": 8},
         "weapons": [{"name": "Axe", "range": 1, "attacks": 2, "strength": 3,
                      "damage": "1/x"}]},
        {"name": "A", "base": {"shape": "round", "diameter_mm": 32},
         "characteristics": {"move": 4, "toughness": 4, "wounds": 8},
         "weapons": [{"name": "Axe", "range": 1, "attacks": 2, "strength": 3, "damage": "1/2"}]},
        {"name": "A", "base": {"shape": "round", "diameter_mm": 32},
         "characteristics": {"move": 4, "toughness": 4, "wounds": 8},
         "weapons": [{"name": "Axe", "range": 1, "attacks": 2, "strength": 3, "damage": "1/2"}]},
    ]}
    with pytest.raises(ScenarioError) as info:
        profiles_from_json(doc, "warcry")
    assert [str(p) for p in info.value.problems] == [
        'profiles[0].weapons[0].damage: must be "hit/crit" such as "1/3", not "1/x"',
        'profiles[2].name: another profile is also named "A"',
    ]
    with pytest.raises(ScenarioError) as info:
        profiles_from_json({"ruleset": "ninth-age", "profiles": []}, "warcry")
    assert info.value.problems[0].path == "ruleset"


def test_unknown_ruleset_has_no_demo() -> None:
    with pytest.raises(RulesError):
        demo_path("chess")


def test_a_checkout_reads_its_top_level_resources_folder() -> None:
    # the design card's top level: pyproject.toml, README.md, tabletop_gui, resources, tests
    top = Path(__file__).resolve().parents[2] / "resources"
    assert RESOURCES == top and SCHEMA_PATH == top / "scenario.schema.json"
    assert demo_path("warcry") == top / "demos" / "warcry.battle.json"
    assert profiles_path("warcry") == top / "profiles" / "warcry.json"
    assert not (top.parent / "tabletop_gui" / "resources").exists()


# -- the JSON Schema -----------------------------------------------------------------------


def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return data


def test_schema_is_draft_2020_12_with_resolvable_references() -> None:
    s = schema()
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    refs: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.append(node["$ref"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(s)
    assert refs
    for ref in refs:
        assert ref.startswith("#/$defs/")
        assert ref.removeprefix("#/$defs/") in s["$defs"], ref


def test_schema_names_every_field_the_loader_reads() -> None:
    s = schema()
    d = s["$defs"]
    assert set(s["properties"]) == set(load_module.TOP_FIELDS)
    assert set(s["required"]) == {"format", "schema_version", "ruleset", "battlefield", "sides"}
    assert s["properties"]["format"]["const"] == load_module.FORMAT
    assert s["properties"]["schema_version"]["const"] == load_module.SCHEMA_VERSION
    assert set(s["properties"]["ruleset"]["enum"]) == set(RULESET_IDS)
    assert set(d["fighter"]["properties"]) == set(load_models.FIGHTER_FIELDS)
    assert set(d["unit"]["properties"]) == set(load_models.UNIT_FIELDS)
    assert set(d["obstacle"]["properties"]) == set(load_terrain.OBSTACLE_FIELDS)
    assert set(d["platform"]["properties"]) == set(load_terrain.PLATFORM_FIELDS)
    assert set(d["side"]["properties"]) == set(load_module.SIDE_FIELDS)
    assert set(d["battlefield"]["properties"]) == set(load_terrain.BATTLEFIELD_FIELDS)
    shapes = {b["properties"]["shape"]["const"]: set(b["properties"]) for b in d["base"]["oneOf"]}
    assert shapes == {k: set(v) for k, v in load_models.BASE_FIELDS.items()}


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_schema_names_each_rulesets_data(ruleset: str) -> None:
    d = schema()["$defs"]
    info = INFOS[ruleset]
    decl = info.declaration
    model = d[f"{ruleset}-{decl.models[:-1]}"]["properties"]
    assert set(model["characteristics"]["properties"]) == {f.name for f in decl.characteristics}
    assert set(model["weapons"]["items"]["properties"]) == {"name"} | {
        f.name for f in decl.weapon_fields}
    assert set(model["state"]["properties"]) == {f.name for f in decl.state}
    assert set(d[f"{ruleset}-options"]["properties"]) == {o.key for o in info.ruleset_options}
    text = model["traits"]["description"]
    assert all(t in text for t in (*decl.traits, *decl.valued_traits))
