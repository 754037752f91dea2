"""Acceptance of the command line against docs/cli.md and docs/scenario-format.md,
with hand-written scenario files: exit statuses, refusals, the JSON shapes of inspect,
attack, move and rulesets, and the loader's refusals with their locations."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tabletop_gui.scenario.load import load_scenario
from tabletop_gui.scenario.save import save_scenario
from tests.core.acceptance_helpers import (
    MM,
    check_distribution,
    cor_chars,
    doc,
    fighter,
    fvd_chars,
    na_chars,
    ok_json,
    refused,
    run,
    unit,
    v_weapon,
    wc_chars,
    wc_weapon,
    write,
)

RULESETS = ("warcry", "fight-vs-defense", "mordheim-warcry", "ninth-age", "circle-of-realms")
PAIR_KEYS = {"attacker", "target", "distance", "horizontal_distance", "vertical_distance",
             "engaged", "visible", "cover", "cover_by", "flanked", "arc", "spaces"}
GEOMETRY_KEYS = {"distance", "engaged", "visible", "cover", "flanked", "arc", "spaces"}
ATTACK_KEYS = {"ruleset", "attacker", "target", "weapon", "offhand", "attack_type", "valid",
               "reasons", "geometry", "modifiers", "expected_damage", "distribution",
               "take_down_probability", "roll"}


def warcry_doc() -> dict[str, Any]:
    """a (red) 1" from b (blue), c (blue, oval, taken down), d (red, rect) far away."""
    return doc("warcry", fighters=[
        fighter("a", "red", 5, 5, wc_chars(),
                [wc_weapon(), wc_weapon("Bow", rng="6-20", attacks=2, strength=3,
                                        damage="1/2")], elevation=None),
        fighter("b", "blue", 7, 5, wc_chars(wounds=10), [wc_weapon()],
                state={"damage": 0}),
        fighter("c", "blue", 20, 5, wc_chars(), [wc_weapon()], facing=0,
                base={"shape": "oval", "length_mm": 60, "width_mm": 35},
                state={"damage": 3, "taken_down": True}),
        fighter("d", "red", 5, 15, wc_chars(), [wc_weapon()],
                base={"shape": "rect", "width_mm": 50, "depth_mm": 25}),
    ], width=30, depth=22)


@pytest.fixture
def wfile(tmp_path: Path) -> str:
    return write(tmp_path, warcry_doc())


# -- refusals: exit 2, nothing on stdout, one line per problem --------------------------

def test_unknown_ids_refused(capsys, wfile: str) -> None:
    lines = refused(capsys, "attack", wfile, "--attacker", "zz", "--target", "b")
    assert len(lines) == 1 and "zz" in lines[0]
    lines = refused(capsys, "attack", wfile, "--attacker", "a", "--target", "nobody", "--json")
    assert len(lines) == 1 and "nobody" in lines[0]


def test_unknown_weapon_and_offhand_refused(capsys, wfile: str) -> None:
    lines = refused(capsys, "attack", wfile, "--attacker", "a", "--target", "b",
                    "--weapon", "Axe", "--json")
    assert len(lines) == 1 and "Axe" in lines[0]
    lines = refused(capsys, "attack", wfile, "--attacker", "a", "--target", "b",
                    "--offhand", "Spoon")
    assert len(lines) == 1 and "Spoon" in lines[0]


def test_unknown_set_key_refused(capsys, wfile: str) -> None:
    lines = refused(capsys, "attack", wfile, "--attacker", "a", "--target", "b",
                    "--set", "charging=true", "--json")
    assert len(lines) == 1 and "charging" in lines[0]


@pytest.mark.parametrize("dice", ["3,4", "3,4,5,6,6"])
def test_wrong_dice_count_names_the_count(capsys, wfile: str, dice: str) -> None:
    lines = refused(capsys, "attack", wfile, "--attacker", "a", "--target", "b",
                    "--dice", dice, "--json")
    assert len(lines) == 1 and "4" in lines[0]


@pytest.mark.parametrize("dice", ["3,4,7,1", "0,4,5,1", "3,x,5,1"])
def test_impossible_face_refused(capsys, wfile: str, dice: str) -> None:
    lines = refused(capsys, "attack", wfile, "--attacker", "a", "--target", "b",
                    "--dice", dice)
    assert len(lines) == 1


