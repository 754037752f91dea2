"""Reading the battlefield, its grid, obstacles and platforms.

Polygons need at least 3 vertices and must be simple (checked with shapely 2): a ring
that crosses or touches itself, or whose vertices lie on one line, is refused. A file
shipped with the program (a demo, ``resources.load_demo``) is read without the shapely
check, which its tests make: numpy and shapely then load only when first needed (the
window's first paint of a demo does not wait for them).
"""

from __future__ import annotations

from typing import Any, Literal, cast

from tabletop_gui.rules.fields import Declaration
from tabletop_gui.scenario.background import decode_data_uri
from tabletop_gui.scenario.entities import Background, Battlefield, Grid, Obstacle, Platform
from tabletop_gui.scenario.problems import index_path, key_path
from tabletop_gui.scenario.reader import MAX_LENGTH, Reader, is_missing

ENTITY_LISTS = ("fighters", "units", "obstacles", "platforms")
BATTLEFIELD_FIELDS = ("width", "depth", "grid", "background")
GRID_FIELDS = ("kind", "size")
GRID_KINDS = ("square", "hex")
OBSTACLE_FIELDS = ("id", "name", "polygon", "height", "blocks_sight", "cover")
PLATFORM_FIELDS = ("id", "name", "polygon", "height")
COVER_KINDS = ("hard", "soft")
MAX_VERTICES = 10_000

Polygon2D = tuple[tuple[float, float], ...]


def battlefield(r: Reader, top: dict[str, Any], decl: Declaration | None) -> Battlefield | None:
    raw = r.get(top, "battlefield", "", required=True)
    if is_missing(raw):
        return None
    obj = r.obj(raw, "battlefield", BATTLEFIELD_FIELDS)
    if obj is None:
        return None
    width = r.req_number(obj, "width", "battlefield", positive=True)
    depth = r.req_number(obj, "depth", "battlefield", positive=True)
    grid: Grid | None = None
    grid_ok = True
    if obj.get("grid") is not None:
        grid = _grid(r, obj["grid"], "battlefield.grid")
        grid_ok = grid is not None
    elif decl is not None and decl.needs_grid:
        r.problem("battlefield.grid", 'this ruleset plays on a grid: give '
                                      '{"kind": "square" or "hex", "size": inches}')
        grid_ok = False
    background: Background | None = None
    background_ok = True
    if obj.get("background") is not None:
        background = _background(r, obj["background"], "battlefield.background")
        background_ok = background is not None
    if width is None or depth is None or not grid_ok or not background_ok:
        return None
    return Battlefield(width=width, depth=depth, grid=grid, background=background)


def _background(r: Reader, value: Any, path: str) -> Background | None:
    obj = r.obj(value, path, ("image",))
    if obj is None:
        return None
    raw = r.get(obj, "image", path, required=True)
    text = None if is_missing(raw) else r.string(raw, key_path(path, "image"))
    if text is None:
        return None
    try:
        decode_data_uri(text)
    except ValueError as e:
        r.problem(key_path(path, "image"), str(e))
        return None
    return Background(image=text)


def _grid(r: Reader, value: Any, path: str) -> Grid | None:
    obj = r.obj(value, path, GRID_FIELDS)
    if obj is None:
        return None
    kind_raw = r.get(obj, "kind", path, required=True)
    kind = None if is_missing(kind_raw) else r.choice(kind_raw, key_path(path, "kind"),
                                                       GRID_KINDS)
    size = r.req_number(obj, "size", path, positive=True)
    if kind is None or size is None:
        return None
    return Grid(kind=cast(Literal["square", "hex"], kind), size=size)


