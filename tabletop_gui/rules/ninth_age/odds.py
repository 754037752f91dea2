"""Exact distributions of one attack, and of any step it may be waiting at.

Every state an attack (or one of its hits) can be in between two dice has a
``remainder`` distribution: what it will still add, given everything rolled so far.
The whole attack is the remainder of an attack waiting for its hit roll; ``n`` attacks
are its ``repeat(n)`` (all attacks are independent), capped at the Health Points the
target has left. ``sequence.py`` uses the same remainders to condition on given dice.

Three measures: ``"hp"`` (Health Points lost, the main answer), ``"hits"`` (hits scored,
after Area Attack and Battle Focus) and ``"wounds"`` (successful to-wound results,
automatic Poison wounds included, before saves).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.fields import DiceSpec
from tabletop_gui.rules.ninth_age.profile import CANNOT_HIT, HOPELESS, AttackProfile
from tabletop_gui.rules.ninth_age.tables import NO_SAVE, success

Measure = Literal["hp", "hits", "wounds"]
ZERO = Dist.point(0)
ONE = Dist.point(1)


def bernoulli(p: float, then: Dist, otherwise: Dist = ZERO) -> Dist:
    return Dist.mixture([(p, then), (1.0 - p, otherwise)])


def dice_dist(spec: DiceSpec) -> Dist:
    return Dist.from_mapping(spec.outcomes())


def hit_roll_split(needed: int) -> tuple[float, float]:
    """(P(natural 6 and a hit), P(a hit with another face)) for one d6 needing ``needed``."""
    if needed >= 7:
        return 0.0, 0.0
    return 1 / 6, (6 - needed) / 6


class Odds:
    """Remainder distributions of one attack profile, for one measure (cached)."""

    def __init__(self, profile: AttackProfile, measure: Measure = "hp") -> None:
        self.p = profile
        self.measure = measure
        self._cache: dict[tuple[object, ...], Dist] = {}

    def _memo(self, key: tuple[object, ...], make: Callable[[], Dist]) -> Dist:
        d = self._cache.get(key)
        if d is None:
            d = make()
            self._cache[key] = d
        return d

    # -- after a successful attack ----------------------------------------------------------
    def expansion(self, six: bool) -> Dist:
        """What a successful attack adds: its hits, each with all later steps."""
        def make() -> Dist:
            kinds = self.p.hit_kinds(six)
            if self.measure == "hits":
                return Dist.point(len(kinds))
            if not kinds:
                return ZERO
            # the first hit may be the bracketed one or wound automatically (Poison);
            # every later hit is a plain one: one sum of equal parts, by repeated squaring
            kind, auto = kinds[0]
            first = self.armour(kind, False) if auto else self.wound(kind)
            assert all(k == ("normal", False) for k in kinds[1:])
            return first + self.wound("normal").repeat(len(kinds) - 1)
        return self._memo(("expansion", six), make)

    # -- to hit ------------------------------------------------------------------------------
    def attack(self) -> Dist:
        """An attack waiting for its hit roll."""
        def make() -> Dist:
            need = self.p.hit_needed
            if need >= CANNOT_HIT:
                return ZERO
            if need == HOPELESS:
                return bernoulli(1 / 6, self.hopeless())
            p6, p_other = hit_roll_split(need)
            fail = self.hit_reroll() if self.p.reroll_failed_hits else ZERO
            return Dist.mixture([
                (p6, self.expansion(True)),
                (p_other, self.expansion(False)),
                (1 - p6 - p_other, fail),
            ])
        return self._memo(("attack",), make)

    def hit_reroll(self) -> Dist:
        """A failed hit roll waiting for its re-roll."""
        def make() -> Dist:
            p6, p_other = hit_roll_split(self.p.hit_needed)
            return Dist.mixture([(p6, self.expansion(True)), (p_other, self.expansion(False)),
                                 (1 - p6 - p_other, ZERO)])
        return self._memo(("hit_reroll",), make)

    def hopeless(self) -> Dist:
        """Hopeless Shots: the first roll was a 6; the second needs 4+."""
        return self._memo(("hopeless",), lambda: bernoulli(0.5, self.expansion(True)))

    # -- to wound and saves ---------------------------------------------------------------
    def wound(self, kind: str) -> Dist:
        """A hit waiting for its to-wound roll."""
        def make() -> Dist:
            h = self.p.hit(kind)
            fail = self.wound_reroll(kind) if h.reroll_failed_wounds else ZERO
            p6 = 1 / 6
            p_other = (6 - h.wound_needed) / 6
            return Dist.mixture([
                (p6, self.armour(kind, h.lethal_strike)),
                (p_other, self.armour(kind, False)),
                (1 - p6 - p_other, fail),
            ])
        return self._memo(("wound", kind), make)

    def wound_reroll(self, kind: str) -> Dist:
        def make() -> Dist:
            h = self.p.hit(kind)
            p_other = (6 - h.wound_needed) / 6
            return Dist.mixture([(1 / 6, self.armour(kind, h.lethal_strike)),
                                 (p_other, self.armour(kind, False)),
                                 (1 - 1 / 6 - p_other, ZERO)])
        return self._memo(("wound_reroll", kind), make)

    def armour(self, kind: str, lethal: bool) -> Dist:
        """A wound waiting for its armour save."""
        def make() -> Dist:
            if self.measure == "wounds":
                return ONE
            need = self.p.hit(kind).armour(lethal)
            return bernoulli(success(need), ZERO, self.special(kind, lethal))
        return self._memo(("armour", kind, lethal), make)

    def special(self, kind: str, lethal: bool) -> Dist:
        """A failed armour save waiting for its special save."""
        def make() -> Dist:
            if self.measure == "wounds":
                return ONE
            h = self.p.hit(kind)
            which, need = h.special_save(lethal)
            if need >= NO_SAVE:
                return self.unsaved(kind)
            if which == "aegis" and h.divine:
                return bernoulli(success(need), self.special_reroll(kind), self.unsaved(kind))
            return bernoulli(success(need), ZERO, self.unsaved(kind))
        return self._memo(("special", kind, lethal), make)

    def special_reroll(self, kind: str) -> Dist:
        """A successful Aegis save against Divine Attacks, waiting for its re-roll."""
        def make() -> Dist:
            if self.measure == "wounds":
                return ONE
            need = self.p.hit(kind).aegis_needed
            return bernoulli(success(need), ZERO, self.unsaved(kind))
        return self._memo(("special_reroll", kind), make)

    def unsaved(self, kind: str) -> Dist:
        """An unsaved wound waiting for its Multiple Wounds dice (if any)."""
        def make() -> Dist:
            if self.measure == "wounds":
                return ONE
            h = self.p.hit(kind)
            return dice_dist(h.wounds).clip(lo=0, hi=h.hp_cap)
        return self._memo(("unsaved", kind), make)

    # -- many attacks ----------------------------------------------------------------------
    def attacks(self, n: int, cap: int | None = None) -> Dist:
        """``n`` attacks (capped at ``cap`` when given)."""
        return repeat_capped(self.attack(), n, cap)

    def attacks_from_shots(self, per_model: DiceSpec, models: int, cap: int | None = None
                           ) -> Dist:
        """Attacks whose number is ``models`` rolls of ``per_model`` shots: each model's
        shots and their attacks are independent of the others', so this is the attacks
        of one model's roll, summed over the models (by repeated squaring)."""
        one_model = self.attacks_mixture(dice_dist(per_model), cap)
        return repeat_capped(one_model, models, cap)

    def attacks_mixture(self, counts: Dist, cap: int | None = None) -> Dist:
        """Attacks whose number is itself random (``counts``; a count below 0 is none)."""
        counts = counts.clip(lo=0)
        parts: list[tuple[float, Dist]] = []
        power = ZERO
        one = self.attack() if cap is None else self.attack().clip(lo=0, hi=cap)
        top = counts.max_value
        for k in range(0, top + 1):
            if k > 0:
                power = power + one
                if cap is not None:
                    power = power.clip(lo=0, hi=cap)
            q = counts.prob(k)
            if q > 0:
                parts.append((q, power))
        return Dist.mixture(parts)


def repeat_capped(d: Dist, n: int, cap: int | None) -> Dist:
    """The sum of ``n`` copies of a non-negative ``d``, capped at ``cap`` (None: uncapped).

    Capping the partial sums is exact (min(a + b, c) = min(min(a, c) + min(b, c), c) for
    non-negative values) and keeps every vector at most ``cap + 1`` long.
    """
    if cap is None:
        return d.repeat(n)
    result = Dist.point(0)
    base = d.clip(lo=0, hi=cap)
    while n > 0:
        if n & 1:
            result = (result + base).clip(lo=0, hi=cap)
        n >>= 1
        if n:
            base = (base + base).clip(lo=0, hi=cap)
    return result


def capped(d: Dist, remaining: int) -> Dist:
    """Health Points lost, capped at what the target has left."""
    return d.clip(lo=0, hi=max(0, remaining))
