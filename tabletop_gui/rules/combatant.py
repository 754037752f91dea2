"""What the rules read of a fighter or a unit (``Combatant``), and the generic rule of
when one is out of the game. Nothing here imports another module of the project."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Combatant(Protocol):
    """A fighter or a unit, as the rules read it (scenario entities satisfy this)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def characteristics(self) -> Mapping[str, float]: ...
    @property
    def traits(self) -> tuple[Any, ...]: ...
    @property
    def weapons(self) -> tuple[Any, ...]: ...
    @property
    def state(self) -> Mapping[str, Any]: ...


def models_left(models: int, hp: int, hp_lost: int) -> int:
    """Models of a rank-and-file unit still on the table: whole models are removed as their
    Health Points are lost (``hp_lost // hp`` of them, from the rear rank)."""
    return max(0, models - hp_lost // max(1, hp))


def is_taken_down(c: Combatant) -> bool:
    """The generic rule: a fighter is taken down when its state says so, or when the damage
    allocated to it has reached its Wounds ("at wounds the fighter is taken down"). A file
    may give only the damage. A ruleset with more ways out of the game declares its own
    rule (``RulesetInfo.taken_down_rule``, read by ``Ruleset.is_taken_down``)."""
    st = c.state
    if bool(st.get("taken_down", False)):
        return True
    wounds = c.characteristics.get("wounds")
    damage = st.get("damage", 0) or 0
    return (isinstance(wounds, int | float) and isinstance(damage, int | float)
            and wounds > 0 and damage >= wounds)
