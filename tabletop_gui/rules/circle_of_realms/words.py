"""Circle of Realms in a player's words (``rules/words.py``): rule ids, state, options,
the dismemberment die."""

from tabletop_gui.rules.words import RuleWords, Words

WORDS = Words(
    rules={
        "attacker": RuleWords("Attacker", "A fighter that is taken down cannot attack."),
        "friendly_fire": RuleWords("Enemy", "A fighter cannot attack its own side."),
        "taken_down": RuleWords("Target standing",
                                "A fighter that is taken down cannot be attacked."),
        "visible": RuleWords("Line of sight", "The attacker must see the target."),
        "range": RuleWords("Range", "The target must be within the weapon's range in spaces."),
        "weapon": RuleWords("Weapon in hand",
                            "A weapon held in a lost hand cannot be used as such."),
    },
    state={"damage": "wounds taken", "limbs_lost": "limbs lost"},
    options={
        "night": "Night turn", "attack_bonus": "Attack bonus", "limb_choice": "Limb chosen",
        "defender_weapon": "Defender's weapon", "counter_damage": "Damage dealt back",
        "dismemberment_faces": "Dismemberment die faces",
        "zoc_exit": "Attack of Opportunity on",
    },
    option_values={
        "limb_choice": {"": "main hand (default)"},
        "defender_weapon": {"": "its first weapon (default)"},
        "counter_damage": {"melee": "in melee", "always": "always", "never": "never"},
        "zoc_exit": {"zone": "leaving the zone", "space": "every step away"},
    },
    extras={"attacker_damage": "damage dealt back", "critical": "critical hit",
            "dismemberment": "limbs lost", "damage_type": "attack type"},
    outcomes={"attack": "attack", "defense": "defense", "halved": "defense halved",
              "critical": "critical", "none": "no limb", "defender": "defender chooses",
              "attacker": "attacker chooses"},
)
