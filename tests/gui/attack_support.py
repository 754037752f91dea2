"""Shared set-up for the attack-flow GUI tests: demo scenarios, a main window with the
attack flow installed, and small helpers to drive it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from tabletop_gui.model.document import Document
from tabletop_gui.scenario.entities import (
    Battlefield,
    Fighter,
    Obstacle,
    RoundBase,
    Scenario,
    Side,
    Weapon,
)
from tabletop_gui.ui.attack_flow import AttackFlow

# the Qt-free ones, imported by the GUI tests from here
from tests.core.attack_helpers import DEMOS as DEMOS
from tests.core.attack_helpers import RULESETS as RULESETS
from tests.core.attack_helpers import demo_scenario
from tests.core.attack_helpers import first_pair as first_pair

demo = demo_scenario  # the GUI tests call it so


def make_window(qtbot, scenario: Scenario, tmp_path: Path):  # noqa: ANN001, ANN201
    from tabletop_gui.ui.main_window import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(scenario), settings=settings)
    window.files.maybe_discard = lambda: True  # closing at teardown asks nothing
    qtbot.addWidget(window)
    flow = window.install_attack_flow()
    window.resize(1500, 950)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    return window, flow


def built_window(qtbot, file: str, ruleset: str):  # noqa: ANN001, ANN201
    """The main window on ``file``, built and completed as ``run_app`` does (build the
    window; once painted, it installs the attack flow and offers the unsaved work); the
    test points the recovery folder into its own directory first."""
    from tabletop_gui.app import build_window

    window = build_window(file, ruleset)
    qtbot.addWidget(window)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    # painted: the window installs its attack flow, then offers the unsaved work
    qtbot.waitUntil(lambda: window.attack_flow is not None and window.recovery.enabled)
    window.view.fit_to_window()
    window.view.setFocus()
    return window


def settle(qtbot, flow: AttackFlow, timeout: int = 20000) -> None:  # noqa: ANN001
    """Wait until the attack flow has every answer, every target status and every mark:
    the rules engine runs on the window's worker thread, the marks are drawn in slices."""
    qtbot.waitUntil(lambda: flow.idle, timeout=timeout)


def select_attacker(qtbot, flow: AttackFlow, attacker: str) -> None:  # noqa: ANN001
    flow.document.set_selection([attacker])
    assert flow.attack.choice.attacker == attacker
    settle(qtbot, flow)


def open_file(qtbot, window, path: Path | str) -> None:  # noqa: ANN001
    """File > Open of ``path`` (read on the worker), waited for until it is shown and
    its items are made."""
    with qtbot.waitSignal(window.files.opened, timeout=20000) as opened:
        assert window.files.open(str(path))
    assert opened.args == [str(path), True]
    qtbot.waitUntil(lambda: not window.scene.building, timeout=20000)


def archers() -> Scenario:
    """Warcry: an archer (range 3-12) at (5, 5), a target 5" away, a wall between the
    archer and a second target, and a third enemy far out of range."""
    bow = Weapon("Bow", {"range": "3-12", "attacks": 2, "strength": 3, "damage": "1/2"})
    sword = Weapon("Sword", {"range": 1, "attacks": 3, "strength": 3, "damage": "1/3"})
    chars = {"move": 4, "toughness": 3, "wounds": 8}
    base = RoundBase(25.4)

    def f(fid: str, side: str, x: float, y: float, weapons: tuple[Weapon, ...] = (sword,)
          ) -> Fighter:
        return Fighter(fid, f"F {fid}", side, x, y, base, characteristics=chars,
                       weapons=weapons)

    return Scenario(
        ruleset="warcry",
        battlefield=Battlefield(30, 22),
        sides=(Side("red", "Red", "#c0392b"), Side("blue", "Blue", "#2e86c1")),
        fighters=(f("a", "red", 5, 5, (bow, sword)), f("t", "blue", 11, 5),
                  f("c", "blue", 5, 13), f("far", "blue", 27, 20)),
        obstacles=(Obstacle("wall", ((3, 8.5), (7, 8.5), (7, 9.0), (3, 9.0)), 0.8,
                            "Low wall"),),
    )


def moved(scenario: Scenario, model_id: str, x: float, y: float) -> Scenario:
    m = scenario.model(model_id)
    assert m is not None
    return scenario.with_entity(replace(m, x=x, y=y))


def attack_views() -> list[tuple[Scenario, object, object]]:
    """(scenario, choice, dice) of the demos of every ruleset: a valid and an invalid
    pair, each also with its target 0.3" further (the same verdict, other numbers), each
    without dice and with two dice fed: views whose answers differ a little or not at
    all, for the cards and panels that skip drawing what they show already."""
    from tabletop_gui.model.attack_view import AttackChoice, DiceEntry

    views: list[tuple[Scenario, object, object]] = []
    for ruleset in RULESETS:
        scenario = demo(ruleset)
        for valid in (True, False):
            attacker, target_id = first_pair(scenario, valid)
            target = scenario.model(target_id)
            assert target is not None
            further = scenario.with_entity(target.moved_to(target.x + 0.3, target.y))
            for board in (scenario, further):
                for dice in (DiceEntry(), DiceEntry(faces=(6, 1))):
                    views.append((board, AttackChoice(attacker, None, None, target_id), dice))
    return views


def shown_view(board: Scenario, choice: object, dice: object) -> object:
    """The view (``ui.card_view.view_of``) of ``choice`` with ``dice`` on ``board``,
    answered afresh (new report objects)."""
    from types import SimpleNamespace

    from tabletop_gui.model.attack_view import evaluate
    from tabletop_gui.scenario.battle import battle_of
    from tabletop_gui.ui.card_view import view_of

    snapshot = SimpleNamespace(scenario=board, battle=battle_of(board))
    return view_of(evaluate(snapshot, choice, dice))  # type: ignore[arg-type]


def show_as_drawing_every(kept: Any, every: Any, view: object,
                          state: Callable[[Any], object]) -> bool:
    """Show ``view`` on ``kept`` (which skips drawing what it shows already) and on
    ``every`` (made to draw it whatever it showed); their ``state`` must be equal. True
    when ``kept`` skipped the drawing."""
    before = kept._drawn
    kept.show_view(view)
    every._shown, every._drawn = (), None
    every.show_view(view)
    assert state(kept) == state(every)
    return kept._drawn is before
