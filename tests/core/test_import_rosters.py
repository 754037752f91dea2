"""Rosters into scenarios: the exact fighters and units the test rosters of
tests/data/import/ must give (written for these tests in the shapes of BattleScribe and
New Recruit files: invented armies, invented numbers), and round trips through
`tabletop-gui import`, `validate` and `attack`."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
from shapely.geometry import Polygon

from tabletop_gui.geometry.outline import outline_points
from tabletop_gui.importers.combine import import_files
from tabletop_gui.importers.fighter_data import LibraryStore
from tabletop_gui.scenario.battle import body_of
from tabletop_gui.scenario.entities import OvalBase, RoundBase
from tabletop_gui.scenario.load import load_scenario
from tests.core.import_helpers import DATA, data, import_json, run_cli

ASHEN = data("warcry-ashen-wardens.ros")
GLOOM = data("warcry-gloom-stalkers.json")
RIVER_ROS = data("ninth-age-river-guard.ros")
RIVER = data("ninth-age-river-guard.rosz")
MARSH = data("ninth-age-marsh-host.json")


def _fighter_rows(scenario):
    return [(f.name, dict(f.characteristics), f.traits,
             [(w.name, dict(w.values)) for w in f.weapons], f.base) for f in scenario.fighters]


def test_warcry_battlescribe_roster_gives_these_fighters():
    result = import_files([ASHEN])
    s = result.scenario
    assert s.ruleset == "warcry"
    assert [(x.id, x.name) for x in s.sides] == [("ashen-wardens", "Ashen Wardens")]
    r32 = RoundBase(32.0)
    assert _fighter_rows(s) == [
        ("Warden Captain", {"move": 5, "toughness": 4, "wounds": 20}, ("Leader", "Ashen Wardens"),
         [("Warden Blade", {"range": 1, "attacks": 4, "strength": 4, "damage": "2/5"})], r32),
        ("Warden Spearman", {"move": 4, "toughness": 4, "wounds": 10}, ("Ashen Wardens",),
         [("Ash Spear", {"range": 2, "attacks": 3, "strength": 3, "damage": "1/4"})], r32),
        ("Warden Spearman (2)", {"move": 4, "toughness": 4, "wounds": 10}, ("Ashen Wardens",),
         [("Ash Spear", {"range": 2, "attacks": 3, "strength": 3, "damage": "1/4"})], r32),
        # weapons nested in the "with Crossbow and Knife" upgrade
        ("Warden Crossbowman", {"move": 4, "toughness": 3, "wounds": 8}, ("Ashen Wardens",),
         [("Crossbow", {"range": "3-20", "attacks": 2, "strength": 3, "damage": "2/5"}),
          ("Knife", {"range": 1, "attacks": 2, "strength": 3, "damage": "1/3"})], r32),
        # the player's custom name; the Flying runemark also gives the ruleset's "fly"
        ("Ember", {"move": 8, "toughness": 3, "wounds": 12}, ("Flying", "Ashen Wardens", "fly"),
         [("Talons", {"range": 1, "attacks": 3, "strength": 4, "damage": "1/4"})], r32),
    ]
    assert [f.id for f in s.fighters] == ["f1", "f2", "f3", "f4", "f5"]
    warnings = "\n".join(result.warnings)
    assert 'selections[0] "Warden Captain" (line 14): read but not used: Ability ' \
           '"Hold the Line"' in warnings
    assert "rules Ashen Resolve" in warnings
    # no base size in Warcry data: the default is stated, once per fighter entry
    assert warnings.count("32 mm round assumed") == 4


def test_new_recruit_json_warcry_roster_and_base_sizes_from_fighter_data():
    result = import_files([GLOOM, data("warcry-bases.json")])
    s = result.scenario
    assert _fighter_rows(s) == [
        ("Stalker Chief", {"move": 5, "toughness": 4, "wounds": 18}, ("Leader",),
         [("Hooked Blade", {"range": 1, "attacks": 5, "strength": 4, "damage": "2/4"})],
         RoundBase(32.0)),
        ("Stalker Archer", {"move": 5, "toughness": 3, "wounds": 8}, (),
         [("Longbow", {"range": "4-16", "attacks": 2, "strength": 3, "damage": "1/4"})],
         RoundBase(25.0)),
    ]
    assert not any("assumed" in w for w in result.warnings)


def test_base_sizes_by_exact_name_then_longest_prefix_and_oval():
    s = import_files([ASHEN, data("warcry-bases.json")]).scenario
    bases = {f.name: f.base for f in s.fighters}
    assert bases["Warden Captain"] == RoundBase(40.0)
    assert bases["Warden Spearman"] == RoundBase(28.0)  # "Warden" is the longest prefix
    assert bases["Ember"] == OvalBase(60.0, 35.0)  # Warden Kite-Rider: 60 x 35


def test_ninth_age_roster_gives_these_units():
    result = import_files([RIVER])
    s = result.scenario
    assert s.ruleset == "ninth-age"
    rows = [(u.name, u.models, u.files, u.base_mm, u.round_base, u.height_class,
             dict(u.characteristics), u.traits, [(w.name, dict(w.values)) for w in u.weapons])
            for u in s.units]
    assert rows == [
        ("River Spearmen", 20, 5, (20, 20), False, "standard",
         {"adv": 4, "mar": 8, "dis": 7, "hp": 1, "def": 3, "res": 3, "arm": 1, "att": 1,
          "off": 3, "str": 3, "ap": 0, "agi": 3},
         ("infantry", "shield"),  # Light Armour +1 in arm; the shield as the trait
         [("Spear", {"kind": "close_combat", "ap": "+1", "attributes": ["Fight in Extra Rank"]}),
          ("Hand Weapon", {"kind": "close_combat"})]),
        ("River Crossbowmen", 10, 5, (20, 20), False, "standard",
         {"adv": 4, "mar": 8, "dis": 7, "hp": 1, "def": 3, "res": 3, "arm": 0, "att": 1,
          "off": 3, "str": 3, "ap": 0, "agi": 3},
         ("infantry",),
         [("Crossbow", {"kind": "shooting", "strength": 4, "ap": 1, "range": 30, "aim": 4,
                        "shots": 1, "attributes": ["Unwieldy"]})]),
        ("Captain Ilsa", 1, 1, (20, 20), False, "standard",
         {"adv": 5, "mar": 10, "dis": 9, "hp": 3, "def": 5, "res": 4, "arm": 2, "aegis": 5,
          "att": 4, "off": 6, "str": 4, "ap": 1, "agi": 5},
         ("infantry",),
         [("Great Weapon", {"kind": "close_combat", "strength": "+2", "ap": "+2",
                            "attributes": ["Two-Handed", "Great Weapon", "Lightning Reflexes",
                                           "Hatred"]})]),
        ("Marsh Wyrm", 1, 1, (60, 60), True, "gigantic",
         {"adv": 7, "mar": 14, "dis": 6, "hp": 5, "def": 4, "res": 6, "arm": 2, "fortitude": 5,
          "att": 5, "off": 4, "str": 6, "ap": 3, "agi": 2},
         ("beast", "fly", "hard_target"),
         [("Hand Weapon", {"kind": "close_combat", "attributes": ["Multiple Wounds (D3)"]})]),
    ]
    warnings = "\n".join(result.warnings)
    assert "Crossbow: the roster gives no Aim: 4+ assumed" in warnings
    assert 'read but not used: 7 Artefact "Lucky Charm"' in warnings
    assert "read but not used: rule Terror" in warnings
    assert "weapon \"Hand Weapon\" attribute 'A model with another melee weapon" in warnings


def test_ninth_age_new_recruit_json_units():
    s = import_files([MARSH]).scenario
    rows = [(u.name, u.models, u.files, u.base_mm, dict(u.characteristics),
             [(w.name, dict(w.values)) for w in u.weapons]) for u in s.units]
    assert rows == [
        ("Bog Warriors", 15, 5, (25, 25),
         {"adv": 5, "mar": 10, "dis": 6, "hp": 1, "def": 3, "res": 4, "arm": 1, "att": 2,
          "off": 3, "str": 4, "ap": 0, "agi": 4},
         [("Paired Weapons", {"kind": "close_combat", "attributes": ["Two-Handed", "Hatred"]})]),
        ("Bog Hunters", 6, 5, (25, 25),
         {"adv": 5, "mar": 10, "dis": 6, "hp": 1, "def": 3, "res": 4, "arm": 0, "att": 1,
          "off": 3, "str": 4, "ap": 0, "agi": 4},
         [("Javelins", {"kind": "shooting", "strength": 3, "ap": 1, "range": 12, "aim": 4,
                        "shots": 1, "attributes": ["Quick to Fire"]})]),
    ]


def test_the_rosz_holds_the_ros_it_is_made_of():
    with zipfile.ZipFile(RIVER) as z:
        assert z.namelist() == ["ninth-age-river-guard.ros"]
        assert z.read("ninth-age-river-guard.ros") == Path(RIVER_ROS).read_bytes()
    assert import_files([RIVER_ROS]).scenario.units == import_files([RIVER]).scenario.units


def _overlaps(scenario) -> list[tuple[str, str]]:
    shapes = {m.id: Polygon(outline_points(body_of(m).footprint)) for m in scenario.models}
    ids = list(shapes)
    return [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]
            if shapes[a].intersects(shapes[b])]


@pytest.mark.parametrize("files", [(ASHEN, GLOOM), (RIVER, MARSH)])
def test_one_side_per_roster_in_its_deployment_area_without_overlaps(files):
    s = import_files(list(files)).scenario
    assert len(s.sides) == 2
    bottom, top = s.sides
    half = s.battlefield.depth / 2
    for m in s.models:
        body = Polygon(outline_points(body_of(m).footprint))
        x0, y0, x1, y1 = body.bounds
        assert 0 <= x0 and x1 <= s.battlefield.width
        if m.side == bottom.id:
            assert 0 <= y0 and y1 <= half and m.facing == 90
        else:
            assert half <= y0 and y1 <= s.battlefield.depth and m.facing == 270
    assert _overlaps(s) == []


def test_round_trip_warcry_import_validate_attack(tmp_path):
    target, summary = import_json(tmp_path, ASHEN, GLOOM, data("warcry-bases.json"),
                                  data("table-positions.json"))
    assert summary["fighters"] == 7 and summary["units"] == 0 and summary["obstacles"] == 0
    assert [(x["id"], x["fighters"]) for x in summary["sides"]] == [
        ("ashen-wardens", 5), ("gloom-stalkers", 2)]
    assert any("Mystery Goblin" in w for w in summary["warnings"])
    assert load_scenario(target).fighters[0].name == "Warden Captain"
    code, out, err = run_cli("validate", str(target))
    assert code == 0 and "warcry, 7 fighters" in out
    # the crossbowman (deployed) shoots the Stalker Chief, moved by the table positions
    code, out, err = run_cli("attack", str(target), "--attacker", "f4", "--target", "f6",
                             "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["weapon"] == "Crossbow" and report["valid"] is True
    assert sum(p for _, p in report["distribution"]) == pytest.approx(1.0, abs=1e-9)
    assert report["expected_damage"] > 0


def test_round_trip_ninth_age_import_validate_attack(tmp_path):
    positions = tmp_path / "positions.json"
    positions.write_text(json.dumps({"ObjectStates": [
        {"Nickname": "River Crossbowmen", "Transform": {"posX": 0, "posZ": -14, "rotY": 0}},
        {"Nickname": "Bog Warriors", "Transform": {"posX": 0, "posZ": -4, "rotY": 180}},
    ]}))
    target, summary = import_json(tmp_path, RIVER, MARSH, str(positions))
    assert summary["units"] == 6
    code, out, err = run_cli("validate", str(target))
    assert code == 0 and "ninth-age, 6 units" in out
    code, out, err = run_cli("attack", str(target), "--attacker", "u2", "--target", "u5",
                             "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["weapon"] == "Crossbow" and report["attack_type"] == "shooting"
    assert report["valid"] is True, report["reasons"]
    assert sum(p for _, p in report["distribution"]) == pytest.approx(1.0, abs=1e-9)


def test_readable_output_without_json(tmp_path):
    code, out, err = run_cli("import", RIVER, "-o", str(tmp_path / "a.battle.json"))
    assert code == 0 and err == ""
    assert out.startswith(f"wrote {tmp_path / 'a.battle.json'} (ninth-age): 0 fighters, "
                          "4 units, 0 obstacles")
    assert "warnings (4):" in out


def test_into_adds_a_side_and_keeps_what_was_there(tmp_path):
    first, _ = import_json(tmp_path, ASHEN)
    before = load_scenario(first)
    target = tmp_path / "both.battle.json"
    code, out, err = run_cli("import", GLOOM, "--into", str(first), "-o", str(target),
                             "--json")
    assert code == 0, err
    after = load_scenario(target)
    assert after.fighters[:5] == before.fighters  # untouched
    assert [x.id for x in after.sides] == ["ashen-wardens", "gloom-stalkers"]
    assert [f.id for f in after.fighters[5:]] == ["f6", "f7"]
    assert _overlaps(after) == []


def test_empty_sides_of_into_are_taken_by_the_rosters(tmp_path):
    from tabletop_gui.model.new_scenario import empty_scenario

    s = import_files([RIVER, MARSH], into=empty_scenario("ninth-age")).scenario
    assert [x.name for x in s.sides] == ["River Guard", "Marsh Host"]


def test_warcry_roster_for_another_warcry_family_ruleset_maps_declared_names(tmp_path):
    text = re.sub(r'(<characteristic name="Move" [^>]*>\d+</characteristic>)',
                  r'\1<characteristic name="Fight">4</characteristic>'
                  r'<characteristic name="Shoot">3</characteristic>',
                  Path(ASHEN).read_text(encoding="utf-8"))
    path = tmp_path / "fvd.ros"
    path.write_text(text.replace('name="Toughness"', 'name="Defence"'), encoding="utf-8")
    result = import_files([str(path)], ruleset="fight-vs-defense")
    crossbowman = result.scenario.fighters[3]
    assert dict(crossbowman.characteristics) == {"move": 4, "fight": 4, "shoot": 3,
                                                 "defense": 3, "wounds": 8}
    assert [(w.name, w.get("kind")) for w in crossbowman.weapons] == [
        ("Crossbow", "ranged"), ("Knife", "melee")]
    assert any("ranged beyond 3\", melee within" in w for w in result.warnings)


def test_library_store_keeps_and_searches_fighter_data(tmp_path):
    store = LibraryStore(tmp_path / "data")
    assert store.add_file(data("warcry-fighters.json")) == "3 fighters of 2 warbands"
    assert store.add_file(data("warcry-bases.json")) == "5 base sizes"
    again = store.add_file(data("warcry-fighters.json"))  # merged, not doubled
    assert again == "3 fighters of 2 warbands"
    lib = LibraryStore(tmp_path / "data").load()
    assert [f.name for f in lib.search("ashen")] == ["Warden Captain", "Warden Crossbowman"]
    assert [f.name for f in lib.search("chief gloom")] == ["Stalker Chief"]
    crossbowman = lib.fighter(lib.search("crossbow")[0])
    assert crossbowman.base == RoundBase(28.0)
    assert [(w.name, dict(w.values)) for w in crossbowman.weapons] == [
        ("Ranged weapon", {"range": "3-20", "attacks": 2, "strength": 3, "damage": "2/5"}),
        ("Dagger", {"range": 1.0, "attacks": 2, "strength": 3, "damage": "1/3"})]
    assert dict(crossbowman.characteristics) == {"move": 4.0, "toughness": 3, "wounds": 8}
    # what the store keeps gives base sizes to an import
    s = import_files([ASHEN], library=lib).scenario
    assert s.fighters[0].base == RoundBase(40.0)
    assert DATA.exists()
