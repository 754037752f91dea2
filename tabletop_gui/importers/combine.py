"""Several import files become one scenario (``tabletop-gui import``, File ▸ Import…).

Each file is recognised by its content: a zip is a ``.rosz``; XML is a BattleScribe
roster; JSON is a New Recruit export (``roster``), a Universal VTT map (``resolution``),
a Tabletop Simulator save (``ObjectStates``), fighter data (a list of fighters with
warbands) or base sizes (lists of ``base_size_x``). Every file is read before anything
is built, and every refusal of every file is reported together.

The result starts from ``into`` (an existing scenario) when given: its battlefield,
sides, models and terrain stay. A map sets the battlefield's size, walls and picture;
each roster adds one side with its models, placed in that side's deployment area; table
positions then move the models they name. The result is checked by the scenario loader
(the same checks as a file the program opens) before it is returned.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tabletop_gui.importers import ninth_age, tts, uvtt, warcry
from tabletop_gui.importers.fighter_data import (
    FighterLibrary,
    bases_from_json,
    fighters_from_json,
    is_base_sizes,
    is_fighter_data,
)
from tabletop_gui.importers.placement import occupied, place_side
from tabletop_gui.importers.roster import Roster, roster_from_json, roster_from_xml
from tabletop_gui.importers.sources import (
    ImportRefused,
    decode_json,
    located,
    parse_xml,
    read_file,
    read_zip_member,
    refuse,
)
from tabletop_gui.importers.values import Problems
from tabletop_gui.rules.registry import INFOS, RULESET_IDS
from tabletop_gui.scenario.entities import (
    Battlefield,
    Fighter,
    Grid,
    Model,
    Obstacle,
    Platform,
    Scenario,
    Side,
    Unit,
)
from tabletop_gui.scenario.load import FORMAT, ScenarioError, loads_scenario
from tabletop_gui.scenario.save import dumps_scenario

COLORS = ("#c0392b", "#2e86c1", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#b7950b",
          "#7f8c8d")
DEFAULT_FIELDS = {"fighters": (30.0, 22.0), "units": (72.0, 48.0)}
GRID_FIELD = Battlefield(18.0, 18.0, Grid("hex", 1.5))
DEFAULT_SIDES = (Side("red", "Red", "#c0392b"), Side("blue", "Blue", "#2e86c1"))


@dataclass
class _Inputs:
    rosters: list[Roster] = field(default_factory=list)
    maps: list[tuple[str, Any]] = field(default_factory=list)
    tables: list[tuple[str, Any]] = field(default_factory=list)
    library: FighterLibrary = field(default_factory=FighterLibrary)


@dataclass
class ImportResult:
    scenario: Scenario
    warnings: list[str]
    new_sides: list[Side]
    imported: dict[str, int]  # fighters, units, obstacles added; models positioned

    def summary_json(self) -> dict[str, Any]:
        """``{"sides", "fighters", "units", "obstacles", "warnings"}`` of the result."""
        s = self.scenario
        return {
            "sides": [{"id": side.id, "name": side.name,
                       "fighters": sum(1 for f in s.fighters if f.side == side.id),
                       "units": sum(1 for u in s.units if u.side == side.id)}
                      for side in s.sides],
            "fighters": len(s.fighters), "units": len(s.units),
            "obstacles": len(s.obstacles), "warnings": list(self.warnings),
        }


def recognise(path: str | Path, data: bytes, inputs: _Inputs) -> None:
    """Read one file into ``inputs`` by what it holds."""
    source = str(path)
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        name, member = read_zip_member(data, source, ".ros")
        inputs.rosters.append(roster_from_xml(parse_xml(member, f"{source}:{name}"),
                                              f"{source}:{name}"))
        return
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head == b"<":
        inputs.rosters.append(roster_from_xml(parse_xml(data, source), source))
        return
    if head not in (b"{", b"["):
        raise refuse(source, "not a file this command imports: expected a BattleScribe "
                             "roster (.ros, .rosz), a New Recruit export, a Universal VTT "
                             "map, a Tabletop Simulator save, fighter data or base sizes")
    document = decode_json(data, source)
    if isinstance(document, dict) and "roster" in document:
        inputs.rosters.append(roster_from_json(document, source))
    elif uvtt.is_uvtt(document):
        inputs.maps.append((source, document))
    elif tts.is_tts_save(document):
        inputs.tables.append((source, document))
    elif is_fighter_data(document):
        inputs.library.fighters += fighters_from_json(document, source)
    elif is_base_sizes(document):
        inputs.library.bases.update(bases_from_json(document, source))
    elif isinstance(document, dict) and document.get("format") == FORMAT:
        raise refuse(source, "this is a scenario file: give it as --into to import into it")
    else:
        raise refuse(source, "a JSON file of no kind this command imports (New Recruit "
                             "export, Universal VTT map, Tabletop Simulator save, fighter "
                             "data, base sizes)")


def game_of(roster: Roster) -> str | None:
    """``warcry`` or ``ninth-age`` from the game system's name, else from profile types."""
    gs = roster.game_system.lower()
    if "warcry" in gs:
        return "warcry"
    if re.search(r"(ninth|9th)\s*age", gs):
        return "ninth-age"
    types = {ninth_age.kind_of(p) for s in roster.selections()
             for t in [s, *s.descendants()] for p in t.profiles}
    if "defensive" in types:
        return "ninth-age"
    if {"model", "weapon"} <= types:
        return "warcry"
    return None


