"""Every problem reaches the player as a message saying what is wrong and where (the status
bar and a non-modal notice, ``MainWindow.errors``), and the window never stays stale:
engine failures, rules that cannot judge the targets, a broken profile library, a weapon
range the overlays cannot draw, autosaves and saves that fail."""

from __future__ import annotations

import errno
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMessageBox

from tabletop_gui.model.profiles import library_profiles
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import RulesError
from tabletop_gui.rules.warcry_family.ruleset import WarcryFamilyRuleset
from tabletop_gui.scenario import resources
from tabletop_gui.scenario import save as save_module
from tabletop_gui.scenario.entities import Weapon
from tabletop_gui.scenario.load import load_scenario
from tabletop_gui.scenario.problems import ScenarioError
from tabletop_gui.ui.canvas.tools.add import AddTool
from tabletop_gui.ui.overlay_shapes import RangeProblem, weapon_range
from tests.core.attack_helpers import coupled
from tests.gui.attack_support import (
    DEMOS,
    archers,
    demo,
    first_pair,
    make_window,
    open_file,
    select_attacker,
    settle,
)
from tests.gui.factories import skirmish

ENGINE_BUG = "engine bug"


def _engine_bug(*args: object, **kwargs: object) -> None:
    raise ZeroDivisionError(ENGINE_BUG)


def _label(scenario, model_id: str) -> str:  # noqa: ANN001
    return f"{scenario.model(model_id).name} ({model_id})"


def _notice_shows(window, text: str) -> bool:  # noqa: ANN001
    box = window.errors.box
    return box is not None and box.isVisible() and text in box.text()


# -- the reporter ----------------------------------------------------------------------
def test_a_problem_goes_to_the_status_bar_and_a_non_modal_notice(make_window):
    w = make_window(skirmish())
    w.errors.problem("first problem")
    w.errors.problem("second problem", "details for a developer")
    w.errors.problem("first problem")  # already in the open notice: not listed twice
    box = w.errors.box
    assert box.windowModality() == Qt.WindowModality.NonModal and box.isVisible()
    assert box.text() == "first problem\n\nsecond problem"
    assert box.detailedText() == "details for a developer"
    assert w.statusBar().currentMessage() == "first problem"
    assert w.errors.messages == ["first problem", "second problem", "first problem"]
    box.close()
    w.errors.problem("third problem")  # a new notice lists only what came since
    assert box.isVisible() and box.text() == "third problem"


def test_unprintable_characters_from_a_file_are_shown_as_escapes(make_window):
    w = make_window(skirmish())
    w.errors.problem("weapon \u202egnol\u2028name of x\x07 cannot be read\nsecond line")
    shown = w.errors.messages[-1]
    assert shown == ("weapon \\u202egnol\\u2028name of x\\x07 cannot be read\n"
                     "second line")
    assert w.statusBar().currentMessage() == shown


@pytest.mark.qt_no_exception_capture
def test_an_exception_no_slot_caught_is_told_in_the_window(make_window, qtbot, monkeypatch):
    """The hook ``run_app`` installs: an exception in a Qt slot becomes a message."""
    w = make_window(skirmish())
    monkeypatch.setattr(sys, "excepthook", w.errors.excepthook)
    with qtbot.waitSignal(w.errors.reported, timeout=2000) as told:
        QTimer.singleShot(0, lambda: _engine_bug())
    assert told.args == [f"An action failed: ZeroDivisionError: {ENGINE_BUG}"]
    assert "Traceback" in w.errors.box.detailedText() and "_engine_bug" in \
        w.errors.box.detailedText()


