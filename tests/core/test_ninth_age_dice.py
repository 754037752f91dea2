"""Ninth Age dice: the page's order, given and seeded dice, and odds conditioned on dice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletop_gui.rules.base import DiceShortage, DiceSource, GivenDice, RulesError, SeededDice
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.fields import DiceSpec
from tabletop_gui.rules.ninth_age.build import Plan
from tabletop_gui.rules.ninth_age.engine import plan_distribution
from tabletop_gui.rules.ninth_age.sequence import Run, Runner, conditioned
from tests.core.test_ninth_age_support import bow, cc, melee, shoot, unit

TARGET = unit("t", "blue", models=4, files=4, hp=3, res=4, arm=3, aegis=5,
              traits=("flammable",))
ATTACKER = unit("a", off=3, str=4, weapons=(cc("Blade", "Hatred", "Flaming Attacks",
                                                "Divine Attacks", "Multiple Wounds (D3)"),))


def busy_plan(n: int = 2) -> Plan:
    return melee(ATTACKER, TARGET, attacking_models=n, supporting_models=0, first_round=True)


def run_with(plan: Plan, dice: DiceSource, shots: bool = True) -> Run:
    """The runner's generator driven to the end with faces from ``dice``."""
    runner = Runner(plan.profile, plan.shots if shots else None)
    run = runner.start(plan.attacks, plan.shots if shots else None,
                       plan.shooting_models if shots else 0)
    steps = runner.run(run)
    try:
        ask = next(steps)
        while True:
            ask = steps.send(dice.roll(ask.sides, ask.label))
    except StopIteration:
        pass
    return run


def roll(plan: Plan, faces: list[int]) -> Run:
    dice = GivenDice(faces)
    run = run_with(plan, dice)
    dice.finish()
    return run


def test_dice_follow_the_pages_order() -> None:
    # hit rolls 6, 2; re-roll 5; to wound 3, 4; re-roll 6; armour 2, 5; Aegis 5 (saved,
    # Divine: re-rolled) 1; Multiple Wounds D3: 3
    faces = [6, 2, 5, 3, 4, 6, 2, 5, 5, 1, 3]
    run = roll(busy_plan(), faces)
    labels = [d.label for d in run.dice]
    assert labels == [
        "hit roll, attack 1", "hit roll, attack 2", "hit re-roll, attack 2",
        "to-wound roll, attack 1", "to-wound roll, attack 2", "to-wound re-roll, attack 1",
        "armour save, attack 1", "armour save, attack 2", "aegis save, attack 1",
        "aegis save re-roll (Divine Attacks), attack 1", "Multiple Wounds die, attack 1",
    ]
    assert [d.sides for d in run.dice] == [6] * 10 + [3]
    assert run.hp == 3 and run.hits == 2 and run.wounds == 2


def test_given_dice_too_few_or_too_many() -> None:
    with pytest.raises(DiceShortage):
        roll(busy_plan(), [6, 2, 5, 3])
    with pytest.raises(RulesError, match="too many"):
        roll(busy_plan(), [1, 1, 1, 1, 1])
    with pytest.raises(RulesError, match="d3"):
        roll(busy_plan(), [6, 2, 5, 3, 4, 6, 2, 5, 5, 1, 4])


def test_seeded_dice_repeat() -> None:
    plan = busy_plan(6)

    def seeded(seed: int) -> tuple[list[int], int]:
        run = run_with(plan, SeededDice(seed), shots=False)
        return [d.face for d in run.dice], run.hp

    assert seeded(7) == seeded(7)
    assert seeded(7) != seeded(8) or seeded(9) != seeded(7)


def _next_sides(plan: Plan, prefix: list[int]) -> int | None:
    """The size of the die that comes after ``prefix`` (None when the attack is over)."""
    runner = Runner(plan.profile, plan.shots)
    steps = runner.run(runner.start(plan.attacks, plan.shots, plan.shooting_models))
    try:
        ask = next(steps)
        for face in prefix:
            ask = steps.send(face)
    except StopIteration:
        return None
    return ask.sides


def _given(plan: Plan, prefix: list[int]) -> Dist:
    d, used = conditioned(plan.profile, plan.attacks, plan.shots, plan.shooting_models,
                          plan.remaining, prefix)
    assert used == len(prefix)
    return d


def _same(a: Dist, b: Dist) -> None:
    keys = {v for v, _ in a.items()} | {v for v, _ in b.items()}
    for k in keys:
        assert a.prob(k) == pytest.approx(b.prob(k), abs=1e-12)


@pytest.mark.parametrize("prefix", [
    [], [6], [6, 2], [6, 2, 5], [6, 2, 5, 3], [6, 2, 5, 3, 4, 6], [6, 2, 5, 3, 4, 6, 2, 5],
    [6, 2, 5, 3, 4, 6, 2, 5, 5], [6, 2, 5, 3, 4, 6, 2, 5, 5, 1],
])
def test_conditioning_agrees_with_the_next_die(prefix: list[int]) -> None:
    """Odds given a prefix = the average over the next die's faces (total probability)."""
    plan = busy_plan()
    sides = _next_sides(plan, prefix)
    assert sides is not None
    parts = [(1 / sides, _given(plan, [*prefix, f])) for f in range(1, sides + 1)]
    _same(_given(plan, prefix), Dist.mixture(parts))


