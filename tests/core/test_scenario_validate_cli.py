"""`tabletop-gui validate FILE`: exit 0 with a summary, exit 2 with every problem."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop_gui.cli import main
from tabletop_gui.scenario.resources import demo_path
from tests.core.scenario_samples import warcry_doc


def test_valid_file_prints_one_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(demo_path("warcry"))]) == 0
    out, err = capsys.readouterr()
    assert out == "ok: warcry.battle.json — warcry, 10 fighters, 3 obstacles, 1 platform\n"
    assert err == ""


def test_units_and_grid_are_summarised(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(demo_path("ninth-age"))]) == 0
    assert capsys.readouterr().out.startswith("ok: ninth-age.battle.json — ninth-age, 6 units,")
    assert main(["validate", str(demo_path("circle-of-realms"))]) == 0
    assert 'square grid of 1"' in capsys.readouterr().out


def test_bad_file_exits_2_with_every_problem(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    doc = warcry_doc()
    doc["fighters"][0]["base"]["diameter_mm"] = 0
    doc["fighters"][1]["side"] = "green"
    bad = tmp_path / "bad.battle.json"
    bad.write_text(json.dumps(doc))
    assert main(["validate", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"{bad}: fighters[0].base.diameter_mm: must be > 0",
        f'{bad}: fighters[1].side: unknown side "green" (sides: red, blue)',
    ]


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    assert main(["validate", str(missing)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"{missing}: cannot read the file: No such file or directory\n"
    assert main(["validate", str(tmp_path)]) == 2
    assert "cannot read the file" in capsys.readouterr().err


def test_validate_as_a_program(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\x00\xff{{")
    done = subprocess.run([sys.executable, "-m", "tabletop_gui", "validate", str(garbage)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert "not UTF-8 text" in done.stderr
