"""The wording table (``rules/words.py`` and ``rules/<ruleset>/words.py``): every rule id an
engine can emit has a player's sentence in every ruleset that can emit it, and what the
window shows of checks, modifiers, options and state never shows an internal key."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from tabletop_gui.rules import registry, words
from tabletop_gui.rules.base import AttackRequest, Check, Modifier, RulesError
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.load import load_scenario

RULES = Path(words.__file__).resolve().parent
DEMOS = Path(__file__).resolve().parents[2] / "resources" / "demos"

# which rulesets each package of rules/ serves (a file outside these serves them all)
PACKAGE_RULESETS = {
    "warcry": ("warcry",),
    "fight_vs_defense": ("fight-vs-defense",),
    "mordheim_warcry": ("mordheim-warcry",),
    "ninth_age": ("ninth-age",),
    "circle_of_realms": ("circle-of-realms",),
    "warcry_family": ("warcry", "fight-vs-defense", "mordheim-warcry"),
}
CHECK_CALL = re.compile(r"\bCheck\(")
CHECK_ID = re.compile(r"\bCheck\(\s*\"(\w+)\"")

# what the window must never show: key=value, snake_case keys, a bare -1, limb codes
INTERNAL = re.compile(r"[A-Za-z]\w*=|\b[A-Za-z]+_\w+\b|(?<![\w.+-])-1(?![\w.])(?! \w)"
                      r"|\b(RH|LH|RL|LL)\b")


def emitted_ids() -> dict[str, set[str]]:
    """Rule ids each ruleset's engine code can emit, read from its ``Check("id", ...)``
    calls (a ``Check(`` with anything but a literal id fails here: the table could not
    be checked against it)."""
    out: dict[str, set[str]] = {rid: set() for rid in registry.RULESET_IDS}
    for path in RULES.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name == "base.py":  # the class itself
            text = text.replace("class Check:", "")
        calls, ids = CHECK_CALL.findall(text), CHECK_ID.findall(text)
        assert len(calls) == len(ids), f"{path}: a Check( without a literal rule id"
        package = path.parent.name
        serves = PACKAGE_RULESETS.get(package, registry.RULESET_IDS)
        for rid in serves:
            out[rid].update(ids)
    return out


def test_the_grep_finds_the_rule_ids_of_every_ruleset():
    ids = emitted_ids()
    assert {"range", "visible", "friendly_fire", "minimum_range"} <= ids["warcry"]
    assert {"melee_forced"} <= ids["mordheim-warcry"]
    assert {"weapon_master", "alive", "to_hit"} <= ids["ninth-age"]
    assert {"weapon", "friendly_fire"} <= ids["circle-of-realms"]


@pytest.mark.parametrize("ruleset_id", registry.RULESET_IDS)
def test_every_rule_id_an_engine_can_emit_has_a_sentence(ruleset_id):
    missing = sorted(r for r in emitted_ids()[ruleset_id]
                     if words.rule_words(ruleset_id, r) is None)
    assert missing == [], f"{ruleset_id}: no words for rule ids {missing}"
    for rule in emitted_ids()[ruleset_id]:
        w = words.rule_words(ruleset_id, rule)
        assert w is not None and w.meaning.endswith(".") and not INTERNAL.search(w.title)


def test_a_rule_id_without_words_is_reported_missing():
    assert words.rule_words("warcry", "no_such_rule") is None
    assert words.rule_words("warcry", "melee_forced") is None  # Mordheim's own rule


def _variants(scenario: Scenario) -> list[Scenario]:
    """The demo, and the demo with every model taken down (attackers and targets that
    cannot fight), and with every fighter's hands lost (a weapon held in a lost hand)."""
    out = [scenario]
    down = scenario
    for m in scenario.models:
        down = down.with_entity(replace(m, state={**m.state, "taken_down": True}))
    out.append(down)
    if scenario.ruleset == "circle-of-realms":
        handless = scenario
        for m in scenario.models:
            handless = handless.with_entity(
                replace(m, state={**m.state, "limbs_lost": ["RH", "LH"]}))
        out.append(handless)
    return out


SITUATIONS = {  # situational options that make more checks fail
    "ninth-age": ({}, {"moved": True, "marched": True, "stand_and_shoot": True},
                  {"crush_attack": True}),
}


def demo_reports(ruleset_id: str):  # noqa: ANN201
    """Every attack of every ordered pair of the demo and its variants, every weapon."""
    ruleset = registry.get(ruleset_id)
    for scenario in _variants(load_scenario(DEMOS / f"{ruleset_id}.battle.json")):
        battle = battle_of(scenario)
        for a in scenario.models:
            for t in scenario.models:
                if a.id == t.id:
                    continue
                for weapon in ruleset.weapon_choices(battle, a.id) or [None]:
                    for situation in SITUATIONS.get(ruleset_id, ({},)):
                        try:
                            yield ruleset.attack(
                                battle, AttackRequest(a.id, t.id, weapon, None, situation))
                        except RulesError:
                            continue


@pytest.mark.parametrize("ruleset_id", registry.RULESET_IDS)
def test_every_check_of_the_demos_reads_as_a_players_sentence(ruleset_id):
    seen: dict[str, set[bool]] = {}
    for report in demo_reports(ruleset_id):
        for check in report.checks:
            seen.setdefault(check.rule, set()).add(check.ok)
            assert words.rule_words(ruleset_id, check.rule) is not None, check.rule
            for shown in (words.check_title(ruleset_id, check),
                          words.check_sentence(ruleset_id, check)):
                assert not INTERNAL.search(shown), f"{ruleset_id}: {shown!r}"
        for m in report.modifiers:
            shown = words.modifier_sentence(ruleset_id, m)
            assert not INTERNAL.search(shown), f"{ruleset_id}: {shown!r}"
    # the walk made the common checks both pass and fail
    assert seen.get("range") == {True, False}, (ruleset_id, seen.get("range"))
    taken = "alive" if ruleset_id == "ninth-age" else "taken_down"
    assert seen[taken] == {True, False}


def test_check_sentence_spells_out_comparisons_inches_and_limbs():
    out = Check("range", False, 'out of range: 7.2" > 6"', 7.2, 6.0, -1.2)
    assert words.check_sentence("warcry", out) == "Out of range: 7.2\u2033 is more than 6\u2033"
    near = Check("range", True, 'in range: 3" <= 6"')
    assert words.check_sentence("warcry", near) == "In range: 3\u2033 is at most 6\u2033"
    assert words.check_title("warcry", Check("friendly_fire", True, "")) == "Friendly fire"
    assert words.check_sentence("circle-of-realms", Check("weapon", False, "lost RH")) \
        == "Lost right hand"
    # an id first stays as it is: "c1", not "C1"
    assert words.check_sentence("circle-of-realms", Check("attacker", True, "c1 can attack")) \
        == "c1 can attack"


def test_modifier_sentence():
    m = Modifier("long range", "-1 to hit", 'long range: 11.25" > half of 18"')
    assert words.modifier_sentence("ninth-age", m) == \
        "Long range: -1 to hit (long range: 11.25\u2033 is more than half of 18\u2033)"


def test_state_words():
    assert words.state_words("warcry", "taken_down", False) == "not taken down"
    assert words.state_words("warcry", "taken_down", True) == "taken down"
    assert words.state_words("ninth-age", "hp_lost", 3) == "3 Health Points lost"
    assert words.state_words("warcry", "damage", 2) == "2 damage"
    assert words.state_words("circle-of-realms", "limbs_lost", ["RH", "LL"]) == \
        "lost right hand, left leg"
    assert words.state_words("circle-of-realms", "limbs_lost", []) == "no limb lost"
    assert words.state_sentence("warcry", {"damage": 1, "taken_down": False}) == \
        "1 damage, not taken down"


def test_option_words():
    assert words.option_words("ninth-age", "attacking_models", -1) == "automatic"
    assert words.option_words("ninth-age", "attacking_models", 4) == "4"
    assert words.option_label("ninth-age", "attacking_models") == "Attacking models"
    assert words.option_words("circle-of-realms", "limb_choice", "RL") == "right leg"
    assert words.option_words("circle-of-realms", "limb_choice", "") == "main hand (default)"
    assert words.option_words("ninth-age", "cover_threshold", "half_or_more") == \
        "half or more hidden"
    assert words.option_words("warcry", "cover", "missile") == "missile attacks only"
    assert words.option_words("mordheim-warcry", "diving_charge", True) == "yes"
    # a ruleset's own option never falls back to its key
    for rid in registry.RULESET_IDS:
        info = registry.info(rid)
        for spec in (*info.situational_options, *info.ruleset_options):
            assert "_" not in words.option_label(rid, spec.key)
            for choice in spec.choices:
                assert not INTERNAL.search(words.option_words(rid, spec.key, choice)), choice
            if spec.kind == "int" and spec.minimum == -1:
                assert words.option_words(rid, spec.key, -1) == "automatic"


def test_limbs_outcomes_extras_and_unknown_rulesets():
    assert [words.limb_words(c) for c in ("RH", "LH", "RL", "LL")] == \
        ["right hand", "left hand", "right leg", "left leg"]
    assert words.outcome_words("circle-of-realms", "RL") == "right leg"
    assert words.outcome_words("warcry", "critical") == "critical"
    assert words.extra_words("circle-of-realms", "dismemberment",
                             {"attacker": [], "defender": ["RL"]}) == \
        "limbs lost: attacker none, defender right leg"
    assert words.extra_words("circle-of-realms", "critical", True) == "critical hit: yes"
    assert words.attack_type_words("ninth-age", "close_combat") == "close combat"
    assert words.arc_words("left_flank") == "left flank"
    assert words.option_label("no-such-ruleset", "some_key") == "Some key"
