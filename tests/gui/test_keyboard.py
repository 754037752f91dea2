"""The keyboard in the window exactly as ``tabletop-gui`` builds it (``build_window``, then
the attack flow and the recovery offer, as ``run_app`` does after the first paint): the
tools' keys and the attack keys share Enter, Esc, Tab and the digits, and each reaches
the one it belongs to. A traceback anywhere fails the test (tests/conftest.py)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from tabletop_gui.model import recovery
from tabletop_gui.ui.attack_flow import KEY_HELP
from tabletop_gui.ui.canvas.coords import to_scene
from tabletop_gui.ui.canvas.tools.draw import DrawObstacleTool
from tabletop_gui.ui.canvas.tools.measure import MeasureTool
from tabletop_gui.ui.canvas.tools.select import SelectTool
from tests.gui.attack_support import DEMOS, built_window, first_pair, settle
from tests.gui.events import click, double_click, drag

K = Qt.Key
SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
NONE = Qt.KeyboardModifier.NoModifier
DEMO = DEMOS / "warcry.battle.json"

# every key the Help > Keyboard shortcuts list and the README name, as key presses
HELP_KEYS: dict[str, list[tuple[Qt.Key, Qt.KeyboardModifier]]] = {
    "S": [(K.Key_S, NONE)], "A": [(K.Key_A, NONE)], "O": [(K.Key_O, NONE)],
    "P": [(K.Key_P, NONE)], "M": [(K.Key_M, NONE)], "Y": [(K.Key_Y, NONE)],
    "D": [(K.Key_D, NONE)],
    "Arrows": [(k, m) for k in (K.Key_Left, K.Key_Right, K.Key_Up, K.Key_Down)
               for m in (NONE, SHIFT)],
    "[ ]": [(K.Key_BracketLeft, NONE), (K.Key_BracketRight, NONE),
            (K.Key_BracketLeft, SHIFT), (K.Key_BracketRight, SHIFT)],
    "Esc": [(K.Key_Escape, NONE)],
    "Ctrl+0": [(K.Key_0, CTRL)],
    "R": [(K.Key_R, NONE)],
    "Tab, Shift+Tab": [(K.Key_Tab, NONE), (K.Key_Backtab, SHIFT)],
    "0-9": [(Qt.Key(K.Key_0.value + d), NONE) for d in range(10)],
    "Backspace": [(K.Key_Backspace, NONE)],
    "Enter": [(K.Key_Return, NONE), (K.Key_Enter, NONE)],
    # the menus' keys that stay in the window (the Help list shows every action's key)
    "G": [(K.Key_G, NONE)], "Del": [(K.Key_Delete, NONE)], "Ctrl+Z": [(K.Key_Z, CTRL)],
    "Ctrl+Y": [(K.Key_Y, CTRL)], "Ctrl+Shift+Z": [(K.Key_Z, CTRL | SHIFT)],
    "Ctrl+D": [(K.Key_D, CTRL)], "Ctrl+A": [(K.Key_A, CTRL)], "Ctrl++": [(K.Key_Plus, CTRL)],
    "Ctrl+=": [(K.Key_Equal, CTRL)], "Ctrl+-": [(K.Key_Minus, CTRL)],
}
README_KEYS = [(K.Key_G, NONE), (K.Key_G, NONE), (K.Key_Space, NONE), (K.Key_Delete, NONE),
               (K.Key_Z, CTRL), (K.Key_Y, CTRL)]
NOT_KEYS = {"Wheel", "Middle drag, Space+drag",  # mouse gestures in the same list
            # keys that open a dialog, quit or go full screen (tested on their own)
            "Ctrl+O", "Ctrl+S", "Ctrl+Shift+S", "Ctrl+E", "Ctrl+I", "Ctrl+Q", "F11"}


@pytest.fixture
def app_window(qtbot, tmp_path, monkeypatch):
    """The main window on the Warcry demo, built and completed as ``run_app`` does; the
    recovery folder and settings in the test's temporary directory."""
    monkeypatch.setattr(recovery, "default_folder", lambda: tmp_path / "recovery")
    return built_window(qtbot, str(DEMO), "warcry")


def _at(window, x: float, y: float) -> QPoint:  # noqa: ANN001
    return window.view.mapFromScene(to_scene(x, y))


def _key(qtbot, window, key: Qt.Key, mods: Qt.KeyboardModifier = NONE) -> None:  # noqa: ANN001
    qtbot.keyClick(QApplication.focusWidget() or window, key, mods)