@pytest.mark.parametrize("command", ["validate", "inspect", "attack", "move"])
def test_bad_and_missing_files_refused(capsys, tmp_path: Path, command: str) -> None:
    extra = {"attack": ["--attacker", "a", "--target", "b"],
             "move": ["--fighter", "a", "--path", "0.5,0.5"]}.get(command, [])
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tabletop-gui/scenario", ', encoding="utf-8")
    assert len(refused(capsys, command, str(bad), *extra)) == 1
    lines = refused(capsys, command, str(tmp_path / "missing.json"), *extra)
    assert len(lines) == 1 and "missing.json" in lines[0]
    d = warcry_doc()
    d["ruleset"] = "chess"
    lines = refused(capsys, command, write(tmp_path, d), *extra)
    assert len(lines) == 1 and "ruleset" in lines[0] and "chess" in lines[0]


def test_move_refused_outside_grid_rulesets(capsys, wfile: str) -> None:
    lines = refused(capsys, "move", wfile, "--fighter", "a", "--path", "5,6", "--json")
    assert len(lines) == 1


# -- inspect --json ---------------------------------------------------------------------

def test_inspect_shape_pairs_and_types(capsys, wfile: str) -> None:
    d = ok_json(capsys, "inspect", wfile)
    assert set(d) == {"ruleset", "pairs"} and d["ruleset"] == "warcry"
    pairs = {(p["attacker"], p["target"]) for p in d["pairs"]}
    # every ordered pair on different sides, the taken-down c left out
    assert pairs == {("a", "b"), ("b", "a"), ("d", "b"), ("b", "d")}
    assert len(d["pairs"]) == 4
    for p in d["pairs"]:
        assert set(p) == PAIR_KEYS
        for k in ("distance", "horizontal_distance", "vertical_distance"):
            assert isinstance(p[k], float | int) and not isinstance(p[k], bool)
            assert p[k] == round(p[k], 3)
        for k in ("engaged", "visible", "flanked"):
            assert isinstance(p[k], bool)
        assert p["cover"] in ("none", "cover") and isinstance(p["cover_by"], list)
        assert p["arc"] is None and p["spaces"] is None


def test_inspect_engaged_exactly_at_one_inch(capsys, tmp_path: Path) -> None:
    d = warcry_doc()
    d["fighters"] = d["fighters"][:2]
    pairs = ok_json(capsys, "inspect", write(tmp_path, d))["pairs"]
    assert pairs[0]["distance"] == pytest.approx(1.0, abs=1e-9) and pairs[0]["engaged"] is True
    d["fighters"][1]["x"] = 7.002
    pairs = ok_json(capsys, "inspect", write(tmp_path, d))["pairs"]
    assert pairs[0]["distance"] == pytest.approx(1.002, abs=1e-9) and pairs[0]["engaged"] is False


def test_inspect_3d_distance_on_a_platform(capsys, tmp_path: Path) -> None:
    """Gap 0.6", b on a 0.8" platform (elevation null): 3D distance 1.0, engaged."""
    d = warcry_doc()
    d["fighters"] = d["fighters"][:2]
    d["fighters"][1]["x"] = 6.6
    d["fighters"][1]["elevation"] = None
    d["platforms"] = [{"id": "p1", "name": "Deck", "polygon": [[6.2, 3], [10, 3], [10, 7],
                                                               [6.2, 7]], "height": 0.8}]
    p = ok_json(capsys, "inspect", write(tmp_path, d))["pairs"][0]
    assert (p["horizontal_distance"], p["vertical_distance"], p["distance"]) == (0.6, 0.8, 1.0)
    assert p["engaged"] is True


def test_inspect_base_shapes_follow_facing(capsys, tmp_path: Path) -> None:
    """Rect: width across the facing; oval: length along it; facing absent = 90."""
    def gap(base: dict[str, Any], facing: float | None) -> float:
        extra: dict[str, Any] = {"base": base}
        if facing is not None:
            extra["facing"] = facing
        d = doc("warcry", fighters=[
            fighter("a", "red", 5, 5, wc_chars(), [wc_weapon()]),
            fighter("b", "blue", 8, 5, wc_chars(), [wc_weapon()], **extra)])
        return float(ok_json(capsys, "inspect", write(tmp_path, d))["pairs"][0]["distance"])

    rect = {"shape": "rect", "width_mm": 50, "depth_mm": 25}
    oval = {"shape": "oval", "length_mm": 60, "width_mm": 35}
    assert gap(rect, 0) == pytest.approx(2.5 - 12.5 / MM, abs=1e-3)
    assert gap(rect, 90) == pytest.approx(2.5 - 25 / MM, abs=1e-3)
    assert gap(oval, 0) == pytest.approx(2.5 - 30 / MM, abs=1e-3)
    assert gap(oval, None) == pytest.approx(2.5 - 17.5 / MM, abs=1e-3)


