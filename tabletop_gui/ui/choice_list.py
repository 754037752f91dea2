"""The rows of a combo box of choices (attackers, targets) as one list model.

A combo box filled item by item costs a model change per row: a target list of two
thousand enemies took most of a tenth of a second to fill. ``ChoiceList`` swaps all its
rows at once and Qt asks for the text of the rows it shows only.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

Index = QModelIndex | QPersistentModelIndex
Role = Qt.ItemDataRole


class ChoiceList(QAbstractListModel):
    """Rows of (text, data, tooltip); ``data`` is what the combo's ``itemData`` gives."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, Any]] = []
        self._tips: dict[Any, str] = {}
        self._row_of: dict[Any, int] = {}

    def set_rows(self, rows: list[tuple[str, Any]], tips: dict[Any, str] | None = None) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._row_of = {data: n for n, (_, data) in enumerate(self._rows)}
        self._tips = dict(tips or {})
        self.endResetModel()

    def set_tooltips(self, tips: dict[Any, str]) -> None:
        self._tips = dict(tips)
        if self._rows:
            self.dataChanged.emit(self.index(0), self.index(len(self._rows) - 1),
                                  [Role.ToolTipRole])

    def row_of(self, data: Any) -> int:
        """The row holding ``data``; -1 when none does."""
        return self._row_of.get(data, -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Role.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        text, data = self._rows[index.row()]
        if role == Role.DisplayRole:
            return text
        if role == Role.UserRole:
            return data
        if role == Role.ToolTipRole:
            return self._tips.get(data)
        return None
