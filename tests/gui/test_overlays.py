"""Canvas overlays against the geometry: valid and invalid marks with their reasons, the
range band, sight lines clear or in cover with the covering terrain, live updates on
drags (edits and previews), the View toggle, Ninth Age arcs, Circle of Realms zones."""

from __future__ import annotations

import pytest
import shapely
from PySide6.QtCore import QPointF, Qt

from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.ui.canvas.coords import to_scene, to_table
from tabletop_gui.ui.canvas_overlays import INVALID, VALID
from tabletop_gui.ui.overlay_shapes import model_polygon
from tests.gui.attack_support import archers, demo, first_pair, make_window, moved, settle


def _archer_window(qtbot, tmp_path):  # noqa: ANN001, ANN202
    window, flow = make_window(qtbot, archers(), tmp_path)
    flow.document.set_selection(["a"])
    flow.attack.set_weapon("Bow")
    settle(qtbot, flow)  # the whole scan on the worker, every mark drawn
    return window, flow


def test_valid_and_invalid_targets_are_marked_with_shape_colour_and_reasons(qtbot, tmp_path):
    _, flow = _archer_window(qtbot, tmp_path)
    ok, far = flow.overlay.marker("t"), flow.overlay.marker("far")
    assert ok is not None and far is not None
    assert ok.valid and not far.valid
    assert ok.pen().color() == VALID and ok.pen().style() == Qt.PenStyle.SolidLine
    assert far.pen().color() == INVALID and far.pen().style() == Qt.PenStyle.DashLine
    assert "valid target" in ok.toolTip()
    assert 'out of range: 25.63" > 12"' in far.toolTip()
    assert far.reasons == ('out of range: 25.63" > 12"',)
    # overlays never take clicks from the models below
    assert ok.acceptedMouseButtons() == Qt.MouseButton.NoButton


def test_range_band_is_the_weapon_range_from_the_base_edge(qtbot, tmp_path):
    _, flow = _archer_window(qtbot, tmp_path)
    (band,) = flow.overlay.of_kind("range")
    path = band.path()
    # archer: 1" base at (5, 5), radius 0.5; Bow 3-12: a ring from 3.5" to 12.5" of centre
    assert path.contains(to_scene(5 + 0.5 + 6, 5))
    assert not path.contains(to_scene(5 + 0.5 + 2, 5))  # inside the minimum range
    assert not path.contains(to_scene(5 + 0.5 + 12.3, 5))  # beyond the maximum
    (zone,) = flow.overlay.of_kind("engagement")
    assert zone.path().contains(to_scene(5 + 0.5 + 0.9, 5))
    assert not zone.path().contains(to_scene(5 + 0.5 + 1.1, 5))
    assert zone.toolTip() == '1" engagement zone'


def test_the_engagement_zone_is_the_rulesets(qtbot, tmp_path, monkeypatch):
    """The zone's size comes from the ruleset's declaration, not from the kind of models."""
    import dataclasses

    from tabletop_gui.rules import registry

    wider = dataclasses.replace(registry.INFOS["warcry"], engagement_zone=2.0)
    monkeypatch.setitem(registry.INFOS, "warcry", wider)
    _, flow = _archer_window(qtbot, tmp_path)
    (zone,) = flow.overlay.of_kind("engagement")
    assert zone.path().contains(to_scene(5 + 0.5 + 1.9, 5))
    assert not zone.path().contains(to_scene(5 + 0.5 + 2.1, 5))
    assert zone.toolTip() == '2" engagement zone'
    monkeypatch.setitem(registry.INFOS, "warcry", dataclasses.replace(wider,
                                                                     engagement_zone=None))
    flow.attack.set_weapon("Sword")  # the attacker's zones are drawn again
    settle(qtbot, flow)
    assert flow.overlay.of_kind("range") != []
    assert flow.overlay.of_kind("engagement") == []


def test_sight_lines_clear_solid_and_in_cover_dashed_with_the_terrain(qtbot, tmp_path):
    _, flow = _archer_window(qtbot, tmp_path)
    lines = {i.key: i for i in flow.overlay.of_kind("sight")}
    assert set(lines) == {"t", "c"}  # valid targets only
    assert lines["t"].pen().style() == Qt.PenStyle.SolidLine
    assert lines["c"].pen().style() == Qt.PenStyle.DashLine
    assert "Low wall" in lines["c"].toolTip()
    g = BoardGeometry(battle_of(flow.attack.scenario).board)
    m = g.measure("a", "c")
    start = lines["c"].path().elementAt(0)
    assert QPointF(start.x, start.y) == to_scene(*m.point_a)
    (wall,) = flow.overlay.of_kind("cover_terrain")
    assert wall.key == "wall"
    assert wall.path().contains(to_scene(5, 8.75))


def test_dragging_the_target_out_of_range_flips_it_and_updates_the_odds(qtbot, tmp_path):
    window, flow = _archer_window(qtbot, tmp_path)
    flow.attack.set_target("t")
    settle(qtbot, flow)
    assert flow.attack.current_view.report is not None and flow.attack.current_view.report.valid
    before = flow.odds_panel.expected_label.text()
    window.document.edit("Move", moved(window.document.scenario, "t", 20, 5))
    settle(qtbot, flow)
    marker = flow.overlay.marker("t")
    assert marker is not None and not marker.valid
    assert any("out of range" in r for r in marker.reasons)
    assert flow.attack.current_view.report is not None and not flow.attack.current_view.report.valid
    assert "not allowed" in flow.attack_panel.verdict_label.text()
    assert "Not allowed now" in flow.odds_panel.condition_label.text()
    # back in range, now at the edge of the band: valid again, the odds follow
    window.document.undo_stack.undo()
    settle(qtbot, flow)
    marker = flow.overlay.marker("t")
    assert marker is not None and marker.valid
    assert flow.odds_panel.expected_label.text() == before


