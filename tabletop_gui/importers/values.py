"""Reading the text values of roster profiles (``4``, ``5"``, ``+1``, ``3-20``, ``2/5``) into
the fields a ruleset declares, each checked with the ruleset's own field check."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tabletop_gui.importers.sources import located
from tabletop_gui.rules.fields import FieldError, FieldSpec, read_value

_NUMBER = re.compile(r"^[+]?(\d+(?:\.\d+)?)$")
_RANGE = re.compile(r"^(\d+(?:\.\d+)?)\s*[-\u2013\u2014]\s*(\d+(?:\.\d+)?)$")
_INCH_MARKS = "\"\u2033\u201d\u2032'"


def plain(text: str) -> str:
    """The value without inch marks, surrounding spaces and trailing ``+`` of ``4+``."""
    t = text.strip().strip(_INCH_MARKS).strip()
    return t[:-1].strip() if t.endswith("+") and t[:-1].strip().isdigit() else t


def number(text: str) -> float | None:
    m = _NUMBER.match(plain(text))
    return float(m.group(1)) if m else None


def range_value(text: str) -> float | str | None:
    """``1`` -> 1.0, ``3-20`` -> "3-20"; None when it is neither."""
    t = plain(text)
    m = _RANGE.match(t)
    if m:
        return f"{_num(float(m.group(1)))}-{_num(float(m.group(2)))}"
    return number(t)


def _num(x: float) -> str:
    return str(int(x)) if x.is_integer() else str(x)


@dataclass
class Problems:
    """Located refusals and warnings collected while converting one roster."""

    source: str
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def error(self, place: str, message: str) -> None:
        self.errors.append(located(self.source, place, message))

    def warn(self, place: str, message: str) -> None:
        self.warnings.append(located(self.source, place, message))


def checked(spec: FieldSpec, raw: Any, place: str, what: str, problems: Problems) -> Any:
    """``raw`` checked by the ruleset's field check; None (and a problem) when refused."""
    try:
        typed = read_value(spec, raw)
    except (FieldError, OverflowError) as e:
        problems.error(place, f"{what}: {e}")
        return None
    return typed if spec.kind in ("int", "die") else raw


def unique_names(names: Iterable[str]) -> list[str]:
    """Names made unique in order: the second ``Spear`` becomes ``Spear (2)``."""
    seen: dict[str, int] = {}
    out: list[str] = []
    taken: set[str] = set()
    for name in names:
        n = seen.get(name, 0) + 1
        seen[name] = n
        candidate = name if n == 1 else f"{name} ({n})"
        while candidate in taken:
            n += 1
            seen[name] = n
            candidate = f"{name} ({n})"
        taken.add(candidate)
        out.append(candidate)
    return out


def not_used(problems: Problems, place: str, items: list[str]) -> None:
    """One warning naming everything of a model that was read but not used."""
    if items:
        problems.warn(place, "read but not used: " + "; ".join(dict.fromkeys(items)))


def characteristic(spec: FieldSpec, name: str, text: str, place: str, problems: Problems,
                   unused: list[str]) -> Any:
    """A profile's number for ``spec``: None when it is not one (refused when the ruleset
    needs it, else named among the things not used)."""
    value = number(text)
    if value is None:
        if spec.required:
            problems.error(place, f"{name}: {text!r} is not a number")
        else:
            unused.append(f"characteristic {name} {text!r} (not a number)")
        return None
    return checked(spec, value, place, name, problems)
