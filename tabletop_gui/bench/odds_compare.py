"""What the odds benchmark cases share: an icepool die as a probability dict, and the
comparison of the program's exact distribution with it."""

from __future__ import annotations

from typing import Any

from tabletop_gui.rules.dist import Dist


def icepool_probs(total: Any) -> dict[int, float]:
    """An icepool die's outcomes and their probabilities."""
    denom = total.denominator()
    return {int(v): q / denom for v, q in total.items()}


def same_odds(answer: Dist, ref: dict[int, float], tol: float = 1e-9) -> bool:
    """Every value's probability within ``tol`` of the reference's (absent counts as 0)."""
    keys = {v for v, _ in answer.items()} | set(ref)
    return all(abs(answer.prob(v) - ref.get(v, 0.0)) <= tol for v in keys)