def import_files(paths: Sequence[str | Path], *, ruleset: str | None = None,
                 into: Scenario | None = None, library: FighterLibrary | None = None,
                 inches_per_cell: float = 1.0, into_source: str = "--into") -> ImportResult:
    """The scenario the files make (ImportRefused with every located problem)."""
    inputs = _Inputs()
    if library is not None:
        inputs.library = FighterLibrary(list(library.fighters), dict(library.bases))
    errors: list[str] = []
    for path in paths:
        try:
            recognise(path, read_file(path), inputs)
        except ImportRefused as e:
            errors.extend(e.lines)
    if errors:
        raise ImportRefused(errors)
    rid = _ruleset(inputs.rosters, ruleset, into, into_source)
    decl = INFOS[rid].declaration
    warnings: list[str] = []
    field_, walls = _battlefield(inputs, rid, into, inches_per_cell, warnings)
    sides = list(into.sides) if into is not None else []
    models: list[Model] = list(into.models) if into is not None else []
    obstacles = list(into.obstacles) if into is not None else []
    platforms = into.platforms if into is not None else ()
    scenario = Scenario(ruleset=rid, battlefield=field_, sides=tuple(sides or DEFAULT_SIDES),
                        name=into.name if into is not None else "")
    for name, polygon in walls:
        oid = _new_id(obstacles, models, "w")
        obstacles.append(Obstacle(oid, polygon, uvtt.wall_height(rid), name))
    new_models: list[list[Model]] = []
    for roster in inputs.rosters:
        problems = Problems(roster.source)
        for force in roster.forces:
            if force.rules:
                problems.warn(force.place, "read but not used: rules "
                                           + ", ".join(dict.fromkeys(force.rules)))
        made: list[Fighter] | list[Unit]
        if decl.models == "units":
            made = ninth_age.units_from_roster(roster, problems)
        else:
            made = warcry.fighters_from_roster(
                roster, rid, inputs.library.base_for if inputs.library.bases else None,
                problems)
        errors += problems.errors
        warnings += problems.warnings
        new_models.append(list(made))
    if errors:
        raise ImportRefused(errors)
    new_sides: list[Side] = []
    # sides of ``into`` with no models on them are taken over by the rosters, in order
    free = [i for i, side in enumerate(sides) if not any(m.side == side.id for m in models)]
    total = len(sides) + max(0, len(inputs.rosters) - len(free))
    taken = occupied(models)
    terrain: list[Obstacle | Platform] = [*obstacles, *platforms]
    prefix = "f" if decl.models == "fighters" else "u"
    for roster, made_models in zip(inputs.rosters, new_models, strict=True):
        index = free.pop(0) if free else len(sides)
        side = _new_side(roster, [s for i, s in enumerate(sides) if i != index])
        if index < len(sides):
            sides[index] = side
        else:
            sides.append(side)
        new_sides.append(side)
        with_ids: list[Model] = []
        for m in made_models:
            mid = _new_id(obstacles, models + with_ids, prefix)
            with_ids.append(replace(m, id=mid, side=side.id))
        models += place_side(with_ids, index, total, field_, taken, terrain,
                             f"side {side.name!r}", roster.source)
    moved = 0
    for source, document in inputs.tables:
        objects, unnamed = tts.objects_from_json(document, source)
        models, told, n = tts.apply_positions(models, objects, unnamed, field_.width,
                                              field_.depth, source)
        warnings += told
        moved += n
    scenario = replace(
        scenario, sides=tuple(sides or DEFAULT_SIDES),
        fighters=tuple(m for m in models if isinstance(m, Fighter)),
        units=tuple(m for m in models if isinstance(m, Unit)),
        obstacles=tuple(obstacles), platforms=tuple(platforms),
        name=scenario.name or _title(inputs.rosters),
        ruleset_options=dict(into.ruleset_options) if into is not None
        and into.ruleset == rid else {})
    checked = _validated(scenario)
    before = into if into is not None else None
    imported = {
        "fighters": len(checked.fighters) - (len(before.fighters) if before else 0),
        "units": len(checked.units) - (len(before.units) if before else 0),
        "obstacles": len(walls), "positioned": moved}
    return ImportResult(checked, warnings, new_sides, imported)


