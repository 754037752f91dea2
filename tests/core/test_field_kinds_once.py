"""Field kinds read a value once: one ``Kind`` per kind owns reading (from the file's JSON
and from an editor's text), writing back as text and the hint; the loader keeps the typed
values with each weapon (``Weapon.parsed``) and nothing else parses the file's values
again."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import tabletop_gui
from tabletop_gui.rules.base import RulesError
from tabletop_gui.rules.fields import (
    KINDS,
    DamageSpec,
    DiceSpec,
    FieldError,
    FieldSpec,
    Kind,
    ModifierSpec,
    RangeSpec,
    kind_of,
    read_value,
    read_values,
    register_kind,
)
from tabletop_gui.rules.warcry_family.weapons import profile_of
from tabletop_gui.scenario.entities import Weapon
from tabletop_gui.scenario.load import load_scenario, loads_scenario
from tabletop_gui.scenario.problems import ScenarioError

DEMOS = Path(__file__).parents[2] / "resources" / "demos"

# (spec, what a player types, the JSON value stored, the typed value the rules read)
ROUND_TRIPS: list[tuple[FieldSpec, str, Any, Any]] = [
    (FieldSpec("wounds", "int"), "12", 12, 12),
    (FieldSpec("height", "number"), "1.5", 1.5, 1.5),
    (FieldSpec("parry", "bool"), "true", True, True),
    (FieldSpec("note", "str"), "spare", "spare", "spare"),
    (FieldSpec("kind", "enum", choices=("melee", "ranged")), "ranged", "ranged", "ranged"),
    (FieldSpec("range", "range"), "12", 12, RangeSpec(12.0)),
    (FieldSpec("range", "range"), "3-18", "3-18", RangeSpec(18.0, 3.0)),
    (FieldSpec("damage", "damage"), "1/3", "1/3", DamageSpec(1, 3)),
    (FieldSpec("attack", "die"), "8", 8, 8),
    (FieldSpec("shots", "dice"), "D3+1", "D3+1", DiceSpec(1, 3, 1)),
    (FieldSpec("shots", "dice"), "2", 2, DiceSpec(2, 0)),
    (FieldSpec("strength", "modifier"), "+2", "+2", ModifierSpec(2.0, relative=True)),
    (FieldSpec("strength", "modifier"), "5", 5, ModifierSpec(5.0)),
    (FieldSpec("attributes", "strings"), "Hatred, Reload!", ["Hatred", "Reload!"],
     ["Hatred", "Reload!"]),
]


def test_every_kind_has_a_round_trip_case() -> None:
    assert {spec.kind for spec, *_ in ROUND_TRIPS} == set(KINDS)


@pytest.mark.parametrize("spec,text,raw,typed", ROUND_TRIPS,
                         ids=[f"{s.kind}:{t}" for s, t, *_ in ROUND_TRIPS])
def test_a_kind_parses_text_and_formats_it_back(spec: FieldSpec, text: str, raw: Any,
                                                typed: Any) -> None:
    kind = kind_of(spec)
    assert kind.parse(spec, text) == (raw, typed)
    assert type(kind.parse(spec, text)[0]) is type(raw)  # 12 stays a number, "+2" text
    assert kind.format(raw) == text
    assert read_value(spec, raw) == typed  # the file's JSON reads to the same value
    assert kind.hint  # an editor has something to say about the kind


@pytest.mark.parametrize("spec,text,message", [
    (FieldSpec("range", "range"), "18-3", "minimum range 18 must be below maximum 3"),
    (FieldSpec("range", "range"), "far", 'must be a number or "min-max", not "far"'),
    (FieldSpec("damage", "damage", maximum=100), "1/300",
     '"1/300": damage of at most 100 per hit'),
    (FieldSpec("shots", "dice", maximum=6), "2D6", "at most 6 in total, not up to 12"),
    (FieldSpec("shots", "dice"), "D1", 'dice "D1" out of bounds'),
    (FieldSpec("strength", "modifier"), "+x", 'must be a number or "+N", not "+x"'),
    (FieldSpec("strength", "modifier"), "+101", '"+101": "+N" and "-N" take N up to 100'),
    (FieldSpec("attack", "die"), "1", "must be a die size from 2 to 100"),
    (FieldSpec("wounds", "int", minimum=1), "0", "must be >= 1"),
    (FieldSpec("wounds", "int"), "2.5", "must be a whole number"),
    (FieldSpec("parry", "bool"), "maybe", "must be true or false, not a string"),
    (FieldSpec("kind", "enum", choices=("melee",)), "magic", "must be one of melee"),
])
def test_a_kind_refuses_saying_the_problem(spec: FieldSpec, text: str, message: str) -> None:
    with pytest.raises(FieldError) as raised:
        kind_of(spec).parse(spec, text)
    assert message in str(raised.value)


def test_reading_values_names_the_field_and_the_problem() -> None:
    specs = (FieldSpec("range", "range"), FieldSpec("damage", "damage"))
    with pytest.raises(FieldError, match=r'^damage must be "hit/crit" such as "1/3", not "x"$'):
        read_values(specs, {"range": 6, "damage": "x"})
    assert read_values(specs, {"range": 6, "other": 1}) == {"range": RangeSpec(6.0)}


def test_the_loader_refuses_a_bad_value_at_its_place() -> None:
    doc = json.loads((DEMOS / "warcry.battle.json").read_text())
    doc["fighters"][0]["weapons"][0]["range"] = "9-2"
    with pytest.raises(ScenarioError) as raised:
        loads_scenario(json.dumps(doc))
    assert "fighters[0].weapons[0].range: minimum range 9 must be below maximum 2" \
        in str(raised.value)


def test_the_loader_stores_the_typed_values_with_each_weapon() -> None:
    warcry = load_scenario(DEMOS / "warcry.battle.json")
    for model in warcry.models:
        for w in model.weapons:
            assert isinstance(w.parsed["range"], RangeSpec)
            assert isinstance(w.parsed["damage"], DamageSpec)
            assert w.parsed["attacks"] == w.values["attacks"]
    ninth = load_scenario(DEMOS / "ninth-age.battle.json")
    weapons = {w.name: w for m in ninth.models for w in m.weapons}
    assert weapons["Crossbow"].parsed["range"] == RangeSpec(30.0)
    assert weapons["Crossbow"].parsed["shots"] == DiceSpec(1, 0)
    assert weapons["Crossbow"].parsed["strength"] == ModifierSpec(4.0)
    assert weapons["Great axe"].parsed["strength"] == ModifierSpec(2.0, relative=True)
    assert weapons["Great axe"].values["strength"] == "+2"  # saved as written


def test_an_edit_keeps_the_read_values_and_code_built_weapons_are_read_once() -> None:
    scenario = load_scenario(DEMOS / "warcry.battle.json")
    model = scenario.models[0]
    moved = scenario.with_entity(model.moved_to(model.x + 1, model.y))
    # the loaded weapon (and its typed values) is the same object: nothing was read again
    assert moved.model(model.id).weapons[0] is model.weapons[0]  # type: ignore[union-attr]
    bow = Weapon("Bow", {"range": "3-12", "attacks": 2, "strength": 3, "damage": "1/2"})
    assert bow.parsed == {}
    built = moved.with_entity(replace(model, weapons=(bow,)))
    read = built.model(model.id).weapons[0]  # type: ignore[union-attr]
    assert read.parsed["range"] == RangeSpec(12.0, 3.0) and read == bow


def test_the_rules_refuse_a_weapon_nobody_read() -> None:
    bow = Weapon("Bow", {"range": "3-12", "attacks": 2, "strength": 3, "damage": "1/2"})
    with pytest.raises(RulesError, match="a weapon 'Bow': range '3-12' was not read"):
        profile_of(bow, "a")
    assert profile_of(Weapon.read("Bow", bow.values, (
        FieldSpec("range", "range"), FieldSpec("damage", "damage"))), "a").range.minimum == 3


def test_a_ruleset_may_declare_its_own_kind() -> None:
    def read_rank(spec: FieldSpec, value: Any) -> int:
        if value not in ("I", "II", "III"):
            raise FieldError("must be a rank I, II or III")
        return len(value)

    kind = Kind("test-rank", "a rank: I, II or III", read_rank, lambda s: "I", str.strip)
    register_kind(kind)
    try:
        spec = FieldSpec("rank", "test-rank")
        assert kind_of(spec).parse(spec, " II ") == ("II", 2)
        with pytest.raises(ValueError, match="already registered"):
            register_kind(Kind("test-rank", "other", read_rank, lambda s: "I", str.strip))
    finally:
        del KINDS["test-rank"]


# -- nothing outside the field kinds parses a value again -----------------------------
PARSERS = {"parse_range", "parse_modifier", "parse_dice", "parse_damage", "check_value"}
# the field kinds themselves, and a ruleset's own kind (Ninth Age attributes read their
# dice such as "Multiple Wounds (D3)" inside the attribute text)
OWNERS = {"rules/fields.py", "rules/ninth_age/attributes.py"}


def _calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}  # same names
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(
                f, ast.Attribute) else ""
            if name in PARSERS and not (isinstance(f, ast.Name) and name in own):
                names.append(f"{name} (line {node.lineno})")
        if isinstance(node, ast.ImportFrom) and node.module == "tabletop_gui.rules.fields":
            names += [f"import {a.name}" for a in node.names if a.name in PARSERS]
    return names


def test_no_module_outside_the_field_kinds_parses_values_again() -> None:
    root = Path(tabletop_gui.__file__).parent
    found = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in OWNERS:
            continue
        if calls := _calls(path):
            found[rel] = calls
    assert found == {}


def test_the_source_check_finds_a_call() -> None:
    # the check above can fail: a module calling a parser is found
    assert _calls(Path(tabletop_gui.__file__).parent / "rules" / "ninth_age" / "attributes.py")
