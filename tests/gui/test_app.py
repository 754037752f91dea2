"""The application entry: first paint marker, a file given on the command line (good or
bad), Duplicate and the snapping switch."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from PySide6.QtWidgets import QMessageBox

from tabletop_gui.app import PAINT_MARKER, build_window, run_app
from tabletop_gui.rules.base import RulesError
from tabletop_gui.scenario.resources import demo_path, load_demo
from tests.gui.factories import skirmish


def _child(tmp_path, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter offscreen with ``args``, its settings and data under
    ``tmp_path``; it must succeed."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               **env)
    out = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    return out


def test_the_app_paints_then_exits_and_writes_nothing(tmp_path):
    out = _child(tmp_path, ["-m", "tabletop_gui", "--ruleset", "circle-of-realms"],
                 TABLETOP_GUI_EXIT_AFTER_PAINT="1")
    assert PAINT_MARKER in out.stdout
    assert not any(p.is_file() for p in tmp_path.rglob("*"))  # no settings, no recovery


# The start in a fresh interpreter, each first import recorded in order, up to the first
# paint; then the modules loaded and that order, as one JSON line.
_FIRST_PAINT = """
import json, sys
order = []

class Watch:
    def find_spec(self, name, path=None, target=None):
        order.append(name)
        return None

sys.meta_path.insert(0, Watch())
from tabletop_gui.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "order": order, "loaded": sorted(sys.modules)}))
"""
# what the first painted window does not show loads later: the importers (File > Import,
# a drop), the package metadata, the attack flow and the sight geometry (installed after
# the first paint), the file writer (autosave, Save), the weapon and vertex tables, and
# numpy and shapely (a shipped demo's polygons are not checked at start: its tests do)
NOT_BEFORE_THE_FIRST_PAINT = (
    "tabletop_gui.importers", "importlib.metadata", "tabletop_gui.ui.attack_flow",
    "tabletop_gui.geometry.board_geometry", "tabletop_gui.scenario.save",
    "tabletop_gui.ui.inspector_tables", "numpy", "shapely")


def _first_paint(tmp_path, *args: str) -> dict:
    out = _child(tmp_path, ["-c", _FIRST_PAINT, *args], TABLETOP_GUI_EXIT_AFTER_PAINT="1")
    assert PAINT_MARKER in out.stdout
    start = json.loads(out.stdout.splitlines()[-1])
    assert start["code"] == 0
    assert "shiboken6" in start["order"]
    return start


def test_the_first_paint_loads_only_what_it_shows(tmp_path):
    start = _first_paint(tmp_path)
    early = [m for m in start["loaded"]
             if any(m == n or m.startswith(n + ".") for n in NOT_BEFORE_THE_FIRST_PAINT)]
    assert early == []
    # the Qt-free scenario reader comes before PySide6 (its bindings, shiboken6), whose
    # import hook would otherwise read the source of each of its modules
    order = start["order"]
    assert order.index("tabletop_gui.scenario.load") < order.index("shiboken6")


def test_a_file_given_loads_numpy_and_shapely_before_qt(tmp_path):
    """A file's polygons are checked before its first paint: numpy and shapely then load
    before PySide6's import hook is installed (see above)."""
    order = _first_paint(tmp_path, str(demo_path("warcry")))["order"]
    for first in ("tabletop_gui.scenario.load", "numpy", "shapely"):
        assert order.index(first) < order.index("shiboken6"), first


def test_run_app_refuses_an_unknown_ruleset_before_qt_starts():
    with pytest.raises(RulesError, match="chess"):
        run_app(None, "chess")


def test_build_window_on_a_file_and_on_a_bad_file(qtbot, monkeypatch, tmp_path):
    w = build_window(str(demo_path("ninth-age")), "warcry")
    qtbot.addWidget(w)
    assert w.document.scenario == load_demo("ninth-age")
    assert w.files.recent_files() == [str(demo_path("ninth-age"))]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "nope"}))
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    w2 = build_window(str(bad), "warcry")
    qtbot.addWidget(w2)
    assert w2.document.scenario == load_demo("warcry")  # the start battlefield stays open
    qtbot.waitUntil(lambda: bool(shown))
    assert "format" in shown[0]


