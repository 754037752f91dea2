"""Words the three Warcry-engine rulesets share (``rules/words.py``): the target rules
written once in ``warcry_family/targeting.py``."""

from tabletop_gui.rules.words import RuleWords

FAMILY_RULES = {
    "enemy": RuleWords("Enemy", "Only enemy fighters can be attacked."),
    "minimum_range": RuleWords(
        "Minimum range", "A weapon with a minimum range cannot attack a target that close."),
}


def ranged_friendly_fire(kind: str) -> RuleWords:
    """The friendly-fire rule of a ruleset whose shooting attacks are ``kind``."""
    return RuleWords("Friendly fire", f"A {kind} attack may not target an enemy within 1\" "
                     "of the attacker's friends.")
