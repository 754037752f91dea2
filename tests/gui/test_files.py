"""Files through the menus: Save As / Open round trip, recent files, the unsaved mark,
asking before discarding, New, Export picture, window state in QSettings."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QMessageBox

from tabletop_gui.scenario.load import load_scenario
from tabletop_gui.scenario.resources import load_demo
from tests.gui.factories import skirmish


def _save_to(monkeypatch, path):
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))


def _answer(monkeypatch, button):
    asked: list[str] = []

    def question(*a, **k):
        asked.append(a[1])
        return button

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def _nudge(w):
    f1 = w.document.scenario.model("f1")
    w.document.edit("Move", w.document.scenario.with_entity(f1.moved_to(7, 7)))


def test_save_as_then_open_round_trip(make_window, monkeypatch, tmp_path, qtbot):
    w = make_window(skirmish())
    _nudge(w)
    assert w.isWindowModified()
    target = tmp_path / "ford.battle.json"
    _save_to(monkeypatch, target)
    w.files.save_as_action.trigger()
    assert target.exists() and not w.isWindowModified()
    assert w.windowTitle().startswith("ford.battle.json")
    assert load_scenario(target) == w.document.scenario
    assert w.files.recent_files() == [str(target)]
    saved = w.document.scenario
    w.document.edit("Delete", saved.without_entity("f1"))
    _nudge_back = _answer(monkeypatch, QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(target), ""))
    with qtbot.waitSignal(w.files.opened):  # read on the worker
        w.files.open_action.trigger()
    assert _nudge_back, "asked before discarding the unsaved delete"
    assert w.document.scenario == saved and w.document.path == target
    assert not w.isWindowModified() and w.document.undo_stack.count() == 0


def test_save_writes_to_the_same_file(make_window, monkeypatch, tmp_path):
    target = tmp_path / "a.battle.json"
    w = make_window(skirmish(), path=target)
    _nudge(w)
    w.files.save_action.trigger()
    assert load_scenario(target).model("f1").x == 7


def test_cancel_keeps_the_document(make_window, monkeypatch):
    w = make_window(skirmish())
    _nudge(w)
    before = w.document.scenario
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    assert not w.files.new("ninth-age", demo=True)
    assert asked and w.document.scenario is before
    assert not w.close() and w.isVisible()  # closing asks too; Cancel keeps the window


def test_new_from_demo_and_empty(make_window):
    w = make_window(skirmish())
    assert w.files.new("ninth-age", demo=True)
    assert w.document.scenario == load_demo("ninth-age") and w.document.path is None
    assert set(w.scene.entity_items()) == {e.id for e in w.document.scenario.entities}
    assert w.files.new("circle-of-realms", demo=False)
    assert w.document.scenario.battlefield.grid is not None
    assert w.scene.entity_items() == {}


def test_open_recent(make_window, monkeypatch, tmp_path, qtbot):
    w = make_window(skirmish())
    target = tmp_path / "r.battle.json"
    _save_to(monkeypatch, target)
    w.files.save_as()
    w.files.new("warcry", demo=True)
    menu = w.files._recent_menu
    menu.aboutToShow.emit()
    actions = [a for a in menu.actions() if a.text() == str(target)]
    assert len(actions) == 1
    with qtbot.waitSignal(w.files.opened):
        actions[0].trigger()
    assert w.document.path == target and w.document.scenario == skirmish()


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_export_picture(make_window, monkeypatch, tmp_path, suffix):
    w = make_window(skirmish())
    w.document.set_selection(["f1"])
    out = tmp_path / f"field.{suffix}"
    _save_to(monkeypatch, out)
    assert w.files.export_picture()
    if suffix == "png":
        image = QImage(str(out))
        assert image.width() == round(w.scene.sceneRect().width())
        table = image.pixelColor(image.width() // 2, 40 + 2 * 40)  # a point on the table
        assert table.name() != "#ffffff"
    else:
        text = out.read_text()
        assert "<svg" in text and "Iron Sentinel" in text
    assert w.document.selection == ("f1",)


def test_window_state_is_kept_in_settings(make_window, tmp_path):
    w = make_window(skirmish())
    w.close()
    assert w.settings.value("window/geometry") is not None
    assert str(tmp_path) in w.settings.fileName()
