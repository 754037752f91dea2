"""The Odds panel holds the engine's distribution: bars, "at least N", big numbers,
ruleset extras shown generically, conditioned odds while dice are entered."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_gui.model.attack_state import AttackState
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.ui.odds_panel import OddsPanel, format_extra, is_distribution
from tests.gui.attack_support import RULESETS, demo, first_pair


def _panel(qtbot, ruleset: str) -> tuple[OddsPanel, AttackState, str, str]:  # noqa: ANN001
    scenario = demo(ruleset)
    st = AttackState(scenario)
    panel = OddsPanel(st)
    qtbot.addWidget(panel)
    a, t = first_pair(scenario)
    st.set_attacker(a)
    st.set_target(t)
    return panel, st, a, t


@pytest.mark.parametrize("ruleset", RULESETS)
def test_bars_and_at_least_hold_the_distribution(qtbot, ruleset: str) -> None:
    panel, st, a, t = _panel(qtbot, ruleset)
    report = registry.get(ruleset).attack(battle_of(st.scenario), AttackRequest(a, t))
    items = report.distribution.items()
    assert list(panel.bars.opts["x"]) == [float(v) for v, _ in items]
    assert list(panel.bars.opts["height"]) == pytest.approx([p for _, p in items])
    xs, ys = panel.at_least.getData()
    assert xs is not None and ys is not None
    for x, y in zip(xs, ys, strict=True):
        assert y == pytest.approx(report.distribution.prob_at_least(int(x)))
    assert ys[0] == pytest.approx(1.0) and np.all(np.diff(ys) <= 1e-12)
    assert panel.expected_label.text() == f"{report.expected_damage:.2f}"
    assert panel.take_down_label.text() == f"{100 * report.take_down_probability:.1f}%"
    for key, value in report.extras.items():
        if not key.startswith("_"):
            assert format_extra(key, value) in panel.extras_label.text()


def test_circle_of_realms_shows_the_damage_back_to_the_attacker_as_bars(qtbot) -> None:
    panel, st, _, _ = _panel(qtbot, "circle-of-realms")
    assert st.report is not None
    back = st.report.extras["attacker_distribution"]
    assert is_distribution(back)
    assert panel.extra_bars.isVisible()
    assert list(panel.extra_bars.opts["height"]) == pytest.approx([p for _, p in back])
    assert "Attacker distribution" in panel.legend.toPlainText()
    assert "Dismemberment probability" in panel.extras_label.text()
    assert "%" in format_extra("dismemberment_probability", {"attacker": 0.25})


def test_ninth_age_shows_models_removed(qtbot) -> None:
    panel, st, _, _ = _panel(qtbot, "ninth-age")
    assert st.report is not None
    assert "expected_casualties" in st.report.extras
    assert "Expected casualties" in panel.extras_label.text()


def test_odds_conditioned_on_the_dice_so_far_then_the_result(qtbot) -> None:
    panel, st, a, t = _panel(qtbot, "warcry")
    engine = registry.get("warcry")
    battle = battle_of(st.scenario)
    assert st.enter_die(6)
    given = engine.odds_given(battle, AttackRequest(a, t), [6])
    assert list(panel.bars.opts["height"]) == pytest.approx([p for _, p in given.items()])
    assert panel.expected_label.text() == f"{given.mean:.2f}"
    assert panel.take_down_label.text() == "…"
    while st.resolution is None:
        assert st.enter_die(1)
    assert panel.rolled_bar.isVisible()
    assert list(panel.rolled_bar.opts["x"]) == [float(st.resolution.damage)]
    assert f"Result: {st.resolution.damage} damage" in panel.condition_label.text()


def test_empty_without_a_target(qtbot) -> None:
    st = AttackState(demo("warcry"))
    panel = OddsPanel(st)
    qtbot.addWidget(panel)
    assert len(panel.bars.opts["height"]) == 0
    assert panel.expected_label.text() == "–"


@pytest.mark.parametrize(("ruleset", "axis"), [("warcry", "damage"),
                                                ("ninth-age", "Health Points lost"),
                                                ("circle-of-realms", "wounds")])
def test_the_damage_axis_is_named_by_the_ruleset(qtbot, ruleset: str, axis: str) -> None:
    panel, _, _, _ = _panel(qtbot, ruleset)
    assert panel.plot.getAxis("bottom").labelText == f"{axis} (target)"
    assert panel.at_least_plot.getAxis("bottom").labelText == f"at least n {axis}"
