"""Many targets of one attacker checked at once (``Ruleset.target_validity``).

The same target rules as an engine's ``plan_for`` (enemy, not taken down, visible, range,
the 1" forced target, friendly fire), written with the same ``Targeting`` checks so the
sentences are the same, but without the rest of a plan (modifiers, tables, distribution)
and with the geometry read from the attacker's rows (``BoardGeometry.attacker_rows``: of
the battlefield's pair table, or on a big battlefield without one, the attacker's row
alone): sight and distances, and the fighters within 1" of every target (friendly fire)
from the list of the pairs within 1", instead of one distance scan per target. A drag
step updates the table incrementally (``BoardGeometry.moved``), so re-checking every
enemy of the dragged attacker stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.rules.base import Battle, Check, Combatant, RulesError
from tabletop_gui.rules.warcry_family.targeting import ENGAGE, EPS, Near, Targeting
from tabletop_gui.rules.warcry_family.weapons import Profile, find_weapon, profile_of

Verdict = tuple[bool, tuple[str, ...]]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
StateArray = npt.NDArray[np.int8]
MissileRule = Callable[[Profile, str], tuple[bool, bool]]


NEAR_EDGE = 1e-6  # a distance this close to a threshold is measured exactly


class _Board:
    """What the checks read of the battlefield, for one attacker, from its rows:
    sight and the attacker's distances as rows, and the attacker's friends within 1" of
    every target (friendly fire) at once."""

    def __init__(self, tg: Targeting, rule: CoverRule | None, attacker: Combatant) -> None:
        g = tg.g
        ba = g.bodies
        self.tg = tg
        self.attacker = attacker
        self.index = ba.index
        self.ai = ai = g.index(attacker.id)
        # the attacker's rows, and the pairs within 1": from the pair table, or without
        # one from the attacker's row alone (``BoardGeometry.attacker_rows``); no whole
        # matrix is read, so a drag step's derived table is never folded
        self.rows = g.attacker_rows(rule, ai)
        self.active = ba.active.tolist()
        self.side = ba.side
        self.visible_row = self.rows.visible
        self.visible = self.visible_row.tolist()
        row = self.rows.distance  # to every active enemy (NaN elsewhere)
        self.distance_row = row
        self.distance = row.tolist()
        friend = (ba.side == ba.side[ai]) & ba.active
        friend[ai] = False
        with np.errstate(invalid="ignore"):
            edge = bool(np.any(np.abs(row - (ENGAGE + EPS)) < NEAR_EDGE))
        f, t = self.rows.near  # within ENGAGE + 1e-9 (EPS), both ways
        mine = friend[t]
        self.near: dict[int, list[int]] = {}  # target -> the attacker's friends within 1"
        for k, j in zip(f[mine].tolist(), t[mine].tolist(), strict=True):
            self.near.setdefault(k, []).append(j)
        if ba.active[ai] and not edge:  # enemies within 1" of the attacker, from the row
            with np.errstate(invalid="ignore"):
                self.engaging = {ba.bodies[j].id for j in np.flatnonzero(row <= ENGAGE + EPS)}
        else:
            self.engaging = {n.id for n in tg.engaging(attacker.id)}

    @cached_property
    def engaged_mask(self) -> BoolArray | None:
        """Per body index, engaged by the attacker (None: it engages none); made once
        for every weapon of a batch (``_fast_states``)."""
        if not self.engaging:
            return None
        engaged = np.zeros(len(self.side), dtype=bool)
        engaged[[self.index[t] for t in self.engaging if t in self.index]] = True
        return engaged

    @cached_property
    def friends_near_mask(self) -> BoolArray:
        """Per body index, a target with a friend of the attacker within 1" (``near``)."""
        friends = np.zeros(len(self.side), dtype=bool)
        friends[list(self.near)] = True
        return friends

    def opposing_mask(self, ks: IntArray) -> BoolArray:
        """``opposing`` of each body index in ``ks``."""
        ai = self.ai
        if not self.active[ai]:
            return np.zeros(len(ks), dtype=bool)
        ba = self.tg.g.bodies
        return np.asarray(ba.active[ks] & (self.side[ks] != self.side[ai]), dtype=bool)

    def opposing(self, k: int) -> bool:
        """An active enemy of an active attacker: a pair the table holds."""
        return bool(self.active[k] and self.active[self.ai]
                    and self.side[k] != self.side[self.ai])

    def friends_near(self, k: int) -> list[Near]:
        if k not in self.near:
            return []
        ba = self.tg.g.bodies
        out = [Near(ba.bodies[j].id, self.rows.near_distance(k, j))
               for j in sorted(self.near[k])]
        out.sort(key=lambda n: (n.distance, n.id))
        return out


