"""What `mordheim-warcry` reads and which options it takes (docs/rulesets/mordheim-warcry.md)."""

from tabletop_gui.rules.fields import Declaration, FieldSpec, OptionSpec, RulesetInfo
from tabletop_gui.rules.fight_vs_defense.info import FVD_WEAPON_FIELDS, PLATFORM_COVER_IN_MELEE

INFO = RulesetInfo(
    id="mordheim-warcry",
    name="Mordheim on Warcry",
    declaration=Declaration(
        characteristics=(
            FieldSpec("move", "number", minimum=0, help="inches; not used by attacks"),
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
            FieldSpec("panicked", "bool", default=False,
                      help="kept for the file format; this ruleset has no panic effect"),
        ),
    ),
    attack_types=("melee", "ranged"),
    situational_options=(
        OptionSpec("diving_charge", "bool", False,
                   "the attacker fell more than 2\" vertically in its move (+1 Fight)"),
    ),
    ruleset_options=(PLATFORM_COVER_IN_MELEE,),
    engagement_zone=1.0,  # the Warcry family engages within 1"
    notes=(
        "Cover modifies only ranged attacks (+1 DR); platform_cover_in_melee changes only "
        "the cover shown for a melee attack.",
        "High ground: the attacker stands at least 2\" higher than the target (its "
        "elevation, from a platform or set on the fighter).",
        "Closest viable target: ties count as closest; with no viable target at all, no "
        "+1 DR.",
        "Parry counts once, however many of the target's melee weapons have it.",
        "Dual wielding: two different melee weapons; the off-hand's range is checked too; "
        "diving_charge applies to melee attacks only.",
    ),
)
