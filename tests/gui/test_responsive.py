"""Issue 12.7: the worst files keep the window responsive. A Warcry battlefield of 2,000
fighters and a Ninth Age battlefield of 156 units are opened through File > Open, an
attacker is selected on the canvas and a model is dragged, while an event-loop watchdog
(tests/gui/watchdog.py) records every gap between two turns of the loop.

The bound: the issue's 100 ms for the event loop's own work (the CPU time its thread
spends between two turns: our slots, slices and paints), and 250 ms by the wall clock,
which also counts the waits this 2-core machine imposes when other programs run (the
CPU) and the waits for the interpreter lock held by our worker thread; a loop held by the
worker, or by a full garbage collection, shows there. Unloaded, the gaps stay near 60 ms.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from tabletop_gui.ui.canvas.coords import to_scene
from tests.gui.attack_support import demo, make_window, settle
from tests.gui.events import click, move_mouse, press, release
from tests.gui.large_files import ninth_age_host, warcry_crowd

OWN_WORK_MS = 100  # the bound, on what the event loop itself does
WALL_MS = 250  # the same gaps by the wall clock, on a shared 2-core machine


def _open_through_the_menu(qtbot, window, path: Path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    with qtbot.waitSignal(window.files.opened, timeout=60000) as opened:
        window.files.open_action.trigger()
    assert opened.args == [str(path), True]
    qtbot.waitUntil(lambda: not window.scene.building, timeout=60000)
    window.view.fit_to_window()


def _at(window, model_id: str):  # noqa: ANN001, ANN202
    m = window.document.scenario.model(model_id)
    return window.view.mapFromScene(to_scene(m.x, m.y))


def _drag(qtbot, window, flow, model_id: str, dx: float, steps: int = 6) -> None:  # noqa: ANN001
    """Drag ``model_id`` by ``dx`` inches in steps, each shown (a preview) before the
    next; the edit is pushed on release."""
    vp = window.view.viewport()
    start = _at(window, model_id)
    end = window.view.mapFromScene(to_scene(window.document.scenario.model(model_id).x + dx,
                                            window.document.scenario.model(model_id).y))
    press(vp, start)
    for k in range(1, steps + 1):
        shown = flow.state.scenario
        move_mouse(vp, start + (end - start) * (k / steps), Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda s=shown: flow.state.scenario is not s, timeout=10000)
    release(vp, end)


def _check(watchdog) -> None:  # noqa: ANN001
    busiest, longest = watchdog.busiest(), watchdog.longest()
    print(f"event-loop gaps: {watchdog.summary()}")
    assert busiest.busy_ms <= OWN_WORK_MS, f"the event loop worked {busiest}"
    assert longest.wall_ms <= WALL_MS, f"the event loop was held {longest}"


def test_a_warcry_battlefield_of_2000_fighters(qtbot, tmp_path, monkeypatch, watchdog):
    path = warcry_crowd(tmp_path / "crowd.battle.json", 2000)
    window, flow = make_window(qtbot, demo("warcry"), tmp_path)
    with watchdog.watching("open"):
        _open_through_the_menu(qtbot, window, path, monkeypatch)
    assert len(window.document.scenario.models) == 2000
    assert len(window.scene.model_items()) == 2000

    with watchdog.watching("select"):
        click(window.view.viewport(), _at(window, "m90"))  # a red fighter, front rank
        assert flow.state.attacker == "m90"
        settle(qtbot, flow, timeout=120000)
    blue = [m for m in window.document.scenario.models if m.side == "blue"]
    assert len(flow.overlay.of_kind("target")) == len(blue) == 1900  # every enemy marked
    assert flow.state.scan.complete

    with watchdog.watching("move"):
        _drag(qtbot, window, flow, "m110", 3.0)  # a blue fighter facing it
        settle(qtbot, flow, timeout=120000)
    assert window.document.undo_stack.undoText().startswith("Move ")
    moved = window.document.scenario.model("m110")
    assert flow.state.scenario is window.document.scenario
    assert flow.overlay.marker("m110").model is moved  # redrawn where it stands now
    _check(watchdog)


def test_a_ninth_age_battlefield_of_156_units(qtbot, tmp_path, monkeypatch, watchdog):
    """Judging all 78 enemies takes the engine tens of seconds here (issue 12 measured 28 s
    for this selection); the scan is followed for a part of it, then superseded by a drag,
    which starts it again on the new position."""
    path = ninth_age_host(tmp_path / "host.battle.json", 26)
    window, flow = make_window(qtbot, demo("warcry"), tmp_path)
    with watchdog.watching("open"):
        _open_through_the_menu(qtbot, window, path, monkeypatch)
    assert len(window.document.scenario.models) == 156

    scan = flow.state.scan
    with watchdog.watching("select"):
        click(window.view.viewport(), _at(window, "u2_0"))  # crossbowmen of the crown
        assert flow.state.attacker == "u2_0"
        qtbot.waitUntil(lambda: scan.progress()[0] >= 4, timeout=120000)
        qtbot.waitUntil(window.busy.isVisible)  # the status bar shows how far it is
    assert window.busy.label.text().startswith("Judging the targets of Crown Crossbowmen 0")
    first = scan.plan

    with watchdog.watching("move"):
        _drag(qtbot, window, flow, "u4_0", 3.0, steps=3)  # great axes of the ember clans
        qtbot.waitUntil(lambda: scan.plan is not first and scan.plan.scenario
                        is window.document.scenario and scan.progress()[0] >= 4,
                        timeout=120000)
    assert window.document.undo_stack.undoText().startswith("Move ")
    _check(watchdog)