def _exact_checks(tg: Targeting, attacker: Combatant, target: Combatant, prof: Profile,
                  missile: bool, exception: bool) -> list[Check]:
    """The target checks of ``plan_for``, one by one (pairs the table does not hold)."""
    checks = tg.enemy_checks(attacker, target)
    checks.append(tg.visible_check(attacker.id, target.id))
    distance = tg.measure(attacker.id, target.id).distance
    checks += tg.range_checks(distance, prof.range)
    checks.append(tg.engaged_check(attacker.id, target.id)[0])
    if missile:
        checks.append(tg.friendly_fire_check(attacker, target.id, distance,
                                             exception=exception, rng=prof.range))
    return checks


def _near_edge(d: float, limits: Sequence[float | None]) -> bool:
    for x in limits:
        if x is not None and -NEAR_EDGE < d - x < NEAR_EDGE:
            return True
    return False


def _fast_reasons(b: _Board, k: int, t: str, prof: Profile, missile: bool,
                  exception: bool, head: list[str]) -> list[str]:
    """Failing check texts of an opposing pair: decided from the table's rows, each
    failing check then written by the same ``Targeting`` method as ``plan_for``."""
    tg, a = b.tg, b.attacker
    rng = prof.range
    d = b.distance[k]
    if _near_edge(d, (rng.maximum, rng.minimum, 3.0)):
        d = tg.measure(a.id, t).distance
    fails = list(head)
    in_range = d <= rng.maximum + EPS and (rng.minimum is None or d > rng.minimum + EPS)
    if not in_range:
        d = tg.measure(a.id, t).distance
        fails += [c.text for c in tg.range_checks(d, rng) if not c.ok]
    if b.engaging and t not in b.engaging:
        fails.append(tg.engaged_check(a.id, t)[0].text)
    if missile:
        near = b.friends_near(k)
        if near:
            d = tg.measure(a.id, t).distance
            ff = tg.friendly_fire_check(a, t, d, exception=exception, rng=rng, near=near)
            if not ff.ok:
                fails.append(ff.text)
    return fails


def _fast_ok(b: _Board, k: int, t: str, prof: Profile, missile: bool,
             exception: bool) -> bool:
    """Whether an opposing pair passes every check (no sentences written)."""
    tg, a = b.tg, b.attacker
    if not b.visible[k] or (b.engaging and t not in b.engaging):
        return False
    rng = prof.range
    d = b.distance[k]
    if _near_edge(d, (rng.maximum, rng.minimum, 3.0)):
        d = tg.measure(a.id, t).distance
    if d > rng.maximum + EPS or (rng.minimum is not None and d <= rng.minimum + EPS):
        return False
    if missile:
        near = b.friends_near(k)
        if near:
            d = tg.measure(a.id, t).distance
            return tg.friendly_fire_check(a, t, d, exception=exception, rng=rng,
                                          near=near).ok
    return True


def _fast_states(b: _Board, ks: IntArray, prof: Profile, missile: bool) -> StateArray:
    """``_fast_ok`` of the opposing pairs (the attacker, each body index of ``ks``) with
    one weapon, decided at once from the attacker's rows where the rows decide it: 1 every
    check passes, 0 one fails, -1 undecided here (a distance within ``NEAR_EDGE`` of a
    limit or not a number, a friend of the attacker within 1" of the target with a
    missile weapon): ``_fast_ok`` answers those one by one. The same comparisons as
    ``_fast_ok`` on the same numbers."""
    visible = b.visible_row[ks].astype(bool)
    if b.engaged_mask is not None:
        visible &= b.engaged_mask[ks]
    d = b.distance_row[ks]
    rng = prof.range
    unsure = np.isnan(d)
    with np.errstate(invalid="ignore"):
        for x in (rng.maximum, rng.minimum, 3.0):
            if x is not None:
                gap = d - x
                unsure |= (-NEAR_EDGE < gap) & (gap < NEAR_EDGE)
        ok = d <= rng.maximum + EPS
        if rng.minimum is not None:
            ok &= ~(d <= rng.minimum + EPS)
    ok &= visible
    if missile and b.near:
        unsure |= ok & b.friends_near_mask[ks]
    states = ok.astype(np.int8)
    states[unsure & visible] = -1
    return states


