"""The worked examples of every ruleset page (docs/rulesets/*.md), reproduced through the
command line on hand-written scenario files, plus each ruleset's extras and dice order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.core.acceptance_helpers import (
    MM,
    check_distribution,
    cor_chars,
    doc,
    fighter,
    fvd_chars,
    mh_chars,
    na_chars,
    ok_json,
    refused,
    unit,
    v_weapon,
    wc_chars,
    wc_weapon,
    write,
)


def attack(capsys: pytest.CaptureFixture[str], path: str, a: str, t: str, *more: str
           ) -> dict[str, Any]:
    d = ok_json(capsys, "attack", path, "--attacker", a, "--target", t, *more)
    check_distribution(d)
    return dict(d)


# -- warcry ---------------------------------------------------------------------------------

def warcry_pair(tmp_path: Path, *, toughness: int = 4, wounds: int = 30, damage: int = 0,
                cover: bool = False, weapon: dict[str, Any] | None = None) -> str:
    """a at (5, 5), b 2" away (gap 1"); a wall between them when ``cover``."""
    w = weapon or wc_weapon(rng=3, damage="1/3")
    obstacles = [{"id": "w1", "name": "Low wall", "polygon": [[7.6, 2], [7.9, 2], [7.9, 8],
                                                              [7.6, 8]], "height": 0.3}]
    d = doc("warcry", fighters=[
        fighter("a", "red", 5, 5, wc_chars(), [w]),
        fighter("b", "blue", 10, 5, wc_chars(toughness, wounds), [wc_weapon()],
                state={"damage": damage})], obstacles=obstacles if cover else [])
    return write(tmp_path, d)


def test_warcry_example_1_dice(capsys, tmp_path: Path) -> None:
    out = attack(capsys, warcry_pair(tmp_path), "a", "b", "--dice", "4,5,6,2")
    assert out["roll"]["damage"] == 5 and out["roll"]["dice"] == [4, 5, 6, 2]


def test_warcry_examples_2_and_3(capsys, tmp_path: Path) -> None:
    assert attack(capsys, warcry_pair(tmp_path), "a", "b")["expected_damage"] == \
        pytest.approx(10 / 3, abs=1e-3)
    covered = attack(capsys, warcry_pair(tmp_path, cover=True), "a", "b")
    assert covered["geometry"]["cover"] == "cover"
    assert covered["expected_damage"] == pytest.approx(8 / 3, abs=1e-3)
    assert any("toughness" in m["effect"].lower() for m in covered["modifiers"])
    assert attack(capsys, warcry_pair(tmp_path, toughness=3), "a", "b")["expected_damage"] \
        == pytest.approx(4.0, abs=1e-3)


def test_warcry_example_4_taken_down(capsys, tmp_path: Path) -> None:
    path = warcry_pair(tmp_path, wounds=10, damage=8,
                       weapon=wc_weapon(attacks=2, rng=3, damage="2/4"))
    out = attack(capsys, path, "a", "b", "--dice", "6,6")
    assert out["roll"]["damage"] == 2 and out["roll"]["taken_down"] is True
    assert out["take_down_probability"] == pytest.approx(1 - (3 / 6) ** 2, abs=1e-6)


def test_warcry_cover_option_missile_only(capsys, tmp_path: Path) -> None:
    path = warcry_pair(tmp_path, cover=True)
    d = doc("warcry", options={"cover": "missile"}, fighters=[], obstacles=[])
    import json
    full = json.loads(Path(path).read_text())
    full["ruleset_options"] = d["ruleset_options"]
    path = write(tmp_path, full, "m.json")
    assert attack(capsys, path, "a", "b")["expected_damage"] == pytest.approx(10 / 3, abs=1e-3)


def test_warcry_missile_range_and_ally_rule(capsys, tmp_path: Path) -> None:
    """Range "6-20": within 6" refused, beyond 20" refused; rule 5's 3" exception."""
    bow = wc_weapon("Bow", rng="6-20", attacks=2, strength=3, damage="1/2")
    d = doc("warcry", fighters=[
        fighter("a", "red", 5, 5, wc_chars(), [bow]),
        fighter("near", "blue", 10, 5, wc_chars(), [wc_weapon()]),
        fighter("far", "blue", 5, 30, wc_chars(), [wc_weapon()]),
        fighter("mid", "blue", 20, 5, wc_chars(), [wc_weapon()]),
        fighter("ally", "red", 20, 6.5, wc_chars(), [wc_weapon()])])
    path = write(tmp_path, d)
    near = attack(capsys, path, "a", "near")
    assert near["attack_type"] == "missile" and near["valid"] is False
    far = attack(capsys, path, "a", "far")
    assert far["valid"] is False and len(far["reasons"]) == 1
    mid = attack(capsys, path, "a", "mid")  # within 1" of the ally, bow has a minimum range
    assert mid["valid"] is False and len(mid["reasons"]) == 1


# -- fight-vs-defense -------------------------------------------------------------------------

