"""Names on the board: a label for every model (its name, a short id, or none: a View
choice kept in the settings) and every piece of terrain, placed so that labels never
overlap each other or a token, and drawn above terrain, models and overlays; the wounds
bars are drawn with them (``NamesLayer``: one cached item above the overlays, so a
target ring never hides a bar).

Labels keep their size on screen at any zoom (drawn from a pixmap at the device's
resolution): readable zoomed out or in. Where they go depends on the zoom, so
``LabelLayer`` places them in screen pixels: terrain labels first, then each model's in
the battlefield's order, each at the first of a few candidate spots around its token
(below, above, right, left, the diagonals, then the same further out) that overlaps
nothing placed so far and no token; a label with no free spot is hidden at that zoom
(the tooltip and the roster still name the model). The result depends only on the
battlefield and the zoom.

Placement runs after a zoom, after an edit, and once a drag pauses (``MOVE_SETTLE_MS``);
while a model is dragged its label keeps its place beside the token. Placing thousands
of labels is done in slices of ``SLICE_S`` per event-loop turn, and the view repainted
once, when all are placed; ``placed`` says when done.
After a move or an edit of a few models, only what the change can reach is placed again
(``LabelLayer._increment``): the labels of the models changed (``NamesLayer.touched``),
those whose spots a moved token meets, then, in the placement's order, those whose spots
meet a label that moved; the result is the placement from nothing (tested).
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Protocol

from PySide6.QtCore import QObject, QPointF, QRectF, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QPainter,
    QPen,
    QPixmap,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsItem, QMenu, QStyleOptionGraphicsItem, QWidget

from tabletop_gui.ui.canvas.coords import Z_LABEL


class LabelledScene(Protocol):
    """What the label layer reads of the battlefield scene (``canvas.scene``, which
    imports this module)."""

    @property
    def building(self) -> bool: ...

    def addItem(self, item: QGraphicsItem) -> None: ...  # noqa: N802 - Qt's name
    def sceneRect(self) -> QRectF: ...  # noqa: N802 - Qt's name
    def model_items(self) -> Iterable[Any]: ...
    def entity_items(self) -> Mapping[str, Any]: ...

LABEL_MODES = ("name", "id", "none")
MODE_TEXT = {"name": "&Name", "id": "Short &id", "none": "N&one"}
SETTINGS_KEY = "view/labels"
LABEL_PX = 11  # label text height on screen, pixels
GAP_PX = 2.0  # between a token (and its bar) and its label
CELL_PX = 64.0  # the placement's spatial hash
MOVE_SETTLE_MS = 150  # a drag that pauses this long gets its labels re-placed
SLICE_S = 0.006  # placement work per event-loop turn
DIRTY_RECTS = 64  # more places to repaint than this before a paint: repaint it all
NEAR_CELL = 160.0  # scene units (4"): the cells a paint finds the owners near it by
INCREMENT_MOST = 64  # more labels touched than this: a placement of every label
TEXT = QColor("#1b1b1b")
TEXT_DOWN = QColor("#6f6f6f")
BACK = QColor(255, 255, 255, 215)
BACK_DOWN = QColor(235, 235, 235, 170)
BAR_BACK = QColor("#5a1c1c")
BAR_LEFT = QColor("#2ecc40")

Rect = tuple[float, float, float, float]  # left, top, right, bottom (pixels)
Spot = tuple[float, float]  # a label's top-left corner (pixels)
# what a model's label knows of the tokens around it: (its token and size, the spots
# around it free of tokens, the rectangle all its spots span, all its spots)
Known = tuple[tuple[Rect, float, float], list[Spot], Rect, list[Spot]]


def label_font(bold: bool = False) -> QFont:
    f = QFont()
    f.setPixelSize(LABEL_PX)
    f.setBold(bold)
    return f


_METRICS: dict[bool, QFontMetricsF] = {}
_SIZES: dict[tuple[str, bool, bool], tuple[float, float]] = {}
SIZES_KEPT = 20_000  # label sizes remembered (a placement asks for every label's)


def label_size(text: str, bold: bool = False, stripe: bool = False) -> tuple[float, float]:
    """Width and height on screen (pixels) of a label with this text."""
    key = (text, bold, stripe)
    size = _SIZES.get(key)
    if size is not None:
        return size
    fm = _METRICS.get(bold)
    if fm is None:
        fm = _METRICS[bold] = QFontMetricsF(label_font(bold))
    pad = 7.0 if stripe else 3.0
    if len(_SIZES) >= SIZES_KEPT:
        _SIZES.clear()
    size = _SIZES[key] = (fm.horizontalAdvance(text) + pad + 3.0, fm.height() + 1.0)
    return size


class Label:
    """A name: its text, greyed or not, its side's stripe; drawn once into a pixmap of
    the size it has on screen; ``offset`` (pixels) from its anchor where it was placed."""

    __slots__ = ("text", "greyed", "stripe", "bold", "size", "pixmap", "offset", "dxy",
                 "placed")

    def __init__(self, text: str, greyed: bool, stripe: QColor | None, bold: bool,
                 offset: QPointF | None = None, placed: bool = False) -> None:
        self.text, self.greyed, self.bold = text, greyed, bold
        self.stripe = QColor(stripe) if stripe is not None else None
        self.size = label_size(text, bold, stripe is not None)
        self.pixmap = self._draw()
        self.offset = QPointF(offset) if offset is not None else QPointF()
        self.dxy = (self.offset.x(), self.offset.y())  # as numbers (read at every paint)
        self.placed = placed

    def place(self, offset: QPointF | None) -> None:
        """Placed at ``offset`` pixels from its anchor; None: not placed (hidden)."""
        self.placed = offset is not None
        if offset is not None:
            self.offset = QPointF(offset)
            self.dxy = (offset.x(), offset.y())

    def same(self, text: str, greyed: bool, stripe: QColor | None) -> bool:
        return (text, greyed, stripe) == (self.text, self.greyed, self.stripe)

    def _draw(self) -> QPixmap:
        w, h = self.size
        app = QGuiApplication.instance()
        ratio = app.devicePixelRatio() if isinstance(app, QGuiApplication) else 1.0
        pixmap = QPixmap(max(1, math.ceil(w * ratio)), max(1, math.ceil(h * ratio)))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self.paint(painter, QPointF())
        painter.end()
        return pixmap

    def paint(self, painter: QPainter, at: QPointF) -> None:
        """The box, the stripe and the text, at ``at`` (pixels)."""
        w, h = self.size
        x, y = at.x(), at.y()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(BACK_DOWN if self.greyed else BACK)
        painter.drawRoundedRect(QRectF(x, y, w, h), 3, 3)
        left = 3.0
        if self.stripe is not None:
            painter.setBrush(TEXT_DOWN if self.greyed else self.stripe)
            painter.drawRect(QRectF(x + 1.5, y + 2.0, 3.0, max(0.0, h - 4.0)))
            left += 4.0
        painter.setFont(label_font(self.bold))
        painter.setPen(QPen(TEXT_DOWN if self.greyed else TEXT))
        painter.drawText(QRectF(x + left, y, w - left, h),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.text)


class NamesLayer(QGraphicsItem):
    """One item above the overlays that draws every wounds bar (in scene units, under the
    labels) and every placed label (the same size on screen at any zoom). One item with a
    device cache: a repaint of the view is one blit, and a model moved re-draws only the
    places its bar and label left and reached."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_LABEL)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.zoom = 1.0  # device pixels per scene unit the labels are placed for
        self.vector = False  # draw text as text (an SVG export), not the pixmaps
        self._bounds = QRectF()
        self._dirty_count = 0  # places to repaint asked for since the last paint
        self._all_dirty = False
        # why changes wait ("build": a battlefield being built; "place": a placement under
        # way), and the places they changed (None: too many, the whole layer)
        self._holds: set[str] = set()
        self._waiting: list[QRectF] | None = []
        # owner (a model or terrain item) -> [anchor (scene), shown, label, bar (scene,
        # around the anchor), the bar's green fraction, the bar and its green part where
        # they are (scene; kept so that painting thousands is two calls), the anchor and
        # the placed bar as numbers (x, y) and (left, top, right, bottom): a paint picks
        # what it shows without a call into Qt per owner]
        self._owners: dict[object, list[Any]] = {}
        self._near = _Near()  # the owners by where their anchors are (a paint's look-up)
        # what changed for the label placement since it last ran (``LabelLayer``): the
        # owners whose anchor, visibility, bar or label changed, or that were ``touch``ed
        # (a token of another shape); ``generation`` counts the owners that came and went.
        # The placement's own changes are not counted (``quiet``).
        self.touched: set[object] = set()
        self.generation = 0
        self.quiet = False

    def touch(self, owner: object) -> None:
        """``owner``'s token may have changed (its shape, its place): its label and those
        near it are to be placed again."""
        if not self.quiet:
            self.touched.add(owner)

    def hold(self, held: bool, why: str = "build") -> None:
        """While held (for any reason), changes are not repainted one by one; once every
        hold is released, what they changed is repainted at once: a placement of
        thousands of labels in slices repaints the view once, not at every slice."""
        was = bool(self._holds)
        if held:
            self._holds.add(why)
        else:
            self._holds.discard(why)
        if was and not self._holds:
            waiting, self._waiting = self._waiting, []
            if waiting is None:
                self._repaint(None)
            for r in waiting or ():
                self._repaint(r)

    def set_bounds(self, rect: QRectF) -> None:
        if rect != self._bounds:
            self.prepareGeometryChange()
            self._bounds = QRectF(rect)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    # -- content ---------------------------------------------------------------------------
    def _entry(self, owner: object) -> list[Any]:
        entry = self._owners.get(owner)
        if entry is None:
            entry = self._owners[owner] = [QPointF(), True, None, None, 0.0, None, None,
                                           (0.0, 0.0), None]
            self._near.put(owner, entry)
            self.generation += 1
        return entry

    @staticmethod
    def _place_bar(entry: list[Any]) -> None:
        bar = entry[3]
        if bar is None:
            entry[5] = entry[6] = entry[8] = None
            return
        at = bar.translated(entry[0])
        entry[5] = at
        entry[8] = (at.left(), at.top(), at.right(), at.bottom())
        entry[6] = QRectF(at.left(), at.top(), at.width() * entry[4], at.height())

    def _dirty(self, entry: list[Any]) -> None:
        """Repaint where the entry's bar and label are. Past ``DIRTY_RECTS`` places
        before the next paint (a file being built, every label re-placed), the whole
        layer is repainted once instead: Qt would clip its cache's repaint to a region
        of thousands of rectangles."""
        if self._all_dirty:
            return
        for r in self._rects(entry):
            if self._holds:
                if self._waiting is not None:
                    self._waiting.append(r)
                    if len(self._waiting) > DIRTY_RECTS:
                        self._waiting = None
                continue
            self._repaint(r)

    def _repaint(self, rect: QRectF | None) -> None:
        """Repaint ``rect`` (None: everything), or everything past ``DIRTY_RECTS``."""
        if self._all_dirty:
            return
        self._dirty_count += 1
        if rect is None or self._dirty_count > DIRTY_RECTS:
            self._all_dirty = True
            self.update()
        else:
            self.update(rect)

    def _rects(self, entry: list[Any]) -> list[QRectF]:
        anchor, shown, label, bar = entry[0], entry[1], entry[2], entry[3]
        out = []
        if not shown:
            return out
        if bar is not None:
            out.append(bar.translated(anchor))
        if label is not None and label.placed:
            out.append(self._label_rect(anchor, label, self.zoom))
        return out

    @staticmethod
    def _label_rect(anchor: QPointF, label: Label, zoom: float) -> QRectF:
        w, h = label.size
        return QRectF(anchor.x() + label.offset.x() / zoom, anchor.y() + label.offset.y() / zoom,
                      w / zoom, h / zoom)

    def move(self, owner: object, anchor: QPointF) -> None:
        entry = self._entry(owner)
        if entry[0] != anchor:
            self.touch(owner)
            self._dirty(entry)
            entry[0] = QPointF(anchor)
            entry[7] = (anchor.x(), anchor.y())
            self._near.put(owner, entry)
            self._place_bar(entry)
            self._dirty(entry)

    def set_shown(self, owner: object, shown: bool) -> None:
        entry = self._entry(owner)
        if entry[1] != shown:
            self.touch(owner)
            self._dirty(entry)
            entry[1] = shown
            self._dirty(entry)

    def set_bar(self, owner: object, bar: QRectF | None, fraction: float) -> None:
        entry = self._entry(owner)
        if (entry[3], entry[4]) != (bar, fraction):
            self.touch(owner)
            self._dirty(entry)
            entry[3] = QRectF(bar) if bar is not None else None
            self._near.bar(entry[3])
            entry[4] = fraction
            self._place_bar(entry)
            self._dirty(entry)

    def set_zoom(self, zoom: float) -> None:
        """Draw the labels for ``zoom`` device pixels per scene unit."""
        if zoom != self.zoom:
            self.zoom = zoom
            self.update()

    def set_vector(self, vector: bool) -> None:
        """Draw the text as text (an SVG export), or from the pixmaps."""
        self.vector = vector

    def set_label(self, owner: object, text: str, greyed: bool = False,
                  stripe: QColor | None = None, bold: bool = False) -> Label:
        """The owner's label with this text (kept while the same), placed as it was."""
        entry = self._entry(owner)
        label = entry[2]
        if label is None or not label.same(text, greyed, stripe):
            self.touch(owner)
            self._dirty(entry)
            old = label
            label = entry[2] = Label(text, greyed, stripe, bold,
                                     *((old.offset, old.placed) if old is not None else ()))
            self._near.label(label)
            self._dirty(entry)
        return label

    def place(self, owner: object, offset: QPointF | None) -> None:
        """Put the owner's label at ``offset`` pixels from its anchor; None: hide it."""
        entry = self._entry(owner)
        label = entry[2]
        if label is None:
            return
        if (offset is None and not label.placed) or (
                offset is not None and label.placed and offset == label.offset):
            return
        self._dirty(entry)
        label.place(offset)
        self._near.label(label)
        self._dirty(entry)

    def forget(self, owner: object) -> None:
        entry = self._owners.pop(owner, None)
        if entry is not None:
            self._near.forget(owner)
            self.generation += 1
            self.touched.discard(owner)
            self._dirty(entry)

    # -- what tests and the placement read -------------------------------------------------
    def label(self, owner: object) -> Label | None:
        entry = self._owners.get(owner)
        return entry[2] if entry is not None else None

    def label_shown(self, owner: object) -> bool:
        entry = self._owners.get(owner)
        return bool(entry is not None and entry[1] and entry[2] is not None
                    and entry[2].placed)

    def label_rect(self, owner: object, zoom: float | None = None) -> QRectF | None:
        """Where the owner's label is drawn (scene units) at ``zoom`` (default: the zoom
        it was placed for), or None when it is not shown."""
        entry = self._owners.get(owner)
        if not self.label_shown(owner):
            return None
        assert entry is not None
        return self._label_rect(entry[0], entry[2], zoom or self.zoom)

    def bar_rect(self, owner: object) -> QRectF | None:
        entry = self._owners.get(owner)
        if entry is None or entry[3] is None or not entry[1]:
            return None
        return entry[3].translated(entry[0])

    def bar_fraction(self, owner: object) -> float | None:
        """How much of the owner's bar is green (wounds left), None without a bar."""
        entry = self._owners.get(owner)
        return entry[4] if entry is not None and entry[3] is not None else None

    # -- painting --------------------------------------------------------------------------
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        self._dirty_count, self._all_dirty = 0, False
        exposed = option.exposedRect  # type: ignore[attr-defined]
        x0, y0, x1, y1 = exposed.left(), exposed.top(), exposed.right(), exposed.bottom()
        world = painter.worldTransform()
        near = None  # the owners whose bar or label may be in the area (None: any)
        if not self.vector and world.m12() == 0 and world.m21() == 0:
            near = self._near.around(x0, y0, x1, y1, min(world.m11(), world.m22()))
        entries = [e for e in (self._owners.values() if near is None else near) if e[1]]
        bars = [e for e in entries if (r := e[8]) is not None
                and r[0] <= x1 and r[2] >= x0 and r[1] <= y1 and r[3] >= y0]
        if bars:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(BAR_BACK)
            painter.drawRects([e[5] for e in bars])
            painter.setBrush(BAR_LEFT)
            painter.drawRects([e[6] for e in bars if e[4] > 0])
        # labels at the device's scale: each where its anchor falls, plus its offset
        seen = world.mapRect(exposed)
        left, top, right, bottom = seen.left(), seen.top(), seen.right(), seen.bottom()
        m11, m12, m21, m22 = world.m11(), world.m12(), world.m21(), world.m22()
        dx, dy = world.dx(), world.dy()
        painter.setWorldTransform(QTransform())
        for e in entries:
            label = e[2]
            if label is None or not label.placed:
                continue
            (ax, ay), (ox, oy) = e[7], label.dxy
            x = m11 * ax + m21 * ay + dx + ox  # world.map(anchor) + offset (affine)
            y = m12 * ax + m22 * ay + dy + oy
            w, h = label.size
            if x > right or x + w < left or y > bottom or y + h < top:
                continue
            if self.vector:
                label.paint(painter, QPointF(x, y))
            else:
                painter.drawPixmap(QPointF(x, y), label.pixmap)
        painter.setWorldTransform(world)


