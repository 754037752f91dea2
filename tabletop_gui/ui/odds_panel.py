"""The Odds panel: the exact damage distribution of the attack being prepared.

Bars (``pg.BarGraphItem``) for P(damage = n), a second view with P(damage >= n), the
expected damage and the chance to take the target down as large numbers, and every
ruleset extra of the report shown generically: distributions (lists of
``[amount, probability]``) as extra bars, numbers as lines. When dice have been entered,
the odds shown are the ones conditioned on them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QGridLayout, QLabel, QTabWidget, QVBoxLayout, QWidget

from tabletop_gui.model.attack_state import AttackState
from tabletop_gui.rules.dist import Dist

# Okabe-Ito colours (colour-blind safe)
BLUE = "#0072B2"
ORANGE = "#E69F00"
VERMILLION = "#D55E00"
GREEN = "#009E73"
SKY = "#56B4E9"


def is_distribution(value: Any) -> bool:
    """A ruleset extra in the form of ``distribution``: ``[[amount, probability], ...]``."""
    return (isinstance(value, list | tuple) and len(value) > 0 and all(
        isinstance(p, list | tuple) and len(p) == 2 for p in value))


def extra_title(key: str) -> str:
    return key.replace("_", " ").capitalize()


def format_extra(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float | int) and ("probab" in key or "chance" in key):
        return f"{100 * float(value):.1f}%"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {format_extra(key, v)}" for k, v in value.items())
    if is_distribution(value):
        mean = sum(float(a) * float(p) for a, p in value)
        return f"expected {mean:.3f}"
    return str(value)


def _big_label(tooltip: str) -> QLabel:
    label = QLabel("–")
    font = QFont()
    font.setPointSize(20)
    font.setBold(True)
    label.setFont(font)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setToolTip(tooltip)
    return label


class OddsPanel(QWidget):
    """Distribution bars, "at least N" curve, expected damage and take-down chance."""

    def __init__(self, state: AttackState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self._axis_name = ""
        self.setToolTip("Exact odds of the attack being prepared")
        layout = QVBoxLayout(self)
        numbers = QGridLayout()
        self.expected_label = _big_label("Expected damage (exact mean of the distribution)")
        self.take_down_label = _big_label("Chance to take the target down with this attack")
        cap1, cap2 = QLabel("expected damage"), QLabel("take down")
        for col, (big, cap) in enumerate(((self.expected_label, cap1),
                                          (self.take_down_label, cap2))):
            cap.setAlignment(Qt.AlignmentFlag.AlignCenter)
            cap.setToolTip(big.toolTip())
            numbers.addWidget(big, 0, col)
            numbers.addWidget(cap, 1, col)
        layout.addLayout(numbers)
        self.condition_label = QLabel("")
        self.condition_label.setTextFormat(Qt.TextFormat.RichText)
        self.condition_label.setToolTip("Odds conditioned on the dice entered so far")
        self.condition_label.setWordWrap(True)
        layout.addWidget(self.condition_label)

        self.tabs = QTabWidget()
        self.tabs.setToolTip("Distribution of damage, or the chance of at least N")
        self.plot = _probability_plot("P(damage = n): exact probabilities", "damage", 1.0)
        self.bars = pg.BarGraphItem(x=[0], height=[0], width=0.7, brush=BLUE, pen=BLUE)
        self.extra_bars = pg.BarGraphItem(x=[0], height=[0], width=0.3, brush=ORANGE,
                                          pen=VERMILLION)
        self.extra_bars.setVisible(False)
        self.rolled_bar = pg.BarGraphItem(
            x=[0], height=[0], width=0.7,
            brush=QBrush(QColor(VERMILLION), Qt.BrushStyle.BDiagPattern),
            pen=pg.mkPen(VERMILLION, width=3))
        self.rolled_bar.setVisible(False)
        self.plot.addItem(self.bars)
        self.plot.addItem(self.rolled_bar)
        self.plot.addItem(self.extra_bars)
        self.legend = pg.TextItem("", color=VERMILLION, anchor=(1, 0))
        self.plot.addItem(self.legend)
        self.tabs.addTab(self.plot, "Damage")

        self.at_least_plot = _probability_plot("P(damage ≥ n)", "at least n damage", 1.02)
        self.at_least = self.at_least_plot.plot(
            [0], [1.0], pen=pg.mkPen(GREEN, width=2), symbol="o", symbolBrush=GREEN,
            symbolSize=7)
        self.tabs.addTab(self.at_least_plot, "At least N")
        self.tabs.setMinimumHeight(200)
        layout.addWidget(self.tabs, 1)

        self.extras_label = QLabel("")
        self.extras_label.setWordWrap(True)
        self.extras_label.setToolTip("Further odds the ruleset reports for this attack")
        self.extras_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.extras_label)
        state.subscribe(self.refresh)
        self.refresh()

    # -- binding -----------------------------------------------------------------------
    def _axis_label(self) -> None:
        """The damage axis named as the ruleset counts damage (``Ruleset.damage_axis``)."""
        name = self.state.damage_axis
        if name == self._axis_name:
            return
        self._axis_name = name
        self.plot.setLabel("bottom", f"{name} (target)")
        self.at_least_plot.setLabel("bottom", f"at least n {name}")

    def refresh(self) -> None:
        self._axis_label()
        report = self.state.report
        odds = self.state.odds
        if report is None or odds is None:
            self._show(Dist.point(0), empty=True)
            self.expected_label.setText("–")
            self.take_down_label.setText("–")
            self.condition_label.setText("Choose an attacker and a target.")
            self.extras_label.setText("")
            self._show_extra(None, "")
            return
        res = self.state.resolution
        if res is not None:
            # all dice in: the odds before the roll, with the rolled result highlighted
            self._show(report.distribution, rolled=res.damage)
            self.expected_label.setText(f"{report.expected_damage:.2f}")
            self.take_down_label.setText(f"{100 * report.take_down_probability:.1f}%")
            how = (f"rolled with seed {self.state.rolled_seed}"
                   if self.state.rolled_seed is not None else "dice entered")
            self.condition_label.setText(
                f"<b>Result: {res.damage} damage{', taken down' if res.taken_down else ''}</b>"
                f" ({how}; highlighted bar)")
        elif self.state.dice:
            self._show(odds)
            self.expected_label.setText(f"{odds.mean:.2f}")
            # the interface conditions the damage only: the take-down chance given some
            # dice is not known until the dice are complete
            self.take_down_label.setText("…")
            self.condition_label.setText(
                f"Given the {len(self.state.dice)} dice so far; before any dice: "
                f"{report.expected_damage:.2f} expected, "
                f"{100 * report.take_down_probability:.1f}% take down")
        else:
            self._show(odds)
            self.expected_label.setText(f"{odds.mean:.2f}")
            self.take_down_label.setText(f"{100 * report.take_down_probability:.1f}%")
            self.condition_label.setText("" if report.valid else
                                         "Not allowed now; the odds if it were.")
        lines = []
        shown_extra = False
        for key, value in report.extras.items():
            if key.startswith("_"):
                continue
            partial = bool(self.state.dice) and res is None
            if is_distribution(value) and not shown_extra and not partial:
                self._show_extra(value, extra_title(key))
                shown_extra = True
            lines.append(f"<b>{extra_title(key)}</b>: {format_extra(key, value)}")
        if not shown_extra:
            self._show_extra(None, "")
        self.extras_label.setText("<br>".join(lines))

    def _show(self, dist: Dist, empty: bool = False, rolled: int | None = None) -> None:
        pairs = [] if empty else dist.items()
        xs = np.array([v for v, _ in pairs], dtype=float)
        hs = np.array([p for _, p in pairs], dtype=float)
        self.bars.setOpts(x=xs, height=hs, width=0.7)
        if rolled is not None:
            self.rolled_bar.setOpts(x=[float(rolled)], height=[dist.prob(rolled)], width=0.7)
        self.rolled_bar.setVisible(rolled is not None)
        if pairs:
            lo, hi = int(xs.min()), int(xs.max())
            ns = np.arange(lo, hi + 1, dtype=float)
            at_least = np.array([dist.prob_at_least(int(n)) for n in ns])
            self.at_least.setData(ns, at_least)
            self.plot.setXRange(lo - 0.6, hi + 0.6, padding=0)
            self.plot.setYRange(0, min(1.0, float(hs.max()) * 1.15), padding=0)
            self.at_least_plot.setXRange(lo - 0.4, hi + 0.4, padding=0)
        else:
            self.at_least.setData([], [])

    def _show_extra(self, value: Any, title: str) -> None:
        if value is None:
            self.extra_bars.setVisible(False)
            self.legend.setText("")
            return
        xs = np.array([float(a) for a, _ in value])
        hs = np.array([float(p) for _, p in value])
        self.extra_bars.setOpts(x=xs + 0.3, height=hs, width=0.3)
        self.extra_bars.setVisible(True)
        self.legend.setHtml(f'<span style="color:{BLUE}">▮ damage to the target</span><br>'
                            f'<span style="color:{VERMILLION}">▮ {title}</span>')
        (x0, x1), (_, y1) = self.plot.viewRange()
        lo, hi = min(x0, float(xs.min()) - 0.6), max(x1, float(xs.max()) + 0.9)
        top = min(1.05, max(y1, float(hs.max()) * 1.15))
        self.plot.setXRange(lo, hi, padding=0)
        self.plot.setYRange(0, top, padding=0)
        self.legend.setPos(hi, top)


def _probability_plot(tooltip: str, bottom: str, top: float) -> pg.PlotWidget:
    """A fixed (no mouse zoom) white plot of probabilities from 0 to ``top``."""
    plot = pg.PlotWidget()
    plot.setToolTip(tooltip)
    plot.setBackground("w")
    plot.setMouseEnabled(x=False, y=False)
    plot.setLabel("left", "probability")
    plot.setLabel("bottom", bottom)
    plot.setYRange(0, top)
    plot.getAxis("left").enableAutoSIPrefix(False)
    return plot
