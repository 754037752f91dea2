"""Issue 17: the models' bases are drawn by one layer item (``ModelsLayer``) from shared
pictures, through its device cache; the model items draw nothing themselves. What the
view shows must be what the items say: a model moved, selected, hidden or greyed is
redrawn where it was and where it is, and an SVG export draws every base as vectors."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem

from tabletop_gui.bench.cases_gui import crowd_scenario
from tabletop_gui.ui.canvas.board_items import TABLE
from tabletop_gui.ui.canvas.coords import to_scene
from tabletop_gui.ui.canvas.model_items import SELECTED, TAKEN_DOWN, ModelItem
from tests.gui.attack_support import make_window
from tests.gui.test_frame_work import _pixel

RED = QColor("#c0392b")


def _close(a: QColor, b: QColor, tol: int = 14) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


def _zoomed(qtbot, tmp_path, n: int = 40):  # noqa: ANN001, ANN202
    window, flow = make_window(qtbot, crowd_scenario(n), tmp_path)
    qtbot.waitUntil(lambda: not window.scene.building, timeout=20000)
    window.view.fit_to_window()
    window.view.zoom_by(3.0)
    m = window.document.scenario.model("m5")
    window.view.centerOn(to_scene(m.x + 2.0, m.y))
    return window, flow


def test_models_hang_on_one_layer_and_share_pictures(qtbot, tmp_path):
    window, _ = make_window(qtbot, crowd_scenario(200), tmp_path)
    qtbot.waitUntil(lambda: not window.scene.building, timeout=20000)
    window.view.fit_to_window()
    layer = window.scene.models_layer
    items = window.scene.model_items()
    assert len(items) == 200 and len(layer.items) == 200
    for item in items:
        assert item.layer is layer
        assert item.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
        assert item.cacheMode() == QGraphicsItem.CacheMode.NoCache
    window.view.viewport().repaint()
    # two sides facing two ways, one base: a handful of pictures, not one per model
    looks = {item.sprite_key for item in items}
    assert len(looks) == 2
    drawn = layer.sprites_drawn
    window.view.zoom_by(1.5)
    window.view.viewport().repaint()
    assert layer.sprites_drawn - drawn == len(looks)  # each look once at the new zoom


def test_a_moved_model_is_redrawn_where_it_left_and_where_it_went(qtbot, tmp_path):
    window, _ = _zoomed(qtbot, tmp_path)
    doc = window.document
    m = doc.scenario.model("m5")
    assert _close(_pixel(window, m.x, m.y), RED)
    empty = (m.x + 1.15, m.y + 2.25)  # between the ranks and grid lines: nothing there
    assert _close(_pixel(window, *empty), TABLE)
    doc.edit("Move", doc.scenario.with_entity(m.moved_to(*empty)))
    assert _close(_pixel(window, *empty), RED)
    assert _close(_pixel(window, m.x, m.y), TABLE)
    doc.undo_stack.undo()
    assert _close(_pixel(window, m.x, m.y), RED)
    assert _close(_pixel(window, *empty), TABLE)


def test_a_drag_preview_moves_the_drawn_base(qtbot, tmp_path):
    """A drag step moves the item only (the document's preview): the layer redraws."""
    window, _ = _zoomed(qtbot, tmp_path)
    item = window.scene.item_for("m5")
    assert isinstance(item, ModelItem)
    m = item.model
    empty = (m.x + 1.15, m.y + 2.25)
    item.set_model(m.moved_to(*empty), item.color)
    assert _close(_pixel(window, *empty), RED)
    assert _close(_pixel(window, m.x, m.y), TABLE)


def test_selection_hiding_and_greying_are_redrawn(qtbot, tmp_path):
    window, _ = _zoomed(qtbot, tmp_path)
    doc, scene = window.document, window.scene
    item = scene.item_for("m5")
    assert isinstance(item, ModelItem)
    handle = item.rotate_handle_pos()
    hx, hy = handle.x() / 40.0, -handle.y() / 40.0  # scene units to inches (y up)
    before = _pixel(window, hx, hy)
    assert not _close(before, SELECTED, 40)
    doc.set_selection(["m5"])
    assert item.isSelected() and _close(_pixel(window, hx, hy), SELECTED, 40)
    doc.set_selection([])
    assert _pixel(window, hx, hy) == before
    m = item.model
    doc.edit("State", doc.scenario.with_entity(replace(m, state={"taken_down": True})))
    assert _close(_pixel(window, m.x, m.y), TAKEN_DOWN)
    scene.set_show_taken_down(False)
    assert not item.isVisible() and _close(_pixel(window, m.x, m.y), TABLE)
    scene.set_show_taken_down(True)
    assert _close(_pixel(window, m.x, m.y), TAKEN_DOWN)


def test_a_model_removed_leaves_the_layer_and_the_view(qtbot, tmp_path):
    window, _ = _zoomed(qtbot, tmp_path)
    doc = window.document
    m = doc.scenario.model("m5")
    item = window.scene.item_for("m5")
    assert _close(_pixel(window, m.x, m.y), RED)
    doc.edit("Delete", doc.scenario.without_entity("m5"))
    assert item not in window.scene.models_layer.items and item.layer is None
    assert _close(_pixel(window, m.x, m.y), TABLE)


def test_an_svg_export_draws_every_base_as_vectors(qtbot, tmp_path, monkeypatch):
    from tabletop_gui.ui.export import export_scene

    window, _ = make_window(qtbot, crowd_scenario(40), tmp_path)
    qtbot.waitUntil(lambda: not window.scene.building, timeout=20000)
    painted: list[str] = []
    real = ModelItem.paint

    def counted(self, painter, option, widget=None):  # noqa: ANN001, ANN202
        painted.append(self.entity_id)
        real(self, painter, option, widget)

    monkeypatch.setattr(ModelItem, "paint", counted)
    assert export_scene(window.scene, tmp_path / "board.svg")
    assert sorted(painted) == sorted(m.id for m in window.document.scenario.models)
    assert "<path" in (tmp_path / "board.svg").read_text()


def _attacker_rows(panel) -> list[str]:  # noqa: ANN001
    combo = panel.attacker_combo
    return [combo.itemText(i) for i in range(combo.count())]


def test_the_attacker_list_follows_edits_not_drag_steps(qtbot, tmp_path):
    """A drag step (one model moved) keeps the attacker list as it is, without a walk
    over every model; a rename or a model taken down changes it."""
    from tests.gui.attack_support import select_attacker, settle

    window, flow = make_window(qtbot, crowd_scenario(40), tmp_path)
    select_attacker(qtbot, flow, "m5")
    panel, doc = flow.attack_panel, window.document
    rows = panel._attackers()
    assert _attacker_rows(panel)[1:] == [f"Model {k} (m{k})" for k in range(40)]
    m = doc.scenario.model("m5")
    doc.preview({"m5": m.moved_to(m.x + 1, m.y)})
    qtbot.waitUntil(lambda: flow.attack.scenario is doc.snapshot.scenario, timeout=5000)
    assert panel._attackers() is rows
    doc.end_preview()
    doc.edit("Rename", doc.scenario.with_entity(replace(doc.scenario.model("m7"),
                                                          name="Seventh")))
    settle(qtbot, flow)
    assert "Seventh (m7)" in _attacker_rows(panel)
    doc.edit("Down", doc.scenario.with_entity(replace(doc.scenario.model("m8"),
                                                        state={"taken_down": True})))
    settle(qtbot, flow)
    assert "Model 8 (m8)" not in _attacker_rows(panel)
    assert len(_attacker_rows(panel)) == 40  # "(no attacker)" and 39 models


def test_a_small_repaint_finds_the_models_there_by_the_layers_grid(qtbot, tmp_path):
    """A drag step repaints a small place of the layer: the models drawn there are
    found by its grid, the same ones in the same order as a walk over all of them,
    after moves (one across many cells) and a removal."""
    import random

    window, _ = make_window(qtbot, crowd_scenario(200), tmp_path)
    qtbot.waitUntil(lambda: not window.scene.building, timeout=20000)
    doc, layer = window.document, window.scene.models_layer
    rnd = random.Random(5)
    for _ in range(12):
        m = rnd.choice(doc.scenario.models)
        doc.edit("Move", doc.scenario.with_entity(m.moved_to(rnd.uniform(1, 47),
                                                             rnd.uniform(1, 47))))
    doc.edit("Delete", doc.scenario.without_entity("m3"))
    board = window.scene.sceneRect()

    def meets(a, r) -> bool:  # noqa: ANN001
        return not (a[2] < r[0] or a[0] > r[2] or a[3] < r[1] or a[1] > r[3])

    for _ in range(200):
        w, h = rnd.uniform(1, 300), rnd.uniform(1, 300)
        x, y = rnd.uniform(board.left(), board.right()), rnd.uniform(board.top(), board.bottom())
        r = (x, y, x + w, y + h)
        found = [i for i in layer._at(*r) if meets(i.area, r)]
        assert found == [i for i in layer.items if meets(i.area, r)]
    assert all(i.entity_id != "m3" for i in layer.items)


def test_undo_and_redo_of_many_edits_give_the_very_scenarios_with_their_look_ups(qtbot):
    """Edits made with ``with_entity`` (look-ups handed on, weapons checked once) undo and
    redo to the very scenario values, each answering its look-ups as one built afresh;
    a model with a weapon that cannot be read keeps it unread, refused by the rules."""
    import random

    import pytest

    from tabletop_gui.model.document import Document
    from tabletop_gui.rules.base import RulesError
    from tabletop_gui.rules.warcry_family.weapons import profile_of
    from tabletop_gui.scenario.entities import Scenario, Weapon

    bad = Weapon("Bow", {"range": "12-3", "attacks": 2, "strength": 3, "damage": "1/2"})
    start = crowd_scenario(30)
    start = start.with_entity(replace(start.model("m4"), weapons=(bad,)))
    doc = Document(start)
    rnd = random.Random(11)
    values = [doc.scenario]
    for _ in range(25):
        m = rnd.choice(doc.scenario.models)
        doc.edit("Move", doc.scenario.with_entity(m.moved_to(rnd.uniform(1, 47),
                                                             rnd.uniform(1, 47))))
        values.append(doc.scenario)
    for value in reversed(values[:-1]):
        doc.undo_stack.undo()
        assert doc.scenario is value
    for value in values[1:]:
        doc.undo_stack.redo()
        assert doc.scenario is value
    for value in values:
        fresh = Scenario(value.ruleset, value.battlefield, value.sides, value.name,
                         dict(value.ruleset_options), tuple(value.fighters), (),
                         tuple(value.obstacles), tuple(value.platforms))
        assert value == fresh
        for m in fresh.models:
            assert value.model(m.id) == m and value.model(m.id) is value.entity(m.id)
        archer = value.model("m4")
        assert archer is not None and archer.weapons[0].parsed == {}
        with pytest.raises(RulesError, match="m4 weapon 'Bow': range '12-3' was not read"):
            profile_of(archer.weapons[0], "m4")
