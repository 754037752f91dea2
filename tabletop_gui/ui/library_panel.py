"""The Library panel: a searchable list of the profiles the Add tool places, and the side
they join. Picking a profile arms the Add tool. A profile library that cannot be used is
shown in the panel, and told (``on_problem``) when it is first found."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSortFilterProxyModel, QStringListModel, Qt, QTimer
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QListView, QVBoxLayout, QWidget

from tabletop_gui.model.document import Change, Document
from tabletop_gui.model.profiles import fresh, profiles_for
from tabletop_gui.scenario.entities import Fighter, Model
from tabletop_gui.ui.import_actions import library_folder, load_library

PROBLEM_STYLE = "color: #D55E00; font-weight: bold;"  # Okabe-Ito vermillion


class LibraryPanel(QWidget):
    def __init__(self, document: Document, on_pick: Callable[[Model | None, str | None], None],
                 on_problem: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._on_pick = on_pick
        self._on_problem = on_problem
        self.profiles: list[Model] = []
        self.problem_label = QLabel("")
        self.problem_label.setWordWrap(True)
        self.problem_label.setStyleSheet(PROBLEM_STYLE)
        self.problem_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem_label.setVisible(False)
        self.search = QLineEdit(placeholderText="Search profiles\u2026")
        self.search.setClearButtonEnabled(True)
        self.side = QComboBox()
        self.side.setToolTip("The side a placed model joins")
        self._names = QStringListModel(self)
        self._filter = QSortFilterProxyModel(self)
        self._filter.setSourceModel(self._names)
        self._filter.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.list = QListView()
        self.list.setModel(self._filter)
        self.list.setToolTip("Pick a profile, then click on the battlefield with the Add tool")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.search)
        layout.addWidget(self.side)
        layout.addWidget(self.list)
        self.search.textChanged.connect(self._filter.setFilterFixedString)
        self.list.selectionModel().currentChanged.connect(lambda *_: self._emit())
        self.side.currentIndexChanged.connect(lambda *_: self._emit())
        self._later = QTimer(self)  # another battlefield: listed on the next turn
        self._later.setSingleShot(True)
        self._later.setInterval(0)
        self._later.timeout.connect(self.refresh)
        document.changed.connect(self._on_changed)
        self.refresh()

    def _on_changed(self, change: Change) -> None:
        if change.structural:
            self._later.start()

    def refresh(self) -> None:
        scenario = self.document.scenario
        current = self.side.currentData()
        self.side.blockSignals(True)
        self.side.clear()
        for s in scenario.sides:
            self.side.addItem(s.name or s.id, s.id)
        i = self.side.findData(current)
        self.side.setCurrentIndex(max(i, 0))
        self.side.blockSignals(False)
        found = profiles_for(scenario)
        extra, extra_labels = self._fighter_library(scenario.ruleset)
        self.profiles = found.models + extra
        self._names.setStringList([self._label(p) for p in found.models] + extra_labels)
        told = self.problem_label.text() if self.problem_label.isVisibleTo(self) else None
        self.problem_label.setText(found.problem or "")
        self.problem_label.setVisible(found.problem is not None)
        if found.problem is not None and found.problem != told:
            self._on_problem(found.problem)

    @staticmethod
    def _fighter_library(ruleset: str) -> tuple[list[Model], list[str]]:
        """The fighters of the loaded fighter data (Warcry only), labelled with their
        warband so that a search finds them by either."""
        if not library_folder().is_dir():
            return [], []  # none was ever loaded: the importers need not load to say so
        from tabletop_gui.importers.fighter_data import FighterLibrary  # lazy: kept data only

        if ruleset != FighterLibrary.ruleset:
            return [], []
        library, _ = load_library()  # a damaged library is told when an import uses it
        records = library.fighters
        return ([library.fighter(r) for r in records],
                [f"{r.name} ({r.warband})" if r.warband else r.name for r in records])

    @staticmethod
    def _label(p: Model) -> str:
        return p.name if isinstance(p, Fighter) else f"{p.name} ({p.models})"

    def pick(self, name: str) -> bool:
        """Select the first profile whose label contains ``name`` (case-insensitive)."""
        for row in range(self._filter.rowCount()):
            index = self._filter.index(row, 0)
            if name.lower() in str(index.data()).lower():
                self.list.setCurrentIndex(index)
                return True
        return False

    def current_profile(self) -> Model | None:
        index = self.list.currentIndex()
        if not index.isValid():
            return None
        row = self._filter.mapToSource(index).row()
        return fresh(self.profiles[row]) if 0 <= row < len(self.profiles) else None

    def _emit(self) -> None:
        self._on_pick(self.current_profile(), self.side.currentData())
