"""Issue 14.4: every model named and explained on the canvas, in all five rulesets.

Labels (name / short id / none, a View choice kept in the settings) never overlap each
other or a token, at the fitted zoom and zoomed in and out, and sit above terrain and
overlays; hovering a model tells its profile and state in a player's words; wounds bars
stay above the target ring; Ninth Age casualties leave the model grid from the rear;
taken-down fighters are greyed.
"""

from __future__ import annotations

from dataclasses import replace
from html import escape

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, QSettings
from PySide6.QtGui import QColor, QHelpEvent, QImage, QPainter, QTransform
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsScene, QToolTip

from tabletop_gui.ui.canvas.board_items import TerrainItem
from tabletop_gui.ui.canvas.coords import Z_LABEL, Z_OBSTACLE, Z_OVERLAY, to_scene
from tabletop_gui.ui.canvas.labels import SETTINGS_KEY
from tabletop_gui.ui.canvas.model_items import TAKEN_DOWN, ModelItem, unit_cells
from tests.gui.attack_support import RULESETS, demo, first_pair, select_attacker
from tests.gui.attack_support import make_window as make_attack_window

ZOOMS = (1.0, 1.7, 0.75)  # times the fitted zoom


def _placed(qtbot, window) -> None:  # noqa: ANN001
    qtbot.waitUntil(lambda: not window.scene.building and not window.scene.labels.pending,
                    timeout=10000)


def _labels(window) -> list[tuple[str, QRectF]]:  # noqa: ANN001
    """Each shown label's rectangle in scene coordinates, for the view's zoom."""
    assert window.scene.labels.names.zoom == pytest.approx(window.view.zoom, rel=1e-12)
    out = []
    for owner in window.scene.entity_items().values():
        rect = owner.label_rect()
        if rect is not None:
            w, h = owner.name_label.size  # its size on screen does not change with zoom
            assert rect.width() * window.view.zoom == pytest.approx(w, rel=1e-9)
            assert rect.height() * window.view.zoom == pytest.approx(h, rel=1e-9)
            out.append((owner.entity_id, rect))
    return out


def _overlapping(a: QRectF, b: QRectF) -> bool:
    inter = a.intersected(b)
    return inter.width() > 1e-6 and inter.height() > 1e-6


@pytest.mark.parametrize("ruleset", RULESETS)
def test_labels_never_overlap_each_other_or_tokens(make_window, qtbot, ruleset):
    window = make_window(demo(ruleset))
    _placed(qtbot, window)
    fitted = window.view.zoom
    models = window.scene.model_items()
    for factor in ZOOMS:
        window.view.zoom_by(fitted * factor / window.view.zoom)
        assert window.view.zoom == pytest.approx(fitted * factor, rel=1e-9)
        _placed(qtbot, window)
        labels = _labels(window)
        if factor == 1.0:  # fitted: every model and every terrain piece is named
            named = {i for i, _ in labels}
            assert named == set(window.scene.entity_items()), ruleset
            for m in models:
                assert m.name_label.text == m.model.name or (
                    m.name_label.text.startswith(m.model.name + " ("))
        for n, (a_id, a) in enumerate(labels):
            for b_id, b in labels[n + 1:]:
                assert not _overlapping(a, b), (ruleset, factor, a_id, b_id)
            for m in models:  # the base itself and its wounds bar
                base = m.mapToScene(m.shape())
                assert not base.intersects(a), (ruleset, factor, a_id, m.entity_id)
                bar = m.bar_rect()
                assert bar is not None
                assert not _overlapping(bar, a), (ruleset, factor, a_id, m.entity_id)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_labels_are_drawn_above_terrain_models_and_overlays(make_window, qtbot, ruleset):
    window = make_window(demo(ruleset))
    _placed(qtbot, window)
    items = window.scene.entity_items().values()
    terrain = [i for i in items if isinstance(i, TerrainItem)]
    assert terrain, "every demo has terrain"
    names = window.scene.labels.names
    assert names.parentItem() is None and names.zValue() == Z_LABEL
    assert Z_LABEL > Z_OVERLAY > max(i.zValue() for i in items) >= Z_OBSTACLE
    # the layer's area holds every label whole: none is clipped by it
    for owner in items:
        rect = owner.label_rect()
        assert rect is not None and names.boundingRect().contains(rect)
    platform = next(t for t in terrain if t.terrain.kind == "platform")
    assert platform.name_label.text.startswith(platform.terrain.name)
    # drawn: the label's box (white) covers the platform's own fill where it sits
    rect = platform.label_rect()
    image = _render(window.scene, rect, 200)
    inner = rect.adjusted(rect.width() * 0.45, rect.height() * 0.1, -rect.width() * 0.45,
                          -rect.height() * 0.8)
    assert _pixel(image, rect, inner.topLeft()).lightness() > 200