class TerrainReader:
    """Reads terrain; polygons are checked in one batch by ``check_polygons``."""

    def __init__(self, reader: Reader, check_shapes: bool = True) -> None:
        """``check_shapes``: polygons are checked to be simple (False: a shipped file)."""
        self.r = reader
        self._check_shapes = check_shapes
        self._pending: list[tuple[str, list[tuple[float, float]]]] = []

    def obstacles(self, value: Any) -> tuple[Obstacle, ...]:
        out: list[Obstacle] = []
        for i, item in enumerate(self.r.array(value, "obstacles") or []):
            obstacle = self.obstacle(item, index_path("obstacles", i))
            if obstacle is not None:
                out.append(obstacle)
        self.check_polygons()
        return tuple(out)

    def platforms(self, value: Any) -> tuple[Platform, ...]:
        out: list[Platform] = []
        for i, item in enumerate(self.r.array(value, "platforms") or []):
            platform = self.platform(item, index_path("platforms", i))
            if platform is not None:
                out.append(platform)
        self.check_polygons()
        return tuple(out)

    def check_polygons(self) -> None:
        """Check every polygon read so far at once (shapely's array functions)."""
        if not self._pending:
            return
        if not self._check_shapes:
            self._pending = []
            return
        import numpy as np  # lazy: a shipped demo is painted without them (module doc)
        import shapely

        paths = [p for p, _ in self._pending]
        rings = [c[:-1] if c[0] == c[-1] else c for _, c in self._pending]
        self._pending = []
        flat = np.array([xy for ring in rings for xy in ring], dtype=float)
        index = np.repeat(np.arange(len(rings)), [len(ring) for ring in rings])
        linear = shapely.linearrings(flat, indices=index)
        polys = shapely.polygons(linear)
        good = (shapely.is_simple(linear) & shapely.is_valid(polys)
                & (shapely.area(shapely.convex_hull(polys)) > 0.0))
        for i in np.flatnonzero(~good):
            self.r.problem(paths[i], polygon_defect(list(rings[i])) or "is not a valid polygon")

    def obstacle(self, value: Any, path: str) -> Obstacle | None:
        r = self.r
        obj = r.obj(value, path, OBSTACLE_FIELDS)
        if obj is None:
            return None
        before = r.count
        ident, name, polygon, height = self._common(obj, path)
        blocks = True
        if "blocks_sight" in obj:
            blocks = bool(r.boolean(obj["blocks_sight"], key_path(path, "blocks_sight")))
        cover = "hard"
        if "cover" in obj:
            cover = r.choice(obj["cover"], key_path(path, "cover"), COVER_KINDS) or "hard"
        if r.count > before or ident is None or polygon is None or height is None:
            return None
        return Obstacle(id=ident, polygon=polygon, height=height, name=name or "",
                        blocks_sight=blocks, cover=cast(Literal["hard", "soft"], cover))

    def platform(self, value: Any, path: str) -> Platform | None:
        r = self.r
        obj = r.obj(value, path, PLATFORM_FIELDS)
        if obj is None:
            return None
        before = r.count
        ident, name, polygon, height = self._common(obj, path)
        if r.count > before or ident is None or polygon is None or height is None:
            return None
        return Platform(id=ident, polygon=polygon, height=height, name=name or "")

    def _common(
        self, obj: dict[str, Any], path: str
    ) -> tuple[str | None, str | None, Polygon2D | None, float | None]:
        r = self.r
        ident = r.req_id(obj, "id", path)
        name = r.opt_string(obj, "name", path)
        raw = r.get(obj, "polygon", path, required=True)
        polygon = None if is_missing(raw) else self.polygon(raw, key_path(path, "polygon"))
        height = r.req_number(obj, "height", path, positive=True)
        return ident, name, polygon, height

    def polygon(self, value: Any, path: str) -> Polygon2D | None:
        r = self.r
        items = r.array(value, path)
        if items is None:
            return None
        if len(items) > MAX_VERTICES:
            r.problem(path, f"has {len(items)} vertices (at most {MAX_VERTICES})")
            return None
        coords = _plain_points(items)
        if coords is None:  # the slow path names the bad vertex
            points = [r.point(v, index_path(path, i)) for i, v in enumerate(items)]
            if any(p is None for p in points):
                return None
            coords = cast(list[tuple[float, float]], points)
        ring = coords[:-1] if len(coords) > 1 and coords[0] == coords[-1] else coords
        if len(set(ring)) < 3:
            r.problem(path, polygon_defect(coords) or "needs at least 3 vertices")
            return None
        self._pending.append((path, coords))
        return tuple(coords)


def _plain_points(items: list[Any]) -> list[tuple[float, float]] | None:
    """The vertices when every one is a plain [x, y] of sane finite numbers, else None."""
    out: list[tuple[float, float]] = []
    for v in items:
        if type(v) is not list or len(v) != 2:
            return None
        x, y = v
        if type(x) not in (int, float) or type(y) not in (int, float):
            return None
        fx, fy = float(x), float(y)
        if not (abs(fx) <= MAX_LENGTH and abs(fy) <= MAX_LENGTH):  # also false for NaN
            return None
        out.append((fx, fy))
    return out


def polygon_defect(coords: list[tuple[float, float]]) -> str | None:
    """Why these vertices do not make a simple polygon, or None when they do."""
    import shapely  # lazy: see ``check_polygons``
    from shapely.geometry import LinearRing, Polygon

    ring = coords[:-1] if len(coords) > 1 and coords[0] == coords[-1] else coords
    distinct = len(set(ring))
    if distinct < 3:
        found = f"{distinct} distinct" if distinct != len(coords) else str(len(coords))
        return f"needs at least 3 vertices, has {found}"
    try:
        simple = LinearRing(coords).is_simple
        poly = Polygon(coords)
    except (ValueError, shapely.errors.ShapelyError):
        return "is not a polygon"
    if poly.convex_hull.area == 0.0:
        return "has no area: its vertices lie on one line"
    if not simple or not poly.is_valid:
        reason = str(shapely.is_valid_reason(poly))
        where = reason[reason.find("[") + 1 : reason.find("]")].split() if "[" in reason else []
        return "crosses or touches itself" + (f" at ({', '.join(where)})" if where else "")
    return None
