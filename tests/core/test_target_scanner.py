"""``TargetScanner``: the target scan as its own component, fed a snapshot and a choice."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tabletop_gui.model.attack_view import AttackChoice
from tabletop_gui.model.jobs import InlineRunner
from tabletop_gui.model.target_scan import TargetStatus
from tabletop_gui.model.target_scanner import TargetScanner
from tabletop_gui.rules import registry
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.snapshot import Snapshot
from tests.core.test_attack_controller import Worker
from tests.core.test_resolver import demo


def shuffled_crowd(rng: random.Random) -> Scenario:
    """The benchmark's crowd of 60 with its fighters moved, turned and sided at random."""
    from dataclasses import replace

    from tabletop_gui.bench.cases_gui import crowd_scenario

    crowd = crowd_scenario(60)
    fighters = tuple(replace(f, x=rng.uniform(1.0, 47.0), y=rng.uniform(1.0, 47.0),
                             facing=rng.uniform(0.0, 360.0), side=rng.choice(("red", "blue")))
                     for f in crowd.fighters)
    return replace(crowd, fighters=fighters)


def enemies_of(snap: Snapshot, attacker: str) -> set[str]:
    side = snap.scenario.model(attacker).side  # type: ignore[union-attr]
    return {m.id for m in snap.scenario.models
            if m.side != side and not snap.scenario.taken_down(m)}


def test_a_synchronous_scan_is_complete_when_follow_returns() -> None:
    scenario, battle, requests = demo("warcry")
    snap = Snapshot.of(scenario)
    failures: list[str] = []
    scanner = TargetScanner(InlineRunner(), lambda where, e: failures.append(where))
    told: list[int] = []
    scanner.subscribe(lambda: told.append(1))
    q = requests[0]
    scanner.follow(snap, AttackChoice(q.attacker, None, None, None))
    assert scanner.scan.complete and told and failures == []
    statuses = scanner.statuses()
    assert {s.target for s in statuses} == enemies_of(snap, q.attacker)
    want = registry.get("warcry").attack(battle, q)
    assert next(s for s in statuses if s.target == q.target).valid == want.valid
    count = len(told)
    scanner.follow(snap, AttackChoice(q.attacker, None, None, None))  # the same scan
    assert len(told) == count
    scanner.follow(snap, AttackChoice(None, None, None, None))
    assert scanner.statuses() == [] and scanner.problems() == []


def test_a_worker_scan_holds_the_reports_during_a_drag() -> None:
    scenario, _, requests = demo("warcry")
    snap = Snapshot.of(scenario)
    worker = Worker()
    scanner = TargetScanner(worker, lambda where, e: None)
    scanner.hold()
    scanner.follow(snap, AttackChoice(requests[0].attacker, None, None, None))
    assert scanner.busy and scanner.statuses() == []  # nothing waited for
    while worker.jobs:
        worker.run()
    assert scanner.scan.verdicts_known and not scanner.scan.complete and not scanner.busy
    scanner.release_reports()  # the drag rested
    while worker.jobs:
        worker.run()
    assert scanner.scan.complete
    scanner.reset()
    assert scanner.scan.plan is None and scanner.statuses() == []


def test_verdicts_come_first_then_their_reasons_then_the_full_reports() -> None:
    """The window pauses what follows the verdicts while it draws their marks (issue 17):
    the verdicts come without their reasons (nine tenths of a verdict's cost), the
    reasons of the invalid ones follow once it is drawn, then the full reports; the
    reasons are those an explained ``target_validity`` gives."""
    scenario, _, requests = demo("warcry")
    snap = Snapshot.of(scenario)
    worker = Worker()
    scanner = TargetScanner(worker, lambda where, e: None)
    scanner.pause()
    attacker = requests[0].attacker
    scanner.follow(snap, AttackChoice(attacker, None, None, None))
    while worker.jobs:
        worker.run()
    scan = scanner.scan
    assert scan.verdicts_known and not scan.explained and not scanner.busy
    invalid = [s for s in scanner.statuses() if not s.valid]
    assert invalid and not any(s.reasons for s in invalid)  # the verdicts alone
    assert all("checking why" in s.tooltip for s in invalid)
    valid_before = {s.target: s.valid for s in scanner.statuses()}
    scanner.pause(False)  # the marks are drawn: the reasons follow, first
    assert scanner.busy
    worker.run()
    assert scan.explained and not scan.complete
    statuses = {s.target: s for s in scanner.statuses()}
    want = registry.get("warcry").target_validity(snap.battle, attacker, list(statuses))
    assert {t: (s.valid, s.reasons) for t, s in statuses.items()} == want
    assert {t: s.valid for t, s in statuses.items()} == valid_before
    assert all(s.stale and s.reasons for s in statuses.values() if not s.valid)
    while worker.jobs:
        worker.run()
    assert scan.complete
    scanner.pause()
    scanner.reset()
    assert not scanner.pause_reports


