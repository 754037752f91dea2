"""Which enemies the selected attacker may attack, and why not: one report per enemy.

The scan asks the ruleset (``Ruleset.attack``) about every enemy of the attacker, so the
canvas can mark each valid or invalid with the rules' own reasons. Results are cached per
scenario value (a new value per document revision) and attack choice, so repainting,
hovering and Tab cycling cost nothing.

Every enemy's verdict (valid, and the reasons when not) comes at once from
``Ruleset.target_validity``, which rulesets answer in one batch from the pair table: a
drag step re-marks every enemy live. The full reports (facts, every check, modifiers)
then follow in slices (``step(budget)``), nearest enemies first, as the geometry library
orders them, so a drag among hundreds of models never blocks a frame; until its report
comes, a status holds the verdict only, flagged ``stale``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from typing import Any

from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.model.notices import Notice, exception_text, traceback_text
from tabletop_gui.rules.base import AttackReport, AttackRequest, PairFacts, RulesError, Ruleset
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import Scenario


@dataclass(frozen=True)
class TargetStatus:
    """One enemy as a target: valid or not, the reasons, the pair's geometry."""

    target: str
    valid: bool
    given_reasons: tuple[str, ...]
    facts: PairFacts | None
    report: AttackReport | None
    stale: bool = False  # the verdict only (``Ruleset.target_validity``), report pending
    distance: float | None = None  # the 3D distance when ``facts`` are not known yet
    # writes the reasons of an invalid verdict when first asked (hover, list, tests): a
    # drag step re-judges every enemy but only the one under the pointer is explained
    explain: Callable[[], tuple[str, ...]] | None = field(default=None, compare=False,
                                                          repr=False)
    failure: Exception | None = field(default=None, compare=False, repr=False)  # engine

    @cached_property
    def reasons(self) -> tuple[str, ...]:
        if self.explain is not None and not self.valid and not self.given_reasons:
            return self.explain()
        return self.given_reasons

    @cached_property
    def tooltip(self) -> str:
        if self.valid:
            head = "✔ valid target"
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


def status_of(ruleset: Ruleset, scenario: Scenario, request: AttackRequest) -> TargetStatus:
    """The target's status; the rules' refusal, or the engine's failure, is its reason."""
    try:
        report = ruleset.attack(battle_of(scenario), request)
    except RulesError as e:
        return TargetStatus(request.target, False, (str(e),), None, None)
    except Exception as e:  # noqa: BLE001 - marked on the target and told (``problems``)
        return TargetStatus(request.target, False, (engine_failed(e),), None, None,
                            failure=e)
    return TargetStatus(request.target, report.valid, tuple(report.reasons), report.facts,
                        report)