class _Hash:
    """Rectangles in a uniform grid: does a new one overlap any of them?"""

    def __init__(self) -> None:
        self._cells: dict[tuple[int, int], list[Rect]] = {}

    @staticmethod
    def _keys(r: Rect) -> Iterator[tuple[int, int]]:
        for i in range(int(r[0] // CELL_PX), int(r[2] // CELL_PX) + 1):
            for j in range(int(r[1] // CELL_PX), int(r[3] // CELL_PX) + 1):
                yield i, j

    def add(self, r: Rect) -> None:
        for k in self._keys(r):
            self._cells.setdefault(k, []).append(r)

    def hits(self, r: Rect) -> bool:
        for k in self._keys(r):
            for o in self._cells.get(k, ()):
                if r[0] < o[2] and o[0] < r[2] and r[1] < o[3] and o[1] < r[3]:
                    return True
        return False


class _Near:
    """The owners of a ``NamesLayer`` by the cell (``NEAR_CELL`` scene units) their
    anchors are in, and how far from its anchor any bar (scene units) or placed label
    (pixels) has reached: a paint of a small area (a drag step's) looks at the owners
    anchored near it, not at every one (thousands). The reaches only grow: an owner
    looked at needlessly costs a comparison, one missed would not be drawn."""

    def __init__(self) -> None:
        # owner -> (its order, its entry in the layer)
        self._cells: dict[tuple[int, int], dict[object, tuple[int, list[Any]]]] = {}
        self._where: dict[object, tuple[tuple[int, int], int]] = {}
        self._next = 0  # the order of the next owner (the layer's drawing order)
        self._bar = 0.0  # scene units
        self._label = 0.0  # pixels

    def put(self, owner: object, entry: list[Any]) -> None:
        """The owner's entry (its anchor as numbers at ``entry[7]``) is new or moved."""
        anchor = entry[7]
        cell = (math.floor(anchor[0] / NEAR_CELL), math.floor(anchor[1] / NEAR_CELL))
        known = self._where.get(owner)
        if known is not None and known[0] == cell:
            return
        if known is None:
            order, self._next = self._next, self._next + 1
        else:
            order = known[1]
            self._drop(owner, known[0])
        self._where[owner] = (cell, order)
        self._cells.setdefault(cell, {})[owner] = (order, entry)

    def forget(self, owner: object) -> None:
        known = self._where.pop(owner, None)
        if known is not None:
            self._drop(owner, known[0])

    def _drop(self, owner: object, cell: tuple[int, int]) -> None:
        here = self._cells[cell]
        del here[owner]
        if not here:
            del self._cells[cell]

    def bar(self, bar: QRectF | None) -> None:
        """A bar (around its anchor) was set."""
        if bar is not None:
            self._bar = max(self._bar, abs(bar.left()), abs(bar.right()), abs(bar.top()),
                            abs(bar.bottom()))

    def label(self, label: Label) -> None:
        """A label was made or placed (its offset from its anchor)."""
        (ox, oy), (w, h) = label.dxy, label.size
        self._label = max(self._label, abs(ox), abs(oy), abs(ox + w), abs(oy + h))

    def around(self, x0: float, y0: float, x1: float, y1: float, scale: float
               ) -> list[list[Any]] | None:
        """The entries of the owners, in their order, whose bar or label (drawn at
        ``scale`` pixels per scene unit) may meet the area (scene); None when the area
        spans more cells than it pays to look at (then every owner's may)."""
        if not scale > 0:
            return None
        r = self._bar + self._label / scale + 1.0
        i0, j0 = math.floor((x0 - r) / NEAR_CELL), math.floor((y0 - r) / NEAR_CELL)
        i1, j1 = math.floor((x1 + r) / NEAR_CELL), math.floor((y1 + r) / NEAR_CELL)
        if (i1 - i0 + 1) * (j1 - j0 + 1) * 4 > len(self._where):
            return None
        found: list[tuple[int, list[Any]]] = []
        cells = self._cells
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                if (i, j) in cells:  # (not ``get``: no call per cell, empty ones too)
                    found += cells[i, j].values()
        found.sort(key=_first)
        return [entry for _, entry in found]


def _first(pair: tuple[int, list[Any]]) -> int:
    return pair[0]


class _Index:
    """Owners' rectangles in a uniform grid, each with a number (its owner's place in
    the placement's order), that can be taken out again: which of them overlap a
    rectangle (those numbered below some place only), which of them meet it."""

    def __init__(self) -> None:
        self._cells: dict[tuple[int, int], dict[object, tuple[Rect, int]]] = {}

    def add(self, owner: object, r: Rect, n: int = 0) -> None:
        for k in _Hash._keys(r):
            self._cells.setdefault(k, {})[owner] = (r, n)

    def remove(self, owner: object, r: Rect) -> None:
        for k in _Hash._keys(r):
            cell = self._cells.get(k)
            if cell is not None:
                cell.pop(owner, None)
                if not cell:
                    del self._cells[k]

    def hits(self, r: Rect, before: int | None = None) -> bool:
        """Does ``r`` overlap one of them (numbered below ``before``, when given)?"""
        for k in _Hash._keys(r):
            for o, n in self._cells.get(k, {}).values():
                if (before is None or n < before) \
                        and r[0] < o[2] and o[0] < r[2] and r[1] < o[3] and o[1] < r[3]:
                    return True
        return False

    def meeting(self, r: Rect) -> set[object]:
        """The owners whose rectangles overlap or touch ``r``."""
        out: set[object] = set()
        for k in _Hash._keys(r):
            for owner, (o, _) in self._cells.get(k, {}).items():
                if _meets(o, r):
                    out.add(owner)
        return out


class _Placed:
    """What a complete placement found, for the next one to redo only what changed: the
    owners in the placement's order, each label's rectangle (pixels; None: hidden), for
    the zoom, label mode and owners (``NamesLayer.generation``) it was made for; the
    indexes of the tokens, the labels and the spots' extents are made when first needed
    (``index``)."""

    def __init__(self, zoom: float, mode: str) -> None:
        self.zoom, self.mode = zoom, mode
        self.generation = -1  # set when the placement is complete
        self.order: list[Any] = []
        self.chosen: dict[object, Rect | None] = {}
        self.place: dict[object, int] = {}
        self.reach: dict[object, Rect] = {}  # the extent of an owner's spots
        self.tokens: _Index | None = None
        self.labels = _Index()
        self.reaches = _Index()

    def index(self, tokens: Mapping[object, Rect], free: Mapping[object, Any],
              spots_of: Any) -> _Index:
        """The tokens' index (made now when not made yet, with the labels' and the
        spots' extents: ``free`` has a model label's, ``spots_of(terrain)`` a terrain
        label's spots and size)."""
        if self.tokens is not None:
            return self.tokens
        self.tokens = _Index()
        for owner, r in tokens.items():
            self.tokens.add(owner, r)
        self.place = {owner: n for n, owner in enumerate(self.order)}
        for owner, r in self.chosen.items():
            if r is not None:
                self.labels.add(owner, r, self.place[owner])
        for owner in self.order:
            if owner.label_group == "terrain":
                spots, w, h = spots_of(owner)
                reach = _reach(spots, w, h)
            else:
                known = free.get(owner) if owner in tokens else None
                if known is None:
                    continue
                reach = known[2]
            self.reach[owner] = reach
            self.reaches.add(owner, reach)
        return self.tokens

    def set_reach(self, owner: object, reach: Rect | None) -> None:
        old = self.reach.get(owner)
        if old == reach:
            return
        if old is not None:
            self.reaches.remove(owner, old)
            del self.reach[owner]
        if reach is not None:
            self.reach[owner] = reach
            self.reaches.add(owner, reach)

    def set_chosen(self, owner: object, r: Rect | None) -> Rect | None:
        """The owner's label is at ``r`` now; the rectangle it was at before."""
        old = self.chosen.get(owner)
        if old != r:
            if old is not None:
                self.labels.remove(owner, old)
            if r is not None:
                self.labels.add(owner, r, self.place[owner])
            self.chosen[owner] = r
        return old


def _meets(a: Rect, b: Rect) -> bool:
    """The rectangles overlap or touch."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _reach(spots: list[tuple[float, float]], w: float, h: float) -> Rect:
    """The rectangle holding every ``w`` x ``h`` label at these spots."""
    xs, ys = [x for x, _ in spots], [y for _, y in spots]
    return (min(xs), min(ys), max(xs) + w, max(ys) + h)


def _tokens_of(rects: dict[object, Rect]) -> _Hash:
    tokens = _Hash()
    for r in rects.values():
        tokens.add(r)
    return tokens


def _touched(known: Known, changed: list[Rect]) -> bool:
    """A token that changed (``changed``: where it was and where it is) touches one of
    the spots around the label (``known``: its token and size, ..., their extent)."""
    near = [r for r in changed if _meets(known[2], r)]
    if not near:
        return False
    (token, w, h) = known[0]
    return any(_meets((x, y, x + w, y + h), r) for x, y in around(token, w, h) for r in near)


def _still_free(known: Known, changed: list[Rect], tokens: _Index) -> list[Spot]:
    """The spots of a label (``known``: its token and size, the spots around it found
    free of tokens, their extent) free of ``tokens`` now that the tokens at ``changed``
    (where each was and is) moved, came or went: only the spots those places overlap
    are tested again (the others overlap the same tokens as before). The very list
    ``known`` holds when none changed."""
    (_, w, h), free, reach, spots = known
    near = [r for r in changed if _meets(reach, r)]
    if not near:
        return free
    was: set[Spot] | None = None
    for x, y in spots:  # any spot that flips? (mostly none: then ``free`` as it is)
        right, bottom = x + w, y + h
        for r0, r1, r2, r3 in near:
            if x < r2 and r0 < right and y < r3 and r1 < bottom:
                if was is None:
                    was = set(free)
                if tokens.hits((x, y, right, bottom)) == ((x, y) in was):
                    return _spots_free(spots, w, h, near, tokens, was)
                break
    return free


def _spots_free(spots: list[Spot], w: float, h: float, near: list[Rect], tokens: _Index,
                was: set[Spot]) -> list[Spot]:
    """``_still_free``'s answer when a spot flipped: each spot, tested again when one of
    the places ``near`` overlaps it."""
    out = []
    for x, y in spots:
        s = (x, y, x + w, y + h)
        if any(s[0] < r[2] and r[0] < s[2] and s[1] < r[3] and r[1] < s[3] for r in near):
            now = not tokens.hits(s)
        else:
            now = (x, y) in was
        if now:
            out.append((x, y))
    return out


def around(token: Rect, w: float, h: float) -> list[tuple[float, float]]:
    """Top-left corners (pixels) of the spots tried for a ``w``×``h`` label beside a
    token's rectangle, best first: below, above, right, left, the four diagonals, then
    the same one and two label heights further out."""
    left, top, right, bottom = token
    cx, cy = (left + right) / 2, (top + bottom) / 2
    spread = (right - left) * 0.35
    spots = []
    for ring in range(3):
        g = GAP_PX + ring * (h + GAP_PX)
        spots += [(cx - w / 2, bottom + g), (cx - w / 2, top - g - h),
                  (right + g, cy - h / 2), (left - g - w, cy - h / 2),
                  (cx + spread, bottom + g), (cx - spread - w, bottom + g),
                  (cx + spread, top - g - h), (cx - spread - w, top - g - h)]
    return spots


def inside(box: Rect, w: float, h: float) -> list[tuple[float, float]]:
    """Spots for a terrain's label: its centre, along its top and bottom inside, then just
    outside above and below, left and right; outside first when the label would cover
    most of the terrain (a thin wall stays visible)."""
    left, top, right, bottom = box
    cx, cy = (left + right) / 2, (top + bottom) / 2
    within = [(cx - w / 2, cy - h / 2), (cx - w / 2, top + GAP_PX),
              (cx - w / 2, bottom - GAP_PX - h)]
    outside = [(cx - w / 2, top - GAP_PX - h), (cx - w / 2, bottom + GAP_PX),
               (left - GAP_PX - w, cy - h / 2), (right + GAP_PX, cy - h / 2)]
    if w > right - left or 2 * h > bottom - top:
        return outside + within
    return within + outside


def _px(r: QRectF, zoom: float) -> Rect:
    return (r.left() * zoom, r.top() * zoom, r.right() * zoom, r.bottom() * zoom)


class LabelLayer(QObject):
    """Places the scene's labels for the current zoom and label mode."""

    placed = Signal()  # every label has its place for the current zoom and battlefield
    mode_changed = Signal(str)

    def __init__(self, scene: LabelledScene) -> None:
        super().__init__(scene)
        self._scene = scene
        self.names = NamesLayer()
        scene.addItem(self.names)
        self.zoom = 1.0
        self.mode = "name"
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._work)
        self._job: Iterator[None] | None = None
        # per model label: (its token and size, the spots around it that no token
        # overlaps, the rectangle they span, every spot), valid while no token that
        # changed comes into that rectangle; the tokens (pixels) and the zoom they were
        # found for
        self._free: dict[object, Known] = {}
        self._tokens: dict[object, Rect] = {}
        self._free_zoom = 0.0
        # the last complete placement (None: none, or the next is to place every label);
        # the next one redoes only what the owners ``names.touched`` changed
        self._last: _Placed | None = None

    # -- choices -----------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        if mode not in LABEL_MODES:
            mode = "name"
        if mode != self.mode:
            self.mode = mode
            for item in self._scene.model_items():
                item.set_label_mode(mode)
            self.mode_changed.emit(mode)
            self.schedule()

    def load_mode(self, settings: QSettings) -> None:
        self.set_mode(str(settings.value(SETTINGS_KEY, "name")))

    def save_mode(self, settings: QSettings) -> None:
        settings.setValue(SETTINGS_KEY, self.mode)

    def set_zoom(self, zoom: float) -> None:
        if zoom > 0 and zoom != self.zoom:
            self.zoom = zoom
            self.schedule()

    # -- placement -----------------------------------------------------------------------
    @property
    def pending(self) -> bool:
        return self._timer.isActive() or self._job is not None

    def schedule(self, delay_ms: int = 0, afresh: bool = False) -> None:
        """Place the labels again after ``delay_ms`` (a newer call restarts the wait); what
        a placement dropped half-way changed is repainted now. ``afresh``: every label
        from nothing (terrain changed, items came or went), not only the labels near
        the tokens and labels that changed (``NamesLayer.touched``)."""
        if afresh:
            self._last = None
        self._job = None
        self.names.hold(False, "place")
        self._timer.start(delay_ms)

    def place_now(self, afresh: bool = False) -> None:
        """Place the labels at once (an export, a test); ``afresh``: every label from
        nothing, as ``schedule`` says."""
        self._timer.stop()
        if afresh:
            self._last = None
        if not self._increment():
            self._job = self._placement()
            self.names.quiet = True  # the placement's own changes are not changes to it
            try:
                for _ in self._job:
                    pass
            finally:
                self.names.quiet = False
        self._job = None
        self.placed.emit()

    @contextmanager
    def placed_at(self, zoom: float) -> Iterator[None]:
        """Labels placed for a picture drawn at ``zoom`` (an export; their text drawn as
        text, for SVG), then for the view again."""
        shown = self.zoom
        self.zoom = zoom
        self.place_now()
        self.names.set_vector(True)
        try:
            yield
        finally:
            self.names.set_vector(False)
            self.zoom = shown
            self.place_now()

    def _work(self) -> None:
        if self._scene.building:
            return  # placed once every item is made (the scene's ``built``)
        if self._job is None:
            if self._increment():
                self.placed.emit()
                return
            self._job = self._placement()
            self.names.hold(True, "place")  # repainted once, when every label is placed
        start = time.perf_counter()
        self.names.quiet = True  # the placement's own changes are not changes to it
        try:
            for _ in self._job:
                if time.perf_counter() - start >= SLICE_S:
                    self._timer.start(0)
                    return
        finally:
            self.names.quiet = False
        self._job = None
        self.names.hold(False, "place")
        self.placed.emit()

    def _placement(self) -> Iterator[None]:
        """Every label from nothing (but the spots known free of tokens); yields now and
        then (the caller may stop for this event-loop turn)."""
        z = self.zoom
        names = self.names
        self._last = None
        record = _Placed(z, self.mode)
        names.touched.clear()  # what changes from now on is placed again next time
        names.set_bounds(self._scene.sceneRect().adjusted(-1e3, -1e3, 1e3, 1e3))
        names.set_zoom(z)
        taken = _Hash()
        models: list[Any] = []  # ModelItem (not imported: it imports this module)
        terrain: list[Any] = []  # TerrainItem
        for item in self._scene.entity_items().values():
            group = getattr(item, "label_group", "")
            if group == "model":
                models.append(item)
            elif group == "terrain":
                terrain.append(item)
        rects: dict[object, Rect] = {}
        for n, m in enumerate(models):
            if m.isVisible():
                rects[m] = _px(m.token_rect(), z)
            if n % 64 == 63:
                yield
        free = self._free_of_tokens(z, rects)
        tokens: _Hash | None = None  # every token, made when spots are to be tested
        if terrain or any(free.get(m) is None for m in rects):
            tokens = _tokens_of(rects)
        yield
        order, chosen = record.order, record.chosen
        for n, t in enumerate(terrain):
            order.append(t)
            chosen[t] = self._put(t, inside(_px(t.terrain_rect(), z),
                                            *label_size(t.label(), True)), taken, tokens)
            if n % 16 == 15:
                yield
        for n, m in enumerate(models):
            order.append(m)
            chosen[m] = None
            if m.isVisible() and self.mode != "none":
                text = m.label_text()
                w, h = label_size(text, False, True)
                token = rects[m]
                known = free.get(m)
                if known is None or known[0] != (token, w, h):
                    if tokens is None:
                        tokens = _tokens_of(rects)
                    spots = around(token, w, h)
                    known = free[m] = ((token, w, h), [
                        (x, y) for x, y in spots if not tokens.hits((x, y, x + w, y + h))],
                        _reach(spots, w, h), spots)
                label = names.label(m)
                if known[1] or label is None or label.placed or label.text != text:
                    chosen[m] = self._put(m, known[1], taken, None)
                # else: hidden as it is, no spot free of tokens (its item keeps the
                # label's look and anchor up to date)
            else:
                names.place(m, None)
            if n % 16 == 15:
                yield
        record.generation = names.generation
        self._last = record

    def _free_of_tokens(self, zoom: float, tokens: dict[object, Rect]
                        ) -> dict[object, Known]:
        """The spots found free of tokens by the placements before, still free of them
        with ``tokens`` (each visible model's, pixels at ``zoom``): those of the labels
        whose surroundings no token that moved, came or went touches. After a model is
        moved, the next placement tests a few labels' spots against the tokens again,
        not two thousand."""
        old, self._tokens = self._tokens, tokens
        if zoom != self._free_zoom:
            self._free_zoom = zoom
            self._free = {}
            return self._free
        changed = [r for owner, r in tokens.items() if old.get(owner) != r]
        changed += [r for owner, r in old.items() if tokens.get(owner) != r]
        if len(changed) > DIRTY_RECTS:
            self._free = {}
        elif changed or len(self._free) > len(tokens):
            self._free = {owner: known for owner, known in self._free.items()
                          if owner in tokens and not _touched(known, changed)}
        return self._free

    def _put(self, owner: Named, spots: list[tuple[float, float]], taken: _Hash | None,
             tokens: _Hash | _Index | None, before: tuple[_Index, int] | None = None
             ) -> Rect | None:
        """The owner's label at the first spot that overlaps no label placed before (in
        ``taken``, or the labels of ``before``'s index numbered below its place) and no
        token (``tokens`` None: the spots overlap none), or hidden; where it is put."""
        text, greyed, stripe = owner.label_spec()
        if not text:
            self.names.place(owner, None)
            return None
        label = self.names.set_label(owner, text, greyed, stripe, owner.bold_label)
        w, h = label.size
        anchor = owner.label_anchor()
        self.names.move(owner, anchor)
        ax, ay = anchor.x() * self.zoom, anchor.y() * self.zoom
        for x, y in spots:
            r = (x, y, x + w, y + h)
            if (taken.hits(r) if taken is not None else
                    before is not None and before[0].hits(r, before[1])):
                continue
            if tokens is None or not tokens.hits(r):
                if taken is not None:
                    taken.add(r)
                self.names.place(owner, QPointF(x - ax, y - ay))
                return r
        self.names.place(owner, None)
        return None

    def _terrain_spots(self, terrain: Any) -> tuple[list[tuple[float, float]], float, float]:
        w, h = label_size(terrain.label(), True)
        return inside(_px(terrain.terrain_rect(), self.zoom), w, h), w, h

    def _increment(self) -> bool:
        """Place again only what the changes since the last complete placement can move
        (``NamesLayer.touched``: a model dragged or edited), as a placement from nothing
        would: the touched labels and the labels whose spots a token that changed
        touches, then, in the placement's order, every later label whose spots meet a
        label that moved. False (nothing done) when it cannot: no placement before, or
        another zoom, label mode or set of owners, terrain changed, or many changes."""
        last, names = self._last, self.names
        touched = names.touched
        if last is None or last.zoom != self.zoom or last.mode != self.mode \
                or last.generation != names.generation or len(touched) > INCREMENT_MOST:
            return False
        if not touched:
            return True
        if any(getattr(o, "label_group", "") != "model" or o not in last.chosen
               for o in touched):
            return False
        tokens = last.index(self._tokens, self._free, self._terrain_spots)
        place, order, z = last.place, last.order, self.zoom
        dirty: set[int] = set()
        changed: list[Rect] = []
        for m in touched:
            dirty.add(place[m])
            new = _px(m.token_rect(), z) if m.isVisible() else None
            old = self._tokens.get(m)
            if new == old:
                continue
            if old is not None:
                tokens.remove(m, old)
                changed.append(old)
                del self._tokens[m]
            if new is not None:
                tokens.add(m, new)
                changed.append(new)
                self._tokens[m] = new
        near: set[object] = set()
        for r in changed:  # the labels whose spots a token that moved, came or went meets
            near |= last.reaches.meeting(r)
        for owner in near:
            if owner.label_group == "terrain":  # type: ignore[attr-defined]
                dirty.add(place[owner])
                continue
            known = self._free.get(owner)
            if known is None or owner in touched:
                continue  # (a touched label's spots are found again)
            free = _still_free(known, changed, tokens)
            if free is not known[1]:
                self._free[owner] = (known[0], free, known[2], known[3])
                dirty.add(place[owner])
        heap = sorted(dirty)
        names.quiet = True
        try:
            while heap:
                n = heapq.heappop(heap)
                owner = order[n]
                for r in self._redo(owner, n, tokens, last):
                    for later in last.reaches.meeting(r):
                        k = place[later]
                        if k > n and k not in dirty:
                            dirty.add(k)
                            heapq.heappush(heap, k)
        finally:
            names.quiet = False
        touched.clear()
        return True

    def _redo(self, owner: Any, n: int, tokens: _Index, last: _Placed) -> list[Rect]:
        """Place ``owner``'s label (the ``n``-th placed) again; the rectangles a label
        left and reached (none when it stays)."""
        if owner.label_group == "terrain":
            spots, w, h = self._terrain_spots(owner)
            last.set_reach(owner, _reach(spots, w, h))
            r = self._put(owner, spots, None, tokens, (last.labels, n))
        elif owner.isVisible() and self.mode != "none":
            w, h = label_size(owner.label_text(), False, True)
            token = self._tokens[owner]
            known = self._free.get(owner)
            if known is None or known[0] != (token, w, h):
                spots = around(token, w, h)
                known = self._free[owner] = ((token, w, h), [
                    (x, y) for x, y in spots if not tokens.hits((x, y, x + w, y + h))],
                    _reach(spots, w, h), spots)
            last.set_reach(owner, known[2])
            r = self._put(owner, known[1], None, None, (last.labels, n))
        else:
            self.names.place(owner, None)
            self._free.pop(owner, None)  # no token near it is followed while it is hidden
            last.set_reach(owner, None)
            r = None
        old = last.set_chosen(owner, r)
        return [] if old == r else [x for x in (old, r) if x is not None]


def label_menu(parent: QWidget, layer: LabelLayer, settings: QSettings) -> QMenu:
    """View ▸ Labels: name, short id or none, one checked; the choice is kept in
    ``settings`` and read back now."""
    menu = QMenu("&Labels", parent)
    menu.setToolTip("What each model is labelled with on the board")
    group = QActionGroup(menu)
    group.setExclusive(True)
    layer.load_mode(settings)
    actions: dict[str, QAction] = {}
    for mode in LABEL_MODES:
        action = QAction(MODE_TEXT[mode], menu, checkable=True)
        action.setObjectName(f"labels_{mode}")
        action.setChecked(mode == layer.mode)
        group.addAction(action)
        menu.addAction(action)
        actions[mode] = action

        def choose(on: bool, mode: str = mode) -> None:
            if on:
                layer.set_mode(mode)
                layer.save_mode(settings)

        action.toggled.connect(choose)
    layer.mode_changed.connect(lambda mode: actions[mode].setChecked(True))
    return menu


class Named:
    """Mixin of a scene item named on the board: what its label says, where it is
    anchored, and the scene's ``NamesLayer`` that draws it (set by the scene)."""

    bold_label = False
    label_group = ""  # "model" or "terrain": placed in that order (``LabelLayer``)
    names: NamesLayer | None = None

    def use_names(self, names: NamesLayer | None) -> None:
        """Drawn by ``names`` (the scene's), or by none (off the scene)."""
        self.names = names

    def label_anchor(self) -> QPointF:
        item: Any = self
        return QPointF(item.pos())

    def label_spec(self) -> tuple[str, bool, QColor | None]:
        """The label's text (empty: none), greyed or not, and its stripe's colour."""
        return "", False, None

    @property
    def name_label(self) -> Label | None:
        """The label, once the label layer has made it."""
        return self.names.label(self) if self.names is not None else None

    def label_rect(self) -> QRectF | None:
        """Where the label is drawn (scene units), None when it is not shown."""
        return self.names.label_rect(self) if self.names is not None else None

    def set_shown(self, visible: bool) -> None:
        """Show or hide the item with its label and bar."""
        item: Any = self
        item.setVisible(visible)
        if self.names is not None:
            self.names.set_shown(self, visible)