def _fast_verdicts(b: _Board, targets: Sequence[str], ks: Sequence[int],
                   profiles: Sequence[tuple[Profile, bool, bool] | RulesError]
                   ) -> dict[str, bool]:
    """Whether a weapon of ``profiles`` passes every check against each target of an
    opposing pair (``targets`` at body indexes ``ks``), as ``_fast_ok`` says weapon by
    weapon: decided for all of them at once from the rows (``_fast_states``), the few the
    rows leave undecided by ``_fast_ok`` itself. A pair that is not opposing is left out."""
    if not ks:
        return {}
    idx = np.asarray(ks, dtype=np.intp)
    keep = b.opposing_mask(idx)
    chosen = [t for t, kept in zip(targets, keep.tolist(), strict=True) if kept]
    if not chosen:
        return {}
    idx = idx[keep]
    planned = [p for p in profiles if not isinstance(p, RulesError)]
    if not planned:
        return dict.fromkeys(chosen, False)
    states = np.stack([_fast_states(b, idx, prof, missile) for prof, missile, _ in planned])
    valid = (states == 1).any(axis=0)
    out = dict(zip(chosen, valid.tolist(), strict=True))
    undecided = np.flatnonzero(~valid & (states == -1).any(axis=0))
    for n in undecided.tolist():
        t, k = chosen[n], int(idx[n])
        out[t] = any(_fast_ok(b, k, t, prof, missile, exception)
                     for (prof, missile, exception), s in zip(planned, states[:, n].tolist(),
                                                              strict=True) if s == -1)
    return out


def batch_validity(battle: Battle, attacker_id: str, targets: Sequence[str],
                   weapons: Sequence[str], missile_rule: MissileRule,
                   rule: CoverRule | None, explain: bool = True,
                   ) -> tuple[dict[str, Verdict], list[str]]:
    """Verdicts of ``targets`` (weapons tried in order, as ``plan`` does: the first valid
    one, else the reasons of the first that could be planned), and the targets left for
    ``attack`` to answer (unknown ids). Without ``explain``, invalid opposing pairs get no
    reasons (the sentences are most of the work)."""
    attacker = battle.combatant(attacker_id)
    tg = Targeting.of(battle)
    profiles: list[tuple[Profile, bool, bool] | RulesError] = []
    for name in weapons:
        try:
            prof = profile_of(find_weapon(attacker, name), attacker.id)
            missile, exception = missile_rule(prof, attacker.id)
            profiles.append((prof, missile, exception))
        except RulesError as e:  # kept without its traceback, which holds this frame
            profiles.append(e.with_traceback(None))
    b = _Board(tg, rule, attacker)
    combatants, index = battle.combatants, b.index
    found = [(t, k) for t in targets
             if (k := index.get(t)) is not None and t in combatants]
    # the opposing pairs, every weapon tried at once (what ``_fast_ok`` says of each)
    passes = _fast_verdicts(b, [t for t, _ in found], [k for _, k in found], profiles)
    out: dict[str, Verdict] = {}
    left: list[str] = []
    for t in targets:
        fast = passes.get(t)  # None: not an opposing pair (or not on the battlefield)
        if fast:
            out[t] = (True, ())
            continue
        if fast is not None and not explain:
            out[t] = (False, ())
            continue
        target = combatants.get(t)
        k = index.get(t)
        if target is None or k is None:
            left.append(t)
            continue
        first: tuple[str, ...] | None = None
        error: RulesError | None = None
        verdict: Verdict | None = None
        for p in profiles:
            if isinstance(p, RulesError):
                error = error or p
                continue
            prof, missile, exception = p
            if fast is None:
                reasons = tuple(c.text for c in _exact_checks(tg, attacker, target, prof,
                                                              missile, exception)
                                if not c.ok)
                if not reasons:
                    verdict = (True, ())
                    break
                first = first or reasons
        if verdict is None and fast is not None:  # the sentences of the first weapon planned
            planned = next((p for p in profiles if not isinstance(p, RulesError)), None)
            if planned is not None:
                head = [] if b.visible[k] else [tg.visible_check(attacker.id, t).text]
                first = tuple(_fast_reasons(b, k, t, *planned, head))
        if verdict is None:
            if first is not None:
                verdict = (False, first)
            else:
                assert error is not None
                verdict = (False, (str(error),))
        out[t] = verdict
    return out, left


def options_refused(check: Callable[[], Any]) -> bool:
    """True when ``check`` raises ``RulesError`` (then ``attack`` answers, one by one)."""
    try:
        check()
    except RulesError:
        return True
    return False

