"""Circle of Realms Zones of Control and Attacks of Opportunity on square and hex grids."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import RulesError
from tabletop_gui.scenario.battle import battle_of, board_of
from tabletop_gui.scenario.entities import Battlefield, Fighter, Grid, Scenario, Side
from tests.core.test_circle_resolution import MACE, SWORD, fighter, weapon

RULES = registry.get("circle-of-realms")


def scenario(*fighters: Fighter, kind: str = "square", size: float = 1.0,
             options: dict[str, Any] | None = None) -> Scenario:
    return Scenario(
        ruleset="circle-of-realms",
        battlefield=Battlefield(12.0, 12.0, Grid(kind, size)),  # type: ignore[arg-type]
        sides=(Side("red"), Side("blue")),
        fighters=fighters,
        ruleset_options=options or {},
    )


def move(sc: Scenario, mover: str, *points: tuple[float, float]) -> dict[str, Any]:
    return RULES.move(battle_of(sc), mover, list(points))


def as_dict(pairs: list[list[float]]) -> dict[int, float]:
    return {int(v): p for v, p in pairs}


def aoo_by(report: dict[str, Any]) -> list[str]:
    return [a["by"] for a in report["attacks_of_opportunity"]]


# -- worked example 4 (square grid of 1" spaces) ---------------------------------------


def test_example_4_leaving_triggers_entering_does_not() -> None:
    enemy = fighter("e", "blue", 5.5, 5.5)
    leaving = move(scenario(fighter("m", x=4.5, y=4.5), enemy), "m", (4.5, 4.5), (3.5, 3.5))
    assert aoo_by(leaving) == ["e"]
    assert leaving["attacks_of_opportunity"][0]["leaving"] == [4.5, 4.5]
    assert leaving["path"] == [[4.5, 4.5], [3.5, 3.5]]
    entering = move(scenario(fighter("m", x=3.5, y=3.5), enemy), "m", (3.5, 3.5), (4.5, 4.5))
    assert aoo_by(entering) == []


def test_path_may_omit_the_start_space() -> None:
    sc = scenario(fighter("m", x=4.5, y=4.5), fighter("e", "blue", 5.5, 5.5))
    report = move(sc, "m", (3.5, 3.5))
    assert report["path"] == [[4.5, 4.5], [3.5, 3.5]] and aoo_by(report) == ["e"]


def test_moving_within_a_zone_then_out_square() -> None:
    sc = scenario(fighter("m", x=4.5, y=4.5), fighter("e", "blue", 5.5, 5.5))
    within = move(sc, "m", (4.5, 5.5), (4.5, 6.5), (5.5, 6.5))
    assert aoo_by(within) == []
    out = move(sc, "m", (4.5, 5.5), (4.5, 6.5), (4.5, 7.5))
    assert aoo_by(out) == ["e"] and out["attacks_of_opportunity"][0]["leaving"] == [4.5, 6.5]


def test_zoc_exit_space_option_counts_steps_within_the_zone() -> None:
    sc = scenario(fighter("m", x=4.5, y=4.5), fighter("e", "blue", 5.5, 5.5),
                  options={"zoc_exit": "space"})
    within = move(sc, "m", (4.5, 5.5), (4.5, 6.5))
    assert [a["leaving"] for a in within["attacks_of_opportunity"]] == [[4.5, 4.5], [4.5, 5.5]]
    entering = move(scenario(fighter("m", x=3.5, y=3.5), fighter("e", "blue", 5.5, 5.5),
                             options={"zoc_exit": "space"}), "m", (4.5, 4.5))
    assert aoo_by(entering) == []


def test_passing_through_a_zone() -> None:
    sc = scenario(fighter("m", x=3.5, y=3.5), fighter("e", "blue", 5.5, 5.5))
    report = move(sc, "m", (4.5, 4.5), (5.5, 4.5), (6.5, 3.5))
    assert aoo_by(report) == ["e"]
    assert report["attacks_of_opportunity"][0]["leaving"] == [5.5, 4.5]


def test_every_exit_and_every_enemy_counts() -> None:
    sc = scenario(fighter("m", x=4.5, y=4.5), fighter("e1", "blue", 5.5, 5.5),
                  fighter("e2", "blue", 3.5, 5.5))
    report = move(sc, "m", (4.5, 3.5))  # leaves both zones at once
    assert sorted(aoo_by(report)) == ["e1", "e2"]
    back_and_forth = move(sc, "m", (4.5, 3.5), (4.5, 4.5), (4.5, 3.5))
    assert sorted(aoo_by(back_and_forth)) == ["e1", "e1", "e2", "e2"]


@pytest.mark.parametrize(("mover_traits", "enemy_traits", "enemy_state", "side", "expected"), [
    (("infantry",), ("infantry",), {}, "blue", ["e"]),
    (("infantry", "ignores_zoc"), ("infantry",), {}, "blue", []),
    (("infantry",), (), {}, "blue", []),  # not infantry: no Attacks of Opportunity
    (("infantry",), ("infantry",), {"taken_down": True}, "blue", []),
    (("infantry",), ("infantry",), {}, "red", []),  # a friend
])
def test_who_attacks(mover_traits: tuple[str, ...], enemy_traits: tuple[str, ...],
                     enemy_state: dict[str, Any], side: str, expected: list[str]) -> None:
    sc = scenario(fighter("m", x=4.5, y=4.5, traits=mover_traits),
                  fighter("e", side, 5.5, 5.5, traits=enemy_traits, state=enemy_state))
    assert aoo_by(move(sc, "m", (3.5, 3.5))) == expected


# -- hex grid ------------------------------------------------------------------------------


def hex_setup(enemy_space: tuple[int, int]) -> tuple[Any, tuple[int, int], tuple[int, int]]:
    """The grid, a space next to the enemy, and a neighbour of it outside the enemy's zone."""
    sc = scenario(fighter("e", "blue", 0.0, 0.0), kind="hex")
    grid = BoardGeometry(board_of(sc)).grid
    assert grid is not None
    zone = set(grid.neighbours(enemy_space))
    inside = sorted(zone)[0]
    outside = next(s for s in sorted(grid.neighbours(inside))
                   if s not in zone and s != enemy_space)
    return grid, inside, outside


