"""Mutants of every demo through the whole command line (issue 12).

Each mutant (numbers at and past their limits, odd strings, attributes, states, models
moved into contact, unknown and missing keys) goes through validate, then - when it is
accepted - inspect (text and JSON), attack (text, JSON, a seeded roll, given dice, random
``--set`` options and weapons), ruling (JSON, the same attack) and move. Every command
must exit 0 or 2 without raising and write nothing on stdout when it refuses; a hang
fails by the suite's timeout (tests never check a time: speed is the benchmark's).

Seeded (``random.Random(seed)``): a failure names its ruleset and seed and replays.
The CLI runs in-process (``tabletop_gui.cli.main``), which is much faster than a process
per command; the FIFO case, which must not block, runs as a process in
test_hostile_inputs.py.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from tabletop_gui.cli import main
from tabletop_gui.rules import registry
from tabletop_gui.rules.fields import OptionSpec
from tabletop_gui.rules.registry import INFOS, RULESET_IDS
from tabletop_gui.scenario.resources import demo_path

DEMOS = {rid: json.loads(demo_path(rid).read_text(encoding="utf-8")) for rid in RULESET_IDS}
# mutants per ruleset; TABLETOP_FUZZ_MUTANTS=300 runs a longer campaign by hand
MUTANTS = int(os.environ.get("TABLETOP_FUZZ_MUTANTS", "20"))

NUMBERS: list[Any] = [0, 1, 2, 3, 6, 7, 10, 20, 100, 101, 1000, 1001, 10_000, 10**6,
                      10**6 + 1, -1, 0.5, 2.5, 1e300, 10**18]
STRINGS = ["", " ", "x", "D6", "2D6", "20D100+100", "D3+101", "1/100", "100/100", "101/1",
           "\u00b2", "6-3", "3-6", "+100", "+101", "-7", "\ud800", "\u202eevil",
           "a\u2028b", "tab\there", "x" * 300]
ATTRIBUTES = ["Multiple Wounds (D3)", "Multiple Wounds (D6+1, Clipped Wings)",
              "Multiple Wounds (20D5)", "Multiple Wounds (\u00b2)", "Multiple Wounds (x)",
              "Extra Support (2)", "Extra Support (100)", "Extra Support (\u00b2)",
              "Area Attack (3x3)", "Area Attack (100x100)", "Area Attack (0x1)",
              "Area Attack (1x3) [Strength 7, AP 4, Multiple Wounds (D3)]",
              "Area Attack (2x2) [Multiple Wounds (x)]", "Area Attack (1x3) [Strength \u00b2]",
              "Devastating Charge (+1 Strength, Poison Attacks)",
              "Devastating Charge (+100 Attack Value)", "Devastating Charge (+x Strength)",
              "Devastating Charge (+1 Strength, Multiple Wounds (x))", "Battle Focus",
              "Poison Attacks", "Lethal Strike", "Fight in Extra Rank", "Shoot in Extra Rank",
              "Volley Fire", "Flaming Attacks", "Divine Attacks", "Hatred", "Crush Attack",
              "Weapon Master", "Toxic Attacks", "Great Weapon", "Parry", "Two-Handed",
              "Accurate", "Unknown Thing", "A" * 250]


def models_of(doc: dict[str, Any]) -> list[dict[str, Any]]:
    key = "units" if doc.get("units") else "fighters"
    items = doc.get(key)
    return [m for m in items if isinstance(m, dict)] if isinstance(items, list) else []


def leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    items = node.items() if isinstance(node, dict) else enumerate(node) \
        if isinstance(node, list) else ()
    for k, v in items:
        out.append((*path, k))
        out.extend(leaves(v, (*path, k)))
    return out


def mutate(doc: dict[str, Any], rng: random.Random) -> None:
    """One change to the models of ``doc``: mostly ones that keep the file valid."""
    models = models_of(doc)
    if not models:
        return
    model = rng.choice(models)
    op = rng.choice(["largest", "largest", "largest", "number", "number", "string",
                     "attributes", "state", "contact", "contact", "unknown", "drop"])
    paths = leaves(model)
    if op == "largest":
        largest(doc["ruleset"], model, rng)
    elif op == "number":
        numeric = [p for p in paths if _is_number(_get(model, p))]
        if numeric:
            _set(model, rng.choice(numeric), rng.choice(NUMBERS))
    elif op == "string":
        text = [p for p in paths if isinstance(_get(model, p), str)]
        if text:
            _set(model, rng.choice(text), rng.choice(STRINGS))
    elif op == "attributes" and doc["ruleset"] == "ninth-age" and model.get("weapons"):
        weapon = rng.choice(model["weapons"])
        weapon["attributes"] = rng.sample(ATTRIBUTES, rng.randint(1, 4))
    elif op == "state":
        state = model.setdefault("state", {})
        key = rng.choice(["taken_down", "charging", "damage", "hp_lost", "limbs_lost"])
        state[key] = {"taken_down": True, "charging": True, "limbs_lost": ["RH", "RL"]}.get(
            key, rng.choice([1, 5, 100]))
    elif op == "contact":
        other = rng.choice(models)
        if isinstance(other.get("x"), int | float) and isinstance(other.get("y"), int | float):
            model["x"] = other["x"] + rng.choice([0, 0.5, 1, -1])
            model["y"] = other["y"] + rng.choice([0, 0.5, 1.5, -1.5, 3])
    elif op == "unknown":
        model[rng.choice(["colour", "\u202e", "x" * 50])] = rng.choice(NUMBERS)
    elif op == "drop" and paths:
        path = rng.choice(paths)
        parent = _get(model, path[:-1])
        if isinstance(parent, dict):
            del parent[path[-1]]


def largest(ruleset: str, model: dict[str, Any], rng: random.Random) -> None:
    """A declared characteristic or weapon field set to the largest value the format
    accepts: every number the loader takes must be one the engine answers quickly."""
    decl = INFOS[ruleset].declaration
    weapons = [w for w in model.get("weapons", []) if isinstance(w, dict)]
    where, specs = rng.choice([(model.get("characteristics"), decl.characteristics),
                               *((w, decl.weapon_fields) for w in weapons)])
    if not isinstance(where, dict):
        return
    spec = rng.choice(specs)
    top = {"int": spec.maximum or 10**6, "number": spec.maximum or 10**6, "die": 100,
           "range": 10**6, "damage": "100/100", "dice": rng.choice(["20D5", "D3+97", 100]),
           "modifier": rng.choice(["+100", 10**6])}.get(spec.kind)
    if top is not None:
        where[spec.name] = top


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        node = node[k]
    return node


def _set(node: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(node, path[:-1])[path[-1]] = value


def option_value(spec: OptionSpec, rng: random.Random) -> str:
    if spec.kind == "bool":
        return rng.choice(["true", "false", "maybe"])
    if spec.kind == "enum":
        return rng.choice([*spec.choices, "nonsense"])
    if spec.kind in ("int", "number"):
        most = spec.maximum if spec.maximum is not None else 10**6
        return str(rng.choice([-1, 0, 1, 3, most, most + 1, 10**6, "1e19", "1e999",
                               "nan", "x"]))
    return rng.choice(["", "Great axe", "Spear", "nothing", "\u202e", "RH,LH"])


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """The command in-process: exit status, stdout, stderr. Any exception
    (a traceback) propagates and fails the test with the command in the message."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse usage errors
            code = int(e.code or 0)
        except Exception as e:  # pragma: no cover - reported as the failure
            raise AssertionError(f"{argv} raised {type(e).__name__}: {e}") from e
    return code, out.getvalue(), err.getvalue()


