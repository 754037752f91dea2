"""Mordheim on Warcry in a player's words (``rules/words.py``)."""

from tabletop_gui.rules.warcry_family.words import FAMILY_RULES, ranged_friendly_fire
from tabletop_gui.rules.words import RuleWords, Words

WORDS = Words(
    rules={
        **FAMILY_RULES,
        "friendly_fire": ranged_friendly_fire("ranged"),
        "melee_forced": RuleWords(
            "Ranged weapon in melee",
            'A fighter with an enemy within 1" cannot use a ranged weapon.'),
    },
    options={"diving_charge": "Diving charge",
             "platform_cover_in_melee": "Platform cover in melee"},
)
