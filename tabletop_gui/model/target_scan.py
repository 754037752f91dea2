"""Which enemies the selected attacker may attack, and why not: one status per enemy.

The scan asks the ruleset about every enemy of the attacker, so the canvas can mark each
valid or invalid with the rules' own reasons. It runs in pieces (``ScanPiece``), each a
job of bounded length that a runner may compute on a worker thread (``model.jobs``):

1. the enemies nearest first, as the geometry library orders them, and every enemy's
   verdict (valid or not) from ``Ruleset.target_validity``, which rulesets answer in
   batches from the pair table (asked in chunks that grow while they stay cheap, so a
   ruleset that answers one pair at a time is still cut in pieces); the verdicts come
   without their reasons: the sentences are nine tenths of a verdict's cost (a thousand
   enemies of 2,000 Warcry fighters: ~5 ms without them, ~50-75 ms with), and the marks
   need the verdicts only;
2. then the reasons of the invalid verdicts (the same ``target_validity``, explained);
3. then the full reports (facts, every check, modifiers), nearest enemies first; until its
   report comes, a status holds the verdict only, flagged ``stale``.

``TargetScan`` (on the caller's thread) holds what is known for one attacker and attack
choice on one scenario value, says which piece comes next and merges the pieces as they
arrive. A new scenario value (a drag step, an edit) starts a new scan; the statuses of
the same choice on the earlier value stay on show, flagged stale, until they are judged
again, so marks never blink. Statuses are cached per scenario value and choice, so
repainting, hovering and Tab cycling cost nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.model.jobs import pause_point
from tabletop_gui.model.notices import Notice, exception_text, traceback_text
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import (
    AttackReport,
    AttackRequest,
    Battle,
    PairFacts,
    RulesError,
    Ruleset,
)
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.snapshot import Snapshot

PIECE_S = 0.05  # work per piece: how soon a superseded scan stops, how often it reports
FIRST_CHUNK = 1  # targets in the first verdict batch of a scan (then doubled while cheap)
LOG_KEPT = 256  # changes remembered for ``changed_since`` (then the older half dropped)
FIRST_EXPLAIN_CHUNK = 32  # targets in the first batch of reasons (then learnt apart)


@dataclass(frozen=True)
class TargetStatus:
    """One enemy as a target: valid or not, the reasons, the pair's geometry."""

    target: str
    valid: bool
    reasons: tuple[str, ...]
    facts: PairFacts | None
    report: AttackReport | None
    stale: bool = False  # the verdict only (``Ruleset.target_validity``), report pending
    distance: float | None = None  # the 3D distance when ``facts`` are not known yet
    failure: Exception | None = field(default=None, compare=False, repr=False)  # engine

    @cached_property
    def tooltip(self) -> str:
        if self.valid:
            head = "✔ valid target"
        elif not self.reasons:  # a verdict whose reasons are being worked out
            head = "✖ invalid target (checking why\u2026)"
        else:
            head = "✖ invalid target:\n" + "\n".join(f"✖ {r}" for r in self.reasons)
        if self.report is not None:
            oks = [c.text for c in self.report.checks if c.ok]
            if oks:
                head += "\n" + "\n".join(f"✔ {t}" for t in oks)
        return head


def _freeze(options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in options.items()))


def engine_failed(exc: Exception) -> str:
    """The reason shown on a target when the rules engine failed on it."""
    return f"the rules engine failed: {exception_text(exc)}"


def status_of(ruleset: Ruleset, battle: Battle, request: AttackRequest) -> TargetStatus:
    """The target's status; the rules' refusal, or the engine's failure, is its reason."""
    try:
        report = ruleset.attack(battle, request)
    except RulesError as e:
        return TargetStatus(request.target, False, (str(e),), None, None)
    except Exception as e:  # noqa: BLE001 - marked on the target and told (``problems``)
        return TargetStatus(request.target, False, (engine_failed(e),), None, None,
                            failure=e)
    return report_status(report)


def report_status(report: AttackReport) -> TargetStatus:
    return TargetStatus(report.target, report.valid, tuple(report.reasons), report.facts,
                        report)