def check(argv: list[str]) -> tuple[int, str]:
    code, out, err = run_cli(argv)
    shown = " ".join(repr(a) if " " in a or not a else a for a in argv)
    assert code in (0, 2), f"{shown}: exit {code}\n{err}"
    assert "Traceback" not in err, f"{shown}\n{err}"
    if code == 2:
        assert out == "" and err.strip(), f"{shown}: a refusal prints only on stderr"
    else:
        assert out.strip(), f"{shown}: an answer prints something"
    return code, out


def attack_args(doc: dict[str, Any], rng: random.Random) -> list[str]:
    models = models_of(doc)
    ids = [m["id"] for m in models if isinstance(m.get("id"), str)]
    attacker = rng.choice(models)
    enemies = [m["id"] for m in models if m.get("side") != attacker.get("side")]
    target = rng.choice(enemies if enemies and rng.random() < 0.9 else ids)
    argv = ["--attacker", attacker["id"], "--target", target]
    weapons = [w.get("name") for w in attacker.get("weapons", []) if isinstance(w, dict)]
    choice = rng.choice([None, None, "Hand Weapon", "no such weapon", *weapons])
    if isinstance(choice, str):
        argv += ["--weapon", choice]
    specs = INFOS[doc["ruleset"]].situational_options
    if specs and rng.random() < 0.7:
        chosen = rng.sample(specs, rng.randint(1, min(3, len(specs))))
        argv += ["--set", *(f"{s.key}={option_value(s, rng)}" for s in chosen)]
    return argv


