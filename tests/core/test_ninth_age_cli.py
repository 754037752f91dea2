"""`tabletop-gui attack` and `inspect` on a Ninth Age file (docs/cli.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop_gui.cli import main

CHARS = {"adv": 4, "mar": 8, "dis": 7, "hp": 1, "def": 3, "res": 3, "arm": 1, "att": 1,
         "off": 4, "str": 4, "ap": 0, "agi": 3}
FILE = {
    "format": "tabletop-gui/scenario", "schema_version": 1, "ruleset": "ninth-age",
    "battlefield": {"width": 72, "depth": 48},
    "sides": [{"id": "red"}, {"id": "blue"}],
    "units": [
        {"id": "u1", "name": "Swordsmen", "side": "red", "x": 36, "y": 10, "facing": 90,
         "models": 10, "files": 5, "base_mm": [20, 20], "characteristics": CHARS,
         "weapons": [{"name": "Sword", "kind": "close_combat", "attributes": ["Hatred"]}]},
        {"id": "u2", "name": "Archers", "side": "blue", "x": 36, "y": 30, "facing": 270,
         "models": 10, "files": 5, "base_mm": [20, 20], "characteristics": CHARS,
         "weapons": [{"name": "Bow", "kind": "shooting", "range": 24, "aim": 4,
                      "shots": "D3"}]},
    ],
}


@pytest.fixture()
def battle_file(tmp_path: Path) -> Path:
    p = tmp_path / "battle.json"
    p.write_text(json.dumps(FILE))
    return p


def test_attack_json_with_dice(battle_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 10 shooting models (both ranks of 5): the shots dice first (D3 each, all 1s), then
    # the hit rolls of the 10 shots, the wound rolls of the hits, the armour saves
    dice = ",".join(["1"] * 10 + ["6", "6"] + ["1"] * 8 + ["4", "2", "3"])
    code = main(["attack", str(battle_file), "--attacker", "u2", "--target", "u1",
                 "--dice", dice, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["attack_type"] == "shooting" and out["valid"]
    assert out["table_row"] == "Aim 4+, worsened by 1: 5+"
    assert set(out) >= {"expected_casualties", "hits", "wounds", "distribution"}
    roll = out["roll"]
    assert roll["dice"] == [int(d) for d in dice.split(",")]
    # two hits (6, 6); wounds 4 (ok), 2 (fail); one armour save 3 (failed: needs 6+)
    assert roll["damage"] == 1 and roll["hits"] == 2 and roll["wounds"] == 1
    assert roll["steps"][0].startswith("shots, model 1: 1")


def test_attack_refuses_wrong_dice(battle_file: Path, capsys: pytest.CaptureFixture[str]
                                   ) -> None:
    code = main(["attack", str(battle_file), "--attacker", "u2", "--target", "u1",
                 "--dice", "1,1", "--json"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and "too few dice" in captured.err


def test_attack_seeded_is_repeatable(battle_file: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    args = ["attack", str(battle_file), "--attacker", "u2", "--target", "u1", "--seed", "5",
            "--json"]
    main(args)
    first = json.loads(capsys.readouterr().out)
    main(args)
    assert json.loads(capsys.readouterr().out) == first


def test_inspect_json(battle_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(battle_file), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ruleset"] == "ninth-age" and len(out["pairs"]) == 2
    pair = out["pairs"][0]
    # boundaries: swordsmen y 10 +- 0.787", archers y 30 +- 0.787"
    assert pair["distance"] == pytest.approx(20 - 2 * 20 / 25.4, abs=1e-3)
    assert pair["vertical_distance"] == 0 and pair["arc"] == "front"
    assert pair["engaged"] is False and pair["cover"] == "none" and pair["spaces"] is None
