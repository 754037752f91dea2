"""The Ninth Age: arcs by the 135-degree corner lines, reference points, contact, ranks and
files, facing cover."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.geometry.board import Body, Footprint, Formation
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.formation import file_counts, model_centres, rank_counts
from tabletop_gui.geometry.unit_arcs import arc_of_point, reference_point
from tests.core.geometry_helpers import board, box, disc, unit

MM = 25.4
B20 = (20 / MM, 20 / MM)  # 0.7874"


def example4() -> Body:
    # 5 files x 4 ranks of 20 mm bases: 3.937" wide, 3.150" deep, centred at the origin, facing +y
    return unit("u", "r", 0.0, 0.0, 20, 5, B20)


W, D = 2.5 * B20[0], 2.0 * B20[1]  # half-width 1.969", half-depth 1.575"


@pytest.mark.parametrize("point,arc", [
    ((0.0, D + 1), "front"),
    ((W + 1, D), "right_flank"),  # level with the front edge, 1" beyond its right end
    ((W + 1, D + 1), "right_flank"),  # exactly on the corner's 135-degree line
    ((-W - 1, D + 1), "left_flank"),
    ((0.0, -D - 1), "rear"),
    ((W + 1, -D - 1), "right_flank"),  # on the rear-right line
    ((-W - 0.5, -D - 0.6), "rear"),  # 0.6 beyond the rear, 0.5 beyond the side: rear
    ((-W - 0.6, -D - 0.5), "left_flank"),
])
def test_worked_example_4_and_more(point: tuple[float, float], arc: str) -> None:
    assert arc_of_point(example4(), point) == arc


def test_arcs_turn_with_the_facing() -> None:
    # facing +x (0 degrees): the front is +x, the right flank is -y
    u = unit("u", "r", 10.0, 5.0, 20, 5, B20, facing=0.0)
    assert arc_of_point(u, (10 + D + 1, 5)) == "front"
    assert arc_of_point(u, (10, 5 - W - 1)) == "right_flank"
    assert arc_of_point(u, (10, 5 + W + 1)) == "left_flank"
    assert arc_of_point(u, (10 - D - 1, 5)) == "rear"
    # on the corner line at 45 degrees off the axes, rotated: flank
    assert arc_of_point(u, (10 + D + 1, 5 - W - 1)) == "right_flank"


def test_round_base_unit_has_one_front_arc() -> None:
    r = unit("m", "r", 0, 0, 1, 1, (2.0, 2.0), round_base=True)
    assert {arc_of_point(r, (math.cos(a), math.sin(a))) for a in range(7)} == {"front"}


def test_reference_points() -> None:
    # rectangular unit: centre of its front facing; anything else: its centre
    assert reference_point(example4()) == pytest.approx((0.0, D))
    assert reference_point(disc("f", "r", 3, 4)) == (3, 4)


@settings(max_examples=300, deadline=None)
@given(st.floats(-50, 50), st.floats(-50, 50), st.floats(0, 359), st.floats(0.5, 8),
       st.floats(0.5, 8))
def test_arcs_partition_the_plane_outside_the_boundary(x: float, y: float, facing: float,
                                                       width: float, depth: float) -> None:
    b = Body("u", "r", Footprint("rect", 0.0, 0.0, depth, width, facing), 0.0, 1.0,
             Formation(4, 2, width / 2, depth / 2))
    arc = arc_of_point(b, (x, y))
    assert arc in ("front", "rear", "left_flank", "right_flank")
    # the same point mirrored across the unit's axis goes to the mirrored arc
    t = math.radians(facing)
    fx, fy = math.cos(t), math.sin(t)
    along = x * fx + y * fy
    mx, my = 2 * along * fx - x, 2 * along * fy - y
    mirror = {"front": "front", "rear": "rear", "left_flank": "right_flank",
              "right_flank": "left_flank"}
    u = x * fy - y * fx  # across; exactly on the axis both sides agree by the rule u >= 0
    if abs(u) > 1e-6:
        assert arc_of_point(b, (mx, my)) == mirror[arc]


def test_arc_of_observer_uses_its_reference_point() -> None:
    # the observer unit's centre is in the target's right flank, its front centre in front
    target = unit("t", "b", 0, 0, 10, 5)  # 5 wide (w 2.5), 2 deep (d 1)
    observer = unit("o", "r", 3.6, 2.0, 5, 5, facing=90.0)  # 1 deep: front centre at y 2.5
    # centre (3.6, 2.0): excess across 1.1 > along 1.0 -> right flank
    # front centre (3.6, 2.5): along 1.5 > across 1.1 -> front
    g = BoardGeometry(board(target, observer))
    assert g.arc_of("t", "o") == "front"
    assert g.arc_of_point("t", (3.6, 2.0)) == "right_flank"


def test_contact_engaged_facing_and_models() -> None:
    # target 5 wide x 2 deep at the origin facing +y; attacker 5 files facing -y whose front
    # edge lies on the target's front edge (y = 1): full frontage, 5 models touch
    target = unit("t", "b", 0, 0, 10, 5)
    att = unit("a", "r", 0, 1.5, 5, 5, facing=270.0)
    g = BoardGeometry(board(target, att))
    assert g.in_contact("a", "t")
    assert g.engaged_facing("t", "a") == "front"
    assert g.contact_models("a", "t") == 5
    # shifted 3.2 to the right: its bases span x in [0.7, 5.7]; two overlap the front edge
    att = unit("a", "r", 3.2, 1.5, 5, 5, facing=270.0)
    g = BoardGeometry(board(target, att))
    assert g.contact_models("a", "t") == 2
    # 0.02" away: not in contact
    att = unit("a", "r", 0, 1.52, 5, 5, facing=270.0)
    g = BoardGeometry(board(target, att))
    assert not g.in_contact("a", "t") and g.engaged_facing("t", "a") is None
    assert g.contact_models("a", "t") == 0


def test_engaged_facing_on_a_flank_and_at_a_corner() -> None:
    target = unit("t", "b", 0, 0, 10, 5)  # x in [-2.5, 2.5], y in [-1, 1]
    # a 1x1 fighter-like unit touching the right flank at y = 0
    side = unit("s", "r", 3.0, 0.0, 1, 1, facing=180.0)
    assert BoardGeometry(board(target, side)).engaged_facing("t", "s") == "right_flank"
    # corner to corner at (2.5, 1): the attacker's reference point decides
    corner = unit("c", "r", 3.0, 1.5, 1, 1, facing=90.0)  # front centre (3.0, 2.0)
    # (3.0, 2.0): along excess 1.0 > across excess 0.5 -> front
    assert BoardGeometry(board(target, corner)).engaged_facing("t", "c") == "front"
    corner = unit("c", "r", 3.0, 1.5, 1, 1, facing=0.0)  # front centre (3.5, 1.5)
    assert BoardGeometry(board(target, corner)).engaged_facing("t", "c") == "right_flank"


def test_ranks_and_files_of_example_3() -> None:
    # 12 models in 5 files: ranks 5, 5, 2; the rear pair centred -> files 2, 3, 3, 2, 2
    assert rank_counts(12, 5) == [5, 5, 2]
    assert file_counts(12, 5) == [2, 3, 3, 2, 2]
    assert sorted(file_counts(12, 5), reverse=True) == [3, 3, 2, 2, 2]
    # Area Attack (3x3): ranks 3 + 3 + 2 = 8 from the front; files 3 + 3 + 2 = 8 from a flank
    assert sum(min(3, r) for r in rank_counts(12, 5)[:3]) == 8
    assert sum(sorted(file_counts(12, 5), reverse=True)[:3]) == 8


@pytest.mark.parametrize("models,files,ranks,filec", [
    (10, 5, [5, 5], [2, 2, 2, 2, 2]),
    (3, 5, [3], [0, 1, 1, 1, 0]),
    (4, 5, [4], [1, 1, 1, 1, 0]),  # one empty file: on the right
    (1, 1, [1], [1]),
    (0, 3, [], [0, 0, 0]),
])
def test_rank_and_file_counts(models: int, files: int, ranks: list[int],
                              filec: list[int]) -> None:
    assert rank_counts(models, files) == ranks
    assert file_counts(models, files) == filec
    assert sum(filec) == models


def test_model_centres_follow_the_counts() -> None:
    c = model_centres(Formation(12, 5, 1.0, 1.0))
    assert len(c) == 12
    # front rank at v = +1 (3 ranks deep: 1.5 - 0.5), rear pair in files 1 and 2 (u -1, 0)
    assert sorted(u for u, v in c if v == pytest.approx(-1.0)) == [-1.0, 0.0]


def test_a_short_single_rank_is_centred_in_its_boundary() -> None:
    # 3 models in 5 files of 1" bases: the rank stands in files 1-3 (u = -1, 0, 1)
    c = model_centres(Formation(3, 5, 1.0, 1.0))
    assert sorted(u for u, _ in c) == [-1.0, 0.0, 1.0]


def test_rank_counts_refuse_no_files() -> None:
    with pytest.raises(ValueError):
        rank_counts(3, 0)


# -- facing cover ----------------------------------------------------------------------

def shoot_board(*terrain):  # type: ignore[no-untyped-def]
    # target 5 wide x 2 deep at the origin facing +y (front edge y = 1, x in [-2.5, 2.5]);
    # shooter 20" in front, facing -y, 5 wide
    return board(unit("t", "b", 0, 0, 10, 5), unit("s", "r", 0, 21.0, 5, 5, facing=270.0),
                 terrain=terrain)


def test_facing_cover_none_soft_hard() -> None:
    g = BoardGeometry(shoot_board())
    fc = g.facing_cover("s", "t")
    assert fc.kind == "none" and fc.total_fraction == pytest.approx(0.0, abs=1e-9)
    # a hard wall right in front of the whole front facing: hard cover from every point
    wall = box("w", -3, 1.05, 3, 1.1, 1.0, cover="hard")
    fc = BoardGeometry(shoot_board(wall)).facing_cover("s", "t")
    assert fc.kind == "hard"
    assert fc.hard_fraction == pytest.approx(1.0, abs=1e-9)
    assert fc.by == ("w",)
    hedge = box("h", -3, 1.05, 3, 1.1, 1.0, cover="soft")
    fc = BoardGeometry(shoot_board(hedge)).facing_cover("s", "t")
    assert fc.kind == "soft"
    assert fc.hard_fraction == pytest.approx(0.0, abs=1e-9)
    assert fc.total_fraction == pytest.approx(1.0, abs=1e-9)


def test_facing_cover_exactly_half() -> None:
    # a thin hard wall in front of the left half only (x < 0): 32 of 64 samples hidden
    wall = box("w", -3, 1.05, 0.0, 1.1, 1.0)
    g = BoardGeometry(shoot_board(wall))
    fc = g.facing_cover("s", "t")
    assert fc.hard_fraction == pytest.approx(0.5, abs=1e-9) and fc.kind == "none"
    assert g.facing_cover("s", "t", threshold="half_or_more").kind == "hard"


def test_intervening_unit_gives_soft_cover() -> None:
    screen = unit("x", "r", 0.0, 3.0, 10, 10)  # 10 wide, 1 deep, between them
    g = BoardGeometry(board(unit("t", "b", 0, 0, 10, 5),
                               unit("s", "r", 0, 21.0, 5, 5, facing=270.0), screen))
    fc = g.facing_cover("s", "t")
    assert fc.kind == "soft" and fc.by == ("x",)
