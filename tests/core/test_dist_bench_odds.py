"""The `odds_warcry` benchmark case runs and equals its icepool reference (no timing)."""

from __future__ import annotations

import pytest

from tabletop_gui.bench import cases_odds
from tabletop_gui.rules.warcry.engine import RULESET
from tests.core.warcry_family_scenarios import battle, fighter, req, warcry_chars, wc_weapon


def test_odds_warcry_equals_icepool() -> None:
    compute, reference = cases_odds.CASES["odds_warcry"]
    answer = compute()
    ref = reference()
    assert cases_odds.same(answer, ref)
    assert not cases_odds.same(answer, {0: 1.0})


def test_odds_warcry_is_what_the_engine_answers() -> None:
    a = fighter("a", "red", 10, 10, warcry_chars(), [wc_weapon(attacks=8, strength=4)])
    t = fighter("t", "blue", 11.5, 10, warcry_chars(toughness=4, wounds=12),
                [wc_weapon()], state={"damage": 2})
    report = RULESET.attack(battle("warcry", [a, t]), req(weapon="Sword"))
    bench = cases_odds.compute()
    for v, q in report.distribution.items():
        assert bench.prob(v) == pytest.approx(q, abs=1e-12)
