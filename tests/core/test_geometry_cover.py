"""Warcry-family cover (obstacle line with the 1/2" exemption, platforms) and flanking."""

from __future__ import annotations

import pytest

from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.cover import CoverRule
from tests.core.geometry_helpers import board, box, disc, oval, rect


def g_of(*bodies, terrain=()):  # type: ignore[no-untyped-def]
    return BoardGeometry(board(*bodies, terrain=terrain))


WARCRY = CoverRule(gate_1in=True, platform_threshold=3.0)  # the parameters of Warcry
VARIANT = CoverRule(gate_1in=False, platform_threshold=2.0)  # and of its variants


def test_line_through_a_wall_gives_cover_and_says_why() -> None:
    # attacker edge at x = 0.5, target edge at x = 4.5; wall at x in [2, 2.3]
    wall = box("w1", 2.0, -3, 2.3, 3, 0.2, name="Ruined wall")
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 5, 0), terrain=(wall,))
    c = g.cover("a", "t", WARCRY)
    assert c.in_cover and c.by == ("w1",) and "Ruined wall (w1)" in c.why
    # the other way round too (the wall is far from both)
    assert g.cover("t", "a", VARIANT).in_cover


@pytest.mark.parametrize("x0,x1,expected", [
    (0.8, 1.0, False),  # wholly within 1/2" of the attacker's edge (0.5 -> 1.0)
    (0.9, 1.2, True),  # pokes beyond the half inch: [1.0, 1.2] counts
    (1.0, 1.2, True),  # starts exactly at the half inch
    (4.4, 4.6, True),  # near the target: no exemption
])
def test_half_inch_exemption_near_the_attacker(x0: float, x1: float, expected: bool) -> None:
    wall = box("w1", x0, -3, x1, 3, 1.0)
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 5, 0), terrain=(wall,))
    assert g.cover("a", "t", WARCRY).in_cover is expected
    assert g.cover("a", "t", VARIANT).in_cover is expected


def test_warcry_exemption_only_beyond_one_inch() -> None:
    # gap 0.9 (centres 1.9 apart): warcry drops no part (within 1"), so the wall at
    # [0.6, 0.7] gives cover; the variants always drop the first half inch: no cover.
    wall = box("w1", 0.6, -3, 0.7, 3, 1.0)
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 1.9, 0), terrain=(wall,))
    assert g.cover("a", "t", WARCRY).in_cover
    assert not g.cover("a", "t", VARIANT).in_cover


def test_gate_at_exactly_one_inch_is_not_more_than_one() -> None:
    # gap exactly 1 (centres 2 apart): "more than 1 inch apart" is false -> no exemption
    wall = box("w1", 0.6, -3, 0.7, 3, 1.0)
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 2.0, 0), terrain=(wall,))
    assert g.cover("a", "t", WARCRY).in_cover
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 2.001, 0), terrain=(wall,))
    assert not g.cover("a", "t", WARCRY).in_cover


def test_line_grazing_a_wall_corner_gives_no_cover() -> None:
    # line along y = 0 from x = 0.5 to 4.5; the wall's edge lies on y = 0
    wall = box("w1", 2, 0, 3, 2, 1.0)
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 5, 0), terrain=(wall,))
    assert not g.cover("a", "t", WARCRY).in_cover


def test_touching_bases_have_no_obstacle_cover() -> None:
    wall = box("w1", -3, -3, 3, 3, 1.0)
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 1.0, 0), terrain=(wall,))
    assert not g.cover("a", "t", WARCRY).in_cover


@pytest.mark.parametrize("height,rule,expected", [
    (3.0, WARCRY, True),  # exactly 3" above
    (2.9, WARCRY, False),
    (2.0, VARIANT, True),  # exactly 2" above
    (1.9, VARIANT, False),
])
def test_platform_cover(height: float, rule: CoverRule, expected: bool) -> None:
    p = box("p1", 4, -2, 8, 2, height, kind="platform", name="Watchtower")
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 5, 0), terrain=(p,))
    c = g.cover("a", "t", rule)
    assert c.in_cover is expected
    if expected:
        assert c.by == ("p1",) and "above on Watchtower (p1)" in c.why
    # never the other way round (the attacker is above)
    assert not g.cover("t", "a", rule).in_cover


def test_platform_cover_can_be_switched_off() -> None:
    p = box("p1", 4, -2, 8, 2, 3.0, kind="platform")
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 5, 0), terrain=(p,))
    assert not g.cover("a", "t", CoverRule(False, 2.0, platform_applies=False)).in_cover


def test_flying_above_a_platform_is_not_standing_on_it() -> None:
    p = box("p1", 4, -2, 8, 2, 3.0, kind="platform")
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 5, 0, elevation=6.0), terrain=(p,))
    assert not g.cover("a", "t", WARCRY).in_cover


def test_rectangular_attacker_exemption_by_bisection() -> None:
    # square base 2x2 at the origin facing +x: its edge at x = 1; target disc at (6,0).
    # wall at [1.3, 1.5] lies within 1/2" of the edge: no cover; at [1.5, 1.7]: cover.
    for (x0, x1), expected in (((1.3, 1.5), False), ((1.5, 1.7), True)):
        wall = box("w1", x0, -3, x1, 3, 1.0)
        g = g_of(rect("a", "r", 0, 0, 2, 2, 0.0), disc("t", "b", 6, 0), terrain=(wall,))
        assert g.cover("a", "t", VARIANT).in_cover is expected
    # an oval attacker: 2" long facing +x (edge at x = 1)
    wall = box("w1", 1.3, -3, 1.45, 3, 1.0)
    g = g_of(oval("a", "r", 0, 0, 2.0, 1.0, 0.0), disc("t", "b", 6, 0), terrain=(wall,))
    assert not g.cover("a", "t", VARIANT).in_cover


# -- flanking ---------------------------------------------------------------------------

def test_flanked_by_a_free_friend() -> None:
    # attacker a and friend f (side r) both near target t; f is 1" from t exactly
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 1.5, 0), disc("f", "r", 1.5, 2.0))
    fl = g.flanked("a", "t")
    assert fl.flanked and fl.by == ("f",)


def test_not_flanked_when_the_only_friend_is_busy() -> None:
    # f is within 1" of another enemy e as well
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 1.5, 0), disc("f", "r", 1.5, 2.0),
             disc("e", "b", 1.5, 3.5))
    assert not g.flanked("a", "t").flanked


def test_flanked_when_one_of_two_friends_is_free() -> None:
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 1.5, 0), disc("f", "r", 1.5, 2.0),
             disc("e", "b", 1.5, 3.5), disc("h", "r", 1.5, -1.8))
    fl = g.flanked("a", "t")
    assert fl.flanked and fl.by == ("h",)


def test_not_flanked_without_friends_near_or_when_friend_is_down() -> None:
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 1.5, 0), disc("f", "r", 1.5, 2.01))
    assert not g.flanked("a", "t").flanked
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 1.5, 0),
             disc("f", "r", 1.5, 2.0, active=False))
    assert not g.flanked("a", "t").flanked


def test_flanking_counts_height() -> None:
    # the friend stands 1.2" above the target on a platform: 3D distance > 1
    p = box("p1", 0.5, 1.9, 3, 4, 1.2, kind="platform")
    g = g_of(disc("a", "r", 0, 0), disc("t", "b", 1.5, 0), disc("f", "r", 1.5, 2.0),
             terrain=(p,))
    assert not g.flanked("a", "t").flanked
