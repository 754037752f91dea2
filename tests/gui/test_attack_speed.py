"""200 models: a drag never recomputes every enemy inside one event; the scan runs on the
worker in pieces, nearest first, keeps the old marks until rescanned, and is cached per
scenario."""

from __future__ import annotations

from tabletop_gui.bench.cases_gui import crowd_scenario
from tests.gui.attack_support import make_window, select_attacker


def test_a_drag_among_200_models_is_scanned_in_slices(qtbot, tmp_path) -> None:
    scenario = crowd_scenario()
    assert len(scenario.models) == 200
    window, flow = make_window(qtbot, scenario, tmp_path)
    attacker = "m90"
    enemies = len([m for m in scenario.models
                   if m.side != scenario.model(attacker).side and not scenario.taken_down(m)])
    select_attacker(qtbot, flow, attacker)
    assert len(flow.overlay.of_kind("target")) == enemies
    scan = flow.targets.scan
    # cached: repainting, hovering and Tab cost no recomputation
    done = scan.computations
    flow.targets.statuses()
    flow.overlay.update(flow.attack.current_view, flow.attack.scenario, flow.targets)
    assert scan.computations == done

    m = scenario.model(attacker)
    window.document.preview({attacker: m.moved_to(m.x + 0.5, m.y)})
    flow._apply_preview()  # what the coalescing timer does on the next turn
    # nothing was computed on the event loop; every mark is still shown (stale)
    assert scan.computations == done
    assert not scan.complete
    assert len(flow.overlay.of_kind("target")) == enemies
    assert any(s.stale for s in flow.targets.statuses())
    with qtbot.waitSignal(flow.scan_finished, timeout=20000):
        pass
    assert scan.complete
    assert not any(s.stale for s in flow.targets.statuses())
    assert scan.computations - done == enemies