def test_the_reports_are_asked_for_after_the_listeners_saw_the_last_verdicts() -> None:
    """A listener drawing the last verdicts' marks may pause the full reports: none is
    under way behind its back (the worker took the interpreter lock from the drawing,
    issue 17); a listener that does not pause has them asked for after it. A verdict
    piece still goes on while the previous one is drawn."""
    scenario, _, requests = demo("warcry")
    snap = Snapshot.of(scenario)
    worker = Worker()
    scanner = TargetScanner(worker, lambda where, e: None)
    seen: list[tuple[bool, bool]] = []  # (verdicts known, a piece under way) when told

    def drawing() -> None:
        seen.append((scanner.scan.verdicts_known, scanner.busy))
        if scanner.scan.verdicts_known:
            scanner.pause()  # the marks take more than this turn

    scanner.subscribe(drawing)
    scanner.follow(snap, AttackChoice(requests[0].attacker, None, None, None))
    while worker.jobs:
        worker.run()
    assert seen and seen[-1] == (True, False)
    assert all(busy for known, busy in seen if not known)  # verdicts: the next one asked
    assert not scanner.busy and not scanner.scan.complete  # no report behind the drawing
    scanner.pause(False)  # drawn
    assert scanner.busy

    other = TargetScanner(worker, lambda where, e: None)
    told: list[bool] = []
    other.subscribe(lambda: told.append(other.busy))
    other.follow(snap, AttackChoice(requests[0].attacker, None, None, None))
    worker.run()
    assert other.scan.verdicts_known and told == [False] and other.busy  # asked for after


def test_a_listener_that_fails_on_the_last_verdicts_leaves_the_reports_going() -> None:
    scenario, _, requests = demo("warcry")
    snap = Snapshot.of(scenario)
    worker = Worker()
    scanner = TargetScanner(worker, lambda where, e: None)

    def failing() -> None:
        raise RuntimeError("drawing failed")

    scanner.subscribe(failing)
    scanner.follow(snap, AttackChoice(requests[0].attacker, None, None, None))
    while not scanner.scan.verdicts_known:  # one piece, or more on a loaded machine (the
        with pytest.raises(RuntimeError, match="drawing failed"):  # first builds the board)
            worker.run()
    assert scanner.busy  # the reasons and reports asked for anyway


def test_a_scan_of_cheap_verdicts_learns_a_chunk_that_takes_every_enemy_at_once() -> None:
    """The chunk learnt from a scan's short last batch is the full batch's doubled when
    it was cheap at its rate: a drag step's scan of the same enemies (superseded before
    it can teach more) then asks for every verdict in one call, not two (issue 17)."""
    from tabletop_gui.bench.cases_gui import crowd_scenario
    from tabletop_gui.model.target_scan import PieceJob, compute_piece, plan_of
    from tabletop_gui.model.target_scanner import enemies_of as enemies

    snap = Snapshot.of(crowd_scenario(200))
    attacker = "m90"
    foes = enemies(snap.scenario, attacker)
    assert len(foes) == 100
    plan = plan_of(snap, attacker, None, None, {}, foes, None)
    piece = compute_piece(PieceJob(plan, False, (), (), 1, budget_s=1e9, explain=False))
    # 1 + 2 + ... + 32 = 63 targets, then the last 37: cheap at any rate with this budget
    assert len(piece.verdicts) == 100
    assert piece.chunk == 128


