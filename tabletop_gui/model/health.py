"""Wounds or Health Points left, for the roster and the canvas's wounds bars.

Read from the characteristics and state the rulesets declare: fighters count ``wounds``
against ``state.damage``; units count ``hp`` per model against ``state.hp_lost``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop_gui.scenario.entities import Fighter, Model


@dataclass(frozen=True)
class Health:
    left: float
    total: float

    @property
    def fraction(self) -> float:
        return max(0.0, min(1.0, self.left / self.total)) if self.total > 0 else 0.0

    def text(self) -> str:
        return f"{_num(self.left)}/{_num(self.total)}"


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def health_of(model: Model) -> Health | None:
    """Wounds (fighters) or Health Points (units) left, or None if the profile has none."""
    if isinstance(model, Fighter):
        wounds = model.characteristics.get("wounds")
        if wounds is None:
            return None
        damage = float(model.state.get("damage", 0) or 0)
        return Health(max(0.0, float(wounds) - damage), float(wounds))
    hp = float(model.characteristics.get("hp", 1))
    total = hp * model.models
    lost = float(model.state.get("hp_lost", 0) or 0)
    return Health(max(0.0, total - lost), total)
