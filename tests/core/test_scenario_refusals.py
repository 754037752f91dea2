"""Every refusal of docs/scenario-format.md, each reported at its exact place."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from tabletop_gui.scenario.load import loads_scenario
from tabletop_gui.scenario.problems import Problem, ScenarioError
from tests.core.scenario_samples import circle_doc, ninth_age_doc, text, warcry_doc

Doc = dict[str, Any]


def refused(data: str | bytes) -> list[Problem]:
    with pytest.raises(ScenarioError) as info:
        loads_scenario(data)
    err = info.value
    assert isinstance(err, ValueError)
    assert str(err).splitlines() == [str(p) for p in err.problems]
    return err.problems


def assert_refused(doc: Doc, path: str, fragment: str) -> None:
    problems = refused(text(doc))
    hits = [p for p in problems if p.path == path and fragment in p.message]
    assert hits, f"no problem at {path!r} containing {fragment!r}: {problems}"


def f0(doc: Doc) -> Doc:
    fighter: Doc = doc["fighters"][0]
    return fighter


def w0(doc: Doc) -> Doc:
    weapon: Doc = doc["fighters"][0]["weapons"][0]
    return weapon


def u0(doc: Doc) -> Doc:
    unit: Doc = doc["units"][0]
    return unit


def setter(get: Callable[[Doc], Doc], key: str, value: Any) -> Callable[[Doc], None]:
    def apply(doc: Doc) -> None:
        get(doc)[key] = value
    return apply


def deleter(get: Callable[[Doc], Doc], key: str) -> Callable[[Doc], None]:
    def apply(doc: Doc) -> None:
        del get(doc)[key]
    return apply


def top(doc: Doc) -> Doc:
    return doc


def field(doc: Doc) -> Doc:
    bf: Doc = doc["battlefield"]
    return bf


def base0(doc: Doc) -> Doc:
    base: Doc = doc["fighters"][0]["base"]
    return base


def chars0(doc: Doc) -> Doc:
    chars: Doc = doc["fighters"][0]["characteristics"]
    return chars


def obst0(doc: Doc) -> Doc:
    obstacle: Doc = doc["obstacles"][0]
    return obstacle


WARCRY_CASES: list[tuple[str, Callable[[Doc], None], str, str]] = [
    ("wrong format", setter(top, "format", "other/thing"), "format", "not a scenario file"),
    ("missing format", deleter(top, "format"), "format", "missing required field"),
    ("newer schema", setter(top, "schema_version", 2), "schema_version", "newest: 1"),
    ("schema zero", setter(top, "schema_version", 0), "schema_version", "unsupported version 0"),
    ("schema as text", setter(top, "schema_version", "1"), "schema_version", "whole number"),
    ("schema as bool", setter(top, "schema_version", True), "schema_version", "whole number"),
    ("schema as list", setter(top, "schema_version", [1] * 50), "schema_version",
     "must be a whole number, not a list"),
    ("schema missing", deleter(top, "schema_version"), "schema_version", "missing required"),
    ("unknown ruleset", setter(top, "ruleset", "chess"), "ruleset", 'unknown ruleset "chess"'),
    ("missing ruleset", deleter(top, "ruleset"), "ruleset", "missing required field"),
    ("unknown top key", setter(top, "extra", 1), "extra", "unknown field"),
    ("name not text", setter(top, "name", 5), "name", "must be a string, not a number"),
    ("option unknown", setter(top, "ruleset_options", {"fog": True}), "ruleset_options.fog",
     "not an option of warcry"),
    ("option bad value", setter(top, "ruleset_options", {"cover": "sometimes"}),
     "ruleset_options.cover", "takes one of all, missile, none"),
    ("options not object", setter(top, "ruleset_options", []), "ruleset_options",
     "must be an object, not a list"),
    ("battlefield missing", deleter(top, "battlefield"), "battlefield", "missing required"),
    ("width zero", setter(field, "width", 0), "battlefield.width", "must be > 0"),
    ("depth negative", setter(field, "depth", -5), "battlefield.depth", "must be > 0"),
    ("width bool", setter(field, "width", True), "battlefield.width",
     "must be a number, not a boolean"),
    ("width text", setter(field, "width", "30"), "battlefield.width",
     "must be a number, not a string"),
    ("width huge", setter(field, "width", 1e308), "battlefield.width", "too large"),
    ("grid kind", setter(field, "grid", {"kind": "triangle", "size": 1}),
     "battlefield.grid.kind", "must be one of square, hex"),
    ("grid size", setter(field, "grid", {"kind": "square", "size": 0}), "battlefield.grid.size",
     "must be > 0"),
    ("sides empty", setter(top, "sides", []), "sides", "at least 1 item"),
    ("sides missing", deleter(top, "sides"), "sides", "missing required field"),
    ("side id repeated", lambda d: d["sides"][1].update(id="red"), "sides[1].id",
     'duplicate side id "red"'),
    ("side colour", lambda d: d["sides"][0].update(color="red"), "sides[0].color", "colour"),
    ("side id empty", lambda d: d["sides"][0].update(id=" "), "sides[0].id", "must not be empty"),
    ("unknown side", setter(f0, "side", "green"), "fighters[0].side", 'unknown side "green"'),
    ("x missing", deleter(f0, "x"), "fighters[0].x", "missing required field"),
    ("x text", setter(f0, "x", "5"), "fighters[0].x", "must be a number, not a string"),
    ("x huge", setter(f0, "x", -1e308), "fighters[0].x", "too large"),
    ("id missing", deleter(f0, "id"), "fighters[0].id", "missing required field"),
    ("id number", setter(f0, "id", 7), "fighters[0].id", "must be a string"),
    ("fighter key typo", setter(f0, "elevaton", 2), "fighters[0].elevaton", "unknown field"),
    ("fighter not object", lambda d: d["fighters"].__setitem__(0, [1, 2]), "fighters[0]",
     "must be an object, not a list"),
    ("fighters not list", setter(top, "fighters", {}), "fighters", "must be a list"),
    ("diameter zero", setter(base0, "diameter_mm", 0), "fighters[0].base.diameter_mm",
     "must be > 0"),
    ("diameter negative", setter(base0, "diameter_mm", -32), "fighters[0].base.diameter_mm",
     "must be > 0"),
    ("base shape", setter(base0, "shape", "hexagon"), "fighters[0].base.shape",
     "must be one of round, oval, rect"),
    ("base missing", deleter(f0, "base"), "fighters[0].base", "missing required field"),
    ("oval size missing", lambda d: d["fighters"][1]["base"].pop("width_mm"),
     "fighters[1].base.width_mm", "missing required field"),
    ("base extra size", setter(base0, "width_mm", 30), "fighters[0].base.width_mm",
     "unknown field"),
    ("rect depth zero", setter(f0, "base", {"shape": "rect", "width_mm": 25, "depth_mm": 0}),
     "fighters[0].base.depth_mm", "must be > 0"),
    ("height zero", setter(f0, "height", 0), "fighters[0].height", "must be > 0"),
    ("elevation negative", setter(f0, "elevation", -1), "fighters[0].elevation", "must be >= 0"),
    ("unknown characteristic", setter(chars0, "fight", 4), "fighters[0].characteristics.fight",
     "not a characteristic of warcry"),
    ("missing characteristic", lambda d: chars0(d).pop("toughness"),
     "fighters[0].characteristics.toughness", "missing required characteristic"),
    ("characteristics missing", deleter(f0, "characteristics"), "fighters[0].characteristics",
     "missing required field"),
    ("fractional wounds", setter(chars0, "wounds", 2.5), "fighters[0].characteristics.wounds",
     "whole number"),
    ("bool is not a number", setter(chars0, "move", True), "fighters[0].characteristics.move",
     "must be a number, not a boolean"),
    ("zero wounds", setter(chars0, "wounds", 0), "fighters[0].characteristics.wounds",
     "must be >= 1"),
    ("no weapons", setter(f0, "weapons", []), "fighters[0].weapons", "at least 1 item"),
    ("weapons missing", deleter(f0, "weapons"), "fighters[0].weapons", "missing required"),
    ("range min not below max", setter(w0, "range", "6-3"), "fighters[0].weapons[0].range",
     "minimum range 6 must be below maximum 3"),
    ("range min equal max", setter(w0, "range", "6-6"), "fighters[0].weapons[0].range",
     "must be below maximum"),
    ("range text", setter(w0, "range", "far"), "fighters[0].weapons[0].range",
     'must be a number or "min-max"'),
    ("range zero", setter(w0, "range", 0), "fighters[0].weapons[0].range", "must be > 0"),
    ("damage not hit/crit", setter(w0, "damage", "3"), "fighters[0].weapons[0].damage",
     '"hit/crit"'),
    ("damage a number", setter(w0, "damage", 3), "fighters[0].weapons[0].damage", "hit/crit"),
    ("unknown weapon field", setter(w0, "piercing", 1), "fighters[0].weapons[0].piercing",
     "not a weapon field of warcry"),
    ("weapon field missing", lambda d: w0(d).pop("strength"), "fighters[0].weapons[0].strength",
     "missing required weapon field"),
    ("weapon name missing", lambda d: w0(d).pop("name"), "fighters[0].weapons[0].name",
     "missing required field"),
    ("weapon names repeat", lambda d: f0(d)["weapons"].append(dict(w0(d))),
     "fighters[0].weapons[1].name", 'another weapon is also named "Sword"'),
    ("empty trait", setter(f0, "traits", [" "]), "fighters[0].traits[0]",
     "a trait needs a name"),
    ("traits not list", setter(f0, "traits", "fly"), "fighters[0].traits", "must be a list"),
    ("unknown state key", setter(f0, "state", {"mood": True}), "fighters[0].state.mood",
     "not a state field of warcry"),
    ("negative damage state", setter(f0, "state", {"damage": -1}), "fighters[0].state.damage",
     "must be >= 0"),
    ("state bool type", setter(f0, "state", {"taken_down": 1}), "fighters[0].state.taken_down",
     "must be true or false"),
    ("duplicate fighter id", lambda d: d["fighters"][1].update(id="f1"), "fighters[1].id",
     'duplicate id "f1" (also fighters[0])'),
    ("obstacle id of a fighter", setter(obst0, "id", "f2"), "obstacles[0].id",
     'duplicate id "f2" (also fighters[1])'),
    ("platform id of an obstacle", lambda d: d["platforms"][0].update(id="w1"),
     "platforms[0].id", 'duplicate id "w1" (also obstacles[0])'),
    ("two vertices", setter(obst0, "polygon", [[0, 0], [1, 1]]), "obstacles[0].polygon",
     "needs at least 3 vertices, has 2"),
    ("closed two-vertex ring", setter(obst0, "polygon", [[0, 0], [1, 1], [0, 0]]),
     "obstacles[0].polygon", "needs at least 3 vertices"),
    ("bow tie", setter(obst0, "polygon", [[0, 0], [2, 2], [2, 0], [0, 2]]),
     "obstacles[0].polygon", "crosses or touches itself at (1, 1)"),
    ("collinear", setter(obst0, "polygon", [[0, 0], [1, 0], [2, 0]]), "obstacles[0].polygon",
     "no area"),
    ("platform bow tie", lambda d: d["platforms"][0].update(
        polygon=[[0, 0], [2, 2], [2, 0], [0, 2]]), "platforms[0].polygon", "crosses"),
    ("vertex not a pair", lambda d: obst0(d)["polygon"].__setitem__(1, [1]),
     "obstacles[0].polygon[1]", "must be [x, y]"),
    ("vertex text", lambda d: obst0(d)["polygon"].__setitem__(1, ["a", 1]),
     "obstacles[0].polygon[1][0]", "must be a number"),
    ("obstacle height zero", setter(obst0, "height", 0), "obstacles[0].height", "must be > 0"),
    ("obstacle cover", setter(obst0, "cover", "medium"), "obstacles[0].cover",
     "must be one of hard, soft"),
    ("blocks_sight text", setter(obst0, "blocks_sight", "yes"), "obstacles[0].blocks_sight",
     "true or false"),
    ("platform height missing", lambda d: d["platforms"][0].pop("height"),
     "platforms[0].height", "missing required field"),
    ("units in warcry", lambda d: d.update(units=ninth_age_doc()["units"]), "units",
     "warcry places fighters, not units"),
]


@pytest.mark.parametrize(("mutate", "path", "fragment"),
                         [c[1:] for c in WARCRY_CASES], ids=[c[0] for c in WARCRY_CASES])
def test_refusal_names_the_place(mutate: Callable[[Doc], None], path: str,
                                 fragment: str) -> None:
    doc = warcry_doc()
    mutate(doc)
    assert_refused(doc, path, fragment)


UNIT_CASES: list[tuple[str, Callable[[Doc], None], str, str]] = [
    ("fighters in ninth-age", lambda d: d.update(fighters=warcry_doc()["fighters"]), "fighters",
     "ninth-age places units, not fighters"),
    ("models zero", setter(u0, "models", 0), "units[0].models", "must be >= 1"),
    ("models fraction", setter(u0, "models", 2.5), "units[0].models", "whole number"),
    ("files over models", setter(u0, "files", 30), "units[0].files", "cannot exceed models"),
    ("base_mm one number", setter(u0, "base_mm", [20]), "units[0].base_mm", "[width, depth]"),
    ("base_mm zero", setter(u0, "base_mm", [20, 0]), "units[0].base_mm[1]", "must be > 0"),
    ("round base many models", setter(u0, "round_base", True), "units[0].round_base",
     "a round base holds one model, not 20"),
    ("height class", setter(u0, "height_class", "huge"), "units[0].height_class",
     "must be one of standard, large, gigantic"),
    ("unit characteristic", lambda d: u0(d)["characteristics"].update(toughness=3),
     "units[0].characteristics.toughness", "not a characteristic of ninth-age"),
    ("modifier text", lambda d: d["units"][1]["weapons"][0].update(strength="strong"),
     "units[1].weapons[0].strength", 'must be a number or "+N"'),
    ("weapon kind", lambda d: d["units"][1]["weapons"][0].update(kind="magic"),
     "units[1].weapons[0].kind", "must be one of close_combat, shooting"),
    ("dice text", lambda d: d["units"][1]["weapons"][0].update(shots="lots"),
     "units[1].weapons[0].shots", "dice"),
    ("valued trait bare", lambda d: d["units"][1].update(traits=["aegis_vs_magical"]),
     "units[1].traits[0]", "takes a value"),
    ("valued trait text", lambda d: d["units"][1].update(traits=[{"aegis_vs_magical": "4"}]),
     "units[1].traits[0].aegis_vs_magical", "must be a number"),
    ("valued trait not a number",
     lambda d: d["units"][1].update(traits=[{"regeneration": "x"}]),
     "units[1].traits[0].regeneration", "must be"),
    ("unit key typo", setter(u0, "rank", 4), "units[0].rank", "unknown field"),
    ("option of another ruleset", setter(top, "ruleset_options", {"cover": "all"}),
     "ruleset_options.cover", "not an option of ninth-age"),
]


@pytest.mark.parametrize(("mutate", "path", "fragment"),
                         [c[1:] for c in UNIT_CASES], ids=[c[0] for c in UNIT_CASES])
def test_unit_refusal_names_the_place(mutate: Callable[[Doc], None], path: str,
                                      fragment: str) -> None:
    doc = ninth_age_doc()
    mutate(doc)
    assert_refused(doc, path, fragment)


def test_circle_of_realms_needs_a_grid() -> None:
    doc = circle_doc()
    doc["battlefield"]["grid"] = None
    assert_refused(doc, "battlefield.grid", "plays on a grid")
    del doc["battlefield"]["grid"]
    assert_refused(doc, "battlefield.grid", "plays on a grid")


def test_circle_of_realms_fighter_may_be_unarmed_but_others_may_not() -> None:
    scenario = loads_scenario(text(circle_doc()))
    assert scenario.fighters[0].weapons == ()
    doc = circle_doc()
    del doc["fighters"][0]["weapons"]
    assert loads_scenario(text(doc)).fighters[0].weapons == ()
    doc = circle_doc()
    doc["fighters"][1]["state"] = {"limbs_lost": ["XX"]}
    assert_refused(doc, "fighters[1].state.limbs_lost", "limbs must be among")


@pytest.mark.parametrize(("literal", "where"), [("NaN", "x"), ("Infinity", "y"),
                                                ("-Infinity", "facing"), ("1e400", "x")])
def test_nan_and_infinity_are_refused_where_they_stand(literal: str, where: str) -> None:
    doc = warcry_doc()
    f0(doc)[where] = "@@"
    problems = refused(text(doc).replace('"@@"', literal))
    assert [str(p) for p in problems] == [f"fighters[0].{where}: must be a finite number, not "
                                          f"{'Infinity' if literal == '1e400' else literal}"]


def test_nan_in_an_unchecked_place_is_still_refused() -> None:
    doc = warcry_doc()
    doc["$schema"] = "@@"
    problems = refused(text(doc).replace('"@@"', "NaN"))
    assert problems[0].path == "$schema"


def test_huge_integer_literals_are_refused_not_crashing() -> None:
    doc = warcry_doc()
    f0(doc)["x"] = "@@"
    problems = refused(text(doc).replace('"@@"', "9" * 5000))
    assert [p.path for p in problems] == ["fighters[0].x"]
    chars0(doc)["wounds"] = "@@"
    f0(doc)["x"] = 1
    problems = refused(text(doc).replace('"@@"', "9" * 400))
    assert [p.path for p in problems] == ["fighters[0].characteristics.wounds"]


def test_repeated_json_keys_are_refused() -> None:
    data = text(warcry_doc()).replace('"x": 5,', '"x": 5, "x": 6,', 1)
    problems = refused(data)
    assert [str(p) for p in problems] == ["fighters[0].x: this key appears more than once"]


@pytest.mark.parametrize(("data", "fragment"), [
    (b"\xff\xfe\x00garbage", "not UTF-8 text: invalid byte at offset 0"),
    (b'{"format": "tabletop-gui/scenario", \x00}', "not valid JSON"),
    ('{"format": ', "not valid JSON: Expecting value (line 1, column 12)"),
    ("", "not valid JSON"),
    ("[]", "the top level must be an object, not a list"),
    ('"scenario"', "the top level must be an object, not a string"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"a":' * 40 + "1" + "}" * 40, "nested too deeply"),
    ("\ud800", "not valid Unicode text"),
])
def test_garbage_is_refused_as_a_whole(data: str | bytes, fragment: str) -> None:
    problems = refused(data)
    assert len(problems) == 1 and problems[0].path == "" and fragment in problems[0].message


def test_byte_order_mark_is_accepted() -> None:
    scenario = loads_scenario(b"\xef\xbb\xbf" + text(warcry_doc()).encode())
    assert scenario.name == "Test"


def test_files_over_16_mib_are_refused(tmp_path: Any) -> None:
    from tabletop_gui.scenario.load import load_scenario

    big = tmp_path / "big.battle.json"
    body = text(warcry_doc())
    big.write_bytes(body.encode() + b" " * (16 * 1024 * 1024 + 1 - len(body)))
    with pytest.raises(ScenarioError) as info:
        load_scenario(big)
    assert [str(p) for p in info.value.problems] == ["the file is larger than 16 MiB"]
    problems = refused(body + " " * (16 * 1024 * 1024))
    assert "larger than 16 MiB" in problems[0].message


def test_more_than_10000_entities_are_refused() -> None:
    doc = warcry_doc()
    doc["obstacles"] = [dict(obst0(doc), id=f"o{i}") for i in range(10_000)]
    problems = refused(text(doc))
    assert [p.path for p in problems] == [""]
    assert "too many entities: 10003" in problems[0].message
    doc["obstacles"] = doc["obstacles"][:9_997]
    assert len(loads_scenario(text(doc)).entities) == 10_000


def test_every_problem_of_a_file_is_reported_together() -> None:
    doc = warcry_doc()
    base0(doc)["diameter_mm"] = -1
    f0(doc)["side"] = "green"
    w0(doc)["damage"] = "x"
    doc["fighters"][1]["id"] = "w1"
    doc["platforms"][0]["polygon"] = [[0, 0], [1, 1]]
    doc["battlefield"]["width"] = 0
    with pytest.raises(ScenarioError) as info:
        loads_scenario(text(doc), source="bad.battle.json")
    err = info.value
    assert err.source == "bad.battle.json"
    assert {p.path for p in err.problems} == {
        "fighters[0].base.diameter_mm", "fighters[0].side", "fighters[0].weapons[0].damage",
        "obstacles[0].id", "platforms[0].polygon", "battlefield.width"}
    assert len(str(err).splitlines()) == 6


def test_a_side_with_a_bad_colour_is_still_known_to_its_models() -> None:
    doc = warcry_doc()
    doc["sides"][0]["color"] = "crimson"
    assert [p.path for p in refused(text(doc))] == ["sides[0].color"]


def test_wrong_format_stops_before_the_rest() -> None:
    problems = refused(json.dumps({"format": "other", "fighters": 3}))
    assert [p.path for p in problems] == ["format"]


def test_odd_keys_are_quoted_in_the_place() -> None:
    doc = warcry_doc()
    f0(doc)["state"] = {"odd key": 1}
    assert_refused(doc, 'fighters[0].state["odd key"]', "not a state field")


def test_traits_the_ruleset_does_not_read_are_kept_and_saved() -> None:
    # Traits are players' flags: an unknown one is kept verbatim (the rules ignore it),
    # and `panicked` in a warcry fighter's state is the format's own field.
    from tabletop_gui.scenario.save import dumps_scenario

    doc = warcry_doc()
    f0(doc)["traits"] = ["leader", "fly"]
    f0(doc)["state"] = {"damage": 2, "panicked": True}
    sc = loads_scenario(text(doc))
    assert sc.fighters[0].traits == ("leader", "fly")
    assert sc.fighters[0].state["panicked"] is True
    assert loads_scenario(dumps_scenario(sc)) == sc


def test_characteristics_that_attacks_do_not_read_may_be_left_out() -> None:
    # Movement is not part of any attack: a fighter with only toughness and wounds loads,
    # and a Ninth Age unit may come without weapons (it fights with a hand weapon).
    doc = warcry_doc()
    f0(doc)["characteristics"].pop("move", None)
    assert "move" not in loads_scenario(text(doc)).fighters[0].characteristics
    na = ninth_age_doc()
    for key in ("adv", "mar", "dis", "agi"):
        na["units"][0]["characteristics"].pop(key, None)
    na["units"][0]["weapons"] = []
    assert loads_scenario(text(na)).units[0].weapons == ()


def test_shots_given_as_a_number_in_a_string() -> None:
    from tabletop_gui.rules.fields import DiceSpec, parse_dice

    assert parse_dice("3") == DiceSpec(3, 0)
    assert parse_dice("D3") == DiceSpec(1, 3)


@pytest.mark.parametrize("value", ["\u00b2", "D\u00b2", "\u0663", "D3+\u00b2", "+\u00b2"])
def test_only_ascii_digits_are_numbers(value: str) -> None:
    """str.isdigit() and regex \\d also take "²" (which int() refuses) and "٣" (which
    int() reads as 3): every parser takes ASCII digits only, so what the loader accepts
    never fails later."""
    from tabletop_gui.rules.fields import FieldError, parse_dice, parse_modifier

    with pytest.raises(FieldError):
        parse_dice(value)
    with pytest.raises(FieldError):
        parse_modifier(value, 3)


@pytest.mark.parametrize(("value", "message"), [
    ("D3+101", 'dice "D3+101" out of bounds (1-20 dice of 2-100 sides, a bonus of at most '
               "100)"),
    ("D3+" + "9" * 5000, "out of bounds"),  # no int() of 5,000 digits
    ("21D6", "out of bounds"),
    ("D101", "out of bounds"),
])
def test_dice_bounds(value: str, message: str) -> None:
    from tabletop_gui.rules.fields import FieldError, parse_dice

    with pytest.raises(FieldError, match=re.escape(message)):
        parse_dice(value)


def test_modifier_and_damage_bounds() -> None:
    from tabletop_gui.rules.fields import FieldError, parse_damage, parse_modifier

    assert parse_modifier("+100", 3) == 103
    for bad in ("+101", "-" + "9" * 5000):
        with pytest.raises(FieldError, match="take N up to 100"):
            parse_modifier(bad, 3)
    with pytest.raises(FieldError, match="is too large"):
        parse_modifier(1e7, 3)
    assert parse_damage("100/100", 100).crit == 100
    with pytest.raises(FieldError, match='"1/101": damage of at most 100 per hit'):
        parse_damage("1/101", 100)


def test_stated_limits_of_the_format_are_refused_at_their_place() -> None:
    doc = warcry_doc()
    f0(doc)["weapons"][0]["attacks"] = 101
    f0(doc)["weapons"][0]["damage"] = "1/101"
    na = ninth_age_doc()
    na["units"][0]["weapons"] = [{"name": "Bow", "kind": "shooting", "range": 24, "aim": 4,
                                  "shots": "20D6"}]
    assert [str(p) for p in refused(text(doc))] == [
        "fighters[0].weapons[0].attacks: must be at most 100",
        'fighters[0].weapons[0].damage: "1/101": damage of at most 100 per hit',
    ]
    assert [str(p) for p in refused(text(na))] == [
        "units[0].weapons[0].shots: at most 100 in total, not up to 120"]


def test_options_state_their_range() -> None:
    from tabletop_gui.rules.circle_of_realms.info import INFO
    from tabletop_gui.rules.fields import FieldError

    bonus = next(o for o in INFO.situational_options if o.key == "attack_bonus")
    assert bonus.describe()["minimum"] == -1000 and bonus.describe()["maximum"] == 1000
    assert bonus.parse_text("-1000") == -1000
    for text_value, message in (("1001", "attack_bonus must be at most 1000"),
                                ("1e19", "attack_bonus must be at most 1000"),
                                ("inf", "attack_bonus takes a finite number")):
        with pytest.raises(FieldError, match=message):
            bonus.parse_text(text_value)