def test_inspect_rounds_to_three_decimals(capsys, tmp_path: Path) -> None:
    d = warcry_doc()
    d["fighters"] = d["fighters"][:2]
    d["fighters"][1]["x"] = 7.123456
    p = ok_json(capsys, "inspect", write(tmp_path, d))["pairs"][0]
    assert p["distance"] == pytest.approx(1.123, abs=1e-9)
    assert p["horizontal_distance"] == pytest.approx(1.123, abs=1e-9)


def test_inspect_warcry_cover_by_obstacle_and_platform(capsys, tmp_path: Path) -> None:
    d = doc("warcry", fighters=[
        fighter("a", "red", 5, 5, wc_chars(), [wc_weapon(rng=12)]),
        fighter("b", "blue", 5, 10, wc_chars(), [wc_weapon()]),
        fighter("h", "blue", 12, 5, wc_chars(), [wc_weapon()]),
    ], obstacles=[{"id": "w1", "name": "Wall", "polygon": [[4, 7], [6, 7], [6, 7.3], [4, 7.3]],
                   "height": 0.5, "blocks_sight": False, "cover": "soft"}],
        platforms=[{"id": "t1", "name": "Tower", "polygon": [[11, 4], [13, 4], [13, 6],
                                                             [11, 6]], "height": 3}])
    pairs = {(p["attacker"], p["target"]): p for p in
             ok_json(capsys, "inspect", write(tmp_path, d))["pairs"]}
    assert pairs["a", "b"]["cover"] == "cover" and pairs["a", "b"]["cover_by"] == ["w1"]
    assert pairs["a", "b"]["visible"] is True
    assert pairs["a", "h"]["cover"] == "cover" and pairs["a", "h"]["cover_by"] == ["t1"]
    assert pairs["a", "h"]["vertical_distance"] == pytest.approx(3.0, abs=1e-9)
    d["platforms"][0]["height"] = 2.9
    pairs = {(p["attacker"], p["target"]): p for p in
             ok_json(capsys, "inspect", write(tmp_path, d))["pairs"]}
    assert pairs["a", "h"]["cover"] == "none" and pairs["a", "h"]["cover_by"] == []
    d["ruleset_options"] = {"cover": "none"}
    pairs = {(p["attacker"], p["target"]): p for p in
             ok_json(capsys, "inspect", write(tmp_path, d))["pairs"]}
    assert pairs["a", "b"]["cover"] == "none"


def test_inspect_obstacle_on_a_platform_blocks_sight(capsys, tmp_path: Path) -> None:
    """An obstacle's height counts from the platform under it: 1" + 1" = 2" tall."""
    d = doc("warcry", fighters=[
        fighter("a", "red", 5, 5, wc_chars(), [wc_weapon(rng=12)], height=1.25),
        fighter("b", "blue", 5, 15, wc_chars(), [wc_weapon()], height=1.25),
    ], platforms=[{"id": "p1", "polygon": [[2, 9], [8, 9], [8, 11], [2, 11]], "height": 1}],
        obstacles=[{"id": "o1", "polygon": [[2, 9.8], [8, 9.8], [8, 10.2], [2, 10.2]],
                    "height": 0.6}])
    p = ok_json(capsys, "inspect", write(tmp_path, d))["pairs"][0]
    assert p["visible"] is False
    d["obstacles"][0]["blocks_sight"] = False
    d["platforms"] = []
    p = ok_json(capsys, "inspect", write(tmp_path, d))["pairs"][0]
    assert p["visible"] is True and p["cover"] == "cover"


def test_inspect_ninth_age_contact_and_arc(capsys, tmp_path: Path) -> None:
    depth = 2 * 20 / MM  # two ranks of 20 mm bases

    def pair(gap: float) -> dict[str, Any]:
        d = doc("ninth-age", options={"cover_threshold": "more_than_half"}, units=[
            unit("u1", "red", 24, 10, 90, 10, 5, na_chars(),
                 [{"name": "Hand Weapon", "kind": "close_combat", "attributes": []}]),
            unit("u2", "blue", 24, 10 + depth + gap, 270, 10, 5, na_chars(),
                 [{"name": "Spear", "kind": "close_combat",
                   "attributes": ["Fight in Extra Rank"]}], state={"hp_lost": 0})])
        out = ok_json(capsys, "inspect", write(tmp_path, d))
        assert out["ruleset"] == "ninth-age" and len(out["pairs"]) == 2
        return dict(out["pairs"][0])

    p = pair(0.005)
    assert p["engaged"] is True and p["arc"] == "front" and p["spaces"] is None
    assert p["vertical_distance"] == 0 and p["cover"] in ("none", "soft", "hard")
    assert pair(0.01)["engaged"] is True
    far = pair(0.012)
    assert far["engaged"] is False and far["distance"] == pytest.approx(0.012, abs=1e-9)


