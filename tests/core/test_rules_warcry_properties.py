"""Properties of every Warcry-family distribution over random profiles (hypothesis)."""

from __future__ import annotations

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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

small = st.integers(min_value=0, max_value=7)


def check_report(report, left: int) -> None:
    d = report.distribution
    assert d.total == pytest.approx(1.0, abs=1e-9)
    assert (d.probs >= 0).all()
    assert d.offset >= 0 and d.max_value <= max(left, 0)
    expected_down = d.prob_at_least(left) if left > 0 else 0.0
    assert report.take_down_probability == pytest.approx(expected_down)
    pairs = report.to_json()["distribution"]
    assert sum(p for _, p in pairs) == pytest.approx(1.0, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(s=st.integers(1, 8), t=st.integers(1, 8), attacks=st.integers(1, 10), hit=small,
       crit=small, wounds=st.integers(1, 20), damage=st.integers(0, 25))
def test_warcry(s: int, t: int, attacks: int, hit: int, crit: int, wounds: int,
                damage: int) -> None:
    a = fighter("a", "red", 10, 10, warcry_chars(),
                [wc_weapon(attacks=attacks, strength=s, damage=f"{hit}/{crit}")])
    tg = fighter("t", "blue", 11.5, 10, warcry_chars(t, wounds), [wc_weapon()],
                 state={"damage": damage})
    report = get("warcry").attack(battle("warcry", [a, tg]), req(weapon="Sword"))
    left = wounds - damage
    check_report(report, left)
    # an independent reference from the Warcry page's hit table, with icepool: each die
    # misses below the hit threshold, hits (`hit` damage) up to 5 and crits on a 6
    threshold = 3 if s > t else 4 if s == t else 5
    die = icepool.Die([0] * (threshold - 1) + [hit] * (6 - threshold) + [crit])
    ref = (attacks @ die).map(lambda x: min(x, max(left, 0)))
    total = ref.denominator()
    for value, count in ref.items():
        assert report.distribution.prob(value) == pytest.approx(count / total, abs=1e-12)
    assert report.expected_damage == pytest.approx(float(ref.mean()), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(f=small, d=small, p=st.integers(0, 4), attacks=st.integers(1, 10), hit=small,
       crit=small, wounds=st.integers(1, 20), panicked=st.booleans(), melee=st.booleans())
def test_fight_vs_defense(f: int, d: int, p: int, attacks: int, hit: int, crit: int,
                          wounds: int, panicked: bool, melee: bool) -> None:
    w = v_weapon(kind="melee" if melee else "ranged", range=2, attacks=attacks,
                 damage=f"{hit}/{crit}", piercing=p)
    a = fighter("a", "red", 10, 10, fvd_chars(fight=f, shoot=f), [w],
                state={"panicked": panicked})
    tg = fighter("t", "blue", 12.5, 10, fvd_chars(defense=d, wounds=wounds), [v_weapon()])
    check_report(get("fight-vs-defense").attack(battle("fight-vs-defense", [a, tg]),
                                                req(weapon="Sword")), wounds)


@settings(max_examples=40, deadline=None)
@given(f=small, fd=small, armour=st.integers(0, 6), p1=st.integers(0, 3), p2=st.integers(0, 3),
       attacks=st.integers(1, 8), hit=small, crit=small, wounds=st.integers(1, 20),
       dual=st.booleans(), shield=st.booleans())
def test_mordheim(f: int, fd: int, armour: int, p1: int, p2: int, attacks: int, hit: int,
                  crit: int, wounds: int, dual: bool, shield: bool) -> None:
    a = fighter("a", "red", 10, 10, mh_chars(fight=f), [
        v_weapon("Main", attacks=attacks, damage=f"{hit}/{crit}", piercing=p1),
        v_weapon("Off", attacks=2, damage=f"{crit}/{hit}", piercing=p2)])
    tg = fighter("t", "blue", 11.5, 10, mh_chars(fight=fd, armour=armour, wounds=wounds),
                 [v_weapon()], traits=["shield"] if shield else [])
    rq = req(weapon="Main", offhand="Off" if dual else None)
    check_report(get("mordheim-warcry").attack(battle("mordheim-warcry", [a, tg]), rq), wounds)
