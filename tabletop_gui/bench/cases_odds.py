"""Benchmark case ``odds_warcry``: the exact damage distribution of an 8-attack Warcry
weapon (Strength 4 against Toughness 4, damage 1/3) capped at the target's 10 wounds left,
against the same distribution computed by ``icepool`` in the same run.

The timed work is what the engine does for one attack once the geometry is known: pick
the table row, build the per-face table and compute the capped distribution. The face
table is built afresh on every run, so no cached power of the die is reused.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop_gui.bench.odds_compare import icepool_probs, same_odds
from tabletop_gui.rules.dist import DicePool, Dist, FaceTable, pool_damage
from tabletop_gui.rules.fields import DamageSpec
from tabletop_gui.rules.warcry_family.tables import strength_row

NAME = "odds_warcry"
ATTACKS = 8
STRENGTH = 4
TOUGHNESS = 4
DAMAGE = DamageSpec(1, 3)
WOUNDS_LEFT = 10


def compute() -> Dist:
    """The program's answer: exact, capped at the wounds left."""
    row = strength_row(STRENGTH, TOUGHNESS)
    outcomes = [row.outcome(f) for f in range(1, 7)]
    damage = [DAMAGE.crit if o == "critical" else DAMAGE.hit if o == "hit" else 0
              for o in outcomes]
    return pool_damage([DicePool(FaceTable(outcomes, damage), ATTACKS)], WOUNDS_LEFT)


def reference() -> dict[int, float]:
    """The same distribution from icepool: each d6 deals 0 on 1-3, 1 on 4-5, 3 on 6."""
    import icepool

    die = icepool.d6.map(lambda f: DAMAGE.crit if f == 6 else DAMAGE.hit if f >= 4 else 0)
    total = (ATTACKS @ die).map(lambda x: min(x, WOUNDS_LEFT))
    return icepool_probs(total)


same = same_odds  # the registry compares the case's answer and reference with it


CASES: dict[str, tuple[Callable[[], object], Callable[[], object] | None]] = {
    NAME: (compute, reference),
}
# a case of a few hundredths of a millisecond: many runs for a steady median
RUNS = {NAME: 200}
QUICK_RUNS = {NAME: 50}
REFERENCE_RUNS = {NAME: 20}
QUICK_REFERENCE_RUNS = {NAME: 5}
