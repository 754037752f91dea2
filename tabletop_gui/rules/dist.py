"""Exact discrete probability distributions over whole numbers.

A ``Dist`` is a numpy vector of probabilities indexed by value (from ``offset``). Sums of
independent variables are convolutions; caps fold the tail into the cap. Everything here
is exact up to floating point: no sampling.

On top of it, the damage engine of dice attacks (``FaceTable``, ``DicePool``,
``pool_damage``): what each face of a die deals, pools of such dice whose total is
reduced (armour) before it is added, a cap (the wounds left), and conditioning on the
first dice already rolled (the odds shown while a player enters physical dice).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


#: Above this product of lengths (both longer than FFT_MIN) a convolution goes through the
#: FFT: O(n log n) instead of O(n * m), so that thousands of dice stay immediate.
FFT_WORK = 1 << 20
FFT_MIN = 64
#: FFT products carry rounding noise of about 1e-16 of their largest value; probabilities
#: below this fraction of the largest are that noise and are set to 0.
FFT_FLOOR = 1e-13


def convolve(a: FloatArray, b: FloatArray) -> FloatArray:
    """The distribution of a sum of two independent variables (probability vectors).

    Direct for small vectors (exact to rounding for every entry); through the FFT for
    large ones, which is exact to about 1e-13 of the largest probability: smaller
    values there (far tails, below any shown precision) become 0.
    """
    if min(a.size, b.size) <= FFT_MIN or a.size * b.size <= FFT_WORK:
        return np.convolve(a, b)
    n = a.size + b.size - 1
    size = 1 << (n - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(a, size) * np.fft.rfft(b, size), size)[:n]
    out[out < FFT_FLOOR * float(out.max())] = 0.0
    return out


class Dist:
    """Probabilities of the integer values offset, offset+1, ..."""

    __slots__ = ("offset", "probs")

    def __init__(self, probs: Iterable[float] | FloatArray, offset: int = 0) -> None:
        p = np.asarray(probs, dtype=np.float64)
        if p.ndim != 1 or p.size == 0:
            raise ValueError("a distribution needs at least one value")
        self.probs: FloatArray = p
        self.offset = int(offset)

    # -- construction --------------------------------------------------------------
    @classmethod
    def point(cls, value: int) -> Dist:
        return cls(np.ones(1), value)

    @classmethod
    def from_mapping(cls, outcomes: Mapping[int, float]) -> Dist:
        lo, hi = min(outcomes), max(outcomes)
        p = np.zeros(hi - lo + 1)
        for v, q in outcomes.items():
            p[v - lo] += q
        return cls(p, lo)

    @classmethod
    def die(cls, sides: int) -> Dist:
        """A fair die showing 1..sides."""
        return cls(np.full(sides, 1.0 / sides), 1)

    # -- arithmetic ----------------------------------------------------------------
    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            return Dist(self.probs, self.offset + other)
        return Dist(convolve(self.probs, other.probs), self.offset + other.offset)

    __radd__ = __add__

    def repeat(self, n: int) -> Dist:
        """The sum of n independent copies (n >= 0), by repeated squaring."""
        result = Dist.point(0)
        base = self
        while n > 0:
            if n & 1:
                result = result + base
            n >>= 1
            if n:
                base = base + base
        return result

    def map(self, fn: Callable[[int], int]) -> Dist:
        out: dict[int, float] = {}
        for v, q in self.items():
            k = fn(v)
            out[k] = out.get(k, 0.0) + q
        return Dist.from_mapping(out)

    def clip(self, lo: int | None = None, hi: int | None = None) -> Dist:
        """Values below lo count as lo, above hi as hi."""
        if lo is None and hi is not None:
            return self.cap(hi)
        if hi is None and lo is not None and lo <= self.offset:
            return self
        if lo is not None and hi is not None and lo <= self.offset:
            return self._fold_above(hi)
        values = np.arange(self.offset, self.offset + self.probs.size)
        lo_v = int(values[0]) if lo is None else lo
        hi_v = max(int(values[-1]), lo_v) if hi is None else hi
        if lo_v > hi_v:
            lo_v = hi_v
        clipped = np.clip(values, lo_v, hi_v)
        start = int(clipped.min())
        out = np.zeros(int(clipped.max()) - start + 1)
        np.add.at(out, clipped - start, self.probs)
        return Dist(out, start)

    def _fold_above(self, hi: int) -> Dist:
        """``clip`` when nothing lies below its ``lo``: the values above ``hi`` fold into
        ``hi`` (all of them when ``hi`` is below the lowest value), summed one after the
        other in value order, the order of the general path's ``np.add.at``, so the
        probabilities are the same to the last bit."""
        n = hi - self.offset + 1
        if n >= self.probs.size:
            return self
        if n <= 0:
            return Dist(np.add.accumulate(self.probs)[-1:], hi)
        out = self.probs[:n].copy()
        out[-1] = np.add.accumulate(self.probs[n - 1:])[-1]
        return Dist(out, self.offset)

    def cap(self, hi: int) -> Dist:
        """Values above hi count as hi (the tail folds into hi): a fast ``clip(hi=hi)``."""
        n = hi - self.offset + 1
        if n >= self.probs.size:
            return self
        if n <= 1:
            return Dist.point(hi)  # certain: exactly 1.0, whatever the float sum order
        out = self.probs[:n].copy()
        out[-1] = math.fsum(self.probs[n - 1:])  # correctly rounded, on every CPU
        return Dist(out, self.offset)

    @staticmethod
    def mixture(parts: Iterable[tuple[float, Dist]]) -> Dist:
        items = [(w, d) for w, d in parts if w > 0]
        if not items:
            return Dist.point(0)
        lo = min(d.offset for _, d in items)
        hi = max(d.offset + d.probs.size for _, d in items)
        out = np.zeros(hi - lo)
        for w, d in items:
            out[d.offset - lo: d.offset - lo + d.probs.size] += w * d.probs
        return Dist(out, lo)

    # -- reading -------------------------------------------------------------------
    def items(self) -> list[tuple[int, float]]:
        return [(self.offset + i, float(q)) for i, q in enumerate(self.probs) if q > 0]

    def pairs(self, digits: int = 12) -> list[list[float]]:
        """``[[value, probability], ...]`` ascending, zero-probability values left out.

        Probabilities are rounded to ``digits`` decimals; one too small for that keeps
        ``digits`` significant digits instead, so no listed value shows probability 0."""
        return [[v, round(q, digits) or float(f"{q:.{digits}g}")]
                for v, q in self.items() if q > 1e-15]

    @property
    def mean(self) -> float:
        return float(np.dot(np.arange(self.offset, self.offset + self.probs.size), self.probs))

    @property
    def total(self) -> float:
        return float(self.probs.sum())

    def prob_at_least(self, value: int) -> float:
        i = value - self.offset
        if i <= 0:
            return float(self.probs.sum())
        return float(self.probs[i:].sum())

    def prob(self, value: int) -> float:
        i = value - self.offset
        return float(self.probs[i]) if 0 <= i < self.probs.size else 0.0

    @property
    def max_value(self) -> int:
        nz = np.nonzero(self.probs > 0)[0]
        return self.offset + int(nz[-1]) if nz.size else self.offset

    def __repr__(self) -> str:
        return f"Dist({self.items()})"


# -- dice attacks: per-face outcome tables, pools, armour, caps, conditioning ------------


class FaceTable:
    """What each face of one die means: an outcome name and the damage it deals.

    ``outcomes[i]`` and ``damage[i]`` belong to face ``i + 1``. Immutable and hashable by
    value, so that equal tables share their cached distributions.
    """

    __slots__ = ("outcomes", "damage", "_dist", "_powers")

    def __init__(self, outcomes: Sequence[str], damage: Sequence[int]) -> None:
        if len(outcomes) != len(damage) or len(outcomes) < 2:
            raise ValueError("a face table needs one outcome and one damage per face (>= 2)")
        if any(d < 0 for d in damage):
            raise ValueError("damage per face cannot be negative")
        self.outcomes: tuple[str, ...] = tuple(outcomes)
        self.damage: tuple[int, ...] = tuple(int(d) for d in damage)
        counts = np.bincount(np.asarray(self.damage, dtype=np.int64)).astype(np.float64)
        self._dist = Dist(counts / len(self.damage), 0)
        self._powers: dict[int, Dist] = {}

    @property
    def sides(self) -> int:
        return len(self.damage)

    @property
    def dist(self) -> Dist:
        """The damage of one die."""
        return self._dist

    def face(self, face: int) -> tuple[str, int]:
        """The outcome and damage of one face (1-based)."""
        if not 1 <= face <= self.sides:
            raise ValueError(f"a d{self.sides} shows 1 to {self.sides}, not {face}")
        return self.outcomes[face - 1], self.damage[face - 1]

    def sum_of(self, n: int) -> Dist:
        """The damage of n such dice (kept per table: a drag asks for it again and again)."""
        hit = self._powers.get(n)
        if hit is None:
            hit = self._dist.repeat(n)
            if len(self._powers) < 64:
                self._powers[n] = hit
        return hit

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, FaceTable) and self.outcomes == other.outcomes
                and self.damage == other.damage)

    def __hash__(self) -> int:
        return hash((self.outcomes, self.damage))

    def __repr__(self) -> str:
        faces = ", ".join(f"{i + 1}:{o}/{d}" for i, (o, d) in
                          enumerate(zip(self.outcomes, self.damage, strict=True)))
        return f"FaceTable({faces})"


@dataclass(frozen=True)
class DicePool:
    """``count`` dice of one face table whose total is reduced by ``reduction`` (armour),
    never below 0, before it joins the attack's damage. ``name`` labels it (the weapon)."""

    table: FaceTable
    count: int
    reduction: int = 0
    name: str = ""

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("a pool cannot roll a negative number of dice")

    def total(self, faces: Sequence[int]) -> tuple[int, int]:
        """(raw total, total after the reduction) of these faces of this pool."""
        raw = sum(self.table.face(f)[1] for f in faces)
        return raw, max(0, raw - self.reduction)


