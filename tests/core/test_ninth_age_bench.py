"""The odds_ninth_age benchmark case gives the same distribution as icepool."""

from __future__ import annotations

import pytest

from tabletop_gui.bench import cases_ninth_age as case


def test_bench_case_is_what_it_says() -> None:
    plan = case.plan()
    assert plan.attacks == case.ATTACKS
    p = plan.profile
    assert p.reroll_failed_hits and p.hit_needed == 4
    assert p.normal.wound_needed == 3 and p.normal.armour_needed == 4
    assert p.normal.aegis_needed == 5 and p.normal.wounds.sides == 3
    assert plan.remaining == case.TARGET_MODELS * case.TARGET_HP


def test_bench_case_agrees_with_icepool() -> None:
    answer = case.compute()
    ref = case.reference()
    assert case.same(answer, ref)
    assert sum(ref.values()) == pytest.approx(1)
    assert answer.mean == pytest.approx(sum(v * q for v, q in ref.items()))
    assert not case.same(answer, {0: 1.0})
