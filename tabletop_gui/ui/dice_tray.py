"""The dice tray: the dice of an attack drawn as dice, grouped by step.

A d6 shows its pips, other dice their face number on a shape of their own (a diamond for
a d8, a hexagon for the rest); each die is coloured and marked by its outcome (miss, hit,
critical, wound, saved, …) so that colour is never the only sign; the die the rules ask
for next is a dashed outline with a "?" at the end of its step. Each die's tooltip says
what it was for, and the tray's accessible description lists every die in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPolygonF,
    QResizeEvent,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from tabletop_gui.rules.base import DieRoll
from tabletop_gui.rules.resolver import DieAsk
from tabletop_gui.ui.card_view import step_of

DIE = 30  # side of a die, px
DIE_SIZES = (DIE, 24, 20)  # smaller when there are many dice
TRAY_MOST = 130  # the tray's height, px, beyond which smaller dice are drawn
MARK_ROOM = 3  # between a caption and its dice (the outcome marks stand out a little)
GAP = 6  # between dice (room for the outcome's mark at a die's corner)
CAPTION = 15  # height of a step's caption
PIP = 0.2  # pip diameter as a share of the die
# pip centres of a d6 face, in the unit square (the usual layout)
_L, _M, _H = 0.25, 0.5, 0.75
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_M, _M),),
    2: ((_L, _L), (_H, _H)),
    3: ((_L, _L), (_M, _M), (_H, _H)),
    4: ((_L, _L), (_H, _L), (_L, _H), (_H, _H)),
    5: ((_L, _L), (_H, _L), (_M, _M), (_L, _H), (_H, _H)),
    6: ((_L, _L), (_H, _L), (_L, _M), (_H, _M), (_L, _H), (_H, _H)),
}


@dataclass(frozen=True)
class Look:
    """How a die of some outcome is drawn: fill, ink (pips, number), mark, kind."""

    fill: str
    ink: str
    mark: str
    kind: str  # "miss", "hit", "critical", "wound", "saved", "neutral"


LOOKS = {  # Okabe-Ito colours (colour-blind safe), with a mark as well
    "miss": Look("#E4E4E4", "#6A6A6A", "✖", "miss"),
    "hit": Look("#0072B2", "#FFFFFF", "✔", "hit"),
    "critical": Look("#E69F00", "#000000", "★", "critical"),
    "wound": Look("#D55E00", "#FFFFFF", "✚", "wound"),
    "saved": Look("#009E73", "#FFFFFF", "◆", "saved"),
    "neutral": Look("#FFFFFF", "#000000", "", "neutral"),
}


def look_of(outcome: str) -> Look:
    """The look of a die's outcome, from the words the rules use for it."""
    word = outcome.lower()
    if "critical" in word or "natural 6" in word:
        return LOOKS["critical"]
    if word.startswith(("miss", "fail")) or word == "none":
        return LOOKS["miss"]
    if word.startswith(("saved", "halved", "blocked")):
        return LOOKS["saved"]
    if word.startswith(("wound", "unsaved")):
        return LOOKS["wound"]
    if word.startswith("hit"):
        return LOOKS["hit"]
    return LOOKS["neutral"]


def pips_path(face: int, rect: QRectF) -> QPainterPath:
    """The pips of a d6 face in ``rect`` (one closed ellipse per pip; empty for a face
    that is not 1 to 6)."""
    path = QPainterPath()
    d = PIP * rect.width()
    for x, y in PIPS.get(face, ()):
        path.addEllipse(QPointF(rect.left() + x * rect.width(),
                                rect.top() + y * rect.height()), d / 2, d / 2)
    return path


def die_outline(sides: int, rect: QRectF) -> QPainterPath:
    """The shape of a die: a rounded square for a d6, a diamond for a d8, a hexagon for
    the others."""
    path = QPainterPath()
    if sides == 6:
        path.addRoundedRect(rect, rect.width() * 0.18, rect.height() * 0.18)
        return path
    c, w, h = rect.center(), rect.width() / 2, rect.height() / 2
    if sides == 8:
        pts = [QPointF(c.x(), c.y() - h), QPointF(c.x() + w, c.y()),
               QPointF(c.x(), c.y() + h), QPointF(c.x() - w, c.y())]
    else:
        pts = [QPointF(c.x() + dx * w, c.y() + dy * h) for dx, dy in
               ((-0.5, -1), (0.5, -1), (1, 0), (0.5, 1), (-0.5, 1), (-1, 0))]
    path.addPolygon(QPolygonF(pts))
    path.closeSubpath()
    return path


