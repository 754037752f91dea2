"""`tabletop-gui inspect FILE [--json]`: every ordered opposing pair, per docs/cli.md."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from tabletop_gui.cli import main
from tabletop_gui.scenario.load import load_scenario
from tabletop_gui.scenario.save import save_scenario

DEMOS = Path(__file__).resolve().parents[2] / "resources" / "demos"
RULESETS = ["warcry", "fight-vs-defense", "mordheim-warcry", "ninth-age", "circle-of-realms"]
FIELDS = ["attacker", "target", "distance", "horizontal_distance", "vertical_distance",
          "engaged", "visible", "cover", "cover_by", "flanked", "arc", "spaces"]


def run_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["inspect", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.mark.parametrize("rid", RULESETS)
def test_every_opposing_pair_with_the_fields_of_cli_md(rid: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = DEMOS / f"{rid}.battle.json"
    out = run_json(path, capsys)
    sc = load_scenario(path)
    assert out["ruleset"] == rid
    pairs = out["pairs"]
    assert isinstance(pairs, list)
    live = [m for m in sc.models if not sc.taken_down(m)]
    expected = [(a.id, t.id) for a in live for t in live if a.side != t.side]
    assert [(p["attacker"], p["target"]) for p in pairs] == expected
    for p in pairs:
        assert list(p) == FIELDS
        for k in ("distance", "horizontal_distance", "vertical_distance"):
            assert p[k] >= 0 and round(p[k], 3) == p[k]
        if rid in ("ninth-age", "circle-of-realms"):  # 2D measures
            assert p["distance"] == p["horizontal_distance"]
        else:  # 3D: made of its two components (each rounded)
            assert p["distance"] == pytest.approx(
                math.hypot(p["horizontal_distance"], p["vertical_distance"]), abs=2e-3)
        if rid == "ninth-age":
            assert p["cover"] in ("none", "soft", "hard")
            assert p["arc"] in ("front", "left_flank", "right_flank", "rear")
            assert p["spaces"] is None and not p["flanked"]
        elif rid == "circle-of-realms":
            assert p["cover"] == "none" and isinstance(p["spaces"], int)
            assert p["engaged"] == (p["spaces"] <= 1)
        else:
            assert p["cover"] in ("none", "cover") and p["arc"] is None
            assert p["engaged"] == (p["distance"] <= 1)
            assert (p["cover"] == "cover") == bool(p["cover_by"])


def test_pairs_are_symmetric_in_distance_and_sight(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(DEMOS / "warcry.battle.json", capsys)
    by = {(p["attacker"], p["target"]): p for p in out["pairs"]}  # type: ignore[union-attr]
    for (a, t), p in by.items():
        q = by[(t, a)]
        assert p["distance"] == q["distance"] and p["visible"] == q["visible"]


def test_taken_down_fighters_are_left_out(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    sc = load_scenario(DEMOS / "warcry.battle.json")
    down = sc.fighters[0]
    sc = sc.with_entity(replace(down, state={**down.state, "taken_down": True}))
    path = tmp_path / "down.json"
    save_scenario(sc, path)
    out = run_json(path, capsys)
    ids = {p["attacker"] for p in out["pairs"]} | {p["target"] for p in out["pairs"]}  # type: ignore[union-attr]
    assert down.id not in ids and ids


def test_readable_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(DEMOS / "warcry.battle.json")]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert "(warcry)" in lines[0] and "pairs" in lines[0]
    assert lines[1].split()[:3] == ["attacker", "target", "distance"]
    assert set(lines[2].replace(" ", "")) == {"-"}
    assert len(lines) == 3 + int(lines[0].split(": ")[1].split()[0])


def test_bad_file_refused_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nope"}')
    assert main(["inspect", str(bad), "--json"]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and cap.err.strip()
    assert all(line.startswith(str(bad)) for line in cap.err.splitlines())
    assert main(["inspect", str(tmp_path / "missing.json")]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and "missing.json" in cap.err
