"""The roster: one row per fighter or unit, grouped by side (a QAbstractTableModel).

Columns: name, side, key characteristics, wounds or Health Points left, taken down.
It reads the document and follows ``Document.changed``: rows whose model changed emit
``dataChanged`` when what they show changed (a move does not change it: the rows painted
stay); added or removed models reset the table. What a row shows is worked out once per
model value (``_Row``) and kept until its model changes: a paint of the table asks for
hundreds of cells' roles, one dictionary look-up each.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from tabletop_gui.model.document import Change, Document
from tabletop_gui.model.health import health_of
from tabletop_gui.scenario.entities import Fighter, Model, Scenario

COLUMNS = ("Name", "Side", "Characteristics", "Left", "Down")
ID_ROLE = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex
GREYED = "#8a8a8a"  # the text of a model taken down
# the roles a row answers, by their place in ``_Row.cells``
_SLOTS: dict[int, int] = {Qt.ItemDataRole.DisplayRole: 0, Qt.ItemDataRole.ToolTipRole: 1,
                          Qt.ItemDataRole.DecorationRole: 2,
                          Qt.ItemDataRole.ForegroundRole: 3, ID_ROLE: 4}


def characteristics_text(model: Model) -> str:
    return " ".join(f"{k[:3].capitalize()} {_num(v)}" for k, v in model.characteristics.items())


def _num(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


class _Row:
    """What a model's row shows: per role (``_SLOTS``), per column; ``key``: the same as
    plain values (a row with an equal key shows the same)."""

    __slots__ = ("cells", "key")

    def __init__(self, model: Model, scenario: Scenario) -> None:
        side = scenario.side(model.side)
        down = scenario.taken_down(model)
        health = health_of(model)
        texts = (model.name, (side.name or side.id) if side else model.side,
                 characteristics_text(model), health.text() if health else "",
                 "taken down" if down else "")
        kind = "fighter" if isinstance(model, Fighter) else f"unit of {model.models}"
        left = f", {health.text()} left" if health else ""
        tooltip = f"{model.name} ({model.id}), {kind}{left}"
        color = side.color if side else None
        n = len(COLUMNS)
        self.key = (model.id, texts, tooltip, color, down)
        self.cells: tuple[tuple[Any, ...], ...] = (
            texts, (tooltip,) * n,
            (None, QColor(color) if color is not None else None) + (None,) * (n - 2),
            (QColor(GREYED) if down else None,) * n, (model.id,) * n)


class RosterModel(QAbstractTableModel):
    """Fighters and units of the document, by side."""

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._shown: dict[str, _Row] = {}  # what the rows asked for show, by model id
        self._collect()
        document.changed.connect(self._on_changed)

    def _collect(self) -> None:
        s = self.document.scenario
        order = {side.id: n for n, side in enumerate(s.sides)}
        models = sorted(enumerate(s.models), key=lambda nm: (order.get(nm[1].side, 99), nm[0]))
        self._ids = [m.id for _, m in models]
        self._row = {i: r for r, i in enumerate(self._ids)}
        self._shown = {}

    def _on_changed(self, change: Change) -> None:
        if change.structural:
            self.beginResetModel()
            self._collect()
            self.endResetModel()
            return
        scenario = self.document.scenario
        for i in change.ids:
            r = self._row.get(i)
            if r is None:
                continue
            old = self._shown.pop(i, None)
            model = scenario.model(i)
            if old is not None and model is not None:  # shown: the same again?
                new = self._shown[i] = _Row(model, scenario)
                if new.key == old.key:
                    continue
            self.dataChanged.emit(self.index(r, 0), self.index(r, len(COLUMNS) - 1))

    # -- look-ups --------------------------------------------------------------------
    def row_of(self, model_id: str) -> int | None:
        return self._row.get(model_id)

    def id_at(self, row: int) -> str:
        return self._ids[row]

    # -- Qt --------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section] if 0 <= section < len(COLUMNS) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        slot = _SLOTS.get(role)
        if slot is None or not index.isValid():
            return None
        r = index.row()
        if r >= len(self._ids):
            return None
        i = self._ids[r]
        row = self._shown.get(i)
        if row is None:
            scenario = self.document.scenario
            model = scenario.model(i)
            if model is None:
                return None
            row = self._shown[i] = _Row(model, scenario)
        return row.cells[slot][index.column()]
