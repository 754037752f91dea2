"""Issue 17: File > Open keeps the target marks it had, hidden (``AttackFlow._opened``),
and shows one again for an enemy of the file opened whose mark would be drawn the same
(its picture at the very same place): the first attacker of a 2,000-fighter board opened
anew made its thousand marks again. What the overlay shows must be what one drawn afresh
shows, and no mark of the file before may stay visible."""

from __future__ import annotations

from dataclasses import replace

import shiboken6
from PySide6.QtWidgets import QGraphicsScene

from tabletop_gui.bench.cases_gui import crowd_scenario
from tabletop_gui.scenario.entities import RoundBase
from tabletop_gui.scenario.save import save_scenario
from tabletop_gui.ui.canvas.coords import to_scene
from tabletop_gui.ui.canvas.scene import LayerItem
from tabletop_gui.ui.canvas_overlays import AttackOverlay, TargetMarker
from tests.gui.attack_support import make_window, open_file, select_attacker
from tests.gui.test_overlay_steps import _state

MOVED, REBASED = "m130", "m151"  # enemies of m90 the second file moved, gave a base


def _shown(overlay: AttackOverlay) -> dict[str, TargetMarker]:
    """The marks the layer draws, by enemy (one each)."""
    shown = [m for m in overlay.marks.marks if m.shown]
    by_enemy = {m.key: m for m in shown}
    assert len(by_enemy) == len(shown)
    return by_enemy


def test_marks_kept_across_an_open_equal_marks_drawn_afresh(qtbot, tmp_path) -> None:  # noqa: ANN001
    board = crowd_scenario(200)
    moved, rebased = board.model(MOVED), board.model(REBASED)
    assert moved is not None and rebased is not None
    other = board.with_entity(replace(moved, x=moved.x + 1.0)).with_entity(
        replace(rebased, base=RoundBase(40)))
    renamed = replace(board, fighters=tuple(replace(f, id="k" + f.id[1:])
                                            for f in board.fighters))
    files = {"a": board, "b": other, "c": renamed}
    for name, scenario in files.items():
        save_scenario(scenario, tmp_path / f"{name}.battle.json")
    window, flow = make_window(qtbot, crowd_scenario(4), tmp_path)
    overlay = flow.overlay
    scene = QGraphicsScene()
    layer = LayerItem(0.0)
    scene.addItem(layer)
    fresh = AttackOverlay(layer)

    def same_as_afresh() -> None:
        fresh.clear()
        assert fresh.update(flow.attack.current_view, flow.attack.scenario, flow.targets)
        mine, theirs = _state(overlay), _state(fresh)
        assert mine == theirs
        scenario = window.document.scenario
        shown = _shown(overlay)
        assert shown.keys() == {s.target for s in flow.targets.statuses()}
        for t, mark in shown.items():  # each drawn where its enemy of this file stands
            enemy = scenario.model(t)
            assert mark.model == enemy
            assert (mark.at.x(), mark.at.y()) == (to_scene(enemy.x, enemy.y).x(),
                                                  to_scene(enemy.x, enemy.y).y())
            assert mark.sprite_key == fresh._mark_shape(enemy, mark.valid)[0]

    open_file(qtbot, window, tmp_path / "a.battle.json")
    select_attacker(qtbot, flow, "m90")
    same_as_afresh()
    before = _shown(overlay)
    assert len(before) == 100
    # a mark is drawn the same for a fighter of the same place, facing and base (the
    # quick answer) exactly when its picture and place are the same
    for t in (MOVED, REBASED, "m131"):
        mark, enemy = before[t], window.document.scenario.model(t)
        for other in (replace(enemy), replace(enemy, x=enemy.x + 1.0),
                      replace(enemy, y=enemy.y - 0.25), replace(enemy, facing=enemy.facing + 90),
                      replace(enemy, base=RoundBase(40)), replace(enemy, name="Other")):
            at = to_scene(other.x, other.y)
            drawn_same = (mark.at.x(), mark.at.y()) == (at.x(), at.y()) \
                and mark.sprite_key == overlay._mark_shape(other, mark.valid)[0]
            assert overlay._drawn_as(mark, other) == drawn_same

    open_file(qtbot, window, tmp_path / "b.battle.json")
    assert flow.attack.choice.attacker is None
    assert _shown(overlay) == {}  # nothing of the file before stays visible
    # the marks kept hidden are the scene's (deleted with it, on the GUI thread), not
    # held by Python alone
    kept_marks = [m for _, m in overlay._spare.values()]
    assert kept_marks and all(m.parentItem() is overlay.marks and m.scene() is window.scene
                              and not shiboken6.ownedByPython(m) for m in kept_marks)
    # nor do they hold the statuses of the file before (its facts and reports): their
    # verdicts only, until shown again with the new scan's
    assert all(m.status.facts is None and m.status.report is None and m.status.stale
               and (m.status.target, m.status.valid) == (m.key, m.valid) for m in kept_marks)
    select_attacker(qtbot, flow, "m90")
    same_as_afresh()
    after = _shown(overlay)
    kept = [t for t in after if after[t] is before[t]]
    # the marks of the enemies drawn the same are the ones kept; the moved and the
    # rebased enemies' are made anew
    assert set(kept) == set(after) - {MOVED, REBASED}
    assert after[MOVED] is not before[MOVED] and after[REBASED] is not before[REBASED]

    select_attacker(qtbot, flow, "m10")  # another attacker on it, then the first again
    same_as_afresh()
    select_attacker(qtbot, flow, "m90")
    same_as_afresh()

    open_file(qtbot, window, tmp_path / "c.battle.json")  # other ids: none kept
    assert [m for m in overlay.marks.marks if m.key.startswith("m")] == []
    select_attacker(qtbot, flow, "k90")
    same_as_afresh()
    assert len(_shown(overlay)) == 100
