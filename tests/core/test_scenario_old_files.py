"""Every file of an earlier format version under tests/data keeps loading, unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop_gui.scenario.entities import OvalBase, RectBase
from tabletop_gui.scenario.load import load_scenario, loads_scenario
from tabletop_gui.scenario.save import dumps_scenario

DATA = Path(__file__).resolve().parents[1] / "data"
V1 = sorted((DATA / "v1").glob("*.json"))


def test_there_are_old_files() -> None:
    assert len(V1) >= 8


@pytest.mark.parametrize("path", V1, ids=[p.name for p in V1])
def test_old_file_loads_and_round_trips(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.sides and (scenario.fighters or scenario.units)
    assert loads_scenario(dumps_scenario(scenario)) == scenario


def test_spec_example_reads_as_the_format_page_says() -> None:
    s = load_scenario(DATA / "v1" / "spec-example-warcry.battle.json")
    assert s.name == "Ambush at the ford" and s.ruleset == "warcry"
    f = s.fighters[0]
    assert (f.x, f.y, f.facing, f.elevation, f.height) == (6.0, 4.5, 90.0, None, 1.25)
    assert f.base.width_in == pytest.approx(32 / 25.4)
    assert f.weapons[0].name == "Sword" and f.weapons[0].get("damage") == "1/4"
    assert s.obstacles[0].polygon[2] == (14.0, 8.5) and s.obstacles[0].cover == "hard"
    assert s.platforms[0].height == 3.0


def test_minimal_files_get_the_documented_defaults() -> None:
    s = load_scenario(DATA / "v1" / "minimal-warcry.battle.json")
    f2 = s.fighters[1]
    assert isinstance(f2.base, OvalBase)
    assert (f2.facing, f2.elevation, f2.height, f2.traits, dict(f2.state)) == (
        90.0, None, 1.25, (), {})
    n = load_scenario(DATA / "v1" / "minimal-ninth-age.battle.json")
    u = n.units[0]
    assert (u.round_base, u.height_class, u.ranks) == (False, "standard", 4)
    assert n.units[1].traits == ({"aegis_vs_magical": 4},)
    c = load_scenario(DATA / "v1" / "minimal-circle-of-realms.battle.json")
    assert c.battlefield.grid is not None and c.battlefield.grid.size == 1.0
    assert isinstance(c.fighters[1].base, RectBase) and c.fighters[0].weapons == ()
    h = load_scenario(DATA / "v1" / "hex-circle-of-realms.battle.json")
    assert h.battlefield.grid is not None and h.battlefield.grid.kind == "hex"
    assert h.ruleset_options == {"counter_damage": "always"}
    assert h.sides[1].color == "#abc" and h.sides[0].color == "#808080"
