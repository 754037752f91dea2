"""The window speaks a player's words (``rules.words``): the log lines, the checklist rows
and the situational options of every demo show no internal key, no ``key=value``, no bare
-1 and no limb code."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QComboBox, QLabel, QSpinBox

from tabletop_gui.model.attack_controller import AttackController
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, RulesError, SeededDice
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.snapshot import Snapshot
from tabletop_gui.ui.attack_panel import check_row, check_tooltip
from tabletop_gui.ui.log_panel import attack_entry
from tabletop_gui.ui.option_widgets import OptionsForm
from tests.core.test_words import INTERNAL, demo_reports
from tests.gui.attack_support import demo


@pytest.mark.parametrize("ruleset_id", registry.RULESET_IDS)
def test_log_lines_of_the_demos_show_no_internal_keys(ruleset_id):
    scenario = demo(ruleset_id)
    ruleset, battle = registry.get(ruleset_id), battle_of(scenario)
    logged = 0
    for a in scenario.models:
        for t in scenario.models:
            if a.side == t.side:
                continue
            for weapon in ruleset.weapon_choices(battle, a.id)[:2] or [None]:
                request = AttackRequest(a.id, t.id, weapon)
                try:
                    report = ruleset.attack(battle, request)
                except RulesError:
                    continue
                if not report.valid:
                    continue
                for seed in (1, 2):
                    entry = attack_entry(report, ruleset.resolve(battle, request,
                                                                 SeededDice(seed)),
                                         scenario, seed, 1)
                    logged += 1
                    for line in entry.splitlines():
                        assert not INTERNAL.search(line), f"{ruleset_id}: {line!r}"
    assert logged > 0


def test_a_log_line_names_the_state_in_words():
    scenario = demo("ninth-age")
    ruleset, battle = registry.get("ninth-age"), battle_of(scenario)
    a, t = "u1", "u4"
    request = AttackRequest(a, t)
    report = ruleset.attack(battle, request)
    entry = attack_entry(report, ruleset.resolve(battle, request, SeededDice(3)), scenario,
                         3, 7)
    assert "(close combat)" in entry and "front arc" in entry
    assert "Health Points lost" in entry.splitlines()[-1]
    assert "hp_lost" not in entry and "close_combat" not in entry


@pytest.mark.parametrize("ruleset_id", registry.RULESET_IDS)
def test_checklist_rows_of_the_demos_are_in_words(ruleset_id):
    for report in demo_reports(ruleset_id):
        for check in report.checks:
            mark, sentence, _numbers = check_row(check, ruleset_id)
            title = check_tooltip(check, ruleset_id).split(":")[0]
            assert mark in ("✔", "✖")
            assert not INTERNAL.search(title) and not INTERNAL.search(sentence), \
                (ruleset_id, title, sentence)


def test_option_widgets_say_automatic_and_spell_limbs(qtbot):
    form = OptionsForm(AttackController(Snapshot.of(demo("ninth-age"))))
    qtbot.addWidget(form)
    spin = form.widgets["attacking_models"]
    assert isinstance(spin, QSpinBox) and spin.value() == -1
    assert spin.text() == "automatic"
    assert spin.toolTip().splitlines()[0] == \
        "Models attacking; automatic: counted from the geometry"
    labels = [w.text() for w in form.findChildren(QLabel)]
    assert "Attacking models" in labels and not any("_" in text for text in labels)
    form = OptionsForm(AttackController(Snapshot.of(demo("circle-of-realms"))))
    qtbot.addWidget(form)
    combo = form.widgets["limb_choice"]
    assert isinstance(combo, QComboBox)
    items = [combo.itemText(i) for i in range(combo.count())]
    assert items == ["main hand (default)", "right hand", "left hand", "right leg", "left leg"]
    assert [combo.itemData(i) for i in range(combo.count())] == ["", "RH", "LH", "RL", "LL"]
