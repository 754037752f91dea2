"""The stepping resolver of every ruleset (``Ruleset.begin``): fed die by die it gives the
same resolution as ``resolve`` with the same given dice, its odds after k dice are
``odds_given`` of those dice, it says how many dice remain in each step, refuses a face
the die cannot show naming the die, and asks the limb exactly on a chooser's face."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, Battle, DiceError, GivenDice, RulesError
from tabletop_gui.rules.circle_of_realms.dismemberment import CHOOSERS, DEFAULT_FACES
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.resolver import DieAsk, Resolver, dice_word
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.load import load_scenario

DEMOS = Path(__file__).resolve().parents[2] / "resources" / "demos"
RULESETS = ("warcry", "mordheim-warcry", "fight-vs-defense", "circle-of-realms", "ninth-age")


@cache
def demo(ruleset: str) -> tuple[Scenario, Battle, tuple[AttackRequest, ...]]:
    """The demo, its battle and its valid attacks (each with the weapon the rules chose)."""
    scenario = load_scenario(DEMOS / f"{ruleset}.battle.json")
    battle = battle_of(scenario)
    engine = registry.get(ruleset)
    out = []
    for a in scenario.models:
        for t in scenario.models:
            if a.side == t.side:
                continue
            try:
                report = engine.attack(battle, AttackRequest(a.id, t.id))
            except RulesError:
                continue
            if report.valid:
                out.append(AttackRequest(a.id, t.id, report.weapon))
    assert out, f"no valid attack in the {ruleset} demo"
    return scenario, battle, tuple(out[:6])


def feed_all(resolver: Resolver, draws: list[int]) -> list[DieAsk]:
    """Feed faces drawn from ``draws`` (each mapped onto the die asked) until done;
    choices take their defaults. The asks met, in order."""
    asks: list[DieAsk] = []
    i = 0
    while not resolver.done:
        choice = resolver.pending_choice()
        if choice is not None:
            resolver.answer(choice.default)
            continue
        ask = resolver.next_die()
        assert ask is not None
        asks.append(ask)
        resolver.feed(1 + draws[i % len(draws)] % ask.sides)
        i += 1
    return asks


def same(a: Dist, b: Dist) -> None:
    keys = {v for v, _ in a.items()} | {v for v, _ in b.items()}
    for k in keys:
        assert a.prob(k) == pytest.approx(b.prob(k), abs=1e-9)


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(draws=st.lists(st.integers(0, 10_000), min_size=1, max_size=40), pick=st.integers(0, 5))
def test_fed_die_by_die_it_resolves_as_resolve_does(ruleset: str, draws: list[int],
                                                      pick: int) -> None:
    _, battle, requests = demo(ruleset)
    engine = registry.get(ruleset)
    request = requests[pick % len(requests)]
    r = engine.begin(battle, request)
    feed_all(r, draws)
    result = r.result()
    assert result is not None and r.next_die() is None and r.pending_choice() is None
    again = engine.resolve(battle, request, GivenDice(list(r.fed)))
    assert result.to_json() == again.to_json()
    assert result.changes == again.changes
    assert r.rolled == result.dice
    assert r.odds().items() == [(result.damage, 1.0)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_odds_after_k_dice_are_the_odds_given_those_dice(ruleset: str) -> None:
    _, battle, requests = demo(ruleset)
    engine = registry.get(ruleset)
    rng = random.Random(ruleset)
    for request in requests[:3]:
        full = engine.begin(battle, request)
        feed_all(full, [rng.randrange(1000) for _ in range(30)])
        faces = list(full.fed)
        # Circle of Realms: past the defense die, odds_given wants every die
        fixed = sum(1 for d in full.rolled if "dismemberment" not in d.label)
        r = engine.begin(battle, request)
        same(r.odds(), engine.attack(battle, request).distribution)
        for k, face in enumerate(faces):
            if ruleset != "circle-of-realms" or k <= fixed:
                same(r.odds(), engine.odds_given(battle, request, faces[:k]))
            choice = r.pending_choice()
            if choice is not None:
                r.answer(choice.default)
            r.feed(face)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_ask_says_how_many_dice_remain_in_its_step(ruleset: str) -> None:
    _, battle, requests = demo(ruleset)
    engine = registry.get(ruleset)
    rng = random.Random(7)
    for request in requests:
        for _ in range(4):
            asks = feed_all(engine.begin(battle, request),
                            [rng.randrange(1000) for _ in range(40)])
            runs: list[list[DieAsk]] = []
            for ask in asks:
                if runs and runs[-1][-1].step == ask.step and runs[-1][-1].remaining > 1:
                    runs[-1].append(ask)
                else:
                    runs.append([ask])
            for run in runs:
                assert [a.remaining for a in run] == list(range(len(run), 0, -1)), run
                for a in run:
                    assert a.purpose.startswith(f"roll {dice_word(a.remaining)} "), a
                    assert a.step and a.label


def test_warcry_four_attacks_ask_for_four_dice_to_hit() -> None:
    _, battle, requests = demo("warcry")
    engine = registry.get("warcry")
    for request in requests:
        r = engine.begin(battle, request)
        ask = r.next_die()
        assert ask is not None and ask.step == "to hit" and ask.label == "hit roll 1"
        n = ask.remaining
        assert ask.purpose.startswith(f"roll {dice_word(n)} to hit: miss 1")
        for left in range(n, 0, -1):
            nxt = r.next_die()
            assert nxt is not None and nxt.remaining == left
            r.feed(1)
        assert r.done and r.result() is not None and r.result().damage == 0


def test_ninth_age_to_wound_count_is_known_once_the_hits_are() -> None:
    _, battle, requests = demo("ninth-age")
    engine = registry.get("ninth-age")
    for request in requests:
        r = engine.begin(battle, request)
        while (ask := r.next_die()) is not None and ask.step in ("shots", "to hit"):
            r.feed(ask.sides)  # every hit roll a 6
        ask = r.next_die()
        if ask is None or ask.step != "to wound":
            continue
        hits = sum(1 for d in r.rolled if d.outcome.startswith("hit"))
        assert ask.remaining >= hits > 0
        assert ask.purpose.startswith(f"roll {dice_word(ask.remaining)} to wound, ")
        return
    pytest.fail("no Ninth Age attack of the demo reached its to-wound rolls")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_face_the_die_cannot_show_is_refused_naming_the_die(ruleset: str) -> None:
    _, battle, requests = demo(ruleset)
    r = registry.get(ruleset).begin(battle, requests[0])
    ask = r.next_die()
    assert ask is not None
    for bad in (0, ask.sides + 1):
        with pytest.raises(DiceError) as e:
            r.feed(bad)
        assert str(e.value) == (f"die 1 ({ask.label}) shows {bad}, but a d{ask.sides} "
                                f"shows 1 to {ask.sides}")
    assert r.fed == () and r.next_die() == ask  # nothing was taken


def _to_defender_dismemberment(r: Resolver) -> DieAsk:
    """Feed the highest attack and a defense of 1: the defender rolls for a limb."""
    while (ask := r.next_die()) is not None and ask.step == "attack":
        r.feed(ask.sides)
    assert ask is not None and ask.step == "defense"
    r.feed(1)
    ask = r.next_die()
    assert ask is not None and ask.label == "defender dismemberment"
    return ask


def test_circle_asks_the_limb_exactly_on_a_choosers_face() -> None:
    scenario, battle, requests = demo("circle-of-realms")
    engine = registry.get("circle-of-realms")
    faces = DEFAULT_FACES.split(",")
    request = next(q for q in requests
                   if engine.attack(battle, q).extras["damage_type"] == "slashing")
    for face in range(1, len(faces) + 1):
        r = engine.begin(battle, request)
        _to_defender_dismemberment(r)
        r.feed(face)
        choice = r.pending_choice()
        if faces[face - 1] not in CHOOSERS:
            assert choice is None and r.done
            continue
        assert choice is not None and choice.key == "limb_choice" and not r.done
        assert r.next_die() is None and r.result() is None
        assert choice.default == choice.choices[0] and len(choice.labels) == len(choice.choices)
        assert f"dismemberment die {face}" in choice.why
        with pytest.raises(RulesError):
            r.answer("XX")
        with pytest.raises(RulesError):
            r.feed(1)  # a die before the choice is answered
        r.answer("LL")
        result = r.result()
        assert result is not None
        lost = {c.combatant: c.state.get("limbs_lost") for c in result.changes}
        assert "LL" in lost[request.target]
        # the request's value answers it beforehand: nothing is asked
        preset = AttackRequest(request.attacker, request.target, request.weapon,
                               situational={"limb_choice": "RL"})
        r = engine.begin(battle, preset)
        _to_defender_dismemberment(r)
        r.feed(face)
        assert r.pending_choice() is None and r.done
        # resolve takes the default (main hand) when nobody answers
        default = engine.resolve(battle, request, GivenDice(list(r.fed)))
        lost = {c.combatant: c.state.get("limbs_lost") for c in default.changes}
        assert choice.default in lost[request.target]


def test_too_few_given_dice_are_refused_in_each_rulesets_words() -> None:
    _, battle, requests = demo("warcry")
    engine = registry.get("warcry")
    with pytest.raises(DiceError, match=r"too few dice: this attack needs \d+ \(\d+ hit rolls?"):
        engine.resolve(battle, requests[0], GivenDice([3]))
    r = engine.begin(battle, requests[0])
    r.feed(3)
    assert "too few dice" in str(r.shortage(1))
