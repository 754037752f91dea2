"""Oval-to-oval gaps are exact (not the polygons'): thresholds at exactly 1" hold.

Two 60 x 35 mm ovals facing 0, centres offset by (1.955155433, 1.955155433): the exact
gap between the two ellipses is 1.000" (less by 7e-10). The program measures oval-to-oval
gaps between inscribed polygons (outline.ellipse_segments, ELLIPSE_SAGITTA 0.0009" per
outline) gave 1.001" here, and the pair was not engaged; geometry.oval_gap refines it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.acceptance_helpers import doc, fighter, ok_json, wc_chars, wc_weapon, write

OVAL = {"shape": "oval", "length_mm": 60, "width_mm": 35}
OFFSET = 1.955155433841804 - 1e-9  # exact ellipse gap 1.0 - 7e-10 (found by bisection)


def test_two_ovals_exactly_one_inch_apart_are_engaged(capsys, tmp_path: Path) -> None:
    d = doc("warcry", fighters=[
        fighter("a", "red", 10, 10, wc_chars(), [wc_weapon()], base=OVAL, facing=0),
        fighter("b", "blue", 10 + OFFSET, 10 + OFFSET, wc_chars(), [wc_weapon()], base=OVAL,
                facing=0)])
    pair = ok_json(capsys, "inspect", write(tmp_path, d))["pairs"][0]
    assert pair["distance"] == pytest.approx(1.0, abs=1e-9)
    assert pair["engaged"] is True


def test_oval_gap_rounds_like_the_exact_gap(capsys, tmp_path: Path) -> None:
    """Offset (1.5, 1.5): exact gap 0.398554 -> 0.399 (the program says 0.400)."""
    d = doc("warcry", fighters=[
        fighter("a", "red", 10, 10, wc_chars(), [wc_weapon()], base=OVAL, facing=0),
        fighter("b", "blue", 11.5, 11.5, wc_chars(), [wc_weapon()], base=OVAL, facing=0)])
    distance = ok_json(capsys, "inspect", write(tmp_path, d))["pairs"][0]["distance"]
    assert distance == pytest.approx(0.399, abs=1e-9)


def test_refined_gap_matches_a_dense_parametric_minimum() -> None:
    # Rotated ovals and an oval against a rectangle: the gap equals the minimum over
    # 4000 x 4000 outline samples (accurate to ~1e-6") and never exceeds it by > 1e-6.
    import numpy as np

    from tabletop_gui.geometry.board import Board, Body, Footprint
    from tabletop_gui.geometry.board_geometry import BoardGeometry

    def outline_pts(fp: Footprint, n: int) -> np.ndarray:
        t = np.linspace(0, 2 * np.pi, n, endpoint=False)
        a = np.radians(fp.facing)
        fwd, right = np.array([np.cos(a), np.sin(a)]), np.array([np.sin(a), -np.cos(a)])
        if fp.shape == "ellipse":
            u, v = 0.5 * fp.width * np.cos(t), 0.5 * fp.length * np.sin(t)
        else:  # rectangle perimeter
            s = np.linspace(0, 4, n, endpoint=False)
            hw, hl = 0.5 * fp.width, 0.5 * fp.length
            u = np.select([s < 1, s < 2, s < 3], [-hw + 2 * hw * s, hw + 0 * s,
                          hw - 2 * hw * (s - 2)], -hw + 0 * s)
            v = np.select([s < 1, s < 2, s < 3], [-hl + 0 * s, -hl + 2 * hl * (s - 1),
                          hl + 0 * s], hl - 2 * hl * (s - 3))
        return np.array([fp.x, fp.y]) + np.outer(u, right) + np.outer(v, fwd)

    cases = [
        (Footprint("ellipse", 0, 0, 2.36, 1.38, 30),
         Footprint("ellipse", 2.2, 1.1, 2.36, 1.38, 75)),
        (Footprint("ellipse", 0, 0, 2.36, 1.38, 0), Footprint("ellipse", 2.4, 0.1, 2.36, 1.38, 0)),
        (Footprint("rect", 0, 0, 1.5, 3.0, 20), Footprint("ellipse", 2.9, -1.2, 2.0, 1.2, 95)),
        (Footprint("ellipse", 0, 0, 3.0, 1.0, 0), Footprint("ellipse", 0.9, 2.1, 1.5, 0.8, 120)),
        (Footprint("ellipse", 0, 0, 2.36, 1.38, 10), Footprint("rect", 2.5, 0.3, 0.98, 1.97, 45)),
    ]
    for fa, fb in cases:
        board = Board(30, 30, (Body("a", "red", fa), Body("b", "blue", fb)))
        got = BoardGeometry(board).measure("a", "b").horizontal
        pa, pb = outline_pts(fa, 4000), outline_pts(fb, 4000)
        brute = min(np.min(np.hypot(*(pb - p).T)) for p in pa)
        assert got <= brute + 1e-6
        assert got >= brute - 1e-5