def _ready_attack(qtbot, window) -> None:  # noqa: ANN001
    """An attacker and its target chosen by keys, dice rolled (R): Enter would apply."""
    attacker, target = first_pair(window.document.scenario)
    window.document.set_selection([attacker])
    flow = window.attack_flow
    settle(qtbot, flow)  # every target judged on the worker
    valid = [s.target for s in flow.targets.statuses() if s.valid]
    for _ in range(valid.index(target) + 1):
        qtbot.keyClick(window.view, K.Key_Tab)
    qtbot.keyClick(window.view, K.Key_R)
    settle(qtbot, flow)
    assert flow.attack.choice.target == target and flow.attack.can_apply


def test_enter_closes_the_polygon_and_does_not_apply_the_attack(app_window, qtbot):
    window, doc = app_window, app_window.document
    _ready_attack(qtbot, window)
    before = doc.undo_stack.count()
    n = len(doc.scenario.obstacles)
    qtbot.keyClick(window.view, K.Key_O)
    assert isinstance(window.view.tool, DrawObstacleTool)
    vp = window.view.viewport()
    for x, y in [(1, 1), (4, 1), (2, 3)]:
        click(vp, _at(window, x, y))
    qtbot.keyClick(window.view, K.Key_Return)
    assert len(doc.scenario.obstacles) == n + 1
    assert doc.scenario.obstacles[-1].polygon == ((1, 1), (4, 1), (2, 3))
    assert doc.undo_stack.count() == before + 1  # one undoable edit: the obstacle
    assert doc.undo_stack.undoText() == "Draw obstacle"
    assert window.attack_flow.log_panel.entries == []  # no attack applied
    doc.undo_stack.undo()
    assert len(doc.scenario.obstacles) == n


def test_backspace_and_esc_belong_to_the_drawing(app_window, qtbot):
    window, doc = app_window, app_window.document
    _ready_attack(qtbot, window)
    flow = window.attack_flow
    attacker = flow.attack.choice.attacker
    qtbot.keyClick(window.view, K.Key_O)
    tool = window.view.tool
    vp = window.view.viewport()
    for x, y in [(1, 1), (4, 1), (2, 3)]:
        click(vp, _at(window, x, y))
    qtbot.keyClick(window.view, K.Key_Backspace)
    assert tool.vertices == [(1, 1), (4, 1)]
    assert list(flow.attack.dice.faces) != []  # the dice box kept its dice
    qtbot.keyClick(window.view, K.Key_Escape)
    assert tool.vertices == []
    assert flow.attack.choice.attacker == attacker  # Esc cancelled the drawing, not the attack
    assert doc.undo_stack.count() == 0


def test_backspace_on_the_canvas_takes_back_a_die_not_the_attacker(app_window, qtbot):
    """Digits typed on the canvas enter dice; Backspace there takes back the last one
    (the select tool would delete the selected attacker); with no die left, Backspace
    is the select tool's delete again (undoable)."""
    window, doc = app_window, app_window.document
    attacker, target = first_pair(doc.scenario)
    doc.set_selection([attacker])
    flow = window.attack_flow
    settle(qtbot, flow)
    valid = [s.target for s in flow.targets.statuses() if s.valid]
    for _ in range(valid.index(target) + 1):
        qtbot.keyClick(window.view, K.Key_Tab)
    settle(qtbot, flow)
    qtbot.keyClick(window.view, K.Key_4)
    qtbot.keyClick(window.view, K.Key_2)
    settle(qtbot, flow)
    assert list(flow.attack.dice.faces) == [4, 2]
    qtbot.keyClick(window.view, K.Key_Backspace)
    settle(qtbot, flow)
    assert list(flow.attack.dice.faces) == [4]
    assert doc.scenario.model(attacker) is not None  # not deleted
    assert doc.undo_stack.count() == 0
    qtbot.keyClick(window.view, K.Key_Backspace)
    settle(qtbot, flow)
    assert list(flow.attack.dice.faces) == []
    assert doc.undo_stack.count() == 0
    qtbot.keyClick(window.view, K.Key_Backspace)  # no die left: the tool deletes
    assert doc.undo_stack.undoText().startswith("Delete ")


def test_double_click_closes_the_polygon(app_window, qtbot):
    window, doc = app_window, app_window.document
    n = len(doc.scenario.obstacles)
    qtbot.keyClick(window.view, K.Key_O)
    vp = window.view.viewport()
    for x, y in [(1, 1), (4, 1), (4, 3)]:
        click(vp, _at(window, x, y))
    double_click(vp, _at(window, 1, 3))
    assert doc.scenario.obstacles[-1].polygon == ((1, 1), (4, 1), (4, 3), (1, 3))
    assert len(doc.scenario.obstacles) == n + 1 and doc.undo_stack.count() == 1


