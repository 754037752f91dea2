"""Each canvas tool driven with real mouse and key events on the view's viewport."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QInputDialog

from tabletop_gui.ui.canvas.coords import to_scene
from tabletop_gui.ui.canvas.tools.add import AddTool
from tabletop_gui.ui.canvas.tools.delete import DeleteTool
from tabletop_gui.ui.canvas.tools.draw import DrawObstacleTool, DrawPlatformTool
from tabletop_gui.ui.canvas.tools.measure import MeasureTool
from tabletop_gui.ui.canvas.tools.select import SelectTool
from tests.gui.events import click, double_click, drag, move_mouse, press, release
from tests.gui.factories import hexes, skirmish


def vp_point(w, x: float, y: float) -> QPoint:
    return w.view.mapFromScene(to_scene(x, y))


def use(w, cls):
    tool = w.toolbox.tool(cls)
    w.toolbox.activate(tool)
    return tool


@pytest.fixture
def win(make_window):
    w = make_window(skirmish())
    w.view.setFocus()
    return w


def test_click_selects_and_drag_moves_in_one_step(win, qtbot):
    vp, doc = win.view.viewport(), win.document
    click(vp, vp_point(win, 6, 4.5))
    assert doc.selection == ("f1",)
    assert win.roster_panel.selectionModel().selectedRows()[0].row() == win.roster_panel.roster \
        .row_of("f1")
    moves: list[bool] = []
    doc.preview_changed.connect(lambda: moves.append(doc.previewing))
    drag(vp, vp_point(win, 6, 4.5), vp_point(win, 9, 7), steps=8)
    f1 = doc.scenario.model("f1")
    assert (f1.x, f1.y) == pytest.approx((9, 7), abs=0.11)
    assert round(f1.x * 10) == pytest.approx(f1.x * 10)  # snapped to 0.1"
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Move Iron Sentinel"
    assert moves == [True] * 8  # live previews while dragging, one edit on release
    assert not doc.previewing and doc.snapshot.scenario is doc.scenario
    item = win.scene.item_for("f1")
    assert item.pos() == to_scene(f1.x, f1.y)
    win.undo_action.trigger()
    assert doc.scenario.model("f1").x == 6 and item.pos() == to_scene(6, 4.5)


def test_models_cannot_be_dragged_off_the_battlefield(win):
    vp, doc = win.view.viewport(), win.document
    drag(vp, vp_point(win, 6, 4.5), vp_point(win, -0.8, 4.5))
    f1 = doc.scenario.model("f1")
    assert f1.x == pytest.approx(16 / 25.4, abs=1e-6)  # its base's edge on the table's edge


def test_rubber_band_selects_what_it_touches(win):
    vp, doc = win.view.viewport(), win.document
    drag(vp, vp_point(win, 4, 2), vp_point(win, 15, 9.5))
    assert set(doc.selection) == {"f1", "f2", "w1"}
    click(vp, vp_point(win, 28, 1))  # empty: clears
    assert doc.selection == ()


def test_shift_click_adds_to_selection(win):
    vp, doc = win.view.viewport(), win.document
    click(vp, vp_point(win, 6, 4.5))
    click(vp, vp_point(win, 20, 15), Qt.KeyboardModifier.ShiftModifier)
    assert doc.selection == ("f1", "f3")


def test_rotate_with_the_handle(win):
    vp, doc = win.view.viewport(), win.document
    click(vp, vp_point(win, 6, 4.5))
    handle = win.view.mapFromScene(win.scene.item_for("f1").rotate_handle_pos())
    drag(vp, handle, vp_point(win, 10, 4.5))
    assert doc.scenario.model("f1").facing == 0
    assert doc.undo_stack.undoText() == "Rotate Iron Sentinel"


def test_a_rotate_drag_previews_the_facing_in_the_document_snapshot(win):
    vp, doc = win.view.viewport(), win.document
    click(vp, vp_point(win, 6, 4.5))
    before = doc.scenario.model("f1").facing
    handle = win.view.mapFromScene(win.scene.item_for("f1").rotate_handle_pos())
    press(vp, handle)
    move_mouse(vp, vp_point(win, 8, 4.5), Qt.MouseButton.LeftButton)
    move_mouse(vp, vp_point(win, 10, 4.5), Qt.MouseButton.LeftButton)
    assert doc.previewing and doc.scenario.model("f1").facing == before  # no edit yet
    assert doc.snapshot.scenario.model("f1").facing == pytest.approx(0.0, abs=1e-9)
    assert doc.snapshot.battle.board.body("f1").footprint.facing == pytest.approx(0.0,
                                                                                  abs=1e-9)
    release(vp, vp_point(win, 10, 4.5))
    assert not doc.previewing and doc.scenario.model("f1").facing == 0
    assert doc.snapshot.battle.board.body("f1").footprint.facing == 0


def test_escape_during_a_drag_ends_the_preview(win, qtbot):
    vp, doc = win.view.viewport(), win.document
    click(vp, vp_point(win, 6, 4.5))
    revision = doc.snapshot
    press(vp, vp_point(win, 6, 4.5))
    move_mouse(vp, vp_point(win, 8, 6), Qt.MouseButton.LeftButton)
    assert doc.previewing and doc.snapshot is not revision
    qtbot.keyClick(win.view, Qt.Key.Key_Escape)
    assert not doc.previewing and doc.snapshot is revision
    assert doc.undo_stack.count() == 0


def test_nudges_and_turns_by_keys_merge(win, qtbot):
    vp, doc = win.view.viewport(), win.document
    click(vp, vp_point(win, 6, 4.5))
    for _ in range(3):
        qtbot.keyClick(win.view, Qt.Key.Key_Right)
    qtbot.keyClick(win.view, Qt.Key.Key_Up, Qt.KeyboardModifier.ShiftModifier)
    f1 = doc.scenario.model("f1")
    assert (f1.x, f1.y) == pytest.approx((6.3, 5.5))
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText().startswith("Nudge")
    qtbot.keyClick(win.view, Qt.Key.Key_BracketLeft)
    qtbot.keyClick(win.view, Qt.Key.Key_BracketLeft)
    qtbot.keyClick(win.view, Qt.Key.Key_BracketRight, Qt.KeyboardModifier.ShiftModifier)
    assert doc.scenario.model("f1").facing == 119
    assert doc.undo_stack.count() == 2
    win.undo_action.trigger()
    win.undo_action.trigger()
    assert doc.scenario == skirmish()


def test_delete_key_and_undo(win, qtbot):
    vp, doc = win.view.viewport(), win.document
    click(vp, vp_point(win, 12, 8.25))
    assert doc.selection == ("w1",)
    qtbot.keyClick(win.view, Qt.Key.Key_Delete)
    assert doc.scenario.entity("w1") is None and win.scene.item_for("w1") is None
    assert win.undo_action.text() == "&Undo Delete Ruined wall"
    win.undo_action.trigger()
    assert win.scene.item_for("w1") is not None


def test_delete_tool(win):
    use(win, DeleteTool)
    click(win.view.viewport(), vp_point(win, 20, 15))
    assert win.document.scenario.entity("f3") is None


def test_draw_obstacle_by_clicks_and_double_click(win):
    tool = use(win, DrawObstacleTool)
    vp = win.view.viewport()
    for x, y in [(1, 1), (4, 1), (4, 3)]:
        click(vp, vp_point(win, x, y))
    move_mouse(vp, vp_point(win, 2, 3))
    double_click(vp, vp_point(win, 1, 3))
    new = win.document.scenario.obstacles[-1]
    assert new.polygon == ((1, 1), (4, 1), (4, 3), (1, 3))
    assert new.height == 2.0 and tool.vertices == []
    assert win.document.selection == (new.id,)
    assert win.scene.item_for(new.id) is not None


def test_draw_obstacle_enter_closes_and_esc_cancels(win, qtbot):
    use(win, DrawObstacleTool)
    vp = win.view.viewport()
    n = len(win.document.scenario.obstacles)
    for x, y in [(1, 1), (4, 1)]:
        click(vp, vp_point(win, x, y))
    qtbot.keyClick(win.view, Qt.Key.Key_Escape)
    qtbot.keyClick(win.view, Qt.Key.Key_Return)
    assert len(win.document.scenario.obstacles) == n
    for x, y in [(1, 1), (4, 1), (2, 3)]:
        click(vp, vp_point(win, x, y))
    qtbot.keyClick(win.view, Qt.Key.Key_Return)
    assert win.document.scenario.obstacles[-1].polygon == ((1, 1), (4, 1), (2, 3))


def test_crossing_polygon_is_refused(win, qtbot):
    use(win, DrawObstacleTool)
    vp = win.view.viewport()
    n = len(win.document.scenario.obstacles)
    for x, y in [(1, 1), (4, 4), (4, 1), (1, 4)]:
        click(vp, vp_point(win, x, y))
    qtbot.keyClick(win.view, Qt.Key.Key_Return)
    assert len(win.document.scenario.obstacles) == n


def test_draw_platform_rectangle_by_drag_asks_height(win, monkeypatch):
    monkeypatch.setattr(QInputDialog, "getDouble", lambda *a, **k: (4.5, True))
    use(win, DrawPlatformTool)
    drag(win.view.viewport(), vp_point(win, 2, 16), vp_point(win, 6, 19))
    p = win.document.scenario.platforms[-1]
    assert sorted(p.polygon) == sorted([(2, 16), (6, 16), (6, 19), (2, 19)])
    assert p.height == 4.5
    assert win.document.undo_stack.undoText() == "Draw platform"


def test_add_from_the_library(win):
    tool = use(win, AddTool)
    lib = win.library_panel
    lib.search.setText("ogre")
    assert lib.pick("Ogre")
    assert isinstance(win.view.tool, AddTool) and tool.template.name == "Ogre"
    lib.side.setCurrentIndex(lib.side.findData("red"))
    vp = win.view.viewport()
    n = len(win.document.scenario.fighters)
    click(vp, vp_point(win, 15.04, 3.02))
    new = win.document.scenario.fighters[-1]
    assert len(win.document.scenario.fighters) == n + 1
    assert (new.name, new.side, new.x, new.y) == ("Ogre", "red", 15.0, 3.0)
    click(vp, vp_point(win, -0.5, 3))  # outside the battlefield: refused
    assert len(win.document.scenario.fighters) == n + 1


def test_measure_between_bases(win, qtbot):
    tool = use(win, MeasureTool)
    drag(win.view.viewport(), vp_point(win, 6, 4.5), vp_point(win, 20, 15))
    m = tool.result
    assert m is not None and m.vertical == pytest.approx(3.0)  # the ogre stands on the tower
    # the 32 mm round base at (6, 4.5) to the 50 mm square at (20, 15), square to the
    # table: the closest point of the square is its corner (20 - h, 15 - h), h = 25 mm
    h, r = 25 / 25.4, 16 / 25.4
    gap = math.hypot(14 - h, 10.5 - h) - r
    assert m.horizontal == pytest.approx(gap, abs=1e-3)  # 15.493"
    assert m.distance == pytest.approx((m.horizontal ** 2 + 9) ** 0.5)
    assert "vertical 3.00" in tool.marks.label.text()
    qtbot.keyClick(win.view, Qt.Key.Key_Escape)  # Esc clears it
    assert tool.result is None


def test_measure_on_a_grid_counts_spaces(make_window):
    w = make_window(hexes())
    tool = use(w, MeasureTool)
    drag(w.view.viewport(), vp_point(w, 0.75, 0.75), vp_point(w, 3.0, 2.049))
    assert tool.result is not None and tool.result.spaces == 2  # (0,0) to (1,1), odd-r hexes


def test_snapping_on_a_grid_goes_to_space_centres(make_window):
    w = make_window(hexes())
    use(w, SelectTool)
    drag(w.view.viewport(), vp_point(w, 0.75, 0.75), vp_point(w, 2.2, 0.9))
    c1 = w.document.scenario.model("c1")
    assert (c1.x, c1.y) == pytest.approx((2.25, 0.75))


def test_space_drag_pans_instead_of_moving(win, qtbot):
    vp = win.view.viewport()
    win.view.zoom_by(3)
    start = vp_point(win, 6, 4.5)
    qtbot.keyPress(win.view, Qt.Key.Key_Space)
    press(vp, vp_point(win, 6, 4.5))
    move_mouse(vp, vp_point(win, 6, 4.5) + QPoint(40, 0), Qt.MouseButton.LeftButton)
    release(vp, vp_point(win, 6, 4.5) + QPoint(40, 0))
    qtbot.keyRelease(win.view, Qt.Key.Key_Space)
    assert win.document.undo_stack.count() == 0
    assert win.document.scenario.model("f1").x == 6  # nothing moved on the table
    # the view moved with the hand: the point under the cursor followed it 40 px right
    assert vp_point(win, 6, 4.5) == start + QPoint(40, 0)


def test_add_a_unit_from_the_shipped_library(make_window):
    from tabletop_gui.model.profiles import library_profiles
    from tabletop_gui.scenario.resources import load_demo

    w = make_window(load_demo("ninth-age"))
    shipped = library_profiles(w.document.scenario)
    on_field = {m.name for m in w.document.scenario.models}
    extra = next(p for p in shipped if p.name not in on_field)  # only in the library
    lib = w.library_panel
    lib.search.setText(extra.name[:6])
    assert lib.pick(extra.name)
    click(w.view.viewport(), vp_point(w, 40, 30))
    new = w.document.scenario.units[-1]
    assert new.name == extra.name and (new.x, new.y) == (40, 30)
    assert new.models == extra.models and new.files == extra.files