class TargetScan:
    """Target statuses for one attacker and attack choice on one scenario value."""

    def __init__(self) -> None:
        self._scenario: Scenario | None = None
        self._key: tuple[Any, ...] | None = None
        self._ruleset: Ruleset | None = None
        self._request: AttackRequest | None = None
        self._todo: list[str] = []
        self._done: dict[str, TargetStatus] = {}
        self._verdicts_failed: Notice | None = None
        self.computations = 0  # how many reports were computed (tests read it)

    def invalidate(self) -> None:
        self._scenario = None
        self._key = None

    @property
    def complete(self) -> bool:
        return not self._todo

    def prepare(self, ruleset: Ruleset, scenario: Scenario, attacker: str,
                weapon: str | None, offhand: str | None, options: Mapping[str, Any],
                enemies: Sequence[str], first: str | None = None) -> None:
        """Start (or keep) the scan of this scenario and choice; ``first`` goes first."""
        key = (ruleset.id, attacker, weapon, offhand, _freeze(options), tuple(enemies))
        if scenario is self._scenario and key == self._key:
            return
        self._scenario, self._key, self._ruleset = scenario, key, ruleset
        self._request = AttackRequest(attacker, attacker, weapon, offhand, dict(options))
        order, distance = self._nearest_first(scenario, attacker, enemies)
        if first in order:
            order.remove(first)
            order.insert(0, first)
        self._todo = order
        battle = battle_of(scenario)
        self._verdicts_failed = None
        try:
            verdicts = ruleset.target_validity(battle, attacker, order, weapon, offhand,
                                               options, explain=False)
        except Exception as e:  # noqa: BLE001 - every enemy marked with it, and told
            reason = str(e) if isinstance(e, RulesError) else engine_failed(e)
            verdicts = {t: (False, (reason,)) for t in order}
            who = self._who(scenario, attacker, weapon)
            self._verdicts_failed = (
                Notice(f"The targets of {who} cannot be judged: {e}")
                if isinstance(e, RulesError) else
                Notice(f"Judging the targets of {who} failed: {exception_text(e)}",
                       traceback_text(e)))

        def explain(target: str) -> tuple[str, ...]:
            try:
                return ruleset.target_validity(battle, attacker, [target], weapon, offhand,
                                               options)[target][1]
            except RulesError as e:
                return (str(e),)
            except Exception as e:  # noqa: BLE001 - a tooltip: the failure is the reason
                return (engine_failed(e),)

        self._done = {t: TargetStatus(t, v[0], v[1], None, None, stale=True,
                                      distance=distance.get(t),
                                      explain=partial(explain, t))
                      for t, v in verdicts.items()}

    @staticmethod
    def _nearest_first(scenario: Scenario, attacker: str, enemies: Sequence[str]
                       ) -> tuple[list[str], dict[str, float]]:
        wanted = set(enemies)
        try:
            ranked = BoardGeometry.of(battle_of(scenario).board).enemies_by_distance(attacker)
        except KeyError:
            ranked = []
        order = [t for t, _ in ranked if t in wanted]
        seen = set(order)
        return order + [t for t in enemies if t not in seen], dict(ranked)

    def step(self, budget_s: float) -> bool:
        """Compute statuses until ``budget_s`` seconds are spent; True when complete."""
        start = time.perf_counter()
        while self._todo:
            self._compute(self._todo.pop(0))
            if time.perf_counter() - start >= budget_s:
                break
        return self.complete

    def finish(self) -> None:
        while self._todo:
            self._compute(self._todo.pop(0))

    def _compute(self, target: str) -> None:
        assert self._ruleset is not None and self._scenario is not None
        assert self._request is not None
        request = replace(self._request, target=target,
                          situational=dict(self._request.situational))
        self._done[target] = status_of(self._ruleset, self._scenario, request)
        self.computations += 1

    def put(self, status: TargetStatus) -> None:
        """A status computed elsewhere for the current scenario (the current target)."""
        if status.target in self._todo:
            self._todo.remove(status.target)
        self._done[status.target] = status

    def problems(self) -> list[Notice]:
        """What went wrong in this scan so far, for the user: the verdicts the rules
        refused to give, and each target the engine failed on."""
        out = [] if self._verdicts_failed is None else [self._verdicts_failed]
        if self._scenario is None or self._key is None:
            return out
        scenario, attacker, weapon = self._scenario, self._key[1], self._key[2]
        for s in self._done.values():
            if s.failure is not None:
                target = scenario.model(s.target)
                name = f"{target.name} ({s.target})" if target is not None else s.target
                out.append(Notice(f"Checking {name} as a target of "
                                  f"{self._who(scenario, attacker, weapon)} failed: "
                                  f"{exception_text(s.failure)}", traceback_text(s.failure)))
        return out

    @staticmethod
    def _who(scenario: Scenario, attacker: str, weapon: str | None) -> str:
        model = scenario.model(attacker)
        name = f"{model.name} ({attacker})" if model is not None else attacker
        return f"{name} with {weapon}" if weapon else name

    def statuses(self) -> list[TargetStatus]:
        """The statuses known so far, nearest first."""
        out = list(self._done.values())
        out.sort(key=_nearness)
        return out


def _nearness(s: TargetStatus) -> tuple[float, str]:
    d = s.facts.distance if s.facts is not None else s.distance
    return (d if d is not None else float("inf"), s.target)
