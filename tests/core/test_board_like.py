"""``board_of(scenario, like=...)`` reuses the bodies of the very same model objects: on
random edits (a few models moved, turned, taken down or replaced, models added, removed
or reordered) the board equals the one made afresh, body by body (issue 17)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tabletop_gui.bench.cases_gui import army_scenario
from tabletop_gui.scenario.battle import board_of


@pytest.mark.parametrize("seed", range(6))
def test_a_board_like_another_equals_one_made_afresh(seed: int) -> None:
    rng = random.Random(seed)
    scenario = army_scenario(60)
    board = board_of(scenario)
    for _ in range(25):
        models = list(scenario.fighters)
        kind = rng.choice(["move", "move", "many", "down", "add", "remove", "shuffle"])
        if kind == "move":
            i = rng.randrange(len(models))
            m = models[i]
            models[i] = replace(m, x=m.x + rng.uniform(-1, 1), facing=rng.uniform(0, 360))
        elif kind == "many":  # more than a quarter: the look-up by identity
            for i in rng.sample(range(len(models)), len(models) // 2):
                models[i] = replace(models[i], y=models[i].y + 0.5)
        elif kind == "down":
            i = rng.randrange(len(models))
            models[i] = replace(models[i], state={"taken_down": rng.random() < 0.5})
        elif kind == "add":
            models.append(replace(models[0], id=f"new{rng.randrange(10**6)}", x=20.0))
        elif kind == "remove" and len(models) > 2:
            models.pop(rng.randrange(len(models)))
        else:
            rng.shuffle(models)
        new = replace(scenario, fighters=tuple(models))
        derived = board_of(new, like=(scenario, board))
        afresh = board_of(new)
        assert derived.bodies == afresh.bodies
        assert derived == afresh
        scenario, board = new, derived


def _one_changed_pair_by_pair(old, new, entity_id: str) -> bool:  # noqa: ANN001
    """The obvious walk: every pair of models, same ids, equal unless ``entity_id``."""
    if len(old.models) != len(new.models) or old.obstacles != new.obstacles \
            or old.platforms != new.platforms or old.battlefield != new.battlefield:
        return False
    return all(a.id == b.id and (a is b or a.id == entity_id or a == b)
               for a, b in zip(old.models, new.models, strict=True))


@pytest.mark.parametrize("seed", range(4))
def test_one_model_changed_equals_the_pair_by_pair_walk(seed: int) -> None:
    """``Snapshot.moved``'s check that only one model differs (found in C, then only the
    changed ones compared) answers what the pair-by-pair walk answers (issue 17)."""
    from tabletop_gui.scenario.snapshot import _one_model_changed

    rng = random.Random(seed)
    base = army_scenario(40)
    answers = set()
    for _ in range(60):
        models = list(base.fighters)
        for _ in range(rng.choice([0, 1, 1, 2])):
            i = rng.randrange(len(models))
            kind = rng.choice(["moved", "copy", "id", "drop"])
            if kind == "moved":
                models[i] = replace(models[i], x=models[i].x + 1)
            elif kind == "copy":  # another object, an equal value
                models[i] = replace(models[i])
            elif kind == "id":
                models[i] = replace(models[i], id=f"other{i}")
            else:
                models.pop(i)
        new = replace(base, fighters=tuple(models))
        if rng.random() < 0.1:
            new = replace(new, obstacles=())
        entity = rng.choice([m.id for m in base.fighters])
        got = _one_model_changed(base, new, entity)
        assert got == _one_changed_pair_by_pair(base, new, entity)
        answers.add(got)
    assert answers == {True, False}
