"""What `circle-of-realms` reads and which options it takes (docs/rulesets/circle-of-realms.md)."""

from tabletop_gui.rules.combatant import Combatant, is_taken_down
from tabletop_gui.rules.fields import Declaration, FieldError, FieldSpec, OptionSpec, RulesetInfo

#: Largest pre-rolled bonus (either way) added to an attack total.
MAX_ATTACK_BONUS = 1000
ATTACK_TYPES = ("slashing", "hacking", "shredding", "piercing", "blunt", "siege")

LIMBS = ("RH", "LH", "RL", "LL")


def check_limbs(value: list[str]) -> list[str]:
    """The ``limbs`` field kind: a list of strings (checked first), each a limb."""
    bad = [s for s in value if s not in LIMBS]
    if bad:
        raise FieldError(f"limbs must be among {', '.join(LIMBS)}, not {bad[0]}")
    return value


def taken_down(c: Combatant) -> bool:
    """Out of the game: the generic rule, or both legs lost."""
    limbs = c.state.get("limbs_lost") or ()
    return is_taken_down(c) or (isinstance(limbs, list | tuple) and "RL" in limbs
                                and "LL" in limbs)


INFO = RulesetInfo(
    id="circle-of-realms",
    name="Circle of Realms",
    declaration=Declaration(
        characteristics=(
            FieldSpec("base_attack", "die", required=True, help="die size: 6 means a d6"),
            FieldSpec("defense", "die", required=True),
            FieldSpec("armour", "int", required=True, minimum=0),
            FieldSpec("precision", "int", default=0, minimum=0, help="0 = no critical hits"),
            FieldSpec("movement", "int", required=True, minimum=0, help="spaces"),
            FieldSpec("wounds", "int", required=True, minimum=1),
        ),
        weapon_fields=(
            FieldSpec("attack", "die", required=True),
            FieldSpec("attack_type", "enum", required=True, choices=ATTACK_TYPES),
            FieldSpec("range", "int", default=1, minimum=1, help="spaces"),
            FieldSpec("hand", "enum", default="main", choices=("main", "off", "both")),
        ),
        traits=("infantry", "scout", "ignores_zoc", "left_handed"),
        state=(
            FieldSpec("damage", "int", default=0, minimum=0),
            FieldSpec("taken_down", "bool", default=False),
            FieldSpec("panicked", "bool", default=False,
                      help="kept for the file format; this ruleset has no panic effect"),
            FieldSpec("limbs_lost", "strings", default=[], parse=check_limbs,
                      shown_as="limbs"),
        ),
        needs_grid=True,
        weapons_required=False,
    ),
    attack_types=("melee", "ranged"),
    situational_options=(
        OptionSpec("night", "bool", False, "the night turn"),
        OptionSpec("attack_bonus", "int", 0, "pre-rolled bonuses added to the attack",
                   minimum=-MAX_ATTACK_BONUS, maximum=MAX_ATTACK_BONUS),
        OptionSpec("limb_choice", "enum", "", "limb taken on a chooser's face (default: main hand)",
                   choices=("", "RH", "LH", "RL", "LL")),
        OptionSpec("defender_weapon", "str", "",
                   "the weapon the defender fights back with (its attack type decides whether "
                   "the attacker can lose a limb); default: its first weapon it can hold"),
    ),
    ruleset_options=(
        OptionSpec("counter_damage", "enum", "melee",
                   "when the defense roll deals damage back to the attacker",
                   choices=("melee", "always", "never")),
        OptionSpec("dismemberment_faces", "str", "RH,LH,RL,LL,defender,attacker",
                   "what faces 1-6 of the Dismemberment Die mean, in order",
                   items=("RH", "LH", "RL", "LL", "defender", "attacker"), item_count=(2, 20)),
        OptionSpec("zoc_exit", "enum", "zone",
                   "what triggers an Attack of Opportunity: 'zone' a step out of an enemy's "
                   "Zone of Control (moving within it is free), 'space' every step away from "
                   "a space inside it", choices=("zone", "space")),
    ),
    taken_down_rule=taken_down,
    notes=(
        "A critical hit needs an attack total above 0 that is a multiple of the precision "
        "(bonuses included, decided before the night reduction).",
        "Both sides take at most the wounds they have left; the Dismemberment Die is rolled "
        "whenever its three conditions hold, even when the same roll took the fighter down.",
        "At night the damage dealt back is reduced by the defender's precision after armour, "
        "never below 0; a scout defender is exempt.",
        "The attacker risks a limb against the defender's weapon: `defender_weapon`, else the "
        "defender's first weapon it can still hold (none: no risk).",
        "A face naming a limb already lost takes nothing; a chooser's limb (`limb_choice`, "
        "default the main hand) falls back to main hand, off hand, right leg, left leg.",
        "A weapon held in a lost hand attacks with the base die alone, blunt, range 1.",
        "Attacks of Opportunity: one per step out of an enemy's Zone of Control (`zoc_exit`), "
        "each capped at the mover's wounds left before the move.",
    ),
)
