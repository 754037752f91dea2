"""Hit tables of the Warcry family: which faces of a d6 miss, hit or hit critically.

A row is given by the lowest face that hits and the lowest that hits critically (7 means
no critical hit). ``face_table`` turns a row and a weapon's damage into the per-face
table of the exact engine (``rules.dist.FaceTable``).
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop_gui.rules.dist import FaceTable
from tabletop_gui.rules.fields import DamageSpec

SIDES = 6


@dataclass(frozen=True)
class HitRow:
    name: str
    hit_from: int  # lowest face that hits
    crit_from: int  # lowest face that hits critically; 7: never

    def outcome(self, face: int) -> str:
        if face >= self.crit_from:
            return "critical"
        if face >= self.hit_from:
            return "hit"
        return "miss"

    def faces_text(self) -> str:
        """'miss 1-2, hit 3-5, critical 6'."""
        parts = [f"miss {_span(1, self.hit_from - 1)}",
                 f"hit {_span(self.hit_from, self.crit_from - 1)}"]
        if self.crit_from <= SIDES:
            parts.append(f"critical {_span(self.crit_from, SIDES)}")
        return ", ".join(parts)


def _span(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


# Warcry: Strength against Toughness
STRENGTH_GREATER = HitRow("Strength > Toughness", 3, 6)
STRENGTH_EQUAL = HitRow("Strength = Toughness", 4, 6)
STRENGTH_LOWER = HitRow("Strength < Toughness", 5, 6)

# The five-row table of the variants (fight-vs-defense, mordheim-warcry)
TWICE = HitRow("Twice", 3, 5)
GREATER = HitRow("Greater", 3, 6)
EQUAL = HitRow("Equal", 4, 6)
LESS = HitRow("Less", 5, 6)
HALF = HitRow("Half", 5, 7)
FIVE_ROWS = (TWICE, GREATER, EQUAL, LESS, HALF)


def strength_row(strength: int, toughness: int) -> HitRow:
    if strength > toughness:
        return STRENGTH_GREATER
    if strength == toughness:
        return STRENGTH_EQUAL
    return STRENGTH_LOWER


def five_row(a: int, d: int) -> HitRow:
    """The row of the five-row table, checked in the page's order with exact numbers."""
    if a == d:
        return EQUAL
    if d <= 0:
        return TWICE
    if a >= 2 * d:
        return TWICE
    if a > d:
        return GREATER
    if 2 * a <= d:  # A <= D/2, exactly
        return HALF
    return LESS


_TABLES: dict[tuple[HitRow, int, int], FaceTable] = {}


def face_table(row: HitRow, damage: DamageSpec) -> FaceTable:
    """The d6 of one hit roll: each face's outcome and the damage it allocates."""
    key = (row, damage.hit, damage.crit)
    table = _TABLES.get(key)
    if table is None:
        outcomes = [row.outcome(f) for f in range(1, SIDES + 1)]
        dmg = [damage.crit if o == "critical" else damage.hit if o == "hit" else 0
               for o in outcomes]
        table = FaceTable(outcomes, dmg)
        if len(_TABLES) < 512:
            _TABLES[key] = table
    return table
