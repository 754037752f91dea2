"""What `mordheim-warcry` reads and which options it takes (rules/mordheim-warcry.md)."""

from tabletop_gui.rules.fields import Declaration, FieldSpec, OptionSpec, RulesetInfo
from tabletop_gui.rules.fight_vs_defense.info import FVD_WEAPON_FIELDS, PLATFORM_COVER_IN_MELEE

INFO = RulesetInfo(
    id="mordheim-warcry",
    name="Mordheim on Warcry",
    declaration=Declaration(
        characteristics=(
            FieldSpec("move", "number", required=True, minimum=0),
            FieldSpec("fight", "int", required=True, minimum=0),
            FieldSpec("shoot", "int", required=True, minimum=0),
            FieldSpec("armour", "int", required=True, minimum=0),
            FieldSpec("wounds", "int", required=True, minimum=1),
        ),
        weapon_fields=(*FVD_WEAPON_FIELDS, FieldSpec("parry", "bool", default=False)),
        traits=("shield",),
        state=(
            FieldSpec("damage", "int", default=0, minimum=0),
            FieldSpec("taken_down", "bool", default=False),
        ),
    ),
    attack_types=("melee", "ranged"),
    situational_options=(
        OptionSpec("diving_charge", "bool", False,
                   "the attacker fell more than 2\" vertically in its move (+1 Fight)"),
    ),
    ruleset_options=(PLATFORM_COVER_IN_MELEE,),
)
