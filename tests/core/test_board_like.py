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