def test_a_piece_pauses_between_its_steps_and_its_waits_do_not_use_its_budget() -> None:
    """A piece calls the runner's pause between its steps (the worker waits there while a
    drag's frame is handled, ``model.jobs.pause_point``); the seconds it waited there do
    not count against its budget: a piece that waited longer than its budget still judges
    its enemies. A pause that stops the job (its ticket cancelled) stops the piece."""
    from tabletop_gui.bench.cases_gui import crowd_scenario
    from tabletop_gui.model.jobs import Cancelled, set_pause_hook
    from tabletop_gui.model.target_scan import PieceJob, compute_piece, plan_of
    from tabletop_gui.model.target_scanner import enemies_of as enemies

    snap = Snapshot.of(crowd_scenario(200))
    foes = enemies(snap.scenario, "m90")
    plan = plan_of(snap, "m90", None, None, {}, foes, None)
    pauses: list[int] = []

    def waited_a_minute() -> float:
        pauses.append(1)
        return 60.0

    set_pause_hook(waited_a_minute)
    try:
        piece = compute_piece(PieceJob(plan, False, (), (), 1, budget_s=1.0, explain=False))
        assert len(pauses) >= 3  # after the geometry, after the order, between batches
        assert len(piece.verdicts) == len(foes) == 100

        def cancelled() -> float:
            raise Cancelled

        set_pause_hook(cancelled)
        with pytest.raises(Cancelled):
            compute_piece(PieceJob(plan, True, foes, (), 1, explain=False))
    finally:
        set_pause_hook(None)


def test_the_next_chunk_doubles_a_cheap_one_and_halves_one_over_the_budget() -> None:
    from tabletop_gui.model.target_scan import _next_chunk

    assert _next_chunk(64, 64, 0.001, 0.05) == 128
    assert _next_chunk(64, 16, 0.001, 0.05) == 128  # a short last batch, at its rate
    assert _next_chunk(64, 16, 0.004, 0.05) == 64  # 0.016 s for 64: not under a quarter
    assert _next_chunk(64, 64, 0.06, 0.05) == 32


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_phase_of_a_scan_on_a_shuffled_crowd_says_what_attack_says(seed: int) -> None:
    """On a crowd whose fighters are moved at random: the verdicts (without reasons) are
    the valid flags of ``attack``, the reasons that follow are its reasons, and the full
    reports are its reports, for every enemy (the three phases of issue 17's scan)."""
    from tests.core.test_target_validity import one_by_one

    rng = random.Random(seed)
    scenario = shuffled_crowd(rng)
    fighters = scenario.fighters
    snap = Snapshot.of(scenario)
    ruleset = registry.get(scenario.ruleset)
    for attacker in rng.sample([f.id for f in fighters], 3):
        worker = Worker()
        scanner = TargetScanner(worker, lambda where, e: None)
        scanner.pause()
        scanner.follow(snap, AttackChoice(attacker, None, None, None))
        while worker.jobs:
            worker.run()
        scan = scanner.scan
        want = one_by_one(ruleset, snap.battle, attacker, sorted(enemies_of(snap, attacker)),
                          None)
        assert scan.verdicts_known and not scan.explained
        assert any(not v for v, _ in want.values()) and any(v for v, _ in want.values())
        assert {s.target: s.valid for s in scanner.statuses()} == \
            {t: v for t, (v, _) in want.items()}
        scanner.pause(False)
        while not scan.explained:
            worker.run()
        assert {s.target: (s.valid, s.reasons) for s in scanner.statuses()} == want
        while worker.jobs:
            worker.run()
        assert scan.complete
        assert all(not s.stale for s in scanner.statuses())
        assert {s.target: (s.valid, s.reasons) for s in scanner.statuses()} == want


def test_the_enemies_followed_are_those_of_each_attacker_in_turn() -> None:
    """The scanner lists the enemies of an attacker of the side it listed last on the
    same battlefield value without walking the models again (issue 17); whatever the
    order of attackers, sides and battlefield values, they are ``enemies_of``'s."""
    import random
    from dataclasses import replace

    from tabletop_gui.bench.cases_gui import crowd_scenario
    from tabletop_gui.model.target_scanner import enemies_of as listed

    rng = random.Random(7)
    crowd = crowd_scenario(40)
    scenarios = [replace(crowd, fighters=tuple(
        replace(f, side=rng.choice(("red", "blue")), state={"taken_down": rng.random() < 0.3})
        for f in crowd.fighters)) for _ in range(3)]
    assert any(s.taken_down(m) for s in scenarios for m in s.models)
    scanner = TargetScanner(Worker(), lambda where, e: None)
    for _ in range(60):
        snap = Snapshot.of(rng.choice(scenarios))
        attacker = rng.choice([None, "nobody", *(f.id for f in crowd.fighters)])
        scanner.follow(snap, AttackChoice(attacker, None, None, None))
        assert scanner.enemies() == listed(snap.scenario, attacker)


