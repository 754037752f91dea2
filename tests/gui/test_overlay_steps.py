"""Issue 17: a drag step redraws only the target marks that may show something else (the
statuses judged on the scenario before, the models the step moved, the sight lines when
the attacker or the geometry changed: ``AttackOverlay._changes``), not every enemy's. The
overlay must then show what one drawn afresh on the same view and statuses shows, step
after step, whichever model moves."""

from __future__ import annotations

import dataclasses
import random

from PySide6.QtWidgets import QGraphicsScene

from tabletop_gui.bench.cases_gui import crowd_scenario
from tabletop_gui.model.target_scan import TargetStatus
from tabletop_gui.ui.canvas.scene import LayerItem
from tabletop_gui.ui.canvas_overlays import AttackOverlay, TargetMarker
from tests.gui.attack_support import make_window, select_attacker, settle


def _where(item) -> tuple[float, ...]:  # noqa: ANN001
    """Where an item draws (scene): its path's box, moved by its position (a drag step
    moves the attacker's zones by their position), to a millionth of a unit."""
    box = item.path().boundingRect().translated(item.pos())
    return tuple(round(v, 6) for v in box.getRect())


def _shown(status: TargetStatus | None) -> TargetStatus | None:
    """A status as a mark shows it: every field but the ``stale`` flag (a drag step's
    stale copy of a status has its verdict, reasons, report and tooltip; the mark of an
    enemy without a sight line keeps the status it was drawn with)."""
    return None if status is None else dataclasses.replace(status, stale=False)


def _state(overlay: AttackOverlay) -> dict[object, object]:
    """What the overlay shows, per group and per enemy, without the items' identity (the
    geometry an enemy was drawn on counts for its sight line only)."""
    groups = {}
    for name, (key, items) in overlay._groups.items():
        groups[name] = (key, [(i.kind, i.key, i.isVisible(), _where(i), i.toolTip(),
                               _shown(getattr(i, "status", None)),
                               getattr(i, "shown", None))
                              for i in items])
    seen = {t: (_shown(s), e, c, g if sight else None, sight,
                m is not None and m.shown and m.status is s)
            for t, (s, e, c, g, sight, m) in overlay._seen.items()}
    return {"groups": groups, "seen": seen}


def test_marks_redrawn_step_by_step_equal_marks_drawn_afresh(qtbot, tmp_path, monkeypatch):
    window, flow = make_window(qtbot, crowd_scenario(200), tmp_path)
    doc, overlay = window.document, flow.overlay
    scene = QGraphicsScene()
    layer = LayerItem(0.0)
    scene.addItem(layer)
    fresh = AttackOverlay(layer)
    walks = []
    every = AttackOverlay._every_enemy

    def counted(self, *args):  # noqa: ANN001, ANN002, ANN202
        if self is overlay:
            walks.append(1)
        return every(self, *args)

    monkeypatch.setattr(AttackOverlay, "_every_enemy", counted)

    def same_as_afresh() -> None:
        fresh.clear()
        assert fresh.update(flow.attack.current_view, flow.attack.scenario, flow.targets)
        mine, theirs = _state(overlay), _state(fresh)
        # the mark found by its group is the one among every item (of either overlay)
        for drawn in (overlay, fresh):
            marks = {i.key: i for i in drawn.items if isinstance(i, TargetMarker)}
            assert {t: drawn.marker(t) for t in doc.scenario.by_id} \
                == {t: marks.get(t) for t in doc.scenario.by_id}
            for kind in ("target", "sight", "selected_target", "range"):  # in one pass
                assert drawn.of_kind(kind) == [i for i in drawn.items if i.kind == kind]
        assert mine["seen"] == theirs["seen"]
        assert mine["groups"].keys() == theirs["groups"].keys()
        for name, group in mine["groups"].items():
            assert group == theirs["groups"][name], name

    select_attacker(qtbot, flow, "m90")
    assert overlay.of_kind("sight")  # the full reports drew sight lines
    same_as_afresh()
    rng = random.Random(17)
    start = doc.scenario
    walks.clear()
    steps = 0
    # (m180: an enemy out of range, without a sight line: its mark moves with it)
    for moved in ("m90", "m110", "m91", "m90", "m130", "m111", "m90", "m180"):
        for _ in range(3):
            m = start.model(moved)
            dx, dy = rng.uniform(-3, 3), rng.uniform(-3, 3)
            with monkeypatch.context() as held:  # steps drawn before their verdicts
                held.setattr(flow.targets, "advance", lambda *a, **k: False)
                for k in (1.0, 0.5):  # the second on statuses already stale
                    doc.preview({moved: m.moved_to(m.x + k * dx, m.y + k * dy)})
                    if steps == 7 and k == 1.0:
                        assert not walks  # no target: the same weapon, no walk
                        flow.attack.set_target("m110")  # a target chosen mid-drag
                    qtbot.waitUntil(lambda: flow.attack.snapshot is doc.snapshot
                                    and not flow.attack.pending
                                    and not flow._draw_timer.isActive(), timeout=20000)
                    assert all(s.stale for s in flow.targets.statuses()
                               if s.target != flow.attack.choice.target)
                    same_as_afresh()
            flow.targets._go_on()  # then its verdicts
            qtbot.waitUntil(lambda: flow.marked and not flow.targets.busy
                            and not flow._draw_timer.isActive(), timeout=20000)
            same_as_afresh()
            steps += 1
        doc.end_preview()  # cancelled: back where it was, every report again
        settle(qtbot, flow)
        same_as_afresh()
        assert overlay.of_kind("sight")
    # with a target, the weapon the rules pick (sword or bow) changes with the range,
    # and with it the whole overlay (a walk over every enemy); a few steps
    assert len(walks) < steps // 3