def fvd_file(tmp_path: Path, *, attacker: dict[str, Any], target: dict[str, Any],
             weapons: list[dict[str, Any]], cover: bool = False, state: Any = None,
             extra: list[dict[str, Any]] | None = None) -> str:
    a = fighter("a", "red", 5, 5, attacker, weapons)
    if state is not None:
        a["state"] = state
    d = doc("fight-vs-defense", fighters=[
        a, fighter("b", "blue", 5, 8, target, [v_weapon()]), *(extra or [])],
        obstacles=[{"id": "w1", "polygon": [[4, 6.6], [6, 6.6], [6, 6.9], [4, 6.9]],
                    "height": 0.4, "blocks_sight": False}] if cover else [])
    return write(tmp_path, d)


def test_fvd_example_1_twice_row(capsys, tmp_path: Path) -> None:
    path = fvd_file(tmp_path, attacker=fvd_chars(fight=4), target=fvd_chars(defense=2),
                    weapons=[v_weapon(rng=3, attacks=3, damage="1/2")])
    out = attack(capsys, path, "a", "b")
    assert out["attack_type"] == "melee" and out["valid"] is True
    assert out["expected_damage"] == pytest.approx(3.0, abs=1e-3)


def test_fvd_example_2_panicked_and_cover(capsys, tmp_path: Path) -> None:
    path = fvd_file(tmp_path, attacker=fvd_chars(fight=4), target=fvd_chars(defense=2),
                    weapons=[v_weapon(rng=3, attacks=3, damage="1/2")], cover=True,
                    state={"panicked": True})
    out = attack(capsys, path, "a", "b")
    assert out["geometry"]["cover"] == "cover"
    assert out["expected_damage"] == pytest.approx(3 * 4 / 6, abs=1e-3)
    assert len(out["modifiers"]) >= 2


def test_fvd_example_3_half_row_never_critical(capsys, tmp_path: Path) -> None:
    path = fvd_file(tmp_path, attacker=fvd_chars(shoot=2), target=fvd_chars(defense=4),
                    weapons=[v_weapon("Sling", kind="ranged", rng=12, attacks=2,
                                      damage="1/3")])
    out = attack(capsys, path, "a", "b", "--dice", "5,6")
    assert out["attack_type"] == "ranged" and out["roll"]["damage"] == 2
    assert out["expected_damage"] == pytest.approx(2 * 2 / 6, abs=1e-3)


def test_fvd_example_4_ranged_at_enemy_near_ally(capsys, tmp_path: Path) -> None:
    ally = fighter("c", "red", 6.3, 8, fvd_chars(), [v_weapon()])  # gap 0.3" to b
    ally["x"] = 5 + 1 + 0.8  # gap 0.8" to b
    ally["y"] = 8
    path = fvd_file(tmp_path, attacker=fvd_chars(), target=fvd_chars(),
                    weapons=[v_weapon("Bow", kind="ranged", rng=12)], extra=[ally])
    out = attack(capsys, path, "a", "b")
    assert out["geometry"]["distance"] == pytest.approx(2.0, abs=1e-9)
    assert out["valid"] is False and len(out["reasons"]) == 1


def test_fvd_dice_count_refused(capsys, tmp_path: Path) -> None:
    path = fvd_file(tmp_path, attacker=fvd_chars(), target=fvd_chars(),
                    weapons=[v_weapon(rng=3, attacks=3)])
    lines = refused(capsys, "attack", path, "--attacker", "a", "--target", "b",
                    "--dice", "1,2", "--json")
    assert "3" in lines[0]


# -- mordheim-warcry ----------------------------------------------------------------------------

def test_mordheim_dual_wield_example(capsys, tmp_path: Path) -> None:
    d = doc("mordheim-warcry", fighters=[
        fighter("a", "red", 5, 5, mh_chars(fight=4), [
            v_weapon("Hammer", attacks=2, damage="2/3", piercing=2),
            v_weapon("Dagger", attacks=3, damage="1/3")]),
        fighter("b", "blue", 6.5, 5, mh_chars(fight=4, armour=3), [v_weapon()])])
    path = write(tmp_path, d)
    out = attack(capsys, path, "a", "b", "--weapon", "Hammer", "--offhand", "Dagger",
                 "--dice", "5,6,6")
    assert out["offhand"] == "Dagger" and out["weapon"] == "Hammer"
    assert out["roll"]["damage"] == 4 and out["roll"]["dice"] == [5, 6, 6]
    lines = refused(capsys, "attack", path, "--attacker", "a", "--target", "b",
                    "--weapon", "Hammer", "--offhand", "Dagger", "--dice", "5,6")
    assert "3" in lines[0]


def test_mordheim_shield_parry_and_diving_charge(capsys, tmp_path: Path) -> None:
    """Fight 4 vs Fight 3 (+1 shield, +1 parry) = 4 vs 5: Less row; diving charge: Equal."""
    d = doc("mordheim-warcry", fighters=[
        fighter("a", "red", 5, 5, mh_chars(fight=4), [v_weapon(attacks=1, damage="1/2")]),
        fighter("b", "blue", 6.5, 5, mh_chars(fight=3), [v_weapon(parry=True)],
                traits=["shield"])])
    path = write(tmp_path, d)
    assert attack(capsys, path, "a", "b")["expected_damage"] == pytest.approx(
        1 / 6 + 2 / 6, abs=1e-3)
    dive = attack(capsys, path, "a", "b", "--set", "diving_charge=true")
    assert dive["expected_damage"] == pytest.approx(2 / 6 + 2 / 6, abs=1e-3)