def test_inspect_circle_spaces_and_adjacency(capsys, tmp_path: Path) -> None:
    for kind in ("square", "hex"):
        d = doc("circle-of-realms", grid={"kind": kind, "size": 1}, width=12, depth=12,
                fighters=[
                    fighter("a", "red", 4.5, 4.5, cor_chars(), [
                        {"name": "Sword", "attack": 8, "attack_type": "slashing"}]),
                    fighter("b", "blue", 5.5, 4.5, cor_chars(), []),
                    fighter("e", "blue", 8.5, 4.5, cor_chars(), [])])
        pairs = {(p["attacker"], p["target"]): p for p in
                 ok_json(capsys, "inspect", write(tmp_path, d))["pairs"]}
        assert set(pairs) == {("a", "b"), ("b", "a"), ("a", "e"), ("e", "a")}
        assert pairs["a", "b"]["spaces"] == 1 and pairs["a", "b"]["engaged"] is True
        assert pairs["a", "e"]["spaces"] == 4 and pairs["a", "e"]["engaged"] is False
        assert all(p["cover"] == "none" and p["arc"] is None for p in pairs.values())
        assert all(isinstance(p["spaces"], int) for p in pairs.values())


# -- attack --json ------------------------------------------------------------------------

def test_attack_json_keys_and_types(capsys, wfile: str) -> None:
    d = ok_json(capsys, "attack", wfile, "--attacker", "a", "--target", "b")
    assert ATTACK_KEYS <= set(d)
    assert (d["ruleset"], d["attacker"], d["target"]) == ("warcry", "a", "b")
    assert d["weapon"] == "Sword" and d["offhand"] is None and d["roll"] is None
    assert d["attack_type"] == "melee" and d["valid"] is True and d["reasons"] == []
    assert set(d["geometry"]) == GEOMETRY_KEYS
    assert d["geometry"]["distance"] == pytest.approx(1.0, abs=1e-9)
    assert isinstance(d["modifiers"], list)
    assert isinstance(d["take_down_probability"], float | int)
    check_distribution(d)
    assert d["distribution"][-1][0] == 10  # capped at b's 10 wounds


def test_attack_default_weapon_is_first_valid(capsys, wfile: str) -> None:
    """d is 10" from b: the Sword cannot reach, so the default is... d's only weapon, invalid;
    a at 1" from b takes its Sword; with --weapon Bow the minimum range refuses it."""
    d = ok_json(capsys, "attack", wfile, "--attacker", "d", "--target", "b")
    assert d["weapon"] == "Sword" and d["valid"] is False and d["reasons"]
    check_distribution(d)  # odds are given even when the attack is not allowed
    bow = ok_json(capsys, "attack", wfile, "--attacker", "a", "--target", "b",
                  "--weapon", "Bow")
    assert bow["attack_type"] == "missile" and bow["valid"] is False
    assert len(bow["reasons"]) >= 1 and all(isinstance(r, str) for r in bow["reasons"])


def test_attack_roll_shape_dice_order_and_seed(capsys, wfile: str) -> None:
    base = ["attack", wfile, "--attacker", "a", "--target", "b"]
    d = ok_json(capsys, *base, "--dice", "6,1,4,5")
    roll = d["roll"]
    assert set(roll) >= {"dice", "damage", "taken_down", "steps"}
    assert roll["dice"] == [6, 1, 4, 5] and roll["damage"] == 5
    assert roll["taken_down"] is False and len(roll["steps"]) >= 4
    assert all(isinstance(s, str) for s in roll["steps"])
    one = ok_json(capsys, *base, "--seed", "12345")
    two = ok_json(capsys, *base, "--seed", "12345")
    assert one == two and len(one["roll"]["dice"]) == 4
    assert all(1 <= f <= 6 for f in one["roll"]["dice"])


def test_attack_dice_taken_down_caps_damage(capsys, tmp_path: Path) -> None:
    d = warcry_doc()
    d["fighters"][1]["state"] = {"damage": 8}
    out = ok_json(capsys, "attack", write(tmp_path, d), "--attacker", "a", "--target", "b",
                  "--dice", "6,6,6,6")
    assert out["roll"]["damage"] == 2 and out["roll"]["taken_down"] is True
    assert out["distribution"][-1][0] == 2


