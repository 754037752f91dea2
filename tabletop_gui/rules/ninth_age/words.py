"""The Ninth Age in a player's words (``rules/words.py``): rule ids, state and options."""

from tabletop_gui.rules.words import RuleWords, Words

_AUTOMATIC = {-1: "automatic"}

WORDS = Words(
    rules={
        "attacker": RuleWords("Attacker", "A destroyed unit cannot attack."),
        "enemy": RuleWords("Enemy", "Only enemy units can be attacked."),
        "alive": RuleWords("Target standing", "A destroyed unit cannot be attacked."),
        "harnessed": RuleWords("Harnessed", "A harnessed model does not shoot."),
        "crush_attack": RuleWords("Crush Attack",
                                  "A Crush Attack needs the Crush Attack attribute."),
        "weapon_master": RuleWords(
            "Weapon choice",
            "A unit fights with its close-combat weapon; choosing the hand weapon instead "
            "needs Weapon Master."),
        "engaged": RuleWords(
            "Base contact",
            "Close combat needs base contact; a unit in base contact cannot shoot at that "
            "unit."),
        "move_or_fire": RuleWords("Move or Fire",
                                  "A Move or Fire weapon cannot shoot after the unit moved."),
        "marched": RuleWords("Marched", "A unit that marched cannot shoot."),
        "reload": RuleWords("Reload!", "A Reload! weapon cannot Stand and Shoot."),
        "range": RuleWords("Range", "The target must be within the weapon's range."),
        "visible": RuleWords("Line of sight", "The shooter must see the target."),
        "to_hit": RuleWords("To hit", "A shot that needs 8 or more to hit cannot hit."),
    },
    state={"hp_lost": "Health Points lost", "charging": "charging", "moved": "moved",
           "marched": "marched", "taken_down": "destroyed"},
    options={
        "charging": "Charging", "moved": "Moved", "marched": "Marched",
        "first_round": "First round of combat", "stand_and_shoot": "Stand and Shoot",
        "crush_attack": "Crush Attack", "attacking_models": "Attacking models",
        "supporting_models": "Supporting models", "cover_threshold": "Cover threshold",
    },
    option_values={
        "attacking_models": _AUTOMATIC, "supporting_models": _AUTOMATIC,
        "cover_threshold": {"more_than_half": "more than half hidden",
                            "half_or_more": "half or more hidden"},
    },
    option_help={
        "attacking_models": "Models attacking; automatic: counted from the geometry",
        "supporting_models": "Models making supporting attacks; automatic: counted from "
                             "the geometry",
    },
    extras={"hits": "hits", "wounds": "wounds", "casualties": "models removed"},
    attack_types={"close_combat": "close combat", "shooting": "shooting"},
)