def die_words(die: DieRoll) -> str:
    outcome = f" → {die.outcome}" if die.outcome else ""
    size = f"d{die.sides} " if die.sides else ""
    return f"{die.label}: {size}{die.face}{outcome}"


@dataclass(frozen=True)
class Placed:
    """A die placed in the tray (``die`` None: the next die, still to roll)."""

    rect: QRectF
    die: DieRoll | None
    tooltip: str


@dataclass(frozen=True)
class Group:
    step: str
    dice: tuple[DieRoll, ...]
    asks: bool  # the next die belongs to this step


def groups_of(rolled: tuple[DieRoll, ...], next_die: DieAsk | None) -> list[Group]:
    """Consecutive dice of one step together, in the order rolled; the next die's step
    last (the one asked for). A die's step is named by its label ("hit roll 3" is a
    "hit roll"), the rolled dice and the one asked alike."""
    out: list[tuple[str, list[DieRoll]]] = []
    for d in rolled:
        step = step_of(d.label)
        if out and out[-1][0] == step:
            out[-1][1].append(d)
        else:
            out.append((step, [d]))
    groups = [Group(s, tuple(ds), False) for s, ds in out]
    if next_die is not None:
        step = step_of(next_die.label)
        if groups and groups[-1].step == step:
            groups[-1] = Group(groups[-1].step, groups[-1].dice, True)
        else:
            groups.append(Group(step, (), True))
    return groups


def caption_of(group: Group) -> str:
    counts: dict[str, int] = {}
    for d in group.dice:
        if d.outcome:
            counts[d.outcome] = counts.get(d.outcome, 0) + 1
    told = ", ".join(f"{n} {o}" for o, n in counts.items())
    n = len(group.dice)
    if n <= 1:  # one die (or none yet): its step, and its outcome once known
        return f"{group.step}: {group.dice[0].outcome}" if n and group.dice[0].outcome \
            else group.step
    dice = f"{n} {'die' if n == 1 else 'dice'}" if n else "no dice yet"
    return f"{group.step} — {dice}" + (f": {told}" if told else "")


