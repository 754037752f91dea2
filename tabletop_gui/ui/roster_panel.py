"""The Roster panel: the roster table; selecting rows selects on the canvas and back.

The columns share the panel's width (``COLUMN_SHARES``, texts elided, whole in the
tooltip) until the user drags one: the panel needs no horizontal scrollbar.

A selection made elsewhere (the canvas) is highlighted at once, and the table scrolls to
it once the selection has rested ``SCROLL_REST_MS``: a press on a model far down the
roster of a big board (the start of a drag) does not repaint the whole table, its header
and its scrollbar in the frames of the press and the drag (~5 ms a repaint)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QItemSelection, QItemSelectionModel, Qt, QTimer
from PySide6.QtGui import QHelpEvent, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QTableView, QToolTip, QWidget

from tabletop_gui.model.document import Document
from tabletop_gui.model.roster import COLUMNS, RosterModel

COLUMN_SHARES = (0.3, 0.25, 0.25, 0.1, 0.1)  # of the width, per column of ``COLUMNS``
SCROLL_REST_MS = 150  # the table scrolls to a selection made elsewhere once it rests


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
        self.horizontalHeader().setStretchLastSection(True)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setWordWrap(False)  # one line a model, elided
        self._sharing = False
        self.sized_by_user = False  # a column dragged: the shares no longer apply
        self.horizontalHeader().sectionResized.connect(self._section_resized)
        self.verticalScrollBar().rangeChanged.connect(self._rows_changed)
        self.setAlternatingRowColors(True)
        self.setMinimumWidth(300)
        self._syncing = False
        self._scroll_timer = QTimer(self)  # to the selection, once it rests
        self._scroll_timer.setSingleShot(True)
        self._scroll_timer.setInterval(SCROLL_REST_MS)
        self._scroll_timer.timeout.connect(self.scroll_to_selection)
        self.selectionModel().selectionChanged.connect(self._to_document)
        document.selection_changed.connect(self._from_document)
        self.roster.modelReset.connect(self._from_document)
        self._from_document()

    def _section_resized(self, column: int) -> None:
        """A column other than the last (which stretches) resized, not by the shares:
        the user dragged it."""
        if not self._sharing and column < len(COLUMNS) - 1:
            self.sized_by_user = True

    def _rows_changed(self) -> None:
        if not self.sized_by_user:
            self.share_columns()  # the vertical scrollbar came or went

    def share_columns(self) -> None:
        """The columns take their share of the width (no measuring of rows: cheap on a
        2,000-model board)."""
        bar = self.verticalScrollBar()
        width = self.width() - 2 * self.frameWidth() - (
            bar.sizeHint().width() if bar.maximum() > 0 else 0)
        self._sharing = True
        try:
            for col, share in enumerate(COLUMN_SHARES[:len(COLUMNS)]):
                self.horizontalHeader().resizeSection(col, int(width * share))
        finally:
            self._sharing = False

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        if not self.sized_by_user:
            self.share_columns()

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802
        """A cell's tooltip: its whole text (it may be elided), then the row's."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.indexAt(event.pos())
            if index.isValid():
                text = index.data(Qt.ItemDataRole.DisplayRole) or ""
                row = index.data(Qt.ItemDataRole.ToolTipRole) or ""
                QToolTip.showText(event.globalPos(),
                                  "\n".join(t for t in (str(text), str(row)) if t), self)
                return True
        return super().viewportEvent(event)

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
        finally:
            self._syncing = False
        if self.document.selection:
            self._scroll_timer.start()  # (again: the wait starts over)
        else:
            self._scroll_timer.stop()

    def scroll_to_selection(self) -> None:
        """Scroll the table to the first selected model's row (now)."""
        self._scroll_timer.stop()
        if self.document.selection:
            r = self.roster.row_of(self.document.selection[0])
            if r is not None:
                self.scrollTo(self.roster.index(r, 0))
