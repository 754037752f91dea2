"""A player's words for what the rules say in ids and keys (the GUI's wording table).

The rules speak in short ids (``Check.rule``: "range", "friendly_fire"), state keys
(``taken_down``, ``hp_lost``), option values (``-1`` for "from the geometry") and limb
codes (RH, LH, RL, LL). The command line keeps them; the window says them the way a player
would. Each ruleset has a table in ``rules/<ruleset>/words.py`` (``WORDS``, a ``Words``);
this module holds the entries common to every ruleset and the look-ups the window calls:

- ``check_title(ruleset_id, check)`` and ``check_sentence(ruleset_id, check)``: a checklist
  row ("Range", "Out of range: 7.2″ is more than 6″"), ``rule_meaning`` for its tooltip;
- ``modifier_sentence(ruleset_id, modifier)``: "Cover: +1 defense (line crosses …)";
- ``state_words(ruleset_id, key, value)`` and ``state_sentence(ruleset_id, state)``:
  "3 damage", "taken down", "lost right hand";
- ``option_label(ruleset_id, key)``, ``option_words(ruleset_id, key, value)`` and
  ``option_help(ruleset_id, key, rules_help)``: "Attacking models", "automatic";
- ``limb_words(code)``, ``attack_type_words``, ``arc_words``, ``outcome_words`` and
  ``extra_words`` for the dice and the result.

Qt-free, so that anything may use it; the command line does not.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tabletop_gui.rules.base import Check, Modifier

LIMBS: Mapping[str, str] = {"RH": "right hand", "LH": "left hand", "RL": "right leg",
                            "LL": "left leg"}


@dataclass(frozen=True)
class RuleWords:
    """One rule id in a player's words: a short title and what the rule asks."""

    title: str  # "Range"
    meaning: str  # "The target must be within the weapon's range."


@dataclass(frozen=True)
class Words:
    """A ruleset's wording table (``rules/<ruleset>/words.py``): entries here win over
    the common ones."""

    rules: Mapping[str, RuleWords] = field(default_factory=dict)
    # state keys and situational options: a label ("Health Points lost")
    state: Mapping[str, str] = field(default_factory=dict)
    options: Mapping[str, str] = field(default_factory=dict)
    # option values in words, by option key: {"attacking_models": {-1: "automatic"}}
    option_values: Mapping[str, Mapping[Any, str]] = field(default_factory=dict)
    # an option's help where the rules' help names a raw value ("-1: from the geometry")
    option_help: Mapping[str, str] = field(default_factory=dict)
    # resolution extras (``Resolution.extras``): a label
    extras: Mapping[str, str] = field(default_factory=dict)
    attack_types: Mapping[str, str] = field(default_factory=dict)
    outcomes: Mapping[str, str] = field(default_factory=dict)


#: Rule ids several rulesets share; a ruleset's own table may say them its way.
COMMON_RULES: Mapping[str, RuleWords] = {
    "attacker": RuleWords("Attacker", "The attacker must still be in the game."),
    "enemy": RuleWords("Enemy", "The target must be an enemy."),
    "taken_down": RuleWords("Target standing",
                            "A fighter that is taken down cannot be attacked."),
    "visible": RuleWords("Line of sight", "The attacker must see the target."),
    "range": RuleWords("Range", "The target must be within the weapon's range."),
    "engaged": RuleWords("Engagement",
                         'An attacker with enemies within 1" must attack one of them.'),
}

COMMON_STATE: Mapping[str, str] = {
    "damage": "damage", "taken_down": "taken down", "panicked": "panicked",
    "limbs_lost": "limbs lost", "hp_lost": "Health Points lost",
}

COMMON_ATTACK_TYPES: Mapping[str, str] = {
    "melee": "melee", "ranged": "ranged", "missile": "missile",
    "close_combat": "close combat", "shooting": "shooting",
}

ARCS: Mapping[str, str] = {"front": "front", "rear": "rear", "left_flank": "left flank",
                           "right_flank": "right flank", "flank": "flank"}

_PACKAGES = {
    "warcry": "warcry", "fight-vs-defense": "fight_vs_defense",
    "mordheim-warcry": "mordheim_warcry", "ninth-age": "ninth_age",
    "circle-of-realms": "circle_of_realms",
}
_TABLES: dict[str, Words] = {}
_EMPTY = Words()


def words_for(ruleset_id: str) -> Words:
    """The ruleset's own table (an empty one for an unknown ruleset)."""
    table = _TABLES.get(ruleset_id)
    if table is None:
        package = _PACKAGES.get(ruleset_id)
        if package is None:
            return _EMPTY
        module = importlib.import_module(f"tabletop_gui.rules.{package}.words")
        table = _TABLES[ruleset_id] = module.WORDS
    return table


def spelled(key: str) -> str:
    """A key as words, for anything no table names: ``first_round`` → "first round"."""
    return key.replace("_", " ").strip()


def _capital(text: str) -> str:
    """The first letter a capital, unless the first word is an id ("c1 can attack")."""
    first = text.split(" ", 1)[0]
    return text[:1].upper() + text[1:] if first.isalpha() else text


# -- checks ---------------------------------------------------------------------------------


def rule_words(ruleset_id: str, rule: str) -> RuleWords | None:
    """The words of a rule id for this ruleset, or None when no table has them."""
    return words_for(ruleset_id).rules.get(rule) or COMMON_RULES.get(rule)


