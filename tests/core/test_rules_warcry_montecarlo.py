"""Exact odds of the three Warcry-engine rulesets against vectorised Monte Carlo
(100,000 simulated attacks per random profile, within 4 standard errors) and icepool.

The simulation decides hits with its own reading of the pages' tables, independent of the
engine's tables and convolutions.
"""

from __future__ import annotations

import random

import icepool
import numpy as np
import pytest

from tabletop_gui.rules.registry import get
from tests.core.warcry_family_scenarios import (
    battle,
    fighter,
    fvd_chars,
    mh_chars,
    req,
    v_weapon,
    warcry_chars,
    wc_weapon,
)

N = 100_000


def sim_row_five(a: int, d: int) -> tuple[int, int]:
    """(lowest hit face, lowest critical face) of the five-row table, per the page."""
    if a == d:
        return 4, 6
    if d <= 0 or a >= 2 * d:
        return 3, 5
    if a > d:
        return 3, 6
    if a * 2 <= d:
        return 5, 7
    return 5, 6


def sim_row_warcry(s: int, t: int) -> tuple[int, int]:
    return (3, 6) if s > t else (4, 6) if s == t else (5, 6)


def simulate(rng: np.random.Generator, pools: list[tuple[int, tuple[int, int], int, int, int]],
             cap: int) -> np.ndarray:
    """pools: (dice, (hit_from, crit_from), hit damage, crit damage, armour)."""
    total = np.zeros(N, dtype=np.int64)
    for count, (hit_from, crit_from), hit, crit, armour in pools:
        faces = rng.integers(1, 7, size=(N, count))
        dmg = np.where(faces >= crit_from, crit, np.where(faces >= hit_from, hit, 0)).sum(axis=1)
        total += np.maximum(0, dmg - armour)
    return np.minimum(total, cap)


def assert_agrees(dist, samples: np.ndarray) -> None:
    assert dist.total == pytest.approx(1.0, abs=1e-9)
    assert (dist.probs >= 0).all()
    values = np.arange(0, max(dist.max_value, int(samples.max())) + 1)
    for v in values:
        p = dist.prob(int(v))
        p_hat = float(np.mean(samples == v))
        se = max(np.sqrt(p * (1 - p) / N), 1 / N)
        assert abs(p_hat - p) <= 4 * se, (v, p, p_hat)
    se_mean = float(samples.std()) / np.sqrt(N) + 1e-12
    assert abs(float(samples.mean()) - dist.mean) <= 4 * se_mean


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_warcry_random_profiles(seed: int) -> None:
    r = random.Random(seed)
    s, t = r.randint(2, 6), r.randint(2, 6)
    attacks, hit, crit = r.randint(1, 6), r.randint(1, 3), r.randint(2, 6)
    wounds, damage = r.randint(3, 15), r.randint(0, 2)
    a = fighter("a", "red", 10, 10, warcry_chars(),
                [wc_weapon(attacks=attacks, strength=s, damage=f"{hit}/{crit}")])
    tg = fighter("t", "blue", 11.5, 10, warcry_chars(t, wounds), [wc_weapon()],
                 state={"damage": damage})
    report = get("warcry").attack(battle("warcry", [a, tg]), req(weapon="Sword"))
    samples = simulate(np.random.default_rng(seed),
                       [(attacks, sim_row_warcry(s, t), hit, crit, 0)], wounds - damage)
    assert_agrees(report.distribution, samples)
    assert report.take_down_probability == pytest.approx(
        report.distribution.prob_at_least(wounds - damage))


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_fight_vs_defense_random_profiles(seed: int) -> None:
    r = random.Random(seed)
    fight, defense, piercing = r.randint(1, 7), r.randint(1, 6), r.randint(0, 2)
    panicked = r.random() < 0.5
    attacks, hit, crit = r.randint(1, 6), r.randint(1, 3), r.randint(2, 5)
    wounds = r.randint(4, 20)
    a = fighter("a", "red", 10, 10, fvd_chars(fight=fight),
                [v_weapon(attacks=attacks, damage=f"{hit}/{crit}", piercing=piercing)],
                state={"panicked": panicked})
    tg = fighter("t", "blue", 11.5, 10, fvd_chars(defense=defense, wounds=wounds), [v_weapon()])
    report = get("fight-vs-defense").attack(battle("fight-vs-defense", [a, tg]),
                                            req(weapon="Sword"))
    row = sim_row_five(fight - int(panicked), defense - piercing)
    samples = simulate(np.random.default_rng(seed), [(attacks, row, hit, crit, 0)], wounds)
    assert_agrees(report.distribution, samples)


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_mordheim_random_dual_wield_profiles(seed: int) -> None:
    r = random.Random(seed)
    fa, fd, armour = r.randint(2, 6), r.randint(2, 6), r.randint(0, 4)
    shield, parry, diving = r.random() < 0.5, r.random() < 0.5, r.random() < 0.5
    main = (r.randint(1, 5), r.randint(1, 3), r.randint(2, 5), r.randint(0, 3))
    off = (r.randint(1, 4), r.randint(1, 2), r.randint(2, 4), r.randint(0, 2))
    wounds = r.randint(3, 12)
    a = fighter("a", "red", 10, 10, mh_chars(fight=fa), [
        v_weapon("Main", attacks=main[0], damage=f"{main[1]}/{main[2]}", piercing=main[3]),
        v_weapon("Off", attacks=off[0], damage=f"{off[1]}/{off[2]}", piercing=off[3])])
    tg = fighter("t", "blue", 11.5, 10, mh_chars(fight=fd, armour=armour, wounds=wounds),
                 [v_weapon("Guard", parry=parry)], traits=["shield"] if shield else [])
    rq = req(weapon="Main", offhand="Off", diving_charge=diving)
    report = get("mordheim-warcry").attack(battle("mordheim-warcry", [a, tg]), rq)
    row = sim_row_five(fa + int(diving), fd + int(shield) + int(parry))
    pools = [(main[0], row, main[1], main[2], max(0, armour - main[3])),
             (1, row, off[1], off[2], max(0, armour - off[3]))]
    samples = simulate(np.random.default_rng(seed), pools, wounds)
    assert_agrees(report.distribution, samples)

    # icepool computes the same distribution exactly
    def die(hit_from: int, crit_from: int, h: int, c: int) -> icepool.Die:
        return icepool.Die([c if f >= crit_from else h if f >= hit_from else 0
                            for f in range(1, 7)])

    ref = None
    for count, (hf, cf), h, c, arm in pools:
        part = (count @ die(hf, cf, h, c)).map(lambda x, arm=arm: max(0, x - arm))
        ref = part if ref is None else ref + part
    assert ref is not None
    ref = ref.map(lambda x: min(x, wounds))
    den = ref.denominator()
    for value, q in ref.items():
        assert report.distribution.prob(value) == pytest.approx(q / den, abs=1e-12)
