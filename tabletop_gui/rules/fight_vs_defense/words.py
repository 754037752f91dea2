"""Fight/Shoot vs Defense in a player's words (``rules/words.py``)."""

from tabletop_gui.rules.words import RuleWords, Words

WORDS = Words(
    rules={
        "enemy": RuleWords("Enemy", "Only enemy fighters can be attacked."),
        "minimum_range": RuleWords(
            "Minimum range", "A weapon with a minimum range cannot attack a target that close."),
        "friendly_fire": RuleWords(
            "Friendly fire",
            'A ranged attack may not target an enemy within 1" of the attacker\'s friends.'),
    },
    options={"platform_cover_in_melee": "Platform cover in melee"},
)
