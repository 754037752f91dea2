"""What a ruleset declares about its data: characteristics, weapon fields, traits, state,
situational options (``--set``) and ruleset options (``ruleset_options`` in the file).

The scenario loader checks every fighter, unit and weapon against these declarations,
and ``tabletop-gui rulesets`` prints them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

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
    "limbs",  # a list of "RH" "LH" "RL" "LL"
]


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: FieldKind
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    help: str = ""

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.kind, "required": self.required}
        if self.default is not None:
            out["default"] = self.default
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
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

    def state_field(self, name: str) -> FieldSpec | None:
        return next((f for f in self.state if f.name == name), None)


# -- value parsing shared by the loader and the rules ----------------------------------

_RANGE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*$")
_DAMAGE = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")
_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
_MODIFIER = re.compile(r"^\s*([+-])\s*(\d+)\s*$")
LIMBS = ("RH", "LH", "RL", "LL")


class FieldError(ValueError):
    """A value that does not fit its declared kind; the message says what was expected."""


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

    def outcomes(self) -> dict[int, float]:
        dist: dict[int, float] = {self.bonus: 1.0}
        for _ in range(self.count if self.sides else 0):
            nxt: dict[int, float] = {}
            for v, p in dist.items():
                for face in range(1, self.sides + 1):
                    nxt[v + face] = nxt.get(v + face, 0.0) + p / self.sides
            dist = nxt
        if not self.sides:
            return {self.count + self.bonus: 1.0}
        return dist


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


def parse_damage(value: Any) -> DamageSpec:
    if not isinstance(value, str):
        raise FieldError(f'must be a string "hit/crit", not {type_name(value)}')
    m = _DAMAGE.match(value)
    if not m:
        raise FieldError(f'must be "hit/crit" such as "1/3", not "{value}"')
    return DamageSpec(int(m.group(1)), int(m.group(2)))


def parse_dice(value: Any) -> DiceSpec:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())  # "3" is the fixed number 3
    if isinstance(value, str):
        m = _DICE.match(value)
        if not m:
            raise FieldError(f'must be a number or dice such as "D3", "2D6", "D3+1", not "{value}"')
        count = int(m.group(1) or 1)
        sides = int(m.group(2))
        bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
        if count < 1 or count > 20 or sides < 2 or sides > 100:
            raise FieldError(f'dice "{value}" out of bounds (1-20 dice of 2-100 sides)')
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
        n = int(m.group(2))
        return own + (n if m.group(1) == "+" else -n)
    return _finite(value)


def check_value(spec: FieldSpec, value: Any) -> Any:
    """Return the value if it fits the spec, else raise FieldError saying why."""
    kind = spec.kind
    if kind in ("int", "number", "die"):
        v = _finite(value)
        if kind in ("int", "die") and not v.is_integer():
            raise FieldError("must be a whole number")
        if kind == "die" and v < 2:
            raise FieldError("must be a die size of at least 2")
        if spec.minimum is not None and v < spec.minimum:
            raise FieldError(f"must be >= {_num(spec.minimum)}")
        if abs(v) > 1e6:
            raise FieldError("is too large")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise FieldError(f"must be true or false, not {type_name(value)}")
        return value
    if kind == "str":
        if not isinstance(value, str):
            raise FieldError(f"must be a string, not {type_name(value)}")
        return value
    if kind == "enum":
        if not isinstance(value, str) or value not in spec.choices:
            raise FieldError(f"must be one of {', '.join(spec.choices)}")
        return value
    if kind == "range":
        parse_range(value)
        return value
    if kind == "damage":
        parse_damage(value)
        return value
    if kind == "dice":
        parse_dice(value)
        return value
    if kind == "modifier":
        parse_modifier(value, 0.0)
        return value
    if kind in ("strings", "limbs"):
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise FieldError("must be a list of strings")
        if kind == "limbs":
            bad = [s for s in value if s not in LIMBS]
            if bad:
                raise FieldError(f"limbs must be among {', '.join(LIMBS)}, not {bad[0]}")
        return value
    raise FieldError(f"unknown field kind {kind}")  # pragma: no cover - declarations are static


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

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "type": self.kind, "default": self.default,
                               "help": self.help}
        if self.choices:
            out["choices"] = list(self.choices)
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
            v = _finite(value) if not isinstance(value, bool) else None
            if v is None:
                raise FieldError(f"{self.key} takes a number")
            if self.kind == "int" and not v.is_integer():
                raise FieldError(f"{self.key} takes a whole number, not {value}")
            if self.minimum is not None and v < self.minimum:
                raise FieldError(f"{self.key} must be >= {_num(self.minimum)}")
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