def test_a_verdict_made_fast_is_the_status_the_constructor_makes() -> None:
    """``_verdict`` (a merge's thousand verdicts made without the frozen dataclass's
    ``__init__``) equals ``TargetStatus(...)``, field by field, and reads the same."""
    from tabletop_gui.model.target_scan import TargetStatus, _verdict

    for valid, reasons, distance in ((True, (), 2.5), (False, (), None),
                                     (False, ("out of range", "no sight"), 13.0)):
        fast = _verdict("t1", valid, reasons, distance)
        slow = TargetStatus("t1", valid, reasons, None, None, stale=True, distance=distance)
        assert type(fast) is TargetStatus and fast == slow
        assert fast.__dict__ == slow.__dict__ and fast.tooltip == slow.tooltip


def _plain(statuses: list[TargetStatus]) -> list[tuple[object, ...]]:
    """The statuses as values (a report's odds, a ``Dist``, compare by identity)."""
    from dataclasses import replace

    return [(replace(s, report=None), None if s.report is None else (
        replace(s.report, distribution=None), s.report.distribution.items()))
        for s in statuses]


@pytest.mark.parametrize("seed", [4, 5])
def test_a_scan_going_on_from_an_earlier_board_ends_as_one_from_nothing(seed: int) -> None:
    """A scan that follows its attacker's board as fighters move (the earlier statuses
    kept, stale, then merged over) has, once its verdicts are known and once complete,
    exactly the statuses (order, verdicts, reasons, reports, staleness, distances) of a
    scan of that board from nothing: random crowds, random moves."""
    rng = random.Random(seed)
    scenario = shuffled_crowd(rng)
    fighters = scenario.fighters
    attacker = fighters[0].id
    choice = AttackChoice(attacker, None, None, None)
    worker = Worker()
    going = TargetScanner(worker, lambda where, e: None)
    snap = Snapshot.of(scenario)
    for step in range(4):
        phase_end = rng.choice(("verdicts", "complete"))
        going.pause(phase_end == "verdicts")
        going.follow(snap, choice)
        while worker.jobs:
            worker.run()
        fresh_worker = Worker()
        fresh = TargetScanner(fresh_worker, lambda where, e: None)
        fresh.pause(phase_end == "verdicts")
        fresh.follow(snap, choice)
        while fresh_worker.jobs:
            fresh_worker.run()
        assert going.scan.verdicts_known and fresh.scan.verdicts_known
        assert going.scan.complete == fresh.scan.complete == (phase_end == "complete")
        assert _plain(going.statuses()) == _plain(fresh.statuses()), step
        moved = rng.choice(fighters[1:])
        now = snap.scenario.model(moved.id)
        snap = snap.revised(snap.scenario.with_entity(
            now.moved_to(now.x + rng.uniform(-3, 3), now.y + rng.uniform(-3, 3))))


def _scanned_then_moved() -> tuple[TargetScanner, Worker, Scenario, Scenario, str]:
    """A worker's scan of a demo attacker's enemies, complete; with the scenario and the
    same with the attack's target moved 1" (not followed yet)."""
    scenario, _, requests = demo("warcry")
    worker = Worker()
    scanner = TargetScanner(worker, lambda where, e: None)
    attacker = requests[0].attacker
    scanner.follow(Snapshot.of(scenario), AttackChoice(attacker, None, None, None))
    while worker.jobs:
        worker.run()
    assert scanner.scan.complete
    moved = scenario.model(requests[0].target)
    assert moved is not None
    return (scanner, worker, scenario,
            scenario.with_entity(moved.moved_to(moved.x + 1.0, moved.y)), attacker)


def _follow_held(scanner: TargetScanner, worker: Worker, scenario: Scenario,
                 attacker: str) -> None:
    """``scanner`` follows ``scenario`` as a drag: the verdicts only."""
    scanner.hold()
    scanner.follow(Snapshot.of(scenario), AttackChoice(attacker, None, None, None))
    while worker.jobs:
        worker.run()
    assert scanner.scan.verdicts_known and not scanner.scan.complete


