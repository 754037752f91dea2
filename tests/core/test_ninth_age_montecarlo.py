"""Exact Ninth Age odds against a vectorised Monte Carlo (100,000 attacks, 4 standard
errors), for random unit profiles; distributions sum to 1 with the right mean."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numpy.typing import NDArray

from tabletop_gui.rules.ninth_age.build import Plan
from tabletop_gui.rules.ninth_age.engine import plan_distribution
from tabletop_gui.rules.ninth_age.profile import AttackProfile, HitProfile
from tests.core.test_ninth_age_support import bow, cc, melee, shoot, unit

N = 100_000
IntArray = NDArray[np.int64]

ATTRIBUTES = ["Hatred", "Battle Focus", "Poison Attacks", "Lethal Strike", "Flaming Attacks",
              "Divine Attacks", "Multiple Wounds (D3)", "Magical Attacks",
              "Area Attack (2x2) [Strength 6, Multiple Wounds (2)]", "Multiple Wounds (D6)"]


def _hits(profile: HitProfile, auto: NDArray[np.bool_], rng: np.random.Generator,
          shape: tuple[int, ...]) -> IntArray:
    """Health Points each hit removes (0 when it fails somewhere)."""
    def d(sides: int = 6) -> IntArray:
        return rng.integers(1, sides + 1, size=shape)
    w = d()
    wound = (w >= profile.wound_needed) & (w != 1)
    lethal = profile.lethal_strike & (w == 6)
    if profile.reroll_failed_wounds:
        w2 = d()
        redo = ~wound
        lethal = np.where(redo, profile.lethal_strike & (w2 == 6), lethal)
        wound = wound | (redo & (w2 >= profile.wound_needed) & (w2 != 1))
    wound = wound | auto
    lethal = lethal & ~auto
    need_a = np.where(lethal, profile.armour_needed_lethal, profile.armour_needed)
    a = d()
    saved = (a >= need_a) & (a != 1) & (need_a < 7)
    special_saved = np.zeros(shape, dtype=bool)
    for is_lethal in (False, True):
        which, need = profile.special_save(is_lethal)
        if need >= 7:
            continue
        s, s2 = d(), d()
        ok = (s >= need) & (s != 1)
        if which == "aegis" and profile.divine:
            ok = ok & (s2 >= need) & (s2 != 1)
        special_saved |= (lethal == is_lethal) & ok
    unsaved = wound & ~saved & ~special_saved
    spec = profile.wounds
    mult = np.full(shape, spec.bonus + (spec.count if spec.fixed else 0))
    if not spec.fixed:
        for _ in range(spec.count):
            mult = mult + d(spec.sides)
    mult = np.clip(mult, 0, profile.hp_cap)
    return np.where(unsaved, mult, 0)


def simulate(plan: Plan, rng: np.random.Generator) -> IntArray:
    p: AttackProfile = plan.profile
    if plan.shots is not None:
        s = plan.shots
        per = rng.integers(1, s.sides + 1, size=(N, plan.shooting_models, s.count)).sum(axis=2)
        n_att = (per + s.bonus).sum(axis=1)
        width = int(plan.shooting_models * (s.count * s.sides + s.bonus))
    else:
        n_att = np.full(N, plan.attacks)
        width = plan.attacks
    shape = (N, max(1, width))
    live = np.arange(shape[1])[None, :] < n_att[:, None]
    if p.hit_needed >= 8:
        return np.zeros(N, dtype=np.int64)
    r = rng.integers(1, 7, size=shape)
    if p.hit_needed == 7:
        second = rng.integers(1, 7, size=shape)
        hit = (r == 6) & (second >= 4)
        six = hit
    else:
        hit = (r >= p.hit_needed) & (r != 1)
        six = r == 6
        if p.reroll_failed_hits:
            r2 = rng.integers(1, 7, size=shape)
            redo = ~hit
            six = np.where(redo, r2 == 6, six)
            hit = hit | (redo & (r2 >= p.hit_needed) & (r2 != 1))
    hit &= live
    six &= hit
    total = np.zeros(N, dtype=np.int64)
    slots = p.hits_per_success + (1 if p.battle_focus else 0)
    for slot in range(slots):
        active = hit if slot < p.hits_per_success else hit & six
        kind = "bracketed" if slot == 0 and p.bracketed is not None else "normal"
        auto = six & p.poison if slot == 0 else np.zeros(shape, dtype=bool)
        total += np.where(active, _hits(p.hit(kind), auto, rng, shape), 0).sum(axis=1)
    return np.minimum(total, plan.remaining)


def random_plan(seed: int) -> Plan:
    r = random.Random(seed)
    names = r.sample(ATTRIBUTES, 3)
    if sum("Multiple Wounds" in n for n in names) > 1:
        names = [n for n in names if n != "Multiple Wounds (D6)"]
    traits: list[object] = r.sample(["flammable", "shield", "fly", {"aegis_vs_magical": 4}], 2)
    target = unit("t", "blue", models=r.randint(3, 12), files=r.randint(2, 5),
                  hp=r.randint(1, 3), res=r.randint(2, 6), arm=r.randint(0, 5),
                  aegis=r.choice([0, 4, 5, 6]), fortitude=r.choice([0, 5, 6]),
                  traits=tuple(traits), state={"hp_lost": r.randint(0, 2)},
                  **{"def": r.randint(2, 7)})
    if seed % 3 == 2:
        shots = r.choice([1, 2, "D3"])
        a = unit("a", models=r.randint(2, 6), files=r.randint(2, 5), str=r.randint(2, 6),
                 weapons=(bow("Bow", *[n for n in names if n != "Hatred"],
                              aim=r.randint(3, 6), shots=shots),))
        return shoot(a, target, distance=r.uniform(1, 20), moved=r.random() < 0.5)
    a = unit("a", models=r.randint(5, 10), files=5, off=r.randint(2, 7), str=r.randint(2, 6),
             ap=r.randint(0, 3), att=r.randint(1, 3), weapons=(cc("Weapon", *names),))
    return melee(a, target, contact=r.randint(1, 4), first_round=True)


@pytest.mark.parametrize("seed", [0, 1, 2, 4, 5, 8])
def test_exact_odds_match_monte_carlo(seed: int) -> None:
    plan = random_plan(seed)
    exact = plan_distribution(plan)
    assert abs(exact.total - 1) < 1e-9 and (exact.probs >= 0).all()
    sample = simulate(plan, np.random.default_rng(1000 + seed))
    sd = max(float(sample.std()), 1e-9)
    assert abs(sample.mean() - exact.mean) <= 4 * sd / np.sqrt(N) + 1e-12
    for value, p in exact.items():
        if p < 1e-3:
            continue
        freq = float((sample == value).mean())
        assert abs(freq - p) <= 4 * np.sqrt(p * (1 - p) / N) + 1e-12, (value, p, freq)


@pytest.mark.parametrize("seed", range(12))
def test_distributions_sum_to_one_with_their_mean(seed: int) -> None:
    plan = random_plan(seed)
    for measure in ("hp", "hits", "wounds"):
        d = plan_distribution(plan, measure)  # type: ignore[arg-type]
        assert abs(d.total - 1) < 1e-9
        assert (d.probs >= -1e-15).all()
        values = np.arange(d.offset, d.offset + d.probs.size)
        assert float(np.dot(values, d.probs)) == pytest.approx(d.mean)
    hp = plan_distribution(plan)
    assert hp.max_value <= plan.remaining


def _special_plans() -> list[Plan]:
    t = unit("t", "blue", models=6, files=3, hp=3, res=4, arm=2, fortitude=5, aegis=6,
             traits=("hard_target", "fly"), state={"hp_lost": 1})
    hopeless = unit("a", models=3, files=3, weapons=(bow(
        "Sling", "Battle Focus", "Poison Attacks", "Multiple Wounds (D3, Clipped Wings)",
        shots="D3", aim=5),))
    lethal = unit("a", models=10, files=5, off=5, str=4, att=2, weapons=(cc(
        "Axe", "Lethal Strike", "Hatred", "Multiple Wounds (D6)", "Divine Attacks"),))
    return [shoot(hopeless, t, distance=2, moved=True),
            melee(lethal, t, contact=4, first_round=True)]


@pytest.mark.parametrize("which", [0, 1])
def test_special_profiles_match_monte_carlo(which: int) -> None:
    plan = _special_plans()[which]
    if which == 0:
        assert plan.profile.hit_needed == 7 and plan.shots is not None
    exact = plan_distribution(plan)
    sample = simulate(plan, np.random.default_rng(77 + which))
    sd = max(float(sample.std()), 1e-9)
    assert abs(sample.mean() - exact.mean) <= 4 * sd / np.sqrt(N)
    for value, p in exact.items():
        if p >= 1e-3:
            freq = float((sample == value).mean())
            assert abs(freq - p) <= 4 * np.sqrt(p * (1 - p) / N), (value, p, freq)
