"""The GUI benchmark cases run and do their work (their times are the benchmark's job)."""

from __future__ import annotations

from tabletop_gui.bench import cases_gui
from tabletop_gui.bench.registry import load_cases


def test_cases_are_registered():
    names = {c.name for c in load_cases(["tabletop_gui.bench.cases_gui"])}
    assert names == {"gui_frame_200", "startup"}


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
