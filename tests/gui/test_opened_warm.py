"""Issue 17: a file opened has its battle and geometry built by the worker once the window
rests (``AttackFlow._warm``): the first attacker's click (select_fresh_2000) waited for
them. Built on the worker, not while the window works, and not twice."""

from __future__ import annotations

import threading

import pytest

from tabletop_gui.bench.cases_gui import crowd_scenario
from tabletop_gui.scenario import snapshot as snapshots
from tabletop_gui.scenario.save import save_scenario
from tests.gui.attack_support import built_window, make_window, open_file, select_attacker


@pytest.fixture
def built_on(monkeypatch) -> list[int]:  # noqa: ANN001
    """The threads that built a battle (``snapshot.battle_of``), in order."""
    threads: list[int] = []
    battle_of = snapshots.battle_of

    def recorded(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        threads.append(threading.get_ident())
        return battle_of(*args, **kwargs)

    monkeypatch.setattr(snapshots, "battle_of", recorded)
    return threads


def test_a_file_opened_has_its_battle_built_on_the_worker_once_at_rest(
        qtbot, tmp_path, built_on) -> None:  # noqa: ANN001
    save_scenario(crowd_scenario(200), tmp_path / "a.battle.json")
    window, flow = make_window(qtbot, crowd_scenario(4), tmp_path)
    open_file(qtbot, window, tmp_path / "a.battle.json")
    opened = window.document.snapshot
    qtbot.waitUntil(lambda: flow.idle, timeout=20000)
    assert flow.attack.choice.attacker is None
    assert opened.geometry_built and window.document.snapshot is opened
    assert len(built_on) == 1 and built_on[0] != threading.get_ident()
    geometry = opened.geometry
    select_attacker(qtbot, flow, "m90")  # its scan on the geometry built at rest
    assert len(built_on) == 1 and flow.targets.scan.geometry is geometry
    assert len([m for m in flow.overlay.marks.marks if m.shown]) == 100


def test_a_file_given_on_the_command_line_has_its_battle_built_at_rest_too(
        qtbot, tmp_path, monkeypatch, built_on) -> None:  # noqa: ANN001
    from tabletop_gui.model import recovery

    monkeypatch.setattr(recovery, "default_folder", lambda: tmp_path / "recovery")
    path = tmp_path / "a.battle.json"
    save_scenario(crowd_scenario(200), path)
    window = built_window(qtbot, str(path), "warcry")
    window.files.maybe_discard = lambda: True  # closing at teardown asks nothing
    flow = window.attack_flow
    assert flow is not None
    opened = window.document.snapshot
    qtbot.waitUntil(lambda: opened.geometry_built, timeout=20000)
    qtbot.waitUntil(lambda: flow.idle, timeout=20000)
    assert flow.attack.choice.attacker is None and window.document.snapshot is opened
    assert len(built_on) == 1 and built_on[0] != threading.get_ident()
