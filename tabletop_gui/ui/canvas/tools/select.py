"""Select/Move: click or rubber-band to select; drag to move (one edit, pushed on release);
the handle in front of a selected model rotates it; arrows nudge 0.1" (Shift 1");
[ and ] turn 15 degrees (Shift 1 degree); Delete removes the selection."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsRectItem

from tabletop_gui.model import edits
from tabletop_gui.scenario.entities import Entity, Fighter, Unit
from tabletop_gui.ui.canvas.board_items import TerrainItem
from tabletop_gui.ui.canvas.model_items import ModelItem
from tabletop_gui.ui.canvas.tools.base import Tool

ADD_MODIFIERS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


class SelectTool(Tool):
    name = "Select/Move"
    key = "S"
    tooltip = "Select, drag to move, rotate with the handle or [ ] (S)"

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self._mode: str | None = None  # "move" | "rotate" | "band"
        self._press = QPointF()
        self._start: dict[str, Entity] = {}
        self._preview: dict[str, Entity] = {}
        self._band: QGraphicsRectItem | None = None
        self._band_base: set[str] = set()

    # -- mouse -----------------------------------------------------------------------
    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.cancel()
        self._press = scene_pos
        sel = self.document.selection
        if len(sel) == 1:
            item = self.scene.item_for(sel[0])
            tol = 4.0 / max(self.view.zoom, 1e-6)
            if isinstance(item, ModelItem) and item.hits_rotate_handle(scene_pos, tol):
                self._begin("rotate", sel)
                return True
        item = self.scene.entity_at(scene_pos)
        adding = bool(event.modifiers() & ADD_MODIFIERS)
        if item is None:
            self._mode = "band"
            self._band_base = set(sel) if adding else set()
            if not adding:
                self.document.set_selection(())
            band = QGraphicsRectItem()
            pen = QPen(QColor("#2980b9"), 1, Qt.PenStyle.DashLine)
            pen.setCosmetic(True)
            band.setPen(pen)
            band.setBrush(QColor(41, 128, 185, 40))
            band.setParentItem(self.scene.tool_layer)
            band.setRect(QRectF(scene_pos, scene_pos))
            self._band = band
            return True
        if adding:
            ids = [i for i in sel if i != item.entity_id]
            if item.entity_id not in sel:
                ids.append(item.entity_id)
            self.document.set_selection(ids)
            return True
        if item.entity_id not in sel:
            self.document.set_selection([item.entity_id])
        self._begin("move", self.document.selection)
        return True

    def _begin(self, mode: str, ids: tuple[str, ...]) -> None:
        self._mode = mode
        scenario = self.scenario
        self._start = {i: e for i in ids if (e := scenario.entity(i)) is not None}
        self._preview = dict(self._start)

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self._mode == "band" and self._band is not None:
            self._band.setRect(QRectF(self._press, scene_pos).normalized())
            return True
        if self._mode == "move":
            self._drag_to(scene_pos)
            return True
        if self._mode == "rotate":
            self._rotate_to(scene_pos, fine=bool(event.modifiers()
                                                 & Qt.KeyboardModifier.ShiftModifier))
            return True
        return False

    def _drag_to(self, scene_pos: QPointF) -> None:
        x0, y0 = self.table_point(self._press)
        x1, y1 = self.table_point(scene_pos)
        anchor = next(iter(self._start.values()))
        if isinstance(anchor, Fighter | Unit):
            ax, ay = self.snap(anchor.x + x1 - x0, anchor.y + y1 - y0)
            dx, dy = ax - anchor.x, ay - anchor.y
        else:
            dx, dy = x1 - x0, y1 - y0
            if self.snapping:
                dx, dy = round(dx, 1), round(dy, 1)
        base = self.scenario
        preview = edits.move(base, self._start, dx, dy)
        self._show_preview({i: e for i in self._start if (e := preview.entity(i)) is not None})

    def _rotate_to(self, scene_pos: QPointF, fine: bool) -> None:
        (model_id, start), = self._start.items()
        assert isinstance(start, Fighter | Unit)
        x, y = self.table_point(scene_pos)
        facing = edits.facing_towards(start.x, start.y, x, y)
        if self.snapping:
            step = 1.0 if fine else 5.0
            facing = edits.normal_angle(round(facing / step) * step)
        self._show_preview({model_id: replace(start, facing=facing)})

    def _show_preview(self, entities: dict[str, Entity]) -> None:
        self._preview = entities
        models: dict[str, Entity] = {}
        for i, e in entities.items():
            item = self.scene.item_for(i)
            if isinstance(item, ModelItem) and isinstance(e, Fighter | Unit):
                item.set_model(e, item.color)
                models[i] = e
            elif isinstance(item, TerrainItem) and not isinstance(e, Fighter | Unit):
                item.set_terrain(e)
        if models:
            self.document.preview(models)  # the attack follows the drag (position, facing)

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton or self._mode is None:
            return False
        mode = self._mode
        if mode == "band" and self._band is not None:
            rect = self._band.rect()
            hit = {i.entity_id for i in self.scene.items(rect, Qt.ItemSelectionMode.
                                                         IntersectsItemShape)
                   if isinstance(i, ModelItem | TerrainItem) and i.isVisible()}
            if rect.width() < 2 and rect.height() < 2:
                hit = set()
            self._clear_band()
            self._mode = None
            order = [e.id for e in self.scenario.entities]
            self.document.set_selection([i for i in order if i in hit | self._band_base])
            return True
        changed = {i: e for i, e in self._preview.items() if e != self._start.get(i)}
        self._mode = None
        self._start, self._preview = {}, {}
        if changed:
            scenario = self.scenario
            for e in changed.values():
                scenario = scenario.with_entity(e)
            verb = "Rotate" if mode == "rotate" else "Move"
            self.document.edit(f"{verb} {edits.describe(self.scenario, changed)}", scenario)
        self.document.end_preview()  # when no edit ended it
        return True

    # -- keys ------------------------------------------------------------------------
    def claims_key(self, event: QKeyEvent) -> bool:
        """Esc only cancels a drag in progress; otherwise it is the window's (the attack
        flow clears the attack with it)."""
        return self._mode is not None and super().claims_key(event)

    def key_press(self, event: QKeyEvent) -> bool:
        key = event.key()
        sel = self.document.selection
        big = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        step = 1.0 if big else 0.1
        arrows = {Qt.Key.Key_Left: (-step, 0.0), Qt.Key.Key_Right: (step, 0.0),
                  Qt.Key.Key_Up: (0.0, step), Qt.Key.Key_Down: (0.0, -step)}
        if key in arrows and sel and self._mode is None:
            dx, dy = arrows[Qt.Key(key)]
            new = edits.move(self.scenario, sel, dx, dy)
            self.document.edit(f"Nudge {edits.describe(self.scenario, sel)}", new,
                               merge_id=edits.MERGE_NUDGE)
            return True
        if key in (Qt.Key.Key_BracketLeft, Qt.Key.Key_BracketRight) and sel and (
                self._mode is None):
            turn = (1.0 if big else 15.0) * (1 if key == Qt.Key.Key_BracketLeft else -1)
            new = edits.rotate(self.scenario, sel, turn)
            self.document.edit(f"Rotate {edits.describe(self.scenario, sel)}", new,
                               merge_id=edits.MERGE_ROTATE)
            return True
        if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and sel and self._mode is None:
            self.document.edit(f"Delete {edits.describe(self.scenario, sel, 'items')}",
                               edits.delete(self.scenario, sel))
            return True
        return super().key_press(event)

    def cancel(self) -> None:
        if self._mode in ("move", "rotate"):
            self._show_preview(dict(self._start))
            self.document.end_preview()
        self._clear_band()
        self._mode = None
        self._start, self._preview = {}, {}

    def _clear_band(self) -> None:
        if self._band is not None:
            self.scene.removeItem(self._band)
            self._band = None
