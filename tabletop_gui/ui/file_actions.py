"""The File menu: New (a ruleset's demo or empty), Open, Open Recent, Import, Save, Save As,
Export picture, Quit; asking before discarding changes; recent files in QSettings.

Open reads and checks the file on the window's worker thread (a large file takes a
second): the battlefield open now stays, usable, until the new one is ready, the status
bar says what is being opened, and opening another file meanwhile supersedes it.
``opened`` tells when an Open is over (shown or not).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox

from tabletop_gui.model.jobs import Outcome
from tabletop_gui.model.new_scenario import demo_available, demo_scenario, empty_scenario
from tabletop_gui.rules.registry import INFOS
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.load import ScenarioError, load_scenario
from tabletop_gui.ui.errors import write_error_text
from tabletop_gui.ui.export import export_scene

if TYPE_CHECKING:
    from tabletop_gui.model.recovery import Recovery
    from tabletop_gui.ui.window_host import WindowHost

FILTER = "Scenarios (*.battle.json *.json);;All files (*)"
RECENT_KEY = "files/recent"
MAX_RECENT = 8


def _std(key: QKeySequence.StandardKey) -> QKeySequence:
    return QKeySequence(key)


class FileActions(QObject):
    """File operations of one main window, through its document."""

    opened = Signal(str, bool)  # an Open is over: the path, and whether it is shown now

    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self.window = window
        self.document = window.document
        self.recovery: Recovery | None = None
        self._recent_menu: QMenu | None = None
        self._opening = 0  # the latest Open asked for; earlier ones are superseded
        self.opening: str | None = None  # the file being read, if any (see ``opened``)

    # -- menu ------------------------------------------------------------------------

    def use_recovery(self, recovery: Recovery | None) -> None:
        """Autosave to ``recovery`` (None: none; New and Open then discard nothing)."""
        self.recovery = recovery
    def populate(self, menu: QMenu) -> None:
        w = self.window
        new_menu = menu.addMenu("&New")
        for rid, info in INFOS.items():
            if demo_available():
                a = new_menu.addAction(f"{info.name} demo")
                a.triggered.connect(lambda _=False, r=rid: self.new(r, demo=True))
            a = new_menu.addAction(f"Empty {info.name} battlefield")
            a.triggered.connect(lambda _=False, r=rid: self.new(r, demo=False))
        self.open_action = QAction("&Open\u2026", w, shortcut=_std(QKeySequence.StandardKey.Open))
        self.open_action.triggered.connect(lambda: self.open())
        self._recent_menu = QMenu("Open &Recent", w)
        self._recent_menu.aboutToShow.connect(self._fill_recent)
        self.save_action = QAction("&Save", w, shortcut=_std(QKeySequence.StandardKey.Save))
        self.save_action.triggered.connect(self.save)
        self.save_as_action = QAction("Save &As\u2026", w,
                                      shortcut=_std(QKeySequence.StandardKey.SaveAs))
        self.save_as_action.triggered.connect(self.save_as)
        export = QAction("&Export picture\u2026", w, shortcut=QKeySequence("Ctrl+E"))
        export.triggered.connect(self.export_picture)
        quit_action = QAction("&Quit", w, shortcut=_std(QKeySequence.StandardKey.Quit))
        quit_action.triggered.connect(w.close)
        menu.addAction(self.open_action)
        menu.addMenu(self._recent_menu)
        self.import_action = QAction("&Import\u2026", w, shortcut=QKeySequence("Ctrl+I"))
        self.import_action.setToolTip("Rosters (BattleScribe, New Recruit), maps (Universal "
                                      "VTT), Tabletop Simulator positions")
        self.import_action.triggered.connect(lambda: w.imports.ask_and_import())
        menu.addAction(self.import_action)
        menu.addSeparator()
        menu.addActions([self.save_action, self.save_as_action, export])
        menu.addSeparator()
        menu.addAction(quit_action)

    def _fill_recent(self) -> None:
        assert self._recent_menu is not None
        self._recent_menu.clear()
        for p in self.recent_files():
            a = self._recent_menu.addAction(p)
            a.triggered.connect(lambda _=False, path=p: self.open(path))
        if not self._recent_menu.actions():
            self._recent_menu.addAction("(none)").setEnabled(False)

    # -- recent files ----------------------------------------------------------------
    def recent_files(self) -> list[str]:
        value = self.window.settings.value(RECENT_KEY, [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list | tuple) else []

    def remember(self, path: Path) -> None:
        p = str(path)
        recent = [p, *(r for r in self.recent_files() if r != p)][:MAX_RECENT]
        self.window.settings.setValue(RECENT_KEY, recent)

    # -- discarding ------------------------------------------------------------------
    def maybe_discard(self) -> bool:
        """True when the current document may be replaced (saved, discarded or clean)."""
        if not self.document.modified:
            return True
        answer = QMessageBox.question(
            self.window, "Unsaved changes",
            "The battlefield has unsaved changes. Save them first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def closed_cleanly(self) -> None:
        if self.recovery is not None:
            self.recovery.discard()

    # -- operations ------------------------------------------------------------------
    def new(self, ruleset_id: str, demo: bool) -> bool:
        if not self.maybe_discard():
            return False
        scenario = demo_scenario(ruleset_id) if demo else empty_scenario(ruleset_id)
        self._show(scenario, None)
        return True

    def open(self, path: str | None = None) -> bool:
        """Open a file (asking for it when not given): True when reading it started.
        It is read and checked on the worker; then a refused file shows its problems
        and leaves the open battlefield as it was, else it replaces it (after asking
        about unsaved changes). ``opened`` tells the end."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.window, "Open battlefield",
                                                  self._folder(), FILTER)
            if not path:
                return False
        self._opening += 1
        self.opening = path
        self.window.busy.report("open", f"Opening {Path(path).name}")
        self.window.worker.submit(partial(load_scenario, path),
                                  partial(self._read, self._opening, path))
        return True

    def _read(self, opening: int, path: str, outcome: Outcome[Scenario]) -> None:
        if opening != self._opening:
            return  # another Open superseded this one
        self.opening = None
        self.window.busy.finish("open")
        try:
            scenario = outcome.get()
        except ScenarioError as e:
            self.show_problems(Path(path), [str(p) for p in e.problems])
            self.opened.emit(path, False)
            return
        except Exception as e:  # noqa: BLE001 - a reader bug: told, the battlefield stays
            self.window.errors.failure(f"Opening {path}", e)
            self.opened.emit(path, False)
            return
        if not self.maybe_discard():
            self.opened.emit(path, False)
            return
        self._show(scenario, Path(path))
        self.remember(Path(path))
        self.opened.emit(path, True)

    def show_problems(self, path: Path, problems: list[str]) -> None:
        shown = problems[:20] + ([f"\u2026 and {len(problems) - 20} more"]
                                 if len(problems) > 20 else [])
        QMessageBox.warning(self.window, "Cannot open the battlefield",
                            f"{path.name} was not opened:\n\n" + "\n".join(shown))

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._write(self.document.path)

    def save_as(self) -> bool:
        start = str(self.document.path or Path(self._folder()) / "battlefield.battle.json")
        path, _ = QFileDialog.getSaveFileName(self.window, "Save battlefield", start, FILTER)
        if not path:
            return False
        return self._write(Path(path))

    def _write(self, path: Path) -> bool:
        from tabletop_gui.scenario import save  # lazy: the first save, not the start

        try:
            save.save_scenario(self.document.scenario, path)
        except Exception as e:  # noqa: BLE001 - the disk, or text UTF-8 cannot hold: told
            QMessageBox.warning(self.window, "Cannot save",
                                f"{path} was not saved: {write_error_text(e)}")
            return False
        self.document.mark_saved(path)
        self.remember(path)
        self.window.statusBar().showMessage(f"Saved {path.name}", 4000)
        return True

    def export_picture(self) -> bool:
        path, chosen = QFileDialog.getSaveFileName(
            self.window, "Export picture", str(Path(self._folder()) / "battlefield.png"),
            "PNG image (*.png);;SVG drawing (*.svg)")
        if not path:
            return False
        ok = export_scene(self.window.scene, Path(path))
        if not ok:
            QMessageBox.warning(self.window, "Cannot export", f"{path} could not be written.")
        return ok

    def folder(self) -> str:
        """Where file dialogs start: the open file's folder, else the last one used."""
        return self._folder()

    def _folder(self) -> str:
        p = self.document.path
        if p is not None:
            return str(p.parent)
        recent = self.recent_files()
        return str(Path(recent[0]).parent) if recent else str(Path.home())

    def _show(self, scenario: Scenario, path: Path | None) -> None:
        self.document.replace(scenario, path)
        self.window.view.fit_to_window()
