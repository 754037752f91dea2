"""What `warcry` reads from a scenario and which options it takes (docs/rulesets/warcry.md)."""

from tabletop_gui.rules.fields import Declaration, FieldSpec, OptionSpec, RulesetInfo
from tabletop_gui.rules.warcry_family.fields import ATTACKS, DAMAGE

WARCRY_STATE = (
    FieldSpec("damage", "int", default=0, minimum=0, help="damage points allocated so far"),
    FieldSpec("taken_down", "bool", default=False),
    FieldSpec("panicked", "bool", default=False,
              help="kept for the file format; this ruleset has no panic effect"),
)

INFO = RulesetInfo(
    id="warcry",
    name="Warcry",
    declaration=Declaration(
        characteristics=(
            FieldSpec("move", "number", minimum=0, help="inches; not used by attacks"),
            FieldSpec("toughness", "int", required=True, minimum=1),
            FieldSpec("wounds", "int", required=True, minimum=1),
        ),
        weapon_fields=(
            FieldSpec("range", "range", required=True, help='maximum, or "min-max"'),
            ATTACKS,
            FieldSpec("strength", "int", required=True, minimum=1),
            DAMAGE,
        ),
        traits=("fly",),
        state=WARCRY_STATE,
    ),
    attack_types=("melee", "missile"),
    ruleset_options=(
        OptionSpec("cover", "enum", "all", "which attacks cover applies to",
                   choices=("all", "missile", "none")),
    ),
    engagement_zone=1.0,  # the Warcry family engages within 1"
    notes=(
        "inspect shows cover as the geometry gives it (or none with cover=none); an attack "
        "shows and applies it only when the cover option covers its attack type.",
        "Damage allocated stops at the wounds left: the odds and the roll are capped there.",
    ),
)
