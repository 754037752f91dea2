"""`tabletop-gui ruling` (docs/cli.md, docs/rulings.md): hidden edge cases with answers
computed by hand (``ruling_cases``), the JSON contract, and the tipping-point geometry.

The pictures (`--out`) are tested with Qt in tests/gui/test_ruling_picture.py."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tabletop_gui.cli import main
from tabletop_gui.geometry import unit_arcs
from tabletop_gui.geometry.board import Body, Footprint, Formation
from tabletop_gui.geometry.tipping import arc_turn, gap_for
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest
from tabletop_gui.rules.ruling import build_ruling
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.load import load_scenario
from tabletop_gui.scenario.resources import demo_path
from tests.core import ruling_cases as rc

TOP_KEYS = {"ruleset", "attacker", "target", "weapon", "facts", "closest_points", "sight",
            "checks", "valid", "reasons", "tipping_points"}
FACT_KEYS = {"distance", "horizontal_distance", "vertical_distance", "engaged", "visible",
             "cover", "cover_by", "flanked", "arc", "spaces"}
CHECK_KEYS = {"rule", "ok", "text", "value", "threshold", "margin"}
TOL = 1e-6  # inches: the cases are exact up to rounding


def ruling_json(capsys: pytest.CaptureFixture[str], path: Path, attacker: str, target: str,
                *extra: str) -> dict[str, Any]:
    code = main(["ruling", str(path), "--attacker", attacker, "--target", target, "--json",
                 *extra])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    out: dict[str, Any] = json.loads(captured.out)
    assert set(out) == TOP_KEYS
    assert set(out["facts"]) == FACT_KEYS
    assert all(set(c) == CHECK_KEYS for c in out["checks"])
    assert all(set(t) == {"rule", "text"} for t in out["tipping_points"])
    return out


def tipping(out: dict[str, Any], rule: str) -> list[str]:
    return [t["text"] for t in out["tipping_points"] if t["rule"] == rule]


def check(out: dict[str, Any], rule: str) -> dict[str, Any]:
    found = [c for c in out["checks"] if c["rule"] == rule]
    assert len(found) == 1, out["checks"]
    return found[0]


def test_two_ovals_exactly_one_inch_apart_are_engaged(tmp_path, capsys):
    out = ruling_json(capsys, rc.write(tmp_path, "ovals", rc.OVALS), "a", "t")
    f = out["facts"]
    assert f["distance"] == pytest.approx(1.0, abs=TOL) and f["engaged"] is True
    assert f["vertical_distance"] == 0.0 and f["visible"] and f["cover"] == "none"
    (ax, ay, az), (bx, by, bz) = out["closest_points"]
    assert (ax, ay, az) == pytest.approx((11.0, 10.0, 0.0), abs=TOL)
    assert (bx, by, bz) == pytest.approx((12.0, 10.0, 0.0), abs=TOL)
    rng = check(out, "range")  # a 1" sword: exactly at its limit, still in range
    assert rng["ok"] and rng["threshold"] == 1.0 and rng["margin"] == pytest.approx(0, abs=TOL)
    assert out["valid"] and out["reasons"] == []
    assert tipping(out, "engaged") == [
        'exactly 1" apart, which is engaged: any move apart and they are not']
    assert tipping(out, "range") == [
        "exactly at the limit: any move further away and t is out of range"]
    assert out["sight"] == {"visible": True, "lines_total": 72, "lines_clear": 72,
                            "blocked_by": []}


def test_a_sight_line_grazing_corners_is_clear(tmp_path, capsys):
    out = ruling_json(capsys, rc.write(tmp_path, "graze", rc.GRAZING), "a", "t")
    assert out["sight"] == {"visible": True, "lines_total": 72, "lines_clear": 54,
                            "blocked_by": ["low", "high"]}
    f = out["facts"]
    assert f["visible"] is True and f["cover"] == "none" and f["cover_by"] == []
    assert f["distance"] == pytest.approx(9.0, abs=TOL)
    assert out["closest_points"] == [pytest.approx([10.5, 10.0, 0.0], abs=TOL),
                                     pytest.approx([19.5, 10.0, 0.0], abs=TOL)]
    assert check(out, "visible")["ok"]
    # out of the 8" bow's range by exactly 1"
    assert check(out, "range")["margin"] == pytest.approx(-1.0, abs=TOL)
    assert tipping(out, "range") == ['1.00" closer and t is in range']
    # a sideways step of any size puts an apex inside every line: searched, and said so
    (sight,) = tipping(out, "visible")
    assert sight.startswith('t less than 0.01" ') and "closes the line of sight" in sight
    assert '(searched: t moved in 8 directions, steps of 0.05" up to 6", to 0.01")' in sight


def test_the_grazing_lines_are_the_ones_counted(tmp_path):
    scenario = load_scenario(rc.write(tmp_path, "graze", rc.GRAZING))
    battle = battle_of(scenario)
    ruleset = registry.get("warcry")
    ruling = build_ruling(ruleset, battle, ruleset.attack(battle, AttackRequest("a", "t")),
                          search_sight=False)
    blocked = {(s.path, s.blocked_by) for s in ruling.lines if not s.clear}
    # the outer paths, every height: along the left side (y = 10.5) through the upper
    # triangle, along the right side (y = 9.5) through the lower one
    assert blocked == {(1, ("high",)), (2, ("low",))}
    assert sum(1 for s in ruling.lines if not s.clear) == 18
    left = [s for s in ruling.lines if s.path == 1]
    assert {s.start[:2] for s in left} == {(10.0, 10.5)}
    assert {s.end[:2] for s in left} == {(20.0, 10.5)}


@pytest.mark.parametrize("case, far, counts", [
    (rc.WALL_NEAR_TARGET, 4.5, True),  # 0.5" from the target: cover
    (rc.WALL_NEAR_ATTACKER, 0.3, False),  # within the ignored half inch: none
    (rc.WALL_AT_HALF_INCH, 0.5, False),  # ends exactly at it: nothing beyond, none
])
def test_warcry_cover_and_the_half_inch_next_to_the_attacker(tmp_path, capsys, case, far,
                                                             counts):
    out = ruling_json(capsys, rc.write(tmp_path, "wall", case), "a", "t")
    f = out["facts"]
    assert f["distance"] == pytest.approx(5.0, abs=TOL) and not f["engaged"]
    assert (f["cover"], f["cover_by"]) == (("cover", ["w1"]) if counts else ("none", []))
    assert out["sight"]["lines_clear"] == 72  # a low wall that does not block sight
    (text,) = tipping(out, "cover")
    assert f'leaves it {far:.2f}" from a\'s base' in text
    if counts:
        assert text.startswith("cover from Wall (w1)")
        assert '4.00" beyond the ignored ½"' in text
    elif far < 0.5:
        assert text.startswith("no cover from Wall (w1)")
        assert 'would give cover if it reached 0.20" further from the base' in text
    else:
        assert "exactly at the end of the ignored ½\"" in text


@pytest.mark.parametrize("height, cover", [(3.0, True), (2.5, False)])
def test_platform_three_inches_versus_two_and_a_half(tmp_path, capsys, height, cover):
    out = ruling_json(capsys, rc.write(tmp_path, "tower", rc.platform_case(height)), "a", "t")
    f = out["facts"]
    assert f["horizontal_distance"] == pytest.approx(5.0, abs=TOL)
    assert f["vertical_distance"] == pytest.approx(height, abs=TOL)
    assert f["distance"] == pytest.approx(math.hypot(5.0, height), abs=1e-3)
    assert out["closest_points"] == [pytest.approx([10.5, 10.0, 0.0], abs=TOL),
                                     pytest.approx([15.5, 10.0, height], abs=TOL)]
    assert (f["cover"], f["cover_by"]) == (("cover", ["p1"]) if cover else ("none", []))
    (text,) = tipping(out, "cover")
    if cover:
        assert text == ('cover from Tower (p1): t stands 3.00" above a, and 3" or more '
                        "counts (exactly at the limit: any lower and it would not)")
    else:
        assert text == ('no cover from Tower (p1): t stands 2.50" above a, 0.50" short of '
                        'the 3" that counts')
    # range 8" in 3D: the gap on the table may grow to sqrt(64 - h^2)
    room = math.sqrt(64 - height * height) - 5.0
    assert tipping(out, "range") == [
        f'out of range if t were more than {room:.2f}" further away (on the table; '
        f'{height:.2f}" apart in height)']
    assert tipping(out, "engaged") == [
        f'not engaged at any distance on the table: {height:.2f}" apart in height, '
        'more than 1"']


def test_a_unit_exactly_on_a_135_degree_line_is_in_the_flank(tmp_path, capsys):
    out = ruling_json(capsys, rc.write(tmp_path, "arc", rc.ARC_LINE), "s", "u")
    f = out["facts"]
    assert f["arc"] == "right_flank"
    assert f["distance"] == pytest.approx(math.sqrt(32) - 1, abs=1e-3)
    (text,) = tipping(out, "arc")
    anticlockwise = 2 * math.degrees(math.atan2(5, 6.5))  # 75.14°
    assert text == ("s is in the right flank arc of u (exactly on a 135° line: ties go to "
                    "the flank); turning u about its centre: any turn clockwise puts s in "
                    f"the front arc, more than {anticlockwise:.1f}° anticlockwise puts s in "
                    "the rear arc")


def _unit(x: float, y: float, facing: float, files: int, ranks: int) -> Body:
    fp = Footprint("rect", x, y, float(ranks), float(files), facing)
    return Body("u", "blue", fp, formation=Formation(files * ranks, files, 1.0, 1.0))


def test_arc_turns_from_the_front_are_the_angles_to_the_lines():
    # a point 10" straight ahead of a 5" x 2" unit: the lines through (±2.5, 1) at 45°
    # meet the circle of radius 10 at 45° + asin((1 - 2.5) / (10 sqrt 2)) = 38.91°, so a
    # turn of 90° - 38.91° = 51.09° either way puts the point on a line: the flank
    body = _unit(0.0, 0.0, 90.0, 5, 2)
    turn = arc_turn(body, (0.0, 10.0))
    expected = 90.0 - (45.0 + math.degrees(math.asin(-1.5 / (10 * math.sqrt(2)))))
    assert turn.arc == "front" and not turn.on_line
    assert turn.clockwise == pytest.approx(expected, abs=1e-9)
    assert turn.anticlockwise == pytest.approx(expected, abs=1e-9)
    assert (turn.clockwise_arc, turn.anticlockwise_arc) == ("left_flank", "right_flank")
    # the answer agrees with the arcs themselves just before and at the turn
    for sign, arc in ((-1, "left_flank"), (1, "right_flank")):
        before = _unit(0.0, 0.0, 90.0 + sign * (expected - 1e-6), 5, 2)
        at = _unit(0.0, 0.0, 90.0 + sign * expected, 5, 2)
        assert unit_arcs.arc_of_point(before, (0.0, 10.0)) == "front"
        assert unit_arcs.arc_of_point(at, (0.0, 10.0)) == arc


def test_a_round_unit_has_no_turn_that_changes_its_arc():
    body = Body("m", "blue", Footprint("circle", 0, 0, 2, 2, 90),
                formation=Formation(1, 1, 2, 2, round_base=True))
    turn = arc_turn(body, (5.0, 1.0))
    assert turn.arc == "front" and turn.clockwise is None and turn.anticlockwise is None


def test_gap_for_a_3d_limit():
    assert gap_for(1.0, 0.6) == pytest.approx(0.8, abs=1e-12)  # 3-4-5
    assert gap_for(1.0, 1.0) == 0.0 and gap_for(1.0, 1.2) is None


@pytest.mark.parametrize("ruleset", registry.RULESET_IDS)
def test_facts_are_inspect_and_lines_agree_with_sight_on_every_demo(ruleset, capsys):
    """On every opposing pair of every demo: the ruling's facts are `inspect`'s, the
    closest points are the measured distance apart, and the pair is visible exactly when
    a sample line is clear."""
    path = demo_path(ruleset)
    assert main(["inspect", str(path), "--json"]) == 0
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    scenario = load_scenario(path)
    battle = battle_of(scenario)
    engine = registry.get(ruleset)
    g = battle.geometry
    for p in pairs:
        a, t = p["attacker"], p["target"]
        ruling = build_ruling(engine, battle, engine.attack(battle, AttackRequest(a, t)),
                              search_sight=False)
        out = ruling.to_json()
        assert {"attacker": a, "target": t, **out["facts"]} == p
        pa, pb = ruling.closest_points
        assert math.dist(pa, pb) == pytest.approx(p["distance"], abs=2e-3)
        m = g.measure(a, t)  # the very points the distance is measured between
        assert (pa[0], pa[1], pb[0], pb[1]) == pytest.approx((*m.point_a, *m.point_b),
                                                             abs=1e-12)
        assert (out["sight"]["lines_clear"] > 0) == p["visible"]
        assert out["sight"]["lines_total"] == 72
        blockers = set(g.sight(a, t).blocked_by)
        assert blockers <= set(out["sight"]["blocked_by"])


def test_warcry_family_cover_rule_is_the_one_inspect_uses():
    """The rule the tipping points read gives the cover `inspect` reports, on every pair."""
    for ruleset in ("warcry", "fight-vs-defense", "mordheim-warcry"):
        scenario = load_scenario(demo_path(ruleset))
        battle = battle_of(scenario)
        engine = registry.get(ruleset)
        rule = engine.terms(battle).cover
        assert rule is not None
        g = battle.geometry
        for a in scenario.models:
            for t in scenario.models:
                if a.side == t.side:
                    continue
                facts = engine.pair_facts(battle, a.id, t.id)
                cover = g.cover(a.id, t.id, rule)
                assert (facts.cover == "cover", facts.cover_by) == (cover.in_cover, cover.by)


def test_warcry_without_cover_has_no_cover_rule(tmp_path):
    scenario = dict(rc.WALL_NEAR_TARGET, ruleset_options={"cover": "none"})
    battle = battle_of(load_scenario(rc.write(tmp_path, "nocover", scenario)))
    assert registry.get("warcry").terms(battle).cover is None


def test_text_without_json_reads_like_a_ruling(tmp_path, capsys):
    path = rc.write(tmp_path, "wall", rc.WALL_NEAR_TARGET)
    assert main(["ruling", str(path), "--attacker", "a", "--target", "t"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[:2] == ["warcry ruling: a attacks t with Bow (missile)",
                                     "VALID: a may attack t with Bow"]
    assert '  [ok] in range: 5" <= 8"  (margin 3.000)' in text
    assert '  - range: out of range if t were more than 3.00" further away' in text


@pytest.mark.parametrize("args, message", [
    (["--attacker", "zz", "--target", "t"], "--attacker: unknown fighter or unit id 'zz'"),
    (["--attacker", "a", "--target", "t", "--weapon", "Axe"],
     "--weapon: a has no weapon 'Axe' (its weapons: Bow)"),
    (["--attacker", "a", "--target", "t", "--set", "x=1"],
     "--set x: unknown option for warcry (known: none)"),
    (["--attacker", "a", "--target", "t", "--out", "r.gif"],
     "--out r.gif: give a file ending in .png, .svg, .pdf, .md (picture, PDF or Markdown)"),
])
def test_refused_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    path = rc.write(tmp_path, "wall", rc.WALL_NEAR_TARGET)
    assert main(["ruling", str(path), *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.strip() == message


def test_out_into_a_missing_folder_is_refused(tmp_path, capsys):
    path = rc.write(tmp_path, "wall", rc.WALL_NEAR_TARGET)
    target = tmp_path / "nowhere" / "r.png"
    assert main(["ruling", str(path), "--attacker", "a", "--target", "t",
                 "--out", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (f"--out {target}: the folder {target.parent} does not "
                                    "exist")


DOCS_CLI = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def test_docs_describe_ruling_as_built(capsys):
    """docs/cli.md's example is what the command it names prints, and every option of
    `ruling` is named in its section."""
    text = DOCS_CLI.read_text(encoding="utf-8")
    section = text.split("## `ruling`", 1)[1].split("\n## ", 1)[0]
    example = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    command = section.split("(from `tabletop-gui ", 1)[1].split("`)", 1)[0].split()
    assert command[0] == "ruling" and command[-1] == "--json"
    assert main(command) == 0
    assert json.loads(capsys.readouterr().out) == example
    from tabletop_gui.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._subparsers._group_actions  # noqa: SLF001
               ).choices["ruling"]
    flags = [s for a in sub._actions for s in a.option_strings  # noqa: SLF001
             if s.startswith("--") and s != "--help"]
    assert sorted(flags) == ["--attacker", "--json", "--out", "--set", "--target",
                             "--weapon"]
    assert all(f"`{f}" in section for f in flags)
