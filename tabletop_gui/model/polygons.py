"""Checks on drawn polygons: enough distinct vertices, some area, no crossing edges."""

from __future__ import annotations

from collections.abc import Sequence

Pt = tuple[float, float]


def _orient(a: Pt, b: Pt, c: Pt) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _on_segment(a: Pt, b: Pt, p: Pt) -> bool:
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(
        a[1], b[1])


def segments_cross(a: Pt, b: Pt, c: Pt, d: Pt) -> bool:
    o1, o2, o3, o4 = _orient(a, b, c), _orient(a, b, d), _orient(c, d, a), _orient(c, d, b)
    if ((o1 > 0) != (o2 > 0)) and ((o3 > 0) != (o4 > 0)) and 0 not in (o1, o2, o3, o4):
        return True
    return (o1 == 0 and _on_segment(a, b, c)) or (o2 == 0 and _on_segment(a, b, d)) or (
        o3 == 0 and _on_segment(c, d, a)) or (o4 == 0 and _on_segment(c, d, b))


def area(poly: Sequence[Pt]) -> float:
    return 0.5 * sum(poly[i][0] * poly[i - 1][1] - poly[i - 1][0] * poly[i][1]
                     for i in range(len(poly)))


def polygon_problem(poly: Sequence[Pt]) -> str | None:
    """Why a polygon cannot be terrain, or None when it is fine."""
    if len(set(poly)) < 3:
        return "a polygon needs at least 3 distinct vertices"
    if abs(area(poly)) < 1e-9:
        return "the polygon has no area"
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        for j in range(i + 1, n):
            if j == i or (j + 1) % n == i or j == (i + 1) % n:
                continue
            if segments_cross(a, b, poly[j], poly[(j + 1) % n]):
                return "the polygon's edges cross"
    return None
