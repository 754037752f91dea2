"""Benchmark cases of the desktop application (docs/benchmark.md):

- ``gui_frame_N`` (N = 200, 800): the real canvas offscreen with N models and the attack
  overlays on (an attacker chosen, its targets marked): one drag step of a model, that is
  a mouse move on the view's viewport with the button held, the events processed (the live
  overlays included, as the worker's verdicts come in) and the view repainted. 200: the
  crowd of ``crowd_scenario``; 800: the same ranks, 40 abreast (``army_scenario``).
- ``load_2000``: File > Open of a 2,000-model scenario file (``army_scenario(2000)``,
  written once before the timing) in a window already up: read and checked on the
  worker, every model's item made and its label placed, and the view painted with all
  of them.
- ``startup``: ``tabletop-gui`` in a child process (offscreen) until it reports the first
  paint of its window (``TABLETOP_GUI_EXIT_AFTER_PAINT=1``), its modules' bytecode cached
  as after any first launch (``startup_env``).

None has a reference; the answers say the step moved the model, the file's models were
all drawn, and the child painted.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
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


def army_scenario(n: int) -> Any:
    """``n`` fighters in the crowd's ranks (2.3" apart, ranks 4.5" apart), ``20 k``
    abreast for ``k`` about sqrt(n / 200), the first half red facing the blue second half;
    the table grows to hold them (at least 48" x 48"). ``army_scenario(200)`` is
    ``crowd_scenario(200)``."""
    crowd = crowd_scenario(2)
    columns = 20 * max(1, round(math.sqrt(n / 200)))
    half = n // 2
    template = crowd.fighters[0]
    fighters = tuple(
        replace(template, id=f"m{i}", name=f"Model {i}", side="red" if i < half else "blue",
                x=2.0 + (i % columns) * 2.3,
                y=2.0 + (i // columns) * 4.5 + (1.5 if i >= half else 0.0),
                facing=90.0 if i < half else 270.0)
        for i in range(n))
    rows = -(-n // columns)
    field = replace(crowd.battlefield, width=max(48.0, 2.0 + columns * 2.3),
                    depth=max(48.0, 2.0 + rows * 4.5))
    return replace(crowd, fighters=fighters, battlefield=field)


def front_rank_model(n: int) -> str:
    """A red model in the middle of the front rank of ``army_scenario(n)``."""
    columns = 20 * max(1, round(math.sqrt(n / 200)))
    return f"m{(n // 2 // columns - 1) * columns + columns // 2}"


def _setup_frame(n: int = N_MODELS) -> dict[str, Any]:
    if _frame and _frame["n"] == n:
        return _frame
    reset()
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
    scenario = crowd_scenario() if n == N_MODELS else army_scenario(n)
    window = MainWindow(Document(scenario), settings)
    window.resize(1280, 800)
    window.install_attack_flow()
    window.show()
    app.processEvents()
    window.view.fit_to_window()
    dragged = front_rank_model(n)  # "m90" of 200: red, front rank, facing the blue lines
    flow = window.attack_flow
    flow.attack.set_attacker(dragged)
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
    _frame.update(n=n, app=app, window=window, vp=vp, send=send, start=start, step=0,
                  dragged=dragged, move=QEvent.Type.MouseMove, buttons=left, none=none)
    return _frame


def reset() -> None:
    """Close the frame case's window (tests)."""
    if _frame:
        f = _frame
        f["send"](__import__("PySide6.QtCore").QtCore.QEvent.Type.MouseButtonRelease,
                  f["start"].x(), f["start"].y(), f["buttons"], f["none"])
        _close(f["window"])
        _frame.clear()


def _close(window: Any) -> None:
    """Close a case's window, its document left clean (no question asked)."""
    window.document.undo_stack.setClean()
    window.close()
    window.deleteLater()
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _xy(window: Any, model_id: str) -> tuple[float, float]:
    m = window.document.scenario.model(model_id)
    return m.x, m.y


