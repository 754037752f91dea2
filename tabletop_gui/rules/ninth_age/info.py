"""What `ninth-age` reads and which options it takes (docs/rulesets/ninth-age.md)."""

from tabletop_gui.rules.fields import Declaration, FieldSpec, OptionSpec, RulesetInfo
from tabletop_gui.rules.ninth_age.attributes import MAX_LENGTH as MAX_ATTRIBUTE_LENGTH
from tabletop_gui.rules.ninth_age.attributes import MAX_NUMBER as MAX_ATTRIBUTE_NUMBER
from tabletop_gui.rules.ninth_age.attributes import check_attributes

#: Most models `--set attacking_models` / `supporting_models` may name.
MAX_GIVEN_MODELS = 1000
#: Most shots one model makes (a number, or dice whose largest total is at most this).
MAX_SHOTS = 100
#: The largest attack answered (odds and rolls): at most MAX_HITS hits (its attacks, or
#: its shots at their most, times the hits each success makes) and MAX_HP Health Points
#: (those hits times the most one hit can take). Far above any table; past it the attack
#: is refused at once instead of being computed for minutes.
MAX_HITS = 10_000
MAX_HP = 100_000


def _c(name: str, required: bool = True, default: int | None = None) -> FieldSpec:
    return FieldSpec(name, "int", required=required, default=default, minimum=0)


INFO = RulesetInfo(
    id="ninth-age",
    name="The Ninth Age: Fantasy Battles (2nd edition)",
    declaration=Declaration(
        characteristics=(
            _c("adv", False), _c("mar", False), _c("dis", False),
            FieldSpec("hp", "int", required=True, minimum=1),
            _c("def"), _c("res"), _c("arm"),
            _c("aegis", False, 0), _c("fortitude", False, 0),
            _c("att"), _c("off"), _c("str"), _c("ap"), _c("agi", False),
        ),
        weapon_fields=(
            FieldSpec("kind", "enum", required=True, choices=("close_combat", "shooting")),
            FieldSpec("strength", "modifier", help='absolute, or "+N" on the unit\'s Str'),
            FieldSpec("ap", "modifier", help='absolute, or "+N" on the unit\'s AP'),
            FieldSpec("attacks", "modifier", help='"+N" attacks per model'),
            FieldSpec("range", "range", help="maximum range, inches (shooting)"),
            FieldSpec("aim", "int", minimum=2, help="X for an X+ to-hit roll (shooting)"),
            FieldSpec("shots", "dice", maximum=MAX_SHOTS,
                      help='shots per model: a number or "D3"'),
            FieldSpec("attributes", "strings", default=[], parse=check_attributes),
        ),
        traits=("flammable", "fly", "distracting", "hard_target", "shield", "harnessed",
                "inanimate"),
        valued_traits=("aegis_vs_magical",),
        state=(
            FieldSpec("hp_lost", "int", default=0, minimum=0),
            FieldSpec("charging", "bool", default=False),
            FieldSpec("moved", "bool", default=False),
            FieldSpec("marched", "bool", default=False),
            FieldSpec("taken_down", "bool", default=False),
        ),
        models="units",
        weapons_required=False,  # a unit without weapons fights with a hand weapon
    ),
    attack_types=("close_combat", "shooting"),
    situational_options=(
        OptionSpec("charging", "bool", False, "the attacker charged this turn"),
        OptionSpec("moved", "bool", False, "the shooter moved this turn"),
        OptionSpec("marched", "bool", False, "the shooter marched this turn"),
        OptionSpec("first_round", "bool", False, "first round of combat (Hatred)"),
        OptionSpec("stand_and_shoot", "bool", False, "a Stand and Shoot charge reaction"),
        OptionSpec("crush_attack", "bool", False, "make a Crush Attack instead"),
        OptionSpec("attacking_models", "int", -1,
                   "models attacking (-1: from the geometry)", minimum=-1,
                   maximum=MAX_GIVEN_MODELS),
        OptionSpec("supporting_models", "int", -1,
                   "models making supporting attacks (-1: from the geometry)", minimum=-1,
                   maximum=MAX_GIVEN_MODELS),
    ),
    ruleset_options=(
        OptionSpec("cover_threshold", "enum", "more_than_half",
                   "how much of the Target Facing must be hidden for cover",
                   choices=("more_than_half", "half_or_more")),
    ),
    notes=(
        "Models lost are removed from the rear: a unit has models - hp_lost // hp left.",
        "Supporting models per supporting rank: min(front-rank models in contact, models "
        "in that rank); Large and Gigantic support with up to 3 attacks, Extra Support (X) "
        "with up to X (the better applies).",
        "Without base contact a close-combat attack is refused; its odds assume the whole "
        "front rank attacking. A unit in contact with its target cannot shoot at it.",
        "Shooting: models in the first and second ranks shoot, plus one more rank per "
        "Shoot in Extra Rank (Volley Fire gives one in line formation, not moved).",
        "A unit without close-combat weapons fights with an implicit Hand Weapon; choosing "
        "the Hand Weapon over a carried close-combat weapon needs Weapon Master.",
        "The defender fights with its first close-combat weapon: Two-Handed loses the "
        "shield in close combat; a 'Parry' weapon, or a shield with a hand weapon, parries.",
        "Area Attack brackets: 'Area Attack (1x3) [Strength 7, AP 4, Multiple Wounds (D3)]';"
        " Poison's automatic wound goes to the bracketed hit; Battle Focus adds one plain "
        "hit to an Area Attack.",
        "Line Formation (Volley Fire): at least twice as many files as ranks.",
        "Crush Attack needs 'Crush Attack' among the unit's weapon attributes; each "
        "attacking model makes one.",
        f"Limits: one attack is computed for at most {MAX_HITS:,} hits and {MAX_HP:,} "
        "Health Points (hits times the most one hit can take), else refused; attribute "
        f"numbers (Area Attack sizes, Extra Support, bracketed Strength and AP, Devastating "
        f"Charge changes, Multiple Wounds) at most {MAX_ATTRIBUTE_NUMBER}, an attribute at "
        f"most {MAX_ATTRIBUTE_LENGTH} characters.",
    ),
)
