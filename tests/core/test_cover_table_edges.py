"""Cover as a pair table holds it (``cover.cover_rows``: the compiled loops
``jit_kernels.cover_hits`` and ``cover_rows``, or numpy) at the edges of the rules: the
half-inch exemption of round, rectangular and oval attackers, the Warcry gate at exactly
1", and the platform thresholds of Warcry (3") and of its variants (2"). Each case is read
from a whole table both ways round (the attacker first in the board's order, and second:
the loops write the two directions apart), in the matrix and in the rows naming the
terrain, with the compiled loops and without them: a cover lost or gained on either path
fails here.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tabletop_gui.geometry import jit
from tabletop_gui.geometry.board import Body, Terrain
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.cover import CoverRule
from tests.core.geometry_helpers import board, box, disc, oval, rect

WARCRY = CoverRule(gate_1in=True, platform_threshold=3.0)
VARIANT = CoverRule(gate_1in=False, platform_threshold=2.0)  # fight_vs_defense, Mordheim


@pytest.fixture(params=["compiled", "numpy"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "compiled":
        pytest.importorskip("numba")
        monkeypatch.setattr(jit, "ENABLED", True)
        assert jit.kernels() is not None  # loaded: every table below uses them
    else:
        monkeypatch.setattr(jit, "ENABLED", False)
    yield request.param


def table_cover(attacker: Body, target: Body, terrain: tuple[Terrain, ...], rule: CoverRule,
                attacker_first: bool) -> tuple[bool, list[str], bool]:
    """From a fresh table: is the target in cover against the attacker, the terrain ids
    named, and is the attacker in cover against the target."""
    bodies = (attacker, target) if attacker_first else (target, attacker)
    g = BoardGeometry(board(*bodies, terrain=terrain))
    table = g.pair_table(rule)
    a, t = g.index(attacker.id), g.index(target.id)
    by = [terrain[k].id for k in table.cover_terrain(a, t)]
    return bool(table.cover[a, t]), by, bool(table.cover[t, a])


BOTH_ORDERS = pytest.mark.parametrize("attacker_first", [True, False])


@BOTH_ORDERS
@pytest.mark.parametrize("rule", [WARCRY, VARIANT])
@pytest.mark.parametrize("x0,x1,expected", [
    (0.8, 1.0, False),  # wholly within 1/2" of the attacker's edge (0.5 -> 1.0)
    (0.9, 1.2, True),  # pokes beyond the half inch
    (1.0, 1.2, True),  # starts exactly at the half inch
    (4.4, 4.6, True),  # near the target: no exemption for it
])
def test_round_attacker_half_inch(path: str, attacker_first: bool, rule: CoverRule,
                                  x0: float, x1: float, expected: bool) -> None:
    wall = box("w1", x0, -3, x1, 3, 1.0)
    cover, by, back = table_cover(disc("a", "r", 0, 0), disc("t", "b", 5, 0), (wall,), rule,
                                  attacker_first)
    assert (cover, by) == (expected, ["w1"] if expected else [])
    # the other way round the wall lies 5 - x1 .. 5 - x0 from the target's edge
    assert back is (x0 < 4.0)


@BOTH_ORDERS
@pytest.mark.parametrize("centres,expected", [
    (2.0, True),  # gap exactly 1": not more than 1" apart, nothing exempt
    (2.001, False),  # beyond 1": the wall lies within the half inch
])
def test_warcry_gate_at_exactly_one_inch(path: str, attacker_first: bool, centres: float,
                                         expected: bool) -> None:
    wall = box("w1", 0.6, -3, 0.7, 3, 1.0)
    cover, by, _ = table_cover(disc("a", "r", 0, 0), disc("t", "b", centres, 0), (wall,),
                               WARCRY, attacker_first)
    assert (cover, by) == (expected, ["w1"] if expected else [])
    # the variants exempt the half inch at any distance
    cover, by, _ = table_cover(disc("a", "r", 0, 0), disc("t", "b", centres, 0), (wall,),
                               VARIANT, attacker_first)
    assert (cover, by) == (False, [])


@BOTH_ORDERS
@pytest.mark.parametrize("height,rule,expected", [
    (3.0, WARCRY, True),  # exactly 3" above
    (2.9, WARCRY, False),
    (2.0, VARIANT, True),  # exactly 2" above
    (1.9, VARIANT, False),
])
def test_platform_thresholds(path: str, attacker_first: bool, height: float,
                             rule: CoverRule, expected: bool) -> None:
    p = box("p1", 4, -2, 8, 2, height, kind="platform", name="Watchtower")
    cover, by, back = table_cover(disc("a", "r", 0, 0), disc("t", "b", 5, 0), (p,), rule,
                                  attacker_first)
    assert (cover, by) == (expected, ["p1"] if expected else [])
    assert not back  # never the other way round: that attacker is above
    off = CoverRule(rule.gate_1in, rule.platform_threshold, platform_applies=False)
    assert table_cover(disc("a", "r", 0, 0), disc("t", "b", 5, 0), (p,), off,
                       attacker_first)[:2] == (False, [])


@BOTH_ORDERS
def test_platform_and_wall_named_together(path: str, attacker_first: bool) -> None:
    wall = box("w1", 2.0, -3, 2.3, 3, 1.0)
    p = box("p1", 4, -2, 8, 2, 3.0, kind="platform")
    cover, by, back = table_cover(disc("a", "r", 0, 0), disc("t", "b", 5, 0), (wall, p),
                                  WARCRY, attacker_first)
    assert (cover, by, back) == (True, ["w1", "p1"], True)


@BOTH_ORDERS
@pytest.mark.parametrize("shape", ["rect", "oval"])
@pytest.mark.parametrize("x0,x1,expected", [
    (1.3, 1.45, False),  # within 1/2" of the edge at x = 1
    (1.3, 1.55, True),  # its far end just beyond the half inch
    (1.5, 1.7, True),
    (1.8, 1.95, True),  # the far end about the centre's reach (1/2" + the half-diagonal)
    (1.9, 2.0, True),
    (3.0, 3.2, True),  # far beyond: decided from the centre's distance alone
])
def test_long_attacker_half_inch(path: str, attacker_first: bool, shape: str, x0: float,
                                 x1: float, expected: bool) -> None:
    """A 2" x 2" square or a 2" x 1" oval facing +x: its edge at x = 1 on the line."""
    attacker = (rect("a", "r", 0, 0, 2, 2, 0.0) if shape == "rect"
                else oval("a", "r", 0, 0, 2.0, 1.0, 0.0))
    wall = box("w1", x0, -3, x1, 3, 1.0)
    cover, by, _ = table_cover(attacker, disc("t", "b", 6, 0), (wall,), VARIANT,
                               attacker_first)
    assert (cover, by) == (expected, ["w1"] if expected else [])
