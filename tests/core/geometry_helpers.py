"""Small builders of boards for the geometry tests."""

from __future__ import annotations

import numpy as np

from tabletop_gui.geometry.board import Board, Body, Footprint, Formation, GridSpec, Terrain
from tabletop_gui.geometry.pairs import PairTable


def disc(bid: str, side: str, x: float, y: float, d: float = 1.0, *,
         elevation: float | None = None, height: float = 1.25, active: bool = True) -> Body:
    return Body(bid, side, Footprint("circle", x, y, d, d), elevation, height, active=active)


def oval(bid: str, side: str, x: float, y: float, length: float, width: float,
         facing: float = 90.0, **kw: object) -> Body:
    return Body(bid, side, Footprint("ellipse", x, y, length, width, facing), **kw)  # type: ignore[arg-type]


def rect(bid: str, side: str, x: float, y: float, length: float, width: float,
         facing: float = 90.0, *, elevation: float | None = None, height: float = 1.25) -> Body:
    return Body(bid, side, Footprint("rect", x, y, length, width, facing), elevation, height)


def unit(bid: str, side: str, x: float, y: float, models: int, files: int,
         base: tuple[float, float] = (1.0, 1.0), facing: float = 90.0,
         round_base: bool = False) -> Body:
    ranks = max(1, -(-models // files))
    if round_base:
        fp = Footprint("circle", x, y, base[0], base[0], facing)
    else:
        fp = Footprint("rect", x, y, ranks * base[1], files * base[0], facing)
    return Body(bid, side, fp, 0.0, 1.25, Formation(models, files, base[0], base[1], round_base))


def box(tid: str, x0: float, y0: float, x1: float, y1: float, height: float, *,
        kind: str = "obstacle", name: str = "", blocks_sight: bool = True,
        cover: str = "hard") -> Terrain:
    return Terrain(tid, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height, name,  # type: ignore[arg-type]
                   blocks_sight, cover)  # type: ignore[arg-type]


def board(*bodies: Body, terrain: tuple[Terrain, ...] = (), grid: GridSpec | None = None
          ) -> Board:
    return Board(60.0, 44.0, tuple(bodies), terrain, grid)


def assert_same_tables(x: PairTable, y: PairTable) -> None:
    """Two pair tables of the same board (one derived by a drag step, one fresh) give the
    same answers: they compute each pair with the same arithmetic, so distances agree
    within 1e-12\" and every verdict is identical."""
    np.testing.assert_allclose(x.horizontal, y.horizontal, atol=1e-12)
    np.testing.assert_allclose(x.distance, y.distance, atol=1e-12)
    np.testing.assert_allclose(x.vertical, y.vertical, atol=1e-12)
    assert (x.visible == y.visible).all()
    assert (x.cover == y.cover).all()
    assert (x.flanked == y.flanked).all()
    assert sorted(zip(*map(list, x.near), strict=True)) \
        == sorted(zip(*map(list, y.near), strict=True))
    assert sorted(map(tuple, x.cover_by.rows())) == sorted(map(tuple, y.cover_by.rows()))
    assert sorted(map(tuple, x.blocked_by.rows())) == sorted(map(tuple, y.blocked_by.rows()))
