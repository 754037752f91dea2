"""The roster tree of BattleScribe (``.ros`` XML, ``.rosz`` zip) and New Recruit (JSON).

Both write the same tree: a roster holds forces, a force holds selections, a selection
holds profiles (typed: ``typeName``, with named characteristics), rules and more
selections; ``number`` says how many of it were taken. New Recruit writes the tree as
JSON with arrays (``{"roster": {"forces": [{"selections": [...]}]}}``, characteristic
values as ``"$text"``); BattleScribe as XML in the namespace ``ROSTER_NS``.

Each node keeps its place (``forces[0].selections[2] "Iron Legionary"``, plus the line in
XML) so that every message names where in the file it comes from.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from tabletop_gui.importers.sources import ImportRefused, XmlElement, located, refuse
from tabletop_gui.scenario.problems import shown

ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
TEXT_KEYS = ("$text", "#text", "value")
MAX_NAME = 200


@dataclass(frozen=True)
class Profile:
    name: str
    type_name: str
    characteristics: dict[str, str]
    place: str


@dataclass(frozen=True)
class Selection:
    name: str
    type: str
    number: int
    place: str
    profiles: tuple[Profile, ...] = ()
    selections: tuple[Selection, ...] = ()
    rules: tuple[str, ...] = ()
    custom_name: str = ""

    @property
    def shown_name(self) -> str:
        """The player's name for it: the custom name, else the entry's, cleaned."""
        return clean_name(self.custom_name) or clean_name(self.name)

    def descendants(self) -> list[Selection]:
        out: list[Selection] = []
        stack = list(reversed(self.selections))
        while stack:
            s = stack.pop()
            out.append(s)
            stack.extend(reversed(s.selections))
        return out


@dataclass(frozen=True)
class Force:
    name: str
    catalogue: str
    place: str
    selections: tuple[Selection, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Roster:
    source: str
    name: str
    game_system: str
    forces: tuple[Force, ...] = field(default_factory=tuple)

    def selections(self) -> list[Selection]:
        return [s for f in self.forces for s in f.selections]


# -- names -------------------------------------------------------------------------------

def is_invisible(ch: str) -> bool:
    """Characters a name may start with that show nothing readable: format characters
    (zero-width spaces, joiners), private-use glyphs of icon fonts, spaces, controls."""
    return unicodedata.category(ch) in ("Cf", "Co", "Cn", "Cc", "Zs", "Zl", "Zp")


def starts_invisible(name: str) -> bool:
    return bool(name) and is_invisible(name[0])


def clean_name(name: str) -> str:
    """The name without invisible characters, spaces collapsed."""
    kept = "".join(" " if is_invisible(ch) else ch for ch in name)
    return " ".join(kept.split())[:MAX_NAME]


# -- reading the tree ----------------------------------------------------------------------

class _Node:
    """One node of either tree: attributes, child lists, text, and its place."""

    def __init__(self, raw: XmlElement | dict[str, Any], path: str, source: str) -> None:
        self.raw = raw
        self.path = path
        self.source = source

    @property
    def place(self) -> str:
        name = self.attr("name")
        label = f"{self.path} {shown(clean_name(name))}" if isinstance(name, str) and name \
            else self.path
        if isinstance(self.raw, XmlElement):
            return f"{label} (line {self.raw.line})"
        return label

    def attr(self, key: str) -> Any:
        if isinstance(self.raw, XmlElement):
            return self.raw.attrib.get(key)
        return self.raw.get(key)

    def string(self, key: str) -> str:
        value = self.attr(key)
        if value is None:
            return ""
        if not isinstance(value, str):
            raise refuse(self.source, f"{key} must be text, not {shown(value)}", self.place)
        return value

    def number(self) -> int:
        value = self.attr("number")
        if value is None:
            return 1
        try:
            n = int(float(value)) if not isinstance(value, bool) else -1
        except (TypeError, ValueError, OverflowError):
            n = -1
        if n < 0 or n > 10_000:
            raise refuse(self.source, f"number must be a whole number from 0 to 10000, "
                         f"not {shown(value)}", self.place)
        return n

    def text(self) -> str:
        if isinstance(self.raw, XmlElement):
            return self.raw.text.strip()
        for key in TEXT_KEYS:
            value = self.raw.get(key)
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                return str(value).strip()
        return ""

    def items(self, container: str, item: str) -> list[_Node]:
        if isinstance(self.raw, XmlElement):
            boxes = [c for c in self.raw.children if c.local == container]
            found = [c for b in boxes for c in b.children if c.local == item]
            return [_Node(c, f"{self.path}.{container}[{i}]" if self.path else
                          f"{container}[{i}]", self.source) for i, c in enumerate(found)]
        value = self.raw.get(container, [])
        if value is None:
            return []
        if isinstance(value, dict) and isinstance(value.get(item), list | dict):
            value = value[item]  # a converted XML tree: {"selections": {"selection": [...]}}
            value = value if isinstance(value, list) else [value]
        prefix = f"{self.path}.{container}" if self.path else container
        if not isinstance(value, list):
            raise refuse(self.source, f"must be a list, not {shown(value)}", prefix)
        out = []
        for i, v in enumerate(value):
            if not isinstance(v, dict):
                raise refuse(self.source, f"must be an object, not {shown(v)}", f"{prefix}[{i}]")
            out.append(_Node(v, f"{prefix}[{i}]", self.source))
        return out


def _profile(node: _Node) -> Profile:
    chars: dict[str, str] = {}
    for c in node.items("characteristics", "characteristic"):
        name = c.string("name").strip()
        if name:
            chars.setdefault(name, c.text())
    return Profile(node.string("name"), node.string("typeName").strip(), chars, node.place)


def _selection(node: _Node) -> Selection:
    rules = tuple(clean_name(r.string("name")) for r in node.items("rules", "rule"))
    return Selection(
        name=node.string("name"), type=node.string("type").strip().lower(),
        number=node.number(), place=node.place,
        profiles=tuple(_profile(p) for p in node.items("profiles", "profile")),
        selections=tuple(_selection(s) for s in node.items("selections", "selection")),
        rules=tuple(r for r in rules if r), custom_name=node.string("customName"),
    )


def _forces(node: _Node) -> list[Force]:
    out: list[Force] = []
    for f in node.items("forces", "force"):
        rules = tuple(clean_name(r.string("name")) for r in f.items("rules", "rule"))
        out.append(Force(f.string("name"), f.string("catalogueName"), f.place,
                         tuple(_selection(s) for s in f.items("selections", "selection")),
                         tuple(r for r in rules if r)))
        out.extend(_forces(f))  # forces may hold forces (allied detachments)
    return out


def _roster(node: _Node, source: str) -> Roster:
    forces = _forces(node)
    return Roster(source, clean_name(node.string("name")),
                  clean_name(node.string("gameSystemName")), tuple(forces))


def roster_from_xml(root: XmlElement, source: str) -> Roster:
    """A BattleScribe roster; a wrong root element or namespace is refused."""
    if root.local != "roster" or root.namespace != ROSTER_NS:
        what = {"catalogue": "a BattleScribe catalogue", "gameSystem":
                "a BattleScribe game system"}.get(root.local)
        got = f"<{root.local}> in namespace {root.namespace or '(none)'}"
        hint = f" ({what}, not a roster)" if what else ""
        raise refuse(source, f"not a BattleScribe roster: the root element is {got}{hint}; "
                     f"a roster is <roster> in namespace {ROSTER_NS}", f"line {root.line}")
    return _roster(_Node(root, "", source), source)


def roster_from_json(document: Any, source: str) -> Roster:
    """A New Recruit export ``{"roster": {...}}``."""
    if not isinstance(document, dict) or not isinstance(document.get("roster"), dict):
        raise refuse(source, 'not a New Recruit export: expected {"roster": {...}}')
    try:
        return _roster(_Node(document["roster"], "roster", source), source)
    except RecursionError:  # pragma: no cover - depth is bounded by the decoder
        raise ImportRefused([located(source, "", "nested too deeply")]) from None
