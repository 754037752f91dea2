"""Benchmark cases of the desktop application (docs/benchmark.md):

- ``gui_frame_200``: the real canvas offscreen with 200 models and the attack overlays
  on (an attacker chosen, its targets marked): one drag step of a model, that is a mouse
  move on the view's viewport with the button held, the events processed (the live
  overlays included, as the worker's verdicts come in) and the view repainted.
- ``startup``: ``tabletop-gui`` in a child process (offscreen) until it reports the first
  paint of its window (``TABLETOP_GUI_EXIT_AFTER_PAINT=1``).

Neither has a reference; the answers say the step moved the model and the child painted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

N_MODELS = 200
_frame: dict[str, Any] = {}


def crowd_scenario(n: int = N_MODELS) -> Any:
    """``n`` fighters of two sides in a grid over 48" x 48", with a wall and a platform."""
    from tabletop_gui.scenario.entities import (
        Battlefield,
        Fighter,
        Obstacle,
        Platform,
        RoundBase,
        Scenario,
        Side,
        Weapon,
    )

    sword = Weapon("Sword", {"range": 1, "attacks": 4, "strength": 4, "damage": "1/4"})
    bow = Weapon("Bow", {"range": "3-18", "attacks": 2, "strength": 3, "damage": "1/3"})
    fighters = tuple(
        Fighter(f"m{i}", f"Model {i}", "red" if (i // 20) < 5 else "blue",
                2.0 + (i % 20) * 2.3, 2.0 + (i // 20) * 4.5 + (1.5 if i >= 100 else 0.0),
                RoundBase(32), facing=90.0 if i < 100 else 270.0,
                characteristics={"move": 4, "toughness": 4, "wounds": 15},
                weapons=(sword, bow))
        for i in range(n)
    )
    return Scenario(
        ruleset="warcry", name="Crowd", battlefield=Battlefield(48, 48),
        sides=(Side("red", "Red", "#c0392b"), Side("blue", "Blue", "#2e86c1")),
        fighters=fighters,
        obstacles=(Obstacle("w1", ((10, 23.5), (20, 23.5), (20, 24), (10, 24)), 2.0, "Wall"),),
        platforms=(Platform("p1", ((30, 20), (36, 20), (36, 26), (30, 26)), 3.0, "Tower"),),
    )


def _setup_frame() -> dict[str, Any]:
    if _frame:
        return _frame
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QPointF, QSettings, Qt
    from PySide6.QtGui import QMouseEvent

    from tabletop_gui.model.document import Document
    from tabletop_gui.ui.application import ensure_application
    from tabletop_gui.ui.canvas.coords import to_scene
    from tabletop_gui.ui.main_window import MainWindow

    app = ensure_application()
    folder = tempfile.mkdtemp(prefix="tabletop-gui-bench-")
    settings = QSettings(os.path.join(folder, "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(crowd_scenario()), settings)
    window.resize(1280, 800)
    window.install_attack_flow()
    window.show()
    app.processEvents()
    window.view.fit_to_window()
    dragged = "m90"  # a red model in the front rank, facing the blue lines
    flow = window.attack_flow
    flow.state.set_attacker(dragged)
    deadline = time.perf_counter() + 60.0
    while not flow.idle and time.perf_counter() < deadline:  # every enemy marked (worker)
        app.processEvents()
        time.sleep(0.001)
    vp = window.view.viewport()
    start = window.view.mapFromScene(to_scene(*_xy(window, dragged)))
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton

    def send(kind: QEvent.Type, x: float, y: float, button: Qt.MouseButton,
             buttons: Qt.MouseButton) -> None:
        p = QPointF(x, y)
        ev = QMouseEvent(kind, p, vp.mapToGlobal(p), button, buttons,
                         Qt.KeyboardModifier.NoModifier)
        app.sendEvent(vp, ev)

    send(QEvent.Type.MouseButtonPress, start.x(), start.y(), left, left)
    _frame.update(app=app, window=window, vp=vp, send=send, start=start, step=0,
                  dragged=dragged, move=QEvent.Type.MouseMove, buttons=left, none=none)
    return _frame


def reset() -> None:
    """Close the frame case's window (tests)."""
    if _frame:
        f = _frame
        f["send"](__import__("PySide6.QtCore").QtCore.QEvent.Type.MouseButtonRelease,
                  f["start"].x(), f["start"].y(), f["buttons"], f["none"])
        window = f["window"]
        window.document.undo_stack.setClean()
        window.close()
        window.deleteLater()
        from PySide6.QtCore import QCoreApplication, QEvent

        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        _frame.clear()


def _xy(window: Any, model_id: str) -> tuple[float, float]:
    m = window.document.scenario.model(model_id)
    return m.x, m.y


def frame() -> bool:
    """One drag step: move, process events (live overlays), repaint the viewport."""
    f = _setup_frame()
    f["step"] += 1
    dx = 12.0 if f["step"] % 2 else -12.0
    item = f["window"].scene.item_for(f["dragged"])
    before = item.pos()
    f["send"](f["move"], f["start"].x() + 40 + dx, f["start"].y() + 8, f["none"], f["buttons"])
    f["app"].processEvents()
    f["vp"].repaint()
    return bool(item.pos() != before)


def startup() -> bool:
    """Seconds from starting ``tabletop-gui`` to its first painted window (a child)."""
    env = dict(os.environ, TABLETOP_GUI_EXIT_AFTER_PAINT="1", QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-m", "tabletop_gui"], env=env, capture_output=True,
                         text=True, timeout=60, check=False)
    from tabletop_gui.app import PAINT_MARKER

    return out.returncode == 0 and PAINT_MARKER in out.stdout


CASES: dict[str, tuple[Callable[[], object], Callable[[], object] | None]] = {
    "gui_frame_200": (frame, None),
    "startup": (startup, None),
}
RUNS = {"gui_frame_200": 60, "startup": 7}
QUICK_RUNS = {"gui_frame_200": 20, "startup": 3}
