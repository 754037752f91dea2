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
