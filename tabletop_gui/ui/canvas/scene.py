"""The battlefield scene: a mirror of the document, one item per entity.

The scene subscribes to ``Document.changed`` and updates only the items whose data
changed; it never writes to the document. Selection goes both ways: selecting items sets
the document's selection and the document's selection selects items.

Extension points for canvas overlays: ``item_for(id)`` gives an entity's item;
``overlay_layer`` is an empty parent item at ``Z_OVERLAY`` (above terrain and models,
below tool feedback) to hang overlay items on. Where models are while a drag is in
progress (before the edit is pushed on release) is the document's preview
(``Document.preview``).

Names: ``labels`` (a ``LabelLayer``) places every model's and terrain's label for the
view's zoom; hovering a model shows its profile and state (``helpEvent``), with what an
overlay under the pointer has to say (a target mark's reasons) below it.

Another battlefield (Open, New, restore) is mirrored in slices of ``BUILD_SLICE_S`` per
event-loop turn, so a file of thousands of models never holds the event loop: the table
and the first items show at once, the rest follow (``building``, ``built``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape

import shiboken6
from PySide6.QtCore import QRectF, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSceneHelpEvent,
    QToolTip,
)

from tabletop_gui.model.document import Change, Document
from tabletop_gui.scenario.entities import Entity, Fighter, Obstacle, Platform, Scenario, Unit
from tabletop_gui.ui.canvas.board_items import BattlefieldItem, TerrainItem
from tabletop_gui.ui.canvas.coords import INCH, Z_OVERLAY, Z_TOOL, board_rect
from tabletop_gui.ui.canvas.labels import MOVE_SETTLE_MS, LabelLayer
from tabletop_gui.ui.canvas.model_items import ModelItem
from tabletop_gui.ui.canvas.model_layer import ModelsLayer
from tabletop_gui.ui.canvas.model_tips import model_tooltip

EntityItem = ModelItem | TerrainItem
BUILD_SLICE_S = 0.008  # items made per event-loop turn (each is painted after its turn)
BUILD_AT_ONCE = 100  # a battlefield of up to this many entities is mirrored at once


class LayerItem(QGraphicsItem):
    """An empty item that only groups children at one z-value."""

    def __init__(self, z: float) -> None:
        super().__init__()
        self.setZValue(z)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF()

    def paint(self, *args: object) -> None:
        return None


class BattlefieldScene(QGraphicsScene):
    """Items of the document's battlefield, terrain, fighters and units."""

    built = Signal()  # every entity of the document has its item (after ``building``)

    def __del__(self) -> None:
        # Qt deletes the scene after Python has cleared this object; deleting the items
        # it still holds deselects them and emits selectionChanged, whose slot here could
        # no longer be found ("Slot 'BattlefieldScene::' not found", in whatever test or
        # action ran then). A scene going away tells no one.
        if shiboken6.isValid(self):
            self.blockSignals(True)

    def __init__(self, document: Document) -> None:
        super().__init__()
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.document = document
        self._items: dict[str, EntityItem] = {}
        self._syncing = False
        self.show_taken_down = True
        self.labels = LabelLayer(self)
        self.models_layer = ModelsLayer()  # draws every model item (``model_layer``)
        self.addItem(self.models_layer)
        self.board_item = BattlefieldItem(document.scenario.battlefield)
        self.addItem(self.board_item)
        self.overlay_layer = LayerItem(Z_OVERLAY)
        self.addItem(self.overlay_layer)
        self.tool_layer = LayerItem(Z_TOOL)
        self.addItem(self.tool_layer)
        self._todo: list[str] = []  # entity ids still to mirror (another battlefield)
        self._build_timer = QTimer(self)
        self._build_timer.setSingleShot(True)
        self._build_timer.setInterval(0)
        self._build_timer.timeout.connect(self._build_more)
        self._rebuild(document.scenario)
        document.changed.connect(self._on_changed)
        document.selection_changed.connect(self._on_document_selection)
        self.selectionChanged.connect(self._on_scene_selection)

    # -- look-ups --------------------------------------------------------------------
    def item_for(self, entity_id: str) -> EntityItem | None:
        return self._items.get(entity_id)

    def entity_items(self) -> dict[str, EntityItem]:
        return dict(self._items)

    def model_items(self) -> list[ModelItem]:
        return [i for i in self._items.values() if isinstance(i, ModelItem)]

    def entity_at(self, scene_pos: object) -> EntityItem | None:
        """The top-most entity item under a scene point (models before terrain)."""
        for item in self.items(scene_pos):  # type: ignore[call-overload]
            if isinstance(item, ModelItem | TerrainItem) and item.isVisible():
                return item
        return None

    def set_show_taken_down(self, show: bool) -> None:
        self.show_taken_down = show
        for item in self.model_items():
            item.set_shown(show or not item.down)
        self.labels.schedule()

    def tooltip_at(self, scene_pos: object) -> str:
        """What hovering here shows: the model's profile and state, then what an overlay
        under the pointer says (a target mark's reasons first: whether it can be
        attacked, then any other overlay's); else an overlay's own."""
        model_tip, marks, others = "", [], []
        for item in self.items(scene_pos):  # type: ignore[call-overload]
            if not item.isVisible():
                continue
            if isinstance(item, ModelItem):
                if not model_tip:
                    model_tip = model_tooltip(item.model, self.document.scenario)
                continue
            tip = item.toolTip()
            if tip:
                (marks if getattr(item, "kind", "") == "target" else others).append(tip)
        other = (marks or others or [""])[0]
        if model_tip and other:
            return f"{model_tip}<hr>{escape(other).replace(chr(10), '<br>')}"
        return model_tip or other

    def helpEvent(self, event: QGraphicsSceneHelpEvent) -> None:  # noqa: N802
        text = self.tooltip_at(event.scenePos())
        if text:
            QToolTip.showText(event.screenPos(), text, event.widget())
            event.setAccepted(True)
        else:
            QToolTip.hideText()
            event.setAccepted(False)

    def _on_model_layout(self, moved_only: bool) -> None:
        self.labels.schedule(MOVE_SETTLE_MS if moved_only else 0)

    # -- mirroring -------------------------------------------------------------------
    def _color(self, scenario: Scenario, side_id: str) -> QColor:
        side = scenario.side(side_id)
        return QColor(side.color if side else "#808080")

    def _update_scene_rect(self, scenario: Scenario) -> None:
        bf = scenario.battlefield
        m = 1.5 * INCH
        self.setSceneRect(board_rect(bf.width, bf.depth).adjusted(-m, -m, m, m))
        self.models_layer.set_bounds(self.sceneRect())

    def _add(self, item: EntityItem) -> None:
        item.use_names(self.labels.names)
        self.addItem(item)
        if isinstance(item, ModelItem):
            item.use_layer(self.models_layer)

    def _drop(self, item: EntityItem) -> None:
        self.labels.names.forget(item)
        item.use_names(None)
        if isinstance(item, ModelItem):
            item.use_layer(None)
        if item.scene() is self:
            self.removeItem(item)

    def _rebuild(self, scenario: Scenario) -> None:
        for item in self._items.values():
            self._drop(item)
        self._items.clear()
        self.board_item.set_battlefield(scenario.battlefield)
        self._update_scene_rect(scenario)
        for e in scenario.entities:
            self._put(scenario, e)

    @property
    def building(self) -> bool:
        """Items of the document's entities are still being made (see ``built``)."""
        return bool(self._todo)

    def finish_building(self) -> None:
        """Make every item still to make now (an export, a test)."""
        self._build_more(budget_s=None)

    @contextmanager
    def selection_kept(self) -> Iterator[None]:
        """Within it, the items' selection changes leave the document's selection alone
        (a picture drawn of the scene)."""
        self._syncing = True
        try:
            yield
        finally:
            self._syncing = False

    def _build_more(self, budget_s: float | None = BUILD_SLICE_S) -> None:
        """Mirror the entities still to mirror, for ``budget_s`` seconds (None: all)."""
        scenario = self.document.scenario
        start = time.perf_counter()
        selection = set(self.document.selection)
        self._syncing = True
        try:
            while self._todo:
                e = scenario.entity(self._todo.pop())
                if e is not None:
                    self._put(scenario, e)
                    item = self._items.get(e.id)
                    if item is not None and item.isSelected() != (e.id in selection):
                        item.setSelected(e.id in selection)
                if budget_s is not None and time.perf_counter() - start >= budget_s:
                    break
        finally:
            self._syncing = False
        if self._todo:
            self._build_timer.start()
        else:
            self._build_timer.stop()
            self.labels.names.hold(False)
            self.labels.schedule(afresh=True)
            self.built.emit()

    def _put(self, scenario: Scenario, e: Entity) -> None:
        item = self._items.get(e.id)
        if isinstance(e, Fighter | Unit):
            if not isinstance(item, ModelItem):
                if item is not None:
                    self._drop(item)
                item = ModelItem(e.id, self.labels.mode, self._on_model_layout)
                self._items[e.id] = item
                self._add(item)
            item.set_model(e, self._color(scenario, e.side), scenario.taken_down(e))
            shown = self.show_taken_down or not item.down
            if shown != item.isVisible():
                item.set_shown(shown)
        elif isinstance(e, Obstacle | Platform):
            if not isinstance(item, TerrainItem):
                if item is not None:
                    self._drop(item)
                item = TerrainItem(e.id)
                self._items[e.id] = item
                self._add(item)
            if e is not item.terrain_or_none:
                item.set_terrain(e)
                self.labels.schedule(afresh=True)

    def _on_changed(self, change: Change) -> None:
        scenario = self.document.scenario
        if change.structural:
            if scenario.battlefield != self.board_item.battlefield:
                self.board_item.set_battlefield(scenario.battlefield)
                self._update_scene_rect(scenario)
            present = {e.id for e in scenario.entities}
            for gone in [i for i in self._items if i not in present]:
                self._drop(self._items.pop(gone))
            # side colours may have changed: set_model is cheap when nothing did
            self._todo = [e.id for e in reversed(scenario.entities)]
            if len(self._todo) <= BUILD_AT_ONCE:
                self._build_more(budget_s=None)
            else:  # another large battlefield: its items from the next turn on
                self.labels.names.hold(True)  # its bars drawn once, when all are made
                self._build_timer.start()
            return
        models = False
        for entity_id in change.ids:
            found = scenario.entity(entity_id)
            if found is not None:
                self._put(scenario, found)
                models = models or isinstance(found, Fighter | Unit)
        if models:  # an edit: its labels placed now (a drag's steps wait for a pause)
            self.labels.schedule()
        self._on_document_selection()

    # -- selection both ways ---------------------------------------------------------
    def _on_scene_selection(self) -> None:
        if self._syncing:
            return
        ids = [i.entity_id for i in self.selectedItems() if isinstance(i, ModelItem | TerrainItem)]
        order = {e.id: n for n, e in enumerate(self.document.scenario.entities)}
        self._syncing = True
        try:
            self.document.set_selection(sorted(ids, key=lambda i: order.get(i, 0)))
        finally:
            self._syncing = False

    def _on_document_selection(self) -> None:
        if self._syncing:
            return
        wanted = set(self.document.selection)
        # only the items whose selection changes (not a walk over thousands of items)
        shown = {i.entity_id: i for i in self.selectedItems()
                 if isinstance(i, ModelItem | TerrainItem)}
        self._syncing = True
        try:
            for entity_id, item in shown.items():
                if entity_id not in wanted or self._items.get(entity_id) is not item:
                    item.setSelected(False)
            for entity_id in wanted:
                item = self._items.get(entity_id)
                if item is not None and not item.isSelected():
                    item.setSelected(True)
        finally:
            self._syncing = False
