"""Exact discrete probability distributions over whole numbers.

A ``Dist`` is a numpy vector of probabilities indexed by value (from ``offset``). Sums of
independent variables are convolutions; caps fold the tail into the cap. Everything here
is exact up to floating point: no sampling.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


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

    @classmethod
    def from_faces(cls, values: Iterable[int]) -> Dist:
        """Each listed value equally likely (a die whose faces map to these values)."""
        vals = list(values)
        out: dict[int, float] = {}
        for v in vals:
            out[v] = out.get(v, 0.0) + 1.0 / len(vals)
        return cls.from_mapping(out)

    # -- arithmetic ----------------------------------------------------------------
    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            return Dist(self.probs, self.offset + other)
        return Dist(np.convolve(self.probs, other.probs), self.offset + other.offset)

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
        values = np.arange(self.offset, self.offset + self.probs.size)
        lo_v = int(values[0]) if lo is None else lo
        hi_v = int(values[-1]) if hi is None else hi
        if lo_v > hi_v:
            lo_v = hi_v
        clipped = np.clip(values, lo_v, hi_v)
        start = int(clipped.min())
        out = np.zeros(int(clipped.max()) - start + 1)
        np.add.at(out, clipped - start, self.probs)
        return Dist(out, start)

    def mix(self, weight: float, other: Dist) -> Dist:
        """weight * self + (1 - weight) * other (a mixture of two distributions)."""
        lo = min(self.offset, other.offset)
        hi = max(self.offset + self.probs.size, other.offset + other.probs.size)
        out = np.zeros(hi - lo)
        out[self.offset - lo: self.offset - lo + self.probs.size] += weight * self.probs
        out[other.offset - lo: other.offset - lo + other.probs.size] += (1 - weight) * other.probs
        return Dist(out, lo)

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
        """``[[value, probability], ...]`` ascending, zero-probability values left out."""
        return [[v, round(q, digits)] for v, q in self.items() if q > 1e-15]

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
