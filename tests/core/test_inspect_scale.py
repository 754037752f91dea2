"""Issue 12, "Hangs on valid input": `inspect` of a Ninth Age file with 156 units took 28 s
and of a file with one obstacle of 10,000 vertices (the allowed maximum) 15-19 s; the
issue demands each under 2 s. The files are built by the benchmark's generators
(``bench.battlefields``) and inspected in-process; the timed call is the whole command
(load, every pair, JSON out), after an untimed `inspect` of the ruleset's small demo file
(which imports every module the command uses).

The bound is on the CPU time of the command (``time.process_time``): the suite runs on a
shared 2-core machine where other processes' load stretches wall time without changing
the work (measured here: about 1 s of CPU for 156 units and 0.5 s for the obstacle, wall
time up to twice that when the machine is busy)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tabletop_gui.bench.battlefields import ninth_age_scenario, warcry_jagged_scenario
from tabletop_gui.cli import main
from tabletop_gui.scenario.load_terrain import MAX_VERTICES

BOUND = 2.0  # seconds: the bound
DEMOS = Path(__file__).resolve().parents[2] / "resources" / "demos"


def timed_inspect(path: Path, capsys: pytest.CaptureFixture[str]
                  ) -> tuple[float, float, dict[str, list[dict[str, object]]]]:
    """(CPU seconds, wall seconds, the JSON printed) of `inspect PATH --json`, after an
    untimed `inspect` of the demo file of the same ruleset."""
    ruleset = json.loads(path.read_text())["ruleset"]
    assert main(["inspect", str(DEMOS / f"{ruleset}.battle.json"), "--json"]) == 0
    capsys.readouterr()
    wall, cpu = time.perf_counter(), time.process_time()
    code = main(["inspect", str(path), "--json"])
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert code == 0
    return cpu, wall, json.loads(capsys.readouterr().out)


def test_ninth_age_file_of_156_units_is_inspected_within_2_s(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = ninth_age_scenario(156)
    path = tmp_path / "army.battle.json"
    path.write_text(json.dumps(doc))
    cpu, wall, out = timed_inspect(path, capsys)
    assert len(out["pairs"]) == 2 * 78 * 78
    covers = {p["cover"] for p in out["pairs"]}
    assert covers == {"none", "soft", "hard"}  # facing cover of every kind was computed
    assert cpu < BOUND, f"inspect of 156 units took {cpu:.2f} s of CPU ({wall:.2f} s)"


def test_file_with_an_obstacle_of_the_most_vertices_is_inspected_within_2_s(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = warcry_jagged_scenario(MAX_VERTICES, 40)
    assert len(doc["obstacles"][0]["polygon"]) == MAX_VERTICES  # type: ignore[index]
    path = tmp_path / "rocks.battle.json"
    path.write_text(json.dumps(doc))
    cpu, wall, out = timed_inspect(path, capsys)
    assert len(out["pairs"]) == 2 * 20 * 20
    assert any(not p["visible"] for p in out["pairs"])
    assert any(p["cover"] == "cover" for p in out["pairs"])
    assert cpu < BOUND, (f"inspect with a {MAX_VERTICES}-vertex obstacle took {cpu:.2f} s of "
                         f"CPU ({wall:.2f} s)")