@pytest.mark.parametrize("enemy_space", [(4, 4), (4, 5)])
def test_hex_leave_and_enter(enemy_space: tuple[int, int]) -> None:
    grid, inside, outside = hex_setup(enemy_space)
    ex, ey = grid.centre(enemy_space)
    ix, iy = grid.centre(inside)
    ox, oy = grid.centre(outside)
    enemy = fighter("e", "blue", ex, ey)
    leaving = move(scenario(fighter("m", x=ix, y=iy), enemy, kind="hex"), "m", (ox, oy))
    assert aoo_by(leaving) == ["e"]
    assert leaving["attacks_of_opportunity"][0]["leaving"] == pytest.approx([ix, iy], abs=1e-6)
    entering = move(scenario(fighter("m", x=ox, y=oy), enemy, kind="hex"), "m", (ix, iy))
    assert aoo_by(entering) == []
    # along the zone: free by default, one attack per step under zoc_exit=space
    zone = set(grid.neighbours(enemy_space))
    along = next(s for s in sorted(grid.neighbours(inside)) if s in zone)
    ax, ay = grid.centre(along)
    for rule, expected in (("zone", []), ("space", ["e"])):
        sc = scenario(fighter("m", x=ix, y=iy), enemy, kind="hex", options={"zoc_exit": rule})
        assert aoo_by(move(sc, "m", (ax, ay))) == expected


def test_hex_zone_has_six_spaces_with_odd_rows_shifted_right() -> None:
    sc = scenario(fighter("e", "blue", 0.0, 0.0), kind="hex")
    grid = BoardGeometry(board_of(sc)).grid
    assert grid is not None
    odd = set(grid.neighbours((2, 3)))
    even = set(grid.neighbours((2, 2)))
    assert len(odd) == len(even) == 6
    assert {(3, 2), (3, 4), (2, 2), (2, 4)} <= odd
    assert {(1, 1), (1, 3), (2, 1), (2, 3)} <= even


