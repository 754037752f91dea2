"""An edit of one entity of a scenario of thousands (a drag step) checks that entity,
not all of them again: each model knows once whether it has weapons its ruleset's field
kinds have not read, and ``with_entity`` hands its look-ups on with that entity's
entries made again. The answers are those of a scenario built afresh."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tabletop_gui.rules.base import RulesError
from tabletop_gui.rules.warcry_family.weapons import profile_of
from tabletop_gui.scenario.entities import (
    Battlefield,
    Fighter,
    Obstacle,
    Platform,
    RoundBase,
    Scenario,
    Side,
    Weapon,
)


def _bow(rng: str = "3-12") -> Weapon:
    return Weapon("Bow", {"range": rng, "attacks": 2, "strength": 3, "damage": "1/2"})


def _fighter(fid: str, x: float, weapons: tuple[Weapon, ...] = ()) -> Fighter:
    return Fighter(fid, f"F {fid}", "red", x, 1.0, RoundBase(32),
                   characteristics={"move": 4, "toughness": 4, "wounds": 10},
                   weapons=weapons)


def _scenario(fighters: tuple[Fighter, ...], obstacles: tuple[Obstacle, ...] = (),
              platforms: tuple[Platform, ...] = ()) -> Scenario:
    return Scenario("warcry", Battlefield(30, 22), (Side("red"), Side("blue")),
                    fighters=fighters, obstacles=obstacles, platforms=platforms)


def _afresh(s: Scenario) -> Scenario:
    """The same scenario built from its collections (nothing handed on)."""
    return Scenario(s.ruleset, s.battlefield, s.sides, s.name, dict(s.ruleset_options),
                    tuple(s.fighters), tuple(s.units), tuple(s.obstacles),
                    tuple(s.platforms))


def _same_answers(s: Scenario) -> None:
    fresh = _afresh(s)
    assert s == fresh
    ids = {e.id for e in s.entities} | {"nope"}
    for i in ids:
        assert s.entity(i) is next((e for e in s.entities if e.id == i), None), i
        assert s.entity(i) == fresh.entity(i) and s.model(i) == fresh.model(i)
        first_model = next((m for m in s.models if m.id == i), None)
        assert s.model(i) is (first_model if s.entity(i) is first_model else None)


def test_edits_answer_as_a_scenario_built_afresh() -> None:
    """Random moves, renames into a shared id, appended fighters and terrain sharing
    ids with models: after each edit the look-ups are those of a scan in file order."""
    rnd = random.Random(17)
    rock = Obstacle("x", ((0, 0), (1, 0), (1, 1)), 1.0, "Rock")
    hill = Platform("p", ((2, 2), (4, 2), (4, 4)), 2.0, "Hill")
    s = _scenario(tuple(_fighter(f"f{k}", k) for k in range(12)), (rock,), (hill,))
    s.entity("f0")  # look-ups computed: the edits hand them on
    for step in range(120):
        what = rnd.random()
        if what < 0.5:
            m = rnd.choice(s.fighters)
            s = s.with_entity(m.moved_to(rnd.uniform(1, 29), rnd.uniform(1, 21)))
        elif what < 0.7:
            s = s.with_entity(_fighter(rnd.choice(["x", "p", f"n{step}", "f3"]), 5.0))
        elif what < 0.85:
            s = s.with_entity(replace(rock, id=rnd.choice(["x", "f1", f"o{step}"])))
        else:
            s = s.with_entity(replace(hill, id=rnd.choice(["p", "x", "f2"]), height=step))
        _same_answers(s)


def test_an_edit_replaces_every_entity_of_that_id_in_its_collection() -> None:
    twice = _scenario((_fighter("a", 1.0), _fighter("b", 2.0), _fighter("a", 3.0)))
    twice.model("a")
    moved = twice.with_entity(_fighter("a", 9.0))
    assert [m.x for m in moved.fighters] == [9.0, 2.0, 9.0]
    assert moved.model("a") is moved.fighters[0]
    _same_answers(moved)


def test_a_code_built_weapon_is_read_when_its_model_is_edited() -> None:
    s = _scenario((_fighter("a", 1.0), _fighter("b", 2.0)))
    s.model("a")
    armed = s.with_entity(_fighter("b", 4.0, (_bow(),)))
    bow = armed.model("b").weapons[0]  # type: ignore[union-attr]
    assert bow.parsed and profile_of(bow, "b").range.minimum == 3
    assert armed.fighters[1] is armed.model("b")  # the look-up gives the read model
    _same_answers(armed)


def test_an_unreadable_weapon_is_still_refused_with_its_message_after_edits() -> None:
    """A weapon that does not fit stays unread through any number of edits, of its own
    model or of others, and the rules refuse it naming it; a fixed one is read."""
    bad = _fighter("a", 1.0, (_bow("12-3"),))
    s = _scenario((bad, _fighter("b", 2.0)))
    assert s.model("a").unread_weapons  # type: ignore[union-attr]
    for k in range(3):
        s = s.with_entity(s.model("b").moved_to(3.0 + k, 1.0))  # type: ignore[union-attr]
        s = s.with_entity(s.model("a").moved_to(1.0, 2.0 + k))  # type: ignore[union-attr]
        a = s.model("a")
        assert a is not None and a.unread_weapons and a.weapons[0].parsed == {}
        with pytest.raises(RulesError, match="a weapon 'Bow'"):
            profile_of(a.weapons[0], "a")
        _same_answers(s)
    fixed = s.with_entity(replace(s.model("a"), weapons=(_bow("3-12"),)))
    assert fixed.model("a").weapons[0].parsed  # type: ignore[union-attr]
    assert not fixed.model("a").unread_weapons  # type: ignore[union-attr]


def test_a_scenario_with_an_unreadable_weapon_keeps_its_models() -> None:
    """Nothing could be read: the models are the very values given (no copy of each
    at every edit), and the scenario equals one built afresh."""
    bad = _fighter("a", 1.0, (_bow("12-3"),))
    other = _fighter("b", 2.0)
    s = _scenario((bad, other))
    assert s.fighters[0] is bad and s.fighters[1] is other
    edited = s.with_entity(other.moved_to(5.0, 5.0))
    assert edited.fighters[0] is bad
    assert edited == _afresh(edited)


def test_another_ruleset_reads_what_the_first_could_not() -> None:
    """What was checked is known per model, and read again under the scenario's
    ruleset: a weapon unread in a scenario with no ruleset is read once it has one."""
    bow = _bow()
    nothing = Scenario("", Battlefield(30, 22), (Side("red"),),
                       fighters=(_fighter("a", 1.0, (bow,)),))
    assert nothing.fighters[0].weapons[0].parsed == {}
    warcry = replace(nothing, ruleset="warcry")
    assert warcry.fighters[0].weapons[0].parsed


def _by_replace(s: Scenario, entity: Fighter | Obstacle) -> Scenario:
    """``with_entity`` the obvious way: the collection rebuilt, the scenario made by
    ``dataclasses.replace`` (its ``__post_init__`` reading every model's weapons)."""
    attr = "fighters" if isinstance(entity, Fighter) else "obstacles"
    items = getattr(s, attr)
    if any(e.id == entity.id for e in items):
        new = tuple(entity if e.id == entity.id else e for e in items)
    else:
        new = (*items, entity)
    return replace(s, **{attr: new})


@pytest.mark.parametrize("seed", range(5))
def test_edits_without_a_walk_over_every_model_give_the_scenario_replace_gives(
        seed: int) -> None:
    """A scenario whose weapons are all read skips the walk over every model when one
    entity is replaced or added (a drag step): random edits, moves and new fighters with
    weapons readable or not, weapons fixed, terrain; every step equals, model by model
    and by identity, the scenario ``dataclasses.replace`` makes."""
    rnd = random.Random(seed)
    s = _scenario(tuple(_fighter(f"f{i}", 1.0 + i, (_bow(),) if i % 2 else ())
                        for i in range(12)))
    fast = 0
    for step in range(80):
        kind = rnd.random()
        if kind < 0.6:  # a model moved (a drag step), or its weapons changed
            m = rnd.choice(s.fighters)
            e: Fighter | Obstacle = m.moved_to(rnd.uniform(1, 29), rnd.uniform(1, 21))
            if rnd.random() < 0.2:
                e = replace(m, weapons=(_bow(rnd.choice(("3-12", "12-3", "6"))),))
        elif kind < 0.8:  # a new fighter, its bow readable or not
            e = _fighter(f"n{step}", rnd.uniform(1, 29), (_bow(rnd.choice(("3-9", "9-3"))),))
        else:
            e = Obstacle(f"o{rnd.randint(0, 3)}", ((1, 1), (2, 1), (2, 2)), 1.0, "Wall")
        expected = _by_replace(s, e)
        fast += bool(vars(s).get("_all_read"))
        s = s.with_entity(e)
        assert s == expected
        for attr in ("fighters", "obstacles"):  # the others are the very same values
            assert all(a is b for a, b in zip(getattr(s, attr), getattr(expected, attr),
                                              strict=True) if a.id != e.id)
        assert [m.unread_weapons for m in s.fighters] == [
            m.unread_weapons for m in expected.fighters]
        assert vars(s)["_all_read"] == (not any(m.unread_weapons for m in s.models))
        _same_answers(s)
    assert 0 < fast < 80  # both ways were taken