def move_path(doc: dict[str, Any], fighter: dict[str, Any], rng: random.Random) -> str:
    grid = doc["battlefield"].get("grid") or {"size": 1}
    size = float(grid["size"])
    x = (int(fighter["x"] // size) + 0.5) * size
    y = (int(fighter["y"] // size) + 0.5) * size
    points = []
    for _ in range(rng.randint(1, 6)):
        x += rng.choice([-1, 0, 1]) * size
        y += rng.choice([-1, 0, 1]) * size
        points.append(f"{x:g},{y:g}")
    return ";".join(points)


@pytest.fixture(autouse=True, scope="module")
def _engines_loaded() -> None:
    """Import every engine once, so that the time bound measures work, not imports."""
    for rid in RULESET_IDS:
        registry.get(rid)


@pytest.mark.parametrize("seed", range(MUTANTS))
@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_every_command_answers_or_refuses_every_mutant_in_time(
        ruleset: str, seed: int, tmp_path: Path) -> None:
    rng = random.Random(f"{ruleset}-{seed}")
    doc = copy.deepcopy(DEMOS[ruleset])
    for _ in range(rng.randint(1, 4)):
        mutate(doc, rng)
    path = tmp_path / "mutant.battle.json"
    path.write_text(json.dumps(doc, ensure_ascii=True), encoding="utf-8")
    file = str(path)

    code, _ = check(["validate", file])
    if code == 2:
        check(["inspect", file])  # refused alike, never a traceback
        return
    check(["inspect", file])
    code, out = check(["inspect", file, "--json"])
    assert code == 0 and json.loads(out)["ruleset"] == ruleset

    for _ in range(2):
        argv = attack_args(doc, rng)
        check(["attack", file, *argv])
        code, out = check(["attack", file, *argv, "--json"])
        if code == 0:
            pairs = json.loads(out)["distribution"]
            assert sum(p for _, p in pairs) == pytest.approx(1.0, abs=1e-9)
        check(["attack", file, *argv, "--seed", str(rng.randrange(10**6)), "--json"])
        faces = [rng.choice([1, 2, 3, 4, 5, 6, 6, 0, 7]) for _ in range(rng.randint(0, 8))]
        check(["attack", file, *argv, "--dice", ",".join(map(str, faces)) or "1"])
        code, out = check(["ruling", file, *argv, "--json"])
        if code == 0:
            assert json.loads(out)["sight"]["lines_total"] == 72

    fighter = rng.choice(models_of(doc))
    check(["move", file, "--fighter", fighter["id"], "--path", move_path(doc, fighter, rng),
           "--json"])
