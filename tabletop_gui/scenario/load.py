"""Loading scenario files (format version 1, ``docs/scenario-format.md``).

The file is untrusted: it is decoded as strict UTF-8 JSON with size and nesting limits,
nothing in it is ever evaluated, and every defect is collected as a Problem naming its
place. One ``ScenarioError`` carries them all; nothing is built from a refused file.

Choices where the format page is silent:
- unknown keys are refused everywhere (a misspelt ``elevaton`` would otherwise be lost
  silently), except ``$schema`` at the top level, which editors add and which is ignored;
- a wrong ``format`` or an unsupported ``schema_version`` stops the check there: the rest
  of such a file is not version 1 and would only give misleading problems;
- JSON objects that name a key twice are refused.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from tabletop_gui.rules.fields import Declaration, FieldError, type_name
from tabletop_gui.rules.registry import INFOS, RULESET_IDS
from tabletop_gui.scenario.entities import Fighter, Scenario, Side, Unit
from tabletop_gui.scenario.load_models import ModelReader
from tabletop_gui.scenario.load_terrain import ENTITY_LISTS, TerrainReader, battlefield
from tabletop_gui.scenario.problems import (
    MAX_PROBLEMS,
    Problem,
    ScenarioError,
    index_path,
    key_path,
    shown,
)
from tabletop_gui.scenario.reader import DuplicateKeyObject, Reader, is_missing

__all__ = ["FORMAT", "SCHEMA_VERSION", "Problem", "ScenarioError", "decode", "load_scenario",
           "loads_scenario", "scenario_from_json"]

FORMAT = "tabletop-gui/scenario"
SCHEMA_VERSION = 1
MAX_BYTES = 16 * 1024 * 1024
MAX_ENTITIES = 10_000
MAX_DEPTH = 32
TOP_FIELDS = ("$schema", "format", "schema_version", "name", "ruleset", "ruleset_options",
              "battlefield", "sides", "fighters", "units", "obstacles", "platforms")
SIDE_FIELDS = ("id", "name", "color")
_NON_FINITE = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


def load_scenario(path: str | os.PathLike[str], *, shipped: bool = False) -> Scenario:
    """Read and check a scenario file; raise ScenarioError listing every problem.
    ``shipped``: a file shipped with the program, whose polygons its tests check
    (``load_terrain``)."""
    source = str(path)
    return loads_scenario(read_file(path, source), source=source, shipped=shipped)


def read_file(path: str | os.PathLike[str], source: str) -> bytes:
    """The bytes of a regular file (at most ``MAX_BYTES + 1`` of them).

    Anything else is refused at once: a FIFO or a terminal would block the read until
    someone writes to it, a device such as /dev/zero never ends, a directory has no text.
    The file is opened without blocking and checked on the open descriptor, so it cannot
    be swapped for a FIFO between the check and the read.
    """

    def refuse(reason: str) -> ScenarioError:
        return ScenarioError([Problem("", f"cannot read the file: {reason}")], source)

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(Path(path), flags)
    except OSError as e:
        raise refuse(e.strerror or type(e).__name__) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise refuse(f"not a regular file ({_file_kind(mode)})")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(MAX_BYTES + 1)
    except OSError as e:
        raise refuse(e.strerror or type(e).__name__) from None
    finally:
        os.close(fd)


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a file")


def loads_scenario(data: str | bytes, source: str = "<string>", *,
                   shipped: bool = False) -> Scenario:
    """Check a scenario given as JSON text or bytes; raise ScenarioError on any problem
    (``shipped``: see ``load_scenario``)."""
    document, non_finite, escapes = _decode(data, source)
    return scenario_from_json(document, source, non_finite=non_finite, escapes=escapes,
                              shipped=shipped)


def decode(data: str | bytes, source: str = "<string>") -> Any:
    """Strict JSON decoding with the size and nesting limits of the format."""
    return _decode(data, source)[0]


def _decode(data: str | bytes, source: str) -> tuple[Any, str | None, bool]:
    """The document, the first NaN/Infinity literal it used, and whether its text has
    ``\\uD800``-``\\uDFFF`` escapes (the only way a decoded string gets a surrogate)."""

    def refuse(message: str) -> ScenarioError:
        return ScenarioError([Problem("", message)], source)

    if isinstance(data, str):
        try:
            size = len(data.encode("utf-8"))
        except UnicodeEncodeError:
            raise refuse("not valid Unicode text (unpaired surrogate)") from None
        text = data
    else:
        size = len(data)
    if size > MAX_BYTES:
        raise refuse(f"the file is larger than {MAX_BYTES // (1024 * 1024)} MiB")
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise refuse(f"not UTF-8 text: invalid byte at offset {e.start}") from None
    non_finite: list[str] = []

    def constant(name: str) -> float:
        non_finite.append(name)
        return _NON_FINITE[name]

    try:
        document = json.loads(text, parse_constant=constant, parse_int=_parse_int,
                              object_pairs_hook=_object)
    except json.JSONDecodeError as e:
        raise refuse(f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    except RecursionError:
        raise refuse(_too_deep(text)) from None
    except ValueError as e:  # pragma: no cover - json raises JSONDecodeError for bad text
        raise refuse(f"not valid JSON: {e}") from None
    if _depth_exceeds(document, MAX_DEPTH):
        raise refuse(_too_deep(text))
    escapes = _SURROGATE_ESCAPE.search(text) is not None
    return document, (non_finite[0] if non_finite else None), escapes


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep(text: str) -> str:
    """The message for a document nested too deeply, naming where (line and column of
    the first bracket past the limit; strings are skipped)."""
    depth = 0
    for m in _TOKENS.finditer(text):
        token = m.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                pos = m.start()
                line = text.count("\n", 0, pos) + 1
                column = pos - text.rfind("\n", 0, pos)
                return (f"nested too deeply at line {line}, column {column} "
                        f"(at most {MAX_DEPTH} levels)")
        elif token in "]}":
            depth -= 1
    return f"nested too deeply (at most {MAX_DEPTH} levels)"  # pragma: no cover


def scenario_from_json(
    document: Any, source: str = "<string>", *, non_finite: str | None = None,
    escapes: bool | None = None, shipped: bool = False,
) -> Scenario:
    """Check a decoded document and build its Scenario.

    ``non_finite`` names a NaN/Infinity literal the text used: every number is checked
    where it is read, and this catches one that no check reached. ``escapes`` says
    whether the text had surrogate escapes (False: no string needs the surrogate check;
    None: not known, every string is checked). ``shipped``: see ``load_scenario``.
    """
    r = Reader()

    def fail() -> ScenarioError:
        return ScenarioError(r.report(), source)

    if not isinstance(document, dict):
        r.problem("", f"the top level must be an object, not {type_name(document)}")
        raise fail()
    for place in _not_text(document) if escapes is not False else ():
        r.problem(place, "is not Unicode text: it holds an unpaired surrogate (a "
                         "\\uD800-\\uDFFF escape that is not half of a pair)")
    top = r.obj(document, "", TOP_FIELDS)
    assert top is not None
    fmt = r.get(top, "format", "", required=True)
    if not is_missing(fmt) and fmt != FORMAT:
        r.problem("format", f'must be "{FORMAT}", not {shown(fmt)}: not a scenario file')
        raise fail()
    _schema_version(r, top)
    if any(p.path == "schema_version" for p in r.problems):
        raise fail()
    if "$schema" in top:
        r.string(top["$schema"], "$schema")

    ruleset, decl = _ruleset(r, top)
    options = _ruleset_options(r, top, ruleset)
    name = r.opt_string(top, "name", "") or ""
    field = battlefield(r, top, decl)
    sides = _sides(r, top)
    if not _within_entity_limit(r, top):
        raise fail()

    models = ModelReader(r, ruleset, decl)
    side_ids = [s.id for s in sides]
    fighters: list[Fighter] = []
    units: list[Unit] = []
    for key, read, out in (("fighters", models.fighter, fighters), ("units", models.unit, units)):
        items = r.array(top.get(key, []), key)
        if not items:
            continue
        if decl is not None and decl.models != key:
            r.problem(key, f"{ruleset} places {decl.models}, not {key}")
            continue
        for i, item in enumerate(items):
            entity = read(item, index_path(key, i), side_ids)
            if entity is not None:
                out.append(entity)  # type: ignore[arg-type]
    terrain = TerrainReader(r, check_shapes=not shipped)
    obstacles = terrain.obstacles(top.get("obstacles", []))
    platforms = terrain.platforms(top.get("platforms", []))
    _unique_ids(r, top)
    if non_finite is not None and not r.problems:
        r.problem("", f"{non_finite} is not a number JSON allows")
    if r.problems or field is None:
        raise fail()
    return Scenario(ruleset=ruleset, battlefield=field, sides=tuple(sides), name=name,
                    ruleset_options=options, fighters=tuple(fighters), units=tuple(units),
                    obstacles=obstacles, platforms=platforms)


# -- top-level parts ------------------------------------------------------------------


def _schema_version(r: Reader, top: dict[str, Any]) -> None:
    raw = r.get(top, "schema_version", "", required=True)
    if is_missing(raw):
        return
    if isinstance(raw, bool) or not isinstance(raw, int):
        r.problem("schema_version", f"must be a whole number, not {shown(raw)}")
    elif raw > SCHEMA_VERSION:
        r.problem("schema_version", f"version {raw} is newer than this build reads "
                                    f"(newest: {SCHEMA_VERSION}); update tabletop-gui")
    elif raw < 1:
        r.problem("schema_version", f"unsupported version {raw} (this build reads 1 to "
                                    f"{SCHEMA_VERSION})")


def _ruleset(r: Reader, top: dict[str, Any]) -> tuple[str, Declaration | None]:
    raw = r.get(top, "ruleset", "", required=True)
    if is_missing(raw):
        return "", None
    if not isinstance(raw, str) or raw not in INFOS:
        got = shown(raw) if isinstance(raw, str) else type_name(raw)
        r.problem("ruleset", f"unknown ruleset {got} (known: {', '.join(RULESET_IDS)})")
        return "", None
    return raw, INFOS[raw].declaration


def _ruleset_options(r: Reader, top: dict[str, Any], ruleset: str) -> dict[str, Any]:
    obj = r.obj(top.get("ruleset_options", {}), "ruleset_options")
    if obj is None or ruleset not in INFOS:
        return {}
    specs = INFOS[ruleset].ruleset_options
    known = {s.key: s for s in specs}
    good: dict[str, Any] = {}
    for key, value in obj.items():
        spec = known.get(key)
        p = key_path("ruleset_options", key)
        if spec is None:
            names = ", ".join(known) or "none"
            r.problem(p, f"not an option of {ruleset} (known: {names})")
            continue
        try:
            good[key] = spec.check(value)
        except (FieldError, OverflowError) as e:
            r.problem(p, str(e) if isinstance(e, FieldError) else "is too large")
    return {s.key: good[s.key] for s in specs if s.key in good}


def _sides(r: Reader, top: dict[str, Any]) -> list[Side]:
    raw = r.get(top, "sides", "", required=True)
    if is_missing(raw):
        return []
    items = r.array(raw, "sides", min_items=1) or []
    sides: list[Side] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        p = index_path("sides", i)
        obj = r.obj(item, p, SIDE_FIELDS)
        if obj is None:
            continue
        side_id = r.req_id(obj, "id", p)
        name = r.opt_string(obj, "name", p)
        color = r.color(obj["color"], key_path(p, "color")) if "color" in obj else "#808080"
        if side_id is not None and side_id in seen:
            r.problem(key_path(p, "id"), f"duplicate side id {shown(side_id)}")
        elif side_id is not None:
            # kept even when its name or colour is refused, so models naming it are not
            # reported a second time as naming an unknown side
            seen.add(side_id)
            sides.append(Side(side_id, name or "", color or "#808080"))
    return sides


def _within_entity_limit(r: Reader, top: dict[str, Any]) -> bool:
    count = sum(len(top[k]) for k in ENTITY_LISTS if isinstance(top.get(k), list))
    if count > MAX_ENTITIES:
        r.problem("", f"too many entities: {count} fighters, units, obstacles and platforms "
                      f"(at most {MAX_ENTITIES})")
        return False
    return True


def _unique_ids(r: Reader, top: dict[str, Any]) -> None:
    """Ids are unique across fighters, units, obstacles and platforms."""
    first: dict[str, str] = {}
    for key in ENTITY_LISTS:
        items = top.get(key)
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                continue
            p = index_path(key, i)
            ident = item["id"]
            if ident in first:
                r.problem(key_path(p, "id"), f"duplicate id {shown(ident)} (also {first[ident]})")
            else:
                first[ident] = p


# -- decoding helpers -------------------------------------------------------------------


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    dups = [k for k, _ in pairs if k in seen or seen.add(k)]  # type: ignore[func-returns-value]
    flagged = DuplicateKeyObject(obj)
    flagged.duplicates = tuple(dict.fromkeys(dups))
    return flagged


def _parse_int(text: str) -> int | float:
    # Huge integers become floats (inf beyond 1e308) so that size checks catch them
    # instead of int-to-float overflows or Python's integer digit limit.
    return int(text) if len(text) <= 18 else float(text)


def _not_text(document: Any) -> list[str]:
    """The places of strings (values or keys) holding an unpaired surrogate, which JSON's
    ``\\ud800`` escapes allow but no UTF-8 output can write: refused at load, so that no
    output path (the terminal, a saved file, a window) ever meets one."""
    try:  # the common case, at the speed of the encoder: nothing to find
        json.dumps(document, ensure_ascii=False).encode("utf-8")
        return []
    except UnicodeEncodeError:
        pass
    except (TypeError, ValueError, RecursionError):  # not plain JSON data: walk it
        pass
    places: list[str] = []
    stack: list[tuple[Any, str]] = [(document, "")]
    while stack and len(places) < MAX_PROBLEMS:
        value, path = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                places.append(path)
        elif isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                p = key_path(path, key) if isinstance(key, str) else f"{path}[{key!r}]"
                if isinstance(key, str) and _SURROGATE.search(key):
                    places.append(p)
                stack.append((item, p))
        elif isinstance(value, list):
            stack.extend((item, index_path(path, i)) for i, item in reversed(
                list(enumerate(value))))
    return places


_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _depth_exceeds(document: Any, limit: int) -> bool:
    """Whether some container lies deeper than ``limit`` (the top level is depth 1);
    level by level, so a wide document is walked at list-comprehension speed."""
    level = [document] if isinstance(document, dict | list) else []
    for _ in range(limit):
        level = [v for c in level for v in (c.values() if isinstance(c, dict) else c)
                 if isinstance(v, dict | list)]
        if not level:
            return False
    return True
