"""The one interface every ruleset implements, and the values it returns.

A ruleset sees a ``Battle``: the geometry of the battlefield (``geometry.Board``) and
every combatant by id (the scenario's fighters or units, read through the small
``Combatant`` protocol so that this layer never imports the scenario layer).

Results are frozen values that say why: every target rule checked (with numbers and
margins), every modifier with its reason, the table row used, the exact distribution of
damage, and, given dice, a resolution step by step. ``AttackReport.to_json`` and
``PairFacts.to_json`` produce exactly the objects of ``docs/cli.md``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from tabletop_gui.geometry.board import Board
from tabletop_gui.rules.combatant import Combatant as Combatant  # re-exported: the rules
from tabletop_gui.rules.combatant import is_taken_down as is_taken_down  # read them here
from tabletop_gui.rules.fields import FieldError, OptionSpec, RulesetInfo, resolve_options
from tabletop_gui.rules.resolver import DiceError as DiceError
from tabletop_gui.rules.resolver import DiceShortage as DiceShortage
from tabletop_gui.rules.resolver import DiceSource as DiceSource
from tabletop_gui.rules.resolver import DieRoll as DieRoll
from tabletop_gui.rules.resolver import GivenDice as GivenDice
from tabletop_gui.rules.resolver import ListedDice as ListedDice
from tabletop_gui.rules.resolver import Resolution as Resolution
from tabletop_gui.rules.resolver import Resolver, drive
from tabletop_gui.rules.resolver import RulesError as RulesError
from tabletop_gui.rules.resolver import SeededDice as SeededDice
from tabletop_gui.rules.resolver import StateChange as StateChange

if TYPE_CHECKING:  # numpy loads with the engines, not with the GUI's first window
    from tabletop_gui.geometry.board_geometry import BoardGeometry
    from tabletop_gui.geometry.cover import CoverRule
    from tabletop_gui.rules.dist import Dist

T = TypeVar("T")

# -- what a ruleset reads of the document ------------------------------------------------


@dataclass(frozen=True)
class Battle:
    """Everything a ruleset needs: options, geometry, and the combatants by id.

    ``geometry_source`` gives the board's geometry, the same object at every call (the
    scenario layer's ``Snapshot`` builds it lazily, once per document revision)."""

    ruleset_options: Mapping[str, Any]
    board: Board
    combatants: Mapping[str, Combatant]
    geometry_source: Callable[[], BoardGeometry] = field(compare=False, repr=False)

    _kept: dict[object, Any] = field(default_factory=dict, init=False, compare=False,
                                     repr=False)

    @property
    def geometry(self) -> BoardGeometry:
        """The geometry of ``board`` (built on first use)."""
        return self.geometry_source()

    def kept(self, key: type[T], make: Callable[[Battle], T]) -> T:
        """The value ``make(self)``, made once per battle and kept with it (a ruleset's
        reading of the battle that every question about it shares; two threads asking
        at once may both make it, one is kept)."""
        value = self._kept.get(key)
        if value is None:
            value = self._kept.setdefault(key, make(self))
        return cast(T, value)

    def combatant(self, cid: str) -> Combatant:
        try:
            return self.combatants[cid]
        except KeyError:
            raise RulesError(f"unknown fighter or unit id {cid!r}") from None




@dataclass(frozen=True)
class AttackRequest:
    attacker: str
    target: str
    weapon: str | None = None
    offhand: str | None = None
    situational: Mapping[str, Any] = field(default_factory=dict)  # parsed `--set` values


# -- what a ruleset answers ---------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One target rule: passed or not, with the numbers behind it."""

    rule: str  # short id: "range", "visible", "engaged", "friendly_fire", ...
    ok: bool
    text: str  # a sentence a player understands: 'out of range: 7.2" > 6"'
    value: float | None = None
    threshold: float | None = None
    margin: float | None = None  # by how much the threshold is met (>0) or missed (<0)


@dataclass(frozen=True)
class Modifier:
    name: str
    effect: str  # "+1 toughness", "-1 to hit"
    why: str  # the geometric or rules reason

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "effect": self.effect, "why": self.why}


@dataclass(frozen=True)
class PairFacts:
    """The geometry of one ordered pair, as ``inspect`` prints it."""

    attacker: str
    target: str
    distance: float
    horizontal_distance: float
    vertical_distance: float
    engaged: bool
    visible: bool
    cover: str
    cover_by: tuple[str, ...] = ()
    flanked: bool = False
    arc: str | None = None
    spaces: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "target": self.target,
            "distance": round(self.distance, 3),
            "horizontal_distance": round(self.horizontal_distance, 3),
            "vertical_distance": round(self.vertical_distance, 3),
            "engaged": self.engaged,
            "visible": self.visible,
            "cover": self.cover,
            "cover_by": list(self.cover_by),
            "flanked": self.flanked,
            "arc": self.arc,
            "spaces": self.spaces,
        }

    def geometry_json(self) -> dict[str, Any]:
        """The `geometry` object of `attack --json`."""
        return {
            "distance": round(self.distance, 3),
            "engaged": self.engaged,
            "visible": self.visible,
            "cover": self.cover,
            "flanked": self.flanked,
            "arc": self.arc,
            "spaces": self.spaces,
        }


