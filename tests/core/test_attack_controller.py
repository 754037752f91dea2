"""``AttackController``: choice and dice held, one evaluation per turn, the view published."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from tabletop_gui.model.attack_controller import (
    NO_ATTACK,
    SEED_LIMIT,
    AttackController,
    system_seed,
)
from tabletop_gui.model.attack_view import AttackChoice, AttackView, DiceEntry, evaluate
from tabletop_gui.model.jobs import Outcome, Ticket, run_job
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, RulesError, SeededDice
from tabletop_gui.scenario.snapshot import Snapshot
from tests.core.test_resolver import demo

T = TypeVar("T")


class Turns:
    """An event loop by hand: ``later`` queues, ``turn()`` runs what was queued."""

    def __init__(self) -> None:
        self.queued: list[Callable[[], None]] = []

    def __call__(self, work: Callable[[], None]) -> None:
        self.queued.append(work)

    def turn(self) -> None:
        queued, self.queued = self.queued, []
        for work in queued:
            work()


class Worker:
    """A runner by hand: jobs wait until ``run()``; cancelled ones are never delivered."""

    synchronous = False

    def __init__(self) -> None:
        self.jobs: list[tuple[Ticket, Callable[[], Any], Callable[[Outcome[Any]], None]]] = []
        self.submitted = 0

    def submit(self, work: Callable[[], T], done: Callable[[Outcome[T]], None]) -> Ticket:
        ticket = Ticket()
        self.jobs.append((ticket, work, done))
        self.submitted += 1
        return ticket

    def run(self) -> None:
        jobs, self.jobs = self.jobs, []
        for ticket, work, done in jobs:
            if not ticket.cancelled:
                done(run_job(work))


def setup(ruleset: str = "warcry", **kw: Any) -> tuple[AttackController, Snapshot,
                                                       AttackRequest, list[AttackView]]:
    scenario, _, requests = demo(ruleset)
    snap = Snapshot.of(scenario)
    c = AttackController(snap, **kw)
    seen: list[AttackView] = []
    c.subscribe(seen.append)
    return c, snap, requests[0], seen


def choose(c: AttackController, q: AttackRequest) -> None:
    c.set_attacker(q.attacker)
    c.set_target(q.target)


def test_a_choice_is_evaluated_and_published() -> None:
    c, snap, q, seen = setup()
    choose(c, q)
    want = evaluate(snap, AttackChoice(q.attacker, None, None, q.target), DiceEntry())
    assert seen[-1] is c.view and c.view.report is not None
    assert c.view.report.to_json() == want.report.to_json()  # type: ignore[union-attr]
    assert c.choice == AttackChoice(q.attacker, None, None, q.target)
    assert not c.pending and not c.can_apply


def test_changes_in_one_turn_cost_one_evaluation() -> None:
    turns, worker = Turns(), Worker()
    c, _, q, seen = setup(later=turns, runner=worker)
    choose(c, q)
    c.enter_die(3)
    c.enter_die(4)
    assert c.pending and worker.submitted == 0
    assert all(v.report is None for v in seen)  # only "no target yet", told at once
    turns.turn()
    assert worker.submitted == 1
    worker.run()
    assert [v.dice.faces for v in seen if v.report is not None] == [(3, 4)]
    assert c.dice.faces == (3, 4) and not c.pending


def test_clearing_is_published_at_once() -> None:
    turns, worker = Turns(), Worker()
    c, _, q, seen = setup(later=turns, runner=worker)
    choose(c, q)
    turns.turn()
    worker.run()
    assert c.view.report is not None
    c.clear()  # nothing to ask the rules: no turn, no job
    assert seen[-1].report is None and seen[-1].choice.attacker is None
    assert not c.pending and worker.submitted == 1


def test_a_superseded_answer_is_dropped() -> None:
    turns, worker = Turns(), Worker()
    c, _, q, seen = setup(later=turns, runner=worker)
    choose(c, q)
    turns.turn()
    first = worker.jobs[0][0]
    c.enter_die(5)  # a change while the first answer is computed
    assert first.cancelled
    turns.turn()
    worker.run()
    answered = [v for v in seen if v.report is not None]
    assert [v.dice.faces for v in answered] == [(5,)]


def test_a_refused_face_is_not_kept_and_told() -> None:
    c, _, q, _ = setup()
    choose(c, q)
    told: list[str] = []
    c.enter_die(3, told.append)
    c.enter_die(9, told.append)
    assert c.dice.faces == (3,)
    assert told == ["die 2 (hit roll 2) shows 9, but a d6 shows 1 to 6"]
    assert c.view.message == told[0]
    c.enter_die(4, told.append)
    assert c.dice.faces == (3, 4) and c.view.message == "" and len(told) == 1


def test_a_die_without_an_attack_is_refused() -> None:
    c, _, _, _ = setup()
    told: list[str] = []
    c.enter_die(3, told.append)
    assert told == [NO_ATTACK] and c.dice.faces == ()
    c.roll()
    assert c.view.message == NO_ATTACK


def test_a_roll_takes_a_fresh_seed_and_shows_it() -> None:
    seeds = iter([11, 12])
    c, snap, q, _ = setup(seed_source=lambda: next(seeds))
    choose(c, q)
    c.roll()
    want = registry.get("warcry").resolve(
        snap.battle, AttackRequest(q.attacker, q.target), SeededDice(11))
    assert c.dice.seed == 11 and c.dice.faces == tuple(d.face for d in want.dice)
    assert c.can_apply and c.view.resolution is not None
    c.roll()
    assert c.dice.seed == 12 and c.seed is None


def test_a_fixed_seed_moves_on_by_one() -> None:
    c, _, q, _ = setup(seed_source=lambda: pytest.fail("the user fixed the seed"))
    choose(c, q)
    c.set_seed(SEED_LIMIT)
    c.roll()
    assert c.dice.seed == SEED_LIMIT and c.seed == 0
    c.roll()
    assert c.dice.seed == 0 and c.seed == 1


def test_system_seeds_differ() -> None:
    assert len({system_seed() for _ in range(8)}) > 1


def test_a_die_typed_after_a_roll_starts_afresh() -> None:
    c, _, q, _ = setup(seed_source=lambda: 7)
    choose(c, q)
    c.roll()
    c.enter_die(2)
    assert c.dice == DiceEntry((2,))


def test_another_target_starts_the_dice_afresh_an_option_keeps_them() -> None:
    c, snap, q, _ = setup("circle-of-realms")
    choose(c, q)
    c.enter_die(3)
    c.set_option("night", True)
    assert c.dice.faces == (3,) and c.choice.options == (("night", True),)
    assert c.option_value("night") is True
    c.set_option("night", False)  # the default: no longer held
    assert c.choice.options == () and c.option_value("night") is False
    with pytest.raises(RulesError, match="unknown option 'nope'"):
        c.set_option("nope", 1)
    side = snap.scenario.model(q.attacker).side  # type: ignore[union-attr]
    other = next(m.id for m in snap.scenario.models if m.side != side and m.id != q.target)
    c.set_target(other)
    assert c.dice.faces == () and c.choice.target == other


def test_a_new_snapshot_keeps_what_still_makes_sense() -> None:
    c, snap, q, _ = setup()
    choose(c, q)
    c.enter_die(3)
    gone = snap.scenario.without_entity(q.target)
    c.set_snapshot(Snapshot.of(gone))
    assert c.choice.attacker == q.attacker and c.choice.target is None
    assert c.view.report is None


def test_the_answered_choice_is_kept_until_cleared() -> None:
    c, _, q, _ = setup()
    choose(c, q)
    c.answer_choice("limb_choice", "LL")
    assert c.dice.answers == (("limb_choice", "LL"),)
    c.clear_dice()
    assert c.dice == DiceEntry()
    c.clear()
    assert c.choice == AttackChoice(None, None, None, None) and c.view.report is None


def test_a_failure_is_told_and_the_controller_starts_over(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    told: list[tuple[str, str]] = []
    c, _, q, _ = setup(on_failure=lambda where, e: told.append((where, str(e))))
    c.set_attacker(q.attacker)
    engine = registry.get("warcry")

    def broken(*_: object) -> object:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(type(engine), "attack", broken)
    c.set_target(q.target)
    assert told == [("Preparing the attack", "boom")]
    assert c.choice.attacker is None and not c.pending


def test_without_a_failure_handler_a_failure_is_raised(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    c, _, q, _ = setup()
    c.set_attacker(q.attacker)
    monkeypatch.setattr(type(registry.get("warcry")), "attack",
                        lambda *_: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        c.set_target(q.target)