def test_attack_text_output_is_readable(capsys, wfile: str) -> None:
    code, out, err = run(capsys, "attack", wfile, "--attacker", "a", "--target", "b")
    assert code == 0 and err == "" and "Sword" in out
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


# -- move --json (Circle of Realms) -------------------------------------------------------

def test_move_json_shape(capsys, tmp_path: Path) -> None:
    d = doc("circle-of-realms", grid={"kind": "square", "size": 1}, width=12, depth=12,
            fighters=[
                fighter("m", "red", 4.5, 4.5, cor_chars(armour=1), []),
                fighter("e", "blue", 5.5, 5.5, cor_chars(), [
                    {"name": "Axe", "attack": 8, "attack_type": "hacking"}],
                    traits=["infantry"])])
    path = write(tmp_path, d)
    before = Path(path).read_bytes()
    out = ok_json(capsys, "move", path, "--fighter", "m", "--path", "4.5,4.5;3.5,3.5")
    assert out["fighter"] == "m"
    assert [list(map(float, p)) for p in out["path"]][-1] == [3.5, 3.5]
    (aoo,) = out["attacks_of_opportunity"]
    assert aoo["by"] == "e" and list(map(float, aoo["leaving"])) == [4.5, 4.5]
    # the Axe d8 beats the base d6: max(0, roll - armour 1) on a d8
    assert aoo["expected_damage"] == pytest.approx(sum(range(8)) / 8, abs=1e-3)
    check_distribution(aoo)
    assert Path(path).read_bytes() == before  # the file is not changed
    d["fighters"][0].update(x=3.5, y=3.5)  # entering the zone alone triggers nothing
    back = ok_json(capsys, "move", write(tmp_path, d, "b.json"), "--fighter", "m",
                   "--path", "3.5,3.5;4.5,4.5")
    assert back["attacks_of_opportunity"] == []


def test_move_refusals(capsys, tmp_path: Path) -> None:
    d = doc("circle-of-realms", grid={"kind": "hex", "size": 1}, width=12, depth=12,
            fighters=[fighter("m", "red", 4.5, 4.5, cor_chars(), [])])
    path = write(tmp_path, d)
    assert len(refused(capsys, "move", path, "--fighter", "nope", "--path", "4.5,4.5")) == 1
    assert len(refused(capsys, "move", path, "--fighter", "m", "--path", "a,b")) == 1


# -- rulesets --json ------------------------------------------------------------------------

def test_rulesets_json_lists_all_five(capsys) -> None:
    d = ok_json(capsys, "rulesets")
    items = d["rulesets"] if isinstance(d, dict) else d
    by_id = {r["id"]: r for r in items}
    assert set(by_id) == set(RULESETS)
    names = {rid: {c["name"] for c in r["characteristics"]} for rid, r in by_id.items()}
    assert names["warcry"] == {"move", "toughness", "wounds"}
    assert names["fight-vs-defense"] == {"move", "fight", "shoot", "defense", "wounds"}
    assert names["mordheim-warcry"] == {"move", "fight", "shoot", "armour", "wounds"}
    assert {"adv", "mar", "dis", "hp", "def", "res", "arm", "aegis", "fortitude", "att",
            "off", "str", "ap", "agi"} == names["ninth-age"]
    assert names["circle-of-realms"] == {"base_attack", "defense", "armour", "precision",
                                         "movement", "wounds"}
    weapon = {rid: {w["name"] for w in r["weapon_fields"]} for rid, r in by_id.items()}
    assert {"range", "attacks", "strength", "damage"} <= weapon["warcry"]
    assert {"kind", "range", "attacks", "damage", "piercing"} <= weapon["fight-vs-defense"]
    assert {"piercing", "parry", "kind"} <= weapon["mordheim-warcry"]
    assert {"kind", "strength", "ap", "attacks", "range", "aim", "shots",
            "attributes"} <= weapon["ninth-age"]
    assert {"attack", "attack_type", "range", "hand"} <= weapon["circle-of-realms"]
    opts = {rid: {o["key"]: o for o in r["ruleset_options"]} for rid, r in by_id.items()}
    assert opts["warcry"]["cover"]["default"] == "all"
    assert opts["fight-vs-defense"]["platform_cover_in_melee"]["default"] is False
    assert opts["ninth-age"]["cover_threshold"]["default"] == "more_than_half"
    assert {"counter_damage", "dismemberment_faces"} <= set(opts["circle-of-realms"])
    sit = {rid: {o["key"] for o in r["situational_options"]} for rid, r in by_id.items()}
    assert "diving_charge" in sit["mordheim-warcry"]
    assert {"charging", "first_round", "stand_and_shoot", "attacking_models",
            "supporting_models"} <= sit["ninth-age"]
    assert {"night", "attack_bonus", "limb_choice"} <= sit["circle-of-realms"]
    code, out, err = run(capsys, "rulesets")
    assert code == 0 and err == "" and all(rid in out for rid in RULESETS)