def test_measure_then_esc_cancels_the_measure(app_window, qtbot):
    window = app_window
    qtbot.keyClick(window.view, K.Key_M)
    tool = window.view.tool
    assert isinstance(tool, MeasureTool)
    drag(window.view.viewport(), _at(window, 2, 2), _at(window, 8, 2))
    assert tool.result is not None
    qtbot.keyClick(window.view, K.Key_Escape)
    assert tool.result is None and tool.marks is None
    assert isinstance(window.view.tool, MeasureTool)  # Esc cancels, the tool stays


def test_tab_without_an_attacker_only_moves_the_focus(app_window, qtbot):
    window, doc = app_window, app_window.document
    flow = window.attack_flow
    scenario = doc.scenario
    assert flow.attack.choice.attacker is None
    for key, mods in ((K.Key_Tab, NONE), (K.Key_Backtab, SHIFT)):
        window.view.setFocus()
        qtbot.keyClick(window.view, key, mods)
        assert QApplication.focusWidget() is not window.view  # the next or previous widget
        assert flow.attack.choice.attacker is None and flow.attack.choice.target is None
        assert doc.scenario is scenario and doc.selection == ()


def test_digits_without_an_attack_enter_nothing(app_window, qtbot):
    window, doc = app_window, app_window.document
    flow = window.attack_flow
    for digit in range(10):
        qtbot.keyClick(window.view, Qt.Key(K.Key_0.value + digit))
    assert list(flow.attack.dice.faces) == []
    assert flow.attack_panel.dice.message_label.text() == (
        "choose an attacker and a target first")
    assert doc.undo_stack.count() == 0


def test_keys_typed_in_a_text_box_stay_in_it(app_window, qtbot):
    """The Library's search box gets its digits, Enter and Esc; the attack is untouched."""
    window, doc = app_window, app_window.document
    _ready_attack(qtbot, window)
    flow = window.attack_flow
    dice = list(list(flow.attack.dice.faces))
    search = window.library_panel.search
    search.setFocus()
    qtbot.keyClicks(search, "12")
    for key in (K.Key_Return, K.Key_Enter, K.Key_Escape, K.Key_R):
        qtbot.keyClick(search, key)
    assert search.text() == "12r"
    assert list(flow.attack.dice.faces) == dice and flow.log_panel.entries == []
    assert flow.attack.choice.attacker is not None
    assert doc.undo_stack.count() == 0


def test_every_documented_key_in_every_tool(app_window, qtbot):
    """Each key of the Help list and the README, pressed with each tool active, with and
    without an attack prepared: no traceback, and the window still answers."""
    window, doc = app_window, app_window.document
    listed = [line.split("\t")[0] for line in window.shortcuts_text().splitlines()
              if "\t" in line]
    assert {k for k, _ in KEY_HELP} <= set(listed)
    unknown = [k for k in listed if k not in HELP_KEYS and k not in NOT_KEYS]
    assert unknown == []  # a key added to the Help list must be pressed here too
    presses = [p for k in listed if k in HELP_KEYS for p in HELP_KEYS[k]] + README_KEYS
    original = doc.scenario
    tool_keys = [K.Key_S, K.Key_A, K.Key_O, K.Key_P, K.Key_M, K.Key_Y, K.Key_D]
    for prepared in (False, True):
        for tool_key in tool_keys:
            window.view.setFocus()
            qtbot.keyClick(window.view, K.Key_S)
            while doc.undo_stack.canUndo():  # the keys moved, deleted, applied: undo all
                doc.undo_stack.undo()
            assert doc.scenario == original
            doc.set_selection([])
            if prepared:
                _ready_attack(qtbot, window)
            window.view.setFocus()
            qtbot.keyClick(window.view, tool_key)
            for key, mods in presses:
                _key(qtbot, window, key, mods)
    window.view.setFocus()
    qtbot.keyClick(window.view, K.Key_S)
    assert isinstance(window.view.tool, SelectTool)
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.scenario == original
    attacker, _ = first_pair(original)
    doc.set_selection([attacker])
    assert window.attack_flow.attack.choice.attacker == attacker
    qtbot.keyClick(window.view, K.Key_Escape)
    assert window.attack_flow.attack.choice.attacker is None