def test_mordheim_ranged_dr_long_range(capsys, tmp_path: Path) -> None:
    """Shoot 3 vs DR 3 + 1 (more than 6" away) = 4: Less row."""
    d = doc("mordheim-warcry", fighters=[
        fighter("a", "red", 5, 5, mh_chars(shoot=3), [
            v_weapon("Bow", kind="ranged", rng=24, attacks=1, damage="1/2")]),
        fighter("b", "blue", 5, 14, mh_chars(), [v_weapon()])])
    out = attack(capsys, write(tmp_path, d), "a", "b")
    assert out["attack_type"] == "ranged" and out["valid"] is True
    assert out["expected_damage"] == pytest.approx(1 / 6 + 2 / 6, abs=1e-3)


# -- ninth-age --------------------------------------------------------------------------------

HAND = {"name": "Hand Weapon", "kind": "close_combat", "attributes": []}
DEPTH2 = 2 * 20 / MM


def ninth_pair(tmp_path: Path, target: dict[str, Any], *, gap: float = 0.005) -> str:
    d = doc("ninth-age", units=[
        unit("u1", "red", 24, 10, 90, 10, 5, na_chars(off=4, str=4), [HAND]),
        unit("u2", "blue", 24, 10 + DEPTH2 + gap, 270, 10, 5, target, [HAND])])
    return write(tmp_path, d)


def test_ninth_age_example_1(capsys, tmp_path: Path) -> None:
    out = attack(capsys, ninth_pair(tmp_path, na_chars(**{"def": 3, "res": 3, "arm": 0})),
                 "u1", "u2")
    assert out["attack_type"] == "close_combat" and out["valid"] is True
    assert out["geometry"]["engaged"] is True and out["geometry"]["arc"] == "front"
    assert out["expected_damage"] == pytest.approx(40 / 9, abs=1e-3)
    assert out["expected_casualties"] == pytest.approx(40 / 9, abs=1e-3)
    for key in ("hits", "wounds"):
        assert set(out[key]) >= {"expected", "distribution"}
        check_distribution(out[key], mean_key="expected")
    assert out["hits"]["expected"] == pytest.approx(10 * 4 / 6, abs=1e-3)


def test_ninth_age_example_2_armour(capsys, tmp_path: Path) -> None:
    path = write(tmp_path, doc("ninth-age", units=[
        unit("u1", "red", 24, 10, 90, 10, 5, na_chars(off=4, str=4, ap=1), [HAND]),
        unit("u2", "blue", 24, 10 + DEPTH2 + 0.005, 270, 10, 5, na_chars(arm=2), [HAND])]))
    out = attack(capsys, path, "u1", "u2")
    assert out["expected_damage"] == pytest.approx(40 / 9 * 5 / 6, abs=1e-3)


def test_ninth_age_overrides_and_not_engaged(capsys, tmp_path: Path) -> None:
    path = ninth_pair(tmp_path, na_chars(), gap=0.011)
    out = attack(capsys, path, "u1", "u2", "--weapon", "Hand Weapon")
    assert out["valid"] is False and out["reasons"]
    over = attack(capsys, ninth_pair(tmp_path, na_chars()), "u1", "u2", "--set",
                  "attacking_models=3", "supporting_models=0")
    assert over["expected_damage"] == pytest.approx(3 * 4 / 9, abs=1e-3)


def test_ninth_age_too_few_dice_names_the_hit_rolls(capsys, tmp_path: Path) -> None:
    """Ten attacks: dice 1, 2, 3 (the 3 hits) still need seven hit rolls and one to-wound
    roll, so the refusal names 11, not just the next die."""
    path = ninth_pair(tmp_path, na_chars())
    lines = refused(capsys, "attack", path, "--attacker", "u1", "--target", "u2",
                    "--dice", "1,2,3", "--json")
    assert len(lines) == 1 and "at least 11," in lines[0]
    # all misses: exactly the ten hit rolls
    out = attack(capsys, path, "u1", "u2", "--dice", ",".join(["1"] * 10))
    assert out["roll"]["damage"] == 0 and len(out["roll"]["dice"]) == 10
    lines = refused(capsys, "attack", path, "--attacker", "u1", "--target", "u2",
                    "--dice", ",".join(["1"] * 11))
    assert len(lines) == 1 and "10" in lines[0]


def _area_shooter(tmp_path: Path, x: float, y: float, facing: float) -> str:
    sling = {"name": "Engine", "kind": "shooting", "range": 30, "aim": 2, "shots": 1,
             "strength": 3, "ap": 0, "attributes": ["Area Attack (3x3)"]}
    d = doc("ninth-age", units=[
        unit("s", "red", x, y, facing, 1, 1, na_chars(), [sling], round_base=True,
             base_mm=[25, 25]),
        unit("t", "blue", 24, 24, 90, 12, 5, na_chars(res=3), [HAND])])
    return write(tmp_path, d)


@pytest.mark.parametrize(("x", "y", "facing", "arc"), [
    (24, 34, 270, "front"), (34, 24, 180, "right_flank")])
