"""One attack resolved die by die: what the rules ask next, what the dice so far mean.

An engine writes its resolution as a generator of steps: it yields a ``DieAsk`` and gets
the face back (``face = yield DieAsk(...)``), yields a ``ChoiceAsk`` and gets the chosen
value back (``value = yield ChoiceAsk(...)``), and returns the ``Resolution``. The
``Resolver`` drives such a generator one face or answer at a time, so feeding a die costs
one step of the resolution, never a replay of it. ``drive`` runs a whole resolution from a
``DiceSource`` (seeded or given dice), answering choices with a default.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletop_gui.rules.dist import Dist


class RulesError(ValueError):
    """Input the rules refuse (unknown id or weapon, bad option, wrong dice): exit status 2."""


class DiceError(RulesError):
    """Given dice that do not fit the attack: too few, too many, or a face the die cannot
    show (the command line names its ``--dice``)."""


@dataclass(frozen=True)
class DieRoll:
    """One die of a resolution: its size, its face, what it meant."""

    sides: int
    face: int
    label: str  # "hit roll 1", "to wound 3", "defense"
    outcome: str  # "miss", "hit", "critical", "saved", ...


@dataclass(frozen=True)
class StateChange:
    """New state values for one combatant, produced by a resolution (applied by the GUI)."""

    combatant: str
    state: Mapping[str, Any]


@dataclass(frozen=True)
class Resolution:
    dice: tuple[DieRoll, ...]
    damage: int
    taken_down: bool
    steps: tuple[str, ...]
    changes: tuple[StateChange, ...] = ()
    extras: Mapping[str, Any] = field(default_factory=dict)  # ruleset extras for `roll`

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "dice": [d.face for d in self.dice],
            "damage": self.damage,
            "taken_down": self.taken_down,
            "steps": list(self.steps),
        }
        out.update(self.extras)
        return out


# -- dice sources -------------------------------------------------------------------------------


class DiceSource(ABC):
    """Where the faces of a resolution come from: a seeded generator or given dice."""

    @abstractmethod
    def roll(self, sides: int, label: str) -> int: ...

    def finish(self) -> None:  # noqa: B027 - a hook; seeded dice have nothing to check
        """Called after a resolution; given dice refuse leftovers here."""


class SeededDice(DiceSource):
    """Same seed, same dice on every machine (Python's Mersenne Twister)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, sides: int, label: str) -> int:
        return self._rng.randint(1, sides)


class ListedDice(DiceSource):
    """Faces from a list, consumed in order, each checked against the size of its die;
    ``DiceShortage`` once the list runs out."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)
        self.used = 0
        self.sizes: list[int] = []

    def roll(self, sides: int, label: str) -> int:
        if self.used >= len(self.faces):
            raise DiceShortage(self.used + 1, len(self.faces))
        face = self.faces[self.used]
        if not 1 <= face <= sides:
            raise DiceError(
                f"die {self.used + 1} ({label}) shows {face}, but a d{sides} shows 1 to {sides}"
            )
        self.used += 1
        self.sizes.append(sides)
        return face


class GivenDice(ListedDice):
    """Dice the players rolled, consumed in the ruleset's order."""

    def finish(self) -> None:
        if self.used < len(self.faces):
            raise DiceError(
                f"too many dice: this attack needs {self.used}, {len(self.faces)} were given"
            )


class DiceShortage(DiceError):
    def __init__(self, needed_at_least: int, given: int) -> None:
        super().__init__(
            f"too few dice: this attack needs at least {needed_at_least}, {given} were given"
        )
        self.needed_at_least = needed_at_least
        self.given = given


# -- stepping ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DieAsk:
    """The die the rules ask for next."""

    sides: int  # 6 for a d6
    label: str  # as DieRoll.label: "hit roll 1", "to wound 3", "defense"
    step: str  # the step it belongs to, in a player's words: "to hit", "defense", ...
    remaining: int  # dice still to roll in this step, this one included (as known now)
    purpose: str  # a sentence for the dice tray: "roll 5 dice to wound, 4+"


@dataclass(frozen=True)
class ChoiceAsk:
    """A choice the dice call for (e.g. the limb on a chooser's face)."""

    key: str  # the situational option it sets ("limb_choice")
    choices: tuple[str, ...]
    labels: tuple[str, ...]  # the same choices in a player's words ("right hand", ...)
    default: str  # what is taken when nobody answers (the CLI: --set or this)
    why: str  # "dismemberment die 3: the attacker chooses a limb"


Ask = DieAsk | ChoiceAsk
Steps = Generator[Ask, int | str, Resolution]
"""An engine's resolution: yields what it needs, gets faces and answers, returns."""


def dice_word(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def face_error(position: int, label: str, face: int, sides: int) -> DiceError:
    """The refusal of a face a die cannot show, naming the die (as ``ListedDice``)."""
    return DiceError(f"die {position} ({label}) shows {face}, but a d{sides} shows 1 to "
                     f"{sides}")


def too_many(needed: int, given: int) -> DiceError:
    return DiceError(f"too many dice: this attack needs {needed}, {given} were given")


class Resolver:
    """One attack being resolved die by die; made by ``Ruleset.begin``.

    ``steps`` is the engine's generator, ``trace`` the list it appends each ``DieRoll`` to
    (outcomes as far as known), ``odds`` the damage distribution given the faces fed so
    far (asked only when wanted), ``shortage`` the refusal of too few given dice (each
    ruleset counts what is still needed in its own words)."""

    def __init__(self, steps: Steps, trace: list[DieRoll],
                 odds: Callable[[tuple[int, ...]], Dist],
                 shortage: Callable[[int], DiceShortage] | None = None) -> None:
        self._steps = steps
        self._trace = trace
        self._odds = odds
        self._shortage = shortage
        self._fed: list[int] = []
        self._ask: Ask | None = None
        self._result: Resolution | None = None
        self._odds_cache: tuple[int, Dist] | None = None
        self._advance(None)

    def _advance(self, value: int | str | None) -> None:
        try:
            self._ask = (next(self._steps) if value is None else self._steps.send(value))
        except StopIteration as stop:
            self._ask = None
            self._result = stop.value

    # -- what the rules ask ------------------------------------------------------------
    @property
    def fed(self) -> tuple[int, ...]:
        """The faces fed so far."""
        return tuple(self._fed)

    @property
    def rolled(self) -> tuple[DieRoll, ...]:
        """The dice so far with their outcomes (as far as known)."""
        return tuple(self._trace)

    @property
    def done(self) -> bool:
        return self._result is not None

    def next_die(self) -> DieAsk | None:
        """The die asked for next; None when done or a choice is pending."""
        return self._ask if isinstance(self._ask, DieAsk) else None

    def pending_choice(self) -> ChoiceAsk | None:
        return self._ask if isinstance(self._ask, ChoiceAsk) else None

    # -- answering -----------------------------------------------------------------------
    def feed(self, face: int) -> None:
        """The face of the die asked for; DiceError names the die and its faces."""
        ask = self._ask
        if ask is None:
            raise too_many(len(self._fed), len(self._fed) + 1)
        if isinstance(ask, ChoiceAsk):
            raise RulesError(f"die {len(self._fed) + 1}: first choose {ask.key} "
                             f"({ask.why})")
        if not 1 <= face <= ask.sides:
            raise face_error(len(self._fed) + 1, ask.label, face, ask.sides)
        self._fed.append(face)
        self._advance(face)

    def answer(self, value: str) -> None:
        """The answer to the pending choice; RulesError on a value not in its choices."""
        ask = self._ask
        if not isinstance(ask, ChoiceAsk):
            raise RulesError(f"no choice is pending (answer {value!r})")
        if value not in ask.choices:
            raise RulesError(f"{ask.key}: {value!r} is not one of {', '.join(ask.choices)}")
        self._advance(value)

    def shortage(self, given: int) -> DiceShortage:
        """The refusal of ``given`` dice that stop where this resolver stands."""
        if self._shortage is not None:
            return self._shortage(given)
        return DiceShortage(len(self._fed) + 1, given)

    # -- what it means -------------------------------------------------------------------
    def odds(self) -> Dist:
        """The damage distribution conditioned on the faces fed so far."""
        from tabletop_gui.rules.dist import Dist

        if self._result is not None:
            return Dist.point(self._result.damage)
        n = len(self._fed)
        if self._odds_cache is None or self._odds_cache[0] != n:
            self._odds_cache = (n, self._odds(tuple(self._fed)))
        return self._odds_cache[1]

    def result(self) -> Resolution | None:
        """The resolution once every die is fed (and every choice answered)."""
        return self._result


def drive(resolver: Resolver, dice: DiceSource,
          answer: Callable[[ChoiceAsk], str] | None = None) -> Resolution:
    """Resolve to the end with faces from ``dice``; a pending choice is answered by
    ``answer`` (by default its default). Too few given dice: the resolver's shortage."""
    while not resolver.done:
        ask = resolver.next_die()
        if ask is None:
            choice = resolver.pending_choice()
            assert choice is not None
            resolver.answer(answer(choice) if answer is not None else choice.default)
            continue
        try:
            face = dice.roll(ask.sides, ask.label)
        except DiceShortage as e:
            raise resolver.shortage(e.given) from None
        resolver.feed(face)
    dice.finish()
    result = resolver.result()
    assert result is not None
    return result
