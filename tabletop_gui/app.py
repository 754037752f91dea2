"""The desktop application: the main window on a file, and its event loop.

``build_window`` is the one place that wires the window's collaborators: it makes the
document, the settings, the engine's worker thread and the recovery file and passes them
to ``MainWindow``; once the window has been painted first, it installs the attack flow
(the rules engines and the plotting load then) and offers to restore unsaved work.

``TABLETOP_GUI_EXIT_AFTER_PAINT=1`` makes the application print ``PAINT_MARKER`` on
stdout and quit as soon as the main window has been painted once (the startup benchmark).
Imports are kept lazy so that the first window appears quickly.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tabletop_gui.ui.application import ensure_application

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from tabletop_gui.scenario.entities import Scenario
    from tabletop_gui.ui.main_window import MainWindow

PAINT_MARKER = "tabletop-gui: first paint"


def run_app(file: str | None, ruleset: str | None) -> int:
    """Open the main window on ``file`` (or the demo of ``ruleset``) and run the event loop.

    The arguments and the machine were checked by the command line (``cli``) before Qt
    was loaded; a ruleset that is not known is a fault of the caller here."""
    # lazy: the Qt-free scenario reader loads before PySide6, whose import hook reads the
    # source of every module imported after it (PYSIDE-2029); so do numpy and shapely when
    # a file's polygons are to be checked (a shipped demo is painted without them)
    import tabletop_gui.scenario.resources  # noqa: F401

    if file is not None:
        import shapely  # noqa: F401  (and numpy)
    from tabletop_gui.geometry import jit
    from tabletop_gui.rules.registry import DEFAULT_RULESET, info

    ruleset_id = info(ruleset or DEFAULT_RULESET).id  # RulesError for an unknown one
    jit.load_early()  # the window lives on: a big board's compiled loops load early
    app = ensure_application()
    exit_after_paint = os.environ.get("TABLETOP_GUI_EXIT_AFTER_PAINT") == "1"
    window = build_window(file, ruleset_id, complete=not exit_after_paint)
    sys.excepthook = window.errors.excepthook  # what no slot caught: told in the window

    if exit_after_paint:
        def _done() -> None:
            print(PAINT_MARKER, flush=True)
            window.leave_settings_alone()  # a measurement, not a session
            window.document.undo_stack.setClean()
            app.quit()

        after_first_paint(window.view.viewport(), _done)
    window.show()
    code = app.exec()
    if exit_after_paint:
        window.files.closed_cleanly()
    return int(code)


def after_first_paint(widget: QWidget, *work: Callable[[], object]) -> None:
    """Each of ``work``, in turn, on the event loop's turns after ``widget`` is first
    painted (never if ``widget`` goes first)."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class _FirstPaint(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
            if event.type() == QEvent.Type.Paint:
                obj.removeEventFilter(self)
                for w in work:
                    QTimer.singleShot(0, widget, w)
                self.deleteLater()
            return False

    widget.installEventFilter(_FirstPaint(widget))


def build_window(file: str | None, ruleset_id: str, complete: bool = True) -> MainWindow:
    """The main window on a file, else on the ruleset's start battlefield, with its
    collaborators. A refused file leaves the start battlefield open and shows its problems
    once the window is up. ``complete``: once the window is painted first, the attack flow
    is installed and unsaved work of an earlier run is offered (the first paint does not
    wait for them); not when only the first paint is measured."""
    from PySide6.QtCore import QSettings, QTimer

    from tabletop_gui.model.document import Document
    from tabletop_gui.model.engine_thread import EngineThread
    from tabletop_gui.model.new_scenario import start_scenario
    from tabletop_gui.model.recovery import Recovery
    from tabletop_gui.ui.main_window import MainWindow

    scenario, path, problems = None, None, None
    if file is not None:
        from tabletop_gui.scenario.load import ScenarioError, load_scenario

        try:
            scenario, path = load_scenario(file), Path(file)
        except ScenarioError as e:
            problems = [str(p) for p in e.problems]
    document = Document(scenario or start_scenario(ruleset_id), path)
    window = MainWindow(document, QSettings(), EngineThread(), Recovery(document))
    if path is not None:
        window.files.remember(path)
    if file is not None and problems is not None:
        QTimer.singleShot(0, lambda: window.files.show_problems(Path(file), problems))
    if complete:
        after_first_paint(window.view.viewport(), window.install_attack_flow,
                          window.offer_recovery, lambda: preload_kernels(document.scenario),
                          lambda: _warm_file(window, path))
    return window


def _warm_file(window: MainWindow, path: Path | None) -> None:
    """A file given on the command line has its battle built once the window rests, as
    a file opened from the menu does (the first attacker's click finds it built)."""
    if path is not None and window.attack_flow is not None:
        window.attack_flow.warm_soon()


def preload_kernels(scenario: Scenario) -> None:
    """Start loading the compiled loops of the geometry (``geometry.jit.preload``) when the
    board has enough opposing pairs of fighters or units to use them."""
    from collections import Counter

    from tabletop_gui.geometry import jit

    sides = Counter([f.side for f in scenario.fighters] + [u.side for u in scenario.units])
    total = sum(sides.values())
    jit.preload(sum(n * (total - n) for n in sides.values()) // 2)