def test_ninth_age_example_3_area_attack(capsys, tmp_path: Path, x: float, y: float,
                                         facing: float, arc: str) -> None:
    path = _area_shooter(tmp_path, x, y, facing)
    out = attack(capsys, path, "s", "t", "--dice", "6," + ",".join(["1"] * 8))
    assert out["attack_type"] == "shooting" and out["geometry"]["arc"] == arc
    assert out["roll"]["hits"] == 8 and out["roll"]["damage"] == 0
    assert out["hits"]["distribution"][-1][0] == 8


def test_ninth_age_example_4_arcs(capsys, tmp_path: Path) -> None:
    w, d = 5 * 20 / MM / 2, 4 * 20 / MM / 2
    cx, cy = 24.0, 24.0
    points = {(cx, cy + d + 1): "front", (cx + w + 1, cy + d): "right_flank",
              (cx + w + 1, cy + d + 1): "right_flank", (cx - w - 1, cy): "left_flank",
              (cx, cy - d - 1): "rear"}
    units = [unit("t", "blue", cx, cy, 90, 20, 5, na_chars(), [HAND])]
    for i, (x, y) in enumerate(points):
        units.append(unit(f"p{i}", "red", x, y, 0, 1, 1, na_chars(), [HAND], round_base=True,
                          base_mm=[10, 10]))
    out = ok_json(capsys, "inspect", write(tmp_path, doc("ninth-age", units=units)))
    arcs = {p["attacker"]: p["arc"] for p in out["pairs"] if p["target"] == "t"}
    assert arcs == {f"p{i}": arc for i, arc in enumerate(points.values())}
    # a unit on a round base has a single 360 degree front arc
    assert all(p["arc"] == "front" for p in out["pairs"] if p["attacker"] == "t")


# -- circle-of-realms -----------------------------------------------------------------------

def circle_file(tmp_path: Path, *, precision: int = 3, a_armour: int = 0, b_armour: int = 1,
                a_traits: list[str] | None = None, a_state: Any = None,
                kind: str = "square") -> str:
    a = fighter("a", "red", 4.5, 4.5, cor_chars(armour=a_armour, precision=precision),
                [{"name": "Sword", "attack": 8, "attack_type": "slashing"}],
                traits=a_traits or [])
    if a_state is not None:
        a["state"] = a_state
    d = doc("circle-of-realms", grid={"kind": kind, "size": 1}, width=12, depth=12,
            fighters=[a, fighter("b", "blue", 5.5, 4.5, cor_chars(armour=b_armour),
                                 [{"name": "Axe", "attack": 6, "attack_type": "hacking",
                                   "hand": "main"}], traits=["infantry"])])
    return write(tmp_path, d)


def test_circle_example_1_critical_by_day(capsys, tmp_path: Path) -> None:
    out = attack(capsys, circle_file(tmp_path), "a", "b", "--dice", "6,6,4")
    roll = out["roll"]
    assert out["attack_type"] == "melee" and out["weapon"] == "Sword"
    assert roll["damage"] == 9 and roll["critical"] is True and roll["attacker_damage"] == 0
    assert set(roll["dismemberment"]) == {"attacker", "defender"}
    assert isinstance(out["critical_probability"], float)
    assert 0 < out["critical_probability"] < 1
    check_distribution(out, "attacker_distribution", mean_key=None)


def test_circle_example_2_by_night(capsys, tmp_path: Path) -> None:
    out = attack(capsys, circle_file(tmp_path), "a", "b", "--dice", "6,6,4", "--set",
                 "night=true")
    assert out["roll"]["damage"] == 6 and out["roll"]["critical"] is True
    scout = attack(capsys, circle_file(tmp_path, a_traits=["scout"]), "a", "b", "--dice",
                   "6,6,4", "--set", "night=true")
    assert scout["roll"]["damage"] == 9


def test_circle_example_3_damage_back_and_dismemberment(capsys, tmp_path: Path) -> None:
    path = circle_file(tmp_path, precision=0, b_armour=0)
    lines = refused(capsys, "attack", path, "--attacker", "a", "--target", "b", "--dice",
                    "1,1,5", "--json")
    assert len(lines) == 1 and "4" in lines[0]
    out = attack(capsys, path, "a", "b", "--dice", "1,1,5,3")
    roll = out["roll"]
    assert roll["damage"] == 0 and roll["attacker_damage"] == 3
    assert roll["dismemberment"]["attacker"] == ["RL"] and roll["dismemberment"]["defender"] == []
    assert roll["critical"] is False


def test_circle_lost_hand_attacks_blunt_with_base_die(capsys, tmp_path: Path) -> None:
    path = circle_file(tmp_path, precision=0, a_state={"limbs_lost": ["RH"], "damage": 0})
    out = attack(capsys, path, "a", "b", "--dice", "4,1")
    assert out["roll"]["dice"] == [4, 1] and out["roll"]["damage"] == 2
    left = circle_file(tmp_path, precision=0, a_traits=["left_handed"],
                       a_state={"limbs_lost": ["RH"]})
    assert attack(capsys, left, "a", "b", "--dice", "4,4,2")["roll"]["damage"] == 5


def test_circle_seed_determinism_on_hex(capsys, tmp_path: Path) -> None:
    path = circle_file(tmp_path, kind="hex")
    runs = [attack(capsys, path, "a", "b", "--seed", "99") for _ in range(2)]
    assert runs[0] == runs[1] and runs[0]["roll"] is not None
    assert runs[0]["geometry"]["spaces"] == 1


