"""Benchmark cases of the 2,000-fighter board in the window (issue 17, docs/benchmark.md).

The board is ``warcry_crowd_scenario(2000)``, the one the responsiveness tests open
(tests/gui/test_responsive.py): two Warcry armies of 1,000 fighters in ranks of 50 facing
each other across a 6" gap, a wall and a tower between them. It is open in a window
offscreen (in-process, as ``cases_gui``'s ``load_2000`` and ``gui_frame_N``), fitted to
the window, every label placed and the view painted, before the first timing.

- ``select_2000``: with nothing selected and the window at rest, a click (press and
  release on the view) on a red fighter of the front rank, until the window shows what
  selecting shows: the attacker chosen in the Attack panel, every one of its 1,000
  enemies judged (verdicts, then the full reports) and marked valid or invalid on the
  canvas, the sight lines to the valid ones drawn, the attack's odds published, and the
  view repainted. "Shown" is ``AttackFlow.idle`` (nothing left to compute or draw) with
  no label placement pending, then a synchronous repaint of the viewport. The runs
  cycle through three attackers (the scan of each is new), each time from nothing
  selected (cleared, untimed, before the run).
- ``select_fresh_2000``: the same click on the first of those attackers, on a board just
  opened: before each run (untimed) the document is replaced by a new value of the same
  scenario (as File > Open does: a new snapshot, no marks kept) and the window brought
  to rest (every model drawn and named, nothing selected).
  The click then pays for what the first attacker of a session waits for: the battle and
  its geometry built, the attacker's facts against its 1,000 enemies (its row of the pair
  table: ``BoardGeometry.attacker_rows``), the marks made.
- ``move_2000``: with that front-rank fighter the attacker and the window at rest, the
  enemy facing it is moved 1" (pressed, dragged in one step, released: a "Move" edit
  pushed), until everything the screen shows follows the new position: the attack's
  scan of the new battlefield complete and its marks drawn (``AttackFlow.idle``), every
  label placed again for it, and the viewport repainted. The runs move it 1" one way
  then back.

Each run checks its answer (the attacker chosen, its 1,000 enemies marked, as many sight
lines as valid targets; the edit pushed and the moved fighter's mark drawn where it
stands) and raises if it is wrong, so a case cannot time nothing; it returns a summary
of it. ``longest_gap_ms`` keeps, per case, the longest the event loop was held by one
call in the last run (a click's handling, one ``processEvents``, the repaint): the
longest a user's next click would have waited.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tabletop_gui.bench.cases_gui import crowd_scenario

FIGHTERS = 2000
COLUMNS = 50
ATTACKERS = ("m975", "m974", "m976")  # red, the middle of the front rank
MOVED = "m1025"  # the blue fighter facing m975
STEP_IN = 1.0
TIMEOUT_S = 300.0
_win: dict[str, Any] = {}


def warcry_crowd_scenario(fighters: int = FIGHTERS) -> Any:
    """``fighters`` Warcry fighters (32 mm bases, sword and bow), half a side each, in
    ranks of ``COLUMNS`` facing each other across a 6" gap, all on the table (97" x 98"
    for 2,000), with the benchmark crowd's wall and tower between the armies."""
    crowd = crowd_scenario(2)
    rows = -(-fighters // COLUMNS)
    half = rows // 2
    width, depth = COLUMNS * 1.9 + 2.0, rows * 2.3 + 6.0
    template = crowd.fighters[0]
    models = tuple(
        replace(template, id=f"m{i}", name=f"Model {i}",
                side="red" if i // COLUMNS < half else "blue",
                x=2.0 + (i % COLUMNS) * 1.9,
                y=2.0 + (i // COLUMNS) * 2.3 + (6.0 if i // COLUMNS >= half else 0.0),
                facing=90.0 if i // COLUMNS < half else 270.0)
        for i in range(fighters))
    middle = 2.0 + half * 2.3 + 1.6
    wall = replace(crowd.obstacles[0], polygon=((10, middle), (20, middle),
                                                (20, middle + 0.5), (10, middle + 0.5)))
    tower = replace(crowd.platforms[0], polygon=((40, middle - 2), (46, middle - 2),
                                                 (46, middle + 4), (40, middle + 4)))
    return replace(crowd, name=f"{fighters} fighters",
                   battlefield=replace(crowd.battlefield, width=width, depth=depth),
                   fighters=models, obstacles=(wall,), platforms=(tower,))


class _Loop:
    """Runs the event loop until a condition holds, keeping the longest single call."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.longest = 0.0

    def call(self, fn: Callable[[], object]) -> None:
        t0 = time.perf_counter()
        fn()
        self.longest = max(self.longest, time.perf_counter() - t0)

    def until(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.perf_counter() + TIMEOUT_S
        while not done():
            if time.perf_counter() > deadline:
                raise RuntimeError(f"{what}: not done after {TIMEOUT_S:g} s")
            self.call(self.app.processEvents)
            if not done():
                time.sleep(0.0002)  # the worker thread computes meanwhile


def _setup() -> dict[str, Any]:
    if _win:
        return _win
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QPointF, QSettings, Qt
    from PySide6.QtGui import QMouseEvent

    from tabletop_gui.app import preload_kernels
    from tabletop_gui.model.document import Document
    from tabletop_gui.ui.application import ensure_application
    from tabletop_gui.ui.main_window import MainWindow

    app = ensure_application()
    folder = tempfile.mkdtemp(prefix="tabletop-gui-bench-")
    settings = QSettings(os.path.join(folder, "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(warcry_crowd_scenario()), settings)
    window.resize(1366, 768)
    window.install_attack_flow()
    # as the application does once the window is painted (``app.build_window``): a board
    # of this size starts loading the geometry's compiled loops (the warm-up waits)
    preload_kernels(window.document.scenario)
    window.show()
    vp = window.view.viewport()

    def send(kind: QEvent.Type, at: QPointF, buttons: Qt.MouseButton) -> None:
        left = Qt.MouseButton.LeftButton
        button = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseMove else left
        ev = QMouseEvent(kind, at, vp.mapToGlobal(at), button, buttons,
                         Qt.KeyboardModifier.NoModifier)
        app.sendEvent(vp, ev)

    _win.update(app=app, window=window, flow=window.attack_flow, vp=vp, send=send,
                events=QEvent.Type, left=Qt.MouseButton.LeftButton,
                none=Qt.MouseButton.NoButton, turn=0, step=1.0)
    loop = _Loop(app)
    loop.until(lambda: not window.scene.building, "building the board")
    window.view.fit_to_window()
    _settle(loop)
    return _win


def _at(model_id: str) -> Any:
    """Where ``model_id`` stands on the viewport (pixels)."""
    from PySide6.QtCore import QPointF

    from tabletop_gui.ui.canvas.coords import to_scene

    window = _win["window"]
    m = window.document.scenario.model(model_id)
    return QPointF(window.view.mapFromScene(to_scene(m.x, m.y)))


def _shown(window: Any) -> bool:
    """What the screen shows is up to date with the document: no battlefield being
    mirrored, no label placement pending, and the attack's view published with every
    enemy's verdict marked (``AttackFlow.marked``; the full reports may follow)."""
    flow = window.attack_flow
    return bool(flow.marked and flow.attack.scenario is window.document.scenario
                and not window.scene.building and not window.scene.labels.pending)


def _complete(window: Any) -> bool:
    """Shown, and nothing left to compute or draw: every full report in (``idle``)."""
    return bool(_shown(window) and window.attack_flow.idle)


def _settle(loop: _Loop, done: Callable[[Any], bool] = _complete) -> None:
    window = _win["window"]
    loop.until(lambda: done(window), "settling")
    loop.call(window.view.viewport().repaint)


def _click(model_id: str) -> None:
    f = _win
    at = _at(model_id)
    f["send"](f["events"].MouseButtonPress, at, f["left"])
    f["send"](f["events"].MouseButtonRelease, at, f["none"])


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise RuntimeError(f"wrong answer: {what}")


def _marks(flow: Any) -> tuple[int, int, int]:
    """(enemies marked, marked valid, sight lines drawn)."""
    marks = flow.overlay.of_kind("target")
    return (len(marks), sum(1 for m in marks if m.valid), len(flow.overlay.of_kind("sight")))


def _finish(case: str) -> None:
    """Untimed: wait for the previous run's full reports and check them (as many sight
    lines as valid targets); keep how long they took from the run's start."""
    f = _setup()
    started = f.pop("started", None)
    loop = _Loop(f["app"])
    _settle(loop)
    if started is not None:
        f.setdefault("complete", {}).setdefault(case, []).append(
            1000.0 * (time.perf_counter() - started[1]))
        marked, valid, sight = _marks(f["flow"])
        _check(marked == FIGHTERS // 2 and 0 < valid == sight,
               f"{started[0]}: {marked} enemies marked, {valid} valid, {sight} sight lines")


def prepare_select() -> None:
    """Untimed: the previous run complete, nothing selected, the window at rest."""
    _finish("select_2000")
    window = _win["window"]
    if window.document.selection:
        window.document.set_selection([])
        _settle(_Loop(_win["app"]))


def select() -> tuple[str, int, int]:
    """A click on the next attacker until it is shown (checked): the attacker, its
    enemies marked, how many valid."""
    f = _setup()
    attacker = ATTACKERS[f["turn"] % len(ATTACKERS)]
    f["turn"] += 1
    return _select("select_2000", attacker)


def prepare_select_fresh() -> None:
    """Untimed: the previous run complete, then the board opened anew (a new scenario
    value in the document: a new snapshot, no marks kept) and the window at rest with
    nothing selected."""
    _finish("select_fresh_2000")
    window = _win["window"]
    window.document.replace(warcry_crowd_scenario())
    _settle(_Loop(_win["app"]))


def select_fresh() -> tuple[str, int, int]:
    """The first click on a board just opened (``prepare_select_fresh``), until shown
    (checked as ``select``)."""
    return _select("select_fresh_2000", ATTACKERS[0])


def _select(case: str, attacker: str) -> tuple[str, int, int]:
    f = _setup()
    flow = f["flow"]
    loop = _Loop(f["app"])
    f["started"] = (case, time.perf_counter())
    loop.call(lambda: _click(attacker))
    _settle(loop, _shown)
    f.setdefault("gaps", {}).setdefault(case, []).append(1000.0 * loop.longest)
    marked, valid, _ = _marks(flow)
    panel = flow.attack_panel.attacker_combo
    _check(flow.attack.choice.attacker == attacker, f"{attacker} is not the attacker")
    _check(panel.currentData() == attacker, f"the Attack panel does not show {attacker}")
    _check(marked == len(flow.targets.enemies()) == FIGHTERS // 2,
           f"{marked} enemies marked of {FIGHTERS // 2}")
    _check(valid > 0, "no valid target")
    return attacker, marked, valid


def prepare_move() -> None:
    """Untimed: the previous run complete, the front-rank fighter the attacker, the
    window at rest."""
    _finish("move_2000")
    window, flow = _win["window"], _win["flow"]
    if window.document.selection != (ATTACKERS[0],) \
            or flow.attack.choice.attacker != ATTACKERS[0]:
        window.document.set_selection([ATTACKERS[0]])
        _settle(_Loop(_win["app"]))


def move() -> tuple[str, int, int]:
    """The enemy facing the attacker pressed, dragged 1" in one step and released, until
    the new battlefield is shown (checked): the edit, the moved fighter's mark."""
    f = _setup()
    window, flow, send, ev = f["window"], f["flow"], f["send"], f["events"]
    document = window.document
    before = document.scenario.model(MOVED)
    pushed = document.undo_stack.count()
    start = _at(MOVED)
    from PySide6.QtCore import QPointF

    from tabletop_gui.ui.canvas.coords import to_scene

    step = f["step"]
    f["step"] = -step
    end = QPointF(window.view.mapFromScene(to_scene(before.x + step, before.y)))
    loop = _Loop(f["app"])
    f["started"] = ("move_2000", time.perf_counter())
    loop.call(lambda: send(ev.MouseButtonPress, start, f["left"]))
    loop.call(lambda: send(ev.MouseMove, end, f["left"]))
    loop.call(f["app"].processEvents)  # the drag step shown (a preview)
    loop.call(lambda: send(ev.MouseButtonRelease, end, f["none"]))
    _settle(loop, _shown)
    f.setdefault("gaps", {}).setdefault("move_2000", []).append(1000.0 * loop.longest)
    moved = document.scenario.model(MOVED)
    _check(document.undo_stack.count() == pushed + 1
           and document.undo_stack.undoText().startswith("Move "), "no Move edit pushed")
    _check(abs(moved.x - before.x - step) < 0.2 and moved.y == before.y,
           f"{MOVED} at {moved.x}, {moved.y} from {before.x}, {before.y}")
    marker = flow.overlay.marker(MOVED)
    _check(marker is not None and marker.model is moved, f"{MOVED}'s mark not redrawn")
    marked, valid, _ = _marks(flow)
    _check(marked == FIGHTERS // 2 and valid > 0, f"{marked} enemies marked, {valid} valid")
    return MOVED, marked, valid


def details(case: str) -> dict[str, Any]:
    """Beside the times: the median time until the full reports were in too
    (``complete_ms``), and the longest the event loop was held by one call in a timed
    run (``longest_gap_ms``, the median over the runs)."""
    _finish(case)
    out: dict[str, Any] = {}
    for key, name in (("complete", "complete_ms"), ("gaps", "longest_gap_ms")):
        values = sorted(_win.get(key, {}).pop(case, []))
        if values:
            out[name] = round(values[len(values) // 2], 1)
    return out


def reset() -> None:
    """Close the window (tests)."""
    if _win:
        from tabletop_gui.bench.cases_gui import _close

        _close(_win["window"])
        _win.clear()


CASES: dict[str, tuple[Callable[[], object], Callable[[], object] | None]] = {
    "select_2000": (select, None),
    "select_fresh_2000": (select_fresh, None),
    "move_2000": (move, None),
}
PREPARE = {"select_2000": prepare_select, "select_fresh_2000": prepare_select_fresh,
           "move_2000": prepare_move}
RUNS = {"select_2000": 6, "select_fresh_2000": 5, "move_2000": 10}
QUICK_RUNS = {"select_2000": 3, "select_fresh_2000": 3, "move_2000": 4}
