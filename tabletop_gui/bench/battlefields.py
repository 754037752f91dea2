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


# -- whole scenario files (JSON documents), for `inspect` at army and stress scale --------

_NINTH_AGE_CHARS = {"adv": 4, "mar": 8, "dis": 7, "hp": 1, "def": 3, "res": 3, "arm": 1,
                    "att": 1, "off": 3, "str": 3, "ap": 0, "agi": 3}
# (base_mm, round_base, height_class, files range): infantry, cavalry, monstrous, monsters
_NINTH_AGE_BASES = (([20, 20], False, "standard", (5, 8)), ([25, 25], False, "standard", (5, 7)),
                    ([25, 50], False, "standard", (4, 6)), ([40, 40], False, "large", (3, 5)),
                    ([50, 50], True, "gigantic", (1, 1)))


def _scenario(ruleset: str, width: float, depth: float, sides: tuple[str, str],
              fighters: list[dict[str, object]], units: list[dict[str, object]],
              obstacles: list[dict[str, object]], platforms: list[dict[str, object]],
              name: str) -> dict[str, object]:
    return {
        "format": "tabletop-gui/scenario", "schema_version": 1, "name": name,
        "ruleset": ruleset, "ruleset_options": {},
        "battlefield": {"width": round(width, 3), "depth": round(depth, 3), "grid": None},
        "sides": [{"id": sides[0], "name": sides[0].title(), "color": "#c0392b"},
                  {"id": sides[1], "name": sides[1].title(), "color": "#2e86c1"}],
        "fighters": fighters, "units": units, "obstacles": obstacles, "platforms": platforms,
    }


def _box(cx: float, cy: float, length: float, thick: float, ang: float) -> list[list[float]]:
    c, s = math.cos(ang), math.sin(ang)
    return [[round(cx + u * c - v * s, 4), round(cy + u * s + v * c, 4)]
            for u, v in ((-length / 2, -thick / 2), (length / 2, -thick / 2),
                         (length / 2, thick / 2), (-length / 2, thick / 2))]


def _blob(rng: np.random.Generator, cx: float, cy: float, r: float, n: int
          ) -> list[list[float]]:
    """A star-shaped polygon of n vertices (radius r with a random wobble): a forest."""
    ang = (np.arange(n) + rng.uniform(-0.3, 0.3, n)) * (2 * math.pi / n)
    rad = r * rng.uniform(0.7, 1.0, n)
    return [[round(cx + float(q) * math.cos(a), 4), round(cy + float(q) * math.sin(a), 4)]
            for a, q in zip(ang, rad, strict=True)]