def test_circle_example_4_zone_of_control(capsys, tmp_path: Path) -> None:
    def aoo(start: tuple[float, float], to: tuple[float, float]) -> list[Any]:
        d = doc("circle-of-realms", grid={"kind": "square", "size": 1}, width=12, depth=12,
                fighters=[fighter("m", "red", *start, cor_chars(), []),
                          fighter("e", "blue", 5.5, 5.5, cor_chars(), [],
                                  traits=["infantry"])])
        out = ok_json(capsys, "move", write(tmp_path, d), "--fighter", "m", "--path",
                      f"{start[0]},{start[1]};{to[0]},{to[1]}")
        return list(out["attacks_of_opportunity"])

    assert len(aoo((4.5, 4.5), (3.5, 3.5))) == 1
    assert aoo((3.5, 3.5), (4.5, 4.5)) == []


def test_ninth_age_too_few_dice_with_shots_dice(capsys, tmp_path: Path) -> None:
    """Two models with D3 shots: a first die 3 means 3 hit rolls, and the second model's
    shots die then at least one more hit roll: 1 + 3 + 1 + 1 = at least 6 dice."""
    bow = {"name": "Bow", "kind": "shooting", "range": 30, "aim": 4, "shots": "D3",
           "strength": 3, "ap": 0, "attributes": []}
    path = write(tmp_path, doc("ninth-age", units=[
        unit("s", "red", 24, 10, 90, 2, 2, na_chars(), [bow]),
        unit("t", "blue", 24, 20, 270, 10, 5, na_chars(), [HAND])]))
    lines = refused(capsys, "attack", path, "--attacker", "s", "--target", "t",
                    "--dice", "3")
    assert len(lines) == 1 and "at least 6," in lines[0]
    out = attack(capsys, path, "s", "t", "--dice", "3,1,1,1,1,1")
    assert out["roll"]["damage"] == 0 and out["roll"]["dice"] == [3, 1, 1, 1, 1, 1]


@pytest.mark.parametrize(("x0", "x1", "kind", "cover", "by"), [
    (21, 25.5, "hard", "hard", ["w"]), (21, 25.5, "soft", "soft", ["w"]),
    (23, 24.5, "hard", "none", [])])
def test_ninth_age_cover_and_cover_by(capsys, tmp_path: Path, x0: float, x1: float,
                                      kind: str, cover: str, by: list[str]) -> None:
    """Target Facing 3.94" wide: a wall over 4.5" of it gives cover; 1.5" of it gives none,
    and then nothing is named as giving cover."""
    bow = {"name": "Bow", "kind": "shooting", "range": 24, "aim": 4, "shots": 1,
           "strength": 3, "ap": 0, "attributes": []}
    path = write(tmp_path, doc("ninth-age", units=[
        unit("s", "red", 24, 10, 90, 5, 5, na_chars(), [bow]),
        unit("t", "blue", 24, 20, 270, 10, 5, na_chars(), [HAND])], obstacles=[
            {"id": "w", "polygon": [[x0, 15], [x1, 15], [x1, 15.5], [x0, 15.5]],
             "height": 2, "cover": kind}]))
    pair = next(p for p in ok_json(capsys, "inspect", path)["pairs"] if p["attacker"] == "s")
    assert (pair["cover"], pair["cover_by"]) == (cover, by)
    out = attack(capsys, path, "s", "t")
    penalty = {"none": 0, "soft": 1, "hard": 2}[cover]
    hit = (7 - (4 + penalty)) / 6
    assert out["geometry"]["cover"] == cover
    assert out["expected_damage"] == pytest.approx(5 * hit / 2, abs=1e-3)


def test_warcry_rule_5_exception_within_3(capsys, tmp_path: Path) -> None:
    bow = wc_weapon("Bow", rng=12, attacks=2, strength=3, damage="1/2")

    def shot(x: float) -> dict[str, Any]:
        return attack(capsys, write(tmp_path, doc("warcry", fighters=[
            fighter("a", "red", 5, 5, wc_chars(), [bow]),
            fighter("t", "blue", x, 5, wc_chars(), [wc_weapon()]),
            fighter("al", "red", x, 6.5, wc_chars(), [wc_weapon()])])), "a", "t")

    assert shot(8)["valid"] is True  # 2" away: the exception applies
    far = shot(10)
    assert far["valid"] is False and len(far["reasons"]) == 1


def test_mordheim_ranged_modifiers(capsys, tmp_path: Path) -> None:
    bow = v_weapon("Bow", kind="ranged", rng=24, attacks=1, damage="1/2")

    def shot(fx: float, platform: float | None = None) -> dict[str, Any]:
        d = doc("mordheim-warcry", fighters=[
            fighter("a", "red", 5, 5, mh_chars(shoot=3), [bow]),
            fighter("n", "blue", 5, 9, mh_chars(), [v_weapon()]),
            fighter("f", "blue", fx, 5, mh_chars(), [v_weapon()])])
        if platform is not None:
            d["platforms"] = [{"id": "p", "polygon": [[3, 3], [7, 3], [7, 7], [3, 7]],
                               "height": platform}]
        return attack(capsys, write(tmp_path, d), "a", "f")

    assert shot(9)["expected_damage"] == pytest.approx(4 / 6, abs=1e-3)  # tie: closest
    assert shot(10)["expected_damage"] == pytest.approx(3 / 6, abs=1e-3)  # DR 4: Less
    # 2" up a platform: DR 3 - 1 + 1 (not the closest) = 3: Equal again
    assert shot(10, platform=2)["expected_damage"] == pytest.approx(4 / 6, abs=1e-3)


