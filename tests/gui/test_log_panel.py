"""The Log panel: an applied attack is recorded with attacker, weapon, target, geometry,
modifiers, dice and result, and the log saves as text (file dialog monkeypatched)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from tests.gui.attack_support import archers, make_window, settle


def test_applied_attack_is_logged_and_saved(qtbot, tmp_path, monkeypatch) -> None:
    window, flow = make_window(qtbot, archers(), tmp_path)
    flow.document.set_selection(["a"])
    flow.attack.set_weapon("Bow")
    flow.attack.set_target("c")  # behind the low wall: in cover
    for face in (6, 4):
        flow.attack_panel.dice.enter_face(face)  # judged in turn on the worker
    settle(qtbot, flow)
    assert flow.attack.dice.faces == (6, 4)
    assert flow.attack.current_view.resolution is not None
    flow.attack_panel.apply_button.click()
    settle(qtbot, flow)  # the attack follows the edited battlefield
    entry = flow.log_panel.entries[-1]
    assert "F a (a) attacks F c (c) with Bow (missile)" in entry
    assert 'distance 7.000"' in entry
    assert "in cover, given by Low wall (wall)" in entry
    assert "modifier cover: +1 toughness (line crosses Low wall (wall))" in entry
    assert "dice (entered): 6 (hit roll 1: critical), 4 (hit roll 2: miss)" in entry
    assert f"result: {flow.attack.scenario.model('c').state['damage']} damage" in entry

    target = tmp_path / "night.txt"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(target), "Text files (*.txt)")))
    with qtbot.waitSignal(flow.log_panel.saved):
        flow.log_panel.save_button.click()
    assert Path(target).read_text(encoding="utf-8") == entry + "\n"


def test_cancelled_save_writes_nothing(qtbot, tmp_path, monkeypatch) -> None:
    window, flow = make_window(qtbot, archers(), tmp_path)
    flow.log_panel.add("#1 something")
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: ("", "")))
    flow.log_panel.save_button.click()
    assert list(tmp_path.glob("*.txt")) == []


def test_taken_down_target_is_marked_in_the_document_and_the_log(qtbot, tmp_path) -> None:
    window, flow = make_window(qtbot, archers(), tmp_path)
    flow.document.set_selection(["a"])
    flow.attack.set_weapon("Bow")
    flow.attack.set_target("t")
    for _ in range(4):  # crit, crit: 2 + 2 damage per attack; two attacks of the Bow
        flow.attack.set_seed(flow.attack.seed)
        flow.attack.clear_dice()
        for face in (6, 6):
            flow.attack_panel.dice.enter_face(face)
        settle(qtbot, flow)
        assert list(flow.attack.dice.faces) == [6, 6] and flow.attack.can_apply
        flow.apply()
        if window.document.scenario.taken_down(window.document.scenario.model("t")):
            break
    assert window.document.scenario.taken_down(window.document.scenario.model("t"))
    assert "taken down" in flow.log_panel.entries[-1]
    settle(qtbot, flow)
    # a taken-down model is no longer an enemy to mark
    assert flow.overlay.marker("t") is None


def test_cover_is_said_in_words_with_the_terrain_names():
    from tabletop_gui.ui.log_panel import cover_words
    from tests.gui.factories import skirmish

    scenario = skirmish()
    assert cover_words("none", (), scenario) == "not in cover"
    assert cover_words("cover", ("w1",), scenario) == "in cover, given by Ruined wall (w1)"
    assert cover_words("soft", ("h1", "gone"), scenario) == (
        "in soft cover, given by Hedge (h1), gone")
    assert cover_words("hard", (), None) == "in hard cover"
