"""The largest battlefields of issue 12, written as scenario files for the GUI tests."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tabletop_gui.bench.cases_window import warcry_crowd_scenario
from tabletop_gui.scenario.save import save_scenario

DEMOS = Path(__file__).resolve().parents[2] / "resources" / "demos"


def warcry_crowd(path: Path, fighters: int = 2000) -> Path:
    """``warcry_crowd_scenario(fighters)`` (the benchmark's 2,000-fighter board: two armies
    in ranks of 50 facing each other across a 6" gap, a wall and a tower) saved to ``path``."""
    save_scenario(warcry_crowd_scenario(fighters), path)
    return path


def ninth_age_host(path: Path, copies: int = 26, across: int = 6) -> Path:
    """The Ninth Age demo (6 units, its forest, wall, tower and hill) ``copies`` times,
    ``across`` tables side by side: 156 units on 288" x 180" by default."""
    demo = json.loads((DEMOS / "ninth-age.battle.json").read_text(encoding="utf-8"))
    width, depth = demo["battlefield"]["width"], demo["battlefield"]["depth"]
    out: dict[str, list[dict[str, Any]]] = {"units": [], "obstacles": [], "platforms": []}
    for k in range(copies):
        dx, dy = (k % across) * width, (k // across) * depth
        for unit in demo["units"]:
            u = copy.deepcopy(unit)
            u.update(id=f"{u['id']}_{k}", name=f"{u['name']} {k}", x=u["x"] + dx,
                     y=u["y"] + dy)
            out["units"].append(u)
        for kind in ("obstacles", "platforms"):
            for piece in demo[kind]:
                p = copy.deepcopy(piece)
                p.update(id=f"{p['id']}_{k}",
                         polygon=[[x + dx, y + dy] for x, y in p["polygon"]])
                out[kind].append(p)
    demo.update(out)
    demo["name"] = f"{len(out['units'])} units"
    demo["battlefield"].update(width=width * across, depth=depth * -(-copies // across))
    path.write_text(json.dumps(demo), encoding="utf-8")
    return path
