"""The GUI benchmark cases run and do their work (their times are the benchmark's job)."""

from __future__ import annotations

import pytest

from tabletop_gui.bench import cases_gui, cases_window
from tabletop_gui.bench.registry import CASE_MODULES, load_cases


def test_cases_are_registered():
    names = {c.name for c in load_cases(["tabletop_gui.bench.cases_gui"])}
    assert names == {"gui_frame_200", "gui_frame_800", "load_2000", "startup"}
    window_cases = load_cases(["tabletop_gui.bench.cases_window"])
    assert {c.name for c in window_cases} == {"select_2000", "select_fresh_2000", "move_2000"}
    assert all(c.prepare is not None and c.details is not None for c in window_cases)
    assert "tabletop_gui.bench.cases_window" in CASE_MODULES


def test_select_and_move_on_2000_fighters_show_what_they_must(qapp, monkeypatch):
    """Each run of the window cases checks its own answer (and raises when it is wrong):
    the attacker chosen and its 1,000 enemies marked; the edit pushed and the moved
    fighter's mark redrawn; then the full reports (a sight line per valid target). The
    window starts loading the compiled loops for its board as the application's does."""
    from tabletop_gui.geometry import jit

    preloads: list[int] = []
    real_preload = jit.preload
    monkeypatch.setattr(jit, "preload", lambda size: (preloads.append(size),
                                                      real_preload(size))[1])
    try:
        cases_window.prepare_select()
        assert preloads == [1000 * 1000]  # two sides of 1,000 fighters
        attacker, marked, valid = cases_window.select()
        window = cases_window._win["window"]
        flow = window.attack_flow
        assert (attacker, marked) == ("m975", 1000) and valid > 0
        assert flow.marked and flow.attack.choice.attacker == "m975"
        assert len([m for m in flow.overlay.of_kind("target") if m.valid]) == valid
        cases_window.prepare_move()  # the select run's full reports checked meanwhile
        before = window.document.scenario.model(cases_window.MOVED)
        assert cases_window.move() == (cases_window.MOVED, 1000, valid)
        moved = window.document.scenario.model(cases_window.MOVED)
        assert moved.x == pytest.approx(before.x + cases_window.STEP_IN, abs=0.2)
        assert window.document.undo_stack.undoText().startswith("Move ")
        details = cases_window.details("move_2000")
        assert details["complete_ms"] > 0 and details["longest_gap_ms"] > 0
        assert window.attack_flow.idle  # the move's full reports in, and checked
        # the first click on the board opened anew: from the attacker's row, no table
        cases_window.prepare_select_fresh()
        opened = window.document.scenario
        assert cases_window.select_fresh() == ("m975", 1000, valid)
        assert window.document.scenario is opened and flow.attack.choice.attacker == "m975"
        geometry = window.document.snapshot.geometry
        assert not geometry._tables and geometry._rows.rows
        cases_window.prepare_select_fresh()  # its full reports checked meanwhile
        assert cases_window.details("select_fresh_2000")["complete_ms"] > 0
    finally:
        cases_window.reset()


def test_a_window_case_fails_on_a_wrong_answer(qapp, monkeypatch):
    """A run that times nothing fails: here the click lands on no fighter."""
    try:
        cases_window.prepare_select()
        monkeypatch.setattr(cases_window, "_click", lambda model_id: None)
        with pytest.raises(RuntimeError, match="m975 is not the attacker"):
            cases_window.select()
    finally:
        cases_window.reset()


def test_the_window_board_is_the_responsiveness_tests_board():
    board = cases_window.warcry_crowd_scenario(2000)
    assert len(board.fighters) == 2000
    assert sum(f.side == "red" for f in board.fighters) == 1000
    attacker = board.model(cases_window.ATTACKERS[0])
    facing = board.model(cases_window.MOVED)
    assert attacker.side == "red" and facing.side == "blue"
    assert facing.x == attacker.x and facing.y - attacker.y == pytest.approx(2.3 + 6.0)


def test_frame_step_moves_the_dragged_model(qapp):
    try:
        assert cases_gui.frame() and cases_gui.frame()
        window = cases_gui._frame["window"]
        assert len(window.scene.model_items()) == 200
        assert "Attack" in window.docks  # the overlays are on
        assert window.document.undo_stack.count() == 0  # a drag step is not an edit yet
    finally:
        cases_gui.reset()


def test_startup_reports_the_first_paint():
    assert cases_gui.startup()


def test_army_of_200_is_the_crowd():
    army, crowd = cases_gui.army_scenario(200), cases_gui.crowd_scenario(200)
    assert army.fighters == crowd.fighters and army.battlefield == crowd.battlefield
    assert cases_gui.front_rank_model(200) == "m90"


def test_army_of_800_stands_on_the_table_facing_each_other():
    army = cases_gui.army_scenario(800)
    assert len(army.fighters) == 800
    field = army.battlefield
    assert all(0 < f.x < field.width and 0 < f.y < field.depth for f in army.fighters)
    dragged = army.model(cases_gui.front_rank_model(800))
    assert dragged.side == "red"
    ahead = [f for f in army.fighters if f.x == dragged.x and f.y > dragged.y]
    assert ahead and all(f.side == "blue" for f in ahead)  # the front rank


def test_load_case_draws_every_model_of_the_file(qapp):
    try:
        assert cases_gui.load() == cases_gui.LOAD_MODELS
        window = cases_gui._load["window"]
        assert not window.scene.building
        assert len(window.document.scenario.models) == cases_gui.LOAD_MODELS
    finally:
        cases_gui.reset_load()


def test_startup_times_a_launch_with_its_bytecode_kept(monkeypatch):  # noqa: ANN001
    """A player's second launch reads compiled modules: the bench's child may write them
    even where this environment forbids it; the rest of the environment is passed on."""
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("TABLETOP_GUI_THEME", "dark")
    env = cases_gui.startup_env()
    assert "PYTHONDONTWRITEBYTECODE" not in env
    assert env["TABLETOP_GUI_EXIT_AFTER_PAINT"] == "1"
    assert env["QT_QPA_PLATFORM"] == "offscreen"
    assert env["TABLETOP_GUI_THEME"] == "dark"