class DiceTray(QWidget):
    """The dice rolled or entered, drawn as dice; ``show`` them (and the next die)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rolled: tuple[DieRoll, ...] = ()
        self.next_die: DieAsk | None = None
        self.groups: list[Group] = []
        self.setAccessibleName("Dice")
        self.setToolTip("The dice of the attack, grouped by step, coloured and marked by "
                        "outcome")
        # as tall as the dice at the width given (set on resize: a height-for-width
        # widget would make the card's scroll area ask for the card's whole preferred
        # height)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._fit_height()
        self.setMouseTracking(True)

    def show_dice(self, rolled: tuple[DieRoll, ...], next_die: DieAsk | None) -> None:
        if (rolled, next_die) == (self.rolled, self.next_die):
            return
        self.rolled, self.next_die = rolled, next_die
        self.groups = groups_of(rolled, next_die)
        self.setAccessibleDescription(self.summary())
        self._fit_height()
        self.update()

    def summary(self) -> str:
        """Every die in words, step by step (what a screen reader says)."""
        lines = []
        for g in self.groups:
            faces = ", ".join(f"{d.face}" + (f" ({d.outcome})" if d.outcome else "")
                              for d in g.dice)
            nxt = " — next die to roll" if g.asks else ""
            lines.append(f"{g.step}: {faces or 'none yet'}{nxt}")
        return "\n".join(lines) if lines else "No dice."

    # -- layout ------------------------------------------------------------------------
    def layout_dice(self, width: int) -> tuple[list[Placed], list[tuple[QRectF, str]], int]:
        """Where each die and caption goes at ``width``, and the height it takes: the
        steps side by side while they fit, on further lines when not; smaller dice when
        there are so many that the tray would be taller than ``TRAY_MOST``."""
        for size in DIE_SIZES:
            placed, captions, height = self._layout(width, size)
            if height <= TRAY_MOST:
                break
        return placed, captions, height

    def _layout(self, width: int, size: int
                ) -> tuple[list[Placed], list[tuple[QRectF, str]], int]:
        fm = QFontMetrics(self._caption_font())
        room = max(size, width - 2 * GAP)
        per_row = max(1, (room + GAP) // (size + GAP))
        placed: list[Placed] = []
        captions: list[tuple[QRectF, str]] = []
        x, y, line = float(GAP), 0.0, 0.0
        for g in self.groups:
            items: list[tuple[DieRoll | None, str]] = [(d, die_words(d)) for d in g.dice]
            if g.asks and self.next_die is not None:
                items.append((None, f"next: {self.next_die.purpose}"))
            rows = max(1, -(-len(items) // per_row))
            dice_w = min(len(items), per_row) * (size + GAP) - GAP
            caption = caption_of(g)
            block_w = max(dice_w, min(fm.horizontalAdvance(caption) + 4, room))
            block_h = CAPTION + MARK_ROOM + rows * (size + GAP)
            if x > GAP and x + block_w > width - GAP:
                x, y, line = float(GAP), y + line, 0.0
            captions.append((QRectF(x, y, block_w, CAPTION), caption))
            top = y + CAPTION + MARK_ROOM
            for i, (die, tip) in enumerate(items):
                row, col = divmod(i, per_row)
                rect = QRectF(x + col * (size + GAP), top + row * (size + GAP), size, size)
                placed.append(Placed(rect, die, tip))
            x += block_w + 2 * GAP
            line = max(line, block_h)
        return placed, captions, int(y + line)

    def _caption_font(self) -> QFont:
        small = QFont(self.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.85))
        return small

    def height_at(self, width: int) -> int:
        return max(DIE + 2 * GAP, self.layout_dice(width)[2])

    def _fit_height(self) -> None:
        height = self.height_at(max(self.width(), DIE + 2 * GAP))
        if height != self.minimumHeight():
            self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_height()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(8 * (DIE + GAP) + GAP, self.height_at(max(self.width(), DIE + 2 * GAP)))

    # -- drawing -----------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        placed, captions, _ = self.layout_dice(self.width())
        painter.setFont(self._caption_font())
        painter.setPen(self.palette().windowText().color())
        for rect, text in captions:
            elided = painter.fontMetrics().elidedText(
                text, Qt.TextElideMode.ElideRight, int(rect.width()))
            painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             elided)
        if not self.groups:
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No dice yet")
        for p in placed:
            if p.die is None:
                self._paint_next(painter, p.rect)
            else:
                paint_die(painter, p.rect, p.die)
        painter.end()

    def _paint_next(self, painter: QPainter, rect: QRectF) -> None:
        sides = self.next_die.sides if self.next_die is not None else 6
        pen = QPen(self.palette().windowText().color(), 1.5, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(die_outline(sides, rect.adjusted(1, 1, -1, -1)))
        font = QFont(self.font())
        font.setBold(True)
        painter.setFont(font)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "?")

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ToolTip and isinstance(e, QHelpEvent):
            placed, _, _ = self.layout_dice(self.width())
            hit = next((p for p in placed if p.rect.contains(QPointF(e.pos()))), None)
            if hit is not None:
                QToolTip.showText(e.globalPos(), hit.tooltip, self)
                return True
        return super().event(e)


def paint_die(painter: QPainter, rect: QRectF, die: DieRoll) -> None:
    """One die: its shape in the outcome's colour, pips (d6) or its number, and a mark."""
    look = look_of(die.outcome)
    body = rect.adjusted(1, 1, -1, -1)
    painter.setPen(QPen(QColor(look.ink if look.kind == "neutral" else "#333333"), 1.2))
    painter.setBrush(QColor(look.fill))
    painter.drawPath(die_outline(die.sides, body))
    ink = QColor(look.ink)
    if die.sides == 6 and die.face in PIPS:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(ink)
        painter.drawPath(pips_path(die.face, body))
    else:
        font = painter.font()
        font.setBold(True)
        font.setPixelSize(int(rect.height() * 0.42))
        painter.setFont(font)
        painter.setPen(ink)
        painter.drawText(body, Qt.AlignmentFlag.AlignCenter, str(die.face))
    if look.mark:
        badge = QRectF(rect.right() - 7, rect.top() - 6, 12, 12)
        painter.setPen(QPen(QColor("#333333"), 1))
        painter.setBrush(QColor("#FFFFFF"))
        painter.drawEllipse(badge)
        font = painter.font()
        font.setBold(True)
        font.setPixelSize(8)
        painter.setFont(font)
        painter.setPen(QColor(look.fill if look.kind != "miss" else look.ink))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, look.mark)