def _title(rosters: list[Roster]) -> str:
    return " vs ".join(r.name for r in rosters if r.name)[:120]


def _ruleset(rosters: list[Roster], ruleset: str | None, into: Scenario | None,
             into_source: str) -> str:
    if ruleset is not None and ruleset not in RULESET_IDS:
        raise ImportRefused([f"--ruleset: unknown ruleset {ruleset!r} (known: "
                             f"{', '.join(RULESET_IDS)})"])
    if ruleset is not None and into is not None and into.ruleset != ruleset:
        raise ImportRefused([f"--ruleset {ruleset}: {into_source} plays {into.ruleset}; a "
                             "battlefield has one ruleset"])
    chosen = ruleset or (into.ruleset if into is not None else None)
    games: dict[str, str] = {}
    errors = []
    for r in rosters:
        game = game_of(r)
        if game is None:
            errors.append(located(r.source, "", f"game system {r.game_system or '(none)'!r}: "
                                                "this program imports Warcry and The Ninth "
                                                "Age rosters"))
        else:
            games.setdefault(game, r.source)
    if errors:
        raise ImportRefused(errors)
    if len(games) > 1:
        raise ImportRefused([f"{src}: a {g} roster" for g, src in games.items()]
                            + ["rosters of different games cannot share a battlefield"])
    if not games:
        return chosen or "warcry"
    game, source = next(iter(games.items()))
    allowed = warcry.WARCRY_FAMILY if game == "warcry" else ("ninth-age",)
    if chosen is None:
        return allowed[0]
    if chosen not in allowed:
        where = "--ruleset" if ruleset is not None else into_source
        raise ImportRefused([f"{source}: a {'Warcry' if game == 'warcry' else 'Ninth Age'} "
                             f"roster cannot be played with {chosen} ({where}); it becomes "
                             f"{'fighters of ' if game == 'warcry' else 'units of '}"
                             f"{', '.join(allowed)}"])
    return chosen


def _battlefield(inputs: _Inputs, rid: str, into: Scenario | None, inches_per_cell: float,
                 warnings: list[str]) -> tuple[Battlefield, list[Any]]:
    decl = INFOS[rid].declaration
    if len(inputs.maps) > 1:
        raise ImportRefused([f"{s}: one map per battlefield ({len(inputs.maps)} given)"
                             for s, _ in inputs.maps])
    if inputs.maps:
        source, document = inputs.maps[0]
        data = uvtt.map_from_json(document, source, rid, inches_per_cell)
        warnings += data.warnings
        grid = into.battlefield.grid if into is not None else None
        if grid is None and decl.needs_grid:
            grid = Grid("square", inches_per_cell)
        return Battlefield(data.width, data.depth, grid, data.background), data.walls
    if into is not None:
        return into.battlefield, []
    if decl.needs_grid:
        return GRID_FIELD, []
    return Battlefield(*DEFAULT_FIELDS[decl.models]), []


def _new_id(obstacles: Sequence[Obstacle], models: Sequence[Model], prefix: str) -> str:
    used = {e.id for e in obstacles} | {m.id for m in models}
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def _new_side(roster: Roster, sides: list[Side]) -> Side:
    base = re.sub(r"[^a-z0-9]+", "-", roster.name.lower()).strip("-")[:30] or "side"
    used = {s.id for s in sides}
    sid, n = base, 2
    while sid in used:
        sid, n = f"{base}-{n}", n + 1
    colors = {s.color for s in sides}
    color = next((c for c in COLORS if c not in colors), COLORS[len(sides) % len(COLORS)])
    name = roster.name or (roster.forces[0].catalogue if roster.forces else "") or sid
    return Side(sid, name, color)


def _validated(scenario: Scenario) -> Scenario:
    try:
        return loads_scenario(dumps_scenario(scenario), source="the imported battlefield")
    except ScenarioError as e:
        raise ImportRefused([f"the imported battlefield: {line}" for line in e.lines]
                            ) from None
