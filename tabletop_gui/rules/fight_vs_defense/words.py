"""Fight/Shoot vs Defense in a player's words (``rules/words.py``)."""

from tabletop_gui.rules.warcry_family.words import FAMILY_RULES, ranged_friendly_fire
from tabletop_gui.rules.words import Words

WORDS = Words(
    rules={**FAMILY_RULES, "friendly_fire": ranged_friendly_fire("ranged")},
    options={"platform_cover_in_melee": "Platform cover in melee"},
)
