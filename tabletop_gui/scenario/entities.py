"""The battlefield document: typed, immutable entities of a scenario (format version 1).

Every entity is a frozen dataclass; an edit replaces an entity (``dataclasses.replace``)
and the scenario with it, so old and new documents can be kept for undo and compared
with ``==``. Mappings inside entities (characteristics, state, weapon values) are plain
dicts by construction but are never mutated in place: always build a new one.

Field names follow ``docs/scenario-format.md`` to the letter.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from itertools import compress, count
from operator import attrgetter, is_not
from typing import Any, Literal, TypeAlias

from tabletop_gui.rules.combatant import is_taken_down, models_left
from tabletop_gui.rules.fields import FieldError, FieldSpec, read_values
from tabletop_gui.rules.registry import INFOS

MM_PER_INCH = 25.4

JsonValue: TypeAlias = Any
Trait: TypeAlias = str | Mapping[str, JsonValue]


@dataclass(frozen=True)
class RoundBase:
    diameter_mm: float
    shape: Literal["round"] = "round"

    @property
    def length_in(self) -> float:
        """Extent along the facing, inches."""
        return self.diameter_mm / MM_PER_INCH

    @property
    def width_in(self) -> float:
        """Extent across the facing, inches."""
        return self.diameter_mm / MM_PER_INCH


@dataclass(frozen=True)
class OvalBase:
    length_mm: float
    width_mm: float
    shape: Literal["oval"] = "oval"

    @property
    def length_in(self) -> float:
        return self.length_mm / MM_PER_INCH

    @property
    def width_in(self) -> float:
        return self.width_mm / MM_PER_INCH


@dataclass(frozen=True)
class RectBase:
    width_mm: float
    depth_mm: float
    shape: Literal["rect"] = "rect"

    @property
    def length_in(self) -> float:
        return self.depth_mm / MM_PER_INCH

    @property
    def width_in(self) -> float:
        return self.width_mm / MM_PER_INCH


Base: TypeAlias = RoundBase | OvalBase | RectBase


@dataclass(frozen=True)
class Weapon:
    """A weapon profile: its name and the ruleset's fields, exactly as in the file
    (``values``, what is saved), and ``parsed``: the same fields as the rules read them
    (``RangeSpec``, ``DamageSpec``, ``DiceSpec``, ``ModifierSpec``, numbers, lists), read
    once by the field kinds when the weapon is loaded or edited (``Weapon.read``)."""

    name: str
    values: Mapping[str, JsonValue] = field(default_factory=dict)
    parsed: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def read(cls, name: str, values: Mapping[str, JsonValue],
             specs: Sequence[FieldSpec]) -> Weapon:
        """A weapon with its declared fields read by their kinds; FieldError (naming the
        field) when a value does not fit."""
        return cls(name, values, read_values(specs, values))

    def get(self, key: str, default: JsonValue = None) -> JsonValue:
        return self.values.get(key, default)


class _Armed:
    """What a scenario asks of every model it is made of: has it weapons its ruleset's
    field kinds have not read (made by code, or not fitting)? Asked once per model value
    (a model never changes), not at every edit of a scenario of thousands of models."""

    weapons: tuple[Weapon, ...]

    @cached_property
    def unread_weapons(self) -> bool:
        return any(_unread(w) for w in self.weapons)


@dataclass(frozen=True)
class Fighter(_Armed):
    """An individual model (Warcry family and Circle of Realms)."""

    id: str
    name: str
    side: str
    x: float
    y: float
    base: Base
    facing: float = 90.0
    elevation: float | None = None
    height: float = 1.25
    characteristics: Mapping[str, float] = field(default_factory=dict)
    traits: tuple[Trait, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    state: Mapping[str, JsonValue] = field(default_factory=dict)

    kind: Literal["fighter"] = "fighter"

    def has_trait(self, name: str) -> bool:
        return has_trait(self.traits, name)

    def weapon(self, name: str) -> Weapon | None:
        return next((w for w in self.weapons if w.name == name), None)

    def moved_to(self, x: float, y: float) -> Fighter:
        return replace(self, x=x, y=y)


@dataclass(frozen=True)
class Unit(_Armed):
    """A rank-and-file block (The Ninth Age)."""

    id: str
    name: str
    side: str
    x: float
    y: float
    models: int
    files: int
    base_mm: tuple[float, float]
    facing: float = 90.0
    round_base: bool = False
    characteristics: Mapping[str, float] = field(default_factory=dict)
    height_class: Literal["standard", "large", "gigantic"] = "standard"
    traits: tuple[Trait, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    state: Mapping[str, JsonValue] = field(default_factory=dict)

    kind: Literal["unit"] = "unit"

    def has_trait(self, name: str) -> bool:
        return has_trait(self.traits, name)

    def weapon(self, name: str) -> Weapon | None:
        return next((w for w in self.weapons if w.name == name), None)

    @property
    def ranks(self) -> int:
        return max(1, math.ceil(self.models / self.files)) if self.files > 0 else 1

    @property
    def width_in(self) -> float:
        """Width of the boundary along the front, inches."""
        if self.round_base:
            return self.base_mm[0] / MM_PER_INCH
        return self.files * self.base_mm[0] / MM_PER_INCH

    @property
    def depth_in(self) -> float:
        """Depth of the boundary front to back, inches."""
        if self.round_base:
            return self.base_mm[0] / MM_PER_INCH
        return self.ranks * self.base_mm[1] / MM_PER_INCH

    @property
    def models_left(self) -> int:
        """Models still on the table: whole models are removed as their Health Points are
        lost (``hp_lost // hp`` of them, from the rear rank)."""
        return models_left(self.models, int(self.characteristics.get("hp", 1) or 1),
                           int(self.state.get("hp_lost", 0) or 0))

    @property
    def taken_down(self) -> bool:
        """A unit is destroyed when all its Health Points are lost."""
        hp = float(self.characteristics.get("hp", 1))
        return float(self.state.get("hp_lost", 0)) >= self.models * hp or bool(
            self.state.get("taken_down", False)
        )

    def moved_to(self, x: float, y: float) -> Unit:
        return replace(self, x=x, y=y)


@dataclass(frozen=True)
class Obstacle:
    id: str
    polygon: tuple[tuple[float, float], ...]
    height: float
    name: str = ""
    blocks_sight: bool = True
    cover: Literal["hard", "soft"] = "hard"

    kind: Literal["obstacle"] = "obstacle"


@dataclass(frozen=True)
class Platform:
    id: str
    polygon: tuple[tuple[float, float], ...]
    height: float
    name: str = ""

    kind: Literal["platform"] = "platform"


@dataclass(frozen=True)
class Side:
    id: str
    name: str = ""
    color: str = "#808080"


@dataclass(frozen=True)
class Grid:
    kind: Literal["square", "hex"]
    size: float


@dataclass(frozen=True)
class Background:
    """A picture of the table (a map), stretched over the whole battlefield.

    ``image`` is a ``data:image/png|jpeg|webp;base64,...`` URI (checked when loaded)."""

    image: str


@dataclass(frozen=True)
class Battlefield:
    width: float
    depth: float
    grid: Grid | None = None
    background: Background | None = None


Entity: TypeAlias = Fighter | Unit | Obstacle | Platform
Model: TypeAlias = Fighter | Unit


@dataclass(frozen=True)
class Scenario:
    """One scenario document, as loaded from or saved to a file."""

    ruleset: str
    battlefield: Battlefield
    sides: tuple[Side, ...]
    name: str = ""
    ruleset_options: Mapping[str, JsonValue] = field(default_factory=dict)
    fighters: tuple[Fighter, ...] = ()
    units: tuple[Unit, ...] = ()
    obstacles: tuple[Obstacle, ...] = ()
    platforms: tuple[Platform, ...] = ()

    def __post_init__(self) -> None:
        # Weapons made by code (a library template, a test) rather than by the loader or
        # an editor are read by the ruleset's field kinds here, once; a weapon that does
        # not fit is kept unread and the rules refuse it, naming it. Each model knows
        # whether it has any (``unread_weapons``, once per model value).
        all_read = True  # no model is left with an unread weapon (``with_entity``)
        for attr in ("fighters", "units"):
            models: tuple[Model, ...] = getattr(self, attr)
            if any(map(_HAS_UNREAD, models)):
                read = tuple(_read_weapons(m, self.ruleset) for m in models)
                if any(a is not b for a, b in zip(read, models, strict=True)):
                    object.__setattr__(self, attr, read)
                all_read = all_read and not any(map(_HAS_UNREAD, read))
        object.__setattr__(self, "_all_read", all_read)

    # -- look-ups (computed once per scenario value: a scenario never changes) --------
    @cached_property
    def models(self) -> tuple[Model, ...]:
        return (*self.fighters, *self.units)

    @cached_property
    def entities(self) -> tuple[Entity, ...]:
        return (*self.fighters, *self.units, *self.obstacles, *self.platforms)

    @cached_property
    def _by_id(self) -> dict[str, Entity]:
        """Each id's first entity in ``entities`` order (models before terrain)."""
        index: dict[str, Entity] = {}
        for e in self.entities:
            index.setdefault(e.id, e)
        return index

    @property
    def ids_unique(self) -> bool:
        """No two entities share an id (known from the index ``entity`` reads)."""
        return len(self._by_id) == len(self.entities)

    @property
    def by_id(self) -> Mapping[str, Entity]:
        """Each id's entity (what ``entity`` looks up), for a caller that looks up
        thousands (one call each less)."""
        return self._by_id

    def entity(self, entity_id: str) -> Entity | None:
        return self._by_id.get(entity_id)

    def model(self, model_id: str) -> Model | None:
        found = self._by_id.get(model_id)  # models come first: a model wins a shared id
        return found if isinstance(found, Fighter | Unit) else None

    def side(self, side_id: str) -> Side | None:
        return next((s for s in self.sides if s.id == side_id), None)

    def taken_down(self, model: Model) -> bool:
        """Is ``model`` out of the game: a unit when all its Health Points are lost, a
        fighter by its ruleset's rule (``RulesetInfo.taken_down_rule``)."""
        if isinstance(model, Unit):
            return model.taken_down
        known = INFOS.get(self.ruleset)  # a scenario being checked may name no ruleset
        return (known.taken_down_rule if known is not None else is_taken_down)(model)

    def models_changed_from(self, old: Scenario) -> list[tuple[Model, Model]] | None:
        """The models that are other values here than in ``old``, as (old, new) pairs,
        when both have as many models under the same ruleset (an edit of some of them,
        a drag step); None otherwise. Compared by identity, in C: a scenario of
        thousands of models is walked in microseconds."""
        mine, theirs = self.models, old.models
        if self.ruleset != old.ruleset or len(mine) != len(theirs):
            return None
        return [(theirs[i], mine[i]) for i in other_objects(theirs, mine)]

    # -- edits (each returns a new scenario) ---------------------------------
    @cached_property
    def _places(self) -> dict[tuple[str, str], tuple[int, ...]]:
        """(collection, id) -> where that id is in that collection (ascending)."""
        places: dict[tuple[str, str], tuple[int, ...]] = {}
        for attr in _COLLECTION.values():
            for i, e in enumerate(getattr(self, attr)):
                key = (attr, e.id)
                places[key] = (*places.get(key, ()), i)
        return places

    def with_entity(self, entity: Entity) -> Scenario:
        """Replace the entity with the same id, or append it when new."""
        attr = _COLLECTION[entity.kind]
        items: tuple[Entity, ...] = getattr(self, attr)
        key = (attr, entity.id)
        at = self._places.get(key)
        if at:
            new_list = list(items)
            for i in at:
                new_list[i] = entity
            new = tuple(new_list)
        else:
            new = (*items, entity)
        if vars(self).get("_all_read") and not (
                isinstance(entity, Fighter | Unit) and entity.unread_weapons):
            # every weapon read, the new entity's too: ``__post_init__`` would find
            # nothing to read, after a walk over every model (a drag step makes two)
            out = object.__new__(Scenario)
            mine, theirs = vars(self), vars(out)
            for name in _FIELDS:
                theirs[name] = mine[name]
            theirs[attr] = new
            theirs["_all_read"] = True
            self._hand_over(out, key, at)
            return out
        changes: dict[str, Any] = {attr: new}
        out = replace(self, **changes)
        if getattr(out, attr) is new and out.fighters is (
                new if attr == "fighters" else self.fighters) and out.units is (
                new if attr == "units" else self.units):
            self._hand_over(out, key, at)
        return out

    def _hand_over(self, out: Scenario, key: tuple[str, str],
                   at: tuple[int, ...] | None) -> None:
        """Give ``out`` (this scenario with one entity replaced or appended, ``key``:
        its collection and id, ``at``: where it was) the look-ups this one computed,
        with that entity's entries made again: an edit of one model of thousands does
        not index them all again. (Cached values, as ``cached_property`` stores them.)"""
        mine, theirs = vars(self), vars(out)
        if at:
            places = mine["_places"]  # the same places
        else:
            places = dict(mine["_places"])
            places[key] = (len(getattr(self, key[0])),)
        theirs["_places"] = places
        index = mine.get("_by_id")
        if index is not None:
            index = dict(index)
            entity_id = key[1]
            for attr in _COLLECTION.values():  # the first in ``entities`` order
                found = places.get((attr, entity_id))
                if found:
                    index[entity_id] = getattr(out, attr)[found[0]]
                    break
            theirs["_by_id"] = index

    def without_entity(self, entity_id: str) -> Scenario:
        changes: dict[str, Any] = {
            attr: tuple(e for e in getattr(self, attr) if e.id != entity_id)
            for attr in _COLLECTION.values()
        }
        return replace(self, **changes)

    def new_id(self, prefix: str) -> str:
        used = {e.id for e in self.entities}
        n = 1
        while f"{prefix}{n}" in used:
            n += 1
        return f"{prefix}{n}"


_COLLECTION = {
    "fighter": "fighters",
    "unit": "units",
    "obstacle": "obstacles",
    "platform": "platforms",
}


def other_objects(old: Sequence[object], new: Sequence[object]) -> Iterator[int]:
    """The places (up to the shorter's length) where ``new`` holds another object than
    ``old``, found by identity in C: an edit of a few of thousands of entities (a drag
    step) is told from the rest in microseconds."""
    return compress(count(), map(is_not, old, new))


def has_trait(traits: tuple[Trait, ...], name: str) -> bool:
    for t in traits:
        if t == name or (isinstance(t, Mapping) and name in t):
            return True
    return False


def trait_value(traits: tuple[Trait, ...], name: str) -> JsonValue:
    """The value of a parameterised trait such as ``{"aegis_vs_magical": 4}``, else None."""
    for t in traits:
        if isinstance(t, Mapping) and name in t:
            return t[name]
    return None


def _unread(weapon: Weapon) -> bool:
    return bool(weapon.values) and not weapon.parsed


_HAS_UNREAD = attrgetter("unread_weapons")
_FIELDS = tuple(f.name for f in fields(Scenario))


def _read_weapons(model: Model, ruleset: str) -> Model:
    """``model`` with its unread weapons read by the ruleset's weapon field kinds (the
    model itself when none could be)."""
    info = INFOS.get(ruleset)
    if info is None or not model.unread_weapons:
        return model
    specs = info.declaration.weapon_fields
    weapons = []
    read = False
    for w in model.weapons:
        if _unread(w):
            with contextlib.suppress(FieldError):
                w = Weapon.read(w.name, w.values, specs)
                read = True
        weapons.append(w)
    return replace(model, weapons=tuple(weapons)) if read else model
