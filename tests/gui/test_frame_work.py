"""Issue 17: what one repaint of a crowded view costs in Python. Qt asks every item its
bounds several times a repaint and paints each item with contents: an item whose bounds
or painting are Python methods costs a call into Python each time (2,000 models and
1,000 target marks: tens of milliseconds a frame). The models' bounds are answered in
C++, the marks are drawn by one layer item, and models, terrain, marks and labels are
blitted from their caches: a repaint of the whole view calls Python a few times, however
many models and marks it shows.

Counted, not timed: ``sys.setprofile`` sees every Python function Qt calls."""

from __future__ import annotations

import sys
from collections import Counter

from PySide6.QtGui import QColor, QImage

from tabletop_gui.bench.cases_gui import crowd_scenario
from tabletop_gui.ui.canvas.coords import to_scene
from tests.gui.attack_support import make_window, select_attacker

PYTHON_CALLS = 30  # a repaint of the whole view, whatever the number of models


def _calls_of(work, event: str = "call") -> Counter:  # noqa: ANN001
    """What ``work`` called: Python functions (``call``: file:name) or functions of C
    extensions, Qt's methods among them (``c_call``: their qualified names)."""
    calls: Counter = Counter()

    def seen(frame, kind, arg):  # noqa: ANN001, ANN202
        if kind == event == "call":
            calls[f"{frame.f_code.co_filename.rsplit('/', 1)[-1]}:{frame.f_code.co_name}"] += 1
        elif kind == event:
            calls[getattr(arg, "__qualname__", str(arg))] += 1

    sys.setprofile(seen)
    try:
        work()
    finally:
        sys.setprofile(None)
    return calls


def test_a_repaint_of_400_models_and_300_marks_calls_python_a_few_times(qtbot, tmp_path):
    window, flow = make_window(qtbot, crowd_scenario(400), tmp_path)
    select_attacker(qtbot, flow, "m90")
    assert len(flow.overlay.of_kind("target")) == 300
    window.view.fit_to_window()
    vp = window.view.viewport()
    vp.repaint()  # the caches filled
    calls = _calls_of(vp.repaint)
    assert sum(calls.values()) <= PYTHON_CALLS, calls.most_common(8)
    # nothing changed since the last repaint: every item is a blit from its cache
    assert [name for name in calls if name.endswith(":paint")] == []


def _pixel(window, x: float, y: float) -> QColor:  # noqa: ANN001
    """The colour the view shows at the table point (x, y) inches, painted now."""
    vp = window.view.viewport()
    vp.repaint()
    image: QImage = vp.grab().toImage()
    at = window.view.mapFromScene(to_scene(x, y))
    ratio = image.devicePixelRatio()
    return image.pixelColor(round(at.x() * ratio), round(at.y() * ratio))


def test_the_marks_layer_repaints_a_mark_hidden_shown_or_removed(qtbot, tmp_path):
    """The layer keeps its drawing in a cache: a mark hidden, shown again or gone is
    redrawn there (the ring's right edge, where nothing else is drawn)."""
    window, flow = make_window(qtbot, crowd_scenario(200), tmp_path)
    select_attacker(qtbot, flow, "m90")
    window.view.fit_to_window()
    window.view.zoom_by(3.0)
    enemy = window.document.scenario.model("m110")  # blue, in front of the attacker
    window.view.centerOn(to_scene(enemy.x, enemy.y))
    marker = flow.overlay.marker("m110")
    assert marker is not None and marker.isVisible()
    ring = marker.path().boundingRect()
    edge = ring.right() - 1.0, ring.center().y()  # on the ring, right of the base
    x, y = edge[0] / 40.0, -edge[1] / 40.0
    drawn = _pixel(window, x, y)
    assert drawn == marker.pen().color() or drawn.green() > drawn.red() + 40, drawn.name()

    marker.setVisible(False)
    hidden = _pixel(window, x, y)
    assert hidden != drawn
    marker.setVisible(True)
    assert _pixel(window, x, y) == drawn
    flow.overlay.clear()
    assert _pixel(window, x, y) == hidden


