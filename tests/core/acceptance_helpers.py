"""Raw scenario documents for the acceptance tests: written by hand, field by field as
docs/scenario-format.md names them (never through the project's own writer), so
that the CLI is checked against files a player could have written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tabletop_gui.cli import main

MM = 25.4


def doc(ruleset: str, *, fighters: list[dict[str, Any]] | None = None,
        units: list[dict[str, Any]] | None = None,
        obstacles: list[dict[str, Any]] | None = None,
        platforms: list[dict[str, Any]] | None = None,
        grid: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
        width: float = 48, depth: float = 48) -> dict[str, Any]:
    d: dict[str, Any] = {
        "format": "tabletop-gui/scenario", "schema_version": 1, "name": "acceptance",
        "ruleset": ruleset,
        "battlefield": {"width": width, "depth": depth, "grid": grid},
        "sides": [{"id": "red", "name": "Red", "color": "#c0392b"},
                  {"id": "blue", "name": "Blue", "color": "#2e86c1"}],
        "fighters": fighters or [], "units": units or [],
        "obstacles": obstacles or [], "platforms": platforms or [],
    }
    if options is not None:
        d["ruleset_options"] = options
    return d


def fighter(fid: str, side: str, x: float, y: float, chars: dict[str, Any],
            weapons: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    f: dict[str, Any] = {"id": fid, "name": fid.upper(), "side": side, "x": x, "y": y,
                         "base": {"shape": "round", "diameter_mm": MM},
                         "characteristics": chars, "weapons": weapons}
    f.update(extra)
    return f


def write(tmp_path: Path, d: dict[str, Any], name: str = "s.battle.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(d), encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The CLI in-process: exit status, stdout, stderr (argparse errors included)."""
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def ok_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--json")
    assert (code, err) == (0, ""), err
    return json.loads(out)


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    """Exit 2, nothing on stdout, one non-empty line per problem on stderr."""
    code, out, err = run(capsys, *argv)
    assert code == 2, (code, out, err)
    assert out == ""
    lines = err.rstrip("\n").split("\n")
    assert lines and all(line.strip() for line in lines), err
    assert not any("Traceback" in line for line in lines)
    return lines


def check_distribution(d: dict[str, Any], key: str = "distribution",
                       mean_key: str | None = "expected_damage") -> None:
    pairs = d[key]
    assert all(isinstance(p, list) and len(p) == 2 for p in pairs)
    amounts = [a for a, _ in pairs]
    assert all(isinstance(a, int) and not isinstance(a, bool) for a in amounts)
    assert amounts == sorted(set(amounts))
    assert all(isinstance(p, float | int) and p > 0 for _, p in pairs)
    assert abs(sum(p for _, p in pairs) - 1.0) <= 1e-9
    if mean_key is not None:
        mean = sum(a * p for a, p in pairs)
        assert d[mean_key] == pytest.approx(mean, abs=6e-4)


# -- characteristics and weapons of each ruleset, as the rules pages name them -----------

def wc_chars(toughness: int = 4, wounds: int = 30) -> dict[str, Any]:
    return {"move": 4, "toughness": toughness, "wounds": wounds}


def wc_weapon(name: str = "Sword", rng: Any = 1, attacks: int = 4, strength: int = 4,
              damage: str = "1/3") -> dict[str, Any]:
    return {"name": name, "range": rng, "attacks": attacks, "strength": strength,
            "damage": damage}


def fvd_chars(fight: int = 4, shoot: int = 3, defense: int = 3, wounds: int = 30
              ) -> dict[str, Any]:
    return {"move": 4, "fight": fight, "shoot": shoot, "defense": defense, "wounds": wounds}


def mh_chars(fight: int = 4, shoot: int = 3, armour: int = 0, wounds: int = 30
             ) -> dict[str, Any]:
    return {"move": 4, "fight": fight, "shoot": shoot, "armour": armour, "wounds": wounds}


def v_weapon(name: str = "Blade", kind: str = "melee", rng: Any = 1, attacks: int = 3,
             damage: str = "1/2", **extra: Any) -> dict[str, Any]:
    w = {"name": name, "kind": kind, "range": rng, "attacks": attacks, "damage": damage}
    w.update(extra)
    return w


def na_chars(**over: Any) -> dict[str, Any]:
    c = {"adv": 4, "mar": 8, "dis": 7, "hp": 1, "def": 3, "res": 3, "arm": 0, "att": 1,
         "off": 4, "str": 4, "ap": 0, "agi": 3}
    c.update(over)
    return c


def unit(uid: str, side: str, x: float, y: float, facing: float, models: int, files: int,
         chars: dict[str, Any], weapons: list[dict[str, Any]], **extra: Any
         ) -> dict[str, Any]:
    u: dict[str, Any] = {"id": uid, "name": uid.upper(), "side": side, "x": x, "y": y,
                         "facing": facing, "models": models, "files": files,
                         "base_mm": [20, 20], "characteristics": chars, "weapons": weapons}
    u.update(extra)
    return u


def cor_chars(base_attack: int = 6, defense: int = 6, armour: int = 0, precision: int = 0,
              wounds: int = 20) -> dict[str, Any]:
    return {"base_attack": base_attack, "defense": defense, "armour": armour,
            "precision": precision, "movement": 4, "wounds": wounds}