def test_mordheim_engaged_forces_melee(capsys, tmp_path: Path) -> None:
    path = write(tmp_path, doc("mordheim-warcry", fighters=[
        fighter("a", "red", 5, 5, mh_chars(), [
            v_weapon("Bow", kind="ranged", rng=24, attacks=1), v_weapon("Knife")]),
        fighter("e", "blue", 6.5, 5, mh_chars(), [v_weapon()])]))
    default = attack(capsys, path, "a", "e")
    assert default["weapon"] == "Knife" and default["attack_type"] == "melee"
    bow = attack(capsys, path, "a", "e", "--weapon", "Bow")
    assert bow["valid"] is False and bow["attack_type"] == "ranged"


def test_ninth_age_shots_die_face_checked(capsys, tmp_path: Path) -> None:
    bow = {"name": "Bow", "kind": "shooting", "range": 30, "aim": 4, "shots": "D3",
           "strength": 3, "ap": 0, "attributes": []}
    path = write(tmp_path, doc("ninth-age", units=[
        unit("s", "red", 24, 10, 90, 1, 1, na_chars(), [bow]),
        unit("t", "blue", 24, 20, 270, 10, 5, na_chars(), [HAND])]))
    lines = refused(capsys, "attack", path, "--attacker", "s", "--target", "t",
                    "--dice", "4,6,6,6,6")
    assert len(lines) == 1
    out = attack(capsys, path, "s", "t", "--dice", "2,6,1,4")  # 2 shots, 1 hit, 1 wound
    assert out["roll"]["hits"] == 1 and out["roll"]["wounds"] == 1 and out["roll"]["damage"] == 1


@pytest.mark.parametrize(("ruleset", "gap", "cover"), [
    ("warcry", 0.8, "cover"), ("warcry", 2.0, "none"),
    ("fight-vs-defense", 0.8, "none"), ("mordheim-warcry", 2.0, "none")])
def test_obstacle_near_the_attacker_gate(capsys, tmp_path: Path, ruleset: str, gap: float,
                                         cover: str) -> None:
    """A wall 0.1" from the attacker's base: Warcry ignores it only when the fighters are
    more than 1" apart; the variants always ignore it. From the other side it covers."""
    chars = {"warcry": wc_chars(), "fight-vs-defense": fvd_chars(),
             "mordheim-warcry": mh_chars()}[ruleset]
    w = wc_weapon(rng=3) if ruleset == "warcry" else v_weapon(rng=3)
    path = write(tmp_path, doc(ruleset, fighters=[
        fighter("a", "red", 5, 5, chars, [w]), fighter("b", "blue", 5, 6 + gap, chars, [w])],
        obstacles=[{"id": "o", "polygon": [[4, 5.6], [6, 5.6], [6, 5.7], [4, 5.7]],
                    "height": 0.3, "blocks_sight": False}]))
    pairs = {p["attacker"]: p for p in ok_json(capsys, "inspect", path)["pairs"]}
    assert pairs["a"]["cover"] == cover
    assert pairs["a"]["cover_by"] == (["o"] if cover == "cover" else [])
    assert pairs["b"]["cover"] == "cover" and pairs["b"]["cover_by"] == ["o"]


def test_circle_hex_move_along_a_row(capsys, tmp_path: Path) -> None:
    d = doc("circle-of-realms", grid={"kind": "hex", "size": 1}, width=12, depth=12,
            fighters=[fighter("m", "red", 4.5, 0.5, cor_chars(), []),
                      fighter("e", "blue", 5.5, 0.5, cor_chars(), [], traits=["infantry"])])
    out = ok_json(capsys, "move", write(tmp_path, d), "--fighter", "m", "--path",
                  "4.5,0.5;3.5,0.5;2.5,0.5")
    assert [a["by"] for a in out["attacks_of_opportunity"]] == ["e"]
    assert out["attacks_of_opportunity"][0]["expected_damage"] == pytest.approx(3.5, abs=1e-3)


def test_circle_too_few_dice_names_attack_and_defense_dice(capsys, tmp_path: Path) -> None:
    """Base attack, weapon and defense dice are always rolled: one die is refused naming 3
    (and an unarmed fighter's base die alone, naming 2)."""
    path = circle_file(tmp_path)
    for dice in ("6", "6,6"):
        lines = refused(capsys, "attack", path, "--attacker", "a", "--target", "b",
                        "--dice", dice)
        assert len(lines) == 1 and "at least 3," in lines[0]
    lines = refused(capsys, "attack", path, "--attacker", "a", "--target", "b",
                    "--dice", "6,6,4,1")
    assert len(lines) == 1 and "needs 3," in lines[0]
    unarmed = circle_file(tmp_path, a_state={"limbs_lost": ["RH"]})  # overwrites the file
    lines = refused(capsys, "attack", unarmed, "--attacker", "a", "--target", "b",
                    "--dice", "6")
    assert len(lines) == 1 and "at least 2," in lines[0]