def dice_needed(pools: Sequence[DicePool]) -> int:
    return sum(p.count for p in pools)


def _reduced(d: Dist, reduction: int) -> Dist:
    """max(0, X - reduction)."""
    if reduction <= 0:
        return d
    shifted = Dist(d.probs, d.offset - reduction)
    return shifted.clip(lo=0)


def pool_damage(pools: Sequence[DicePool], cap: int | None = None,
                known: Sequence[int] = ()) -> Dist:
    """The exact distribution of an attack's damage.

    Each pool's total is reduced separately (armour per weapon), the pools are summed, and
    the sum is capped at ``cap`` (the wounds left: damage beyond them is discarded).
    ``known`` are the first faces already rolled, in pool order: the result is the
    distribution conditioned on them (the remaining dice are still unknown).
    """
    if len(known) > dice_needed(pools):
        raise ValueError(f"{len(known)} dice known, but the attack rolls {dice_needed(pools)}")
    total = Dist.point(0)
    pos = 0
    for pool in pools:
        mine = known[pos: pos + pool.count]
        pos += len(mine)
        raw_known = sum(pool.table.face(f)[1] for f in mine)
        part = pool.table.sum_of(pool.count - len(mine)) + raw_known
        part = _reduced(part, pool.reduction)
        total = part if total.probs.size == 1 and total.offset == 0 else total + part
    if cap is not None:
        total = total.cap(max(0, cap))
    return total
