"""The odds on the attack card hold the engine's distribution: bars, "at least N", big
numbers, ruleset extras shown generically, conditioned odds while dice are entered; they
are drawn from a view (``show_view``), here the view an ``AttackController`` publishes."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_gui.model.attack_controller import AttackController
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.snapshot import Snapshot
from tabletop_gui.ui.card_view import view_of
from tabletop_gui.ui.odds_panel import OddsPanel, format_extra, is_distribution
from tests.gui.attack_support import RULESETS, demo, first_pair


def _panel(qtbot, ruleset: str) -> tuple[OddsPanel, AttackController, str, str]:  # noqa: ANN001
    scenario = demo(ruleset)
    st = AttackController(Snapshot.of(scenario))
    panel = OddsPanel()
    qtbot.addWidget(panel)
    st.subscribe(lambda _view: panel.show_view(view_of(st.current_view)))
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


def test_circle_of_realms_shows_the_damage_back_to_the_attacker_in_a_plot_of_its_own(
        qtbot) -> None:
    """The target's damage and the attacker's in two plots on one x axis, each as high
    as its own bars (the attacker's 0.98 at 0 no longer squashes the target's bars)."""
    panel, st, _, _ = _panel(qtbot, "circle-of-realms")
    panel.resize(400, 500)
    panel.show()
    assert st.current_view.report is not None
    back = st.current_view.report.extras["attacker_distribution"]
    assert is_distribution(back)
    assert panel.extra_plot.isVisible() and panel.extra_bars.isVisible()
    assert list(panel.extra_bars.opts["height"]) == pytest.approx([p for _, p in back])
    assert panel.extra_title == "Attacker distribution"
    # the target's plot is scaled to the target's bars, the attacker's to its own
    target_top = max(p for _, p in st.current_view.report.distribution.items())
    assert panel.plot.viewRange()[1][1] == pytest.approx(target_top * 1.15, abs=1e-6)
    assert panel.extra_plot.viewRange()[1][1] == pytest.approx(
        min(1.0, max(p for _, p in back) * 1.15), abs=1e-6)
    assert panel.plot.viewRange()[0] == pytest.approx(panel.extra_plot.viewRange()[0])
    # one above the other, the same width, both with room to read
    top, bottom = panel.plot.geometry(), panel.extra_plot.geometry()
    assert bottom.top() >= top.bottom() and top.width() == bottom.width()
    assert min(top.height(), bottom.height()) >= 60
    assert "Dismemberment probability" in panel.extras_label.text()
    assert "%" in format_extra("dismemberment_probability", {"attacker": 0.25})


def test_one_plot_when_the_ruleset_has_no_second_distribution(qtbot) -> None:
    panel, _, _, _ = _panel(qtbot, "warcry")
    panel.show()
    assert not panel.extra_plot.isVisible()


def test_at_least_n_view(qtbot) -> None:
    """The "≥ n" button shows the curve of P(damage ≥ n) instead of the bars."""
    panel, st, _, _ = _panel(qtbot, "circle-of-realms")
    panel.show()
    assert panel.bars.isVisible() and not panel.at_least.isVisible()
    panel.at_least_button.click()
    assert panel.at_least.isVisible() and not panel.bars.isVisible()
    assert panel.extra_at_least.isVisible() and not panel.extra_bars.isVisible()
    assert panel.plot.viewRange()[1][1] == pytest.approx(1.02)
    xs, ys = panel.extra_at_least.getData()
    back = st.current_view.report.extras["attacker_distribution"]
    assert ys[0] == pytest.approx(sum(p for _, p in back))
    panel.exact_button.click()
    assert panel.bars.isVisible() and not panel.at_least.isVisible()


def test_ninth_age_shows_models_removed(qtbot) -> None:
    panel, st, _, _ = _panel(qtbot, "ninth-age")
    assert st.current_view.report is not None
    assert "expected_casualties" in st.current_view.report.extras
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
    while st.current_view.resolution is None:
        assert st.enter_die(1)
    assert panel.rolled_bar.isVisible()
    assert list(panel.rolled_bar.opts["x"]) == [float(st.current_view.resolution.damage)]
    assert f"Result: {st.current_view.resolution.damage} damage" in panel.condition_label.text()


def test_empty_without_a_target(qtbot) -> None:
    st = AttackController(Snapshot.of(demo("warcry")))
    panel = OddsPanel()
    qtbot.addWidget(panel)
    panel.show_view(view_of(st.current_view))
    assert len(panel.bars.opts["height"]) == 0
    assert panel.expected_label.text() == "–"


@pytest.mark.parametrize(("ruleset", "axis"), [("warcry", "damage"),
                                                ("ninth-age", "Health Points lost"),
                                                ("circle-of-realms", "wounds")])
def test_the_damage_axis_is_named_by_the_ruleset(qtbot, ruleset: str, axis: str) -> None:
    panel, _, _, _ = _panel(qtbot, ruleset)
    assert panel.plot_name.text == f"{axis} (target)"


def _odds_state(panel: OddsPanel) -> tuple[object, ...]:
    """What the panel shows: numbers, texts, bars, curves, ranges, tiles."""
    def data(item) -> tuple[object, ...]:  # noqa: ANN001
        xs, ys = item.getData()
        return (None if xs is None else list(xs), None if ys is None else list(ys))

    def bars(item) -> tuple[object, ...]:  # noqa: ANN001
        return (list(item.opts["x"]), list(item.opts["height"]), item.isVisible())

    return (panel.expected_label.text(), panel.take_down_label.text(),
            panel.condition_label._text, panel.extras_label._text,
            panel.extras_label.isVisibleTo(panel), panel.extras_label.toolTip(),
            panel.plot_name.text, bars(panel.bars), bars(panel.rolled_bar),
            data(panel.at_least), panel.plot.viewRange(),
            panel.extra_plot.isVisibleTo(panel), bars(panel.extra_bars),
            data(panel.extra_at_least), panel.extra_plot.viewRange(), panel.extra_title,
            [(t.value.text(), t.isVisibleTo(panel)) for t in panel.extra_tiles])


def test_the_panel_skips_drawing_only_the_odds_it_shows_already(qtbot) -> None:
    """A panel that skips drawing a view whose odds it shows already (a new answer of a
    move or a drag, the same numbers) shows what a panel drawing every view shows, shown
    the same views: random views of every ruleset (with dice, without, other boards,
    none), each answered afresh (new report objects) once or twice in a row."""
    import random

    from tabletop_gui.ui.card_view import CardView
    from tests.gui.attack_support import attack_views, show_as_drawing_every, shown_view

    panel, every = OddsPanel(), OddsPanel()
    for p in (panel, every):
        qtbot.addWidget(p)
        p.show()
    views = attack_views()
    rng = random.Random(17)
    kept = set()
    for _step in range(40):
        pick = rng.randrange(len(views) + 1)
        for _ in range(rng.choice((1, 2))):  # answered again: a new, equal report
            view = CardView() if pick == len(views) else shown_view(*views[pick])
            kept.add(show_as_drawing_every(panel, every, view, _odds_state))
    assert kept == {True, False}  # both kept and redrawn were met