@pytest.mark.parametrize(("off", "dfs", "hit"), [
    (7, 3, 5), (4, 3, 4), (3, 3, 3), (3, 6, 3), (2, 6, 2), (1, 8, 2), (1, 9, 1)])
@pytest.mark.parametrize(("strength", "res", "wound"), [
    (6, 4, 5), (5, 4, 4), (4, 4, 3), (3, 4, 2), (2, 4, 1)])
def test_ninth_age_tables_through_the_cli(capsys, tmp_path: Path, off: int, dfs: int,
                                          hit: int, strength: int, res: int,
                                          wound: int) -> None:
    """One attack (overridden counts): P = hit/6 x wound/6, target arm 2 vs AP 0: 5+."""
    path = write(tmp_path, doc("ninth-age", units=[
        unit("u1", "red", 24, 10, 90, 10, 5, na_chars(off=off, str=strength), [HAND]),
        unit("u2", "blue", 24, 10 + DEPTH2 + 0.005, 270, 10, 5,
             na_chars(**{"def": dfs, "res": res, "arm": 2}), [HAND])]))
    out = attack(capsys, path, "u1", "u2", "--set", "attacking_models=1",
                 "supporting_models=0")
    assert out["expected_damage"] == pytest.approx(hit / 6 * wound / 6 * 4 / 6, abs=1e-3)


ROW_VALUE = {"Twice": 2 / 6 + 4 / 6, "Greater": 3 / 6 + 2 / 6, "Equal": 2 / 6 + 2 / 6,
             "Less": 1 / 6 + 2 / 6, "Half": 2 / 6}


@pytest.mark.parametrize(("fight", "defense", "piercing", "row"), [
    (4, 2, 0, "Twice"), (5, 3, 0, "Greater"), (3, 3, 0, "Equal"), (3, 5, 0, "Less"),
    (3, 6, 0, "Half"), (2, 5, 0, "Half"), (3, 4, 0, "Less"), (1, 1, 1, "Twice"),
    (1, 2, 1, "Equal"), (2, 1, 2, "Twice"), (6, 3, 0, "Twice")])
def test_fvd_rows_through_the_cli(capsys, tmp_path: Path, fight: int, defense: int,
                                  piercing: int, row: str) -> None:
    path = fvd_file(tmp_path, attacker=fvd_chars(fight=fight), target=fvd_chars(
        defense=defense), weapons=[v_weapon(rng=3, attacks=1, damage="1/2",
                                            piercing=piercing)])
    out = attack(capsys, path, "a", "b")
    assert out["expected_damage"] == pytest.approx(ROW_VALUE[row], abs=1e-3)


@pytest.mark.parametrize(("strength", "toughness", "dice", "damage"), [
    (5, 4, "2,3,5,6", 1 + 1 + 3), (4, 4, "3,4,5,6", 1 + 1 + 3), (3, 4, "4,5,6,6", 1 + 3 + 3),
    (3, 4, "1,1,1,1", 0)])
def test_warcry_hit_table_rows_with_dice(capsys, tmp_path: Path, strength: int,
                                         toughness: int, dice: str, damage: int) -> None:
    path = warcry_pair(tmp_path, toughness=toughness,
                       weapon=wc_weapon(rng=3, strength=strength, damage="1/3"))
    assert attack(capsys, path, "a", "b", "--dice", dice)["roll"]["damage"] == damage


def test_mordheim_armour_and_piercing_per_weapon(capsys, tmp_path: Path) -> None:
    """Hammer (2/3, Piercing 1) dice 6,6: 6 - (3 - 1) = 4; Dagger off-hand 5: 1 - 3 -> 0."""
    d = doc("mordheim-warcry", fighters=[
        fighter("a", "red", 5, 5, mh_chars(fight=4), [
            v_weapon("Hammer", attacks=2, damage="2/3", piercing=1),
            v_weapon("Dagger", attacks=3, damage="1/3")]),
        fighter("b", "blue", 6.5, 5, mh_chars(fight=4, armour=3), [v_weapon()])])
    path = write(tmp_path, d)
    out = attack(capsys, path, "a", "b", "--weapon", "Hammer", "--offhand", "Dagger",
                 "--dice", "6,6,5")
    assert out["roll"]["damage"] == 4
    single = attack(capsys, path, "a", "b", "--weapon", "Hammer", "--dice", "4,5")
    assert single["roll"]["damage"] == 2  # 2 + 2 - 2


