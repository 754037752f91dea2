"""What a ruleset declares about its data: characteristics, weapon fields, traits, state,
situational options (``--set``) and ruleset options (``ruleset_options`` in the file).

The scenario loader checks every fighter, unit and weapon against these declarations,
and ``tabletop-gui rulesets`` prints them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tabletop_gui.rules.combatant import Combatant, is_taken_down

FieldKind = Literal[
    "int",  # a whole number (JSON integer, or a float with no fraction)
    "number",  # any finite number
    "bool",
    "str",
    "enum",  # one of `choices`
    "range",  # a number (maximum) or "min-max"
    "damage",  # "hit/crit"
    "die",  # a die size: whole number >= 2
    "dice",  # a number or a dice expression such as "D3", "2D6", "D3+1"
    "modifier",  # an absolute number or "+N" / "-N" on the unit's own characteristic
    "strings",  # a list of strings
]


#: Largest magnitude of any number a ruleset field or option takes (unless it states less).
MAX_NUMBER = 1_000_000


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: FieldKind | str  # a built-in kind, or one a ruleset registered (KINDS)
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    help: str = ""
    # the largest value (numbers, die sizes, each number of a "hit/crit"); None: MAX_NUMBER
    maximum: float | None = None
    # a ruleset's own reading of the value (Ninth Age attributes): raises FieldError, so
    # that the loader refuses at load what the engine could not read later
    parse: Callable[[Any], object] | None = field(default=None, compare=False)
    # a ruleset's own field kind: its name (what `rulesets` shows); the value is stored,
    # checked and edited as ``kind``, then read by ``parse``
    shown_as: str = ""

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.shown_as or self.kind,
                               "required": self.required}
        if self.default is not None:
            out["default"] = self.default
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None or self.kind == "die":
            out["minimum"] = self.minimum if self.minimum is not None else 2
        if self.maximum is not None or self.kind == "die":
            out["maximum"] = self.maximum if self.maximum is not None else MAX_SIDES
        if self.help:
            out["help"] = self.help
        return out


@dataclass(frozen=True)
class Declaration:
    """The data a ruleset reads from a scenario file."""

    characteristics: tuple[FieldSpec, ...]
    weapon_fields: tuple[FieldSpec, ...]
    traits: tuple[str, ...] = ()
    valued_traits: tuple[str, ...] = ()  # traits written as {"name": value}
    state: tuple[FieldSpec, ...] = ()
    models: Literal["fighters", "units"] = "fighters"
    needs_grid: bool = False
    weapons_required: bool = True

    def characteristic(self, name: str) -> FieldSpec | None:
        return next((f for f in self.characteristics if f.name == name), None)

    def weapon_field(self, name: str) -> FieldSpec | None:
        return next((f for f in self.weapon_fields if f.name == name), None)


# -- value parsing shared by the loader and the rules ----------------------------------

# ASCII only: "\d" and str.isdigit() also accept digits such as "²" or "٣", which int()
# then refuses or reads differently; a value the loader accepts must parse everywhere.
_RANGE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*$", re.ASCII)
_DAMAGE = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$", re.ASCII)
_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$", re.ASCII)
_MODIFIER = re.compile(r"^\s*([+-])\s*(\d+)\s*$", re.ASCII)
_WHOLE = re.compile(r"^\s*(\d+)\s*$", re.ASCII)
#: Largest die of a dice expression, most dice in one, largest bonus ("20D100+100").
MAX_DICE, MAX_SIDES, MAX_DICE_BONUS = 20, 100, 100
#: Largest "+N" / "-N" of a modifier.
MAX_MODIFIER = 100


class FieldError(ValueError):
    """A value that does not fit its declared kind; the message says what was expected.

    ``at`` is a place inside the value (``"[2]"``: its third item) that the loader adds
    to the field's place."""

    def __init__(self, message: str, at: str = "") -> None:
        super().__init__(message)
        self.at = at


def whole_number(text: str) -> int | None:
    """The value of a whole number written in ASCII digits (spaces around allowed), else
    None. Digit strings too long to be a sane count read as a number over any limit."""
    m = _WHOLE.match(text)
    if not m:
        return None
    return _digits(m.group(1))


