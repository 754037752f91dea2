"""The benchmark runs every case and its answers equal the references' (never a time)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import numpy as np
import pytest

from tabletop_gui.bench import cases_geometry as cg
from tabletop_gui.bench.__main__ import main
from tabletop_gui.bench.markdown import render
from tabletop_gui.bench.reference import reference_facts
from tabletop_gui.bench.registry import CASE_MODULES, load_cases
from tabletop_gui.bench.runner import Timing
from tabletop_gui.bench.targets import TARGETS
from tabletop_gui.geometry import board_geometry
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.cover import CoverRule
from tabletop_gui.scenario.snapshot import Snapshot


def test_registry_lists_the_geometry_cases() -> None:
    assert "tabletop_gui.bench.cases_geometry" in CASE_MODULES
    names = [c.name for c in load_cases()]
    for n in ("pairs_50", "pairs_200", "pairs_800", "drag_200", "drag_800", "odds_warcry",
              "odds_ninth_age", "gui_frame_200", "startup"):
        assert n in names


def test_pairs_50_equals_the_full_reference() -> None:
    table = cg.pairs_compute(50)()
    ref = cg.pairs_reference(50)()
    assert len(ref.distance) == len(cg.all_pairs(cg.board(50)))
    assert cg.disagreements(table, ref) == []
    # the reference leaves few pairs aside as sensitive to its 64-gon bases
    assert len(ref.sensitive) < 0.2 * len(ref.distance)


def test_pairs_200_equals_a_sampled_reference() -> None:
    cg.set_quick(True)
    try:
        ref = reference_facts(cg.board(200), cg.RULE, cg.reference_pairs(200)[:300])
    finally:
        cg.set_quick(False)
    assert cg.disagreements(cg.pairs_compute(200)(), ref) == []
    assert cg.reference_scale(200) == 1.0  # the full (non-quick) run uses every pair


def test_drag_200_steps_equal_fresh_tables() -> None:
    compute = cg.drag_compute(200)
    for _ in range(3):
        table, targets = compute()
    g = cg.drag_geometry(200)
    assert g.pair_table(cg.RULE) is table
    fresh = BoardGeometry(g.board).pair_table(cg.RULE)
    assert (fresh.visible == table.visible).all() and (fresh.cover == table.cover).all()
    assert (fresh.flanked == table.flanked).all()
    both = ~np.isnan(fresh.distance)
    assert (both == ~np.isnan(table.distance)).all()
    assert np.abs(fresh.distance - table.distance)[both].max() < 1e-9
    assert all(isinstance(t, str) for t in targets)


def test_800_cases_run_and_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    # pairs_800: the compute, checked on a sample of the reference's pairs
    g = BoardGeometry(cg.board(800))
    table = g.pair_table(cg.RULE)
    ref = reference_facts(cg.board(800), cg.RULE, cg.reference_pairs(800)[:100])
    assert cg.disagreements(table, ref) == []
    assert cg.reference_scale(800) > 100  # an estimate from a sample, stated in the module
    # drag_800: two steps from that geometry; the dragged fighter's facts equal the
    # pair-by-pair answers of a fresh geometry
    cg._drag_state[800] = g
    compute = cg.drag_compute(800)
    for _ in range(2):
        table, _targets = compute()
    moved = cg.drag_geometry(800)
    k = 0  # the first ten steps drag the first fighter
    monkeypatch.setattr(board_geometry, "TABLE_AFTER", 10**9)  # one pair at a time
    fresh = BoardGeometry(moved.board)
    me = moved.board.bodies[k]
    for t, other in enumerate(moved.board.bodies):
        if other.side == me.side:
            continue
        assert table.distance[k, t] == pytest.approx(fresh.measure(me.id, other.id).distance)
        assert table.visible[k, t] == fresh.sight(me.id, other.id).visible
        c = fresh.cover(me.id, other.id, CoverRule(True, 3.0))
        assert table.cover[k, t] == c.in_cover


def test_main_json_on_quick_cases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--json", "--quick", "--case", "pairs_50", "--case", "drag_200"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"machine", "cases"}
    p = out["cases"]["pairs_50"]
    assert set(p) == {"median_ms", "min_ms", "max_ms", "runs", "reference_median_ms", "speedup"}
    assert set(out["cases"]["drag_200"]) == {"median_ms", "min_ms", "max_ms", "runs"}


def test_unknown_case_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--case", "nope"]) == 2
    assert "unknown case" in capsys.readouterr().err


# -- --markdown: the README's table ------------------------------------------------------


def _cells(line: str) -> list[str]:
    assert line.startswith("| ") and line.endswith(" |"), line
    return [c.strip() for c in line[2:-2].split(" | ")]


def test_markdown_on_one_quick_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--markdown", "--quick", "--case", "odds_warcry"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert re.fullmatch(r"Benchmark of \d{4}-\d\d-\d\d \d\d:\d\d UTC, `--quick` run .*", lines[0])
    assert lines[1].startswith("Machine: ") and " cores, " in lines[1]
    table = [line for line in lines if line.startswith("|")]
    assert _cells(table[0]) == ["case", "runs", "median", "min", "reference, same run",
                                "speedup", "target", "result"]
    assert table[1] == "|" + "---|" * 8
    (row,) = table[2:]
    name, runs, median, low, reference, speedup, target, result = _cells(row)
    assert (name, runs) == ("`odds_warcry`", "50")
    assert all(re.fullmatch(r"\d+\.\d+ ms", v) for v in (median, low, reference))
    assert re.fullmatch(r"×[\d.,]+", speedup)
    assert target == "< 1 ms, faster than icepool"
    assert result == "met" or result.startswith("missed: ")
    assert lines[-1] in ("Targets met: 1 of 1.", "Targets met: 0 of 1; missed: odds_warcry.")
    assert "odds_warcry" in captured.err  # progress goes to stderr


def test_markdown_says_what_is_met_and_what_is_missed() -> None:
    timings = [
        Timing("pairs_50", (7.0, 7.4, 9.0), (800.0,), True),
        Timing("pairs_200", (46.2, 46.2, 50.0), (20100.0,), True),
        Timing("pairs_800", (1380.0,), (2_650_000.0,), True, reference_scale=319.0),
        Timing("odds_ninth_age", (0.5,), (0.3,), False),
        Timing("startup", (790.0, 810.0)),
        Timing("odd_case", (1.0,)),
    ]
    text = render(timings, machine="test machine", when=datetime(2026, 12, 1, 9, 30, tzinfo=UTC),
                  quick=False, all_cases=True)
    lines = text.splitlines()
    assert lines[0].startswith("Benchmark of 2026-12-01 09:30 UTC, full run")
    assert lines[1] == "Machine: test machine."
    rows = {_cells(line)[0]: _cells(line) for line in lines if line.startswith("| `")}
    assert rows["`pairs_50`"][2:] == ["7.40 ms", "7.00 ms", "800 ms", "×108",
                                      "≥ 100× the reference", "met"]
    assert rows["`pairs_200`"][6:] == ["< 15 ms, ≥ 100× the reference",
                                       "missed: median 46.2 ms ≥ 15 ms"]
    assert rows["`pairs_800`"][4] == "2,650 s (estimated: a sample scaled ×319)"
    assert rows["`pairs_800`"][7] == "missed: median 1.38 s ≥ 150 ms"
    assert rows["`odds_ninth_age`"][4] == "0.300 ms (answers DIFFER)"
    assert rows["`odds_ninth_age`"][7] == "missed: ×0.6 icepool"
    assert rows["`startup`"][4:] == ["–", "–", "< 1 s", "met"]
    assert rows["`odd_case`"][6:] == ["–", "no target"]
    assert "Targets met: 2 of 5; missed: pairs_200, pairs_800, odds_ninth_age." in lines
    (absent,) = [line for line in lines if line.startswith("Not measured")]
    assert "pairs_2000 (< 1 s, ≥ 100× the reference)" in absent
    assert "drag_200" in absent and "startup" not in absent


def test_every_case_has_a_target() -> None:
    assert {c.name for c in load_cases()} <= set(TARGETS)


def test_ninth_age_inspect_40_is_two_armies_of_20_units_from_a_cold_start() -> None:
    from tabletop_gui.bench import cases_ninth_age_inspect as case
    from tabletop_gui.rules.ninth_age import engine

    assert case.NAME in [c.name for c in load_cases()]
    battle = Snapshot.of(case.scenario()).battle
    units = battle.board.bodies
    assert len(units) == 40 and sum(u.side == units[0].side for u in units) == 20
    models = [u.formation.models for u in units if u.formation and not u.formation.round_base]
    assert min(models) >= 3 and max(models) <= 40
    assert {t.kind for t in battle.board.terrains} == {"obstacle", "platform"}
    facts, targets = case.compute()
    assert len(facts) == 2 * 20 * 20 and len(targets) == 40
    assert battle.geometry_source.built is None  # computed on a snapshot of its own
    by_pair = {(f.attacker, f.target): f for f in facts}
    for a, t in [(units[0].id, units[1].id), (units[5].id, units[10].id)]:
        s = engine.situation_of(battle, a, t, "more_than_half")
        assert by_pair[(a, t)] == engine.facts_of(a, t, s)
    verdicts = [ok for row in targets for ok, _ in row.values()]
    assert any(verdicts) and not all(verdicts)