@dataclass(frozen=True)
class Terms:
    """How a ruleset reads the geometry of a pair, for a ruling's tipping points."""

    engagement: Literal["within", "contact", "adjacent", "none"] = "none"
    engage_limit: float = 1.0  # inches ("within"), the contact tolerance ("contact")
    three_d: bool = False  # distances in 3D (gap and elevations) or on the table
    cover: CoverRule | None = None  # the Warcry family's cover, as `inspect` reports it
    facing_cover: str | None = None  # The Ninth Age: the cover threshold option
    arcs: bool = False  # The Ninth Age's arcs and 135° lines


@dataclass(frozen=True)
class OverlayShape:
    """A shape a ruleset wants drawn on the battlefield for an attack (table inches):
    a polyline or polygon (``points``, ``closed``) or a circle (``center``, ``radius``)."""

    kind: str  # what it shows: "arc_line", ...
    tooltip: str
    points: tuple[tuple[float, float], ...] = ()
    center: tuple[float, float] | None = None
    radius: float = 0.0
    closed: bool = False


class Checked:
    """A verdict made of checks: valid when every check passes; the failed ones' texts."""

    checks: tuple[Check, ...]

    @property
    def valid(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def reasons(self) -> list[str]:
        return [c.text for c in self.checks if not c.ok]


@dataclass(frozen=True)
class AttackReport(Checked):
    ruleset: str
    attacker: str
    target: str
    weapon: str | None
    offhand: str | None
    attack_type: str
    checks: tuple[Check, ...]
    modifiers: tuple[Modifier, ...]
    facts: PairFacts
    distribution: Dist
    table_row: str | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)  # ruleset extras (top level)
    take_down_probability: float = 0.0  # the target is taken down (destroyed) by it

    @property
    def expected_damage(self) -> float:
        return self.distribution.mean

    def to_json(self, roll: Resolution | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "attacker": self.attacker,
            "target": self.target,
            "weapon": self.weapon,
            "offhand": self.offhand,
            "attack_type": self.attack_type,
            "valid": self.valid,
            "reasons": self.reasons,
            "geometry": self.facts.geometry_json(),
            "modifiers": [m.to_json() for m in self.modifiers],
            "expected_damage": round(self.expected_damage, 3),
            "distribution": self.distribution.pairs(),
            "take_down_probability": round(self.take_down_probability, 6),
        }
        if self.table_row is not None:
            out["table_row"] = self.table_row
        for k, v in self.extras.items():
            if not k.startswith("_"):
                out[k] = v
        out["roll"] = roll.to_json() if roll is not None else None
        return out


def first_valid(names: Sequence[str], attempt: Callable[[str], T],
                valid: Callable[[T], bool]) -> T:
    """``attempt(name)`` for each weapon name in order: the first answer that is
    ``valid``, else the first answer; names it refuses (``RulesError``) are passed over,
    and when it refused them all the first refusal is raised. An attack without a
    weapon chosen takes this weapon (``Ruleset.plan``, the CLI's ``attack``)."""
    first: T | None = None
    error: RulesError | None = None
    try:
        for name in names:
            try:
                answer = attempt(name)
            except RulesError as e:  # e.g. a ranged main weapon with an off-hand
                error = error or e
                continue
            if valid(answer):
                return answer
            if first is None:
                first = answer
        if first is None:
            if error is None:
                raise ValueError("first_valid: no weapon names")
            raise error
        return first
    finally:
        # the error's traceback holds this frame, whose ``error`` held the error: a
        # cycle (the battle and its geometry with it) only the collector would free
        error = None


# -- the interface ------------------------------------------------------------------------