# -- the target scan ---------------------------------------------------------------------
def test_rules_that_cannot_judge_the_targets_mark_every_enemy_and_say_why(
        qtbot, tmp_path, monkeypatch):
    def refuse(*args: object, **kwargs: object) -> None:
        raise RulesError("the weapon profile is broken")

    scenario = demo("warcry")
    attacker, _ = first_pair(scenario)
    monkeypatch.setattr(WarcryFamilyRuleset, "target_validity", refuse)
    monkeypatch.setattr(WarcryFamilyRuleset, "attack", refuse)
    window, flow = make_window(qtbot, scenario, tmp_path)
    with qtbot.waitSignal(flow.scan_finished, timeout=5000):
        window.document.set_selection([attacker])
    enemies = flow.targets.enemies()
    assert enemies
    for enemy in enemies:
        marker = flow.overlay.marker(enemy)
        assert marker is not None and not marker.valid
        assert marker.reasons == ("the weapon profile is broken",)
    message = f"The targets of {_label(scenario, attacker)} cannot be judged: " \
              "the weapon profile is broken"
    assert window.errors.messages.count(message) == 1
    assert window.statusBar().currentMessage() == message and _notice_shows(window, message)


def test_an_engine_failing_on_the_targets_marks_them_and_the_scan_finishes(
        qtbot, tmp_path, monkeypatch):
    scenario = demo("warcry")
    attacker, _ = first_pair(scenario)
    monkeypatch.setattr(WarcryFamilyRuleset, "attack", _engine_bug)
    window, flow = make_window(qtbot, scenario, tmp_path)
    with qtbot.waitSignal(flow.scan_finished, timeout=5000):
        window.document.set_selection([attacker])
    assert flow.targets.scan.complete
    for enemy in flow.targets.enemies():
        marker = flow.overlay.marker(enemy)
        assert marker is not None and not marker.valid
        assert marker.reasons == (f"the rules engine failed: ZeroDivisionError: {ENGINE_BUG}",)
        message = (f"Checking {_label(scenario, enemy)} as a target of "
                   f"{_label(scenario, attacker)} failed: ZeroDivisionError: {ENGINE_BUG}")
        assert window.errors.messages.count(message) == 1
    assert "_engine_bug" in window.errors.box.detailedText()


def test_an_engine_failure_resets_the_attack_and_the_next_file_works(
        qtbot, tmp_path, monkeypatch):
    """Issue 12.6: the attack raises inside the engine in one file; the user is told, the
    window shows no stale attack, and the next file opened works."""
    first, second = tmp_path / "first.battle.json", tmp_path / "second.battle.json"
    shutil.copy(DEMOS / "warcry.battle.json", first)
    shutil.copy(DEMOS / "warcry.battle.json", second)  # the same ids: nothing may linger
    window, flow = make_window(qtbot, demo("ninth-age"), tmp_path)
    open_file(qtbot, window, first)
    attacker, target = first_pair(window.document.scenario)
    select_attacker(qtbot, flow, attacker)
    message = f"Preparing the attack failed: ZeroDivisionError: {ENGINE_BUG}"
    with monkeypatch.context() as m:
        m.setattr(WarcryFamilyRuleset, "attack", _engine_bug)
        window.document.set_selection([target])
        qtbot.waitUntil(lambda: message in window.errors.messages)  # told by the worker
    assert _notice_shows(window, message)
    assert flow.attack.choice.attacker is None and flow.attack.current_view.report is None
    assert flow.overlay.items == []
    assert flow.attack_panel.verdict_label.text() == "Select an attacker, then a target."

    told = len(window.errors.messages)
    open_file(qtbot, window, second)
    select_attacker(qtbot, flow, attacker)
    window.document.set_selection([target])
    settle(qtbot, flow)
    assert flow.attack.choice.attacker == attacker and flow.attack.choice.target == target
    assert flow.attack.current_view.report is not None and flow.attack.current_view.report.valid
    assert len(window.errors.messages) == told  # nothing more went wrong


def test_opening_another_file_starts_the_attack_over(qtbot, tmp_path):
    other = tmp_path / "other.battle.json"
    shutil.copy(DEMOS / "warcry.battle.json", other)
    scenario = demo("warcry")
    window, flow = make_window(qtbot, scenario, tmp_path)
    attacker, target = first_pair(scenario)
    select_attacker(qtbot, flow, attacker)
    window.document.set_selection([target])
    settle(qtbot, flow)
    flow.roll()
    settle(qtbot, flow)
    assert list(flow.attack.dice.faces) and flow.overlay.items
    open_file(qtbot, window, other)
    assert flow.attack.choice.attacker is None and flow.attack.choice.target is None
    assert flow.attack.dice.faces == ()
    assert flow.overlay.items == [] and not flow._scan_timer.isActive()
    assert flow.attack.scenario is window.document.scenario


