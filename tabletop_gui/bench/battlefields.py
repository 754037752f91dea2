"""Synthetic battlefields for the benchmark and the tests (deterministic for a seed).

``synthetic_board(n)``: n fighters over two sides on a table scaled with n (20 fighters
on 30" x 22", area growing with n), n/5 walls of 2-5" by 0.3-1", 0.5-3.5" high, at any
angle, and a few 4-8" platforms 2-4" high. Bases: mostly round (25, 32, 40 mm), some
oval (60 x 35 mm) and rectangular (50 x 25 mm); a quarter of the fighters stand close
to an enemy so that engagement and flanking occur.
"""

from __future__ import annotations

import math

import numpy as np

from tabletop_gui.geometry.board import Board, Body, Footprint, Terrain

MM = 25.4


def synthetic_board(n: int, seed: int = 1) -> Board:
    rng = np.random.default_rng(seed)
    scale = math.sqrt(max(n, 2) / 20.0)
    width, depth = 30.0 * scale, 22.0 * scale
    terrains: list[Terrain] = []
    for k in range(max(2, n // 50)):
        s = rng.uniform(4.0, 8.0)
        x, y = rng.uniform(0, width - s), rng.uniform(0, depth - s)
        terrains.append(Terrain(f"p{k}", "platform", ((x, y), (x + s, y), (x + s, y + s),
                                                       (x, y + s)), float(rng.uniform(2, 4)),
                                f"Platform {k}"))
    for k in range(max(1, n // 5)):
        length, thick = rng.uniform(2.0, 5.0), rng.uniform(0.3, 1.0)
        cx, cy, ang = rng.uniform(0, width), rng.uniform(0, depth), rng.uniform(0, math.pi)
        c, s_ = math.cos(ang), math.sin(ang)
        pts = tuple((cx + u * c - v * s_, cy + u * s_ + v * c)
                    for u, v in ((-length / 2, -thick / 2), (length / 2, -thick / 2),
                                 (length / 2, thick / 2), (-length / 2, thick / 2)))
        terrains.append(Terrain(f"w{k}", "obstacle", pts, float(rng.uniform(0.5, 3.5)),
                                f"Wall {k}", bool(rng.random() < 0.9),
                                "hard" if rng.random() < 0.7 else "soft"))
    bodies: list[Body] = []
    for k in range(n):
        side = "red" if k % 2 == 0 else "blue"
        if k % 4 == 3 and bodies:  # next to the previous (enemy) fighter
            prev = bodies[-1].footprint
            ang = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(1.0, 2.2)
            x, y = prev.x + r * math.cos(ang), prev.y + r * math.sin(ang)
        else:
            x, y = rng.uniform(0, width), rng.uniform(0, depth)
        roll = rng.random()
        facing = float(rng.uniform(0, 360))
        if roll < 0.8:
            dia = float(rng.choice([25.0, 32.0, 40.0])) / MM
            fp = Footprint("circle", x, y, dia, dia, facing)
        elif roll < 0.9:
            fp = Footprint("ellipse", x, y, 60 / MM, 35 / MM, facing)
        else:
            fp = Footprint("rect", x, y, 50 / MM, 25 / MM, facing)
        bodies.append(Body(f"f{k}", side, fp, None, float(rng.uniform(1.0, 2.5))))
    return Board(width, depth, tuple(bodies), tuple(terrains))


def moved_board(board: Board, k: int, x: float, y: float) -> Board:
    """The board with body ``k`` moved to (x, y)."""
    b = board.bodies[k]
    fp = b.footprint
    nb = Body(b.id, b.side, Footprint(fp.shape, x, y, fp.length, fp.width, fp.facing),
              b.elevation, b.height, b.formation, b.height_class, b.active)
    return Board(board.width, board.depth, board.bodies[:k] + (nb,) + board.bodies[k + 1:],
                 board.terrains, board.grid)
