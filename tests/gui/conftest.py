"""GUI test fixtures: a main window on a document, with settings and the recovery folder
in a temporary directory (the user's own are never touched)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtWidgets import QMessageBox

from tabletop_gui.model.document import Document
from tabletop_gui.scenario.entities import Scenario


@pytest.fixture(autouse=True)
def _isolated_paths(qapp, tmp_path):
    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "user-settings"))
    qapp.setOrganizationName("tabletop-gui-tests")
    qapp.setApplicationName("tabletop-gui-tests")
    yield


@pytest.fixture(autouse=True)
def _no_modal_questions(monkeypatch):
    """Closing a window with unsaved edits at teardown must not block on a question:
    answer Discard unless a test patches its own answer."""
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Discard)


@pytest.fixture
def make_window(qtbot, tmp_path) -> Callable[..., object]:
    from tabletop_gui.ui.main_window import MainWindow

    def make(scenario: Scenario, path: Path | None = None, recovery_dir: Path | None = None):
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(Document(scenario, path), settings)
        window.start_recovery(recovery_dir or tmp_path / "recovery")
        qtbot.addWidget(window)
        window.resize(1200, 800)
        window.show()
        qtbot.waitExposed(window)
        window.view.fit_to_window()
        return window

    return make


@pytest.fixture
def watchdog(qapp):
    """An ``EventLoopWatchdog`` (tests/gui/watchdog.py): ``with watchdog.watching(phase):``
    records every gap between two turns of the event loop. The garbage earlier tests left
    (their windows' object cycles, freed only by a full collection) is collected first:
    it is not this test's to pay for inside its measured gaps."""
    import gc

    from tests.gui.watchdog import EventLoopWatchdog

    gc.collect()
    dog = EventLoopWatchdog()
    yield dog
    dog.deleteLater()