def frame(n: int = N_MODELS) -> bool:
    """One drag step: move, process events (live overlays), repaint the viewport."""
    f = _setup_frame(n)
    f["step"] += 1
    dx = 12.0 if f["step"] % 2 else -12.0
    item = f["window"].scene.item_for(f["dragged"])
    before = item.pos()
    f["send"](f["move"], f["start"].x() + 40 + dx, f["start"].y() + 8, f["none"], f["buttons"])
    f["app"].processEvents()
    f["vp"].repaint()
    return bool(item.pos() != before)


def startup_env() -> dict[str, str]:
    """The child's environment: offscreen, quitting at the first paint, and allowed to
    keep the modules' compiled bytecode (a launch as a player makes it: an installed
    package has it, and the untimed warm-up launch writes it here, even where the
    environment says not to, ``PYTHONDONTWRITEBYTECODE``)."""
    env = dict(os.environ, TABLETOP_GUI_EXIT_AFTER_PAINT="1", QT_QPA_PLATFORM="offscreen")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def startup() -> bool:
    """Seconds from starting ``tabletop-gui`` to its first painted window (a child)."""
    env = startup_env()
    out = subprocess.run([sys.executable, "-m", "tabletop_gui"], env=env, capture_output=True,
                         text=True, timeout=60, check=False)
    from tabletop_gui.app import PAINT_MARKER

    return out.returncode == 0 and PAINT_MARKER in out.stdout


LOAD_MODELS = 2000
_load: dict[str, Any] = {}


def _setup_load() -> dict[str, Any]:
    if _load:
        return _load
    reset()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings

    from tabletop_gui.app import ensure_application
    from tabletop_gui.model.document import Document
    from tabletop_gui.scenario.save import save_scenario
    from tabletop_gui.ui.main_window import MainWindow

    app = ensure_application()
    folder = tempfile.mkdtemp(prefix="tabletop-gui-bench-")
    path = os.path.join(folder, f"army-{LOAD_MODELS}.battle.json")
    save_scenario(army_scenario(LOAD_MODELS), path)
    settings = QSettings(os.path.join(folder, "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(crowd_scenario(2)), settings)
    window.resize(1280, 800)
    window.install_attack_flow()
    window.show()
    app.processEvents()
    state = {"opened": False}

    def opened(_path: str, shown: bool) -> None:
        state["opened"] = shown

    window.files.opened.connect(opened)
    _load.update(app=app, window=window, path=path, state=state)
    return _load


def load() -> int:
    """File > Open of the 2,000-model file until every model is drawn and named (its
    label placed): how many are. (Without the labels, a run left the previous run's
    label placement to be done while the next one waited for its file.)"""
    f = _setup_load()
    app, window, state = f["app"], f["window"], f["state"]
    state["opened"] = False
    if not window.files.open(f["path"]):
        return 0
    deadline = time.perf_counter() + 120.0
    scene = window.scene
    labels = scene.labels
    while not (state["opened"] and not scene.building and not labels.pending) \
            and time.perf_counter() < deadline:
        app.processEvents()
        time.sleep(0.0002)  # the worker thread reads the file meanwhile
    window.view.viewport().repaint()
    return len(scene.model_items()) if state["opened"] else 0


def reset_load() -> None:
    """Close the load case's window (tests)."""
    if _load:
        _close(_load["window"])
        _load.clear()


CASES: dict[str, tuple[Callable[[], object], Callable[[], object] | None]] = {
    "gui_frame_200": (frame, None),
    "gui_frame_800": (lambda: frame(800), None),
    "load_2000": (load, None),
    "startup": (startup, None),
}
RUNS = {"gui_frame_200": 60, "gui_frame_800": 40, "load_2000": 5, "startup": 7}
QUICK_RUNS = {"gui_frame_200": 20, "gui_frame_800": 10, "load_2000": 2, "startup": 3}