def ninth_age_scenario(units: int, seed: int = 1) -> dict[str, object]:
    """A Ninth Age scenario: ``units`` units of 10-40 models (a few single monsters) with
    mixed bases, half on each side, drawn up facing each other over a table scaled with
    the number of units (72" x 48" for 40), a few pairs of units in contact in the middle;
    forests (soft, not blocking sight, some not convex), walls (hard) and hills."""
    rng = np.random.default_rng(seed)
    scale = math.sqrt(max(units, 2) / 40.0)
    width, depth = 72.0 * scale, 48.0 * scale
    out_units: list[dict[str, object]] = []
    per_side = (units + 1) // 2
    cols = max(1, math.ceil(math.sqrt(per_side * 2.0)))
    rows = max(1, math.ceil(per_side / cols))
    prev: tuple[float, float, float] | None = None  # the last unit's x, y and depth
    for k in range(units):
        side, n = ("crown", k // 2) if k % 2 == 0 else ("ember", k // 2)
        base, round_base, height_class, (f_lo, f_hi) = _NINTH_AGE_BASES[
            int(rng.choice(len(_NINTH_AGE_BASES), p=[0.45, 0.15, 0.2, 0.12, 0.08]))]
        models, files = 1, 1
        if not round_base:
            models = int(rng.integers(10, 41)) if base[0] <= 25 else int(rng.integers(3, 13))
            files = min(models, int(rng.integers(f_lo, f_hi + 1)))
        deep = math.ceil(models / files) * base[1] / MM
        x = (n % cols + 0.5) * width / cols + float(rng.uniform(-1.0, 1.0))
        y = (n // cols + 0.5) * 0.42 * depth / rows + float(rng.uniform(-0.5, 0.5))
        facing = 90.0 + float(rng.uniform(-20, 20))
        if side == "ember":
            y, facing = depth - y, facing + 180.0
            if k % 12 == 1 and prev is not None:  # charged home: front to the crown unit's front
                x, y, facing = prev[0], prev[1] + (prev[2] + deep) / 2, 270.0
        prev = (x, y, deep)
        out_units.append({
            "id": f"u{k}", "name": f"Unit {k}", "side": side, "x": round(x, 4),
            "y": round(y, 4), "facing": round(facing % 360.0, 3), "models": models,
            "files": files, "base_mm": base, "round_base": round_base,
            "characteristics": dict(_NINTH_AGE_CHARS), "height_class": height_class,
            "traits": [], "weapons": [
                {"name": "Bows", "kind": "shooting", "strength": 3, "ap": 0, "range": 24,
                 "aim": 4, "shots": 1, "attributes": []},
                {"name": "Hand weapon", "kind": "close_combat", "attributes": []}],
            "state": {},
        })
    obstacles: list[dict[str, object]] = []
    platforms: list[dict[str, object]] = []
    for k in range(max(2, units // 6)):
        cx, cy = rng.uniform(0, width), rng.uniform(0, depth)
        obstacles.append({"id": f"forest{k}", "name": f"Forest {k}",
                          "polygon": _blob(rng, cx, cy, rng.uniform(2.5, 5.0),
                                           int(rng.integers(5, 12))),
                          "height": 4, "blocks_sight": False, "cover": "soft"})
    for k in range(max(2, units // 5)):
        cx, cy, ang = rng.uniform(0, width), rng.uniform(0, depth), rng.uniform(0, math.pi)
        obstacles.append({"id": f"wall{k}", "name": f"Wall {k}",
                          "polygon": _box(cx, cy, rng.uniform(4, 8), rng.uniform(0.3, 0.8), ang),
                          "height": 1, "blocks_sight": True, "cover": "hard"})
    for k in range(max(1, units // 15)):
        cx, cy = rng.uniform(0, width), rng.uniform(0, depth)
        platforms.append({"id": f"hill{k}", "name": f"Hill {k}",
                          "polygon": _blob(rng, cx, cy, rng.uniform(4.0, 7.0), 8),
                          "height": 1})
    return _scenario("ninth-age", width, depth, ("crown", "ember"), [], out_units, obstacles,
                     platforms, f"{units} Ninth Age units")


def warcry_jagged_scenario(vertices: int = 10_000, fighters: int = 40, seed: int = 1
                           ) -> dict[str, object]:
    """A Warcry scenario: one obstacle of ``vertices`` vertices in the middle of a 44" x 30"
    table (a jagged circle of radius 6-8", a star of 25 points), a few walls, and
    ``fighters`` fighters with mixed bases half on each side, all around it."""
    rng = np.random.default_rng(seed)
    width, depth = 44.0, 30.0
    cx, cy = width / 2, depth / 2
    ang = np.arange(vertices) * (2 * math.pi / vertices)
    rad = 6.0 + 1.0 * np.cos(25 * ang) + rng.uniform(-0.3, 0.3, vertices)
    polygon = [[round(cx + float(r) * math.cos(a), 6), round(cy + float(r) * math.sin(a), 6)]
               for a, r in zip(ang, rad, strict=True)]
    obstacles: list[dict[str, object]] = [
        {"id": "jagged", "name": "Jagged rocks", "polygon": polygon, "height": 3,
         "blocks_sight": True, "cover": "hard"}]
    for k in range(6):
        wx, wy = (float(rng.uniform(2, 10)), float(rng.uniform(2, depth - 2)))
        if k % 2:
            wx = width - wx
        obstacles.append({"id": f"w{k}", "name": f"Wall {k}",
                          "polygon": _box(wx, wy, rng.uniform(2, 4), rng.uniform(0.3, 0.6),
                                          rng.uniform(0, math.pi)),
                          "height": 2, "blocks_sight": True, "cover": "hard"})
    bases: tuple[dict[str, object], ...] = (
        {"shape": "round", "diameter_mm": 32}, {"shape": "round", "diameter_mm": 40},
        {"shape": "oval", "length_mm": 60, "width_mm": 35},
        {"shape": "rect", "width_mm": 25, "depth_mm": 25})
    out: list[dict[str, object]] = []
    for k in range(fighters):
        side = "red" if k % 2 == 0 else "blue"
        a = float(rng.uniform(0, 2 * math.pi))
        r = float(rng.uniform(8.0, 13.5))
        x = min(width - 1, max(1.0, cx + r * math.cos(a) * 1.5))
        y = min(depth - 1, max(1.0, cy + r * math.sin(a)))
        out.append({
            "id": f"f{k}", "name": f"Fighter {k}", "side": side, "x": round(x, 4),
            "y": round(y, 4), "facing": round(float(rng.uniform(0, 360)), 3),
            "base": dict(bases[k % len(bases)]), "elevation": None, "height": 1.25,
            "characteristics": {"move": 4, "toughness": 4, "wounds": 15}, "traits": [],
            "weapons": [{"name": "Bow", "range": "3-24", "attacks": 2, "strength": 3,
                         "damage": "1/3"},
                        {"name": "Sword", "range": 1, "attacks": 3, "strength": 4,
                         "damage": "1/4"}],
            "state": {},
        })
    return _scenario("warcry", width, depth, ("red", "blue"), out, [], obstacles, [],
                     f"One obstacle of {vertices} vertices")
