"""Ninth Age tables (every row), the page's worked examples, counts and Area Attack."""

from __future__ import annotations

import pytest

from tabletop_gui.rules.ninth_age import counts
from tabletop_gui.rules.ninth_age.engine import casualties, plan_distribution
from tabletop_gui.rules.ninth_age.tables import (
    NO_SAVE,
    armour_needed,
    close_combat_needed,
    special_needed,
    to_wound_needed,
)
from tests.core.test_ninth_age_support import bow, cc, melee, shoot, unit


@pytest.mark.parametrize(("diff", "needed"), [
    (10, 2), (5, 2), (4, 2), (3, 3), (2, 3), (1, 3), (0, 4), (-1, 4), (-3, 4),
    (-4, 5), (-5, 5), (-7, 5), (-8, 6), (-9, 6), (-12, 6),
])
def test_close_combat_to_hit_table(diff: int, needed: int) -> None:
    assert close_combat_needed(10 + diff, 10) == needed
    assert close_combat_needed(max(0, diff) + 1, 1 - min(0, diff)) == needed


@pytest.mark.parametrize(("diff", "needed"), [
    (5, 2), (2, 2), (1, 3), (0, 4), (-1, 5), (-2, 6), (-6, 6),
])
def test_to_wound_table(diff: int, needed: int) -> None:
    assert to_wound_needed(4 + diff, 4) == needed


@pytest.mark.parametrize(("arm", "ap", "needed"), [
    (0, 0, NO_SAVE), (1, 1, NO_SAVE), (1, 3, NO_SAVE), (1, 0, 6), (2, 0, 5), (3, 0, 4),
    (4, 0, 3), (5, 0, 2), (6, 0, 2), (8, 0, 2), (3, 1, 5), (2, 1, 6), (6, 10, NO_SAVE),
])
def test_armour_table(arm: int, ap: int, needed: int) -> None:
    assert armour_needed(arm, ap) == needed


def test_special_saves_need_a_value_and_fail_on_1() -> None:
    assert special_needed(0) == NO_SAVE
    assert special_needed(4) == 4
    assert special_needed(1) == 2


def test_worked_example_1() -> None:
    a = unit("a", off=4, str=4, models=10, files=10)
    t = unit("t", "blue", models=20, res=3, arm=0, **{"def": 3})
    plan = melee(a, t, contact=10, supporting_models=0)
    assert plan.attacks == 10
    assert plan.table_row == "OS 4 vs DS 3: 3+"
    d = plan_distribution(plan)
    assert d.mean == pytest.approx(10 * 4 / 6 * 4 / 6)
    # the page's figure: 0.444 Health Points per attack (3+ to hit, 3+ to wound, no save)
    assert d.mean / plan.attacks == pytest.approx(0.444, abs=5e-4)


def test_worked_example_2() -> None:
    a = unit("a", off=4, str=4, ap=1, models=10, files=10)
    t = unit("t", "blue", models=20, res=3, arm=2, **{"def": 3})
    plan = melee(a, t, contact=10, supporting_models=0)
    assert plan.profile.normal.armour_needed == 6
    assert plan_distribution(plan).mean == pytest.approx(40 / 9 * 5 / 6)
    assert plan_distribution(plan).mean == pytest.approx(3.704, abs=5e-4)  # the page's figure


@pytest.mark.parametrize(("arc", "hits"), [
    ("front", 8), ("rear", 8), ("left_flank", 8), ("right_flank", 8),
])
def test_worked_example_3_area_attack(arc: str, hits: int) -> None:
    a = unit("a", weapons=(bow("Catapult", "Area Attack (3x3)", aim=2),), models=1, files=1)
    t = unit("t", "blue", models=12, files=5)
    plan = shoot(a, t, arc=arc)
    assert plan.profile.hits_per_success == hits
    assert plan_distribution(plan, "hits").items() == [(0, pytest.approx(1 / 6)),
                                                       (8, pytest.approx(5 / 6))]


def test_rank_and_file_counts_with_incomplete_rear_rank() -> None:
    assert counts.rank_counts(12, 5) == [5, 5, 2]
    assert sorted(counts.file_counts(12, 5)) == [2, 2, 2, 3, 3]
    assert counts.file_counts(3, 5) == [1, 1, 1]


@pytest.mark.parametrize(("size", "models", "files", "position", "hits"), [
    ((3, 3), 15, 5, "front", 9),  # unit A of the excerpt's figure
    ((3, 3), 7, 5, "front", 5),  # unit B: 5 + 2 models
    ((3, 3), 1, 1, "front", 1),  # unit C: a single model
    ((3, 3), 6, 3, "front", 6),  # unit D
    ((1, 4), 10, 5, "front", 2),  # unit E: two ranks
    ((1, 4), 10, 5, "left_flank", 4),  # unit F: more than 4 files
    ((3, 3), 12, 5, "rear", 8),
    ((3, 3), 12, 5, "right_flank", 8),
    ((2, 2), 12, 5, "left_flank", 4),  # files of 3 and 3, X = 2 each
    ((5, 5), 3, 5, "front", 3),  # never more hits than models
])
def test_area_attack_from_each_arc(size: tuple[int, int], models: int, files: int,
                                   position: str, hits: int) -> None:
    lines = counts.area_lines(position, models, files, False)
    assert counts.area_hits(size[0], size[1], lines) == hits


def test_area_attack_round_base_single_model() -> None:
    assert counts.area_hits(3, 3, counts.area_lines("left_flank", 1, 1, True)) == 1


def test_area_attack_close_combat_uses_engaged_facing() -> None:
    a = unit("a", weapons=(cc("Flail", "Area Attack (2x2)"),), models=1, files=1)
    t = unit("t", "blue", models=12, files=5)
    front = melee(a, t, facing="front", contact=1)
    flank = melee(a, t, facing="left_flank", contact=1)
    assert front.profile.hits_per_success == 4
    assert flank.profile.hits_per_success == 4
    t3 = unit("t", "blue", models=6, files=5)  # ranks 5, 1; files 2,1,1,1,1
    assert melee(a, t3, facing="front", contact=1).profile.hits_per_success == 3
    assert melee(a, t3, facing="right_flank", contact=1).profile.hits_per_success == 3


def test_area_attack_counts_only_models_left() -> None:
    a = unit("a", weapons=(bow("Catapult", "Area Attack (3x3)"),), models=1, files=1)
    t = unit("t", "blue", models=12, files=5, state={"hp_lost": 5})  # 7 left: 5 + 2
    assert shoot(a, t).profile.hits_per_success == 5


def test_casualties_remove_whole_models() -> None:
    from tabletop_gui.rules.dist import Dist
    d = Dist.from_mapping({0: 0.5, 3: 0.25, 5: 0.25})
    assert casualties(d, 3, 0) == pytest.approx(0.25 * 1 + 0.25 * 1)
    assert casualties(d, 3, 2) == pytest.approx(0.25 * 1 + 0.25 * 2)


def test_supporting_attacks_counts() -> None:
    a = unit("a", models=15, files=5, att=2)
    t = unit("t", "blue", models=20)
    plan = melee(a, t, contact=3)
    assert plan.attacks == 3 * 2 + 3 * 1
    big = unit("a", models=6, files=3, att=4, height_class="large")
    assert melee(big, t, contact=3).attacks == 3 * 4 + 3 * 3
    gig = unit("a", models=6, files=3, att=2, height_class="gigantic")
    assert melee(gig, t, contact=2).attacks == 2 * 2 + 2 * 2
    assert melee(a, t, contact=3, attacking_models=1, supporting_models=7).attacks == 2 + 7
