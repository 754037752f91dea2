"""Importing in the GUI: File ▸ Import…, files dropped on the window, the summary, one
undoable edit, a refusal that changes nothing, another ruleset's files as a new
battlefield, the map's picture under the grid (dimmable), Library ▸ Load fighter data…"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QRectF, Qt, QUrl
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QImage, QPainter
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from tabletop_gui.model.new_scenario import empty_scenario
from tabletop_gui.scenario.entities import RoundBase
from tabletop_gui.ui.canvas.board_items import DIMMED_OPACITY, TABLE
from tabletop_gui.ui.canvas.coords import INCH
from tests.gui.factories import skirmish

DATA = Path(__file__).resolve().parents[1] / "data" / "import"
ASHEN = str(DATA / "warcry-ashen-wardens.ros")
GLOOM = str(DATA / "warcry-gloom-stalkers.json")
MAP = str(DATA / "map-crypt.dd2vtt")
RIVER = str(DATA / "ninth-age-river-guard.rosz")


@pytest.fixture(autouse=True)
def _own_data_folder(monkeypatch, tmp_path):
    """Fighter data is kept in the user's data folder: here, this test's own."""
    from tabletop_gui.model import recovery

    monkeypatch.setattr(recovery, "default_folder", lambda: tmp_path / "data")


def _choose(monkeypatch, paths):
    asked = []

    def pick(*a, **k):
        asked.append(a[1])
        return list(paths), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", pick)
    return asked


def _capture(monkeypatch, name):
    told: list[str] = []
    monkeypatch.setattr(QMessageBox, name, lambda *a, **k: told.append(a[2]))
    return told


def test_file_import_is_one_undoable_edit_with_a_summary(make_window, monkeypatch, qtbot):
    w = make_window(empty_scenario("warcry"))
    before = w.document.scenario
    asked = _choose(monkeypatch, [ASHEN, GLOOM])
    w.files.import_action.trigger()
    assert asked == ["Import rosters, maps, table positions"]
    s = w.document.scenario
    assert [x.name for x in s.sides] == ["Ashen Wardens", "Gloom Stalkers"]
    assert len(s.fighters) == 7 and s.fighters[4].name == "Ember"
    assert w.document.undo_stack.count() == 1
    assert w.document.undo_stack.undoText() == \
        "Import warcry-ashen-wardens.ros, warcry-gloom-stalkers.json"
    summary = w.imports.summary
    qtbot.waitUntil(lambda: summary.isVisible())
    assert "7 fighters, 0 units, 0 walls and obstacles" in summary.text
    assert "New sides: Ashen Wardens, Gloom Stalkers" in summary.text
    assert len(summary.warnings) == 8 and all(
        w_.startswith(str(DATA)) for w_ in summary.warnings)
    assert sum("32 mm round assumed" in x for x in summary.warnings) == 6
    assert len(w.scene.model_items()) == 7
    w.undo_action.trigger()
    assert w.document.scenario == before and not w.scene.model_items()
    w.redo_action.trigger()
    assert w.document.scenario == s


def test_dropped_map_becomes_walls_and_a_background_drawn_under_the_grid(make_window, qtbot):
    w = make_window(empty_scenario("warcry"))
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(MAP)])
    enter = QDragEnterEvent(QPoint(50, 50), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(w, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(w, drop)
    s = w.document.scenario
    assert (s.battlefield.width, s.battlefield.depth) == (24, 16)
    assert len(s.obstacles) == 9 and s.battlefield.background is not None
    board = w.scene.board_item
    assert board.picture() is not None and board.picture().size().toTuple() == (96, 64)

    def colour_at(x: float, y: float) -> QColor:
        """The scene painted around a table point (between grid lines), as one pixel."""
        image = QImage(1, 1, QImage.Format.Format_RGB32)
        painter = QPainter(image)
        w.scene.render(painter, QRectF(0, 0, 1, 1),
                       QRectF(x * INCH - 0.5, -y * INCH - 0.5, 1, 1))
        painter.end()
        return image.pixelColor(0, 0)

    dark = (90, 84, 76)  # the picture's room: map cell (6.5, 5.5) is table (6.5, 10.5)
    c = colour_at(6.5, 10.5)
    assert (c.red(), c.green(), c.blue()) == pytest.approx(dark, abs=3)
    w.dim_background_action.setChecked(True)
    c = colour_at(6.5, 10.5)
    table = (TABLE.red(), TABLE.green(), TABLE.blue())
    dimmed = [DIMMED_OPACITY * d + (1 - DIMMED_OPACITY) * t for d, t in zip(dark, table,
                                                                            strict=True)]
    assert (c.red(), c.green(), c.blue()) == pytest.approx(dimmed, abs=4)
    w.undo_action.trigger()  # the battlefield and its picture go back too
    assert w.document.scenario.battlefield.background is None
    assert w.scene.board_item.picture() is None


def test_a_refused_import_changes_nothing_and_says_why(make_window, monkeypatch, tmp_path):
    w = make_window(skirmish())
    before = w.document.scenario
    bad = tmp_path / "bad.ros"
    bad.write_text('<roster xmlns="http://example.com/x"/>', encoding="utf-8")
    told = _capture(monkeypatch, "warning")
    _choose(monkeypatch, [str(bad)])
    assert w.imports.ask_and_import() is False
    assert w.document.scenario is before and w.document.undo_stack.count() == 0
    assert len(told) == 1 and "Nothing was imported" in told[0]
    assert f"{bad}: line 1: not a BattleScribe roster" in told[0]


def test_another_rulesets_files_become_a_new_battlefield_when_asked(make_window, monkeypatch):
    w = make_window(skirmish())
    asked = []

    def question(*a, **k):
        asked.append(a[2])
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    assert w.imports.import_paths([RIVER]) is True
    assert asked and "The open battlefield plays Warcry" in asked[0]
    s = w.document.scenario
    assert s.ruleset == "ninth-age" and len(s.units) == 4
    assert [x.name for x in s.sides] == ["River Guard", "Blue"]
    w.undo_action.trigger()
    assert w.document.scenario == empty_scenario("ninth-age")


def test_load_fighter_data_fills_the_library_and_gives_base_sizes(make_window, monkeypatch,
                                                                  tmp_path):
    w = make_window(empty_scenario("warcry"))
    told = _capture(monkeypatch, "information")
    _choose(monkeypatch, [str(DATA / "warcry-fighters.json"), str(DATA / "warcry-bases.json")])
    w.load_fighter_data_action.trigger()
    assert told == ["Kept in the library:\nwarcry-fighters.json: 3 fighters of 2 warbands\n"
                    "warcry-bases.json: 5 base sizes"]
    panel = w.library_panel
    labels = [panel._names.stringList()[i] for i in range(len(panel.profiles))]
    assert "Warden Captain (Ashen Wardens)" in labels
    panel.search.setText("gloom")
    assert panel._filter.rowCount() == 1
    assert panel.pick("Stalker Chief")
    assert panel.current_profile().name == "Stalker Chief"
    assert w.imports.import_paths([ASHEN]) is True
    assert w.document.scenario.fighters[0].base == RoundBase(40.0)
    assert (tmp_path / "data" / "fighter-library" / "warcry-bases.json").exists()
