"""What the scenario loader reports: every problem of a file, each naming its place.

A place is written the way a reader finds it in the file: ``fighters[2].base.diameter_mm``;
keys that are not plain names are quoted (``fighters[0].state["odd key"]``). Problems of the
file as a whole (unreadable, not JSON, too large) have an empty place. A problem shows
the characters of the file that are not printable as escapes (``\u202e``), so that no
name from the file can turn a message around or split it; a report lists at most
``MAX_PROBLEMS`` problems and then how many more there are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from tabletop_gui.rules.text import printable

#: Problems kept for one file; past it a last line counts the rest (a file with a
#: million unknown keys is reported in 101 lines, not in a million).
MAX_PROBLEMS = 100
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MAX_KEY_SHOWN = 40


@dataclass(frozen=True)
class Problem:
    """One defect: where it is (``path``) and what is wrong (``message``)."""

    path: str
    message: str

    def __str__(self) -> str:
        text = f"{self.path}: {self.message}" if self.path else self.message
        return printable(text)


def more_problems(count: int) -> Problem:
    """The last line of a capped report: how many problems were not listed."""
    return Problem("", f"\u2026 and {count:,} more problem{'s' * (count != 1)}")


class ScenarioError(ValueError):
    """A scenario the loader refuses; ``problems`` lists every defect it found.

    ``str()`` gives one line per problem. ``source`` names the file (or ``"<string>"``).
    """

    def __init__(self, problems: Iterable[Problem], source: str = "<string>") -> None:
        self.problems: list[Problem] = list(problems)
        self.source = source
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


def key_path(parent: str, key: str) -> str:
    """The place of ``key`` inside the object at ``parent``."""
    if _PLAIN_KEY.match(key) and len(key) <= _MAX_KEY_SHOWN:
        return f"{parent}.{key}" if parent else key
    shown = key if len(key) <= _MAX_KEY_SHOWN else key[:_MAX_KEY_SHOWN] + "..."
    return f"{parent}[{json.dumps(shown)}]"


def index_path(parent: str, index: int) -> str:
    """The place of item ``index`` of the list at ``parent``."""
    return f"{parent}[{index}]"


def shown(value: object, limit: int = 40) -> str:
    """A short, safe rendering of a value from the file for a message."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = json.dumps(value, ensure_ascii=False, default=str, allow_nan=True)
    return text if len(text) <= limit else text[:limit] + "..."