def test_zones_kept_for_the_next_attacker_equal_zones_drawn_afresh(qtbot) -> None:  # noqa: ANN001
    """The range band and engagement zone are built once per base, facing and range and
    moved to the attacker: for another fighter (other id, place, profile) of the same
    base and facing, they equal the ones an overlay that drew nothing builds."""
    from dataclasses import replace

    from tabletop_gui.rules.fields import RangeSpec
    from tabletop_gui.scenario.entities import OvalBase

    scene = QGraphicsScene()
    layers = [LayerItem(0.0), LayerItem(0.0)]
    for layer in layers:
        scene.addItem(layer)
    kept = AttackOverlay(layers[0])
    first = crowd_scenario(4).fighters[0]
    rng = RangeSpec(maximum=12.0, minimum=3.0)
    others = [replace(first, id="x", name="X", x=7.5, y=3.25),
              replace(first, id="y", x=2.0, y=9.0, facing=33.0),
              replace(first, id="z", base=OvalBase(60, 35), facing=33.0),
              replace(first, id="z", base=OvalBase(60, 35), facing=33.0, x=11.0)]
    kept._zone_paths(first, rng, 1.0)
    for other in others:
        fresh = AttackOverlay(layers[1])
        got, want = kept._zone_paths(other, rng, 1.0), fresh._zone_paths(other, rng, 1.0)
        for a, b in zip(got, want, strict=True):
            assert a is not None and b is not None
            assert [(a.elementAt(i).x, a.elementAt(i).y) for i in range(a.elementCount())] \
                == [(b.elementAt(i).x, b.elementAt(i).y) for i in range(b.elementCount())]


def test_target_rows_kept_per_enemy_equal_rows_made_afresh(qtbot, tmp_path) -> None:  # noqa: ANN001
    """The Attack panel's target list keeps each enemy's row while its value and verdict
    stay: after edits (an enemy moved across the range, renamed, taken down) and another
    attacker, the list is the one made from the statuses afresh (issue 17)."""
    from dataclasses import replace

    window, flow = make_window(qtbot, crowd_scenario(200), tmp_path)
    doc, panel = window.document, flow.attack_panel

    def listed() -> list[tuple[str, object]]:
        combo = panel.target_combo
        return [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())]

    def afresh() -> list[tuple[str, object]]:
        rows: list[tuple[str, object]] = [(panel.target_combo.itemText(0), None)]
        for s in flow.targets.statuses():
            m = doc.scenario.model(s.target)
            rows.append((f"{'✔' if s.valid else '✖'} {m.name} ({s.target})", s.target))
        return rows

    select_attacker(qtbot, flow, "m90")
    assert listed() == afresh()
    edits = [lambda s: s.with_entity(s.model("m110").moved_to(25.0, 40.0)),
             lambda s: s.with_entity(replace(s.model("m111"), name="Renamed")),
             lambda s: s.with_entity(replace(s.model("m112"), state={"taken_down": True})),
             lambda s: s.with_entity(s.model("m110").moved_to(25.0, 26.0))]
    for edit in edits:
        doc.edit("edit", edit(doc.scenario))
        settle(qtbot, flow)
        assert listed() == afresh()
    select_attacker(qtbot, flow, "m91")
    assert listed() == afresh()


def test_the_target_ring_kept_and_moved_is_the_ring_built_where_the_target_stands(qtbot):  # noqa: ANN001, E501
    """The chosen target's ring is built once per base and facing and moved to the target
    (a move of the target only translates it): for fighters of other places, bases and
    facings, and a unit, it draws the ring built around the target where it stands, to
    a thousandth of an inch (GEOS's buffer keeps or merges a vertex of its arcs as the
    coordinates round, which moves the chord between its neighbours by ~0.0004")."""
    from dataclasses import replace

    import shapely

    from tabletop_gui.scenario.entities import OvalBase
    from tabletop_gui.ui.canvas.coords import INCH
    from tabletop_gui.ui.canvas_overlays import RING_GAP_IN
    from tabletop_gui.ui.overlay_shapes import model_polygon, qpath
    from tests.gui.attack_support import demo

    def line(path) -> shapely.LineString:  # noqa: ANN001
        return shapely.LineString([(path.elementAt(i).x, path.elementAt(i).y)
                                   for i in range(path.elementCount())])

    scene = QGraphicsScene()
    layer = LayerItem(0.0)
    scene.addItem(layer)
    kept = AttackOverlay(layer)
    first = crowd_scenario(4).fighters[0]
    unit = demo("ninth-age").units[0]
    targets = [first, replace(first, x=7.5, y=3.25), replace(first, x=2.0, y=9.0, facing=33.0),
               replace(first, base=OvalBase(60, 35), facing=33.0),
               replace(first, base=OvalBase(60, 35), facing=33.0, x=11.0),
               unit, unit.moved_to(unit.x + 3.0, unit.y - 1.0)]
    for target in targets:
        got = line(kept._target_ring(target))
        want = line(qpath(model_polygon(target).buffer(RING_GAP_IN * 2.5, quad_segs=24)))
        assert got.hausdorff_distance(want) < 1e-3 * INCH