# -- the pieces: values in, values out (run on any thread) ----------------------------------

@dataclass(frozen=True)
class ScanPlan:
    """What one scan judges: this attacker and choice against these enemies, on this
    scenario value (``first`` is judged first: the current target)."""

    ruleset_id: str
    snapshot: Snapshot  # the revision judged (its battle and geometry)
    attacker: str
    weapon: str | None
    offhand: str | None
    options: tuple[tuple[str, Any], ...]
    enemies: tuple[str, ...]
    first: str | None = None

    @property
    def scenario(self) -> Scenario:
        return self.snapshot.scenario

    @property
    def key(self) -> tuple[Any, ...]:
        """The choice, without the scenario: statuses of an earlier scenario value with
        the same key are shown (stale) until judged again."""
        return (self.ruleset_id, self.attacker, self.weapon, self.offhand,
                _freeze(dict(self.options)))

    @property
    def ruleset(self) -> Ruleset:
        """The engine (loaded on first use, by the job: never on the caller's thread)."""
        return registry.get(self.ruleset_id)

    def request(self, target: str) -> AttackRequest:
        return AttackRequest(self.attacker, target, self.weapon, self.offhand,
                             dict(self.options))

    def who(self) -> str:
        model = self.scenario.model(self.attacker)
        name = f"{model.name} ({self.attacker})" if model is not None else self.attacker
        return f"{name} with {self.weapon}" if self.weapon else name


@dataclass(frozen=True)
class PieceJob:
    """The next piece of a scan: the order (when not known yet), verdicts for
    ``verdicts_for``, else reports for ``reports_for``; for about ``budget_s``."""

    plan: ScanPlan
    order_known: bool
    verdicts_for: tuple[str, ...]
    reports_for: tuple[str, ...]
    chunk: int = FIRST_CHUNK
    budget_s: float = PIECE_S
    explain: bool = True  # the reasons of invalid verdicts (False: the verdicts alone, the
    # first pass of a scan; the reasons are most of a verdict's cost)


@dataclass(frozen=True)
class ScanPiece:
    """What one piece found (merged by ``TargetScan.merge``)."""

    plan: ScanPlan
    order: tuple[str, ...] | None  # nearest first, when this piece worked it out
    distance: Mapping[str, float]
    verdicts: Mapping[str, tuple[bool, tuple[str, ...]]]
    statuses: Mapping[str, TargetStatus]  # full reports
    failed: Notice | None  # the verdicts could not be given (every enemy left marked)
    chunk: int  # the verdict batch size to go on with
    geometry: BoardGeometry


def compute_piece(job: PieceJob) -> ScanPiece:
    """One piece of the scan of ``job.plan`` (on its snapshot's battle and geometry)."""
    start = time.perf_counter()
    plan = job.plan
    battle = plan.snapshot.battle
    geometry = plan.snapshot.geometry
    start += pause_point()  # between steps a drag's frame goes first (``model.jobs``)
    order: tuple[str, ...] | None = None
    distance: dict[str, float] = {}
    verdicts_for = job.verdicts_for
    if not job.order_known:
        order, distance = _nearest_first(geometry, plan)
        verdicts_for = order
        start += pause_point()
    verdicts: dict[str, tuple[bool, tuple[str, ...]]] = {}
    statuses: dict[str, TargetStatus] = {}
    failed: Notice | None = None
    chunk = max(1, job.chunk)
    done = 0
    one_by_one = _one_by_one(plan.ruleset)
    while done < len(verdicts_for) and time.perf_counter() - start < job.budget_s:
        if done:
            start += pause_point()
        if one_by_one:  # a verdict costs a report: the report itself, once
            target = verdicts_for[done]
            statuses[target] = status_of(plan.ruleset, battle, plan.request(target))
            done += 1
            continue
        part = list(verdicts_for[done:done + chunk])
        began = time.perf_counter()
        try:
            verdicts.update(plan.ruleset.target_validity(
                battle, plan.attacker, part, plan.weapon, plan.offhand, dict(plan.options),
                explain=job.explain))
        except Exception as e:  # noqa: BLE001 - every enemy left marked with it, and told
            reason = str(e) if isinstance(e, RulesError) else engine_failed(e)
            verdicts.update({t: (False, (reason,)) for t in verdicts_for[done:]})
            failed = (Notice(f"The targets of {plan.who()} cannot be judged: {e}")
                      if isinstance(e, RulesError) else
                      Notice(f"Judging the targets of {plan.who()} failed: "
                             f"{exception_text(e)}", traceback_text(e)))
            done = len(verdicts_for)
            break
        done += len(part)
        chunk = _next_chunk(chunk, len(part), time.perf_counter() - began, job.budget_s)
    if done >= len(verdicts_for):
        for target in job.reports_for:
            if time.perf_counter() - start >= job.budget_s and statuses:
                break
            start += pause_point()
            statuses[target] = status_of(plan.ruleset, battle, plan.request(target))
    return ScanPiece(plan, order, distance, verdicts, statuses, failed, chunk, geometry)


