"""Warcry in a player's words (``rules/words.py``): rule ids, state and options."""

from tabletop_gui.rules.warcry_family.words import FAMILY_RULES, ranged_friendly_fire
from tabletop_gui.rules.words import RuleWords, Words

_FRIENDLY_FIRE = ranged_friendly_fire("missile")

WORDS = Words(
    rules={
        **FAMILY_RULES,
        "friendly_fire": RuleWords(
            _FRIENDLY_FIRE.title, _FRIENDLY_FIRE.meaning[:-1]
            + ', unless the weapon has no minimum range and the attacker is within 3".'),
    },
    options={"cover": "Cover applies to"},
    option_values={"cover": {"all": "all attacks", "missile": "missile attacks only",
                             "none": "no attack"}},
)
