"""Typed reading of untrusted JSON values, collecting a Problem for every defect.

Each getter returns the value when it fits and ``None`` (after recording a problem)
when it does not, so the loader keeps going and reports every defect of a file at once.
``bool`` is never a number, and numbers must be finite and of a sane size.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from typing import Any

from tabletop_gui.rules.fields import type_name
from tabletop_gui.scenario.problems import (
    MAX_PROBLEMS,
    Problem,
    index_path,
    key_path,
    more_problems,
    shown,
)

#: Largest magnitude of a length or coordinate, inches (or millimetres for bases).
MAX_LENGTH = 100_000.0
_COLOR = re.compile(r"^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$")
_MISSING = object()


class DuplicateKeyObject(dict[str, Any]):
    """A JSON object whose text named some keys twice (the last value was kept)."""

    duplicates: tuple[str, ...] = ()


class Reader:
    """Collects problems while reading values out of a decoded JSON document.

    The first ``MAX_PROBLEMS`` are kept in ``problems``; ``count`` counts them all, and
    ``report()`` ends with a line saying how many were left out."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.count = 0

    def problem(self, path: str, message: str) -> None:
        self.count += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(path, message))

    def report(self) -> list[Problem]:
        """The problems kept, and a last line counting the others."""
        left_out = self.count - len(self.problems)
        return [*self.problems, more_problems(left_out)] if left_out else list(self.problems)

    # -- containers ------------------------------------------------------------------
    def obj(
        self, value: Any, path: str, allowed: Collection[str] | None = None
    ) -> dict[str, Any] | None:
        """The value as an object; with ``allowed``, every other key is reported."""
        if not isinstance(value, dict):
            self.problem(path, f"must be an object, not {type_name(value)}")
            return None
        if isinstance(value, DuplicateKeyObject):
            for key in value.duplicates:
                self.problem(key_path(path, key), "this key appears more than once")
        if allowed is not None:
            self.unknown_keys(value, path, allowed)
        return value

    def unknown_keys(self, obj: dict[str, Any], path: str, allowed: Collection[str]) -> None:
        """Report every key of ``obj`` that is not in ``allowed``."""
        unknown = [key for key in obj if key not in allowed]
        if unknown:
            message = f"unknown field (known: {', '.join(allowed)})"
            listed = max(0, MAX_PROBLEMS - len(self.problems))
            for key in unknown[:listed]:
                self.problem(key_path(path, key), message)
            self.count += max(0, len(unknown) - listed)  # counted, not listed

    def array(self, value: Any, path: str, min_items: int = 0) -> list[Any] | None:
        if not isinstance(value, list):
            self.problem(path, f"must be a list, not {type_name(value)}")
            return None
        if len(value) < min_items:
            self.problem(path, f"must have at least {min_items} item{'s' * (min_items != 1)}")
        return value

    def get(self, obj: dict[str, Any], key: str, path: str, required: bool) -> Any:
        """The raw value of ``key``; ``_MISSING`` when absent (a problem if required)."""
        if key in obj:
            return obj[key]
        if required:
            self.problem(key_path(path, key), "missing required field")
        return _MISSING

    # -- scalars -----------------------------------------------------------------------
    def number(
        self,
        value: Any,
        path: str,
        *,
        positive: bool = False,
        minimum: float | None = None,
        limit: float = MAX_LENGTH,
    ) -> float | None:
        """A finite number (never a bool) with an optional lower bound."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(path, f"must be a number, not {type_name(value)}")
            return None
        try:
            v = float(value)
        except OverflowError:
            v = math.inf
        if not math.isfinite(v):
            self.problem(path, f"must be a finite number, not {shown(value)}")
            return None
        if positive and v <= 0:
            self.problem(path, "must be > 0")
            return None
        if minimum is not None and v < minimum:
            self.problem(path, f"must be >= {_num(minimum)}")
            return None
        if abs(v) > limit:
            self.problem(path, f"is too large (at most {_num(limit)})")
            return None
        return v

    def integer(self, value: Any, path: str, *, minimum: int, maximum: int) -> int | None:
        v = self.number(value, path, minimum=minimum, limit=float(maximum))
        if v is None:
            return None
        if not v.is_integer():
            self.problem(path, "must be a whole number")
            return None
        return int(v)

    def string(self, value: Any, path: str, *, non_empty: bool = False) -> str | None:
        if not isinstance(value, str):
            self.problem(path, f"must be a string, not {type_name(value)}")
            return None
        if non_empty and not value.strip():
            self.problem(path, "must not be empty")
            return None
        return value

    def boolean(self, value: Any, path: str) -> bool | None:
        if not isinstance(value, bool):
            self.problem(path, f"must be true or false, not {type_name(value)}")
            return None
        return value

    def choice(self, value: Any, path: str, choices: Sequence[str]) -> str | None:
        if not isinstance(value, str) or value not in choices:
            got = shown(value) if isinstance(value, str) else type_name(value)
            self.problem(path, f"must be one of {', '.join(choices)}, not {got}")
            return None
        return value

    def color(self, value: Any, path: str) -> str | None:
        text = self.string(value, path)
        if text is not None and not _COLOR.match(text):
            self.problem(path, f'must be a colour such as "#c0392b", not {shown(text)}')
            return None
        return text

    # -- optional fields with defaults ------------------------------------------------
    def opt_number(
        self, obj: dict[str, Any], key: str, path: str, default: float, **bounds: Any
    ) -> float | None:
        raw = self.get(obj, key, path, required=False)
        if raw is _MISSING:
            return default
        return self.number(raw, key_path(path, key), **bounds)

    def req_number(self, obj: dict[str, Any], key: str, path: str, **bounds: Any) -> float | None:
        raw = self.get(obj, key, path, required=True)
        if raw is _MISSING:
            return None
        return self.number(raw, key_path(path, key), **bounds)

    def opt_string(self, obj: dict[str, Any], key: str, path: str, default: str = "") -> str | None:
        raw = self.get(obj, key, path, required=False)
        if raw is _MISSING:
            return default
        return self.string(raw, key_path(path, key))

    def req_id(self, obj: dict[str, Any], key: str, path: str) -> str | None:
        raw = self.get(obj, key, path, required=True)
        if raw is _MISSING:
            return None
        return self.string(raw, key_path(path, key), non_empty=True)

    def point(self, value: Any, path: str) -> tuple[float, float] | None:
        """An ``[x, y]`` pair of finite numbers."""
        pair = self.array(value, path)
        if pair is None:
            return None
        if len(pair) != 2:
            self.problem(path, f"must be [x, y], not a list of {len(pair)}")
            return None
        x = self.number(pair[0], index_path(path, 0))
        y = self.number(pair[1], index_path(path, 1))
        return None if x is None or y is None else (x, y)


def is_missing(value: Any) -> bool:
    return value is _MISSING


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
