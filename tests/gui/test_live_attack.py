"""A drag with the attack overlays on: every enemy re-marked live from the batch verdicts
(the same as ``attack``; their reasons come with the reports once the drag rests), marks
reused when their validity holds, the panels refreshed once per event-loop turn, and the
attack keys listed under Help."""

from __future__ import annotations

from tabletop_gui.bench.cases_gui import crowd_scenario
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest
from tabletop_gui.ui.canvas.coords import to_scene
from tests.gui.attack_support import make_window, select_attacker, settle


def test_a_drag_step_re_marks_every_enemy_live(qtbot, tmp_path) -> None:
    scenario = crowd_scenario()
    window, flow = make_window(qtbot, scenario, tmp_path)
    attacker = "m90"
    select_attacker(qtbot, flow, attacker)
    before = {m.key: m for m in flow.overlay.of_kind("target")}
    m = scenario.model(attacker)
    assert m is not None
    window.document.preview({attacker: m.moved_to(m.x + 6.0, m.y + 3.0)})
    flow._apply_preview()
    flow._scan_timer.stop()  # the drag goes on: the full reports keep waiting
    preview = flow.attack.scenario
    assert preview is not flow.document.scenario
    # every enemy re-judged on the worker, every mark redrawn, nothing more computed
    qtbot.waitUntil(lambda: flow.targets.scan.plan.scenario is preview
                    and flow.targets.scan.verdicts_known and not flow.attack.pending
                    and not flow.targets.busy
                    and not flow._draw_timer.isActive(), timeout=20000)
    ruleset = registry.get("warcry")
    battle = flow.attack.snapshot.battle
    assert battle is flow.document.snapshot.battle  # the document's preview snapshot
    statuses = flow.targets.statuses()
    assert len(statuses) == 100 and all(s.stale for s in statuses)
    flips = 0
    reports = {s.target: ruleset.attack(battle, AttackRequest(attacker, s.target))
               for s in statuses}
    for s in statuses:
        assert s.valid == reports[s.target].valid  # the verdicts only, while it drags
        marker = flow.overlay.marker(s.target)
        assert marker is not None and marker.valid == s.valid
        assert marker.reasons == s.reasons and marker.toolTip() == s.tooltip
        if before[s.target].valid == s.valid:
            assert marker is before[s.target]  # kept: its cached drawing stays
        else:
            flips += 1
    assert flips > 0
    with qtbot.waitSignal(flow.scan_finished, timeout=20000):
        flow._scan_timer.start()  # the drag rests: the full reports follow, with reasons
    settle(qtbot, flow)
    for s in flow.targets.statuses():
        assert not s.stale
        assert (s.valid, s.reasons) == (reports[s.target].valid,
                                        tuple(reports[s.target].reasons))
        marker = flow.overlay.marker(s.target)
        assert marker is not None and marker.reasons == s.reasons
        assert marker.toolTip() == s.tooltip
    # the zones moved with the attacker; the target list caught up once the drag rested
    (band,) = flow.overlay.of_kind("range")
    area = band.mapToScene(band.path())  # the Sword's 1" from the base edge
    assert area.contains(to_scene(m.x + 6.0 + 0.63 + 0.5, m.y + 3.0))
    assert not area.contains(to_scene(m.x + 0.63 + 0.5, m.y))
    combo = flow.attack_panel.target_combo
    listed = [combo.itemData(i) for i in range(1, combo.count())]
    assert listed == [s.target for s in flow.targets.statuses()]


def test_panels_refresh_once_per_turn_during_a_drag(qtbot, tmp_path) -> None:
    """Drag steps in one event-loop turn cost one evaluation and one published view."""
    scenario = crowd_scenario()
    window, flow = make_window(qtbot, scenario, tmp_path)
    flow.document.set_selection(["m90"])
    qtbot.waitUntil(lambda: not flow.attack.pending)
    calls = []
    flow.attack.subscribe(lambda view: calls.append(view))
    m = scenario.model("m90")
    assert m is not None
    for dx in (0.2, 0.4, 0.6):
        window.document.preview({"m90": m.moved_to(m.x + dx, m.y)})
        flow._apply_preview()
    assert calls == []  # the steps wait for the end of the turn
    qtbot.waitUntil(lambda: not flow.attack.pending)
    answered = [v for v in calls if flow.attack.view is v]
    assert len(answered) == 1 and len(calls) <= 2  # (the other: "being answered")
    assert flow.attack.snapshot is window.document.snapshot

def test_help_lists_the_attack_keys(qtbot, tmp_path) -> None:
    window, _ = make_window(qtbot, crowd_scenario(40), tmp_path)
    text = window.shortcuts_text()
    for key in ("R\t", "Tab", "0-9", "Backspace", "Enter", "Esc"):
        assert key in text
    assert "clear the attack" in text and "roll" in text
