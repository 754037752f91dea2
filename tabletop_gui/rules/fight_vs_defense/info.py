"""What `fight-vs-defense` reads and which options it takes (docs/rulesets/fight-vs-defense.md)."""

from tabletop_gui.rules.fields import Declaration, FieldSpec, OptionSpec, RulesetInfo
from tabletop_gui.rules.warcry_family.fields import ATTACKS, DAMAGE

FVD_WEAPON_FIELDS = (
    FieldSpec("kind", "enum", required=True, choices=("melee", "ranged")),
    FieldSpec("range", "range", required=True, help='maximum, or "min-max"'),
    ATTACKS,
    DAMAGE,
    FieldSpec("piercing", "int", default=0, minimum=0),
)

PLATFORM_COVER_IN_MELEE = OptionSpec(
    "platform_cover_in_melee", "bool", False,
    "a target on a platform 2\" or more above the attacker is in cover against melee too",
)

INFO = RulesetInfo(
    id="fight-vs-defense",
    name="Warcry variant: Fight/Shoot vs Defense",
    declaration=Declaration(
        characteristics=(
            FieldSpec("move", "number", minimum=0, help="inches; not used by attacks"),
            FieldSpec("fight", "int", required=True, minimum=0),
            FieldSpec("shoot", "int", required=True, minimum=0),
            FieldSpec("defense", "int", required=True, minimum=0),
            FieldSpec("wounds", "int", required=True, minimum=1),
        ),
        weapon_fields=FVD_WEAPON_FIELDS,
        state=(
            FieldSpec("damage", "int", default=0, minimum=0),
            FieldSpec("panicked", "bool", default=False),
            FieldSpec("taken_down", "bool", default=False),
        ),
    ),
    attack_types=("melee", "ranged"),
    ruleset_options=(PLATFORM_COVER_IN_MELEE,),
    engagement_zone=1.0,  # the Warcry family engages within 1"
    notes=(
        "inspect shows cover as a ranged attack sees it (platforms included) and flanked as "
        "a melee attack sees it.",
        "Piercing lowers Defense for melee and ranged attacks alike.",
    ),
)
