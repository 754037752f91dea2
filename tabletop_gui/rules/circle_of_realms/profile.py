"""A Circle of Realms fighter as the rules read it: dice, armour, hands, limbs, weapons.

``FighterProfile.of(combatant)`` reads the characteristics, traits, weapons and state
declared in ``info.py`` once, into a frozen value the resolution works on. Hands: the
main hand is the right hand (``RH``) unless the fighter is ``left_handed``; a weapon held
in a hand that was lost cannot be used, and a two-handed weapon (``hand: "both"``) is lost
with either hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tabletop_gui.rules.base import Combatant, RulesError
from tabletop_gui.rules.circle_of_realms.info import taken_down

LIMB_NAMES = {"RH": "right hand", "LH": "left hand", "RL": "right leg", "LL": "left leg"}
CUTTING = frozenset({"slashing", "hacking", "shredding"})  # types that can dismember
UNARMED_TYPE = "blunt"


def has_trait(traits: tuple[Any, ...], name: str) -> bool:
    """A trait given as a bare name or as ``{"name": value}``."""
    return any(t == name or (isinstance(t, Mapping) and name in t) for t in traits)


@dataclass(frozen=True)
class WeaponProfile:
    name: str
    die: int
    attack_type: str
    range: int = 1
    hand: str = "main"  # "main", "off" or "both"

    @staticmethod
    def of(weapon: Any) -> WeaponProfile:
        values: Mapping[str, Any] = weapon.values
        try:
            return WeaponProfile(
                name=str(weapon.name),
                die=int(values["attack"]),
                attack_type=str(values["attack_type"]),
                range=int(values.get("range", 1)),
                hand=str(values.get("hand", "main")),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise RulesError(f"weapon {weapon.name!r}: missing or bad field {e}") from None


@dataclass(frozen=True)
class FighterProfile:
    id: str
    name: str
    side: str
    base_attack: int
    defense: int
    armour: int
    precision: int
    movement: int
    wounds: int
    damage: int = 0
    taken_down: bool = False
    limbs_lost: tuple[str, ...] = ()
    infantry: bool = False
    scout: bool = False
    ignores_zoc: bool = False
    left_handed: bool = False
    weapons: tuple[WeaponProfile, ...] = ()

    @staticmethod
    def of(c: Combatant) -> FighterProfile:
        ch = c.characteristics
        st = c.state

        def num(key: str, default: float | None = None) -> int:
            value = ch.get(key, default)
            if value is None:
                raise RulesError(f"{c.id}: characteristic {key!r} is missing")
            return int(value)

        limbs = st.get("limbs_lost", []) or []
        return FighterProfile(
            id=c.id,
            name=c.name,
            side=c.side,
            base_attack=num("base_attack"),
            defense=num("defense"),
            armour=num("armour", 0),
            precision=num("precision", 0),
            movement=num("movement", 0),
            wounds=num("wounds"),
            damage=int(st.get("damage", 0) or 0),
            taken_down=taken_down(c),
            limbs_lost=tuple(str(x) for x in limbs),
            infantry=has_trait(c.traits, "infantry"),
            scout=has_trait(c.traits, "scout"),
            ignores_zoc=has_trait(c.traits, "ignores_zoc"),
            left_handed=has_trait(c.traits, "left_handed"),
            weapons=tuple(WeaponProfile.of(w) for w in c.weapons),
        )

    # -- hands and limbs -----------------------------------------------------------
    @property
    def main_hand(self) -> str:
        return "LH" if self.left_handed else "RH"

    @property
    def off_hand(self) -> str:
        return "RH" if self.left_handed else "LH"

    def hands_for(self, weapon: WeaponProfile) -> tuple[str, ...]:
        """The hands that hold the weapon."""
        if weapon.hand == "both":
            return ("RH", "LH")
        return (self.off_hand,) if weapon.hand == "off" else (self.main_hand,)

    def can_use(self, weapon: WeaponProfile) -> bool:
        return not any(h in self.limbs_lost for h in self.hands_for(weapon))

    def weapon(self, name: str) -> WeaponProfile:
        for w in self.weapons:
            if w.name == name:
                return w
        names = ", ".join(w.name for w in self.weapons) or "none"
        raise RulesError(f"{self.id} has no weapon {name!r} (weapons: {names})")

    @property
    def wounds_left(self) -> int:
        return max(0, self.wounds - self.damage)

    @property
    def legs_lost(self) -> int:
        return sum(1 for limb in ("RL", "LL") if limb in self.limbs_lost)

    @property
    def movement_allowance(self) -> int:
        """Movement in spaces, 2 less for each lost leg, never below 0."""
        return max(0, self.movement - 2 * self.legs_lost)

    def with_state(self, damage: int, taken_down: bool, limbs: tuple[str, ...]) -> FighterProfile:
        return replace(self, damage=damage, taken_down=taken_down, limbs_lost=limbs)

    def state_json(self) -> dict[str, Any]:
        return {"damage": self.damage, "taken_down": self.taken_down,
                "limbs_lost": list(self.limbs_lost)}
