"""The compiled sight loop (``jit_kernels.sight``) takes each pair in one pass: its
centre line against its candidates, passing over pieces no higher than both of the
line's ends, then its samples, with the direction from b to a as the one from a to b
negated and the right sample's ellipse norm as the left one's.

These tests check those steps against numpy: the samples bit for bit (bodies of every
shape, facings square to the line, coincident centres), and the answers on boards whose
pieces' tops equal the bodies' tops exactly or stand a hair above them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_gui.geometry.board import Board, Body, Footprint, Terrain
from tabletop_gui.geometry.bodies import BodyArrays
from tabletop_gui.geometry.sight import plan_samples, towards
from tabletop_gui.geometry.terrain import TerrainSet
from tests.core.test_geometry_jit import _jit_on, assert_same_sight  # noqa: F401

pytest.importorskip("numba")
# (_jit_on: the kernels on and loaded for every test here, an autouse fixture)


def _bodies(seed: int, n: int) -> tuple[Body, ...]:
    """Bodies of every shape on a small grid of places (so some share a centre, a row or
    a column: directions along the axes, or none), facings often multiples of 45."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        shape = ("circle", "ellipse", "rect")[int(rng.integers(3))]
        length = float(rng.choice([0.5, 1.0, 1.6, 2.3]))
        width = length if shape == "circle" else float(rng.choice([0.4, 0.7, 1.0])) * length
        facing = float(rng.choice([0.0, 45.0, 90.0, 180.0, 270.0, rng.uniform(0, 360)]))
        x, y = (float(v) for v in rng.integers(0, 4, 2) * 1.5)
        out.append(Body(f"b{k}", "ab"[k % 2], Footprint(shape, x, y, length, width, facing),
                        None, 1.0))
    return tuple(out)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000))
def test_compiled_samples_are_numpy_s_bit_for_bit(seed: int) -> None:
    """``jit_kernels.plan_samples`` of a seen from b, with a's direction from
    ``sight.towards`` and b's as that one negated ((1, 0) both where the centres
    coincide), gives ``sight.plan_samples``'s points exactly, both ways round."""
    from tabletop_gui.geometry import jit_kernels

    bodies = _bodies(seed, 12)
    ba = BodyArrays.build(bodies, TerrainSet.build(()))
    n = len(bodies)
    i, j = (a.ravel().astype(np.intp) for a in np.meshgrid(np.arange(n), np.arange(n)))
    keep = i < j
    i, j = i[keep], j[keep]
    _, _, ux, uy = towards(ba, i, j)
    apart = (ba.x[i] != ba.x[j]) | (ba.y[i] != ba.y[j])
    want_a, want_b = plan_samples(ba, i, j), plan_samples(ba, j, i)
    out = np.empty((4, 2))
    for k in range(len(i)):
        vx, vy = (-ux[k], -uy[k]) if apart[k] else (1.0, 0.0)
        for body, dx, dy, want in ((i[k], ux[k], uy[k], want_a[k]),
                                   (j[k], vx, vy, want_b[k])):
            jit_kernels.plan_samples(int(body), float(dx), float(dy), ba.x, ba.y, ba.shape,
                                     ba.half_length, ba.half_width, ba.forward, out)
            assert np.array_equal(out, want)  # exactly: the same arithmetic is the point
    assert len(i) == 66


def test_the_samples_cover_coincident_centres_and_square_facings() -> None:
    """The boards of the test above have what it is for: pairs sharing a centre, pairs
    along an axis, and rectangles square to the line between centres."""
    coincide = along_axis = 0
    for seed in range(5):
        bodies = _bodies(seed, 12)
        for a in range(len(bodies)):
            for b in range(a + 1, len(bodies)):
                fa, fb = bodies[a].footprint, bodies[b].footprint
                same_x, same_y = fa.x == fb.x, fa.y == fb.y
                coincide += same_x and same_y
                along_axis += same_x != same_y
    assert coincide > 5 and along_axis > 20


def level_board(seed: int, n: int = 40) -> Board:
    """Bodies on the table and on platforms 0.5" high, and walls, whose tops are sums of
    a few binary fractions: a wall's top often equals a body's top exactly, or stands
    1e-7" above it; walls on the table and on the platforms."""
    rng = np.random.default_rng(seed)
    terrains: list[Terrain] = []
    for k in range(3):
        x, y = rng.uniform(0, 14, 2)
        terrains.append(Terrain(f"p{k}", "platform", ((x, y), (x + 5, y), (x + 5, y + 5),
                                                      (x, y + 5)), 0.5, f"P{k}"))
    for k in range(24):
        length, thick = float(rng.uniform(1.5, 5.0)), float(rng.uniform(0.1, 0.6))
        cx, cy, ang = float(rng.uniform(0, 20)), float(rng.uniform(0, 20)), rng.uniform(0, math.pi)
        c, s = math.cos(ang), math.sin(ang)
        pts = tuple((float(cx + u * c - v * s), float(cy + u * s + v * c))
                    for u, v in ((-length / 2, -thick / 2), (length / 2, -thick / 2),
                                 (length / 2, thick / 2), (-length / 2, thick / 2)))
        height = float(rng.choice([0.5, 1.0, 1.5, 2.0, 1.5 + 1e-7, 1.0 + 1e-7]))
        terrains.append(Terrain(f"w{k}", "obstacle", pts, height, f"W{k}"))
    bodies = []
    for k in range(n):
        shape = ("circle", "ellipse", "rect")[int(rng.integers(3))]
        length = float(rng.choice([1.0, 1.5]))
        width = length if shape == "circle" else 0.75 * length
        x, y = (float(v) for v in rng.uniform(0, 20, 2))
        bodies.append(Body(f"b{k}", "ab"[k % 2], Footprint(shape, x, y, length, width,
                                                           float(rng.uniform(0, 360))),
                           None, float(rng.choice([0.5, 1.0, 1.5]))))
    return Board(20.0, 20.0, tuple(bodies), tuple(terrains))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000))
def test_pieces_level_with_the_tops_give_numpy_s_answers(seed: int) -> None:
    """Pieces whose top equals the lower top end of a centre line (passed over: they
    cannot block it) or stands a hair above it (tested): the compiled answers and
    blocker rows are numpy's."""
    assert_same_sight(level_board(seed))


def test_the_level_boards_have_level_pieces_and_both_answers() -> None:
    """The boards above do hold pieces level with a body's top, and pieces a hair above,
    on the line between some pair's centres, and pairs of both answers."""
    level = hair = hidden = 0
    for seed in range(6):
        b = level_board(seed)
        ts = TerrainSet.build(b.terrains)
        ba = BodyArrays.build(b.bodies, ts)
        tops = set(np.round(ba.top, 12))
        level += sum(float(np.round(t, 12)) in tops for t in ts.top[ts.is_obstacle])
        hair += sum(any(0 < t - u < 1e-6 for u in ba.top) for t in ts.top)
        hidden += assert_same_sight(b)
    assert level > 20 and hair > 5 and hidden > 20
