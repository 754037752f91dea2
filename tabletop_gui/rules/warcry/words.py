"""Warcry in a player's words (``rules/words.py``): rule ids, state and options."""

from tabletop_gui.rules.words import RuleWords, Words

WORDS = Words(
    rules={
        "enemy": RuleWords("Enemy", "Only enemy fighters can be attacked."),
        "minimum_range": RuleWords(
            "Minimum range", "A weapon with a minimum range cannot attack a target that close."),
        "friendly_fire": RuleWords(
            "Friendly fire",
            'A missile attack may not target an enemy within 1" of the attacker\'s friends, '
            'unless the weapon has no minimum range and the attacker is within 3".'),
    },
    options={"cover": "Cover applies to"},
    option_values={"cover": {"all": "all attacks", "missile": "missile attacks only",
                             "none": "no attack"}},
)
