"""The attack card on a laptop's screen: the window built exactly as ``tabletop-gui``
builds it, placed on a 1366×768 (and a 1280×800) screen, shows Roll, Apply, the dice and
the odds at once, wholly inside the window and not clipped by any scroll area, with no
horizontal scrollbar anywhere; every control of the card has an accessible name; the
dice are drawn as dice."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRect, QRectF, QSettings, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QWidget,
)

from tabletop_gui.model import recovery
from tabletop_gui.rules.base import DieRoll
from tabletop_gui.rules.resolver import DieAsk
from tabletop_gui.ui.card_view import step_of
from tabletop_gui.ui.dice_tray import (
    LOOKS,
    DiceTray,
    die_outline,
    groups_of,
    look_of,
    paint_die,
    pips_path,
)
from tabletop_gui.ui.main_window import MainWindow, dock_sizes, first_geometry
from tests.gui.attack_support import DEMOS, RULESETS, built_window, first_pair, settle

CHOICE_SEED = {"circle-of-realms": 4}  # a roll of the demo's first pair that asks for a limb
SCREENS = {"1366x768": QRect(0, 0, 1366, 768), "1280x800": QRect(0, 0, 1280, 800)}
NAMES = ("Attacker", "Target", "Weapon", "Roll", "Apply", "Expected damage",
         "Take-down chance", "Dice")
CONTROLS = (QAbstractButton, QComboBox, QAbstractSpinBox, QLineEdit, QAbstractItemView)


@pytest.fixture
def laptop(qtbot, tmp_path, monkeypatch):
    """A function: the window on a ruleset's demo, as ``run_app`` builds it, placed on a
    screen of the given size, with an attacker and its first valid target chosen."""
    monkeypatch.setattr(recovery, "default_folder", lambda: tmp_path / "recovery")

    def make(ruleset: str, screen: QRect):  # noqa: ANN202
        window = built_window(qtbot, str(DEMOS / f"{ruleset}.battle.json"), ruleset)
        window.keep_state = False
        window.files.maybe_discard = lambda: True
        window.place_on(screen)
        attacker, target = first_pair(window.document.scenario)
        window.document.set_selection([attacker])
        flow = window.attack_flow
        settle(qtbot, flow)
        flow.attack.set_target(target)
        settle(qtbot, flow)
        qtbot.waitUntil(lambda: flow.attack_panel.view.report is not None)
        return window, flow

    return make


def _shown_whole(widget: QWidget, window: QWidget) -> None:
    """``widget`` lies inside the window and none of it is clipped (a scroll area, the
    window's edge, another widget on top)."""
    assert widget.isVisible(), widget.accessibleName()
    where = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    assert window.rect().contains(where), (widget.accessibleName(), where, window.rect())
    # a scroll area (a plot, a list) is seen through its viewport, which covers it
    face = widget.viewport() if isinstance(widget, QAbstractScrollArea) else widget
    seen = face.visibleRegion()
    assert seen.boundingRect() == face.rect(), widget.accessibleName()
    assert seen.rectCount() == 1, widget.accessibleName()


def _no_horizontal_scrollbar(window: QWidget) -> None:
    for area in window.findChildren(QAbstractScrollArea):
        if area.isVisible() and not area.visibleRegion().isEmpty():  # (not a hidden tab)
            bar = area.horizontalScrollBar()
            assert not bar.isVisible(), (type(area).__name__, area.accessibleName(),
                                         area.width(), bar.maximum())


def _wait_layout(qtbot, flow) -> None:  # noqa: ANN001
    """The card laid out for what it shows (the tray's height follows its dice)."""
    dice = flow.attack_panel.dice
    qtbot.waitUntil(lambda: dice.tray.height() == dice.tray.height_at(dice.tray.width())
                    and dice.height() >= dice.minimumSizeHint().height())


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_roll_apply_dice_and_odds_on_a_laptop_screen(laptop, qtbot, ruleset, screen):
    window, flow = laptop(ruleset, SCREENS[screen])
    assert SCREENS[screen].contains(window.frameGeometry())
    panel = flow.attack_panel
    # the canvas has the biggest share of the width
    canvas = window.centralWidget().width()
    sides = [d.width() for d in window.docks.values() if d.isVisible()
             and window.dockWidgetArea(d) != Qt.DockWidgetArea.BottomDockWidgetArea]
    assert canvas > max(sides)
    stages = ["before the roll", "after the roll"]
    if ruleset in CHOICE_SEED:
        stages.append("a choice asked")
    for stage in stages:
        if stage != "before the roll":
            if stage == "a choice asked":
                panel.dice.seed_box.setValue(CHOICE_SEED[ruleset])
            qtbot.keyClick(window.view, Qt.Key.Key_R)
            settle(qtbot, flow)
            qtbot.waitUntil(lambda: flow.attack.current_view.resolution is not None)
            assert panel.apply_button.isEnabled()
        _wait_layout(qtbot, flow)
        shown = [panel.dice.roll_button, panel.apply_button, panel.dice.tray,
                 panel.dice.status_label, panel.odds.plot, panel.checklist,
                 panel.verdict_label, panel.odds.expected_label, panel.odds.take_down_label]
        if ruleset == "circle-of-realms":
            shown.append(panel.odds.extra_plot)
        if stage == "before the roll":
            shown += [b for b in panel.dice.face_buttons if b.isVisibleTo(panel)]
        if stage == "a choice asked":
            assert panel.dice.choice_buttons, "the seed asks for no choice"
            shown += [panel.dice.choice_label, *panel.dice.choice_buttons]
        for w in shown:
            _shown_whole(w, window)
        _no_horizontal_scrollbar(window)
        # every check of the demo's attack is in view: the list does not scroll
        assert panel.checklist.verticalScrollBar().maximum() == 0
    assert len(panel.dice.tray.groups) >= 1


def test_every_control_of_the_card_is_named(laptop):
    window, flow = laptop("ninth-age", SCREENS["1366x768"])
    card = flow.attack_panel
    card.options_toggle.click()  # the situation's options too
    names = {w.accessibleName() for w in card.findChildren(QWidget)}
    for name in NAMES:
        assert name in names, name
    unnamed = [f"{type(w).__name__} {w.objectName()} {getattr(w, 'text', lambda: '')()}"
               for w in card.findChildren(QWidget)
               if isinstance(w, CONTROLS) and not w.accessibleName()
               and not isinstance(w.parent(), QComboBox | QAbstractSpinBox)
               and w.isVisibleTo(card)]
    assert unnamed == []


def test_window_size_from_the_screen(qtbot, tmp_path):
    laptop_screen = QRect(0, 25, 1366, 743)  # a panel at the top
    assert first_geometry(laptop_screen) == laptop_screen
    big = first_geometry(QRect(0, 0, 3840, 2160))
    assert big.size().width() == pytest.approx(0.85 * 3840, abs=1)
    assert big.center() == QRect(0, 0, 3840, 2160).center()
    left, right, log = dock_sizes(1366, 743)
    assert right + left < 1366 / 2  # the canvas keeps more than half
    assert 340 <= right <= 480 and 80 <= log <= 180


def test_a_saved_window_bigger_than_the_screen_is_placed_afresh(qtbot, tmp_path):
    from tabletop_gui.model.document import Document
    from tests.gui.factories import skirmish

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    first = MainWindow(Document(skirmish()), settings)
    qtbot.addWidget(first)
    first.setGeometry(QRect(-500, 0, 5000, 3000))  # a big screen, since unplugged
    first.save_state()
    again = MainWindow(Document(skirmish()), settings)
    qtbot.addWidget(again)
    available = again.screen().availableGeometry()
    assert available.contains(again.frameGeometry())


# -- the dice drawn as dice -----------------------------------------------------------
@pytest.mark.parametrize("face", range(1, 7))
def test_a_d6_is_drawn_with_its_pips(qtbot, face):
    rect = QRectF(0, 0, 60, 60)
    path = pips_path(face, rect)
    assert len(path.toSubpathPolygons()) == face
    # painted: as many separate spots of the ink as the face says
    die = DieRoll(6, face, "hit roll 1", "hit")
    image = QImage(64, 64, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    paint_die(painter, QRectF(2, 8, 54, 54), die)
    painter.end()
    inside = QRect(8, 16, 41, 41)  # the face, clear of the rounded corners and the mark
    assert _blobs(image, QColor(LOOKS["hit"].ink), inside) == face


def test_other_dice_show_their_number_on_their_own_shape(qtbot):
    assert pips_path(7, QRectF(0, 0, 30, 30)).isEmpty()
    diamond = die_outline(8, QRectF(0, 0, 30, 30)).toSubpathPolygons()[0]
    assert len(diamond) == 5  # four corners, closed
    square = die_outline(6, QRectF(0, 0, 30, 30))
    assert square.boundingRect() == QRectF(0, 0, 30, 30)


def test_outcomes_have_a_colour_and_a_mark():
    kinds = {o: look_of(o).kind for o in ("miss", "hit", "critical", "hit (natural 6)",
                                          "wound", "fail", "saved", "halved", "attack")}
    assert kinds == {"miss": "miss", "hit": "hit", "critical": "critical",
                     "hit (natural 6)": "critical", "wound": "wound", "fail": "miss",
                     "saved": "saved", "halved": "saved", "attack": "neutral"}
    marked = [look for kind, look in LOOKS.items() if kind != "neutral"]
    assert len({look.mark for look in marked}) == len(marked)  # not by colour alone
    assert len({look.fill for look in marked}) == len(marked)


def test_the_tray_groups_dice_by_step_and_shows_the_next_die(qtbot):
    rolled = (DieRoll(6, 5, "hit roll, attack 1", "hit"),
              DieRoll(6, 2, "hit roll, attack 2", "miss"),
              DieRoll(6, 4, "to-wound roll, attack 1", ""))
    asked = DieAsk(6, "to-wound roll, attack 2", "to wound", 1, "roll 1 die to wound, 4+")
    groups = groups_of(rolled, asked)
    assert [(g.step, len(g.dice), g.asks) for g in groups] == [
        ("hit roll", 2, False), ("to-wound roll", 1, True)]
    assert step_of("hit roll 3") == "hit roll" and step_of("defense") == "defense"
    tray = DiceTray()
    qtbot.addWidget(tray)
    tray.resize(200, 10)
    tray.show_dice(rolled, asked)
    placed, captions, height = tray.layout_dice(tray.width())
    assert [p.die for p in placed] == [*rolled, None]  # the next die: an empty slot
    assert "roll 1 die to wound, 4+" in placed[-1].tooltip
    assert [c for _, c in captions] == ["hit roll — 2 dice: 1 hit, 1 miss",
                                        "to-wound roll"]
    assert tray.height() == height
    assert "5 (hit), 2 (miss)" in tray.accessibleDescription()


def _blobs(image: QImage, ink: QColor, where: QRect) -> int:
    """Connected spots of (nearly) the colour ``ink`` inside ``where``."""
    data = np.array([[QColor(image.pixel(x, y)).getRgb()[:3]
                      for x in range(where.left(), where.right() + 1)]
                     for y in range(where.top(), where.bottom() + 1)], dtype=int)
    mask = np.abs(data - np.array(ink.getRgb()[:3])).sum(axis=2) < 60
    seen = np.zeros_like(mask)
    count = 0
    for y0, x0 in zip(*np.nonzero(mask), strict=True):
        if seen[y0, x0]:
            continue
        count += 1
        stack = [(y0, x0)]
        while stack:
            y, x = stack.pop()
            if not (0 <= y < mask.shape[0] and 0 <= x < mask.shape[1]) or seen[y, x] \
                    or not mask[y, x]:
                continue
            seen[y, x] = True
            stack += [(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)]
    return count


def test_the_card_draws_an_attack_view(qtbot, tmp_path):
    """The card draws an ``AttackView`` (``evaluate``) as it draws the published one: the
    next die's purpose over the tray, the dice fed so far, the conditioned odds."""
    from types import SimpleNamespace

    from tabletop_gui.model.attack_controller import AttackController
    from tabletop_gui.model.attack_view import AttackChoice, DiceEntry, evaluate
    from tabletop_gui.model.target_scanner import TargetScanner
    from tabletop_gui.scenario.battle import battle_of
    from tabletop_gui.scenario.snapshot import Snapshot
    from tabletop_gui.ui.attack_panel import AttackPanel
    from tests.core.attack_helpers import raise_failure
    from tests.gui.attack_support import demo

    scenario = demo("ninth-age")
    attacker, target = first_pair(scenario)
    snapshot = SimpleNamespace(scenario=scenario, battle=battle_of(scenario))
    view = evaluate(snapshot, AttackChoice(attacker, None, None, target),
                    DiceEntry(faces=(6, 1)))
    assert view.next_die is not None
    attack = AttackController(Snapshot.of(scenario))
    card = AttackPanel(attack, TargetScanner(attack.runner, raise_failure))
    qtbot.addWidget(card)
    card.show_view(view)
    assert view.next_die.purpose in card.dice.status_label.text()
    assert card.dice.tray.rolled == view.rolled and len(view.rolled) == 2
    assert card.odds.expected_label.text() == f"{view.odds.mean:.2f}"
    assert card.checklist.topLevelItemCount() == len(view.report.checks)


def _card_state(card) -> tuple[object, ...]:  # noqa: ANN001
    """What the card's verdict, lists, table row and Apply show."""
    def rows(tree, columns):  # noqa: ANN001, ANN202
        return [tuple((item.text(c), item.foreground(c).color().name(), item.toolTip(c))
                      for c in range(columns))
                for item in (tree.topLevelItem(n) for n in range(tree.topLevelItemCount()))]

    verdict, table = card.verdict_label, card.table_row_label
    return (verdict._text, verdict._color and verdict._color.name(), verdict.font().bold(),
            verdict._background, verdict.toolTip(), rows(card.checklist, 3),
            card.checklist.isVisibleTo(card), rows(card.modifiers, 2),
            card.modifiers.isVisibleTo(card), table._text, table.isVisibleTo(card),
            (table._color and table._color.name(), table.font().bold(),
             table._background and table._background.name()) if table._text else None,
            card.apply_button.isEnabled(), card.apply_button.toolTip())


def test_the_card_skips_drawing_only_what_it_shows_already(qtbot):
    """A card that skips drawing a view saying what it shows already (a new answer of a
    move or a drag, equal to the last) shows what a card drawing every view shows, shown
    the same views: random views of several rulesets (valid, refused, with modifiers and
    a table row, none, pending), each answered afresh (new report objects) once or twice
    in a row; its checklist rows, kept made per check value, are those made afresh."""
    import random

    from tabletop_gui.model.attack_controller import AttackController
    from tabletop_gui.model.target_scanner import TargetScanner
    from tabletop_gui.scenario.snapshot import Snapshot
    from tabletop_gui.ui.attack_panel import AttackPanel
    from tabletop_gui.ui.card_view import CardView, view_of
    from tests.core.attack_helpers import raise_failure
    from tests.gui.attack_support import attack_views, demo, show_as_drawing_every, shown_view

    def card_of(attack: AttackController) -> AttackPanel:
        card = AttackPanel(attack, TargetScanner(attack.runner, raise_failure))
        qtbot.addWidget(card)
        card.show()
        return card

    views = attack_views()
    rng = random.Random(17)
    attack = AttackController(Snapshot.of(demo(RULESETS[0])))
    card, every = card_of(attack), card_of(attack)
    drawn = set()
    for step in range(40):
        pick = rng.randrange(len(views) + 2)
        for _ in range(rng.choice((1, 2))):  # answered again: a new, equal report
            if pick == len(views):
                view = CardView(message="" if step % 2 else "No line of sight")
            elif pick == len(views) + 1:
                view = view_of(attack.current_view)  # none: pending or not
                attack._dirty = bool(step % 2)  # (the answer asked for, pending)
            else:
                view = shown_view(*views[pick])
            every._check_lines.clear()  # its checklist rows made afresh, not kept
            drawn.add(show_as_drawing_every(card, every, view, _card_state))
    assert drawn == {True, False}  # both kept and redrawn were met
