"""Roster model (checked by qtmodeltester) and the Inspector's edits reaching the document."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from tabletop_gui.model.document import Document
from tabletop_gui.model.roster import ID_ROLE, RosterModel
from tabletop_gui.scenario.entities import OvalBase
from tests.gui.factories import ranked, skirmish


def test_roster_model_passes_the_model_tester(qtmodeltester, qtbot):
    doc = Document(skirmish())
    roster = RosterModel(doc)
    qtmodeltester.check(roster)
    f2 = doc.scenario.model("f2")
    with qtbot.waitSignal(roster.dataChanged):
        doc.edit("Damage", doc.scenario.with_entity(replace(f2, state={"damage": 9})))
    with qtbot.waitSignal(roster.modelReset):
        doc.edit("Delete", doc.scenario.without_entity("f1"))
    qtmodeltester.check(roster)


ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole,
         Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ForegroundRole, ID_ROLE,
         Qt.ItemDataRole.FontRole, Qt.ItemDataRole.EditRole)


def _cells(roster: RosterModel) -> list[object]:
    return [roster.index(r, c).data(role) for r in range(roster.rowCount())
            for c in range(roster.columnCount()) for role in ROLES]


def test_roster_repaints_a_row_only_when_what_it_shows_changed(qtbot):
    """The rows keep what they show (worked out once per model value): after random
    moves, damage, take-downs, renames and a side's renaming, every cell of every role
    is what a roster made from nothing answers; a row is announced changed
    (``dataChanged``) when what it shows changed, not for a move."""
    doc = Document(skirmish())
    roster = RosterModel(doc)
    changed: list[int] = []
    roster.dataChanged.connect(lambda top, bottom, roles: changed.extend(
        range(top.row(), bottom.row() + 1)))
    rng = random.Random(17)
    for step in range(60):
        _cells(roster)  # every row shown (asked for)
        changed.clear()
        scenario = doc.scenario
        m = scenario.model(rng.choice(["f1", "f2", "f3", "f4"]))
        kind = rng.choice(["move", "damage", "rename", "side"])
        if kind == "move":
            doc.edit("Move", scenario.with_entity(m.moved_to(m.x + 0.5, m.y)))
            assert changed == []
        elif kind == "damage":
            damage = rng.choice([0, 3, 18, 30])
            new = replace(m, state={**m.state, "damage": damage})
            shows_other = (new.state.get("damage", 0) or 0) != (m.state.get("damage", 0) or 0)
            doc.edit("Damage", scenario.with_entity(new))
            assert changed == ([roster.row_of(m.id)] if shows_other else [])
        elif kind == "rename":
            doc.edit("Rename", scenario.with_entity(replace(m, name=f"Name {step}")))
            assert changed == [roster.row_of(m.id)]
        else:
            side = scenario.sides[step % len(scenario.sides)]
            doc.edit("Side", replace(scenario, sides=tuple(
                replace(s, name=f"Side {step}") if s is side else s
                for s in scenario.sides)))
        assert _cells(roster) == _cells(RosterModel(doc)), (step, kind)


def test_roster_rows_by_side_with_health(qtbot):
    doc = Document(skirmish())
    roster = RosterModel(doc)
    ids = [roster.index(r, 0).data(ID_ROLE) for r in range(roster.rowCount())]
    assert ids == ["f1", "f2", "f3", "f4"]
    row = roster.row_of("f2")
    assert roster.index(row, 3).data() == "12/18"
    assert roster.index(roster.row_of("f4"), 4).data() == "taken down"
    assert "Tou 4" in roster.index(row, 2).data()
    units = RosterModel(Document(ranked()))
    assert units.index(units.row_of("u1"), 3).data() == "15/18"
    assert units.index(units.row_of("u2"), 3).data() == "12/12"


def test_roster_selection_follows_the_document_both_ways(make_window):
    w = make_window(skirmish())
    w.document.set_selection(["f3"])
    rows = w.roster_panel.selectionModel().selectedRows()
    assert [r.row() for r in rows] == [w.roster_panel.roster.row_of("f3")]
    assert w.scene.item_for("f3").isSelected()
    w.roster_panel.selectRow(w.roster_panel.roster.row_of("f1"))
    assert w.document.selection == ("f1",)
    assert w.scene.item_for("f1").isSelected() and not w.scene.item_for("f3").isSelected()


def test_the_roster_scrolls_to_a_selection_made_elsewhere_once_it_rests(make_window,
                                                                         qtbot):
    """A model selected on the canvas is highlighted in the roster at once; the table
    scrolls to its row once the selection rests (``SCROLL_REST_MS``), not in the frame
    of the press that selected it (issue 17: a press on an enemy far down the roster of
    2,000 fighters repainted the whole table in the move's first frames, ~5 ms)."""
    from tabletop_gui.bench.cases_gui import crowd_scenario

    w = make_window(crowd_scenario(400))
    panel = w.roster_panel

    def shown(model_id: str) -> bool:
        rect = panel.visualRect(panel.roster.index(panel.roster.row_of(model_id), 0))
        return panel.viewport().rect().intersects(rect)

    assert shown("m0") and not shown("m350")
    w.document.set_selection(["m350"])
    assert [r.row() for r in panel.selectionModel().selectedRows()] == \
        [panel.roster.row_of("m350")]  # highlighted at once
    assert not shown("m350")  # not scrolled in the press's frame
    qtbot.waitUntil(lambda: shown("m350"))
    w.document.set_selection(["m3"])
    w.document.set_selection(["m390"])  # the wait starts over: the last one is shown
    qtbot.waitUntil(lambda: shown("m390"))
    assert not shown("m3")


def _set_spin(widget, value):
    widget.setValue(value)


def test_inspector_edits_become_undoable_edits(make_window, qtbot):
    w = make_window(skirmish())
    doc, ins = w.document, w.inspector
    doc.set_selection(["f1"])
    name = ins.binding("name").widget
    name.setText("Iron Warden")
    name.editingFinished.emit()
    assert doc.scenario.model("f1").name == "Iron Warden"
    assert doc.undo_stack.undoText() == "Edit name of Iron Sentinel"
    ins.binding("facing").widget.setValue(30)
    ins.binding("x").widget.setValue(7.5)
    ins.binding("toughness").widget.setValue(5)
    ins.binding("damage").widget.setValue(4)
    ins.binding("taken_down").widget.setChecked(True)
    side = ins.binding("side").widget
    side.setCurrentIndex(side.findData("blue"))
    f1 = doc.scenario.model("f1")
    assert (f1.facing, f1.x, f1.characteristics["toughness"], f1.state["damage"]) == (
        30, 7.5, 5, 4)
    assert doc.scenario.taken_down(f1) and f1.side == "blue"
    assert w.scene.item_for("f1").model is f1  # the canvas followed
    shape = ins.binding("shape").widget
    shape.setCurrentIndex(shape.findData("oval"))
    assert isinstance(doc.scenario.model("f1").base, OvalBase)
    ins.binding("size 2 (mm)").widget.setValue(25)
    assert doc.scenario.model("f1").base == OvalBase(32, 25)
    elevation = ins.binding("elevation").widget
    elevation.setValue(2.0)
    assert doc.scenario.model("f1").elevation == 2.0
    elevation.setValue(elevation.minimum())
    assert doc.scenario.model("f1").elevation is None
    traits = ins.binding("traits").widget
    traits.setText("fly, aura=2")
    traits.editingFinished.emit()
    assert doc.scenario.model("f1").traits == ("fly", {"aura": 2})
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.scenario == skirmish()


def test_inspector_edits_of_one_field_merge_those_of_another_do_not(make_window):
    w = make_window(skirmish())
    doc, ins = w.document, w.inspector
    doc.set_selection(["f1"])
    before = doc.undo_stack.count()
    x = ins.binding("x").widget
    x.setValue(7.5)
    x.setValue(8.0)  # the same field again: the same step
    assert doc.undo_stack.count() == before + 1
    ins.binding("y").widget.setValue(3.0)  # another field: a step of its own
    assert doc.undo_stack.count() == before + 2
    doc.undo_stack.undo()
    assert (doc.scenario.model("f1").x, doc.scenario.model("f1").y) == (
        8.0, skirmish().model("f1").y)
    doc.undo_stack.undo()
    assert doc.scenario == skirmish()


def test_inspector_weapons_table(make_window):
    from tabletop_gui.ui.inspector_tables import WeaponsEditor

    w = make_window(skirmish())
    doc = w.document
    doc.set_selection(["f2"])
    table = next(t for t in w.inspector.form.tables if isinstance(t, WeaponsEditor))
    table.add_button.click()
    assert [x.name for x in doc.scenario.model("f2").weapons] == ["Sword", "Weapon 1"]
    table = next(t for t in w.inspector.form.tables if isinstance(t, WeaponsEditor))
    assert table.table.rowCount() == 2  # the form was rebuilt for two weapons
    table.table.item(1, 0).setText("Bow")
    col = 1 + [f.name for f in table.fields].index("range")
    table.table.item(1, col).setText("6-18")
    assert doc.scenario.model("f2").weapons[1].name == "Bow"
    assert doc.scenario.model("f2").weapons[1].values["range"] == "6-18"
    table.table.item(1, col).setText("18-6")  # minimum not below maximum: refused
    assert doc.scenario.model("f2").weapons[1].values["range"] == "6-18"
    assert w.inspector.message.text().startswith("range")
    assert table.table.item(1, col).text() == "6-18"
    table.table.selectRow(0)
    table.remove_button.click()
    assert [x.name for x in doc.scenario.model("f2").weapons] == ["Bow"]


def test_inspector_terrain_and_battlefield(make_window):
    from tabletop_gui.ui.inspector_tables import VerticesEditor

    w = make_window(skirmish())
    doc, ins = w.document, w.inspector
    doc.set_selection(["h1"])
    ins.binding("height").widget.setValue(1.5)
    cover = ins.binding("cover").widget
    cover.setCurrentIndex(cover.findData("hard"))
    h1 = doc.scenario.entity("h1")
    assert (h1.height, h1.cover) == (1.5, "hard")
    vertices = next(t for t in ins.form.tables if isinstance(t, VerticesEditor))
    vertices.table.item(2, 0).setText("8")
    assert doc.scenario.entity("h1").polygon[2] == (8.0, 15)
    vertices.table.selectRow(0)
    vertices.add_button.click()
    assert len(doc.scenario.entity("h1").polygon) == 5
    doc.set_selection([])
    ins.binding("width").widget.setValue(40)
    assert doc.scenario.battlefield.width == 40
    assert w.scene.sceneRect().width() > 40 * 40


def test_inspector_units(make_window):
    w = make_window(ranked())
    doc, ins = w.document, w.inspector
    doc.set_selection(["u1"])
    ins.binding("files").widget.setValue(6)
    ins.binding("models").widget.setValue(20)
    u1 = doc.scenario.model("u1")
    assert (u1.files, u1.models, u1.ranks) == (6, 20, 4)
    hc = ins.binding("height class").widget
    hc.setCurrentIndex(hc.findData("large"))
    assert doc.scenario.model("u1").height_class == "large"


def test_mixed_selection_shows_a_note(make_window):
    w = make_window(skirmish())
    w.document.set_selection(["h1", "f2"])
    assert w.inspector.form is None
    note = w.inspector.note
    assert note is not None and note.isVisible()
    assert note.text() == ("2 items selected, not all of them models: select one to edit it.")
    w.document.set_selection(["f2"])
    assert w.inspector.note is None and w.inspector.form is not None


@pytest.mark.parametrize("key", [Qt.Key.Key_Right])
def test_inspector_follows_canvas_nudges(make_window, qtbot, key):
    w = make_window(skirmish())
    w.document.set_selection(["f1"])
    w.view.setFocus()
    qtbot.keyClick(w.view, key)
    assert w.inspector.binding("x").widget.value() == pytest.approx(6.1)


def test_inspector_edits_several_models_at_once(make_window):
    w = make_window(skirmish())
    doc, ins = w.document, w.inspector
    doc.set_selection(["f1", "f2", "f3"])
    side = ins.binding("side").widget
    side.setCurrentIndex(side.findData("blue"))
    assert {doc.scenario.model(i).side for i in ("f1", "f2", "f3")} == {"blue"}
    assert doc.undo_stack.count() == 1
    assert doc.undo_stack.undoText() == "Edit side of 3 models"
    ins.binding("taken_down").widget.setChecked(True)
    assert all(doc.scenario.taken_down(doc.scenario.model(i)) for i in ("f1", "f2", "f3"))
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.scenario == skirmish()
    doc.set_selection(["f1", "w1"])  # a model and a wall: nothing to edit together
    assert ins.form is None


def test_selecting_another_model_of_the_same_kind_keeps_the_form(make_window):
    """Issue 17: a click on another model (a drag's press on a battlefield of 2,000)
    shows its values in the editors already built; they edit the model selected now."""
    w = make_window(skirmish())
    doc, ins = w.document, w.inspector
    doc.set_selection(["f1"])
    form = ins.form
    doc.set_selection(["f4"])  # round base too
    assert ins.form is form
    assert ins.binding("name").widget.text() == "Fallen"
    assert ins.binding("x").widget.value() == pytest.approx(22)
    name = ins.binding("name").widget
    name.setText("Risen")
    name.editingFinished.emit()
    assert doc.scenario.model("f4").name == "Risen"
    assert doc.scenario.model("f1").name == "Iron Sentinel"
    doc.set_selection(["f3"])  # a square base: other editors
    assert ins.form is not form
    assert ins.binding("name").widget.text() == "Ogre"


def test_a_selection_needing_another_form_gets_it_a_moment_later(make_window, qtbot):
    """Issue 17: the click on the board is answered and painted first (canvas, attack);
    the form of another kind of entity is built a moment later (the inspector's
    FOLLOW_MS), and reading the inspector's form brings it up to date at once."""
    w = make_window(skirmish())
    ins = w.inspector
    page = ins.widget()  # the battlefield's form
    w.document.set_selection(["f1"])
    assert ins.widget() is page
    qtbot.waitUntil(lambda: ins.widget() is not page)
    assert ins.binding("name").widget.text() == "Iron Sentinel"
    w.document.set_selection(["w1"])  # a wall: read at once
    assert ins.form is not None and ins.binding("name").widget.text() == "Ruined wall"