def test_label_mode_switches_and_persists(make_window, qtbot, tmp_path):
    window = make_window(demo("warcry"))
    _placed(qtbot, window)
    actions = {a.objectName(): a for a in window.labels_menu.actions()}
    assert set(actions) == {"labels_name", "labels_id", "labels_none"}
    assert actions["labels_name"].isChecked()
    actions["labels_id"].trigger()
    _placed(qtbot, window)
    models = window.scene.model_items()
    assert all(m.name_label.text == m.entity_id for m in models)
    assert all(m.label_rect() is not None for m in models)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    assert settings.value(SETTINGS_KEY) == "id"

    again = make_window(demo("warcry"))  # the same settings file: the choice is back
    _placed(qtbot, again)
    assert again.scene.labels.mode == "id"
    assert {a.objectName(): a for a in again.labels_menu.actions()}["labels_id"].isChecked()

    actions["labels_none"].trigger()
    _placed(qtbot, window)
    assert not any(m.label_rect() is not None for m in window.scene.model_items())
    terrain = [i for i in window.scene.entity_items().values() if isinstance(i, TerrainItem)]
    assert all(t.label_rect() is not None for t in terrain)  # terrain keeps its name
    settings.sync()
    assert settings.value(SETTINGS_KEY) == "none"
    actions["labels_name"].trigger()
    _placed(qtbot, window)
    assert all(m.label_rect() is not None and m.name_label.text.startswith(m.model.name)
               for m in window.scene.model_items())


def _tip(window, model_id: str) -> str:  # noqa: ANN001
    m = window.document.scenario.model(model_id)
    return window.scene.tooltip_at(to_scene(m.x, m.y))