def test_the_attack_alone_lets_an_engine_failure_through_and_a_handler_is_told(monkeypatch):
    scenario = demo("warcry")
    attacker, target = first_pair(scenario)
    monkeypatch.setattr(WarcryFamilyRuleset, "attack", _engine_bug)
    alone, _ = coupled(scenario)
    alone.set_attacker(attacker)
    with pytest.raises(ZeroDivisionError):
        alone.set_target(target)
    told: list[tuple[str, str]] = []
    st, targets = coupled(scenario, on_failure=lambda where, e: told.append((where, str(e))))
    st.set_attacker(attacker)
    st.set_target(target)
    assert told == [("Preparing the attack", ENGINE_BUG)]
    assert st.choice.attacker is None and st.choice.target is None
    assert st.current_view.report is None and targets.statuses() == []


# -- the profile library ------------------------------------------------------------------
def _broken_library(tmp_path: Path, monkeypatch, text: str) -> Path:  # noqa: ANN001
    path = tmp_path / "warcry.json"
    path.write_text(text, encoding="utf-8")
    real = resources.profiles_path
    monkeypatch.setattr(resources, "profiles_path",
                        lambda rid: path if rid == "warcry" else real(rid))
    return path


def test_a_broken_profile_library_names_its_file_and_place(tmp_path, monkeypatch):
    path = _broken_library(tmp_path, monkeypatch, (
        '{"ruleset": "warcry", "profiles": [{"name": "Archer", "base": {"shape": "round", '
        '"diameter_mm": 32}, "characteristics": {"move": 4, "toughness": 3, "wounds": 8}, '
        '"weapons": [{"name": "Bow", "range": "12-3", "attacks": 2, "strength": 3, '
        '"damage": "1/2"}]}]}'))
    with pytest.raises(ScenarioError) as raised:
        library_profiles(skirmish())
    assert raised.value.source == str(path)
    assert any(line.startswith("profiles[0].weapons[0].range") for line in raised.value.lines)


def test_the_library_is_read_without_building_a_scenario_to_place_it(monkeypatch):
    """Each profile is checked and built as a template where the library is read: no
    battlefield is made up to hold the profiles (that once made a 1000x1000 scenario)."""
    from tabletop_gui.scenario import load

    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("a scenario was built to read the profile library")

    monkeypatch.setattr(load, "scenario_from_json", refuse)
    shipped = library_profiles(skirmish())
    assert len(shipped) >= 12 and all(m.side == "s" for m in shipped)
    assert len({m.id for m in shipped}) == len(shipped)


def test_the_library_panel_shows_a_broken_library_and_tells_it(make_window, tmp_path,
                                                               monkeypatch):
    path = _broken_library(tmp_path, monkeypatch, '{"ruleset": "warcry", "profiles": [')
    w = make_window(skirmish())
    label = w.library_panel.problem_label
    assert label.isVisible() and str(path) in label.text()
    assert "Add tool offers only the profiles on the battlefield" in label.text()
    assert [m for m in w.errors.messages if str(path) in m] == [label.text()]
    assert {p.name for p in w.library_panel.profiles} == {
        m.name for m in w.document.scenario.models}  # the battlefield's profiles remain
    w.document.replace(skirmish())  # the same library again: shown, not told again
    assert label.isVisible() and len([m for m in w.errors.messages if str(path) in m]) == 1
    assert isinstance(w.toolbox.tool(AddTool), AddTool)


# -- the range band ---------------------------------------------------------------------
def _bad_bow(scenario):  # noqa: ANN001, ANN202
    archer = scenario.model("a")
    bow = Weapon("Bow", {**archer.weapons[0].values, "range": "12-3"})
    return scenario.with_entity(replace(archer, weapons=(bow, *archer.weapons[1:])))


def test_a_range_that_was_not_read_names_the_model_weapon_and_value():
    # only code can make such a weapon: the loader and the editors read every range
    scenario = _bad_bow(archers())
    info = registry.info("warcry")
    with pytest.raises(RangeProblem) as raised:
        weapon_range(info, scenario.model("a"), "Bow")
    assert str(raised.value) == ('No range band for F a (a): weapon Bow, range "12-3": '
                                 "not read by the ruleset's field kinds")


