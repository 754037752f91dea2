"""Which lines of a fan a convex piece may hide, and which it certainly hides, as bit masks.

A *fan*: a point S and ``N`` sample points T_k = T0 + u_k D on a segment (``U`` holds the
u_k), the lines S -> T_k. A piece P (a convex polygon) *hides* line k when the part of
S -> T_k strictly inside P is longer than ``segments.EPS_LENGTH`` (``segments.blocked``).

Fan coordinates: a point X has the *height* H(X) = cross(D, X - S) / cross(D, T0 - S)
(0 at S, 1 on the line of the facing) and, where H(X) > 0, the parameter u(X) = G(X) / H(X)
of the facing point on the ray from S through X, G(X) = cross(X - S, T0 - S) / cross(D, T0 - S).
Line k is the set of points with u = u_k and 0 <= H <= 1. For a convex piece:

- *possibly hidden*: a line passing through P meets P at a height in [h0, 1], where h0 is
  half a lower bound of the distance from S to P over the longest line (no point of a line
  nearer S than that distance lies in P). P cut to those heights is convex and its u-range
  is spanned by its vertices in the band and where its edges cross the band's limits: a
  line outside that range (widened by ``MARGIN``) is not hidden.
- *certainly hidden*: a line through P shrunk by ``DELTA`` (P_delta, each edge moved in
  by DELTA) at a height in [eta, 1 - eta], eta the height of 2 DELTA along the line, passes
  within DELTA of no outline point there: a disc of radius DELTA around that point lies in P
  and on the line, so more than 2 DELTA of the line is inside P. The u-range of P_delta cut
  to that band (narrowed by ``MARGIN``) holds only hidden lines. A point S inside P_delta
  (and farther than DELTA from the facing's line) hides every line.

Everything else (lines within the margins of a range's ends, pieces whose shrunk outline
is not reliable, S on or in P) is *unsure*: the caller tests those lines exactly. Masks
are uint64, bit k for line k (``N`` <= 64).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]
MaskArray = NDArray[np.uint64]

N = 64  # lines in a fan (bits in a mask)
U = (np.arange(N) + 0.5) / N  # u of the fan's sample points: middles of equal parts
DELTA = 1e-6  # inches P is shrunk by for certainly hidden lines (far above EPS_LENGTH / 2)
MARGIN = 1e-7  # relative widening (narrowing) of u-ranges, far above rounding
_PREFIX = np.array([(1 << k) - 1 for k in range(N)] + [(1 << N) - 1], dtype=np.uint64)
ALL = _PREFIX[N]
_NOT_PREFIX = ~_PREFIX
_ROWS = 1 << 15  # (piece, point) rows computed together


@dataclass(frozen=True, eq=False)
class PieceGroup:
    """Pieces with the same number of vertices ``w`` (counter-clockwise)."""

    vx: FloatArray  # (g, w) vertices
    vy: FloatArray
    nx: FloatArray  # (g, w) inward unit normal of edge j (vertex j to j + 1); 0 if no length
    ny: FloatArray
    c: FloatArray  # (g, w) n . vertex j (-inf where no length: never the largest)
    sx: FloatArray  # (g, w) vertices of the piece shrunk by DELTA
    sy: FloatArray
    shrunk: BoolArray  # (g,) the shrunk outline is reliable (and the piece is inside P)
    reach: FloatArray  # (g,) farthest a vertex moves when shrunk (inf: not shrunk)
    # the same, vertex-major (w, g) for fast gathers
    vx_t: FloatArray
    vy_t: FloatArray
    nx_t: FloatArray
    ny_t: FloatArray
    c_t: FloatArray
    sx_t: FloatArray
    sy_t: FloatArray


@dataclass(frozen=True, eq=False)
class Pieces:
    """Convex pieces covering polygons: piece m lies in polygon ``owner[m]``, and the pieces
    of a polygon cover it; they are ``first[o] .. first[o] + count[o] - 1``."""

    owner: IntArray
    group: IntArray  # (m,) group of each piece
    slot: IntArray  # (m,) its row in the group
    first: IntArray  # (k,) first piece of each polygon
    count: IntArray  # (k,) pieces of each polygon
    groups: tuple[PieceGroup, ...]

    @staticmethod
    def build(polys: NDArray[np.object_], convex: BoolArray, exact: BoolArray) -> Pieces:
        """The pieces of each polygon: itself when convex, its triangles (merged into convex
        pieces) when not; where ``exact`` is False (polygons with many vertices) a convex
        polygon holding it, which only says which lines may be hidden, and sector triangles
        inside it (``_cores``), which say that some certainly are."""
        rings: list[FloatArray] = []
        owner: list[int] = []
        inner: list[bool] = []
        empty = np.asarray(shapely.is_empty(polys), dtype=bool) if len(polys) else np.zeros(0, bool)
        tri = np.flatnonzero(exact & ~convex & ~empty)
        triangles: dict[int, list[shapely.Polygon]] = {}
        if len(tri):
            parts, index = shapely.get_parts(shapely.constrained_delaunay_triangles(polys[tri]),
                                             return_index=True)
            parts = shapely.orient_polygons(parts)
            for o, t in zip(tri[index], parts, strict=True):
                triangles.setdefault(int(o), []).append(t)
            triangles = {o: [shapely.Polygon(r) for r in _merged(ts)]
                         for o, ts in triangles.items()}
        for o, poly in enumerate(polys):
            if empty[o]:
                continue
            if exact[o] and convex[o]:
                shapes, ok = [poly], True
            elif int(o) in triangles:
                shapes, ok = triangles[int(o)], True
            else:
                shapes, ok = [_outer(poly)], False
            for shape in shapes:
                coords = np.asarray(shape.exterior.coords, dtype=float)[:-1]
                if len(coords) < 3:
                    continue
                rings.append(coords)
                owner.append(o)
                inner.append(ok)
            if not ok:
                for core in _cores(poly):
                    rings.append(core)
                    owner.append(o)
                    inner.append(True)
        return _grouped(rings, np.array(owner, dtype=np.intp), np.array(inner, dtype=bool),
                        len(polys))


_OUTER_VERTICES = 64  # a convex polygon holding a large one has at most about this many
_SECTORS = 128  # sector triangles tried inside a large polygon


def _outer(poly: shapely.Polygon) -> shapely.Polygon:
    """A convex polygon holding ``poly``, with few vertices: its convex hull, else the hull
    of the corners of boxes around runs of its vertices."""
    hull = shapely.convex_hull(poly)
    coords = shapely.get_coordinates(shapely.get_exterior_ring(poly))
    if len(hull.exterior.coords) <= _OUTER_VERTICES + 1 or len(coords) < 8:
        return shapely.orient_polygons(hull)
    run = -(-len(coords) // (_OUTER_VERTICES // 4))
    starts = np.arange(0, len(coords), run)
    lo = np.minimum.reduceat(coords, starts, axis=0)
    hi = np.maximum.reduceat(coords, starts, axis=0)
    corners = np.concatenate([lo, hi, np.column_stack([lo[:, 0], hi[:, 1]]),
                              np.column_stack([hi[:, 0], lo[:, 1]])])
    return shapely.orient_polygons(shapely.convex_hull(shapely.multipoints(corners)))


def _cores(poly: shapely.Polygon) -> list[FloatArray]:
    """Triangles certainly inside a large polygon: around the centre of its largest
    inscribed circle, one per sector, reaching a little short of the nearest vertex in the
    sector and its neighbours; each is kept only if shapely finds it inside the polygon."""
    line = shapely.maximum_inscribed_circle(poly, 0.01 * max(1e-9, float(
        np.sqrt(shapely.area(poly)))))
    centre = np.asarray(line.coords[0], dtype=float)
    coords = shapely.get_coordinates(shapely.get_rings(poly)) - centre
    if len(coords) == 0:
        return []
    angle = np.arctan2(coords[:, 1], coords[:, 0])
    sector = np.floor((angle + np.pi) / (2 * np.pi) * _SECTORS).astype(np.intp) % _SECTORS
    near = np.full(_SECTORS, np.inf)
    np.minimum.at(near, sector, np.hypot(coords[:, 0], coords[:, 1]))
    reach = 0.98 * np.minimum(near, np.minimum(np.roll(near, 1), np.roll(near, -1)))
    edges = np.linspace(-np.pi, np.pi, _SECTORS + 1)
    out = []
    for k in np.flatnonzero(np.isfinite(reach) & (reach > 0)):
        a, b = edges[k], edges[k + 1]
        tri = np.array([centre, centre + reach[k] * np.array([np.cos(a), np.sin(a)]),
                        centre + reach[k] * np.array([np.cos(b), np.sin(b)])])
        out.append(tri)
    if not out:
        return []
    shapes = shapely.polygons(np.stack(out))
    shapely.prepare(poly)
    inside = shapely.contains_properly(poly, shapes)
    return [t for t, ok in zip(out, inside, strict=True) if ok]


def _merged(triangles: list[shapely.Polygon]) -> list[list[tuple[float, float]]]:
    """Counter-clockwise triangles of a polygon merged, two at a time across a shared edge,
    into convex pieces while the union stays strictly convex (fewer pieces to test)."""
    pieces = [[(float(x), float(y)) for x, y in t.exterior.coords[:-1]] for t in triangles]
    merged = True
    while merged:
        merged = False
        edges = {}
        for n, ring in enumerate(pieces):
            for j in range(len(ring)):
                edges[(ring[j], ring[(j + 1) % len(ring)])] = n
        for (a, b), n in edges.items():
            m = edges.get((b, a))
            if m is None or m == n:
                continue
            joined = _join(pieces[n], pieces[m], a, b)
            if joined is not None:
                pieces[n] = joined
                del pieces[m]
                merged = True
                break
    return pieces


def _join(p: list[tuple[float, float]], q: list[tuple[float, float]], a: tuple[float, float],
          b: tuple[float, float]) -> list[tuple[float, float]] | None:
    """The union of rings p (with edge a -> b) and q (with edge b -> a) when strictly convex."""
    i = p.index(b)
    j = q.index(a)
    # p from b round to a, then q from a (exclusive) round to b (exclusive)
    ring = [p[(i + k) % len(p)] for k in range(len(p))]
    ring += [q[(j + k) % len(q)] for k in range(1, len(q) - 1)]
    for k in range(len(ring)):
        (x0, y0), (x1, y1), (x2, y2) = ring[k - 1], ring[k], ring[(k + 1) % len(ring)]
        ax, ay, bx, by = x1 - x0, y1 - y0, x2 - x1, y2 - y1
        if ax * by - ay * bx <= 1e-12 * (abs(ax) + abs(ay)) * (abs(bx) + abs(by)):
            return None
    return ring


def _grouped(rings: list[FloatArray], owner: IntArray, inner: BoolArray, k: int) -> Pieces:
    m = len(rings)
    width = np.array([len(r) for r in rings], dtype=np.intp)
    group = np.zeros(m, dtype=np.intp)
    slot = np.zeros(m, dtype=np.intp)
    groups = []
    for g, w in enumerate(np.unique(width)):
        members = np.flatnonzero(width == w)
        group[members] = g
        slot[members] = np.arange(len(members))
        v = np.stack([rings[n] for n in members])  # (g, w, 2)
        groups.append(_piece_group(v, inner[members]))
    count = np.bincount(owner, minlength=k).astype(np.intp)
    return Pieces(owner, group, slot, (np.cumsum(count) - count).astype(np.intp), count,
                  tuple(groups))


def _piece_group(v: FloatArray, inner: BoolArray) -> PieceGroup:
    d = np.roll(v, -1, axis=1) - v
    length = np.hypot(d[:, :, 0], d[:, :, 1])
    ok = length > 0
    safe = np.where(ok, length, 1.0)
    nx = np.where(ok, -d[:, :, 1] / safe, 0.0)  # counter-clockwise: inside on the left
    ny = np.where(ok, d[:, :, 0] / safe, 0.0)
    c = np.where(ok, nx * v[:, :, 0] + ny * v[:, :, 1], -np.inf)
    # P_delta's vertex j: where the edges before and after j, moved in by DELTA, meet
    px, py = np.roll(nx, 1, axis=1), np.roll(ny, 1, axis=1)
    dot = px * nx + py * ny
    good = ok.all(axis=1) & (dot > -0.9999).all(axis=1) & inner
    k = DELTA / np.where(good[:, None], 1.0 + dot, 1.0)
    sx = v[:, :, 0] + k * (px + nx)
    sy = v[:, :, 1] + k * (py + ny)
    # each shrunk edge keeps its direction and is inside every moved edge line
    sd = np.stack([np.roll(sx, -1, axis=1) - sx, np.roll(sy, -1, axis=1) - sy], axis=2)
    good &= (np.einsum("gwc,gwc->gw", sd, d) > 0).all(axis=1)
    inside = (nx[:, None, :] * sx[:, :, None] + ny[:, None, :] * sy[:, :, None]
              - c[:, None, :]) >= 0.5 * DELTA
    good &= inside.all(axis=(1, 2))
    reach = np.where(good, np.hypot(sx - v[:, :, 0], sy - v[:, :, 1]).max(axis=1), np.inf)
    return PieceGroup(v[:, :, 0].copy(), v[:, :, 1].copy(), nx, ny, c, sx, sy, good, reach,
                      *(np.ascontiguousarray(a.T) for a in (v[:, :, 0], v[:, :, 1], nx, ny, c,
                                                             sx, sy)))


@dataclass(frozen=True)
class Fans:
    """Fans sharing a Target Facing T0 -> T0 + D, one row each, whose points S run along a
    segment: S = S0 + f E for each f of ``FRACTIONS`` (the shooter's sample points)."""

    s0x: FloatArray
    s0y: FloatArray
    ex: FloatArray
    ey: FloatArray
    tx: FloatArray
    ty: FloatArray
    dx: FloatArray
    dy: FloatArray


def masks(pieces: Pieces, piece: IntArray, fans: Fans, fractions: FloatArray
          ) -> tuple[MaskArray, MaskArray]:
    """(possibly hidden, certainly hidden) lines, shape (rows, len(fractions)), of each
    fan point of row r by piece ``piece[r]``."""
    n = len(piece)
    m = len(fractions)
    poss = np.zeros((n, m), dtype=np.uint64)
    cert = np.zeros((n, m), dtype=np.uint64)
    grp = pieces.group[piece]
    for g, pg in enumerate(pieces.groups):
        rows = np.flatnonzero(grp == g)
        step = max(1, _ROWS // (m * max(1, pg.vx_t.shape[0] // 4)))
        for s in range(0, len(rows), step):
            r = rows[s:s + step]
            poss[r], cert[r] = _group_masks(pg, pieces.slot[piece[r]], fans, r, fractions)
    return poss, cert


_IN_FRONT = 1e-6  # least height of every vertex for the quick case


def _group_masks(pg: PieceGroup, slot: IntArray, fans: Fans, r: IntArray, f: FloatArray
                 ) -> tuple[MaskArray, MaskArray]:
    """The masks of rows ``r`` (pieces ``slot`` of one group), (rows, points).

    Quick cases: a piece wholly behind S or beyond the facing hides nothing; a piece wholly
    in front of S (every vertex at a height of at least ``_IN_FRONT``) and not beyond the
    facing possibly hides the u-range of its vertices, and, when it lies within the band
    [eta, 1 - eta], certainly hides that range narrowed by how far u can move while a vertex
    moves by the piece's ``reach`` (P_delta's range holds it). The other (row, point) pairs
    are cut to the bands (``_cut_masks``).

    Arithmetic: with V - S = (V - S0) - f E, the products cross(D, V - S) and
    cross(V - S, T0 - S) are per row terms plus f times per row terms."""
    s0x, s0y, ex, ey = fans.s0x[r], fans.s0y[r], fans.ex[r], fans.ey[r]
    dx, dy = fans.dx[r], fans.dy[r]
    t0x, t0y = fans.tx[r] - s0x, fans.ty[r] - s0y  # T0 - S0
    # arrays (points, rows): rows along the fast axis
    ff = f[:, None]
    k1 = (dx * ey - dy * ex)[None, :]  # cross(D, E)
    k = (dx * t0y - dy * t0x)[None, :] - ff * k1  # cross(D, T0 - S)
    q = ex * t0y - ey * t0x  # cross(E, T0 - S0)
    dlen = np.hypot(dx, dy)
    # the farthest |T0 - S| and |T - S| over the row's points (at the ends of both segments)
    t_len = np.maximum(np.hypot(t0x, t0y), np.hypot(t0x - ex, t0y - ey))
    far = np.maximum(t_len, np.maximum(np.hypot(t0x + dx, t0y + dy),
                                       np.hypot(t0x + dx - ex, t0y + dy - ey)))
    scale = (1.0 + np.maximum(np.abs(s0x), np.abs(s0y)) + np.maximum(np.abs(ex), np.abs(ey))
             + far)
    dist_sf = np.abs(k) / np.where(dlen > 0, dlen, 1.0)[None, :]  # S to the facing's line
    usable = (dlen > 0)[None, :] & (dist_sf > 1e-6 * scale[None, :]) & np.isfinite(k)
    inv_k = 1.0 / np.where(usable, k, 1.0)
    fk1 = ff * k1
    shape = k.shape
    lo = np.full(shape, np.inf)
    hi = np.full(shape, -np.inf)
    h_min = np.full(shape, np.inf)
    h_max = np.full(shape, -np.inf)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for j in range(pg.vx_t.shape[0]):
            vx = pg.vx_t[j][slot] - s0x
            vy = pg.vy_t[j][slot] - s0y
            a = (dx * vy - dy * vx)[None, :]  # cross(D, V - S0)
            b = (vx * t0y - vy * t0x)[None, :]  # cross(V - S0, T0 - S0)
            c = (vx * ey - vy * ex + q)[None, :]  # cross(V - S0, E) + cross(E, T0 - S0)
            hk = a - fk1  # H K
            h = hk * inv_k
            u = (b - ff * c) / hk  # G / H
            np.minimum(h_min, h, out=h_min)
            np.maximum(h_max, h, out=h_max)
            np.minimum(lo, u, out=lo)
            np.maximum(hi, u, out=hi)
        away = usable & ((h_min > 1.0 + 1e-7) | (h_max < -1e-7))
        front = usable & (h_min >= _IN_FRONT) & (h_max <= 1.0 + 1e-7) & (lo <= hi)
        lo = np.where(front, lo, 0.0)
        hi = np.where(front, hi, 0.0)
        poss = _range_mask(lo - MARGIN * (1.0 + np.abs(lo)), hi + MARGIN * (1.0 + np.abs(hi)),
                           closed=True)
        # certainly: P_delta's u-range holds [lo + shift, hi - shift]
        eta = 2.0 * DELTA * (1.0 + 1e-6) / np.where(usable, dist_sf, 1.0) + 1e-12
        band = front & (h_min >= eta) & (h_max <= 1.0 - eta)
        slope = ((t_len[None, :] + np.maximum(np.abs(lo), np.abs(hi)) * dlen[None, :])
                 * np.abs(inv_k) / h_min)
        shift = np.where(band, pg.reach[slot][None, :] * slope * (1.0 + 1e-6), np.inf)
        clo = lo + shift
        chi = hi - shift
        clo = clo + MARGIN * (1.0 + np.abs(clo))
        chi = chi - MARGIN * (1.0 + np.abs(chi))
        ok = band & (clo < chi)
        cert = _range_mask(np.where(ok, clo, 0.0), np.where(ok, chi, 0.0), closed=False)
    cert = np.where(ok, cert, np.uint64(0))
    poss = np.where(away, np.uint64(0), np.where(front, poss, ALL))
    # the rest: cut to the bands (and S within or beside the piece)
    rest_s, rest_r = np.nonzero(~away & ~(front & (band | ~pg.shrunk[slot][None, :])))
    if len(rest_r):
        sx = s0x[rest_r] + f[rest_s] * ex[rest_r]
        sy = s0y[rest_r] + f[rest_s] * ey[rest_r]
        poss[rest_s, rest_r], cert[rest_s, rest_r] = _cut_masks(
            pg, slot[rest_r], sx, sy, fans.tx[r][rest_r] - sx, fans.ty[r][rest_r] - sy,
            dx[rest_r], dy[rest_r], usable[rest_s, rest_r], far[rest_r], scale[rest_r],
            dist_sf[rest_s, rest_r], inv_k[rest_s, rest_r])
    return poss.T.astype(np.uint64), cert.T.astype(np.uint64)


def _range_mask(lo: FloatArray, hi: FloatArray, closed: bool) -> MaskArray:
    """Lines with lo <= u_k <= hi (``closed``) or lo < u_k < hi (finite lo and hi; the
    sample parameters are (k + 1/2) / N, so 64 u - 1/2 is exact). The first line k = a
    and the line after the last, b, are clipped to [0, N] once: rounding to an integer
    and clipping to integer limits commute."""
    x, y = N * lo - 0.5, N * hi - 0.5
    if closed:  # lines with k >= x and k <= y
        a, b = np.ceil(x), np.floor(y)
        b += 1.0
    else:  # k > x and k < y
        a, b = np.floor(x), np.ceil(y)
        a += 1.0
    ai = np.clip(a, 0, N, out=a).astype(np.intp)
    bi = np.clip(b, 0, N, out=b).astype(np.intp)
    np.maximum(ai, bi, out=bi)
    out = _PREFIX[bi]
    out &= _NOT_PREFIX[ai]
    return out


def _cut_range(hs: list[FloatArray], gs: list[FloatArray], low: FloatArray,
               high: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The u-range of a convex polygon (vertex heights ``hs``, numerators ``gs``) cut to
    low <= H <= high (low > 0): its vertices in the band and its edges' crossings of the
    limits. (inf, -inf) when nothing is in the band."""
    w = len(hs)
    lo = np.full(len(low), np.inf)
    hi = np.full(len(low), -np.inf)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for j in range(w):
            h, g = hs[j], gs[j]
            u = np.where((h >= low) & (h <= high), g / h, np.nan)
            np.fmin(lo, u, out=lo)
            np.fmax(hi, u, out=hi)
            h2, g2 = hs[(j + 1) % w], gs[(j + 1) % w]
            for level in (low, high):
                across = (h - level) * (h2 - level) < 0
                uc = np.where(across, (g + (level - h) / (h2 - h) * (g2 - g)) / level, np.nan)
                np.fmin(lo, uc, out=lo)
                np.fmax(hi, uc, out=hi)
    return lo, hi


def _cut_masks(pg: PieceGroup, slot: IntArray, sx: FloatArray, sy: FloatArray,
               tx: FloatArray, ty: FloatArray, dx: FloatArray, dy: FloatArray,
               usable: BoolArray, far: FloatArray, scale: FloatArray, dist_sf: FloatArray,
               inv_k: FloatArray) -> tuple[MaskArray, MaskArray]:
    """The masks of single points S (T0 - S = (tx, ty)) in general: possibly, the
    u-range of the piece cut to [h0, 1]; certainly, that of P_delta cut to [eta, 1 - eta];
    everything when S is inside P_delta."""
    w = pg.vx_t.shape[0]
    n = len(slot)
    hs, gs = _heights(pg.vx_t, pg.vy_t, slot, sx, sy, tx, ty, dx, dy, inv_k)
    outside = np.full(n, -np.inf)  # how far S lies beyond the piece's farthest edge line
    inside = np.full(n, np.inf)  # how deep S lies inside it
    for j in range(w):
        depth = pg.nx_t[j][slot] * sx + pg.ny_t[j][slot] * sy - pg.c_t[j][slot]
        np.maximum(outside, -depth, out=outside)
        np.minimum(inside, depth, out=inside)
    known = usable & (outside > 1e-9 * scale)  # S clearly outside the piece
    h0 = np.where(known, 0.5 * outside / np.where(far > 0, far, 1.0), 1.0)
    lo, hi = _cut_range(hs, gs, h0, np.full(n, 1.0 + 1e-7))
    empty = ~(lo <= hi)
    known &= ~(np.isnan(lo) & ~empty)
    lo = np.where(empty, 0.0, lo)
    hi = np.where(empty, 0.0, hi)
    poss = _range_mask(lo - MARGIN * (1.0 + np.abs(lo)), hi + MARGIN * (1.0 + np.abs(hi)),
                       closed=True)
    poss = np.where(known, np.where(empty, np.uint64(0), poss), ALL)
    cert = np.zeros(n, dtype=np.uint64)
    ok = known & ~empty & pg.shrunk[slot]
    if ok.any():
        shs, sgs = _heights(pg.sx_t, pg.sy_t, slot, sx, sy, tx, ty, dx, dy, inv_k)
        eta = 2.0 * DELTA * (1.0 + 1e-6) / np.where(usable, dist_sf, 1.0) + 1e-12
        clo, chi = _cut_range(shs, sgs, eta, 1.0 - eta)
        ok &= clo < chi  # False for NaN and for nothing in the band
        clo = np.where(ok, clo, 0.0)
        chi = np.where(ok, chi, 0.0)
        clo = clo + MARGIN * (1.0 + np.abs(clo))
        chi = chi - MARGIN * (1.0 + np.abs(chi))
        ok &= clo < chi
        cert = np.where(ok, _range_mask(clo, chi, closed=False), np.uint64(0))
    # S inside the shrunk piece (and the facing farther than DELTA): every line
    every = (usable & pg.shrunk[slot] & (inside > DELTA * (1.0 + 1e-6))
             & (dist_sf > 2 * DELTA))
    return (np.where(every, ALL, poss).astype(np.uint64),
            np.where(every, ALL, cert).astype(np.uint64))


def _heights(vx_t: FloatArray, vy_t: FloatArray, slot: IntArray, sx: FloatArray,
             sy: FloatArray, tx: FloatArray, ty: FloatArray, dx: FloatArray, dy: FloatArray,
             inv_k: FloatArray) -> tuple[list[FloatArray], list[FloatArray]]:
    """Heights H and numerators G of the vertices (vertex-major arrays) of pieces ``slot``
    seen from points S (T0 - S = (tx, ty), D = (dx, dy), 1 / cross(D, T0 - S) = inv_k)."""
    hs, gs = [], []
    for j in range(vx_t.shape[0]):
        vx = vx_t[j][slot] - sx
        vy = vy_t[j][slot] - sy
        hs.append((dx * vy - dy * vx) * inv_k)
        gs.append((vx * ty - vy * tx) * inv_k)
    return hs, gs