# -- validate -------------------------------------------------------------------------------

def test_validate_reports_every_problem_with_its_place(capsys, tmp_path: Path) -> None:
    d = warcry_doc()
    d["ruleset_options"] = {"bogus": 1}
    d["fighters"][2]["base"] = {"shape": "round", "diameter_mm": 0}
    d["fighters"][1]["side"] = "green"
    d["fighters"][0]["weapons"][1]["range"] = "20-6"
    d["fighters"][0]["weapons"][0]["damage"] = "3"
    d["fighters"][0]["characteristics"]["fight"] = 3
    d["fighters"][3]["y"] = "far"
    d["obstacles"] = [{"id": "o1", "polygon": [[0, 0], [1, 1]], "height": 1},
                      {"id": "a", "polygon": [[0, 0], [2, 2], [2, 0], [0, 2]], "height": 1}]
    d["platforms"] = [{"id": "p1", "polygon": [[0, 0], [1, 0], [1, 1]], "height": -1}]
    d["battlefield"]["width"] = 0
    path = write(tmp_path, d)
    lines = refused(capsys, "validate", path)
    text = "\n".join(lines)
    for place in ("fighters[2].base.diameter_mm: must be > 0", "fighters[1].side",
                  "fighters[0].weapons[1].range", "fighters[0].weapons[0].damage",
                  "fighters[0].characteristics.fight", "fighters[3].y",
                  "obstacles[0].polygon", "obstacles[1].polygon", "platforms[0].height",
                  "battlefield.width", "ruleset_options.bogus", "obstacles[1].id"):
        assert place in text, place
    assert len(lines) == 12


@pytest.mark.parametrize(("field", "value", "place"), [
    ("format", "something/else", "format"),
    ("schema_version", 2, "schema_version"),
    ("ruleset", "chess", "ruleset"),
])
def test_validate_top_level_refusals(capsys, tmp_path: Path, field: str, value: Any,
                                     place: str) -> None:
    d = warcry_doc()
    d[field] = value
    lines = refused(capsys, "validate", write(tmp_path, d))
    assert len(lines) == 1 and place in lines[0]
    if field == "schema_version":
        assert "1" in lines[0].split("schema_version", 1)[1]


def test_validate_nan_missing_and_grid(capsys, tmp_path: Path) -> None:
    d = warcry_doc()
    del d["battlefield"]["depth"]
    del d["fighters"][0]["x"]
    text = json.dumps(d).replace('"y": 5,', '"y": NaN,', 1)
    path = tmp_path / "nan.json"
    path.write_text(text, encoding="utf-8")
    lines = refused(capsys, "validate", str(path))
    assert any("battlefield.depth" in line for line in lines)
    assert any("fighters[0].x" in line for line in lines)
    assert any("fighters[0].y" in line for line in lines)
    d = doc("circle-of-realms", fighters=[fighter("a", "red", 1, 1, cor_chars(), [])])
    lines = refused(capsys, "validate", write(tmp_path, d))
    assert any("grid" in line for line in lines)


def test_validate_accepts_every_edge_form(capsys, tmp_path: Path) -> None:
    d = warcry_doc()
    d["ruleset_options"] = {"cover": "missile"}
    d["fighters"][0]["traits"] = ["fly"]
    d["obstacles"] = [{"id": "o1", "polygon": [[10, 10], [12, 10], [11, 12]], "height": 1,
                       "blocks_sight": False, "cover": "soft"},
                      {"id": "o2", "polygon": [[21, 15], [22, 15], [22, 16]], "height": 1}]
    d["platforms"] = [{"id": "p1", "polygon": [[20, 14], [24, 14], [24, 18], [20, 18]],
                       "height": 3.0}]
    code, out, err = run(capsys, "validate", write(tmp_path, d))
    assert code == 0 and err == "" and out.strip()


