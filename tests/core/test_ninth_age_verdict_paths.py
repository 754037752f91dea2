"""The Ninth Age's verdict without the plan (``build.verdict_against``, what
``target_validity`` reads) says what the plan says: the same checks as
``plan_against`` and the same size as ``build.size_of`` of the plan (so the same
refusal by ``check_size``), for random units, weapons, situations and declared values,
edges included (destroyed units, Harnessed parts, a needed roll of 8, dice shots, attacks
too large to compute, Area Attacks with a bracketed hit)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_gui.rules.base import RulesError
from tabletop_gui.rules.ninth_age.build import (
    Armed,
    plan_against,
    size_of,
    valid_against,
    verdict_against,
)
from tabletop_gui.rules.ninth_age.engine import _plan_of, _verdict_of, armed_for, check_size
from tabletop_gui.rules.ninth_age.units import Situation, UnitView, WeaponView
from tests.core.test_ninth_age_support import bow, cc, unit

SHOOTING_ATTRIBUTES = ("Volley Fire", "Move or Fire", "Reload!", "Accurate", "Quick to Fire",
                       "Unwieldy", "Steady Aim", "March and Shoot", "Shoot in Extra Rank",
                       "Battle Focus", "Poison Attacks", "Toxic Attacks", "Flaming Attacks",
                       "Multiple Wounds (D3)", "Multiple Wounds (10D10, Clipped Wings)",
                       "Area Attack (1x3)", "Area Attack (100x100) [Strength 6, Multiple "
                       "Wounds (2D6)]", "Harnessed")
CC_ATTRIBUTES = ("Weapon Master", "Two-Handed", "Devastating Charge (+2 Strength, Battle "
                 "Focus)", "Fight in Extra Rank", "Extra Support (2)", "Lightning Reflexes",
                 "Area Attack (1x3) [Strength 7]", "Multiple Wounds (D6, Clipped Wings)",
                 "Crush Attack", "Inanimate", "Area Attack (100x100)")
TRAITS = ("harnessed", "inanimate", "fly", "shield", "hard_target", "flammable",
          "distracting", {"aegis_vs_magical": 4})
ARCS = ("front", "rear", "left_flank", "right_flank")


@st.composite
def weapons(draw: st.DrawFn) -> WeaponView:
    attrs = draw(st.lists(st.sampled_from(SHOOTING_ATTRIBUTES + CC_ATTRIBUTES), max_size=3,
                          unique=True))
    name = draw(st.sampled_from(("W1", "W2", "W3", "Hand Weapon")))
    if draw(st.booleans()):
        shots = draw(st.sampled_from((1, 3, "D3", "2D6", "10D10")))
        return bow(name, *attrs, range=draw(st.sampled_from((6, 12, 24, 36))),
                   aim=draw(st.integers(2, 7)), shots=shots)
    return cc(name, *attrs)


@st.composite
def units(draw: st.DrawFn, uid: str, side: str) -> UnitView:
    models = draw(st.integers(1, 60))
    hp = draw(st.integers(1, 5))
    state: dict[str, Any] = {}
    if draw(st.booleans()):
        state["hp_lost"] = draw(st.integers(0, models * hp))
    for flag in ("charging", "moved", "marched", "taken_down"):
        if draw(st.integers(0, 5)) == 0:
            state[flag] = True
    ws = draw(st.lists(weapons(), min_size=0, max_size=3, unique_by=lambda w: w.name))
    return unit(uid, side, models=models, files=draw(st.integers(1, 12)),
                weapons=tuple(ws), traits=tuple(draw(st.lists(st.sampled_from(TRAITS),
                                                               max_size=3))),
                state=state, height_class=draw(st.sampled_from(("standard", "large"))),
                round_base=draw(st.booleans()), hp=hp, arm=draw(st.integers(0, 6)),
                aegis=draw(st.integers(0, 6)), fortitude=draw(st.integers(0, 6)),
                att=draw(st.integers(1, 50)))


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    engaged = draw(st.booleans())
    cover = draw(st.sampled_from(("none", "soft", "hard")))
    return Situation(
        distance=0.0 if engaged else draw(st.floats(0.0, 60.0)), engaged=engaged,
        engaged_facing=draw(st.sampled_from(ARCS)) if engaged else None,
        arc=draw(st.sampled_from(ARCS)),
        contact_models=draw(st.integers(0, 12)) if engaged else 0,
        visible=draw(st.booleans()), cover=cover,
        cover_by=("w1", "u9") if cover != "none" else (),
        cover_only_low_units=draw(st.booleans()))


SITUATIONAL = st.fixed_dictionaries({}, optional={
    "charging": st.booleans(), "moved": st.booleans(), "marched": st.booleans(),
    "stand_and_shoot": st.booleans(), "crush_attack": st.booleans(),
    "first_round": st.booleans(), "attacking_models": st.integers(-1, 30),
    "supporting_models": st.integers(-1, 30)})


def _armed(a: UnitView, weapon: str | None, situ: dict[str, Any]) -> list[Armed]:
    try:
        return armed_for(a, weapon, situ)
    except RulesError:
        return []


@given(units("a", "red"), units("t", "blue"), situations(), SITUATIONAL, st.booleans())
def test_a_verdict_is_the_plans_checks_and_size(a: UnitView, t: UnitView, s: Situation,
                                               situ: dict[str, Any], friend: bool) -> None:
    if friend:
        t = unit(t.id, "red", models=t.models, files=t.files, weapons=t.weapons,
                 traits=t.traits, state=dict(t.state))
    for weapon in [None, *(w.name for w in a.weapons), "Hand Weapon"]:
        for armed in _armed(a, weapon, situ):
            plan = plan_against(armed, t, s)
            verdict = verdict_against(armed, t, s)
            assert verdict.checks == plan.checks
            assert verdict.valid is plan.valid
            assert (verdict.rolls, verdict.each, verdict.most) == size_of(plan)
            assert valid_against(armed, t, s) is plan.valid


@given(units("a", "red"), units("t", "blue"), situations(), SITUATIONAL)
def test_a_verdict_chooses_and_refuses_as_the_plan(a: UnitView, t: UnitView, s: Situation,
                                                  situ: dict[str, Any]) -> None:
    """``_verdict_of``: the same weapon as ``_plan_of`` (the first valid one, else the
    first), the same refusal of an attack too large to compute."""
    for weapon in [None, *(w.name for w in a.weapons)]:
        armed = _armed(a, weapon, situ)
        if not armed:
            continue
        try:
            plan = _plan_of(armed, t, s)
        except RulesError as e:
            with pytest.raises(RulesError) as refused:
                _verdict_of(armed, t, s)
            assert str(refused.value) == str(e)
            continue
        assert _verdict_of(armed, t, s).checks == plan.checks


def test_the_edges_are_reached() -> None:
    """The cases the properties above must meet: a shot that cannot hit, a refused
    attack too large to compute, a bracketed Area Attack hit with Multiple Wounds."""
    shooter = unit("a", models=40, files=10,
                   weapons=(bow("Crossbow", "Unwieldy", aim=6),
                            bow("Hail", "Multiple Wounds (10D10)", shots="10D10")))
    target = unit("t", "blue", traits=("hard_target",), hp=60)
    far = Situation(distance=20.0, cover="hard", cover_by=("w1",))
    first = armed_for(shooter, "Crossbow", {"moved": True})[0]
    verdict = verdict_against(first, target, far)
    assert verdict.checks == plan_against(first, target, far).checks
    assert "cannot hit: the needed roll is 8 or more" in [c.text for c in verdict.checks]
    hail = armed_for(shooter, "Hail", {})
    with pytest.raises(RulesError, match="more than the 100,000") as too_large:
        _verdict_of(hail, target, far)
    with pytest.raises(RulesError) as planned:
        check_size(plan_against(hail[0], target, far), "a")
    assert str(too_large.value) == str(planned.value)
    club = armed_for(unit("c", weapons=(cc("Club", "Area Attack (2x3) [Strength 7, "
                                               "Multiple Wounds (D6)]"),)), None, {})[0]
    big = unit("t", "blue", hp=5, models=20, files=5)
    close = Situation(engaged=True, engaged_facing="left_flank", contact_models=3)
    plan = plan_against(club, big, close)
    assert plan.profile.bracketed is not None
    v = verdict_against(club, big, close)
    # 3 attacking + 3 supporting; 2 hits on each of 3 files of 4; a D6 capped at 5 HP
    assert (v.rolls, v.each, v.most) == size_of(plan) == (6, 6, 5)
