"""Benchmark case ``odds_ninth_age``: the exact HP-loss distribution of 40 close-combat
attacks with re-rolled hits (Hatred), armour, Aegis and Multiple Wounds (D3), against
the same distribution computed by ``icepool`` in the same run.

The timed work is what the attack panel does for one attack: build the plan from the two
units and the geometry facts, then the exact capped distribution.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop_gui.bench.odds_compare import icepool_probs, same_odds
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.ninth_age.build import Plan, build_plan
from tabletop_gui.rules.ninth_age.engine import plan_distribution
from tabletop_gui.rules.ninth_age.units import Situation, UnitView, WeaponView

NAME = "odds_ninth_age"
ATTACKS = 40
TARGET_MODELS = 12
TARGET_HP = 3

_CHARS = {"adv": 4, "mar": 8, "dis": 8, "agi": 4, "aegis": 0, "fortitude": 0}
ATTACKER = UnitView(
    "bench_a", "Chosen Warriors", "red",
    {**_CHARS, "hp": 1, "def": 4, "res": 4, "arm": 3, "att": 4, "off": 4, "str": 5, "ap": 1},
    weapons=(WeaponView("Greatsword", {"kind": "close_combat", "attributes": [
        "Hatred", "Multiple Wounds (D3)"]}),),
    models=20, files=10,
)
TARGET = UnitView(
    "bench_t", "Ogres", "blue",
    {**_CHARS, "hp": TARGET_HP, "def": 4, "res": 4, "arm": 4, "aegis": 5, "att": 3, "off": 3,
     "str": 4, "ap": 0},
    models=TARGET_MODELS, files=4,
)
SITUATION = Situation(engaged=True, engaged_facing="front", contact_models=10)
SITUATIONAL = {"first_round": True, "attacking_models": 10, "supporting_models": 0}


def plan() -> Plan:
    return build_plan(ATTACKER, TARGET, None, SITUATION, SITUATIONAL)


def compute() -> Dist:
    """The program's answer: exact, capped at the target's 36 Health Points."""
    return plan_distribution(plan())


def reference() -> dict[int, float]:
    """The same distribution from icepool (hit 4+ re-rolling failures, wound 3+, armour 4+,
    Aegis 5+, Multiple Wounds D3 capped at 3, total capped at 36)."""
    import icepool

    d6 = icepool.d6
    unsaved = icepool.d3.map(lambda w: min(w, TARGET_HP))
    special = d6.map(lambda s: 0 if s >= 5 else unsaved)
    armour = d6.map(lambda a: 0 if a >= 4 else special)
    wound = d6.map(lambda w: armour if w >= 3 else 0)
    attack = d6.reroll([1, 2, 3], depth=1).map(lambda h: wound if h >= 4 else 0)
    total = (ATTACKS @ attack).clip(0, TARGET_MODELS * TARGET_HP)
    return icepool_probs(total)


same = same_odds  # the registry compares the case's answer and reference with it


CASES: dict[str, tuple[Callable[[], object], Callable[[], object] | None]] = {
    NAME: (compute, reference),
}
