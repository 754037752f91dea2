"""Weapon fields the three Warcry-engine rulesets read alike, with their limits.

Every attack die is resolved exactly, so the number of dice and the damage of one die
are bounded: at most ``MAX_ATTACKS`` attacks of a weapon and ``MAX_DAMAGE`` damage per
hit or critical hit (far above any published profile) keep every distribution small and
every answer immediate. The loader refuses larger values at their place.
"""

from tabletop_gui.rules.fields import FieldSpec

MAX_ATTACKS = 100
MAX_DAMAGE = 100

ATTACKS = FieldSpec("attacks", "int", required=True, minimum=1, maximum=MAX_ATTACKS)
DAMAGE = FieldSpec("damage", "damage", required=True, maximum=MAX_DAMAGE, help='"hit/crit"')
