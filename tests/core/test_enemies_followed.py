"""A drag step does not walk every model to know the attacker's enemies (or the attacker
list): the models that changed are found by identity (``Scenario.models_changed_from``)
and only they are looked at (``same_enemies``). The answers are those of the walk."""

from __future__ import annotations

import random
from dataclasses import replace

from tabletop_gui.bench.cases_gui import crowd_scenario
from tabletop_gui.model.target_scanner import TargetScanner, enemies_of, same_enemies


def test_models_changed_from_names_the_edited_models() -> None:
    s = crowd_scenario(40)
    m = s.model("m7")
    moved = s.with_entity(m.moved_to(m.x + 1, m.y))
    assert moved.models_changed_from(s) == [(m, moved.model("m7"))]
    assert s.models_changed_from(s) == []
    assert s.with_entity(replace(m, id="new")).models_changed_from(s) is None  # one more
    assert replace(s, ruleset="mordheim").models_changed_from(s) is None


def test_same_enemies_agrees_with_the_walk_on_random_edits() -> None:
    rnd = random.Random(17)
    s = crowd_scenario(40)
    said_same = 0
    for _ in range(300):
        m = rnd.choice(s.models)
        what = rnd.random()
        if what < 0.5:
            new = s.with_entity(m.moved_to(m.x + rnd.uniform(-1, 1), m.y))
        elif what < 0.65:
            new = s.with_entity(replace(m, side="blue" if m.side == "red" else "red"))
        elif what < 0.8:
            new = s.with_entity(replace(m, state={"taken_down": rnd.random() < 0.5}))
        elif what < 0.9:
            new = s.with_entity(replace(m, state={"damage": rnd.choice([0, 5, 15])}))
        else:
            new = s.without_entity(m.id)
        for attacker in ("m0", "m25", m.id, "nobody", None):
            if same_enemies(s, new, attacker):
                said_same += 1
                assert enemies_of(new, attacker) == enemies_of(s, attacker)
        s = new
    assert said_same > 300  # the moves at least


def test_a_move_keeps_the_enemies() -> None:
    s = crowd_scenario(40)
    m = s.model("m3")
    assert same_enemies(s, s.with_entity(m.moved_to(9.0, 9.0)), "m3")
    assert not same_enemies(s, s.with_entity(replace(m, side="blue")), "m3")


def test_a_drag_step_keeps_the_statuses_in_nearness_order() -> None:
    """A new scan of the same choice keeps the order of the statuses it had (stale
    copies sort as their originals): the same list as sorting them again."""
    from tabletop_gui.model.attack_view import AttackChoice
    from tabletop_gui.model.target_scan import _nearness
    from tabletop_gui.scenario.snapshot import Snapshot
    from tests.core.test_attack_controller import Worker

    s = crowd_scenario(120)
    worker = Worker()
    scanner = TargetScanner(worker, lambda where, e: None)
    snap = Snapshot.of(s)
    choice = AttackChoice("m50", None, None, None)
    scanner.follow(snap, choice)
    rnd = random.Random(3)
    for step in range(6):
        while worker.jobs:
            worker.run()
        before = scanner.statuses()
        assert before == sorted(before, key=_nearness) and before
        m = snap.scenario.model("m50")
        snap = snap.moved("m50", snap.scenario.with_entity(
            m.moved_to(m.x + rnd.uniform(-2, 2), m.y + rnd.uniform(-1, 1))))
        scanner.follow(snap, choice)  # a drag step: the scan starts again, stale
        after = scanner.statuses()
        assert [a.target for a in after] == [b.target for b in before]
        assert all(a.stale for a in after)
        assert after == sorted(after, key=_nearness)
        if step % 2:
            worker.run()  # a piece in: sorted from its new distances
            assert scanner.statuses() == sorted(scanner.statuses(), key=_nearness)