def test_saved_file_loads_back_equal(tmp_path: Path) -> None:
    for d in (warcry_doc(), doc("ninth-age", units=[
            unit("u1", "red", 24, 10, 90, 12, 5, na_chars(), [
                {"name": "Bow", "kind": "shooting", "range": 24, "aim": 4, "shots": "D3",
                 "strength": 3, "ap": 0, "attributes": ["Area Attack (3x3)"]}],
                height_class="large", traits=[{"aegis_vs_magical": 4}, "shield"])]),
            doc("circle-of-realms", grid={"kind": "hex", "size": 1.5}, fighters=[
                fighter("a", "red", 4.5, 4.5, cor_chars(), [], traits=["left_handed"],
                        state={"damage": 1, "limbs_lost": ["LH"]})])):
        src = write(tmp_path, d, "src.json")
        first = load_scenario(src)
        save_scenario(first, tmp_path / "out.json")
        assert load_scenario(tmp_path / "out.json") == first
        save_scenario(load_scenario(tmp_path / "out.json"), tmp_path / "again.json")
        assert (tmp_path / "again.json").read_text() == (tmp_path / "out.json").read_text()


# -- the real executable ----------------------------------------------------------------------

def _proc(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tabletop_gui", *argv], capture_output=True,
                          text=True, timeout=60, check=False)


def test_subprocess_attack_and_refusal(wfile: str) -> None:
    p = _proc("attack", wfile, "--attacker", "a", "--target", "b", "--seed", "3", "--json")
    assert p.returncode == 0 and p.stderr == ""
    assert json.loads(p.stdout)["roll"]["dice"]
    p = _proc("attack", wfile, "--attacker", "a", "--target", "b", "--dice", "1,2")
    assert p.returncode == 2 and p.stdout == "" and len(p.stderr.strip().splitlines()) == 1


def test_subprocess_inspect_and_missing_file(wfile: str, tmp_path: Path) -> None:
    p = _proc("inspect", wfile, "--json")
    assert p.returncode == 0 and set(json.loads(p.stdout)) == {"ruleset", "pairs"}
    p = _proc("validate", str(tmp_path / "nope.json"))
    assert p.returncode == 2 and p.stdout == "" and len(p.stderr.strip().splitlines()) == 1


def test_validate_checks_ruleset_option_values(capsys, tmp_path: Path) -> None:
    """A file whose options an attack would refuse is refused by validate already."""
    def circle(options: dict[str, Any]) -> str:
        return write(tmp_path, doc("circle-of-realms", grid={"kind": "square", "size": 1},
                                   options=options, fighters=[
                                       fighter("a", "red", 1.5, 1.5, cor_chars(), [])]))

    for bad in ("foo,bar", "RH", "RH,LH,RL,LL,5,6"):
        lines = refused(capsys, "validate", circle({"dismemberment_faces": bad}))
        assert len(lines) == 1 and "ruleset_options.dismemberment_faces" in lines[0]
    code, _, err = run(capsys, "validate", circle(
        {"dismemberment_faces": "LL, RL,LH,RH,defender,attacker", "counter_damage": "never"}))
    assert code == 0 and err == ""
    lines = refused(capsys, "validate", circle({"counter_damage": "sometimes"}))
    assert len(lines) == 1 and "ruleset_options.counter_damage" in lines[0]


def test_distribution_never_lists_a_zero_probability(capsys, tmp_path: Path) -> None:
    """16 attacks: all critical, (1/6)^16 = 3.5e-13, is possible and must not print as 0."""
    path = write(tmp_path, doc("warcry", fighters=[
        fighter("a", "red", 5, 5, wc_chars(), [wc_weapon(attacks=16, damage="1/3")]),
        fighter("b", "blue", 6.5, 5, wc_chars(wounds=100), [wc_weapon()])]))
    out = ok_json(capsys, "attack", path, "--attacker", "a", "--target", "b")
    check_distribution(out)
    assert out["distribution"][-1][0] == 48
    assert out["distribution"][-1][1] == pytest.approx(6.0 ** -16, rel=1e-6)


