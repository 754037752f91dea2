"""Scenario look-ups by id: the same answers as a scan in file order, computed once per
scenario value (a 2,000-model roster asked them 32,000 times per edit)."""

from __future__ import annotations

from dataclasses import replace

from tabletop_gui.scenario.entities import (
    Battlefield,
    Fighter,
    Obstacle,
    RoundBase,
    Scenario,
    Side,
)


def _fighter(fid: str, x: float) -> Fighter:
    return Fighter(fid, f"F {fid}", "red", x, 1.0, RoundBase(32),
                   characteristics={"move": 4, "toughness": 4, "wounds": 10})


def _scenario(fighters: tuple[Fighter, ...], obstacles: tuple[Obstacle, ...] = ()) -> Scenario:
    return Scenario("warcry", Battlefield(30, 22), (Side("red"), Side("blue")),
                    fighters=fighters, obstacles=obstacles)


def test_lookups_by_id_match_a_scan_in_file_order() -> None:
    wall = Obstacle("w1", ((0, 0), (1, 0), (1, 1)), 1.0, "Wall")
    s = _scenario(tuple(_fighter(f"f{k}", k) for k in range(50)), (wall,))
    for e in s.entities:
        assert s.entity(e.id) is next(x for x in s.entities if x.id == e.id)
    assert s.model("f17") is s.fighters[17]
    assert s.model("w1") is None  # terrain is not a model
    assert s.entity("w1") is wall
    assert s.entity("nope") is None and s.model("nope") is None


def test_the_index_by_id_answers_as_entity_does() -> None:
    """``by_id`` (the look-up of callers asking of a thousand ids) is ``entity``'s."""
    wall = Obstacle("w1", ((0, 0), (1, 0), (1, 1)), 1.0, "Wall")
    shared = Obstacle("f3", ((0, 0), (1, 0), (1, 1)), 1.0, "Rock")
    s = _scenario(tuple(_fighter(f"f{k}", k) for k in range(10)), (wall, shared))
    assert set(s.by_id) == {e.id for e in s.entities}
    for e in s.entities:
        assert s.by_id[e.id] is s.entity(e.id)
    assert s.by_id["f3"] is s.fighters[3] and s.by_id.get("nope") is None
    moved = s.with_entity(s.fighters[0].moved_to(9.0, 9.0))
    assert moved.by_id["f0"].x == 9.0 and s.by_id["f0"].x == 0.0


def test_a_model_wins_an_id_it_shares_with_terrain() -> None:
    shared = Obstacle("x", ((0, 0), (1, 0), (1, 1)), 1.0, "Rock")
    s = _scenario((_fighter("x", 3.0),), (shared,))
    assert s.model("x") is s.fighters[0]
    assert s.entity("x") is s.fighters[0]


def test_an_edited_scenario_answers_from_its_own_entities() -> None:
    s = _scenario((_fighter("a", 1.0), _fighter("b", 2.0)))
    assert s.model("a") is not None  # look-ups computed for s
    moved = s.with_entity(s.fighters[0].moved_to(9.0, 9.0))
    assert moved.model("a").x == 9.0 and s.model("a").x == 1.0
    renamed = replace(s, fighters=(replace(s.fighters[0], id="z"), s.fighters[1]))
    assert renamed.model("a") is None and renamed.model("z") is not None
    assert s == _scenario((_fighter("a", 1.0), _fighter("b", 2.0)))  # caches are not fields
