"""The odds of the attack being prepared, as drawn on the attack card.

The big numbers (expected damage, the chance to take the target down, and the ruleset's
numeric extras), a line with every ruleset extra (elided; all of them in its tooltip),
and the exact damage distribution: bars (``pg.BarGraphItem``) for P(damage = n), or the
"at least N" curve P(damage ≥ n) (two toggle buttons). A ruleset extra that is itself a
distribution (``[[amount, probability], ...]``, the damage back to the attacker in Circle
of Realms) gets a plot of its own under the first, on the same x axis, each with its own
height so that both are readable. When dice have been entered, the odds shown are the
ones conditioned on them; once every die is in, the result's bar is highlighted.

What is drawn comes from a view (``show_view``, see ``ui.card_view``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tabletop_gui.rules.dist import Dist
from tabletop_gui.ui.card_view import CardView, ShownAttack, same
from tabletop_gui.ui.elided_label import ElidedLabel

# Okabe-Ito colours (colour-blind safe)
BLUE = "#0072B2"
ORANGE = "#E69F00"
VERMILLION = "#D55E00"
GREEN = "#009E73"
SKY = "#56B4E9"
MAX_EXTRA_TILES = 2  # numeric extras shown as big numbers besides the two
PLOT_MIN_HEIGHT = 60  # each plot


def is_distribution(value: Any) -> bool:
    """A ruleset extra in the form of ``distribution``: ``[[amount, probability], ...]``."""
    return (isinstance(value, list | tuple) and len(value) > 0 and all(
        isinstance(p, list | tuple) and len(p) == 2 for p in value))


def extra_title(key: str) -> str:
    return key.replace("_", " ").capitalize()


def is_percentage(key: str) -> bool:
    return "probab" in key or "chance" in key


def format_extra(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float | int) and is_percentage(key):
        return f"{100 * float(value):.1f}%"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {format_extra(key, v)}" for k, v in value.items())
    if is_distribution(value):
        mean = sum(float(a) * float(p) for a, p in value)
        return f"expected {mean:.3f}"
    return str(value)


class _NotPlain(Exception):
    """A value ``_plain`` cannot compare by value."""


def _plain(value: Any) -> tuple[object, ...]:
    """``value`` (a ruleset extra) as plain, comparable data with its types; raises
    ``_NotPlain`` for anything else."""
    if value is None or isinstance(value, bool | int | float | str):
        return (type(value), value)
    if isinstance(value, list | tuple):
        return (type(value), tuple(_plain(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple((k, _plain(v)) for k, v in value.items()))
    raise _NotPlain


def _dist(dist: Dist) -> tuple[int, bytes]:
    return dist.offset, dist.probs.tobytes()


def drawing_of(view: ShownAttack) -> tuple[object, ...] | None:
    """Everything the panel draws of ``view`` depends on, as values: two views with
    equal ones are drawn alike. None when an extra is not plain data (drawn always)."""
    report, odds, res = view.report, view.odds, view.resolution
    if report is None or odds is None:
        return (view.damage_axis, None)
    try:
        extras = _plain(dict(report.extras))
    except _NotPlain:
        return None
    rolled = None if res is None else (res.damage, res.taken_down, _dist(report.distribution))
    return (view.damage_axis, tuple(view.dice.faces), _dist(odds), rolled,
            report.expected_damage, report.take_down_probability, report.valid, extras)


def tile_text(key: str, value: float) -> str:
    return f"{100 * value:.1f}%" if is_percentage(key) else f"{value:.2f}"


class NumberTile(QWidget):
    """A big number with its caption under it."""

    def __init__(self, caption: str, tooltip: str, size: int = 17) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.value = QLabel("–")
        font = QFont()
        font.setPointSize(size)
        font.setBold(True)
        self.value.setFont(font)
        self.value.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.value.setToolTip(tooltip)
        self.value.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.caption = ElidedLabel(caption)
        self.caption.setToolTip(tooltip)
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.value)
        layout.addWidget(self.caption, 0, Qt.AlignmentFlag.AlignHCenter)
        self.setToolTip(tooltip)

    def set_caption(self, caption: str, tooltip: str) -> None:
        self.caption.set_text(caption)
        self.caption.setToolTip(tooltip)
        self.value.setToolTip(tooltip)
        self.setToolTip(tooltip)


class OddsPanel(QWidget):
    """Big numbers, extras, and the damage distribution (exactly n, or at least n)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view: ShownAttack = CardView()
        self._axis_name = ""
        self.setToolTip("Exact odds of the attack being prepared")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        numbers = QGridLayout()
        numbers.setSpacing(2)
        self.expected_tile = NumberTile("expected damage",
                                        "Expected damage (exact mean of the distribution)")
        self.take_down_tile = NumberTile("take down",
                                         "Chance to take the target down with this attack")
        self.expected_label = self.expected_tile.value
        self.expected_label.setAccessibleName("Expected damage")
        self.take_down_label = self.take_down_tile.value
        self.take_down_label.setAccessibleName("Take-down chance")
        self.extra_tiles = [NumberTile("", "", size=13) for _ in range(MAX_EXTRA_TILES)]
        for col, tile in enumerate([self.expected_tile, self.take_down_tile,
                                    *self.extra_tiles]):
            numbers.addWidget(tile, 0, col)
            numbers.setColumnStretch(col, 1)
        for tile in self.extra_tiles:
            tile.hide()
        layout.addLayout(numbers)
        self.extras_label = ElidedLabel()
        self.extras_label.setToolTip("Further odds the ruleset reports for this attack")
        layout.addWidget(self.extras_label)

        row = QHBoxLayout()
        row.setSpacing(2)
        self.condition_label = ElidedLabel()
        self.condition_label.setToolTip("Odds conditioned on the dice entered so far")
        row.addWidget(self.condition_label, 1)
        self.exact_button = QToolButton()
        self.exact_button.setText("= n")
        self.exact_button.setAccessibleName("Exactly n")
        self.exact_button.setToolTip("P(damage = n): the chance of exactly n")
        self.at_least_button = QToolButton()
        self.at_least_button.setText("≥ n")
        self.at_least_button.setAccessibleName("At least n")
        self.at_least_button.setToolTip("P(damage ≥ n): the chance of at least n")
        self.view_buttons = QButtonGroup(self)
        for b in (self.exact_button, self.at_least_button):
            b.setCheckable(True)
            self.view_buttons.addButton(b)
            row.addWidget(b)
        self.exact_button.setChecked(True)
        self.at_least_button.toggled.connect(self._show_kind)
        layout.addLayout(row)

        self.plot = _probability_plot("Damage to the target: exact probabilities")
        self.plot.setAccessibleName("Damage distribution")
        self.bars = pg.BarGraphItem(x=[0], height=[0], width=0.7, brush=BLUE, pen=BLUE)
        self.rolled_bar = pg.BarGraphItem(
            x=[0], height=[0], width=0.7,
            brush=QBrush(QColor(VERMILLION), Qt.BrushStyle.BDiagPattern),
            pen=pg.mkPen(VERMILLION, width=3))
        self.rolled_bar.setVisible(False)
        self.at_least = self.plot.plot(
            [0], [1.0], pen=pg.mkPen(GREEN, width=2), symbol="o", symbolBrush=GREEN,
            symbolSize=6)
        self.plot.addItem(self.bars)
        self.plot.addItem(self.rolled_bar)
        self.plot_name = _pane_name(self.plot, BLUE)
        layout.addWidget(self.plot, 1)

        self.extra_plot = _probability_plot("Damage to the attacker: exact probabilities")
        self.extra_plot.setAccessibleName("Second distribution")
        self.extra_plot.setXLink(self.plot)
        self.extra_bars = pg.BarGraphItem(x=[0], height=[0], width=0.7, brush=ORANGE,
                                          pen=VERMILLION)
        self.extra_at_least = self.extra_plot.plot(
            [0], [1.0], pen=pg.mkPen(VERMILLION, width=2), symbol="o",
            symbolBrush=VERMILLION, symbolSize=6)
        self.extra_plot.addItem(self.extra_bars)
        self.extra_name = _pane_name(self.extra_plot, VERMILLION)
        self.extra_plot.hide()
        layout.addWidget(self.extra_plot, 1)
        self.extra_title = ""
        self._rolled = False
        self._bar_top = self._extra_top = 1.0  # the bars' heights (room above the highest)
        self._shown: tuple[object, ...] = ()  # what the plot was drawn from
        self._drawn: tuple[object, ...] | None = None  # and as values (``drawing_of``)
        self.show_view(self.view)

    @property
    def showing_at_least(self) -> bool:
        return self.at_least_button.isChecked()

    # -- drawing -----------------------------------------------------------------------
    def _axis_label(self, name: str) -> None:
        """The damage axis named after what the damage is (e.g. hp lost)."""
        if name == self._axis_name:
            return
        self._axis_name = name
        self.plot_name.setText(f"{name} (target)")

    def show_view(self, view: ShownAttack) -> None:
        self.view = view
        shown = (view.report, view.odds, view.resolution, view.dice.faces, view.dice.seed,
                 view.damage_axis)
        if same(shown, self._shown):
            return
        self._shown = shown
        drawn = drawing_of(view)
        if drawn is not None and drawn == self._drawn:
            return  # a new answer with the same odds (a move's, a drag's): drawn already
        self._drawn = drawn
        self._axis_label(view.damage_axis)
        report, odds, res = view.report, view.odds, view.resolution
        if report is None or odds is None:
            self._show(Dist.point(0), empty=True)
            self.expected_label.setText("–")
            self.take_down_label.setText("–")
            self.condition_label.set_text("Choose an attacker and a target.")
            self.extras_label.set_text("")
            self.extras_label.hide()
            self._show_extra(None, "")
            self._tiles({})
            return
        faces = view.dice.faces
        if res is not None:
            # all dice in: the odds before the roll, with the rolled result highlighted
            self._show(report.distribution, rolled=res.damage)
            self.expected_label.setText(f"{report.expected_damage:.2f}")
            self.take_down_label.setText(f"{100 * report.take_down_probability:.1f}%")
            self.condition_label.set_text(
                f"Result: {res.damage} damage{', taken down' if res.taken_down else ''}"
                " (the highlighted bar)")
        elif faces:
            self._show(odds)
            self.expected_label.setText(f"{odds.mean:.2f}")
            # the interface conditions the damage only: the take-down chance given some
            # dice is not known until the dice are complete
            self.take_down_label.setText("…")
            self.condition_label.set_text(
                f"Given the {len(faces)} dice so far; before any dice: "
                f"{report.expected_damage:.2f} expected, "
                f"{100 * report.take_down_probability:.1f}% take down")
        else:
            self._show(odds)
            self.expected_label.setText(f"{odds.mean:.2f}")
            self.take_down_label.setText(f"{100 * report.take_down_probability:.1f}%")
            self.condition_label.set_text("Before any dice" if report.valid else
                                          "Not allowed now; the odds if it were.")
        parts, tips = [], []
        shown_extra = False
        partial = bool(faces) and res is None
        extras = {k: v for k, v in report.extras.items() if not k.startswith("_")}
        for key, value in extras.items():
            if is_distribution(value) and not shown_extra and not partial:
                self._show_extra(value, extra_title(key))
                shown_extra = True
            parts.append(f"{extra_title(key)}: {format_extra(key, value)}")
            tips.append(f"{extra_title(key)}: {format_extra(key, value)}")
        if not shown_extra:
            self._show_extra(None, "")
        self.extras_label.set_text(" · ".join(parts))
        self.extras_label.setVisible(bool(parts))
        self.extras_label.setToolTip("\n".join(tips) or
                                     "Further odds the ruleset reports for this attack")
        self._tiles(extras if not partial else {})

    def _tiles(self, extras: dict[str, Any]) -> None:
        """The first numeric extras as big numbers too."""
        numeric = [(k, v) for k, v in extras.items()
                   if isinstance(v, float | int) and not isinstance(v, bool)]
        for i, tile in enumerate(self.extra_tiles):
            if i < len(numeric):
                key, value = numeric[i]
                tile.value.setText(tile_text(key, float(value)))
                tile.value.setAccessibleName(extra_title(key))
                tile.set_caption(extra_title(key).lower(), extra_title(key))
                tile.show()
            else:
                tile.hide()

    def _show(self, dist: Dist, empty: bool = False, rolled: int | None = None) -> None:
        pairs = [] if empty else dist.items()
        xs = np.array([v for v, _ in pairs], dtype=float)
        hs = np.array([p for _, p in pairs], dtype=float)
        self.bars.setOpts(x=xs, height=hs, width=0.7)
        if rolled is not None:
            self.rolled_bar.setOpts(x=[float(rolled)], height=[dist.prob(rolled)], width=0.7)
        self._rolled = rolled is not None
        if pairs:
            lo, hi = int(xs.min()), int(xs.max())
            ns = np.arange(lo, hi + 1, dtype=float)
            at_least = np.array([dist.prob_at_least(int(n)) for n in ns])
            self.at_least.setData(ns, at_least)
            self.plot.setXRange(lo - 0.6, hi + 0.6, padding=0)
            self._bar_top = min(1.0, float(hs.max()) * 1.15)
        else:
            self.at_least.setData([], [])
            self._bar_top = 1.0
        self._show_kind()

    def _show_extra(self, value: Any, title: str) -> None:
        self.extra_title = title
        if value is None:
            self.extra_plot.hide()
            return
        xs = np.array([float(a) for a, _ in value])
        hs = np.array([float(p) for _, p in value])
        self.extra_bars.setOpts(x=xs, height=hs, width=0.7)
        ns = np.arange(int(xs.min()), int(xs.max()) + 1, dtype=float)
        dist = dict(zip(xs.astype(int).tolist(), hs.tolist(), strict=True))
        self.extra_at_least.setData(
            ns, np.array([sum(p for a, p in dist.items() if a >= n) for n in ns]))
        self._extra_top = min(1.0, float(hs.max()) * 1.15)
        self.extra_name.setText(title.lower())
        self.extra_plot.setToolTip(f"{title}: exact probabilities")
        (x0, x1), _ = self.plot.viewRange()
        self.plot.setXRange(min(x0, float(xs.min()) - 0.6), max(x1, float(xs.max()) + 0.6),
                            padding=0)
        self.extra_plot.show()
        self._show_kind()

    def _show_kind(self) -> None:
        """Bars of P(= n), or the curves of P(≥ n) (the "at least N" view)."""
        at_least = self.showing_at_least
        self.bars.setVisible(not at_least)
        self.rolled_bar.setVisible(self._rolled and not at_least)
        self.at_least.setVisible(at_least)
        self.extra_bars.setVisible(not at_least)
        self.extra_at_least.setVisible(at_least)
        self.plot.setYRange(0, 1.02 if at_least else self._bar_top,
                            padding=0)
        self.extra_plot.setYRange(0, 1.02 if at_least else self._extra_top,
                                  padding=0)
        which = "P(≥ n): the chance of at least n" if at_least else "P(= n)"
        self.plot.setToolTip(f"Damage to the target, {which}")


def _pane_name(plot: pg.PlotWidget, color: str) -> pg.LabelItem:
    """The name of what a plot shows, in its top right corner (an axis title would take
    a line of the card's height)."""
    label = pg.LabelItem("", color=color, size="8pt", justify="right")
    label.setParentItem(plot.getPlotItem().vb)
    label.anchor(itemPos=(1, 0), parentPos=(1, 0), offset=(-4, 0))
    return label


def _probability_plot(tooltip: str) -> pg.PlotWidget:
    """A fixed (no mouse zoom) white plot of probabilities, small enough for a card."""
    plot = pg.PlotWidget()
    plot.setToolTip(tooltip)
    plot.setBackground("w")
    plot.setMouseEnabled(x=False, y=False)
    plot.hideButtons()
    plot.setMenuEnabled(False)
    plot.setMinimumHeight(PLOT_MIN_HEIGHT)
    plot.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Expanding)
    left = plot.getAxis("left")
    left.enableAutoSIPrefix(False)
    left.setWidth(38)
    plot.setYRange(0, 1.0)
    return plot