TIPS = {  # ruleset: (model, what its tooltip says)
    "warcry": ("r1", ["Warden Captain", "Ironclad Wardens", "Toughness 5", "Wounds 22",
                      "Greatblade: range 2″, attacks 4, strength 5, damage 2/5",
                      "22 of 22 wounds left"]),
    "fight-vs-defense": (None, ["Fight", "Shoot", "Defense", "wounds left"]),
    "mordheim-warcry": (None, ["Fight", "Shoot", "Armour", "wounds left"]),
    "ninth-age": ("u1", ["Crown Spearmen", "Hollow Crown", "20 models in 5 files",
                         "all 20 models left", "Defensive Skill 3", "Resilience 3",
                         "Spear: close combat, Fight in Extra Rank", "Traits: shield"]),
    "circle-of-realms": ("c1", ["Gate Knight", "Order of the Silver Gate", "Attack die d6",
                                "Defense d6", "Precision 3", "Movement 4",
                                "Longsword: attack die d8, slashing, range 1 space, "
                                "main hand", "12 of 12 wounds left"]),
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hover_tells_profile_and_state(make_window, qtbot, ruleset):
    window = make_window(demo(ruleset))
    model_id, says = TIPS[ruleset]
    model = window.document.scenario.model(model_id) if model_id else \
        window.document.scenario.models[0]
    tip = _tip(window, model.id)
    assert model.name in tip
    for text in says:
        assert text in tip, (ruleset, text, tip)
    for weapon in model.weapons:
        assert weapon.name in tip
    for internal in ("taken_down", "hp_lost", "=", "close_combat", "None"):
        assert internal not in tip, (ruleset, internal, tip)


def _set_state(window, model_id: str, **state: object) -> None:  # noqa: ANN001
    doc = window.document
    m = doc.scenario.model(model_id)
    doc.edit("State", doc.scenario.with_entity(replace(m, state={**m.state, **state})))


def test_hover_tells_damage_in_a_players_words(make_window, qtbot):
    window = make_window(demo("warcry"))
    _set_state(window, "r1", damage=20)
    assert "2 of 22 wounds left" in _tip(window, "r1")
    _set_state(window, "r1", damage=22)
    tip = _tip(window, "r1")
    assert "taken down" in tip and "wounds left" not in tip and "taken_down" not in tip

    nine = make_window(demo("ninth-age"))
    _set_state(nine, "u1", hp_lost=3)
    tip = _tip(nine, "u1")
    assert "3 models lost, 17 of 20 left" in tip and "hp_lost" not in tip

    circle = make_window(demo("circle-of-realms"))
    _set_state(circle, "c1", damage=5, limbs_lost=["RH", "LL"])
    tip = _tip(circle, "c1")
    assert "7 of 12 wounds left" in tip and "lost: right hand, left leg" in tip


def test_a_tooltip_event_shows_the_profile(make_window, qtbot):
    window = make_window(demo("warcry"))
    m = window.document.scenario.model("r1")
    at = window.view.mapFromScene(to_scene(m.x, m.y))
    vp = window.view.viewport()
    QApplication.sendEvent(vp, QHelpEvent(QEvent.Type.ToolTip, at, vp.mapToGlobal(at)))
    qtbot.waitUntil(QToolTip.isVisible, timeout=5000)
    assert "Warden Captain" in QToolTip.text() and "22 of 22 wounds left" in QToolTip.text()
    QToolTip.hideText()
    empty = QPoint(5, 5)  # off the table: nothing to say
    QApplication.sendEvent(vp, QHelpEvent(QEvent.Type.ToolTip, empty, vp.mapToGlobal(empty)))
    assert window.scene.tooltip_at(window.view.mapToScene(empty)) == ""


def _render(scene: QGraphicsScene, source: QRectF, pixels: int = 400) -> QImage:
    """The scene drawn afresh (as File > Export draws it: no item's cached pixmap)."""
    image = QImage(pixels, round(pixels * source.height() / source.width()),
                   QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    cached = [i for i in scene.items() if i.cacheMode() != QGraphicsItem.CacheMode.NoCache]
    for i in cached:
        i.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    painter = QPainter(image)
    scene.render(painter, QRectF(image.rect()), source)
    painter.end()
    for i in cached:
        i.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    return image


def _in_unit(item: ModelItem, p: QPointF) -> QPointF:
    """A point of a unit's own frame (front along +x) in the scene (its facing turns it)."""
    return item.mapToScene(QTransform().rotate(-item.facing).map(p))


def _pixel(image: QImage, source: QRectF, at: QPointF) -> QColor:
    x = (at.x() - source.left()) / source.width() * image.width()
    y = (at.y() - source.top()) / source.height() * image.height()
    return image.pixelColor(round(x), round(y))


def _close(a: QColor, b: QColor, tol: int = 12) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


def test_ninth_age_casualties_leave_the_grid_from_the_rear(make_window, qtbot):
    window = make_window(demo("ninth-age"))
    item = window.scene.item_for("u1")
    assert isinstance(item, ModelItem)
    unit = item.model
    assert (unit.models, unit.files, unit.characteristics["hp"]) == (20, 5, 1)
    assert len(item.cells) == 20
    _set_state(window, "u1", hp_lost=3)
    _placed(qtbot, window)
    cells = item.cells
    assert len(cells) == 17 == len(unit_cells(window.document.scenario.model("u1")))
    # ranks from the front (largest x in the unit's frame): 5, 5, 5, then the rear 2
    by_rank: dict[float, int] = {}
    for c in cells:
        key = round(c.left(), 6)
        by_rank[key] = by_rank.get(key, 0) + 1
    assert [by_rank[k] for k in sorted(by_rank, reverse=True)] == [5, 5, 5, 2]
    assert item.name_label.text == "Crown Spearmen (17)"
    # drawn so: a removed rear model's place shows the unit's light boundary only,
    # a front model is filled
    item.setSelected(False)
    source = item.sceneBoundingRect()
    fill = item.fill_color
    image = _render(window.scene, source)
    rear = [c for c in unit_cells(replace(unit, state={})) if round(c.left(), 6)
            == min(by_rank)]
    assert len(rear) == 5
    # the two models left in the rear rank stand in its middle: its ends are empty
    gone = [c for c in rear if not any(k.contains(c.center()) for k in cells)]
    assert len(gone) == 2
    for c in gone:
        assert not _close(_pixel(image, source, _in_unit(item, c.center())), fill)
    front = max(cells, key=lambda c: c.left())
    assert _close(_pixel(image, source, _in_unit(item, front.center())), fill)


def test_taken_down_fighters_are_greyed(make_window, qtbot):
    window = make_window(demo("warcry"))
    item = window.scene.item_for("r1")
    side = QColor(item.color)
    assert window.scene.labels.names.bar_fraction(item) == 1.0
    source = item.sceneBoundingRect()
    centre = item.pos()
    assert _close(_pixel(_render(window.scene, source), source, centre), side)
    _set_state(window, "r1", taken_down=True)
    _placed(qtbot, window)
    assert item.fill_color == TAKEN_DOWN
    assert window.scene.labels.names.bar_fraction(item) == 0.0  # its bar is empty
    assert _close(_pixel(_render(window.scene, source), source, centre), TAKEN_DOWN)
    assert item.name_label.greyed


def test_the_wounds_bar_is_drawn_above_the_target_ring(qtbot, tmp_path):
    from tabletop_gui.ui.canvas.labels import BAR_BACK, BAR_LEFT
    from tabletop_gui.ui.canvas_overlays import INVALID, VALID

    scenario = demo("warcry")
    window, flow = make_attack_window(qtbot, scenario, tmp_path)
    attacker, target = first_pair(scenario)
    select_attacker(qtbot, flow, attacker)
    flow.attack.set_target(target)
    qtbot.waitUntil(lambda: flow.idle, timeout=20000)
    qtbot.waitUntil(lambda: not window.scene.labels.pending, timeout=10000)
    marks = [m for m in flow.overlay.of_kind("target") if m.key == target]
    assert marks, "the target is marked"
    item = window.scene.item_for(target)
    # hovering it: its profile, then whether it can be attacked (the mark's reasons)
    tip = window.scene.tooltip_at(item.pos())
    assert tip.startswith(f"<b>{item.model.name}</b>")
    assert tip.endswith("<hr>" + escape(marks[0].toolTip()).replace("\n", "<br>"))
    bar = item.bar_rect()
    assert bar is not None
    # the ring runs 0.12" outside the base, across the bar just under it: along the
    # bar's middle every pixel is the bar's (green: no damage yet), none the ring's
    source = bar.adjusted(-2, -20, 2, 20)
    image = _render(window.scene, source, 800)
    y = bar.center().y()
    ring_seen = bar_seen = 0
    steps = 200
    for k in range(1, steps):
        x = bar.left() + bar.width() * k / steps
        c = _pixel(image, source, QPointF(x, y))
        ring_seen += _close(c, VALID, 40) or _close(c, INVALID, 40)
        bar_seen += _close(c, BAR_LEFT, 40) or _close(c, BAR_BACK, 40)
    assert ring_seen == 0 and bar_seen == steps - 1
    # and the ring is there: just under the bar, it shows
    below = bar.bottom() + 4.0
    ring_below = sum(_close(_pixel(image, source, QPointF(bar.left() + bar.width() * k / steps,
                                                          below)), VALID, 60)
                     or _close(_pixel(image, source, QPointF(bar.left() + bar.width() * k
                                                             / steps, below)), INVALID, 60)
                     for k in range(1, steps))
    assert ring_below > 0