def test_a_bad_weapon_range_draws_no_band_and_is_told_once(qtbot, tmp_path):
    scenario = _bad_bow(archers())
    window, flow = make_window(qtbot, scenario, tmp_path)
    with qtbot.waitSignal(flow.scan_finished, timeout=5000):
        window.document.set_selection(["a"])
    flow.attack.set_weapon("Bow")
    settle(qtbot, flow)
    assert flow.overlay.of_kind("range") == []
    assert flow.overlay.marker("t") is not None  # the rest of the overlays are drawn
    message = ('No range band for F a (a): weapon Bow, range "12-3": not read by the '
               "ruleset's field kinds")
    flow.attack.set_target("t")
    flow.attack.set_target("c")
    assert window.errors.messages.count(message) == 1 and _notice_shows(window, message)


# -- autosave and save ------------------------------------------------------------------
def _no_space(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def _edit(window) -> None:  # noqa: ANN001
    f = window.document.scenario.model("f1")
    window.document.edit("Move", window.document.scenario.with_entity(f.moved_to(f.x + 1, 2)))


def test_a_failing_autosave_is_told_once_per_run_of_failures(make_window, qtbot, tmp_path,
                                                               monkeypatch):
    w = make_window(skirmish(), recovery_dir=tmp_path / "data")
    rec = w.recovery
    rec.start()
    rec.timer.setInterval(5)

    def autosave_messages() -> list[str]:
        return [m for m in w.errors.messages if m.startswith("Autosave failed")]

    with monkeypatch.context() as m:
        m.setattr(save_module, "save_scenario", _no_space)
        with qtbot.waitSignal(rec.failed, timeout=2000):
            _edit(w)  # the autosave timer fires and fails
        (told,) = autosave_messages()
        assert str(rec.file) in told and "No space left on device" in told
        assert _notice_shows(w, told)
        _edit(w)
        assert not rec.write_now()  # fails again: not told again
        assert len(autosave_messages()) == 1
    assert rec.write_now() and rec.file.exists()  # works again
    with monkeypatch.context() as m:
        m.setattr(save_module, "save_scenario", _no_space)
        _edit(w)
        assert not rec.write_now()  # fails anew: told anew
    assert len(autosave_messages()) == 2


def _surrogate_name(scenario):  # noqa: ANN001, ANN202
    f = scenario.model("f1")
    return scenario.with_entity(replace(f, name="Iron \ud800 Sentinel"))


def test_an_autosave_of_text_utf8_cannot_hold_is_told(make_window, tmp_path):
    w = make_window(skirmish(), recovery_dir=tmp_path / "data")
    w.document.edit("Rename", _surrogate_name(w.document.scenario))
    assert not w.recovery.write_now()
    (message,) = [m for m in w.errors.messages if m.startswith("Autosave failed")]
    assert "cannot be written as UTF-8 (\\ud800: surrogates not allowed)" in message


def test_save_reports_text_utf8_cannot_hold_in_a_dialog(make_window, tmp_path, monkeypatch):
    target = tmp_path / "ford.battle.json"
    shutil.copy(DEMOS / "warcry.battle.json", target)
    before = target.read_bytes()
    w = make_window(load_scenario(target), path=target)
    w.document.edit("Rename", _surrogate_name(skirmish()))
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    assert w.files.save() is False
    assert shown == [f"{target} was not saved: the battlefield holds text that cannot be "
                     "written as UTF-8 (\\ud800: surrogates not allowed); rename the model, "
                     "weapon or id that holds it"]
    assert target.read_bytes() == before and w.document.modified


def test_save_reports_an_unexpected_failure_in_a_dialog(make_window, tmp_path, monkeypatch):
    target = tmp_path / "ford.battle.json"
    w = make_window(skirmish(), path=target)
    _edit(w)
    monkeypatch.setattr(save_module, "save_scenario", _engine_bug)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    assert w.files.save() is False
    assert shown == [f"{target} was not saved: ZeroDivisionError: {ENGINE_BUG}"]
    assert not target.exists()