def test_marks_are_blitted_on_screen_and_drawn_as_lines_in_a_vector_export(
        qtbot, tmp_path, monkeypatch):
    """On screen (the layer's cache) each mark is a copy of its shape's picture, drawn
    once per zoom; an SVG export gets every mark as lines."""
    from tabletop_gui.ui import mark_sprites
    from tabletop_gui.ui.export import export_scene

    window, flow = make_window(qtbot, crowd_scenario(200), tmp_path)
    select_attacker(qtbot, flow, "m90")
    lines: list[object] = []
    real = mark_sprites.draw_lines

    def counted(painter, path, pen):  # noqa: ANN001, ANN202
        lines.append(path)
        real(painter, path, pen)

    monkeypatch.setattr(mark_sprites, "draw_lines", counted)
    window.view.zoom_by(1.5)  # another zoom: the layer's cache is drawn again
    window.view.viewport().repaint()
    shapes = {(m.sprite_key, m.valid) for m in flow.overlay.of_kind("target")}
    assert len(lines) == len(shapes) <= 2  # each shape's picture drawn once at this zoom
    lines.clear()
    assert export_scene(window.scene, tmp_path / "board.svg")
    assert len(lines) == len(flow.overlay.of_kind("target")) == 100
    assert "<path" in (tmp_path / "board.svg").read_text()


def test_redrawing_a_few_labels_asks_qt_nothing_per_label_elsewhere(qtbot, tmp_path):
    """A moved model redraws its label's old and new places in the names layer's cache:
    the labels elsewhere are passed over in Python, with no call into Qt for each."""
    window, flow = make_window(qtbot, crowd_scenario(400), tmp_path)
    window.view.fit_to_window()
    labels = window.scene.labels
    qtbot.waitUntil(lambda: not labels.pending, timeout=20000)
    vp = window.view.viewport()
    vp.repaint()
    item = window.scene.item_for("m0")
    assert labels.names.label_shown(item)
    labels.names.update(item.label_rect())
    qt_calls = _calls_of(vp.repaint, "c_call")
    assert sum(qt_calls.values()) <= 60, qt_calls.most_common(8)


def test_selecting_a_model_among_1000_touches_the_items_whose_selection_changes(
        qtbot, tmp_path):
    window, _ = make_window(qtbot, crowd_scenario(1000), tmp_path)
    qtbot.waitUntil(lambda: not window.scene.building, timeout=20000)
    document, scene = window.document, window.scene
    document.set_selection(["m1"])
    calls = _calls_of(lambda: document.set_selection(["m2"]), "c_call")
    assert scene.item_for("m2").isSelected() and not scene.item_for("m1").isSelected()
    assert [i.entity_id for i in scene.selectedItems()] == ["m2"]
    asked = sum(n for name, n in calls.items() if name.endswith(".isSelected"))
    assert asked < 10, calls.most_common(5)


def test_placing_1000_labels_in_slices_repaints_the_view_once(qtbot, tmp_path, monkeypatch):
    """Another battlefield of 1,000 models: its labels are placed in slices, and drawn
    once when all are placed (each slice used to repaint the whole view)."""
    from tabletop_gui.ui.canvas.labels import LabelLayer, NamesLayer

    paints, slices = [], []
    paint, work = NamesLayer.paint, LabelLayer._work
    # patched before any layer is made (Qt's calls into Python find the method once)
    monkeypatch.setattr(NamesLayer, "paint", lambda self, *a: (paints.append(1),
                                                              paint(self, *a))[1])
    monkeypatch.setattr(LabelLayer, "_work", lambda self: (slices.append(1), work(self))[1])
    window, _ = make_window(qtbot, crowd_scenario(2), tmp_path)
    labels = window.scene.labels
    with qtbot.waitSignal(window.scene.built, timeout=20000):
        window.document.replace(crowd_scenario(1000))
    paints.clear()
    slices.clear()
    with qtbot.waitSignal(labels.placed, timeout=20000):
        pass
    window.view.viewport().repaint()
    assert len(slices) > 2  # the placement took several turns of the event loop
    assert len(paints) <= 2, (len(paints), len(slices))


def test_the_selected_targets_ring_is_drawn_over_its_mark(qtbot, tmp_path):
    """The thin ring around the chosen target stays visible over the white halo of the
    target's mark: it is stacked above the marks layer (which is above the zones and
    sight lines), as it was above its mark when each mark was an item."""
    window, flow = make_window(qtbot, crowd_scenario(200), tmp_path)
    select_attacker(qtbot, flow, "m90")
    window.document.set_selection(["m110"])  # an enemy: the target
    qtbot.waitUntil(lambda: flow.idle, timeout=20000)
    ring = next(i for i in flow.overlay.of_kind("selected_target") if i.key == "m110")
    mark = flow.overlay.marker("m110")
    assert mark is not None and mark.parentItem() is flow.overlay.marks
    assert ring.parentItem() is flow.overlay.marks.parentItem()
    assert ring.zValue() > flow.overlay.marks.zValue()
    assert ring.isVisible() and mark.isVisible()