@pytest.mark.parametrize("night", [False, True])
def test_circle_distributions_by_enumeration(capsys, tmp_path: Path, night: bool) -> None:
    """Every (d6, d8, d6) outcome of the page's resolution steps, counted by hand."""
    from collections import Counter
    from fractions import Fraction

    target: Counter[int] = Counter()
    back: Counter[int] = Counter()
    crit = 0
    prec, a_arm, t_arm, t_prec = 3, 0, 1, 2
    for b in range(1, 7):
        for w in range(1, 9):
            for d in range(1, 7):
                total = b + w
                critical = total % prec == 0
                crit += critical
                if night:
                    total = max(0, total - prec)
                dfn = d // 2 if critical else d
                n = total - dfn
                target[max(0, n - t_arm) if n > 0 else 0] += 1
                lost = max(0, -n - a_arm) if n < 0 else 0
                back[max(0, lost - t_prec) if night else lost] += 1
    a = fighter("a", "red", 4.5, 4.5, cor_chars(armour=a_arm, precision=prec),
                [{"name": "Sword", "attack": 8, "attack_type": "blunt"}])
    t = fighter("b", "blue", 5.5, 4.5, cor_chars(armour=t_arm, precision=t_prec),
                [{"name": "Club", "attack": 6, "attack_type": "blunt"}])
    path = write(tmp_path, doc("circle-of-realms", grid={"kind": "square", "size": 1},
                               fighters=[a, t]))
    out = attack(capsys, path, "a", "b", *(["--set", "night=true"] if night else []))

    def expect(c: Counter[int]) -> list[tuple[int, float]]:
        return [(k, float(Fraction(v, 288))) for k, v in sorted(c.items())]

    assert [(k, pytest.approx(p, abs=1e-9)) for k, p in out["distribution"]] == expect(target)
    assert [(k, pytest.approx(p, abs=1e-9)) for k, p in out["attacker_distribution"]] == \
        expect(back)
    assert out["critical_probability"] == pytest.approx(crit / 288, abs=1e-9)


def test_mordheim_dual_wield_distribution_by_enumeration(capsys, tmp_path: Path) -> None:
    """Hammer 2 attacks 2/3 Piercing 2 plus one Dagger roll 1/3, Fight 4 vs 4 (Equal),
    Armour 3 per weapon, target with 5 wounds left: every 6^3 outcome counted."""
    from collections import Counter

    def value(face: int, hit: int, crit: int) -> int:
        return crit if face == 6 else hit if face >= 4 else 0

    count: Counter[int] = Counter()
    for h1 in range(1, 7):
        for h2 in range(1, 7):
            for dg in range(1, 7):
                hammer = max(0, value(h1, 2, 3) + value(h2, 2, 3) - (3 - 2))
                dagger = max(0, value(dg, 1, 3) - 3)
                count[min(5, hammer + dagger)] += 1
    d = doc("mordheim-warcry", fighters=[
        fighter("a", "red", 5, 5, mh_chars(fight=4), [
            v_weapon("Hammer", attacks=2, damage="2/3", piercing=2),
            v_weapon("Dagger", attacks=3, damage="1/3")]),
        fighter("b", "blue", 6.5, 5, mh_chars(fight=4, armour=3, wounds=10), [v_weapon()],
                state={"damage": 5})])
    out = attack(capsys, write(tmp_path, d), "a", "b", "--weapon", "Hammer", "--offhand",
                 "Dagger")
    assert [(k, pytest.approx(p, abs=1e-9)) for k, p in out["distribution"]] == \
        [(k, v / 216) for k, v in sorted(count.items())]
    assert out["take_down_probability"] == pytest.approx(count[5] / 216, abs=1e-6)


def test_ninth_age_dice_order_step_by_step(capsys, tmp_path: Path) -> None:
    """All hit rolls, then re-rolls (Hatred, first round), then all to-wound rolls, then all
    armour saves: OS 4 vs DS 3 (3+), Str 4 vs Res 3 (3+), arm 2 (5+)."""
    hatred = {"name": "Axe", "kind": "close_combat", "attributes": ["Hatred"]}
    path = write(tmp_path, doc("ninth-age", units=[
        unit("u1", "red", 24, 10, 90, 10, 5, na_chars(), [hatred]),
        unit("u2", "blue", 24, 10 + DEPTH2 + 0.005, 270, 10, 5, na_chars(arm=2), [HAND])]))
    two = ["--set", "attacking_models=2", "supporting_models=0"]
    out = attack(capsys, path, "u1", "u2", *two, "--dice", "6,5,4,3,2,6")
    assert out["roll"]["hits"] == 2 and out["roll"]["wounds"] == 2
    assert out["roll"]["damage"] == 1  # armour 2 fails, 6 saves
    rr = attack(capsys, path, "u1", "u2", *two, "--set", "first_round=true",
                "--dice", "1,5,4,3,3,1,1")
    assert rr["roll"]["dice"] == [1, 5, 4, 3, 3, 1, 1]
    assert rr["roll"]["hits"] == 2 and rr["roll"]["damage"] == 2
    assert [s.split(":")[0] for s in rr["roll"]["steps"][:3]] == [
        "hit roll, attack 1", "hit roll, attack 2", "hit re-roll, attack 1"]


@pytest.mark.parametrize("state", [{"taken_down": True}, {"damage": 30}])
def test_warcry_taken_down_attacker_cannot_attack(capsys, tmp_path: Path,
                                                  state: dict[str, Any]) -> None:
    """As a destroyed Ninth Age unit or a taken-down Circle of Realms fighter: refused."""
    d = doc("warcry", fighters=[
        fighter("a", "red", 5, 5, wc_chars(), [wc_weapon()], state=state),
        fighter("b", "blue", 6.5, 5, wc_chars(), [wc_weapon()])])
    out = attack(capsys, write(tmp_path, d), "a", "b")
    assert out["valid"] is False and out["reasons"] == ["a is taken down and cannot attack"]
