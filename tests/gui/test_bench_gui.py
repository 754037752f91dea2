"""The GUI benchmark cases run and do their work (their times are the benchmark's job)."""

from __future__ import annotations

from tabletop_gui.bench import cases_gui
from tabletop_gui.bench.registry import load_cases


def test_cases_are_registered():
    names = {c.name for c in load_cases(["tabletop_gui.bench.cases_gui"])}
    assert names == {"gui_frame_200", "gui_frame_800", "load_2000", "startup"}


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
