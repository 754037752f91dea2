"""Benchmark cases for the two worst valid files that `inspect` is asked about (issue 12,
"Hangs on valid input": each answered within 2 s):

- ``inspect_156_units``: a Ninth Age file of 156 units (``battlefields.ninth_age_scenario``),
  every opposing pair's arc, contact, sight and facing cover;
- ``inspect_10000_vertices``: a Warcry file of 40 fighters around one obstacle of 10,000
  vertices, the most a polygon may have (``battlefields.warcry_jagged_scenario``).

Each run is the whole command, `inspect FILE --json`, in-process: the file read and
checked, every pair computed, the JSON printed (into a buffer). The files are written once
into a temporary folder. No reference: the tests (``tests/core/test_inspect_scale.py``)
check the answers; the answer here is the printed JSON.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop_gui.bench.battlefields import ninth_age_scenario, warcry_jagged_scenario
from tabletop_gui.scenario.load_terrain import MAX_VERTICES

UNITS = 156


@functools.cache
def _folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="tabletop-bench-"))


def write_units(path: Path) -> Path:
    """The Ninth Age file of ``UNITS`` units, written at ``path``."""
    path.write_text(json.dumps(ninth_age_scenario(UNITS)))
    return path


def write_vertices(path: Path) -> Path:
    """The Warcry file with an obstacle of ``MAX_VERTICES`` vertices, written at ``path``."""
    path.write_text(json.dumps(warcry_jagged_scenario(MAX_VERTICES, 40)))
    return path


@functools.cache
def units_file() -> Path:
    return write_units(_folder() / "army.battle.json")


@functools.cache
def vertices_file() -> Path:
    return write_vertices(_folder() / "rocks.battle.json")


def inspect_json(path: Path) -> str:
    """What `inspect PATH --json` prints; a refusal raises (the case must answer)."""
    from tabletop_gui.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["inspect", str(path), "--json"])
    if code != 0:
        raise RuntimeError(f"inspect {path} exited {code}: {err.getvalue()}")
    return out.getvalue()


def _case(file: Callable[[], Path]) -> Callable[[], str]:
    return lambda: inspect_json(file())


CASES: dict[str, tuple[Callable[[], Any], Callable[[], Any] | None]] = {
    "inspect_156_units": (_case(units_file), None),
    "inspect_10000_vertices": (_case(vertices_file), None),
}
RUNS = {name: 5 for name in CASES}
QUICK_RUNS = {name: 2 for name in CASES}
