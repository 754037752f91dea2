"""File ▸ Import…, files dropped on the window, and Library ▸ Load fighter data….

An import starts from the open battlefield (as ``tabletop-gui import --into``) and is one
undoable edit. Files whose game the open battlefield cannot play are offered as a new
battlefield of their ruleset (asked first: the open one is closed; Undo then goes back to
an empty battlefield). Afterwards a summary lists what came in and every warning; a
refusal shows every problem and leaves the battlefield as it was. Fighter data is kept
in the user's data folder (``LibraryStore``) and used by imports and the Library panel.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from tabletop_gui.model import recovery
from tabletop_gui.model.new_scenario import empty_scenario
from tabletop_gui.rules.registry import info
from tabletop_gui.scenario.load import FORMAT

if TYPE_CHECKING:
    from tabletop_gui.importers.combine import ImportResult
    from tabletop_gui.importers.fighter_data import FighterLibrary, LibraryStore
    from tabletop_gui.importers.sources import ImportRefused
    from tabletop_gui.ui.window_host import WindowHost

FILTER = ("Rosters, maps and table positions (*.ros *.rosz *.json *.dd2vtt *.uvtt *.df2vtt)"
          ";;All files (*)")
DATA_FILTER = "Fighter data and base sizes (*.json);;All files (*)"
LIBRARY_FOLDER = "fighter-library"
MAX_SHOWN = 30


# The importers (about a tenth of the start-up's imports) load on the first import, drop
# or kept fighter data, never before the window's first paint.


def library_folder() -> Path:
    """Where loaded fighter data is kept; it exists once some was loaded."""
    return recovery.default_folder() / LIBRARY_FOLDER


def library_store() -> LibraryStore:
    from tabletop_gui.importers.fighter_data import LibraryStore  # lazy: see above

    return LibraryStore(library_folder())


def load_library() -> tuple[FighterLibrary, str | None]:
    """The kept fighter data, and why it cannot be used (then empty)."""
    from tabletop_gui.importers.fighter_data import FighterLibrary  # lazy: see above
    from tabletop_gui.importers.sources import ImportRefused  # lazy: see above

    try:
        return library_store().load(), None
    except ImportRefused as e:
        return FighterLibrary(), "\n".join(e.lines[:MAX_SHOWN])


def local_files(mime: QMimeData) -> list[str]:
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile() and u.toLocalFile()]


class ImportSummary(QDialog):
    """What came in and every warning (non-modal: the battlefield stays usable)."""

    def __init__(self, result: ImportResult, files: list[str], parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("import_summary")
        self.setWindowTitle("Import summary")
        got = result.imported
        names = ", ".join(Path(f).name for f in files)
        lines = [f"Imported {names}:",
                 f"{got['fighters']} fighters, {got['units']} units, {got['obstacles']} walls "
                 f"and obstacles, {got['positioned']} models placed from table positions."]
        if result.new_sides:
            lines.append("New sides: " + ", ".join(s.name or s.id for s in result.new_sides))
        if result.scenario.battlefield.background is not None:
            lines.append("The map's picture is the battlefield's background "
                         "(View \u25b8 Dim background fades it).")
        self.text = "\n".join(lines)
        self.warnings = list(result.warnings)
        label = QLabel(self.text)
        label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        if self.warnings:
            layout.addWidget(QLabel(f"{len(self.warnings)} warnings (read but not used, or "
                                    "filled in):"))
            box = QPlainTextEdit("\n".join(self.warnings))
            box.setReadOnly(True)
            box.setMinimumSize(640, 200)
            layout.addWidget(box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)


class ImportActions:
    """The import operations of one main window."""

    def __init__(self, window: WindowHost) -> None:
        self.window = window
        self.document = window.document
        self.summary: ImportSummary | None = None

    def ask_and_import(self) -> bool:
        paths, _ = QFileDialog.getOpenFileNames(self.window, "Import rosters, maps, table "
                                                "positions", self.window.files.folder(),
                                                FILTER)
        return self.import_paths(paths) if paths else False

    def import_paths(self, paths: list[str]) -> bool:
        """Import into the open battlefield as one undoable edit; True when it was."""
        from tabletop_gui.importers.combine import import_files  # lazy: see above
        from tabletop_gui.importers.sources import ImportRefused  # lazy: see above

        library, problem = load_library()
        if problem is not None:
            self.window.errors.problem("The fighter data library cannot be used, so imports "
                                       "take no base sizes from it:\n" + problem)
        try:
            result = import_files(paths, into=self.document.scenario, library=library,
                                  into_source="the open battlefield")
        except ImportRefused as e:
            return self._refused_or_elsewhere(paths, library, e)
        before = self.document.scenario.battlefield
        self.document.edit(f"Import {', '.join(Path(p).name for p in paths)}",
                           result.scenario)
        if result.scenario.battlefield != before:
            self.window.view.fit_to_window()
        self._show_summary(result, paths)
        return True

    def _refused_or_elsewhere(self, paths: list[str], library: FighterLibrary,
                              refusal: ImportRefused) -> bool:
        """Files another ruleset plays may become a new battlefield, if the player wants."""
        from tabletop_gui.importers.combine import import_files  # lazy: see above
        from tabletop_gui.importers.sources import ImportRefused  # lazy: see above

        try:
            alone = import_files(paths, library=library)
        except ImportRefused:
            alone = None
        if alone is None or alone.scenario.ruleset == self.document.scenario.ruleset:
            self._show_problems(refusal.lines)
            return False
        now, then = info(self.document.scenario.ruleset).name, info(alone.scenario.ruleset).name
        answer = QMessageBox.question(
            self.window, "Import into a new battlefield?",
            f"The open battlefield plays {now}; these files are for {then}.\n\nClose it and "
            f"import them into a new {then} battlefield?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes or not self.window.files.maybe_discard():
            return False
        self.document.replace(empty_scenario(alone.scenario.ruleset), None)
        result = import_files(paths, into=self.document.scenario, library=library,
                              into_source="the new battlefield")
        self.document.edit(f"Import {', '.join(Path(p).name for p in paths)}",
                           result.scenario)
        self.window.view.fit_to_window()
        self._show_summary(result, paths)
        return True

    def _show_problems(self, lines: list[str]) -> None:
        shown = lines[:MAX_SHOWN] + ([f"\u2026 and {len(lines) - MAX_SHOWN} more"]
                                     if len(lines) > MAX_SHOWN else [])
        QMessageBox.warning(self.window, "Cannot import",
                            "Nothing was imported; the battlefield is as it was:\n\n"
                            + "\n".join(shown))

    def _show_summary(self, result: ImportResult, paths: list[str]) -> None:
        if self.summary is not None:
            self.summary.close()
        self.summary = ImportSummary(result, paths, self.window)
        self.summary.show()

    # -- dropped files -------------------------------------------------------------------
    def drop(self, paths: list[str]) -> bool:
        """A dropped scenario file opens; anything else is imported."""
        if len(paths) == 1 and _is_scenario(paths[0]):
            return self.window.files.open(paths[0])
        return self.import_paths(paths)

    # -- fighter data ------------------------------------------------------------------------
    def load_fighter_data(self, paths: list[str] | None = None) -> bool:
        if paths is None:
            paths, _ = QFileDialog.getOpenFileNames(self.window, "Load fighter data",
                                                    self.window.files.folder(), DATA_FILTER)
            if not paths:
                return False
        from tabletop_gui.importers.sources import ImportRefused  # lazy: see above

        store = library_store()
        told: list[str] = []
        problems: list[str] = []
        for path in paths:
            try:
                told.append(f"{Path(path).name}: {store.add_file(path)}")
            except ImportRefused as e:
                problems += e.lines
        self.window.library_panel.refresh()
        if problems:
            self._show_problems(problems)
        if told:
            QMessageBox.information(self.window, "Fighter data loaded",
                                    "Kept in the library:\n" + "\n".join(told))
        return not problems


def _is_scenario(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return f'"{FORMAT}"'.encode() in head