@pytest.mark.parametrize("ruleset", ["warcry", "fight-vs-defense", "circle-of-realms"])
def test_damage_at_wounds_is_taken_down(capsys, tmp_path: Path, ruleset: str) -> None:
    """A state giving only the damage (at the fighter's Wounds) means taken down: left out
    of inspect, and an attack on it is refused with that reason."""
    if ruleset == "circle-of-realms":
        chars, weapons = cor_chars(wounds=5), [{"name": "Sword", "attack": 8,
                                                "attack_type": "slashing"}]
        extra: dict[str, Any] = {"grid": {"kind": "square", "size": 1}}
        xs = (4.5, 5.5)
    elif ruleset == "warcry":
        chars, weapons, extra, xs = wc_chars(wounds=5), [wc_weapon()], {}, (5, 6.5)
    else:
        chars, weapons, extra, xs = fvd_chars(wounds=5), [v_weapon()], {}, (5, 6.5)

    def file(state: dict[str, Any]) -> str:
        return write(tmp_path, doc(ruleset, fighters=[
            fighter("a", "red", xs[0], 4.5, chars, weapons),
            fighter("b", "blue", xs[1], 4.5, chars, weapons, state=state)], **extra))

    assert len(ok_json(capsys, "inspect", file({"damage": 4}))["pairs"]) == 2
    path = file({"damage": 5})
    assert ok_json(capsys, "inspect", path)["pairs"] == []
    out = ok_json(capsys, "attack", path, "--attacker", "a", "--target", "b")
    assert out["valid"] is False and any("taken down" in r for r in out["reasons"])
    if ruleset == "circle-of-realms":  # both legs lost takes the fighter down too
        assert ok_json(capsys, "inspect", file({"limbs_lost": ["RL", "LL"]}))["pairs"] == []


def test_offhand_refused_where_the_ruleset_has_no_dual_wielding(capsys, tmp_path: Path
                                                                 ) -> None:
    hand = {"name": "Hand Weapon", "kind": "close_combat", "attributes": []}
    path = write(tmp_path, doc("ninth-age", units=[
        unit("u1", "red", 24, 10, 90, 10, 5, na_chars(), [hand, dict(hand, name="Spear")]),
        unit("u2", "blue", 24, 20, 270, 10, 5, na_chars(), [hand])]))
    lines = refused(capsys, "attack", path, "--attacker", "u1", "--target", "u2",
                    "--offhand", "Spear", "--json")
    assert len(lines) == 1 and "--offhand" in lines[0]
    path = write(tmp_path, doc("warcry", fighters=[
        fighter("a", "red", 5, 5, wc_chars(), [wc_weapon(), wc_weapon("Axe")]),
        fighter("b", "blue", 6.5, 5, wc_chars(), [wc_weapon()])]))
    lines = refused(capsys, "attack", path, "--attacker", "a", "--target", "b",
                    "--offhand", "Axe")
    assert len(lines) == 1 and "--offhand" in lines[0]


@pytest.mark.parametrize("argv", [
    ["attack", "FILE", "--target", "b"],
    ["attack", "FILE", "--attacker", "a", "--target", "b", "--seed", "x"],
    ["inspect"],
    ["move", "FILE", "--fighter", "a"],
])
def test_usage_mistakes_are_one_line(capsys, wfile: str, argv: list[str]) -> None:
    lines = refused(capsys, *[wfile if a == "FILE" else a for a in argv])
    assert len(lines) == 1 and "--help" in lines[0]


def test_inspect_three_sides_and_explicit_elevations(capsys, tmp_path: Path) -> None:
    """Every ordered pair on different sides (three sides here); an explicit elevation
    wins over the platform under the fighter, null or absent takes the platform's."""
    d = doc("warcry", fighters=[
        fighter("a", "red", 5, 5, wc_chars(), [wc_weapon()], elevation=2.0),
        fighter("b", "blue", 8, 5, wc_chars(), [wc_weapon()], elevation=0),
        fighter("g", "green", 5, 9, wc_chars(), [wc_weapon()]),
        fighter("h", "green", 8.5, 5, wc_chars(), [wc_weapon()], elevation=None)],
        platforms=[{"id": "p", "polygon": [[7, 4], [9, 4], [9, 6], [7, 6]], "height": 3}])
    d["sides"].append({"id": "green", "name": "Green"})
    pairs = {(p["attacker"], p["target"]): p for p in
             ok_json(capsys, "inspect", write(tmp_path, d))["pairs"]}
    assert set(pairs) == {(x, y) for x in "abgh" for y in "abgh"
                          if x != y and {x, y} != {"g", "h"}}
    ab = pairs["a", "b"]
    assert (ab["horizontal_distance"], ab["vertical_distance"]) == (2.0, 2.0)
    assert ab["distance"] == round(8 ** 0.5, 3)
    assert pairs["b", "h"]["vertical_distance"] == pytest.approx(3.0, abs=1e-9)
    assert pairs["a", "h"]["vertical_distance"] == pytest.approx(1.0, abs=1e-9)