# -- the attack of opportunity -------------------------------------------------------------


def test_aoo_takes_the_die_with_more_expected_wounds() -> None:
    mover = fighter("m", x=4.5, y=4.5, armour=1, wounds=5)
    sword_bearer = fighter("e", "blue", 5.5, 5.5, base_attack=6, weapons=(SWORD,))
    [aoo] = move(scenario(mover, sword_bearer), "m", (3.5, 3.5))["attacks_of_opportunity"]
    # d8 - armour 1, capped at 5 wounds left: 0 to 4 (1/8 each), 5 (3/8)
    assert as_dict(aoo["distribution"]) == pytest.approx({0: .125, 1: .125, 2: .125, 3: .125,
                                                          4: .125, 5: .375})
    assert aoo["expected_damage"] == pytest.approx(3.125, abs=1e-3)
    assert "Sword" in aoo["die"]
    big_base = fighter("e", "blue", 5.5, 5.5, base_attack=10, weapons=(SWORD,))
    [aoo] = move(scenario(mover, big_base), "m", (3.5, 3.5))["attacks_of_opportunity"]
    assert "base attack d10" in aoo["die"]


def test_aoo_cannot_use_a_weapon_in_a_lost_hand() -> None:
    mover = fighter("m", x=4.5, y=4.5, armour=0, wounds=20)
    enemy = fighter("e", "blue", 5.5, 5.5, base_attack=4, weapons=(SWORD,),
                    state={"limbs_lost": ["RH"]})
    [aoo] = move(scenario(mover, enemy), "m", (3.5, 3.5))["attacks_of_opportunity"]
    assert aoo["die"] == "base attack d4"
    assert aoo["expected_damage"] == pytest.approx(2.5)


def test_aoo_has_no_night_crit_or_defense() -> None:
    mover = fighter("m", x=4.5, y=4.5, defense=20, armour=0, precision=5)
    enemy = fighter("e", "blue", 5.5, 5.5, base_attack=6, precision=1,
                    weapons=(weapon("Club", 4, "blunt"),))
    [aoo] = move(scenario(mover, enemy), "m", (3.5, 3.5))["attacks_of_opportunity"]
    assert as_dict(aoo["distribution"]) == pytest.approx({v: 1 / 6 for v in range(1, 7)})


def test_lost_leg_reduces_the_movement_reported() -> None:
    mover = fighter("m", x=4.5, y=4.5, movement=3, state={"limbs_lost": ["RL"]})
    report = move(scenario(mover, fighter("e", "blue", 9.5, 9.5)), "m", (3.5, 3.5), (2.5, 2.5))
    assert report["movement"] == {"spaces": 2, "allowance": 1, "within": False}


# -- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "message"), [
    ([(4.0, 4.0)], "not on a space centre"),
    ([(4.5, 4.5), (2.5, 2.5)], "neighbouring space"),
    ([(6.5, 6.5)], "neighbouring space"),  # the first point is not next to the mover
])
def test_bad_paths_are_refused(points: list[tuple[float, float]], message: str) -> None:
    sc = scenario(fighter("m", x=4.5, y=4.5), fighter("e", "blue", 9.5, 9.5, weapons=(MACE,)))
    with pytest.raises(RulesError, match=message):
        RULES.move(battle_of(sc), "m", points)


def test_unknown_and_taken_down_movers_are_refused() -> None:
    sc = scenario(fighter("m", x=4.5, y=4.5, state={"taken_down": True}),
                  fighter("e", "blue", 9.5, 9.5))
    with pytest.raises(RulesError, match="unknown"):
        RULES.move(battle_of(sc), "nobody", [(3.5, 3.5)])
    with pytest.raises(RulesError, match="taken down"):
        RULES.move(battle_of(sc), "m", [(3.5, 3.5)])
