"""How many models attack, and how many hits an Area Attack makes, from a formation.

Plain numbers in, plain numbers out; the engine feeds them from the geometry library
(contact models, engaged facing, arc). Choices where the page is silent:

- Models lost are removed from the rear: a unit of ``models`` with ``hp_lost`` Health
  Points lost has ``models - hp_lost // hp`` models left (``combatant.models_left``), in
  full ranks of ``files`` from the front and an incomplete rear rank.
- Supporting models of each supporting rank: as many as stand behind the front-rank
  models in base contact, i.e. ``min(contact models, models in that rank)``.
- Standard Height makes Supporting Attacks at Attack Value 1; Large and Gigantic up to
  3; Extra Support (X) ignores the reduction up to X (the better of the two applies).
- Line Formation (Volley Fire): at least twice as many files as ranks.
"""

from __future__ import annotations

from dataclasses import dataclass


def rank_counts(models: int, files: int) -> list[int]:
    """Models per rank, front rank first; the rear rank may be incomplete."""
    if models <= 0:
        return []
    files = max(1, files)
    full, rest = divmod(models, files)
    return [files] * full + ([rest] if rest else [])


def file_counts(models: int, files: int) -> list[int]:
    """Models per file (the incomplete rear rank fills files from the left)."""
    if models <= 0:
        return []
    ranks = rank_counts(models, files)
    width = ranks[0]
    return [sum(1 for r in ranks if r > f) for f in range(width)]


def area_hits(per_line: int, lines: int, counts: list[int]) -> int:
    """An Area Attack (X×Y): X hits on each of the Y fullest ranks/files, each capped at
    its models, and never more than the unit's models."""
    chosen = sorted(counts, reverse=True)[:max(0, lines)]
    return min(sum(min(per_line, c) for c in chosen), sum(counts))


def area_lines(position: str, models: int, files: int, round_base: bool) -> list[int]:
    """Ranks (Front or Rear position) or files (a Flank position) of the target."""
    if round_base:
        return [1] if models > 0 else []
    if position in ("left_flank", "right_flank"):
        return file_counts(models, files)
    return rank_counts(models, files)


@dataclass(frozen=True)
class CloseCombatCount:
    attacking_models: int
    attacks_each: int
    supporting_models: int
    supporting_each: int
    supporting_ranks: int

    @property
    def attacks(self) -> int:
        return self.attacking_models * self.attacks_each + (
            self.supporting_models * self.supporting_each)


def supporting_value(att: int, height_class: str, extra_support: int | None) -> int:
    """Attack Value of each Supporting Attack."""
    cap = 3 if height_class in ("large", "gigantic") else 1
    value = min(att, cap)
    if extra_support is not None:
        value = max(value, min(att, extra_support))
    return max(0, value)


def close_combat_count(
    *, contact: int, alive: int, files: int, att: int, height_class: str,
    fight_in_extra_rank: int, extra_support: int | None,
    attacking_override: int = -1, supporting_override: int = -1,
) -> CloseCombatCount:
    """Front-rank models in contact attack with ``att``; the ranks behind support."""
    ranks = rank_counts(alive, files)
    attacking = contact if attacking_override < 0 else attacking_override
    if attacking_override < 0:
        attacking = min(attacking, ranks[0] if ranks else 0)
    support_ranks = 1 + fight_in_extra_rank
    if supporting_override >= 0:
        supporting = supporting_override
    else:
        behind = ranks[1:1 + support_ranks]
        supporting = sum(min(attacking, r) for r in behind)
    return CloseCombatCount(attacking, max(0, att), supporting,
                            supporting_value(att, height_class, extra_support), support_ranks)


def shooting_models(alive: int, files: int, ranks_shooting: int, override: int = -1) -> int:
    """Models in the first ``ranks_shooting`` ranks (normally the first and second, plus
    one more per instance of Shoot in Extra Rank), or ``override`` when given (>= 0)."""
    if override >= 0:
        return override
    return sum(rank_counts(alive, files)[:max(1, ranks_shooting)])


def line_formation(alive: int, files: int) -> bool:
    ranks = len(rank_counts(alive, files))
    return ranks > 0 and min(files, alive) >= 2 * ranks