class Ruleset(ABC):
    """One ruleset. Implementations live in ``rules/<ruleset>/`` and register themselves."""

    info: RulesetInfo
    damage_axis = "damage"  # what the damage distribution counts, in a player's words

    @property
    def id(self) -> str:
        return self.info.id

    def is_taken_down(self, c: Combatant) -> bool:
        """Out of the game under this ruleset (its declared ``taken_down_rule``; the
        generic ``is_taken_down`` unless the ruleset declares more)."""
        return self.info.taken_down_rule(c)

    def options(self, battle: Battle) -> dict[str, Any]:
        """The battle's ruleset options with defaults filled in."""
        try:
            return resolve_options(self.info.ruleset_options, battle.ruleset_options)
        except FieldError as e:
            raise RulesError(f"ruleset_options: {e}") from None

    def situational(self, request: AttackRequest) -> dict[str, Any]:
        try:
            return resolve_options(self.info.situational_options, request.situational)
        except FieldError as e:
            raise RulesError(f"--set: {e}") from None

    def parse_set(self, pairs: Sequence[str]) -> dict[str, Any]:
        """Parse ``KEY=VALUE`` texts against the situational options."""
        known: dict[str, OptionSpec] = {s.key: s for s in self.info.situational_options}
        out: dict[str, Any] = {}
        for pair in pairs:
            key, sep, text = pair.partition("=")
            key = key.strip()
            if not sep:
                raise RulesError(f"--set {pair!r}: expected KEY=VALUE")
            spec = known.get(key)
            if spec is None:
                names = ", ".join(sorted(known)) or "none"
                raise RulesError(f"--set {key}: unknown option for {self.id} (known: {names})")
            try:
                out[key] = spec.parse_text(text)
            except FieldError as e:
                raise RulesError(f"--set {e}") from None
        return out

    def weapon_choices(self, battle: Battle, attacker: str) -> list[str]:
        """The names ``AttackRequest.weapon`` may take for this attacker: its weapons
        (a ruleset adds the weapons every model has, such as a Hand Weapon)."""
        return [str(w.name) for w in battle.combatant(attacker).weapons]

    @abstractmethod
    def pair_facts(self, battle: Battle, attacker: str, target: str) -> PairFacts:
        """The geometry of one ordered pair as this ruleset measures it."""

    def terms(self, battle: Battle) -> Terms:
        """How this ruleset measures, engages and covers (``rules/ruling.py``)."""
        return Terms()

    @abstractmethod
    def attack(self, battle: Battle, request: AttackRequest) -> AttackReport:
        """Target check, modifiers and the exact damage distribution."""

    def target_validity(self, battle: Battle, attacker: str, targets: Sequence[str],
                        weapon: str | None = None, offhand: str | None = None,
                        situational: Mapping[str, Any] | None = None,
                        explain: bool = True,
                        ) -> dict[str, tuple[bool, tuple[str, ...]]]:
        """Whether ``attacker`` may attack each of ``targets``, with the reasons when not:
        for every target the same as ``attack(...).valid`` and ``.reasons`` (a refused
        request gives ``(False, (message,))``). Many targets at once, so a ruleset may
        answer them together; this default asks ``attack`` once per target. With
        ``explain=False`` a ruleset may leave the reasons of invalid targets empty (the
        verdicts alone, cheaper); ask again for the targets whose reasons are wanted."""
        out: dict[str, tuple[bool, tuple[str, ...]]] = {}
        for target in targets:
            request = AttackRequest(attacker, target, weapon, offhand, dict(situational or {}))
            try:
                report = self.attack(battle, request)
            except RulesError as e:
                out[target] = (False, (str(e),))
                continue
            out[target] = (report.valid, tuple(report.reasons))
        return out

    @abstractmethod
    def begin(self, battle: Battle, request: AttackRequest) -> Resolver:
        """The attack, ready to be resolved die by die (``rules/resolver.py``)."""

    def resolve(self, battle: Battle, request: AttackRequest, dice: DiceSource) -> Resolution:
        """Resolve the attack with dice; the faces are consumed in the page's order, a
        choice the dice call for is taken from the request's situational value (which
        then is never asked) or its default."""
        return drive(self.begin(battle, request), dice)

    @abstractmethod
    def odds_given(self, battle: Battle, request: AttackRequest, known: Sequence[int]) -> Dist:
        """The damage distribution conditioned on the first dice already rolled."""

    def overlays(self, battle: Battle, request: AttackRequest) -> tuple[OverlayShape, ...]:
        """Shapes this ruleset wants drawn for the attack (none by default)."""
        return ()

    def move(self, battle: Battle, mover: str, path: Sequence[tuple[float, float]]
             ) -> dict[str, Any]:
        """Attacks of Opportunity along a path (grid rulesets only)."""
        raise RulesError(f"{self.id} has no grid moves: `move` is for grid rulesets")

    def describe(self) -> dict[str, Any]:
        """What `tabletop-gui rulesets --json` prints for this ruleset."""
        d = self.info.declaration
        return {
            "id": self.info.id,
            "name": self.info.name,
            "models": d.models,
            "grid": d.needs_grid,
            "attack_types": list(self.info.attack_types),
            "characteristics": [f.describe() for f in d.characteristics],
            "weapon_fields": [f.describe() for f in d.weapon_fields],
            "traits": [*d.traits, *d.valued_traits],
            "state": [f.describe() for f in d.state],
            "situational_options": [o.describe() for o in self.info.situational_options],
            "ruleset_options": [o.describe() for o in self.info.ruleset_options],
        }
