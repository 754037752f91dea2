"""`tabletop-gui move` and `attack` on Circle of Realms files (JSON, text, exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tabletop_gui.cli import main
from tabletop_gui.scenario.entities import Battlefield, Fighter, Grid, Scenario, Side, Weapon
from tabletop_gui.scenario.save import save_scenario
from tests.core.test_circle_resolution import AXE, SWORD, fighter

SQUARE = Grid("square", 1.0)


def write(tmp_path: Path, *fighters: Fighter, ruleset: str = "circle-of-realms",
          grid: Grid | None = SQUARE, name: str = "battle.json") -> Path:
    sc = Scenario(ruleset=ruleset, battlefield=Battlefield(12.0, 12.0, grid),
                  sides=(Side("red"), Side("blue")), fighters=fighters)
    path = tmp_path / name
    save_scenario(sc, path)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def example_4(tmp_path: Path) -> Path:
    return write(tmp_path, fighter("m", x=4.5, y=4.5, armour=1, wounds=6),
                 fighter("e", "blue", 5.5, 5.5, weapons=(SWORD,)))


def test_move_json(example_4: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = example_4.read_bytes()
    code, out, err = run(capsys, "move", str(example_4), "--fighter", "m",
                         "--path", "4.5,4.5;3.5,3.5", "--json")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert report["fighter"] == "m" and report["path"] == [[4.5, 4.5], [3.5, 3.5]]
    [aoo] = report["attacks_of_opportunity"]
    assert aoo["by"] == "e" and aoo["leaving"] == [4.5, 4.5]
    assert sum(p for _, p in aoo["distribution"]) == pytest.approx(1.0, abs=1e-9)
    assert aoo["expected_damage"] == pytest.approx(
        sum(v * p for v, p in aoo["distribution"]), abs=1e-3)
    assert example_4.read_bytes() == before  # the file is not changed


def test_move_entering_only_and_text(example_4: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, fighter("m", x=3.5, y=3.5), fighter("e", "blue", 5.5, 5.5),
                 name="entering.json")
    code, out, _ = run(capsys, "move", str(path), "--fighter", "m", "--path",
                       "3.5,3.5;4.5,4.5", "--json")
    assert code == 0 and json.loads(out)["attacks_of_opportunity"] == []
    code, out, _ = run(capsys, "move", str(example_4), "--fighter", "m", "--path", "3.5,3.5")
    assert code == 0 and "Attack of Opportunity by e leaving (4.5, 4.5)" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--fighter", "m", "--path", "4.0,4.0"], "not on a space centre"),
    (["--fighter", "m", "--path", "4.5,4.5;6.5,6.5"], "neighbouring space"),
    (["--fighter", "ghost", "--path", "3.5,3.5"], "unknown"),
    (["--fighter", "m", "--path", "3.5;x,y"], "expected X,Y"),
    (["--fighter", "m", "--path", ";"], "at least one point"),
])
def test_move_refusals(example_4: Path, capsys: pytest.CaptureFixture[str],
                       args: list[str], message: str) -> None:
    code, out, err = run(capsys, "move", str(example_4), *args, "--json")
    assert code == 2 and out == "" and message in err


def test_move_refuses_rulesets_without_grid(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    warrior = Fighter(id="w", name="W", side="red", x=2.0, y=2.0, base=fighter("x").base,
                      characteristics={"move": 4, "toughness": 4, "wounds": 10},
                      weapons=(Weapon("Sword", {"range": 1, "attacks": 3,
                                                         "strength": 4, "damage": "1/3"}),))
    path = write(tmp_path, warrior, ruleset="warcry", grid=None)
    code, out, err = run(capsys, "move", str(path), "--fighter", "w", "--path", "3,3")
    assert code == 2 and out == "" and "grid" in err


def test_move_refuses_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out, err = run(capsys, "move", str(bad), "--fighter", "m", "--path", "1.5,1.5")
    assert code == 2 and out == "" and err.strip()


def attack_json(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> dict[str, Any]:
    code, out, err = run(capsys, "attack", str(path), "--attacker", "a", "--target", "d",
                         "--json", *extra)
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)
    return result


def test_attack_cli_worked_examples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, fighter("a", x=4.5, y=4.5, precision=3, weapons=(SWORD,)),
                 fighter("d", "blue", 5.5, 4.5, armour=1, weapons=(AXE,)))
    day = attack_json(capsys, path, "--dice", "6,6,4")
    assert day["roll"]["damage"] == 9 and day["roll"]["critical"] is True
    assert day["attack_type"] == "melee" and day["geometry"]["spaces"] == 1
    night = attack_json(capsys, path, "--dice", "6,6,4", "--set", "night=true")
    assert night["roll"]["damage"] == 6
    code, out, err = run(capsys, "attack", str(path), "--attacker", "a", "--target", "d",
                         "--dice", "1,1,5")  # N = -3: 3 back, then the die
    assert code == 2 and out == "" and "too few dice" in err
    ex3 = attack_json(capsys, path, "--dice", "1,1,5,1")
    assert ex3["roll"]["attacker_damage"] == 3
    assert ex3["roll"]["dismemberment"] == {"attacker": ["RH"], "defender": []}
    for key in ("attacker_distribution", "critical_probability", "dismemberment_probability"):
        assert key in ex3


def test_attack_cli_default_weapon_skips_a_dropped_one(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    dagger = Weapon("Dagger", {"attack": 4, "attack_type": "shredding", "hand": "off"})
    path = write(tmp_path, fighter("a", x=4.5, y=4.5, weapons=(SWORD, dagger),
                                   state={"limbs_lost": ["RH"]}),
                 fighter("d", "blue", 5.5, 4.5))
    out = attack_json(capsys, path, "--dice", "4,4,2")
    assert out["weapon"] == "Dagger" and out["valid"] and out["roll"]["dice"] == [4, 4, 2]