def _one_by_one(ruleset: Ruleset) -> bool:
    """The ruleset gives its verdicts by asking ``attack`` of each target (the default
    ``Ruleset.target_validity``): the scan then keeps those reports instead of asking
    for them twice."""
    return type(ruleset).target_validity is Ruleset.target_validity


def _next_chunk(chunk: int, size: int, spent: float, budget_s: float) -> int:
    """The next verdict batch after one of ``size`` targets (of ``chunk`` asked: fewer
    when the list ran out) took ``spent`` seconds: twice the chunk while a full one would
    take under a quarter of the budget (a ruleset answering in batches pays its overhead
    once per call), half as many when one took longer than the whole budget (one
    answered at a time). A short last batch counts at its rate: else the chunk learnt
    from a scan's tail stays below the number of enemies, and every drag step (whose
    scans are superseded before they can teach it more) asks in two calls or more."""
    if spent * chunk < size * budget_s / 4:
        return 2 * chunk
    if spent > budget_s:
        return max(1, size // 2)
    return chunk


def _nearest_first(geometry: BoardGeometry, plan: ScanPlan
                   ) -> tuple[tuple[str, ...], dict[str, float]]:
    wanted = set(plan.enemies)
    try:
        ranked = geometry.enemies_by_distance(plan.attacker)
    except KeyError:
        ranked = []
    order = [t for t, _ in ranked if t in wanted]
    seen = set(order)
    order += [t for t in plan.enemies if t not in seen]
    if plan.first is not None and plan.first in order:
        order.remove(plan.first)
        order.insert(0, plan.first)
    return tuple(order), dict(ranked)


# -- what is known, on the caller's thread ----------------------------------------------------

class TargetScan:
    """Target statuses for one attacker and attack choice on one scenario value."""

    def __init__(self) -> None:
        self.plan: ScanPlan | None = None
        self.geometry: BoardGeometry | None = None  # of the plan's scenario, once known
        self._order: tuple[str, ...] | None = None
        self._distance: dict[str, float] = {}
        self._verdicts_left: list[str] = []
        self._explain_left: list[str] = []  # invalid verdicts known without their reasons
        self._reports_left: list[str] = []
        self._done: dict[str, TargetStatus] = {}
        self._chunk = FIRST_CHUNK
        self._explain_chunk = FIRST_EXPLAIN_CHUNK
        self._failed: Notice | None = None
        self._sorted: list[TargetStatus] | None = None  # ``statuses()``, until a change
        self._failures: dict[str, TargetStatus] = {}  # statuses the engine failed on
        # what changed, for those who follow the scan: (version, targets) since ``_base``
        self.version = 0
        self._base = 0
        # (the change, the targets, True when they were only copied stale: ``start``)
        self._log: list[tuple[int, frozenset[str], bool]] = []
        self.computations = 0  # how many full reports were computed (tests read it)
        # the statuses as they were before the last start or piece, kept until the next:
        # whoever drew them lets go of them as they take the new ones, and the last
        # reference to a thousand full reports (a move's verdicts replacing them) would
        # free them there, on the way to the screen (~5 ms); they are freed with the
        # next piece instead (the full reports', after the marks are shown)
        self._replaced: list[TargetStatus] = []
        # the targets whose statuses in ``_done`` were judged on an earlier scenario and
        # stand for their stale copies, made when first asked for (``status_of``,
        # ``statuses``): a drag step does not copy a thousand statuses that nobody asks
        # for (the marks of those that did not move stay as drawn: ``changes_since``)
        self._unstaled: set[str] = set()
        self._judged: set[str] = set()  # those with a status judged since the last start
        self._sorted_of_before = False  # ``_sorted`` may hold some of those (a start)

    def wants(self, plan: ScanPlan) -> bool:
        """True when ``plan`` is another scan than the current one."""
        p = self.plan
        return p is None or p.scenario is not plan.scenario or p.key != plan.key \
            or p.enemies != plan.enemies

    def start(self, plan: ScanPlan) -> None:
        """Scan ``plan`` from the start; the statuses of the same choice stay, stale."""
        before = self.plan
        self._replaced = list(self._done.values())
        same_choice = before is not None and before.key == plan.key
        if not same_choice:
            self._chunk = FIRST_CHUNK  # else the batch size learnt goes on (a drag)
        known = self._sorted if same_choice else None
        if same_choice and before is not None and (before.enemies is plan.enemies
                                                   or before.enemies == plan.enemies):
            # the same enemies (a drag step): the statuses judged on the scenario before
            # are stale now (the others are stale already): named in ``_unstaled``, each
            # copied stale when asked for; the change is logged as such, so that who
            # follows the scan redraws only their targets (``changes_since``)
            judged = frozenset(self._judged)  # (none walked for them: a drag's steps)
            self._unstaled |= judged
            self._log_change(judged, restaled=True)
            if known is not None and len(known) != len(self._done):
                known = None
            # the copies sort as their originals do (the same distance and target): the
            # order known stays (a drag step among thousands does not sort them again)
            self._sorted_of_before = bool(self._unstaled)
        else:
            enemies = set(plan.enemies)
            self._done = {t: _stale(s) for t, s in self._done.items() if t in enemies} \
                if same_choice else {}
            self._unstaled = set()
            self.version += 1
            self._base, self._log = self.version, []
            if known is not None:  # the stale copies sort as their originals did
                known = [self._done[k.target] for k in known if k.target in self._done]
            self._sorted_of_before = False
        self.plan = plan
        self._judged = set()
        self._sorted = known
        self._failures = {}
        self._order = None
        self._distance = {}
        self._verdicts_left = list(plan.enemies)
        self._explain_left = []
        self._reports_left = []
        self._failed = None

    def changed_since(self, version: int) -> set[str] | None:
        """The targets whose statuses changed after ``version``; None when the scan
        started again since for another choice or other enemies (everything may have
        changed), or when ``version`` is older than the changes kept."""
        if version < self._base:
            return None
        return {t for v, targets, _ in self._log if v > version for t in targets}

    def changes_since(self, version: int) -> tuple[set[str], set[str]] | None:
        """``changed_since(version)``, and those of them that were only copied stale
        since (a drag step's ``start``: the same verdict, reasons and report, flagged
        stale), not judged or put: a view that drew their statuses as of ``version``
        shows them as they are but for the flag."""
        if version < self._base:
            return None
        changed: set[str] = set()
        restaled: set[str] = set()
        for v, targets, copied in self._log:
            if v > version:
                changed.update(targets)
                if copied:
                    restaled.update(targets)
        if restaled:
            restaled -= {t for v, targets, copied in self._log
                         if v > version and not copied for t in targets}
        return changed, restaled

    def _changed(self, targets: frozenset[str]) -> None:
        self._sorted = None
        self._log_change(targets)

    def _log_change(self, targets: frozenset[str], restaled: bool = False) -> None:
        self.version += 1
        self._log.append((self.version, targets, restaled))
        if len(self._log) > LOG_KEPT:  # the older half forgotten (``changed_since``)
            cut = len(self._log) // 2
            self._base, self._log = self._log[cut - 1][0], self._log[cut:]

    @property
    def verdicts_known(self) -> bool:
        return self.plan is not None and self._order is not None and not self._verdicts_left

    @property
    def explained(self) -> bool:
        """Every verdict known with its reasons (the full reports may still come)."""
        return self.verdicts_known and not self._explain_left

    @property
    def complete(self) -> bool:
        return self.explained and not self._reports_left

    def progress(self) -> tuple[int, int]:
        """(judged, to judge) for the current phase: verdicts, then full reports."""
        if self.plan is None:
            return (0, 0)
        total = len(self.plan.enemies)
        if not self.verdicts_known:
            return (total - len(self._verdicts_left), total)
        return (total - len(self._reports_left), total)

    def next_job(self, reports: bool = True) -> PieceJob | None:
        """The next piece to compute: the verdicts (without reasons), then the reasons of
        the invalid ones, then the full reports. None when nothing is left, or only the
        reasons and reports are left and ``reports`` is False."""
        plan = self.plan
        if plan is None or self.complete:
            return None
        if not self.verdicts_known:
            return PieceJob(plan, self._order is not None, tuple(self._verdicts_left), (),
                            self._chunk, explain=False)
        if not reports:
            return None
        if self._explain_left:
            return PieceJob(plan, True, tuple(self._explain_left), (), self._explain_chunk,
                            explain=True)
        return PieceJob(plan, True, (), tuple(self._reports_left), self._chunk)

    def merge(self, piece: ScanPiece) -> bool:
        """Take a piece in; False (ignored) when it belongs to another scan."""
        if piece.plan is not self.plan:
            return False
        self._replaced = list(self._done.values())
        self.geometry = piece.geometry
        if piece.order is not None:
            self._order = piece.order
            self._distance = dict(piece.distance)
            self._verdicts_left = list(piece.order)
        if piece.failed is not None:
            self._failed = piece.failed
        done, distance, unstaled = self._done, self._distance, self._unstaled
        new, template = object.__new__, _VERDICT
        for t, (valid, reasons) in piece.verdicts.items():
            known = done.get(t)
            if known is not None and not known.stale and t not in unstaled:
                continue  # its full report on this scenario came first (the target's)
            # ``_verdict(t, valid, reasons, distance.get(t))`` without the call (a move
            # merges a thousand)
            status = new(TargetStatus)
            fields = status.__dict__
            fields.update(template)
            fields["target"], fields["valid"], fields["reasons"] = t, valid, reasons
            fields["distance"] = distance.get(t)
            done[t] = status
        if unstaled:
            unstaled.difference_update(piece.verdicts)
            unstaled.difference_update(piece.statuses)
        for t, status in piece.statuses.items():
            self._done[t] = status
            self._judged.add(t)
            if status.failure is not None:
                self._failures[t] = status
            self.computations += 1
        judged = frozenset(piece.verdicts) | frozenset(piece.statuses)
        if self._verdicts_left:
            self._verdicts_left = [t for t in self._verdicts_left if t not in judged]
            if not self._verdicts_left:
                self._reports_left = [t for t in self._order or ()
                                      if t not in done or done[t].stale or t in unstaled]
                # the invalid verdicts known without their reasons (stale, as all here)
                self._explain_left = [t for t in self._reports_left
                                      if (s := done.get(t)) is not None and not s.valid
                                      and not s.reasons]
            self._chunk = piece.chunk
        elif piece.verdicts:  # reasons (their batches learn their own size)
            self._explain_left = [t for t in self._explain_left if t not in piece.verdicts]
            self._explain_chunk = piece.chunk
        if piece.statuses and not self._verdicts_left:
            self._reports_left = [t for t in self._reports_left if t not in piece.statuses]
            self._explain_left = [t for t in self._explain_left if t not in piece.statuses]
            self._chunk = piece.chunk
        self._changed(judged)
        return True

    def put(self, status: TargetStatus, scenario: Scenario) -> None:
        """The full status of one target on ``scenario``, computed elsewhere (the current
        target's report); kept when this scan is of that scenario."""
        if self.plan is None or self.plan.scenario is not scenario \
                or status.target not in self.plan.enemies:
            return
        self._done[status.target] = status
        self._unstaled.discard(status.target)
        if status.stale:
            self._judged.discard(status.target)
        else:
            self._judged.add(status.target)
        if status.failure is not None:
            self._failures[status.target] = status
        if status.target in self._reports_left:
            self._reports_left.remove(status.target)
        if status.target in self._explain_left:
            self._explain_left.remove(status.target)
        self._changed(frozenset((status.target,)))

    def problems(self) -> list[Notice]:
        """What went wrong in this scan so far, for the user: the verdicts the rules
        refused to give, and each target the engine failed on."""
        out = [] if self._failed is None else [self._failed]
        plan = self.plan
        if plan is None:
            return out
        for s in self._failures.values():
            if s.failure is not None:
                target = plan.scenario.model(s.target)
                name = f"{target.name} ({s.target})" if target is not None else s.target
                out.append(Notice(f"Checking {name} as a target of {plan.who()} failed: "
                                  f"{exception_text(s.failure)}", traceback_text(s.failure)))
        return out

    def status_of(self, target: str) -> TargetStatus | None:
        status = self._done.get(target)
        if status is not None and target in self._unstaled:  # its stale copy, made now
            status = self._done[target] = _stale(status)
            self._unstaled.discard(target)
        return status

    def lookup(self) -> Callable[[str], TargetStatus | None]:
        """``status_of`` as the bound lookup itself, for a caller asking of a thousand
        targets at once (valid until the scan starts again or takes a piece), when no
        stale copy is to be made."""
        return self.status_of if self._unstaled else self._done.get

    def statuses(self) -> list[TargetStatus]:
        """The statuses known so far, nearest first."""
        unstaled, done = self._unstaled, self._done
        if unstaled:
            done.update(_stale_copies([done[t] for t in unstaled]))
            unstaled.clear()
        if self._sorted_of_before:  # the order known, with the copies in it
            self._sorted_of_before = False
            if self._sorted is not None:
                self._sorted = [done[s.target] for s in self._sorted]
        if self._sorted is None:
            self._sorted = sorted(done.values(), key=_nearness)
        return list(self._sorted)


def _stale(s: TargetStatus) -> TargetStatus:
    """``s`` as a status of an earlier scenario value (shown until judged again). A copy
    of its fields with ``stale`` set: a drag step among two thousand enemies makes two
    thousand of them, which ``dataclasses.replace`` made six times slower."""
    if s.stale:
        return s
    copy = object.__new__(TargetStatus)
    copy.__dict__.update(s.__dict__)
    copy.__dict__["stale"] = True
    return copy


def _stale_copies(statuses: Iterable[TargetStatus]) -> dict[str, TargetStatus]:
    """``_stale`` of each of ``statuses`` that is not stale, by target, without a call
    each (a thousand at once)."""
    copies: dict[str, TargetStatus] = {}
    new = object.__new__
    for s in statuses:
        if s.stale:
            continue
        copy = new(TargetStatus)
        fields = copy.__dict__
        fields.update(s.__dict__)
        fields["stale"] = True
        copies[s.target] = copy
    return copies


_VERDICT = TargetStatus("", False, (), None, None, stale=True).__dict__


def _verdict(target: str, valid: bool, reasons: tuple[str, ...], distance: float | None
             ) -> TargetStatus:
    """``TargetStatus(target, valid, reasons, None, None, stale=True, distance=distance)``
    made as ``_stale`` makes its copies: a scan merges a thousand verdicts at a time."""
    status = object.__new__(TargetStatus)
    status.__dict__.update(_VERDICT, target=target, valid=valid, reasons=reasons,
                           distance=distance)
    return status


def _nearness(s: TargetStatus) -> tuple[float, str]:
    d = s.facts.distance if s.facts is not None else s.distance
    return (d if d is not None else float("inf"), s.target)


def plan_of(snapshot: Snapshot, attacker: str, weapon: str | None,
            offhand: str | None, options: Mapping[str, Any], enemies: Sequence[str],
            first: str | None) -> ScanPlan:
    return ScanPlan(snapshot.scenario.ruleset, snapshot, attacker, weapon, offhand,
                    tuple(sorted(options.items())), tuple(enemies), first)
