"""A full attack per ruleset through the main window: select, Tab to the target, read the
panel (the engine's numbers), roll with a seed (R) and with entered dice (digits), apply
(Enter) as one undoable edit found in the log, undo; Esc clears."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, GivenDice, SeededDice
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.ui.canvas.coords import to_scene
from tests.gui.attack_support import (
    RULESETS,
    demo,
    first_pair,
    make_window,
    select_attacker,
    settle,
)


def _type_faces(qtbot, widget, faces: list[int], sides: list[int]) -> None:  # noqa: ANN001
    for face, size in zip(faces, sides, strict=True):
        text = str(face)
        if size >= 10 and len(text) == 1 and face * 10 <= size:
            qtbot.keyClicks(widget, text)
            qtbot.keyClick(widget, Qt.Key.Key_Space)
        else:
            qtbot.keyClicks(widget, text)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_full_attack_through_the_widgets(qtbot, tmp_path, ruleset: str) -> None:
    scenario = demo(ruleset)
    window, flow = make_window(qtbot, scenario, tmp_path)
    attacker, target = first_pair(scenario)
    select_attacker(qtbot, flow, attacker)
    window.view.setFocus()
    valid = [s.target for s in flow.targets.statuses() if s.valid]
    assert target in valid
    for _ in range(valid.index(target) + 1):
        qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    assert flow.attack.choice.target == target
    settle(qtbot, flow)

    engine = registry.get(ruleset)
    battle = battle_of(scenario)
    report = engine.attack(battle, AttackRequest(attacker, target))
    panel, odds = flow.attack_panel, flow.odds_panel
    assert panel.checklist.topLevelItemCount() == len(report.checks)
    assert odds.expected_label.text() == f"{report.expected_damage:.2f}"
    assert odds.take_down_label.text() == f"{100 * report.take_down_probability:.1f}%"
    assert list(odds.bars.opts["height"]) == pytest.approx(
        [p for _, p in report.distribution.items()])
    assert not panel.apply_button.isEnabled()

    # roll with a seed: R
    panel.dice.seed_box.setValue(5)
    qtbot.keyClick(window.view, Qt.Key.Key_R)
    settle(qtbot, flow)
    rolled = engine.resolve(battle, AttackRequest(attacker, target), SeededDice(5))
    assert flow.attack.current_view.resolution is not None
    assert flow.attack.current_view.resolution.changes == rolled.changes
    assert "Rolled with seed 5" in panel.dice.status_label.text()
    assert panel.apply_button.isEnabled()

    # apply: Enter, one undoable edit, logged
    count = window.document.undo_stack.count()
    with qtbot.waitSignal(window.document.changed):
        qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert window.document.undo_stack.count() == count + 1
    assert window.document.undo_stack.undoText().startswith("Apply attack")
    for change in rolled.changes:
        model = window.document.scenario.model(change.combatant)
        assert model is not None
        assert {k: model.state[k] for k in change.state} == dict(change.state)
    text = flow.log_panel.text.toPlainText()
    names = (scenario.model(attacker).name, scenario.model(target).name)
    assert all(n in text for n in names) and "seed 5" in text
    assert f"result: {rolled.damage} damage" in text
    assert list(flow.attack.dice.faces) == [] and flow.attack.current_view.resolution is None

    # undo restores the document; the panel follows
    window.document.undo_stack.undo()
    settle(qtbot, flow)
    assert window.document.scenario == scenario
    assert flow.log_panel.entries[-1].startswith("(undone: Apply attack")
    assert flow.attack.current_view.report is not None
    assert flow.attack.current_view.report.to_json() == report.to_json()

    # entered dice, typed as digits, conditioned odds on the way
    faces = [d.face for d in rolled.dice]
    sides = [d.sides for d in rolled.dice]
    _type_faces(qtbot, window.view, faces[:1], sides[:1])
    settle(qtbot, flow)
    if len(faces) > 1:
        given = engine.odds_given(battle, AttackRequest(attacker, target), faces[:1])
        assert list(odds.bars.opts["height"]) == pytest.approx([p for _, p in given.items()])
        assert "Given the 1 dice so far" in odds.condition_label.text()
    _type_faces(qtbot, window.view, faces[1:], sides[1:])
    settle(qtbot, flow)
    assert list(flow.attack.dice.faces) == faces
    entered = engine.resolve(battle, AttackRequest(attacker, target), GivenDice(faces))
    assert flow.attack.current_view.resolution is not None
    assert flow.attack.current_view.resolution.changes == entered.changes
    shown = panel.dice.tray.summary()
    assert all(f"{d.face} ({d.outcome})" in shown for d in entered.dice)

    # Esc clears the attack
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert flow.attack.choice.attacker is None and flow.attack.current_view.report is None
    assert flow.overlay.items == []


def test_clicking_an_enemy_on_the_canvas_makes_it_the_target(qtbot, tmp_path) -> None:
    scenario = demo("warcry")
    window, flow = make_window(qtbot, scenario, tmp_path)
    window.show()
    qtbot.waitExposed(window)
    attacker, target = first_pair(scenario)
    select_attacker(qtbot, flow, attacker)
    enemy = scenario.model(target)
    assert enemy is not None
    pos: QPoint = window.view.mapFromScene(to_scene(enemy.x, enemy.y))
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert flow.attack.choice.attacker == attacker
    assert flow.attack.choice.target == target
    settle(qtbot, flow)
    assert flow.attack_panel.target_combo.currentData() == target


def test_invalid_face_typed_is_refused_with_the_rules_words(qtbot, tmp_path) -> None:
    scenario = demo("warcry")
    window, flow = make_window(qtbot, scenario, tmp_path)
    attacker, target = first_pair(scenario)
    select_attacker(qtbot, flow, attacker)
    flow.attack.set_target(target)
    settle(qtbot, flow)
    with qtbot.waitSignal(flow.attack_panel.dice.refused) as blocker:
        qtbot.keyClick(window.view, Qt.Key.Key_7)
    assert "d6 shows 1 to 6" in blocker.args[0]
    assert flow.attack_panel.dice.message_label.text() == blocker.args[0]
    assert list(flow.attack.dice.faces) == []


def test_situational_options_are_generated_and_change_the_odds(qtbot, tmp_path) -> None:
    scenario = demo("circle-of-realms")
    window, flow = make_window(qtbot, scenario, tmp_path)
    attacker, target = first_pair(scenario)
    select_attacker(qtbot, flow, attacker)
    flow.attack.set_target(target)
    widgets = flow.attack_panel.options_form.widgets
    info = registry.info("circle-of-realms")
    assert set(widgets) == {o.key for o in info.situational_options}
    settle(qtbot, flow)
    before = flow.attack.current_view.report
    widgets["night"].setChecked(True)
    assert dict(flow.attack.choice.options) == {"night": True}
    settle(qtbot, flow)
    engine = registry.get("circle-of-realms").attack(
        battle_of(scenario), AttackRequest(attacker, target, situational={"night": True}))
    assert flow.attack.current_view.report is not None and before is not None
    assert flow.attack.current_view.report.to_json() == engine.to_json()
    assert flow.odds_panel.expected_label.text() == f"{engine.expected_damage:.2f}"


def test_digits_typed_in_the_seed_box_edit_the_seed_not_the_dice(qtbot, tmp_path) -> None:
    scenario = demo("warcry")
    window, flow = make_window(qtbot, scenario, tmp_path)
    attacker, target = first_pair(scenario)
    select_attacker(qtbot, flow, attacker)
    flow.attack.set_target(target)
    box = flow.attack_panel.dice.seed_box
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, "42")
    assert box.value() == 42 and flow.attack.seed == 42
    assert list(flow.attack.dice.faces) == []
    qtbot.keyClick(box, Qt.Key.Key_R)
    assert flow.attack.dice.seed is None  # R typed into a number box is not a roll


def test_a_roll_in_the_window_takes_a_fresh_seed_shown_and_logged(qtbot, tmp_path) -> None:
    """Two game nights (two windows) do not start with the same dice: each roll draws its
    seed from the operating system, shows it, and the log keeps it for a replay."""
    seeds = []
    for night in ("one", "two"):
        scenario = demo("warcry")
        window, flow = make_window(qtbot, scenario, tmp_path / night)
        attacker, target = first_pair(scenario)
        select_attacker(qtbot, flow, attacker)
        flow.attack.set_target(target)
        settle(qtbot, flow)
        box = flow.attack_panel.dice.seed_box
        assert box.text() == "fresh seed" and flow.attack.seed is None
        flow.attack_panel.dice.roll_button.click()
        settle(qtbot, flow)
        seed = flow.attack.dice.seed
        assert seed is not None
        qtbot.waitUntil(lambda s=seed, f=flow: f"Rolled with seed {s}:"
                        in f.attack_panel.dice.status_label.text())
        assert box.text() == "fresh seed"  # the next roll draws again
        flow.apply()
        assert f"(rolled, seed {seed})" in flow.log_panel.entries[-1]
        seeds.append(seed)
    assert seeds[0] != seeds[1]  # two draws of 2e9 values: equal with odds 5e-10