def test_the_statuses_a_piece_replaces_are_let_go_with_the_next_piece() -> None:
    """A move's verdicts replace the full reports of the scan before; whoever drew those
    (the canvas marks) lets go of them as it takes the verdicts, and the last reference
    to a thousand reports freed them there, on the way to the screen (issue 17). The
    scan keeps the statuses a start or a piece replaced until the next piece: the
    reports are freed with the full reports' first piece."""
    import gc
    import weakref

    scanner, worker, _, moved, attacker = _scanned_then_moved()
    reports = [weakref.ref(s.report) for s in scanner.statuses() if s.report is not None]
    assert reports
    _follow_held(scanner, worker, moved, attacker)
    assert all(s.report is None for s in scanner.statuses())  # the verdicts shown
    gc.collect()
    assert all(r() is not None for r in reports)  # kept by the scan, not freed yet
    scanner.release_reports()
    worker.run()  # the next piece (the reasons of the invalid verdicts, or reports)
    gc.collect()
    assert all(r() is None for r in reports)


def test_verdicts_and_stale_copies_made_in_bulk_are_those_made_one_by_one() -> None:
    """A merge's verdicts and a start's stale copies are made inline, in bulk (a move of
    one of 2,000 fighters makes a thousand of each): they equal ``_verdict`` and
    ``_stale``'s, field by field, and the copies leave the statuses copied as they were."""
    from tabletop_gui.model.target_scan import _stale, _stale_copies, _verdict

    scanner, worker, _, moved, attacker = _scanned_then_moved()
    done = dict(scanner.scan._done)
    before = {t: dict(s.__dict__) for t, s in done.items()}
    done["old"] = _stale(next(iter(done.values())))  # stale already: not copied
    copies = _stale_copies(done.values())
    assert set(copies) == set(done) - {"old"}
    for t, copy in copies.items():
        assert type(copy) is TargetStatus and copy.__dict__ == _stale(done[t]).__dict__
        assert done[t].__dict__ == before[t] and not done[t].stale
    _follow_held(scanner, worker, moved, attacker)
    scan = scanner.scan
    for s in scan.statuses():
        assert s.__dict__ == _verdict(s.target, s.valid, s.reasons, s.distance).__dict__


def test_the_lookup_of_a_scan_answers_as_status_of() -> None:
    """``TargetScan.lookup`` (a thousand targets asked at once) gives ``status_of``'s
    statuses, on the scan before a move and on the one after it."""
    scanner, worker, _, moved, attacker = _scanned_then_moved()
    for _ in range(2):
        scan = scanner.scan
        lookup = scan.lookup()
        assert scan.statuses()
        for s in scan.statuses():
            assert lookup(s.target) is scan.status_of(s.target) is s
        assert lookup("nobody") is None
        _follow_held(scanner, worker, moved, attacker)


def test_a_drag_step_keeps_the_order_known_with_the_stale_copies_in_it() -> None:
    """A drag step's start copies the statuses stale in the order known (one pass): the
    statuses then are the scan's own, nearest first as sorting them afresh gives, every
    one stale; likewise when the order was not known (sorted on the next ask)."""
    from tabletop_gui.model.target_scan import _nearness

    for ordered in (True, False):
        scanner, worker, _, moved, attacker = _scanned_then_moved()
        scan = scanner.scan
        if ordered:
            assert scan.statuses()
        else:
            scan._sorted = None
        scan.start(replace(scan.plan, snapshot=Snapshot.of(moved)))
        got = scan.statuses()
        assert got and all(s.stale for s in got)
        assert all(s is scan.status_of(s.target) for s in got)
        assert [s.target for s in got] == [s.target for s in sorted(got, key=_nearness)]
        assert {s.target for s in got} == set(scan.plan.enemies)


def test_the_changes_since_a_version_say_which_statuses_were_only_copied_stale() -> None:
    """``TargetScan.changes_since``: what changed since a version (``changed_since``'s
    targets) and those of them a drag step only copied stale since (the same status but
    the flag), not judged or put after: a view that drew them keeps their marks."""
    scanner, worker, _, moved, attacker = _scanned_then_moved()
    scan = scanner.scan
    drawn_at = scan.version
    drawn = {s.target: s for s in scan.statuses()}
    assert scan.changes_since(drawn_at) == (set(), set())
    scanner.hold()
    scanner.follow(Snapshot.of(moved), AttackChoice(attacker, None, None, None))
    assert worker.jobs  # the step's verdicts asked for, not computed yet
    changed, restaled = scan.changes_since(drawn_at)  # type: ignore[misc]
    assert changed == restaled == scan.changed_since(drawn_at) == set(drawn)
    for t in restaled:
        s = scan.status_of(t)
        assert s is not None and s.stale and replace(s, stale=False) == drawn[t]
    stepped_at = scan.version
    put = next(iter(drawn))  # one status put since (the attack's own report)
    scan.put(replace(drawn[put], reasons=("put",)), moved)
    changed, restaled = scan.changes_since(drawn_at)  # type: ignore[misc]
    assert changed == set(drawn) and restaled == set(drawn) - {put}
    assert scan.changes_since(stepped_at) == ({put}, set())
    worker.run()  # then the verdicts: every status judged since
    changed, restaled = scan.changes_since(drawn_at)  # type: ignore[misc]
    assert changed == scan.changed_since(drawn_at) == set(drawn) and restaled == set()


