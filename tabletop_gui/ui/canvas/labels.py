"""Names on the board: a label for every model (its name, a short id, or none: a View
choice kept in the settings) and every piece of terrain, placed so that labels never
overlap each other or a token, and drawn above terrain, models, overlays and wounds bars.

Labels ignore the view's zoom (``ItemIgnoresTransformations``): they stay the same
readable size on screen. Where they go depends on the zoom, so ``LabelLayer`` places them
in screen pixels: terrain labels first, then each model's in the battlefield's order, each
at the first of a few candidate spots around its token (below, above, right, left, the
diagonals, then the same further out) that overlaps nothing placed so far and no token; a
label with no free spot is hidden at that zoom (the tooltip and the roster still name
the model). The result depends only on the battlefield and the zoom.

Placement runs after a zoom, after an edit, and once a drag pauses (``MOVE_SETTLE_MS``);
while a model is dragged its label keeps its place beside the token. Placing thousands
of labels is done in slices of ``SLICE_S`` per event-loop turn; ``placed`` says when done.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPointF, QRectF, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QFont, QFontMetricsF, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
    QMenu,
    QWidget,
)

from tabletop_gui.ui.canvas.coords import Z_LABEL

if TYPE_CHECKING:
    from tabletop_gui.ui.canvas.model_items import Companions
    from tabletop_gui.ui.canvas.scene import BattlefieldScene

LABEL_MODES = ("name", "id", "none")
MODE_TEXT = {"name": "&Name", "id": "Short &id", "none": "N&one"}
SETTINGS_KEY = "view/labels"
LABEL_PX = 11  # label text height on screen, pixels
GAP_PX = 2.0  # between a token (and its bar) and its label
CELL_PX = 64.0  # the placement's spatial hash
MOVE_SETTLE_MS = 150  # a drag that pauses this long gets its labels re-placed
SLICE_S = 0.006  # placement work per event-loop turn
TEXT = QColor("#1b1b1b")
TEXT_DOWN = QColor("#6f6f6f")
BACK = QColor(255, 255, 255, 215)
BACK_DOWN = QColor(235, 235, 235, 170)

Rect = tuple[float, float, float, float]  # left, top, right, bottom (pixels)


def label_font(bold: bool = False) -> QFont:
    f = QFont()
    f.setPixelSize(LABEL_PX)
    f.setBold(bold)
    return f


_METRICS: dict[bool, QFontMetricsF] = {}


def label_size(text: str, bold: bool = False, stripe: bool = False) -> tuple[float, float]:
    """Width and height on screen (pixels) of a label with this text."""
    fm = _METRICS.get(bold)
    if fm is None:
        fm = _METRICS[bold] = QFontMetricsF(label_font(bold))
    pad = 7.0 if stripe else 3.0
    return fm.horizontalAdvance(text) + pad + 3.0, fm.height() + 1.0


class LabelItem(QGraphicsRectItem):
    """A name drawn at a fixed size on screen, at ``offset`` pixels from its anchor (the
    item's position: a token's centre, a terrain's centre): a box with the text and, for
    a model, a stripe of its side's colour. Made of Qt's own items, so that painting and
    finding thousands of them never calls back into Python."""

    def __init__(self, bold: bool = False) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(Z_LABEL)
        self.setPen(QPen(Qt.PenStyle.NoPen))
        self.setBrush(BACK)
        self._font = label_font(bold)
        self._bold = bold
        self._text_item = QGraphicsSimpleTextItem(self)
        self._text_item.setFont(self._font)
        self._text_item.setBrush(TEXT)
        self._stripe_item = QGraphicsRectItem(self)
        self._stripe_item.setPen(QPen(Qt.PenStyle.NoPen))
        self._stripe_item.setVisible(False)
        self._text = ""
        self._greyed = False
        self._stripe: QColor | None = None
        self._size = (0.0, 0.0)
        self._offset = QPointF()
        self.placed = False  # the last placement found it a free spot
        self.setVisible(False)  # until placed

    @property
    def text(self) -> str:
        return self._text

    @property
    def greyed(self) -> bool:
        return self._greyed

    def set_text(self, text: str, greyed: bool = False, stripe: QColor | None = None) -> None:
        if (text, greyed, stripe) == (self._text, self._greyed, self._stripe):
            return
        self._text, self._greyed = text, greyed
        self._stripe = QColor(stripe) if stripe is not None else None
        self._size = label_size(text, self._bold, stripe is not None)
        self._text_item.setText(text)
        self._text_item.setBrush(TEXT_DOWN if greyed else TEXT)
        self.setBrush(BACK_DOWN if greyed else BACK)
        if stripe is not None:
            self._stripe_item.setBrush(TEXT_DOWN if greyed else stripe)
        self._stripe_item.setVisible(stripe is not None)
        self._arrange()

    def _arrange(self) -> None:
        x, y = self._offset.x(), self._offset.y()
        w, h = self._size
        self.setRect(QRectF(x, y, w, h))
        left = 3.0
        if self._stripe is not None:
            self._stripe_item.setRect(QRectF(x + 1.5, y + 2.0, 3.0, max(0.0, h - 4.0)))
            left += 4.0
        self._text_item.setPos(x + left, y + 0.5)

    def size(self) -> tuple[float, float]:
        """Width and height on screen, pixels."""
        return self._size

    def set_offset(self, offset: QPointF) -> None:
        if offset != self._offset:
            self._offset = QPointF(offset)
            self._arrange()

    @property
    def offset(self) -> QPointF:
        return QPointF(self._offset)


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

    def __init__(self, scene: BattlefieldScene) -> None:
        super().__init__(scene)
        self._scene = scene
        self.zoom = 1.0
        self.mode = "name"
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._work)
        self._job: Iterator[None] | None = None

    # -- choices -----------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        if mode not in LABEL_MODES:
            mode = "name"
        if mode != self.mode:
            self.mode = mode
            for item in self._scene.model_items():
                item.label_mode = mode
                item.refresh_label()
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

    def schedule(self, delay_ms: int = 0) -> None:
        """Place every label again after ``delay_ms`` (a newer call restarts the wait)."""
        self._job = None
        self._timer.start(delay_ms)

    def place_now(self) -> None:
        """Place every label at once (an export, a test)."""
        self._timer.stop()
        self._job = self._placement()
        for _ in self._job:
            pass
        self._job = None
        self.placed.emit()

    @contextmanager
    def placed_at(self, zoom: float) -> Iterator[None]:
        """Labels placed for a picture drawn at ``zoom`` (an export), then for the view
        again."""
        shown = self.zoom
        self.zoom = zoom
        self.place_now()
        try:
            yield
        finally:
            self.zoom = shown
            self.place_now()

    def _work(self) -> None:
        if self._scene.building:
            return  # placed once every item is made (the scene's ``built``)
        if self._job is None:
            self._job = self._placement()
        start = time.perf_counter()
        for _ in self._job:
            if time.perf_counter() - start >= SLICE_S:
                self._timer.start(0)
                return
        self._job = None
        self.placed.emit()

    def _placement(self) -> Iterator[None]:
        """Yields now and then (the caller may stop for this event-loop turn)."""
        from tabletop_gui.ui.canvas.board_items import TerrainItem
        from tabletop_gui.ui.canvas.model_items import ModelItem

        z = self.zoom
        taken = _Hash()
        models: list[ModelItem] = []
        terrain: list[TerrainItem] = []
        for item in self._scene.entity_items().values():
            if isinstance(item, ModelItem):
                models.append(item)
            elif isinstance(item, TerrainItem):
                terrain.append(item)
        tokens = _Hash()
        for n, m in enumerate(models):
            if m.isVisible():
                tokens.add(_px(m.token_rect(), z))
            if n % 64 == 63:
                yield
        yield
        for n, t in enumerate(terrain):
            self._put(t, inside(_px(t.terrain_rect(), z), *label_size(t.label(), True)),
                      taken, tokens)
            if n % 16 == 15:
                yield
        for n, m in enumerate(models):
            if m.isVisible() and self.mode != "none":
                w, h = label_size(m.label_text(), False, True)
                self._put(m, around(_px(m.token_rect(), z), w, h), taken, tokens)
            else:
                self._hide(m)
            if n % 16 == 15:
                yield

    @staticmethod
    def _hide(owner: Companions) -> None:
        label = owner.label_item
        if label is not None:
            label.placed = False
            label.setVisible(False)

    def _put(self, owner: Companions, spots: list[tuple[float, float]], taken: _Hash,
             tokens: _Hash) -> None:
        """The owner's label at the first free spot, or hidden."""
        text, greyed, stripe = owner.label_spec()
        if not text:
            self._hide(owner)
            return
        w, h = label_size(text, owner.bold_label, stripe is not None)
        anchor = owner.label_anchor()
        ax, ay = anchor.x() * self.zoom, anchor.y() * self.zoom
        for x, y in spots:
            r = (x, y, x + w, y + h)
            if not taken.hits(r) and not tokens.hits(r):
                taken.add(r)
                label = owner.ensure_label()
                label.set_text(text, greyed, stripe)
                label.set_offset(QPointF(x - ax, y - ay))
                label.placed = True
                label.setVisible(True)
                return
        self._hide(owner)


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
