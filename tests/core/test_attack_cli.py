"""`tabletop-gui attack`: the JSON of docs/cli.md, rolls, refusals with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop_gui.cli import main
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.load import load_scenario
from tabletop_gui.scenario.save import save_scenario
from tests.core.warcry_family_scenarios import (
    fighter,
    mh_chars,
    scenario,
    v_weapon,
    warcry_chars,
    wc_weapon,
)

DEMOS = Path(__file__).resolve().parents[2] / "resources" / "demos"


def write(tmp_path: Path, sc: Scenario, name: str = "s.json") -> str:
    path = tmp_path / name
    save_scenario(sc, path)
    return str(path)


@pytest.fixture
def warcry_file(tmp_path: Path) -> str:
    a = fighter("f1", "red", 10, 10, warcry_chars(), [wc_weapon("Sword"),
                                                      wc_weapon("Bow", range=12, attacks=2)])
    t = fighter("f2", "blue", 11.8, 10, warcry_chars(toughness=3, wounds=5), [wc_weapon()])
    return write(tmp_path, scenario("warcry", [a, t]))


@pytest.fixture
def mordheim_file(tmp_path: Path) -> str:
    a = fighter("a", "red", 10, 10, mh_chars(fight=4), [
        v_weapon("Hammer", attacks=2, damage="2/3", piercing=2),
        v_weapon("Dagger", attacks=3, damage="1/3")])
    t = fighter("t", "blue", 11.5, 10, mh_chars(fight=4, armour=3), [v_weapon()])
    return write(tmp_path, scenario("mordheim-warcry", [a, t]))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_attack_json_shape(capsys, warcry_file: str) -> None:
    code, out, err = run(capsys, "attack", warcry_file, "--attacker", "f1", "--target", "f2",
                         "--json")
    assert code == 0 and err == ""
    d = json.loads(out)
    assert d["ruleset"] == "warcry" and d["weapon"] == "Sword" and d["offhand"] is None
    assert d["attack_type"] == "melee" and d["valid"] is True and d["reasons"] == []
    assert set(d["geometry"]) == {"distance", "engaged", "visible", "cover", "flanked", "arc",
                                  "spaces"}
    assert d["geometry"]["distance"] == pytest.approx(0.8, abs=1e-9)
    assert d["geometry"]["engaged"] is True
    assert d["table_row"] == "Strength > Toughness"
    # Strength 4 > Toughness 3: each of the 4 dice deals 0 (1-2), 1 (3-5) or 3 (6); the
    # damage is capped at the target's 5 wounds. Enumerating the 6**4 rolls by hand gives
    # E[min(sum, 5)] = 1549/432 (4.0 uncapped, worked example 3 of the Warcry page) and
    # P(sum >= 5) = 55/144; the JSON rounds to 3 decimals.
    assert d["expected_damage"] == pytest.approx(1549 / 432, abs=5e-4)
    assert sum(p for _, p in d["distribution"]) == pytest.approx(1.0, abs=1e-9)
    assert d["distribution"][-1][0] == 5  # capped at the 5 wounds
    assert d["take_down_probability"] == pytest.approx(55 / 144, abs=5e-4)
    assert d["roll"] is None
    assert not any(k.startswith("_") for k in d)


def test_attack_with_dice_and_seed(capsys, warcry_file: str) -> None:
    base = ["attack", warcry_file, "--attacker", "f1", "--target", "f2", "--json"]
    code, out, _ = run(capsys, *base, "--dice", "3,5,6,1")
    roll = json.loads(out)["roll"]
    assert code == 0 and roll["dice"] == [3, 5, 6, 1] and roll["damage"] == 5
    assert roll["taken_down"] is True and roll["steps"][0] == "hit roll 3: hit, 1 damage"
    outs = [run(capsys, *base, "--seed", "7")[1] for _ in range(2)]
    assert outs[0] == outs[1] and json.loads(outs[0])["roll"] is not None


def test_dual_wield_and_sets(capsys, mordheim_file: str) -> None:
    code, out, err = run(capsys, "attack", mordheim_file, "--attacker", "a", "--target", "t",
                         "--weapon", "Hammer", "--offhand", "Dagger", "--dice", "5,6,6",
                         "--set", "diving_charge=false", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["offhand"] == "Dagger" and d["roll"]["damage"] == 4
    code, out, _ = run(capsys, "attack", mordheim_file, "--attacker", "a", "--target", "t",
                       "--set", "diving_charge=true", "--json")
    d = json.loads(out)
    assert [m["name"] for m in d["modifiers"]][0] == "diving charge"
    assert d["table_row"] == "Greater"


def test_human_readable_table(capsys, warcry_file: str) -> None:
    code, out, _ = run(capsys, "attack", warcry_file, "--attacker", "f1", "--target", "f2",
                       "--dice", "6,6,1,2")
    assert code == 0
    assert "f1 attacks f2 with Sword (melee)" in out
    assert "table row: Strength > Toughness" in out and "expected damage" in out
    assert "roll: dice 6,6,1,2 -> 5 damage, taken down" in out


@pytest.mark.parametrize(("extra", "needle"), [
    (["--attacker", "zz", "--target", "f2"], "unknown fighter or unit id 'zz'"),
    (["--attacker", "f1", "--target", "f2", "--weapon", "Axe"], "no weapon 'Axe'"),
    (["--attacker", "f1", "--target", "f2", "--set", "charging=true"], "unknown option"),
    (["--attacker", "f1", "--target", "f2", "--set", "charging"], "KEY=VALUE"),
    (["--attacker", "f1", "--target", "f2", "--dice", "1,2,3"], "needs 4"),
    (["--attacker", "f1", "--target", "f2", "--dice", "1,2,3,4,5"], "needs 4"),
    (["--attacker", "f1", "--target", "f2", "--dice", "1,2,3,9"], "d6"),
    (["--attacker", "f1", "--target", "f2", "--dice", "1,x,3,4"], "not a whole number"),
    (["--attacker", "f1", "--target", "f2", "--offhand", "Bow"], "dual wielding"),
    (["--attacker", "f1", "--target", "f2", "--dice", "1,2,3,4", "--seed", "3"], "not both"),
])
def test_refused_input_exits_2(capsys, warcry_file: str, extra: list[str], needle: str
                               ) -> None:
    code, out, err = run(capsys, "attack", warcry_file, *extra, "--json")
    assert code == 2 and out == ""
    assert needle in err and len(err.strip().splitlines()) == 1


def test_bad_file_exits_2(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out, err = run(capsys, "attack", str(bad), "--attacker", "a", "--target", "b")
    assert code == 2 and out == "" and "bad.json" in err
    code, out, err = run(capsys, "attack", str(tmp_path / "none.json"), "--attacker", "a",
                         "--target", "b")
    assert code == 2 and out == ""


@pytest.mark.parametrize("demo", sorted(p.name for p in DEMOS.glob("*.battle.json")))
def test_every_demo_ruleset_attacks_generically(capsys, demo: str) -> None:
    sc = load_scenario(DEMOS / demo)
    models = list(sc.models)
    attacker = next(m for m in models if m.weapons)
    target = next(m for m in models if m.side != attacker.side)
    code, out, err = run(capsys, "attack", str(DEMOS / demo), "--attacker", attacker.id,
                         "--target", target.id, "--seed", "1", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["ruleset"] == sc.ruleset and d["roll"] is not None
    assert sum(p for _, p in d["distribution"]) == pytest.approx(1.0, abs=1e-9)
    code, out, err = run(capsys, "attack", str(DEMOS / demo), "--attacker", attacker.id,
                         "--target", target.id)
    assert code == 0 and "expected damage" in out


def test_invalid_attack_still_gives_odds(capsys, tmp_path: Path) -> None:
    a = fighter("f1", "red", 10, 10, warcry_chars(), [wc_weapon("Sword")])
    t = fighter("f2", "blue", 20, 10, warcry_chars(), [wc_weapon()])
    path = write(tmp_path, scenario("warcry", [a, t]))
    code, out, _ = run(capsys, "attack", path, "--attacker", "f1", "--target", "f2", "--json")
    d = json.loads(out)
    assert code == 0 and d["valid"] is False
    assert d["reasons"] == ['out of range: 9" > 1"']
    assert d["expected_damage"] == pytest.approx(3.333, abs=1e-9)
    code, out, _ = run(capsys, "attack", path, "--attacker", "f1", "--target", "f2")
    assert "valid: NO" in out and '[NO] out of range: 9" > 1"' in out


def test_sets_may_repeat_and_group(capsys, mordheim_file: str) -> None:
    from tabletop_gui.commands.attack import set_pairs

    assert set_pairs([["a=1", "b=2"], ["c=3"]]) == ["a=1", "b=2", "c=3"]
    code, out, err = run(capsys, "attack", mordheim_file, "--attacker", "a", "--target", "t",
                         "--set", "diving_charge=true", "diving_charge=false", "--json")
    assert code == 0, err
    assert json.loads(out)["table_row"] == "Equal"  # the last value wins