def test_a_drag_steps_stale_copies_are_made_when_asked_for_and_stay_the_same() -> None:
    """A drag step's start copies no status stale: each is copied when first asked for
    (``status_of``, ``lookup``, ``statuses``), once (the same copy after), equal to the
    status judged before but for the flag; the step's verdicts then replace them, the
    ones never asked for too."""
    scanner, worker, _, moved, attacker = _scanned_then_moved()
    scan = scanner.scan
    judged = {s.target: s for s in scan.statuses()}
    assert judged and not any(s.stale for s in judged.values())
    scanner.hold()
    scanner.follow(Snapshot.of(moved), AttackChoice(attacker, None, None, None))
    assert set(scan._unstaled) == set(judged)  # none copied yet
    first, second, *rest = list(judged)
    copy = scan.status_of(first)
    assert copy is not None and copy.stale and replace(copy, stale=False) == judged[first]
    assert scan.status_of(first) is copy and scan.lookup()(first) is copy
    assert scan.lookup()(second) is scan.status_of(second)
    assert set(scan._unstaled) == set(rest)
    every = scan.statuses()
    assert every[every.index(copy)] is copy and not scan._unstaled
    assert [s.target for s in every] == list(judged)  # the order known, kept
    assert all(s.stale and s is scan.status_of(s.target)
               and replace(s, stale=False) == judged[s.target] for s in every)
    worker.run()  # the step's verdicts replace every one of them
    assert scan.verdicts_known
    assert all(s.stale and s.report is None for s in scan.statuses())


def test_a_drag_steps_verdicts_replace_the_statuses_never_asked_for() -> None:
    """The statuses of the scenario before that nobody asked for (their stale copies
    never made) are replaced by the step's verdicts all the same, and the full reports
    follow for every enemy, as a scan from nothing gives them (their verdicts and
    reasons; the odds' floats are not compared)."""
    scanner, worker, scenario, moved, attacker = _scanned_then_moved()
    scanner.follow(Snapshot.of(moved), AttackChoice(attacker, None, None, None))
    while worker.jobs:
        worker.run()
    assert scanner.scan.complete and not scanner.scan._unstaled
    fresh_worker = Worker()
    fresh = TargetScanner(fresh_worker, lambda where, e: None)
    fresh.follow(Snapshot.of(moved), AttackChoice(attacker, None, None, None))
    while fresh_worker.jobs:
        fresh_worker.run()
    def said(statuses: list[TargetStatus]) -> list[tuple[object, ...]]:
        return [(s.target, s.valid, s.reasons, s.stale, s.report is not None,
                 s.report.valid if s.report is not None else None) for s in statuses]

    assert said(scanner.statuses()) == said(fresh.statuses())
    assert all(s.report is not None for s in scanner.statuses())


def test_the_statuses_a_drag_step_makes_stale_are_those_judged_on_the_board_before() -> None:
    """A drag step's start names stale the statuses judged (full reports, or put) on the
    scenario before, found without a walk over every status: the same as the statuses
    not stale then, step after step (the second step on verdicts only: none)."""
    scanner, worker, scenario, moved, attacker = _scanned_then_moved()
    scan = scanner.scan
    for step, where in enumerate((moved, scenario, moved)):
        fresh = {t for t, s in scan._done.items() if not s.stale and t not in scan._unstaled}
        if step == 0:
            assert fresh == set(scan.plan.enemies)
        at = scan.version
        scanner.hold()
        scanner.follow(Snapshot.of(where), AttackChoice(attacker, None, None, None))
        assert scan.changes_since(at) == (fresh, fresh)
        while worker.jobs:
            worker.run()  # the verdicts (stale) only
        if step == 1:  # the attack's own report put for one of them
            target = next(iter(scan.plan.enemies))
            scan.put(replace(scan.status_of(target), stale=False), where)
    assert scan.changes_since(at)[1] == set()