def test_a_drag_preview_updates_the_marks_before_release(qtbot, tmp_path):
    window, flow = _archer_window(qtbot, tmp_path)
    window.document.preview({"far": window.document.scenario.model("far").moved_to(9.0, 9.0)})

    def flipped() -> None:
        marker = flow.overlay.marker("far")
        assert marker is not None and marker.valid

    qtbot.waitUntil(flipped, timeout=5000)
    assert flow.attack.scenario.model("far").x == pytest.approx(9.0, abs=1e-9)
    assert window.document.scenario.model("far").x == 27  # the document is untouched


def test_overlays_follow_the_view_toggle(qtbot, tmp_path):
    window, flow = _archer_window(qtbot, tmp_path)
    action = next(a for a in window.menuBar().actions() if a.text() == "&View")
    toggle = next(a for a in action.menu().actions() if a.text() == "&Overlays")
    marker = flow.overlay.marker("t")
    assert marker is not None and marker.isVisible()
    toggle.setChecked(False)
    assert not marker.isVisible()
    toggle.setChecked(True)
    assert marker.isVisible()


def test_circle_of_realms_zones_of_control_and_range_in_spaces(qtbot, tmp_path):
    scenario = demo("circle-of-realms")
    window, flow = make_window(qtbot, scenario, tmp_path)
    attacker, _ = first_pair(scenario)
    flow.document.set_selection([attacker])
    settle(qtbot, flow)
    g = BoardGeometry(battle_of(scenario).board)
    grid = g.grid
    assert grid is not None
    (spaces,) = flow.overlay.of_kind("range")
    own = g.space_of(attacker)
    for nb in grid.neighbours(own):
        assert spaces.path().contains(to_scene(*grid.centre(nb)))
    assert not spaces.path().contains(to_scene(*grid.centre(own)))
    (zoc,) = flow.overlay.of_kind("zoc")
    enemy = next(s.target for s in flow.targets.statuses())
    for cell in grid.zone_of_control(g.space_of(enemy)):
        assert zoc.path().contains(to_scene(*grid.centre(cell)))
    assert flow.overlay.of_kind("engagement") == []


def test_ninth_age_arcs_of_the_selected_target(qtbot, tmp_path):
    scenario = demo("ninth-age")
    window, flow = make_window(qtbot, scenario, tmp_path)
    attacker, target = first_pair(scenario)
    flow.document.set_selection([attacker])
    flow.attack.set_target(target)
    settle(qtbot, flow)
    arcs = flow.overlay.of_kind("arc_line")  # the ruleset's shapes
    assert len(arcs) == 4
    body = battle_of(scenario).board.body(target)
    fp = body.footprint
    from tabletop_gui.geometry import outline

    corners = {(round(x, 6), round(y, 6)) for x, y in outline.corners(fp)}
    g = BoardGeometry(battle_of(scenario).board)
    for item in arcs:
        a, b = item.path().elementAt(0), item.path().elementAt(1)
        start = (round(a.x / 40.0, 6), round(-a.y / 40.0, 6))
        assert start in corners
        # a point just past the corner on the line lies on the boundary between two arcs:
        # points either side of it are in different arcs
        mid = ((a.x + b.x) / 2 / 40.0, -(a.y + b.y) / 2 / 40.0)
        dx, dy = (b.x - a.x) / 40.0, -(b.y - a.y) / 40.0
        n = shapely.Point(-dy, dx)
        eps = 0.05 / (dx * dx + dy * dy) ** 0.5
        left = (mid[0] + n.x * eps, mid[1] + n.y * eps)
        right = (mid[0] - n.x * eps, mid[1] - n.y * eps)
        assert g.arc_of_point(target, left) != g.arc_of_point(target, right)


def test_each_mark_rings_its_own_enemy(qtbot, tmp_path):
    """Marks of equal bases share one drawing, moved to each enemy: every ring surrounds
    its enemy's base, RING_GAP_IN outside it (a glyph sits at its top-left)."""
    window, flow = _archer_window(qtbot, tmp_path)
    scenario = flow.attack.scenario
    marked = [s.target for s in flow.targets.statuses()]
    assert len(marked) >= 2
    for target in marked:
        marker = flow.overlay.marker(target)
        assert marker is not None
        enemy = scenario.model(target)
        base = model_polygon(enemy).buffer(0.02)
        ring = model_polygon(enemy).buffer(0.2)
        rect = marker.path().boundingRect()
        right_bottom = to_table(rect.bottomRight())
        minx, miny, maxx, maxy = base.bounds
        # the ring's right and bottom edges are just outside the base (the glyph is top-left)
        assert maxx < right_bottom[0] <= ring.bounds[2] + 1e-6
        assert ring.bounds[1] - 1e-6 <= right_bottom[1] < miny