def test_duplicate_and_snap_switch(make_window, qtbot):
    w = make_window(skirmish())
    w.document.set_selection(["f1", "w1"])
    dup = next(a for a in w.menuBar().actions()[1].menu().actions() if "uplicate" in a.text())
    dup.trigger()
    s = w.document.scenario
    assert len(s.fighters) == 5 and len(s.obstacles) == 3
    new_f = s.fighters[-1]
    assert (new_f.x, new_f.y, new_f.name) == (7.0, 4.5, "Iron Sentinel")
    assert w.document.selection == (new_f.id, s.obstacles[-1].id)
    w.toolbox.snap_action.trigger()
    assert not any(t.snapping for t in w.toolbox.tools)


def test_build_window_passes_the_collaborators_in_and_completes_after_the_first_paint(
        qtbot, monkeypatch, tmp_path):
    from tabletop_gui.model import recovery as recovery_module

    monkeypatch.setattr(recovery_module, "default_folder", lambda: tmp_path / "recovery")
    w = build_window(str(demo_path("warcry")), "warcry")
    qtbot.addWidget(w)
    # made by build_window and handed over: the worker is the window's from then on
    assert w.worker.parent() is w and w.recovery.document is w.document
    assert w.recovery.folder == tmp_path / "recovery"
    assert w.attack_flow is None and not w.recovery.enabled  # nothing before a paint
    with qtbot.waitExposed(w):
        w.show()
    # painted: the attack flow is installed, then the unsaved work offered (none here)
    qtbot.waitUntil(lambda: w.attack_flow is not None and w.recovery.enabled)
    assert "Attack" in w.docks and "Log" in w.docks


def test_a_measured_start_installs_nothing_after_the_paint(qtbot):
    from PySide6.QtCore import QTimer

    from tabletop_gui.app import after_first_paint

    w = build_window(None, "warcry", complete=False)
    qtbot.addWidget(w)
    later: list[bool] = []  # two turns after the first paint: anything deferred has run
    after_first_paint(w.view.viewport(), lambda: QTimer.singleShot(0, lambda: later.append(True)))
    w.show()
    qtbot.waitUntil(lambda: bool(later))
    assert w.attack_flow is None and not w.recovery.enabled

_DARK_START = """
import json
from PySide6.QtGui import QColor, QPalette
from tabletop_gui.ui import icons
from tabletop_gui.ui.theme import is_dark

drawn = []
plain = icons.icon

def counted(name, color="#202020"):
    drawn.append([name, QColor(color).name()])
    return plain(name, color)

icons.icon = counted
from tabletop_gui.app import build_window
from tabletop_gui.ui.application import ensure_application

app = ensure_application()
window = build_window(None, "warcry", complete=False)
window.leave_settings_alone()
window.show()
app.processEvents()
ink = window.palette().color(QPalette.ColorRole.WindowText).name()
print(json.dumps({"drawn": drawn, "dark": is_dark(window.palette()), "ink": ink}))
"""


def test_a_dark_start_draws_each_toolbar_icon_once(tmp_path):
    """The window follows a dark scheme before it is made: the toolbar's icons are drawn
    once, in the light ink, not first in the dark one and then again."""
    out = _child(tmp_path, ["-c", _DARK_START], TABLETOP_GUI_THEME="dark")
    start = json.loads(out.stdout.splitlines()[-1])
    assert start["dark"]
    names = [name for name, _ in start["drawn"]]
    assert "table_view" in names and "select" in names
    assert len(names) == len(set(names)), names
    assert {ink for _, ink in start["drawn"]} == {start["ink"]}


def test_a_big_board_starts_loading_the_compiled_loops_after_the_first_paint(
        qtbot, monkeypatch, tmp_path):
    """``preload_kernels`` asks ``geometry.jit.preload`` for the board's opposing pairs
    (a 200-fighter board: 100 x 100; the demo: too few to load anything); the window asks
    once it has been painted, not before."""
    from tabletop_gui import app as app_module
    from tabletop_gui.bench.cases_gui import crowd_scenario
    from tabletop_gui.geometry import jit
    from tabletop_gui.model import recovery as recovery_module

    sizes: list[int] = []
    monkeypatch.setattr(jit, "preload", sizes.append)
    app_module.preload_kernels(crowd_scenario(200))
    assert sizes == [100 * 100]
    app_module.preload_kernels(load_demo("warcry"))
    assert 0 < sizes[-1] < jit.EARLY_FROM
    monkeypatch.setattr(recovery_module, "default_folder", lambda: tmp_path / "recovery")
    w = build_window(str(demo_path("warcry")), "warcry")
    qtbot.addWidget(w)
    assert len(sizes) == 2  # nothing before a paint
    with qtbot.waitExposed(w):
        w.show()
    qtbot.waitUntil(lambda: len(sizes) == 3)
    assert sizes[-1] == sizes[-2]
