"""The target scan as a component: every enemy of the attacker, valid or not, for the
canvas's marks (``model.target_scan`` computes it in pieces).

``TargetScanner.follow(snapshot, choice)`` is fed the same snapshot and choice as the
attack controller; when they call for another scan it starts one. With a synchronous
runner (tests, the model parts alone) the scan is finished before ``follow`` returns; with a
worker the pieces are computed one after another off the GUI thread (each verdict piece
asked for as soon as the previous one arrives, before its listeners draw it; the first
piece of reasons once they have drawn the last verdicts), the verdicts first (without
their reasons), then the reasons of the invalid ones, then the full reports; ``hold``
keeps the reasons and reports back while a drag is under way, ``pause`` while the
window draws. Its listeners are told when more statuses are known. Getters have no side
effects.

``follow_attack(scanner, controller)`` is the coupling the window makes: the scan follows
the attack controller's snapshot and choice, and the controller's own report of the
chosen target is that target's status.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from tabletop_gui.model.attack_controller import AttackController
from tabletop_gui.model.attack_view import AttackChoice, AttackView, SnapshotLike
from tabletop_gui.model.jobs import Outcome, Runner, Ticket
from tabletop_gui.model.notices import Notice
from tabletop_gui.model.target_scan import (
    PIECE_S,
    ScanPiece,
    TargetScan,
    TargetStatus,
    compute_piece,
    plan_of,
    report_status,
)
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.snapshot import Snapshot

Listener = Callable[[], None]
FailureHandler = Callable[[str, Exception], None]
WHERE = "Judging the targets"


def enemies_of(scenario: Scenario, attacker: str | None) -> tuple[str, ...]:
    """Ids of the enemies of ``attacker`` on the table (not taken down); none without it."""
    a = scenario.model(attacker) if attacker is not None else None
    if a is None:
        return ()
    return tuple(m.id for m in scenario.models
                 if m.side != a.side and not scenario.taken_down(m))


def same_enemies(old: Scenario, new: Scenario, attacker: str | None) -> bool:
    """``enemies_of(new, attacker) == enemies_of(old, attacker)`` known without a walk
    over every model: the models that changed (a drag step: one) kept their id, side
    and taken-down state."""
    if old is new:
        return True
    changed = new.models_changed_from(old)
    return changed is not None and all(
        a.id == b.id and a.side == b.side and old.taken_down(a) == new.taken_down(b)
        for a, b in changed)


def next_valid(statuses: list[TargetStatus], current: str | None, step: int = 1
               ) -> str | None:
    """The valid target ``step`` places after ``current`` among ``statuses`` (nearest
    first, wrapping round); the first (or, going back, the last) when ``current`` is not
    one of them; None when none is valid (or none is known yet)."""
    valid = [s.target for s in statuses if s.valid]
    if not valid:
        return None
    if current in valid:
        return valid[(valid.index(current) + step) % len(valid)]
    return valid[0] if step > 0 else valid[-1]


class TargetScanner:
    """Keeps a ``TargetScan`` of the attacker's enemies going on a runner."""

    def __init__(self, runner: Runner, on_failure: FailureHandler) -> None:
        self.runner = runner
        self.on_failure = on_failure
        self.scan = TargetScan()
        self.hold_reports = False  # the scan stops after the verdicts (a drag under way)
        # the full reports wait (the verdicts go on): while the verdicts' marks are drawn,
        # the worker would take the interpreter lock from the event loop half the time
        self.pause_reports = False
        self._listeners: list[Listener] = []
        self._ticket: Ticket | None = None
        self._attacker: str | None = None
        self._enemies: tuple[str, ...] = ()
        self._enemies_on: Scenario | None = None  # the scenario ``_enemies`` are of
        # the enemies last listed for a side: (scenario, side, ids)
        self._side_enemies: tuple[Scenario, str, tuple[str, ...]] | None = None

    def subscribe(self, listener: Listener) -> None:
        """``listener()`` when more target statuses are known."""
        self._listeners.append(listener)

    @property
    def busy(self) -> bool:
        """A piece is being computed."""
        return self._ticket is not None

    def follow(self, snapshot: Snapshot | None, choice: AttackChoice) -> None:
        """Scan the enemies of ``choice.attacker`` on ``snapshot`` with that weapon,
        off-hand and options (the chosen target first), unless that scan is under way."""
        same = snapshot is not None and self._enemies_on is not None \
            and choice.attacker == self._attacker \
            and same_enemies(self._enemies_on, snapshot.scenario, choice.attacker)
        self._attacker = choice.attacker
        if not same:
            self._enemies = self._enemies_of(snapshot.scenario, choice.attacker) \
                if snapshot is not None else ()
        self._enemies_on = snapshot.scenario if snapshot is not None else None
        if snapshot is None or choice.attacker is None \
                or snapshot.scenario.model(choice.attacker) is None:
            return
        plan = plan_of(snapshot, choice.attacker, choice.weapon, choice.offhand,
                       dict(choice.options), self._enemies, choice.target)
        if self.scan.wants(plan):
            self._cancel()
            self.scan.start(plan)
        self._go_on()

    def _enemies_of(self, scenario: Scenario, attacker: str | None) -> tuple[str, ...]:
        """``enemies_of(scenario, attacker)``; on the same scenario value, for an
        attacker of the side listed last, that list (the next attacker picked among
        2,000 fighters: no walk over them all)."""
        a = scenario.model(attacker) if attacker is not None else None
        if a is None:
            return ()
        kept = self._side_enemies
        if kept is not None and kept[0] is scenario and kept[1] == a.side:
            return kept[2]
        enemies = enemies_of(scenario, attacker)
        self._side_enemies = (scenario, a.side, enemies)
        return enemies

    def statuses(self) -> list[TargetStatus]:
        """Every enemy of the attacker known so far, valid or not with reasons, nearest
        first (a worker's statuses come as they are computed)."""
        plan = self.scan.plan
        if self._attacker is None or plan is None or plan.attacker != self._attacker:
            return []
        return self.scan.statuses()

    def enemies(self) -> tuple[str, ...]:
        """Ids of the enemies of the attacker followed, on the battlefield followed."""
        return self._enemies

    def next_valid(self, current: str | None, step: int = 1) -> str | None:
        """The next (``step`` -1: the previous) valid target after ``current``, nearest
        first (``next_valid``)."""
        return next_valid(self.statuses(), current, step)

    def put(self, status: TargetStatus, snapshot: Snapshot) -> None:
        """A status known from elsewhere (the attack's own report)."""
        self.scan.put(status, snapshot.scenario)

    def problems(self) -> list[Notice]:
        """What went wrong judging the targets so far."""
        return self.scan.problems() if self._attacker is not None else []

    def hold(self, on: bool = True) -> None:
        """The scan stops after the verdicts, their reasons and the full reports wait
        (``on``: a drag under way), or not."""
        self.hold_reports = on

    def pause(self, on: bool = True) -> None:
        """The reasons and full reports wait (``on``) or go on; the verdicts go on
        either way."""
        was, self.pause_reports = self.pause_reports, on
        if was and not on:
            self._go_on()

    def release_reports(self) -> None:
        """Go on with the full reports (the drag rested)."""
        self.hold_reports = False
        self._go_on()

    def advance(self, reports: bool = True, budget_s: float = PIECE_S) -> bool:
        """Compute the next piece (``reports``: the reasons and full reports too, not
        only the verdicts); False when none was started (nothing left, or a piece under
        way)."""
        if self._ticket is not None:
            return False
        job = self.scan.next_job(reports)
        if job is None:
            return False
        job = replace(job, budget_s=budget_s)
        holder = [Ticket()]
        self._ticket = holder[0]
        ticket = self.runner.submit(partial(compute_piece, job),
                                    partial(self._delivered, holder))
        if self._ticket is holder[0]:  # not delivered yet: the real one cancels it
            self._ticket = holder[0] = ticket
        return True

    def reset(self) -> None:
        """No scan, nothing remembered of the earlier battlefield."""
        self._cancel()
        self.scan = TargetScan()
        self._attacker = None
        self._enemies = ()
        self._enemies_on = None
        self._side_enemies = None
        self.hold_reports = False
        self.pause_reports = False

    def _go_on(self) -> None:
        if self._attacker is None:
            return
        reports = not self.hold_reports and not self.pause_reports
        if self.runner.synchronous:
            while self.advance(reports=reports):
                pass
        else:
            self.advance(reports=reports)

    def _cancel(self) -> None:
        if self._ticket is not None:
            self._ticket.cancel()
            self._ticket = None

    def _delivered(self, holder: list[Ticket], outcome: Outcome[ScanPiece]) -> None:
        if self._ticket is not holder[0]:
            return  # superseded (another scan, or reset)
        self._ticket = None
        try:
            piece = outcome.get()
        except Exception as e:  # noqa: BLE001 - the job's own failure, not the rules'
            self.on_failure(WHERE, e)
            return
        if self.scan.merge(piece):
            verdicts_next = not self.runner.synchronous and not self.scan.verdicts_known
            if verdicts_next:
                self._go_on()  # the worker judges the next enemies while these are drawn
            try:
                for listener in list(self._listeners):
                    listener()
            finally:
                if not verdicts_next and not self.runner.synchronous:
                    # the full reports are asked for once the listeners have seen the
                    # last verdicts: drawing their marks, they may pause the reports
                    # (``pause``), which would otherwise take the interpreter lock from
                    # them for a piece (even a listener that failed leaves the scan going)
                    self._go_on()


def follow_attack(scanner: TargetScanner, controller: AttackController) -> None:
    """Couple ``scanner`` to ``controller``: the scan follows the controller's snapshot
    and choice as they change, and the report of the chosen target in each view the
    controller publishes is that target's status (subscribe this before the views that
    draw the statuses)."""

    def chosen(snapshot: SnapshotLike | None, choice: AttackChoice) -> None:
        scanner.follow(snapshot if isinstance(snapshot, Snapshot) else None, choice)

    def published(view: AttackView) -> None:
        snapshot = controller.snapshot
        if view.report is not None and isinstance(snapshot, Snapshot) \
                and view.choice == controller.choice:
            scanner.put(report_status(view.report), snapshot)

    controller.subscribe_choice(chosen)
    controller.subscribe(published)
