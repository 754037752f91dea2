"""Autosave to a recovery file after edits (debounced), restore after a simulated crash,
removal on a clean exit."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QMessageBox

from tabletop_gui.model.recovery import RECOVERY_NAME
from tabletop_gui.scenario.load import load_scenario
from tests.gui.factories import ranked, skirmish


def _edit(w, n=3):
    for k in range(n):
        f = w.document.scenario.model("f1")
        w.document.edit(f"Move {k}", w.document.scenario.with_entity(f.moved_to(f.x + 1, 2)))


def _autosaved(w, qtbot):
    rec = w.recovery
    rec.start()
    rec.timer.setInterval(5)
    _edit(w)
    assert rec.timer.isActive()  # debounced: waits for a pause after the edits
    with qtbot.waitSignal(rec.timer.timeout, timeout=2000):
        pass
    return rec


def test_crash_then_restore_gives_the_exact_document(make_window, qtbot, tmp_path, monkeypatch):
    folder = tmp_path / "data"
    origin = tmp_path / "ford.battle.json"
    w1 = make_window(skirmish(), path=origin, recovery_dir=folder)
    rec = _autosaved(w1, qtbot)
    assert (folder / RECOVERY_NAME).exists()
    assert load_scenario(folder / RECOVERY_NAME) == w1.document.scenario
    lost = w1.document.scenario
    w1.files.use_recovery(None)  # the crash: the first window never exits cleanly
    rec.document.changed.disconnect(rec._on_changed)

    w2 = make_window(ranked(), recovery_dir=folder)
    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append((a[1], a[2]))
                        or QMessageBox.StandardButton.Yes)
    assert w2.offer_recovery()
    assert [title for title, _ in asked] == ["Restore unsaved work?"]
    text = asked[0][1]
    # the offer names what it brings back, where it came from and when, and what it replaces
    assert "\u201cAmbush at the ford\u201d (Warcry)" in text
    assert f"from the file {origin}" in text
    assert re.search(r"autosaved \d\d \w+ 20\d\d at \d\d:\d\d", text)
    assert "open now: an unnamed battlefield (The Ninth Age: Fantasy Battles" in text
    assert w2.document.scenario == lost
    assert w2.document.path == origin and w2.isWindowModified()
    assert set(w2.scene.entity_items()) == {e.id for e in lost.entities}
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Discard)
    assert w2.close()  # a clean exit removes the recovery file
    assert not (folder / RECOVERY_NAME).exists()


def test_declining_discards_the_recovery_file(make_window, qtbot, tmp_path, monkeypatch):
    folder = tmp_path / "data"
    w1 = make_window(skirmish(), recovery_dir=folder)
    rec = _autosaved(w1, qtbot)
    w1.files.use_recovery(None)
    rec.document.changed.disconnect(rec._on_changed)
    w2 = make_window(ranked(), recovery_dir=folder)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    assert not w2.offer_recovery()
    assert w2.document.scenario == ranked()
    assert not (folder / RECOVERY_NAME).exists()


def test_nothing_unsaved_leaves_no_recovery_file(make_window, qtbot, tmp_path):
    folder = tmp_path / "data"
    w = make_window(skirmish(), recovery_dir=folder)
    w.offer_recovery()
    rec = _autosaved(w, qtbot)
    assert rec.file.exists()
    for _ in range(3):
        w.undo_action.trigger()
    with qtbot.waitSignal(rec.timer.timeout, timeout=2000):
        pass
    assert not rec.file.exists()


def test_default_folder_is_the_app_data_location(qapp):
    from PySide6.QtCore import QStandardPaths

    from tabletop_gui.model.recovery import default_folder

    assert str(default_folder()) == QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppDataLocation)
