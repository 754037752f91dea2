"""The Roster panel: the roster table; selecting rows selects on the canvas and back."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QItemSelectionModel
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from tabletop_gui.model.document import Document
from tabletop_gui.model.roster import RosterModel


class RosterPanel(QTableView):
    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.roster = RosterModel(document, self)
        self.setModel(self.roster)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # columns fit the rows on screen: measuring every row (Qt's default is 1,000 of
        # them) on each change made one move on a 2,000-model board take half a second
        self.horizontalHeader().setResizeContentsPrecision(0)
        self.horizontalHeader().setStretchLastSection(True)
        self.setAlternatingRowColors(True)
        self.setMinimumWidth(300)
        self._syncing = False
        self.selectionModel().selectionChanged.connect(self._to_document)
        document.selection_changed.connect(self._from_document)
        self.roster.modelReset.connect(self._from_document)
        self._from_document()

    def _to_document(self) -> None:
        if self._syncing:
            return
        rows = sorted({i.row() for i in self.selectionModel().selectedRows()})
        model_ids = [self.roster.id_at(r) for r in rows]
        self._syncing = True
        try:
            self.document.set_selection(model_ids)
        finally:
            self._syncing = False

    def _from_document(self) -> None:
        if self._syncing:
            return
        selection = QItemSelection()
        last = self.roster.columnCount() - 1
        for i in self.document.selection:
            r = self.roster.row_of(i)
            if r is not None:
                selection.select(self.roster.index(r, 0), self.roster.index(r, last))
        self._syncing = True
        try:
            self.selectionModel().select(
                selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
            if self.document.selection:
                r = self.roster.row_of(self.document.selection[0])
                if r is not None:
                    self.scrollTo(self.roster.index(r, 0))
        finally:
            self._syncing = False
