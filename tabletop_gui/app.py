"""The desktop application: the main window on a file, and its event loop.

``TABLETOP_GUI_EXIT_AFTER_PAINT=1`` makes the application print ``PAINT_MARKER`` on
stdout and quit as soon as the main window has been painted once (the startup benchmark).
Imports are kept lazy so that the first window appears quickly.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tabletop_gui.ui.application import ensure_application

if TYPE_CHECKING:
    from tabletop_gui.ui.main_window import MainWindow

PAINT_MARKER = "tabletop-gui: first paint"


def run_app(file: str | None, ruleset: str | None) -> int:
    """Open the main window on ``file`` (or the demo of ``ruleset``) and run the event loop.

    The arguments and the machine were checked by the command line (``cli``) before Qt
    was loaded; a ruleset that is not known is a fault of the caller here."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    from tabletop_gui.rules.registry import DEFAULT_RULESET, info

    ruleset_id = info(ruleset or DEFAULT_RULESET).id  # RulesError for an unknown one
    app = ensure_application()
    window = build_window(file, ruleset_id)
    sys.excepthook = window.errors.excepthook  # what no slot caught: told in the window

    exit_after_paint = os.environ.get("TABLETOP_GUI_EXIT_AFTER_PAINT") == "1"
    if exit_after_paint:
        class _FirstPaint(QObject):
            def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
                if event.type() == QEvent.Type.Paint:
                    obj.removeEventFilter(self)
                    QTimer.singleShot(0, _done)
                return False

        def _done() -> None:
            print(PAINT_MARKER, flush=True)
            window.leave_settings_alone()  # a measurement, not a session
            window.document.undo_stack.setClean()
            app.quit()

        painted = _FirstPaint(app)
        window.view.viewport().installEventFilter(painted)
    window.show()
    if not exit_after_paint:
        QTimer.singleShot(0, window.install_attack_flow)
        QTimer.singleShot(0, window.offer_recovery)
    code = app.exec()
    if exit_after_paint:
        window.files.closed_cleanly()
    return int(code)


def build_window(file: str | None, ruleset_id: str) -> MainWindow:
    """The main window on a file, else on the ruleset's start battlefield. A refused file
    leaves the start battlefield open and shows its problems once the window is up."""
    from PySide6.QtCore import QTimer

    from tabletop_gui.model.document import Document
    from tabletop_gui.model.new_scenario import start_scenario
    from tabletop_gui.ui.main_window import MainWindow

    scenario, path, problems = None, None, None
    if file is not None:
        from tabletop_gui.scenario.load import ScenarioError, load_scenario

        try:
            scenario, path = load_scenario(file), Path(file)
        except ScenarioError as e:
            problems = [str(p) for p in e.problems]
    document = Document(scenario or start_scenario(ruleset_id), path)
    window = MainWindow(document)
    window.start_recovery()
    if path is not None:
        window.files.remember(path)
    if file is not None and problems is not None:
        QTimer.singleShot(0, lambda: window.files.show_problems(Path(file), problems))
    return window
