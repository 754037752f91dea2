"""The Dismemberment Die: what each face takes, who chooses, and what a lost limb does.

A side rolls the die when three things hold together: it rolled all 1s on its own roll
(every attack die for the attacker, the defense die for the defender), that roll cost it
at least one wound, and the weapon it faces cuts (slashing, hacking or shredding). The
faces name a limb or a chooser (option ``dismemberment_faces``); a chooser takes the
limb given by ``limb_choice``, by default the losing fighter's main hand.

This program's reading where the page is silent:
- a face naming a limb already lost takes nothing more;
- a chooser's limb that is already lost (or no choice) falls back to the first limb still
  attached among main hand, off hand, right leg, left leg;
- the die is rolled whenever the three conditions hold, even when the same roll's
  wounds already took the fighter down (the lost limb is then recorded as well);
- losing the second leg takes the fighter down.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop_gui.rules.base import RulesError
from tabletop_gui.rules.circle_of_realms.info import LIMBS
from tabletop_gui.rules.circle_of_realms.profile import CUTTING, LIMB_NAMES, FighterProfile

CHOOSERS = ("defender", "attacker")
DEFAULT_FACES = "RH,LH,RL,LL,defender,attacker"


def parse_faces(text: str) -> tuple[str, ...]:
    """The faces of the Dismemberment Die, 1 first: limbs or choosers, comma-separated."""
    faces = tuple(part.strip() for part in text.split(","))
    bad = [f for f in faces if f not in LIMBS and f not in CHOOSERS]
    if bad or not 2 <= len(faces) <= 20:
        raise RulesError(
            "ruleset_options: dismemberment_faces must list 2 to 20 faces, each one of "
            f"{', '.join(LIMBS + CHOOSERS)} (got {text!r})"
        )
    return faces


def cuts(attack_type: str | None) -> bool:
    """Whether facing this attack type can cost a limb."""
    return attack_type in CUTTING


def chosen_limb(loser: FighterProfile, choice: str) -> str | None:
    """The limb a chooser takes: ``choice`` when still attached, else the fallback order."""
    order = ([choice] if choice else []) + [loser.main_hand, loser.off_hand, "RL", "LL"]
    return next((limb for limb in order if limb not in loser.limbs_lost), None)


def limb_for_face(face: str, loser: FighterProfile, choice: str) -> str | None:
    """The limb a face takes from ``loser`` (None: nothing more is lost)."""
    if face in CHOOSERS:
        return chosen_limb(loser, choice)
    return None if face in loser.limbs_lost else face


def face_text(face: str) -> str:
    if face in CHOOSERS:
        return f"{face}'s choice"
    return LIMB_NAMES[face]


def legs_gone(limbs: tuple[str, ...]) -> bool:
    return "RL" in limbs and "LL" in limbs


@dataclass(frozen=True)
class LimbOdds:
    """What one roll of the Dismemberment Die does to a fighter, face by face."""

    limbs: dict[str, float]  # limb -> probability it is lost, given the die is rolled
    down: float  # probability the loss takes the fighter down (both legs gone)


def limb_odds(loser: FighterProfile, faces: tuple[str, ...], choice: str) -> LimbOdds:
    share = 1.0 / len(faces)
    limbs: dict[str, float] = {}
    down = 0.0
    for face in faces:
        limb = limb_for_face(face, loser, choice)
        if limb is None:
            continue
        limbs[limb] = limbs.get(limb, 0.0) + share
        if legs_gone((*loser.limbs_lost, limb)):
            down += share
    return LimbOdds(limbs, down)


def effect_text(loser: FighterProfile, limb: str) -> str:
    """What losing ``limb`` does to ``loser`` from now on, in a player's words."""
    limbs = (*loser.limbs_lost, limb)
    if limb in ("RL", "LL"):
        if legs_gone(limbs):
            return "both legs lost: taken down"
        return "movement -2"
    after = loser.with_state(loser.damage, loser.taken_down, limbs)
    dropped = [w.name for w in loser.weapons if loser.can_use(w) and not after.can_use(w)]
    if dropped:
        return "drops " + ", ".join(dropped)
    return "holds no weapon in it"
