"""Issue 12.7: the worst files keep the window responsive. A Warcry battlefield of 2,000
fighters and a Ninth Age battlefield of 156 units are opened through File > Open, an
attacker is selected on the canvas and a model is dragged, while an event-loop watchdog
(tests/gui/watchdog.py) records every gap between two turns of the loop.

What a test can state on any machine is that the window never freezes: no gap reaches
``FREEZE_MS`` by the wall clock, whatever else the machine runs (on a quiet 2-core machine
the longest gaps here are 50-130 ms; on one loaded by other programs, up to about 300 ms).
How responsive the window is (the event loop's own work against the issue's 100 ms) is a
speed, measured by the benchmark, not by a test.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QFileDialog, QWidget

from tabletop_gui.bench.cases_gui import crowd_scenario
from tabletop_gui.ui.canvas.coords import to_scene
from tests.gui.attack_support import DEMOS, demo, make_window, select_attacker, settle
from tests.gui.events import click, move_mouse, press, release
from tests.gui.large_files import ninth_age_host, warcry_crowd

FREEZE_MS = 1000  # a window that does not answer for a second is frozen


def _open_through_the_menu(qtbot, window, path: Path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    with qtbot.waitSignal(window.files.opened, timeout=60000) as opened:
        window.files.open_action.trigger()
    assert opened.args == [str(path), True]
    qtbot.waitUntil(lambda: not window.scene.building, timeout=60000)
    window.view.fit_to_window()


class _Shown(QObject):
    """Keeps the text the busy indicator shows each time it appears: a scan that ends
    between two polls of a test has still been shown while it ran."""

    def __init__(self, busy: QWidget) -> None:
        super().__init__(busy)
        self.busy = busy
        self.texts: list[str] = []
        busy.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.busy and event.type() == QEvent.Type.Show:
            self.texts.append(self.busy.label.text())
        return False


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
        shown = flow.attack.scenario
        move_mouse(vp, start + (end - start) * (k / steps), Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda s=shown: flow.attack.scenario is not s, timeout=10000)
    release(vp, end)


def _check(watchdog) -> None:  # noqa: ANN001
    longest = watchdog.longest()
    print(f"event-loop gaps: {watchdog.summary()}")
    assert longest.wall_ms < FREEZE_MS, f"the window froze: {longest}"


def test_a_warcry_battlefield_of_2000_fighters(qtbot, tmp_path, monkeypatch, watchdog):
    path = warcry_crowd(tmp_path / "crowd.battle.json", 2000)
    window, flow = make_window(qtbot, demo("warcry"), tmp_path)
    with watchdog.watching("open"):
        _open_through_the_menu(qtbot, window, path, monkeypatch)
    assert len(window.document.scenario.models) == 2000
    assert len(window.scene.model_items()) == 2000

    with watchdog.watching("select"):
        click(window.view.viewport(), _at(window, "m975"))  # red, mid front rank
        assert flow.attack.choice.attacker == "m975"
        settle(qtbot, flow, timeout=120000)
    blue = [m for m in window.document.scenario.models if m.side == "blue"]
    assert len(flow.overlay.of_kind("target")) == len(blue) == 1000  # every enemy marked
    assert flow.targets.scan.complete

    with watchdog.watching("move"):
        _drag(qtbot, window, flow, "m1025", 3.0)  # the blue fighter facing it
        settle(qtbot, flow, timeout=120000)
    assert window.document.undo_stack.undoText().startswith("Move ")
    moved = window.document.scenario.model("m1025")
    assert flow.attack.scenario is window.document.scenario
    assert flow.overlay.marker("m1025").model is moved  # redrawn where it stands now
    _check(watchdog)


def test_a_ninth_age_battlefield_of_156_units(qtbot, tmp_path, monkeypatch, watchdog):
    """Judging all 78 enemies and reporting on each takes the engine seconds here (issue 12
    measured 28 s for this selection); the scan is followed for a part of it, then
    superseded by a drag, which starts it again on the new position."""
    path = ninth_age_host(tmp_path / "host.battle.json", 26)
    window, flow = make_window(qtbot, demo("warcry"), tmp_path)
    with watchdog.watching("open"):
        _open_through_the_menu(qtbot, window, path, monkeypatch)
    assert len(window.document.scenario.models) == 156

    scan = flow.targets.scan
    shown = _Shown(window.busy)
    with watchdog.watching("select"):
        click(window.view.viewport(), _at(window, "u2_0"))  # crossbowmen of the crown
        assert flow.attack.choice.attacker == "u2_0"
        qtbot.waitUntil(lambda: scan.progress()[0] >= 4, timeout=120000)
        # the status bar shows how far it is (the scan takes over a second here; it may
        # end before the test looks again, but it was shown while it ran)
        qtbot.waitUntil(lambda: bool(shown.texts))
    # judging the verdicts, or (once they are all known: quick since issue 17) checking
    # the full reports: either way the scan of this attacker, with how far it is
    assert re.match(r"(Judging|Checking) the targets of Crown Crossbowmen 0 \d+/78$",
                    shown.texts[0])
    first = scan.plan

    with watchdog.watching("move"):
        _drag(qtbot, window, flow, "u4_0", 3.0, steps=3)  # great axes of the ember clans
        qtbot.waitUntil(lambda: scan.plan is not first and scan.plan.scenario
                        is window.document.scenario and scan.progress()[0] >= 4,
                        timeout=120000)
    assert window.document.undo_stack.undoText().startswith("Move ")
    _check(watchdog)


def test_the_open_battlefield_stays_until_the_next_one_is_read(qtbot, tmp_path):
    """File > Open returns at once; the battlefield open now stays, and takes edits,
    until the new file is read and checked; a second Open supersedes the first."""
    big = warcry_crowd(tmp_path / "crowd.battle.json", 2000)
    small = tmp_path / "small.battle.json"
    small.write_text((DEMOS / "ninth-age.battle.json").read_text())
    window, flow = make_window(qtbot, demo("warcry"), tmp_path)
    shown: list[tuple[str, bool]] = []
    window.files.opened.connect(lambda path, ok: shown.append((path, ok)))
    assert window.files.open(str(big))
    assert window.files.opening == str(big) and window.document.path is None
    f = window.document.scenario.models[0]
    window.document.edit("Move", window.document.scenario.with_entity(f.moved_to(1, 1)))
    assert window.document.scenario.models[0].x == 1  # the window works meanwhile
    with qtbot.waitSignal(window.files.opened, timeout=60000):
        assert window.files.open(str(small))
    assert shown == [(str(small), True)]  # the first Open never replaced anything
    assert window.document.path == small and window.document.scenario.ruleset == "ninth-age"
    assert window.files.opening is None


def test_a_large_battlefield_is_mirrored_in_slices(qtbot, tmp_path):
    window, _ = make_window(qtbot, demo("warcry"), tmp_path)
    crowd = crowd_scenario(2000)
    with qtbot.waitSignal(window.scene.built, timeout=60000):
        window.document.replace(crowd)
        assert window.scene.building and len(window.scene.model_items()) == 0
    assert {i.entity_id for i in window.scene.model_items()} == {m.id for m in crowd.models}


def test_marks_are_drawn_in_slices_within_a_budget(qtbot, tmp_path):
    window, flow = make_window(qtbot, crowd_scenario(400), tmp_path)
    select_attacker(qtbot, flow, "m90")
    enemies = len(flow.targets.enemies())
    flow.overlay.clear()
    calls = 0
    while not flow.overlay.update(flow.attack.current_view, flow.attack.scenario,
                                  flow.targets, budget_s=0.002):
        calls += 1
        drawn, wanted = flow.overlay.progress
        assert drawn < wanted
    assert calls > 1 and len(flow.overlay.of_kind("target")) == enemies


def test_the_status_bar_shows_long_work_only(qtbot):
    from tabletop_gui.ui.busy import SHOW_AFTER_MS, BusyIndicator

    busy = BusyIndicator()
    qtbot.addWidget(busy)
    busy.report("quick", "Opening a small file")
    busy.finish("quick")
    with qtbot.assertNotEmitted(busy.bar.valueChanged, wait=SHOW_AFTER_MS + 100):
        pass
    assert not busy.isVisible()
    busy.report("long", "Judging the targets of Archer", 3, 78)
    qtbot.waitUntil(busy.isVisible)
    assert busy.label.text() == "Judging the targets of Archer 3/78"
    assert (busy.bar.value(), busy.bar.maximum()) == (3, 78)
    busy.finish("long")
    assert not busy.isVisible()


def test_the_window_freezes_its_long_lived_objects_and_releases_them(qtbot, tmp_path):
    """After work the survivors are frozen out of the collector's walks (model/heap.py);
    a closed window gives them back."""
    import gc

    gc.unfreeze()
    window, flow = make_window(qtbot, demo("warcry"), tmp_path)
    qtbot.waitUntil(lambda: gc.get_freeze_count() > 0, timeout=5000)
    window.close()
    assert gc.get_freeze_count() == 0


def test_the_heap_is_settled_when_quiet_not_while_the_worker_works(qtbot, tmp_path):
    """The heap is settled (a collection, then a freeze) once the worker has been quiet
    for a while: work that starts meanwhile (the next click's scan) puts it off until
    after that work, instead of collecting in its middle (issue 17)."""
    window, flow = make_window(qtbot, demo("warcry"), tmp_path)
    window._worker_busy(False)
    assert window._settle.isActive()
    window._worker_busy(True)
    assert not window._settle.isActive() and window._settle_busy.isActive()
    window._worker_busy(False)
    assert window._settle.isActive() and not window._settle_busy.isActive()


def test_the_heap_is_settled_when_a_scan_is_finished(qtbot, tmp_path, monkeypatch):
    """A target scan complete is work over: the heap is settled then (its full reports
    are long-lived until the next edit), not only once the worker has been quiet for a
    while, which the next click may beat (its collections would walk the reports)."""
    from tabletop_gui.model import heap

    window, flow = make_window(qtbot, demo("warcry"), tmp_path)
    settled: list[bool] = []
    monkeypatch.setattr(heap, "settle", lambda: settled.append(flow.targets.scan.complete))
    for quiet in (window._settle, window._settle_busy):  # the quiet timers out of the way
        quiet.stop()
        quiet.setInterval(10**8)
    attacker = next(m.id for m in window.document.scenario.models if m.side == "red")
    with qtbot.waitSignal(flow.scan_finished, timeout=20000):
        window.document.set_selection([attacker])
    assert settled == [True]
