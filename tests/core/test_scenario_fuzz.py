"""Fuzzing the loader: mutated demo files only ever give a ScenarioError with places.

Mutations: wrong types, missing and unknown keys, NaN/Infinity, huge and negative numbers,
broken polygons, repeated ids, deep nesting and garbage bytes. A mutated file that still
loads must round-trip and convert to a Board.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_gui.rules.registry import RULESET_IDS
from tabletop_gui.scenario.battle import board_of
from tabletop_gui.scenario.load import loads_scenario
from tabletop_gui.scenario.problems import Problem, ScenarioError
from tabletop_gui.scenario.resources import demo_path
from tabletop_gui.scenario.save import dumps_scenario

DEMOS = [json.loads(demo_path(r).read_text(encoding="utf-8")) for r in RULESET_IDS]
Path = tuple[Any, ...]

nasty_numbers = st.sampled_from([0, -1, -0.0, 1e308, -1e308, 1e-308, 2**63, 10**40, 0.5,
                                 float("nan"), float("inf"), float("-inf")])
scalars = st.one_of(st.none(), st.booleans(), nasty_numbers, st.integers(-10**6, 10**6),
                    st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from(["", "6-3", "3-6", "1/3", "x/y", "D3", "+2", "#fff",
                                     "round", "warcry", "f1", "red", "\u0000", "é" * 3]),
                    st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8)


def all_paths(node: Any, path: Path = ()) -> list[Path]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out.extend(all_paths(v, (*path, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(all_paths(v, (*path, i)))
    return out


def parent_of(doc: Any, path: Path) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def mutate(doc: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    paths = [p for p in all_paths(doc) if p]
    path = data.draw(st.sampled_from(paths))
    parent, key = parent_of(doc, path), path[-1]
    op = data.draw(st.sampled_from(["replace", "delete", "extra", "duplicate", "nest",
                                    "polygon", "swap"]))
    if op == "replace":
        parent[key] = data.draw(values)
    elif op == "delete":
        del parent[key]
    elif op == "extra" and isinstance(parent[key], dict):
        parent[key][data.draw(st.text(max_size=6))] = data.draw(values)
    elif op == "duplicate" and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[key]))
    elif op == "nest":
        depth = data.draw(st.integers(1, 60))
        parent[key] = json.loads("[" * depth + json.dumps(parent[key]) + "]" * depth)
    elif op == "polygon":
        terrain = doc.get("obstacles") or doc.get("platforms") or []
        poly = terrain[0].get("polygon") if terrain and isinstance(terrain[0], dict) else None
        if isinstance(poly, list) and len(poly) >= 3:
            cut = data.draw(st.integers(0, len(poly)))
            terrain[0]["polygon"] = data.draw(st.sampled_from([
                poly[:cut], poly[::-1], [poly[0], poly[2], poly[1], *poly[3:]],
                [*poly, poly[0], poly[1]], [[0, 0]] * 4]))
    elif op == "swap":
        parent[key] = data.draw(st.sampled_from(["1", 1, True, [], {}, None]))
    return doc


def garble(raw: bytes, data: st.DataObject) -> bytes:
    op = data.draw(st.sampled_from(["truncate", "insert", "flip"]))
    at = data.draw(st.integers(0, len(raw)))
    if op == "truncate":
        return raw[:at]
    if op == "insert":
        return raw[:at] + data.draw(st.binary(min_size=1, max_size=8)) + raw[at:]
    if not raw:
        return raw
    at = min(at, len(raw) - 1)
    return raw[:at] + bytes([raw[at] ^ data.draw(st.integers(1, 255))]) + raw[at + 1:]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_files_only_ever_raise_scenario_error(data: st.DataObject) -> None:
    doc = copy.deepcopy(data.draw(st.sampled_from(DEMOS)))
    for _ in range(data.draw(st.integers(1, 3))):
        doc = mutate(doc, data)
    raw = json.dumps(doc, allow_nan=True, ensure_ascii=data.draw(st.booleans())).encode()
    if data.draw(st.integers(0, 4)) == 0:
        raw = garble(raw, data)
    try:
        scenario = loads_scenario(raw)
    except ScenarioError as e:
        assert e.problems and all(isinstance(p, Problem) and p.message for p in e.problems)
        assert len(str(e).splitlines()) == len(e.problems)
        return
    again = loads_scenario(dumps_scenario(scenario))
    assert again == scenario
    board_of(scenario)
