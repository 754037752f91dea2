"""The first window: each demo drawn with one canvas item per entity; File > Open of a bad
file shows its problems and keeps the open battlefield."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from PySide6.QtWidgets import QMessageBox

from tabletop_gui.rules.registry import RULESET_IDS
from tabletop_gui.scenario.entities import Battlefield, Grid
from tabletop_gui.scenario.resources import demo_path, load_demo
from tabletop_gui.ui.canvas.board_items import TerrainItem
from tabletop_gui.ui.canvas.model_items import ModelItem
from tests.gui.factories import hexes, ranked, skirmish


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_each_demo_has_one_item_per_entity(make_window, ruleset):
    scenario = load_demo(ruleset)
    w = make_window(scenario, demo_path(ruleset))
    items = w.scene.entity_items()
    assert set(items) == {e.id for e in scenario.entities}
    for e in scenario.entities:
        item = items[e.id]
        assert isinstance(item, ModelItem if e.kind in ("fighter", "unit") else TerrainItem)
    assert len([i for i in w.scene.items() if isinstance(i, ModelItem | TerrainItem)]) == len(
        scenario.entities)
    assert w.windowTitle().startswith(f"{ruleset}.battle.json")
    image = w.grab()
    assert not image.isNull() and image.width() > 500


def test_items_are_placed_to_scale_with_y_up(make_window):
    w = make_window(skirmish())
    f1 = w.scene.item_for("f1")
    assert f1.pos().x() == pytest.approx(6 * 40) and f1.pos().y() == pytest.approx(-4.5 * 40)
    # a 32 mm base is 32/25.4 inches across
    assert f1.shape().boundingRect().width() == pytest.approx(32 / 25.4 * 40, rel=1e-6)
    rect = w.scene.item_for("f3")  # 50 x 50 mm square turned to 270 degrees
    assert rect.shape().boundingRect().width() == pytest.approx(50 / 25.4 * 40, rel=1e-6)


@pytest.mark.parametrize("factory", [skirmish, ranked, hexes, lambda: hexes("square")])
def test_factories_draw(make_window, factory):
    scenario = factory()
    w = make_window(scenario)
    assert set(w.scene.entity_items()) == {e.id for e in scenario.entities}
    assert not w.grab().isNull()


def test_hex_grid_spaces_follow_the_format(make_window):
    from tabletop_gui.ui.canvas.board_items import grid_path, hex_centre

    bf = hexes().battlefield
    assert hex_centre(0, 0, 1.5) == (0.75, 0.75)
    assert hex_centre(0, 1, 1.5) == pytest.approx((1.5, (3 ** 0.5 / 2 + 0.5) * 1.5))
    assert not grid_path(bf).isEmpty()


def test_open_bad_file_shows_problems_and_keeps_battlefield(make_window, monkeypatch,
                                                            tmp_path, qtbot):
    w = make_window(skirmish())
    before = w.document.scenario
    bad = tmp_path / "bad.battle.json"
    data = json.loads(demo_path("warcry").read_text())
    data["fighters"][0]["base"]["diameter_mm"] = -3
    data["sides"] = "nope"
    bad.write_text(json.dumps(data))
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    monkeypatch.setattr("PySide6.QtWidgets.QFileDialog.getOpenFileName",
                        lambda *a, **k: (str(bad), ""))
    with qtbot.waitSignal(w.files.opened) as opened:  # read on the worker
        w.files.open_action.trigger()
    assert opened.args == [str(bad), False]
    assert len(shown) == 1
    assert "diameter_mm" in shown[0] and "sides" in shown[0]
    assert w.document.scenario is before
    assert set(w.scene.entity_items()) == {e.id for e in before.entities}


def test_zoom_on_wheel_keeps_point_under_cursor_and_fit(make_window, qtbot):
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    w = make_window(skirmish())
    view = w.view
    view.zoom_by(3.0)
    pos = QPoint(200, 150)
    before = view.mapToScene(pos)
    z = view.zoom
    ev = QWheelEvent(QPointF(pos), QPointF(view.viewport().mapToGlobal(pos)), QPoint(0, 0),
                     QPoint(0, 120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                     Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), ev)
    assert view.zoom == pytest.approx(z * 1.15)
    after = view.mapToScene(pos)
    assert abs(after.x() - before.x()) < 2 and abs(after.y() - before.y()) < 2
    view.fit_to_window()
    assert view.mapToScene(view.viewport().rect()).boundingRect().contains(
        w.scene.board_item._rect)


def test_pan_with_middle_button(make_window, qtbot):
    from PySide6.QtCore import QPoint, Qt

    w = make_window(skirmish())
    view = w.view
    view.zoom_by(4.0)
    vp = view.viewport()
    start = view.mapToScene(vp.rect().center())
    qtbot.mousePress(vp, Qt.MouseButton.MiddleButton, pos=QPoint(300, 300))
    from tests.gui.events import move_mouse

    move_mouse(vp, QPoint(200, 250), Qt.MouseButton.MiddleButton)
    qtbot.mouseRelease(vp, Qt.MouseButton.MiddleButton, pos=QPoint(200, 250))
    end = view.mapToScene(vp.rect().center())
    assert end.x() - start.x() == pytest.approx(100 / view.zoom, abs=2 / view.zoom)
    assert end.y() - start.y() == pytest.approx(50 / view.zoom, abs=2 / view.zoom)


def test_panels_have_reserved_places(make_window, qapp):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel

    w = make_window(skirmish())
    area = w.dockWidgetArea
    assert area(w.docks["Roster"]) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert area(w.docks["Inspector"]) == Qt.DockWidgetArea.LeftDockWidgetArea
    attack = w.add_panel("Attack", QLabel("attack"))
    log = w.add_panel("Log", QLabel("log"))
    qapp.processEvents()  # tabs are laid out on the next turn of the event loop
    assert area(attack) == Qt.DockWidgetArea.RightDockWidgetArea
    assert not w.tabifiedDockWidgets(attack)  # the odds are on the attack card
    assert w.docks["Library"] in w.tabifiedDockWidgets(w.docks["Roster"])
    assert area(log) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert attack.toggleViewAction() in w._view_menu.actions()


def test_view_toggles(make_window):
    w = make_window(skirmish())
    w.scene.set_show_taken_down(False)
    assert not w.scene.item_for("f4").isVisible() and w.scene.item_for("f1").isVisible()
    w.scene.set_show_taken_down(True)
    assert w.scene.item_for("f4").isVisible()
    assert "Esc" in w.shortcuts_text()
    for a in w.toolbox.actions.values():  # every tool says its key first: "Measure (M)"
        assert a.toolTip().splitlines()[0] == f"{a.text()} ({a.shortcut().toString()})"


def test_only_changed_items_are_updated(make_window, monkeypatch):
    from tabletop_gui.ui.canvas.model_items import ModelItem as Item

    w = make_window(skirmish())
    calls: list[str] = []
    real = Item.set_model

    def spy(self, model, color, down=None):
        calls.append(self.entity_id)
        return real(self, model, color, down)

    monkeypatch.setattr(Item, "set_model", spy)
    doc = w.document
    doc.edit("Move", doc.scenario.with_entity(doc.scenario.model("f2").moved_to(11, 7)))
    assert calls == ["f2"]
    others = {i: w.scene.item_for(i).model for i in ("f1", "f3", "f4")}
    doc.edit("Delete", doc.scenario.without_entity("w1"))  # structural
    assert all(w.scene.item_for(i).model is m for i, m in others.items())


@pytest.mark.timeout(60)  # it used to never come back
def test_a_huge_table_with_tiny_spaces_draws_only_what_is_seen(make_window, qtbot):
    """100,000" square with 0.1" hexes (valid, ~10^12 spaces): the window opens and
    paints; zoomed out no space is outlined, zoomed in the visible ones are."""
    from PySide6.QtCore import QRectF

    from tabletop_gui.ui.canvas.board_items import MAX_SPACES_DRAWN, SPACES, grid_path
    from tabletop_gui.ui.canvas.coords import to_scene, to_table

    huge = replace(hexes(), battlefield=Battlefield(100_000, 100_000, Grid("hex", 0.1)))
    w = make_window(huge)
    image = w.view.viewport().grab().toImage()
    assert not image.isNull()
    # the whole table would be ~10^12 spaces: refused, not built
    assert grid_path(huge.battlefield).isEmpty()
    # a small area of it: just its spaces (0.5" x 0.5" meets about 6 x 7 hexes)
    few = grid_path(huge.battlefield, QRectF(500.0, 500.0, 0.5, 0.5))
    assert 0 < few.elementCount() <= 7 * MAX_SPACES_DRAWN
    # zoomed in on a corner of the table, the spaces are drawn in their colour
    w.view.resetTransform()
    w.view.scale(4.0, 4.0)  # a 0.1" space is 16 px wide (40 scene units per inch)
    w.view.centerOn(to_scene(1.0, 1.0))
    image = w.view.viewport().grab().toImage()

    def near_spaces(x: int, y: int) -> bool:  # antialiased: within 40 of each channel
        c = image.pixelColor(x, y)
        return all(abs(a - b) <= 40 for a, b in ((c.red(), SPACES.red()),
                                                 (c.green(), SPACES.green()),
                                                 (c.blue(), SPACES.blue())))

    def on_table(x: int, y: int) -> bool:  # away from the edge labels and the bases
        tx, ty = to_table(w.view.mapToScene(x, y))
        return 0.05 < tx < 3.0 and 1.5 < ty < 99_000 and not 0.1 < tx < 1.6

    table = [(x, y) for x in range(0, image.width(), 2) for y in range(0, image.height(), 2)
             if on_table(x, y)]
    assert len(table) > 1000
    outlined = sum(1 for x, y in table if near_spaces(x, y))
    assert outlined > 0.1 * len(table)  # every 0.1" space outlined: many grey pixels