def check_title(ruleset_id: str, check: Check) -> str:
    """The rule's short name: "Friendly fire" for ``friendly_fire``."""
    words = rule_words(ruleset_id, check.rule)
    return words.title if words is not None else _capital(spelled(check.rule))


def rule_meaning(ruleset_id: str, rule: str) -> str:
    """What the rule asks, one sentence (a tooltip)."""
    words = rule_words(ruleset_id, rule)
    return words.meaning if words is not None else ""


_INCH = re.compile(r'(?<=\d)"')
_LIMB = re.compile(r"\b(RH|LH|RL|LL)\b")
_COMPARISONS = ((" <= ", " is at most "), (" >= ", " is at least "), (" > ", " is more than "),
                (" < ", " is less than "))


def player_text(text: str, capital: bool = True) -> str:
    """A rules sentence as the window shows it: inches as ″, comparisons in words, limb
    codes spelled out, the first letter a capital (unless ``capital`` is false)."""
    out = _INCH.sub("\u2033", text)
    for symbol, words in _COMPARISONS:
        out = out.replace(symbol, words)
    out = _LIMB.sub(lambda m: LIMBS[m.group(1)], out)
    return _capital(out) if capital else out


def check_sentence(ruleset_id: str, check: Check) -> str:
    """The check as a player would say it: "Out of range: 7.2″ is more than 6″"."""
    return player_text(check.text)


def modifier_sentence(ruleset_id: str, modifier: Modifier) -> str:
    """"Cover: +1 defense (line crosses Broken cart (w1))"."""
    why = f" ({player_text(modifier.why, capital=False)})" if modifier.why else ""
    return f"{_capital(spelled(modifier.name))}: {player_text(modifier.effect)}{why}"


# -- state, options, results ------------------------------------------------------------------


def limb_words(code: str) -> str:
    """"right hand" for RH; other values unchanged."""
    return LIMBS.get(code, code)


def _limb_list(value: Any) -> str:
    items = [limb_words(str(v)) for v in value] if isinstance(value, list | tuple) else []
    return ", ".join(items) if items else "none"


def state_label(ruleset_id: str, key: str) -> str:
    return words_for(ruleset_id).state.get(key) or COMMON_STATE.get(key) or spelled(key)


def state_words(ruleset_id: str, key: str, value: Any) -> str:
    """One state value in words: "3 damage", "taken down", "not panicked", "lost right
    hand", "3 Health Points lost"."""
    label = state_label(ruleset_id, key)
    if isinstance(value, bool):
        return label if value else f"not {label}"
    if key == "limbs_lost" or (isinstance(value, list | tuple) and
                               all(str(v) in LIMBS for v in value)):
        return f"lost {_limb_list(value)}" if value else "no limb lost"
    if isinstance(value, list | tuple):
        return f"{label}: {', '.join(str(v) for v in value) or 'none'}"
    if isinstance(value, int | float):
        return f"{value:g} {label}"
    return f"{label}: {value}"


def state_sentence(ruleset_id: str, state: Mapping[str, Any]) -> str:
    """A whole state in words: "2 damage, not taken down, no limb lost"."""
    return ", ".join(state_words(ruleset_id, k, v) for k, v in state.items())


def option_label(ruleset_id: str, key: str) -> str:
    """A situational or ruleset option's name: "Attacking models"."""
    table = words_for(ruleset_id)
    return table.options.get(key) or _capital(spelled(key))


def option_help(ruleset_id: str, key: str, rules_help: str) -> str:
    """What an option does, for its tooltip: the table's words, else the rules' help."""
    return words_for(ruleset_id).option_help.get(key) or player_text(rules_help)


def option_words(ruleset_id: str, key: str, value: Any) -> str:
    """An option's value in words: "automatic" for -1 models, "right hand" for RH,
    "yes"/"no" for switches."""
    named = words_for(ruleset_id).option_values.get(key, {})
    if not isinstance(value, bool) and value in named:
        return named[value]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return limb_words(value) if value in LIMBS else spelled(value)
    return str(value)


def attack_type_words(ruleset_id: str, attack_type: str) -> str:
    table = words_for(ruleset_id).attack_types
    return table.get(attack_type) or COMMON_ATTACK_TYPES.get(attack_type) or spelled(attack_type)


def arc_words(arc: str) -> str:
    return ARCS.get(arc) or spelled(arc)


def outcome_words(ruleset_id: str, outcome: str) -> str:
    """A die's outcome: "right leg" for RL, a ruleset's own words, else spelled."""
    table = words_for(ruleset_id).outcomes
    return table.get(outcome) or (LIMBS.get(outcome) or spelled(outcome))


def extra_words(ruleset_id: str, key: str, value: Any) -> str:
    """A resolution extra as a phrase: "critical hit: yes", "damage dealt back: 2",
    "limbs lost: defender right leg"."""
    label = words_for(ruleset_id).extras.get(key) or spelled(key)
    if isinstance(value, bool):
        return f"{label}: {'yes' if value else 'no'}"
    if isinstance(value, Mapping):
        parts = [f"{spelled(str(k))} {_limb_list(v) if isinstance(v, list | tuple) else v}"
                 for k, v in value.items()]
        return f"{label}: {', '.join(parts) or 'none'}"
    if isinstance(value, list | tuple):
        return f"{label}: {_limb_list(value)}"
    return f"{label}: {value}"
