"""The numbers one attack is resolved with: plain values, no geometry and no dice.

``AttackProfile`` holds what each step needs (to-hit roll, hits per success, and for the
normal and the bracketed hit: to-wound, armour, special saves, Multiple Wounds). It is
built by ``build.py`` from the units, the weapon and the geometry, and read by
``odds.py`` (exact distributions) and ``sequence.py`` (dice, step by step).
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop_gui.rules.fields import DiceSpec
from tabletop_gui.rules.ninth_age.tables import NO_SAVE, success

HOPELESS = 7  # needed roll 7: a 6, then 4+ on a second roll
CANNOT_HIT = 8


@dataclass(frozen=True)
class HitProfile:
    """How one hit turns into Health Points lost."""

    wound_needed: int  # 2..6
    reroll_failed_wounds: bool  # Flaming Attacks against a flammable target
    lethal_strike: bool
    armour_needed: int  # 2..7 (7: no save)
    armour_needed_lethal: int  # after a natural 6 to wound with Lethal Strike (AP 10)
    aegis_needed: int  # 2..7 (7: none)
    divine: bool  # successful Aegis saves are re-rolled
    fortitude_needed: int  # 2..7 (7: none, or ignored by Flaming Attacks)
    wounds: DiceSpec  # Multiple Wounds per unsaved wound (1 fixed when none)
    hp_cap: int  # target's Health Points characteristic: the cap of one wound's multiple

    def special_save(self, lethal: bool) -> tuple[str, int]:
        """The best special save against one wound: ("aegis" | "fortitude" | "none", X)."""
        fort = NO_SAVE if lethal else self.fortitude_needed
        pa = success(self.aegis_needed)
        if self.divine:
            pa = pa * pa
        pf = success(fort)
        if pf <= 0 and pa <= 0:
            return "none", NO_SAVE
        if pf >= pa:
            return "fortitude", fort
        return "aegis", self.aegis_needed

    def armour(self, lethal: bool) -> int:
        return self.armour_needed_lethal if lethal else self.armour_needed


@dataclass(frozen=True)
class AttackProfile:
    """One attack: its to-hit roll and what a success becomes."""

    hit_needed: int  # 2..6, HOPELESS (7) or CANNOT_HIT (8)
    reroll_failed_hits: bool  # Hatred in the first round of combat
    battle_focus: bool
    poison: bool
    hits_per_success: int  # 1, or the Area Attack's hits on this target
    normal: HitProfile
    bracketed: HitProfile | None = None  # the Area Attack's single bracketed hit

    def hit_kinds(self, six: bool) -> list[tuple[str, bool]]:
        """The hits one successful attack makes, in order: (kind, wounds automatically).

        The bracketed hit (if any) comes first; with Poison Attacks and a natural 6 the
        first hit wounds automatically (the attacker picks the bracketed one); Battle
        Focus adds one plain hit on a natural 6.
        """
        n = self.hits_per_success + (1 if self.battle_focus and six else 0)
        kinds: list[tuple[str, bool]] = []
        for i in range(n):
            kind = "bracketed" if (i == 0 and self.bracketed is not None) else "normal"
            kinds.append((kind, self.poison and six and i == 0))
        return kinds

    def hit(self, kind: str) -> HitProfile:
        if kind == "bracketed" and self.bracketed is not None:
            return self.bracketed
        return self.normal
