"""The roster: one row per fighter or unit, grouped by side (a QAbstractTableModel).

Columns: name, side, key characteristics, wounds or Health Points left, taken down.
It reads the document and follows ``Document.changed``: rows whose model changed emit
``dataChanged``; added or removed models reset the table.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from tabletop_gui.model.document import Change, Document
from tabletop_gui.model.health import health_of
from tabletop_gui.scenario.entities import Fighter, Model

COLUMNS = ("Name", "Side", "Characteristics", "Left", "Down")
ID_ROLE = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex


def characteristics_text(model: Model) -> str:
    return " ".join(f"{k[:3].capitalize()} {_num(v)}" for k, v in model.characteristics.items())


def _num(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


class RosterModel(QAbstractTableModel):
    """Fighters and units of the document, by side."""

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._collect()
        document.changed.connect(self._on_changed)

    def _collect(self) -> None:
        s = self.document.scenario
        order = {side.id: n for n, side in enumerate(s.sides)}
        models = sorted(enumerate(s.models), key=lambda nm: (order.get(nm[1].side, 99), nm[0]))
        self._ids = [m.id for _, m in models]
        self._row = {i: r for r, i in enumerate(self._ids)}

    def _on_changed(self, change: Change) -> None:
        if change.structural:
            self.beginResetModel()
            self._collect()
            self.endResetModel()
            return
        for i in change.ids:
            r = self._row.get(i)
            if r is not None:
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
        if not index.isValid() or index.row() >= len(self._ids):
            return None
        model = self.document.scenario.model(self._ids[index.row()])
        if model is None:
            return None
        col = index.column()
        if role == ID_ROLE:
            return model.id
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(model, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            health = health_of(model)
            kind = "fighter" if isinstance(model, Fighter) else f"unit of {model.models}"
            left = f", {health.text()} left" if health else ""
            return f"{model.name} ({model.id}), {kind}{left}"
        if role == Qt.ItemDataRole.DecorationRole and col == 1:
            side = self.document.scenario.side(model.side)
            return QColor(side.color) if side else None
        if role == Qt.ItemDataRole.ForegroundRole and self.document.scenario.taken_down(model):
            return QColor("#8a8a8a")
        return None

    def _display(self, model: Model, col: int) -> str:
        if col == 0:
            return model.name
        if col == 1:
            side = self.document.scenario.side(model.side)
            return side.name or side.id if side else model.side
        if col == 2:
            return characteristics_text(model)
        if col == 3:
            health = health_of(model)
            return health.text() if health else ""
        return "taken down" if self.document.scenario.taken_down(model) else ""