def _digits(text: str) -> int:
    """ASCII digits as a number; more than 9 digits (past every limit) read as 10**9, so
    that int() is never asked for thousands of digits."""
    return int(text) if len(text) <= 9 else 10**9


def _finite(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FieldError(f"must be a number, not {type_name(value)}")
    if not math.isfinite(value):
        raise FieldError("must be a finite number")
    return float(value)


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


@dataclass(frozen=True)
class RangeSpec:
    """A weapon range: distance must be > minimum (when set) and <= maximum."""

    maximum: float
    minimum: float | None = None

    def text(self) -> str:
        m = _num(self.maximum)
        return f"{_num(self.minimum)}-{m}" if self.minimum is not None else m


@dataclass(frozen=True)
class DamageSpec:
    hit: int
    crit: int


@dataclass(frozen=True)
class DiceSpec:
    """``count`` dice of ``sides`` faces plus ``bonus``; sides 0 means a fixed number."""

    count: int
    sides: int
    bonus: int = 0

    @property
    def fixed(self) -> bool:
        return self.sides == 0

    @property
    def largest(self) -> int:
        """The largest total the dice can show."""
        return self.count * max(1, self.sides) + self.bonus

    def outcomes(self) -> dict[int, float]:
        """Each total and its probability (a sum of dice by convolution, exact up to
        floating point)."""
        if not self.sides:
            return {self.count + self.bonus: 1.0}
        import numpy as np

        one = np.full(self.sides, 1.0 / self.sides)
        probs = np.ones(1)
        for _ in range(self.count):
            probs = np.convolve(probs, one)
        low = self.count + self.bonus
        return {low + i: float(q) for i, q in enumerate(probs)}


def _num(x: float | None) -> str:
    if x is None:
        return ""
    return str(int(x)) if float(x).is_integer() else str(x)


def parse_range(value: Any) -> RangeSpec:
    if isinstance(value, str):
        m = _RANGE.match(value)
        if not m:
            raise FieldError(f'must be a number or "min-max", not "{value}"')
        lo, hi = float(m.group(1)), float(m.group(2))
        if lo >= hi:
            raise FieldError(f'minimum range {_num(lo)} must be below maximum {_num(hi)}')
        return RangeSpec(maximum=hi, minimum=lo)
    v = _finite(value)
    if v <= 0:
        raise FieldError("must be > 0")
    return RangeSpec(maximum=v)


def parse_damage(value: Any, maximum: float | None = None) -> DamageSpec:
    """``"hit/crit"``; with ``maximum``, neither number may be larger."""
    if not isinstance(value, str):
        raise FieldError(f'must be a string "hit/crit", not {type_name(value)}')
    m = _DAMAGE.match(value)
    if not m:
        raise FieldError(f'must be "hit/crit" such as "1/3", not "{value}"')
    hit, crit = _digits(m.group(1)), _digits(m.group(2))
    top = MAX_NUMBER if maximum is None else maximum
    if max(hit, crit) > top:
        raise FieldError(f'"{value}": damage of at most {_num(top)} per hit')
    return DamageSpec(hit, crit)


def parse_dice(value: Any) -> DiceSpec:
    """A fixed number (0 to 1000, or its digits as text) or dice: ``"D3"``, ``"2D6"``,
    ``"D3+1"``; at most 20 dice of 2 to 100 sides and a bonus of at most 100."""
    if isinstance(value, str) and (n := whole_number(value)) is not None:
        value = n  # "3" is the fixed number 3
    if isinstance(value, str):
        m = _DICE.match(value)
        if not m:
            raise FieldError(f'must be a number or dice such as "D3", "2D6", "D3+1", not "{value}"')
        count = _digits(m.group(1)) if m.group(1) else 1
        sides = _digits(m.group(2))
        bonus = _digits(m.group(4) or "0") * (-1 if m.group(3) == "-" else 1)
        if not (1 <= count <= MAX_DICE and 2 <= sides <= MAX_SIDES
                and abs(bonus) <= MAX_DICE_BONUS):
            raise FieldError(f'dice "{value}" out of bounds (1-{MAX_DICE} dice of '
                             f'2-{MAX_SIDES} sides, a bonus of at most {MAX_DICE_BONUS})')
        return DiceSpec(count, sides, bonus)
    v = _finite(value)
    if not v.is_integer() or v < 0 or v > 1000:
        raise FieldError("must be a whole number from 0 to 1000")
    return DiceSpec(int(v), 0)


def parse_modifier(value: Any, own: float) -> float:
    """An absolute number, or "+N"/"-N" applied to the unit's own characteristic."""
    if isinstance(value, str):
        m = _MODIFIER.match(value)
        if not m:
            raise FieldError(f'must be a number or "+N", not "{value}"')
        n = _digits(m.group(2))
        if n > MAX_MODIFIER:
            raise FieldError(f'"{value}": "+N" and "-N" take N up to {MAX_MODIFIER}')
        return own + (n if m.group(1) == "+" else -n)
    v = _finite(value)
    if abs(v) > MAX_NUMBER:
        raise FieldError("is too large")
    return v


@dataclass(frozen=True)
class ModifierSpec:
    """A ``modifier`` value: an absolute number, or ``"+N"``/``"-N"`` (``relative``) on
    the unit's own characteristic."""

    amount: float
    relative: bool = False

    def on(self, own: float) -> float:
        """The value for a unit whose own characteristic is ``own``."""
        return own + self.amount if self.relative else self.amount


def _modifier(value: Any) -> ModifierSpec:
    if isinstance(value, str):
        return ModifierSpec(parse_modifier(value, 0.0), relative=True)
    return ModifierSpec(parse_modifier(value, 0.0))


# -- field kinds: one place that reads, writes and hints each kind ----------------------


@dataclass(frozen=True)
class Kind:
    """One field kind: how a value is read (from the file's JSON, or from what a player
    typed into an editor), written back as editor text, and hinted.

    ``read(spec, value)`` checks a JSON value against ``spec`` and returns the typed value
    the rules use (``RangeSpec``, ``DamageSpec``, ``DiceSpec``, ``ModifierSpec``, or the
    plain number, flag, text or list); it raises FieldError saying what is wrong. The
    loader stores that typed value with the entity, so nothing reads it again. ``parse``
    reads what a player typed, ``format`` writes a value back as text, ``hint`` says
    what the kind takes (an editor's placeholder and tooltip)."""

    name: str
    hint: str
    read: Callable[[FieldSpec, Any], Any]
    #: a new value for an editor (a new weapon row): ``spec.default`` when set, else this
    blank: Callable[[FieldSpec], Any]
    #: editor text as the file's JSON value (numbers as numbers, "+N" and "D3" as text)
    from_text: Callable[[str], Any]

    def parse(self, spec: FieldSpec, text: str) -> tuple[Any, Any]:
        """Editor text as (the JSON value to store, its typed value); FieldError saying
        what is wrong."""
        raw = self.from_text(text)
        return raw, read_value(spec, raw)

    def new_value(self, spec: FieldSpec) -> Any:
        """The JSON value a new entry starts with (a new weapon row): the declared
        default, else a value of this kind."""
        return spec.default if spec.default is not None else self.blank(spec)

    def format(self, value: Any) -> str:
        """A JSON value of this kind as editor text (the inverse of ``from_text``)."""
        if value is None:
            return ""
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        if isinstance(value, bool):
            return "true" if value else "false"
        return f"{value:g}" if isinstance(value, float) else str(value)


def _text(text: str) -> Any:
    return text.strip()


def json_scalar(text: str) -> Any:
    """Editor text as JSON would hold it: true/false, an int, a float, or the text (which
    ``read`` refuses where the kind takes a number)."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        return t


def _signed_text(text: str) -> Any:
    """"+N"/"-N" stay text (relative); anything else as ``json_scalar``."""
    t = text.strip()
    return t if t[:1] in "+-" else json_scalar(t)


def _strings_text(text: str) -> Any:
    return [t.strip() for t in text.split(",") if t.strip()]


def _read_number(spec: FieldSpec, value: Any) -> Any:
    v = _finite(value)
    kind = spec.kind
    if kind in ("int", "die") and not v.is_integer():
        raise FieldError("must be a whole number")
    if kind == "die" and not 2 <= v <= MAX_SIDES:
        raise FieldError(f"must be a die size from 2 to {MAX_SIDES}")
    if spec.minimum is not None and v < spec.minimum:
        raise FieldError(f"must be >= {_num(spec.minimum)}")
    if spec.maximum is not None and v > spec.maximum:
        raise FieldError(f"must be at most {_num(spec.maximum)}")
    if abs(v) > MAX_NUMBER:
        raise FieldError("is too large")
    return int(v) if kind in ("int", "die") else value


def _read_bool(spec: FieldSpec, value: Any) -> bool:
    if not isinstance(value, bool):
        raise FieldError(f"must be true or false, not {type_name(value)}")
    return value


def _read_str(spec: FieldSpec, value: Any) -> str:
    if not isinstance(value, str):
        raise FieldError(f"must be a string, not {type_name(value)}")
    return value


def _read_enum(spec: FieldSpec, value: Any) -> str:
    if not isinstance(value, str) or value not in spec.choices:
        raise FieldError(f"must be one of {', '.join(spec.choices)}")
    return value


def _read_dice(spec: FieldSpec, value: Any) -> DiceSpec:
    dice = parse_dice(value)
    if spec.maximum is not None and dice.largest > spec.maximum:
        raise FieldError(f"at most {_num(spec.maximum)} in total, not up to {dice.largest}")
    return dice


def _read_strings(spec: FieldSpec, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise FieldError("must be a list of strings")
    return value


def _blank_int(spec: FieldSpec) -> int:
    return max(1, int(spec.minimum or 1))


KINDS: dict[str, Kind] = {}


def register_kind(kind: Kind) -> Kind:
    """Declare a field kind by its name (a ruleset may declare its own); a name is
    registered once."""
    if kind.name in KINDS and KINDS[kind.name] != kind:
        raise ValueError(f"field kind {kind.name!r} is already registered")
    KINDS[kind.name] = kind
    return kind


for _kind in (
    Kind("int", "a whole number", _read_number, _blank_int, json_scalar),
    Kind("number", "a number", _read_number, lambda s: 1, json_scalar),
    Kind("bool", "true or false", _read_bool, lambda s: False, json_scalar),
    Kind("str", "text", _read_str, lambda s: "", _text),
    Kind("enum", "one of the choices", _read_enum,
         lambda s: s.choices[0] if s.choices else "", _text),
    Kind("range", 'inches: a maximum such as 12, or "min-max" such as "3-18"',
         lambda s, v: parse_range(v), lambda s: 1, json_scalar),
    Kind("damage", '"hit/crit" such as "1/3"', lambda s, v: parse_damage(v, s.maximum),
         lambda s: "1/2", _text),
    Kind("die", "a die size such as 6", _read_number, lambda s: 6, json_scalar),
    Kind("dice", 'a number, or dice such as "D3", "2D6", "D3+1"', _read_dice,
         lambda s: 1, json_scalar),
    Kind("modifier", 'a number, or "+N" / "-N" on the unit\'s own value',
         lambda s, v: _modifier(v), lambda s: 0, _signed_text),
    Kind("strings", "a comma-separated list", _read_strings, lambda s: [], _strings_text),
):
    register_kind(_kind)


def kind_of(spec: FieldSpec) -> Kind:
    """The kind a spec's value is stored, checked and edited as."""
    return KINDS[spec.kind]


def read_value(spec: FieldSpec, value: Any) -> Any:
    """The typed value of a JSON value of ``spec`` (a ruleset's own kind read by its own
    ``parse`` on top); FieldError saying what is wrong."""
    typed = kind_of(spec).read(spec, value)
    if spec.parse is not None:
        return spec.parse(value)
    return typed


def read_values(specs: Sequence[FieldSpec], values: Mapping[str, Any]) -> dict[str, Any]:
    """The typed values of the declared keys of ``values`` (the others are left out);
    FieldError (``at`` naming the key) on the first value that does not fit."""
    out: dict[str, Any] = {}
    for spec in specs:
        if spec.name in values:
            try:
                out[spec.name] = read_value(spec, values[spec.name])
            except FieldError as e:
                raise FieldError(f"{spec.name} {e}", e.at) from None
    return out


# -- options (`--set KEY=VALUE` and `ruleset_options`) ----------------------------------


@dataclass(frozen=True)
class OptionSpec:
    key: str
    kind: Literal["bool", "int", "number", "enum", "str"]
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    # a "str" option holding a comma-separated list: each entry one of ``items``, and
    # ``item_count`` (least, most) entries
    items: tuple[str, ...] = ()
    item_count: tuple[int, int] = (1, 20)
    # the largest value of a number (None: MAX_NUMBER; the least is -MAX_NUMBER unless
    # ``minimum`` says more)
    maximum: float | None = None

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "type": self.kind, "default": self.default,
                               "help": self.help}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.kind in ("int", "number"):
            out["minimum"] = self.minimum if self.minimum is not None else -MAX_NUMBER
            out["maximum"] = self.maximum if self.maximum is not None else MAX_NUMBER
        if self.items:
            out["items"] = list(self.items)
        return out

    def parse_text(self, text: str) -> Any:
        """Parse a ``--set`` value given as text."""
        t = text.strip()
        if self.kind == "bool":
            low = t.lower()
            if low in ("true", "1", "yes", "on"):
                return True
            if low in ("false", "0", "no", "off"):
                return False
            raise FieldError(f"{self.key} takes true or false, not {text!r}")
        if self.kind in ("int", "number"):
            try:
                v = float(t)
            except ValueError:
                raise FieldError(f"{self.key} takes a number, not {text!r}") from None
            return self.check(int(v) if self.kind == "int" and v.is_integer() else v)
        return self.check(t)

    def check(self, value: Any) -> Any:
        """Check a value from JSON (or parsed text) against this option."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise FieldError(f"{self.key} takes true or false, not {type_name(value)}")
            return value
        if self.kind in ("int", "number"):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise FieldError(f"{self.key} takes a number, not {type_name(value)}")
            try:
                v = float(value)
            except OverflowError:
                v = math.inf
            if not math.isfinite(v):
                raise FieldError(f"{self.key} takes a finite number")
            if self.kind == "int" and not v.is_integer():
                raise FieldError(f"{self.key} takes a whole number, not {value}")
            least = self.minimum if self.minimum is not None else -MAX_NUMBER
            most = self.maximum if self.maximum is not None else MAX_NUMBER
            if v < least:
                raise FieldError(f"{self.key} must be >= {_num(least)}")
            if v > most:
                raise FieldError(f"{self.key} must be at most {_num(most)}")
            return int(v) if self.kind == "int" else v
        if self.kind == "enum":
            if value not in self.choices:
                raise FieldError(f"{self.key} takes one of {', '.join(self.choices)}, "
                                 f"not {value!r}")
            return value
        if not isinstance(value, str):
            raise FieldError(f"{self.key} takes a string")
        if self.items:
            entries = [part.strip() for part in value.split(",")]
            least, most = self.item_count
            if any(e not in self.items for e in entries) or not least <= len(entries) <= most:
                raise FieldError(f"{self.key} takes {least} to {most} comma-separated entries, "
                                 f"each one of {', '.join(self.items)}, not {value!r}")
        return value


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``given``; unknown keys and bad values raise FieldError."""
    known = {s.key: s for s in specs}
    out = {s.key: s.default for s in specs}
    for key, value in given.items():
        spec = known.get(key)
        if spec is None:
            names = ", ".join(sorted(known)) or "none"
            raise FieldError(f"unknown option {key!r} (known: {names})")
        out[key] = spec.check(value)
    return out


@dataclass(frozen=True)
class RulesetInfo:
    """Static description of a ruleset (what `tabletop-gui rulesets` prints)."""

    id: str
    name: str
    declaration: Declaration
    attack_types: tuple[str, ...]
    situational_options: tuple[OptionSpec, ...] = ()
    ruleset_options: tuple[OptionSpec, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)
    # the distance (inches, base to base) within which a fighter engages, drawn around the
    # attacker; None when the ruleset engages otherwise (base contact, adjacent spaces)
    engagement_zone: float | None = None
    # when a fighter is out of the game (a ruleset with more ways out declares its own)
    taken_down_rule: Callable[[Combatant], bool] = is_taken_down