def test_conditioning_extremes() -> None:
    plan = busy_plan()
    _same(_given(plan, []), plan_distribution(plan))
    faces = [6, 2, 5, 3, 4, 6, 2, 5, 5, 1, 3]
    assert _given(plan, faces).items() == [(3, pytest.approx(1.0, abs=1e-12))]


def test_shots_dice_come_first_and_condition() -> None:
    a = unit("a", models=2, files=2, weapons=(bow("Volley Gun", shots="D3", aim=3),))
    t = unit("t", "blue", models=10)
    plan = shoot(a, t)
    assert plan.shots == DiceSpec(1, 3)
    run = roll(plan, [2, 1, 6, 1, 5, 4, 4])
    assert [d.label for d in run.dice][:3] == ["shots, model 1", "shots, model 2",
                                                "hit roll, attack 1"]
    assert run.hp == 2
    for prefix in ([], [2], [2, 1], [2, 1, 6]):
        sides = _next_sides(plan, prefix)
        assert sides is not None
        parts = [(1 / sides, _given(plan, [*prefix, f])) for f in range(1, sides + 1)]
        _same(_given(plan, prefix), Dist.mixture(parts))
    _same(_given(plan, []), plan_distribution(plan))


def test_hopeless_second_rolls_after_hit_rolls() -> None:
    a = unit("a", models=2, files=2, weapons=(bow("Sling", aim=7),))
    plan = shoot(a, unit("t", "blue", models=10))
    run = roll(plan, [6, 6, 4, 3, 6])  # two 6s, seconds 4 (hit) and 3 (miss), wound 6
    assert [d.label for d in run.dice] == [
        "hit roll, attack 1", "hit roll, attack 2",
        "second roll (Hopeless Shots), attack 1", "second roll (Hopeless Shots), attack 2",
        "to-wound roll, attack 1"]
    assert run.hp == 1 and run.hits == 1


@pytest.mark.parametrize("seed", range(6))
def test_conditioning_on_random_profiles(seed: int) -> None:
    """For random profiles and a rolled sequence, every prefix agrees with the next die."""
    from tests.core.test_ninth_age_montecarlo import random_plan

    plan = random_plan(seed)
    if plan.attacks > 6:
        plan = replace(plan, attacks=6)
    run = run_with(plan, SeededDice(seed))
    faces = [d.face for d in run.dice]
    rolled = min(run.hp, plan.remaining)
    assert _given(plan, faces).items() == [(rolled, pytest.approx(1.0, abs=1e-12))]
    for cut in sorted({0, len(faces) // 3, len(faces) // 2, max(0, len(faces) - 1)}):
        prefix = faces[:cut]
        sides = _next_sides(plan, prefix)
        if sides is None:
            continue
        parts = [(1 / sides, _given(plan, [*prefix, f])) for f in range(1, sides + 1)]
        _same(_given(plan, prefix), Dist.mixture(parts))


@pytest.mark.parametrize("shots", ["D3", "2D6", "D6-2"])
def test_shots_of_each_model_summed_over_the_models(shots: str) -> None:
    """The attacks of random shots are computed per model and summed over the models
    (a loop over each model's few possible shots, not over every total of the unit);
    it is the mixture over the unit's total shots, each model's count never below 0."""
    from tabletop_gui.rules.fields import parse_dice
    from tabletop_gui.rules.ninth_age.odds import Odds, dice_dist

    shooter = unit("a", models=3, files=3, weapons=(bow(shots=shots),))
    plan = shoot(shooter, TARGET)
    odds = Odds(plan.profile)
    spec = parse_dice(shots)
    per_model = dice_dist(spec).clip(lo=0)
    by_total = odds.attacks_mixture(per_model.repeat(3), cap=plan.remaining)
    _same(odds.attacks_from_shots(spec, 3, cap=plan.remaining), by_total)


def test_an_area_attack_expands_to_its_hits_by_repeated_squaring() -> None:
    """A success of an Area Attack is the bracketed (or automatic) first hit plus the
    plain ones: the same as adding every hit one by one."""
    from tabletop_gui.rules.ninth_age.odds import Odds

    hitter = unit("a", weapons=(cc("Sweep", "Area Attack (3x3) [Strength 6]",
                                   "Poison Attacks", "Battle Focus"),))
    odds = Odds(melee(hitter, unit("t", "blue", models=30, files=10)).profile)
    for six in (True, False):
        kinds = odds.p.hit_kinds(six)
        one_by_one = Dist.point(0)
        for kind, auto in kinds:
            one_by_one = one_by_one + (odds.armour(kind, False) if auto else odds.wound(kind))
        assert len(kinds) > 2
        _same(odds.expansion(six), one_by_one)
