"""The profiles the Add tool places: the ruleset's library shipped in ``resources/`` and
the distinct profiles already on the battlefield, each a template fighter or unit."""

from __future__ import annotations

from dataclasses import dataclass, replace

from tabletop_gui.scenario.entities import Fighter, Model, Scenario

MAX_SHOWN = 10  # problems of a broken library listed in the message


def library_profiles(scenario: Scenario) -> list[Model]:
    """The ruleset's profile library as template models (empty when none is shipped).

    Each profile is checked and built by the scenario loader, as a model of a small
    battlefield with the document's grid. A library file that cannot be used raises
    ScenarioError naming the file and each problem's place in it."""
    from tabletop_gui.scenario.load import FORMAT, SCHEMA_VERSION, scenario_from_json
    from tabletop_gui.scenario.problems import Problem, ScenarioError
    from tabletop_gui.scenario.resources import load_profiles, profiles_path

    rid = scenario.ruleset
    path = profiles_path(rid)
    if not path.exists():
        return []
    raw = load_profiles(rid)
    units = any("models" in p for p in raw)
    grid = scenario.battlefield.grid
    placed_json = [{**p, "id": f"t{n}", "side": "s", "x": 1.0, "y": 1.0}
                   for n, p in enumerate(raw)]
    kind = "units" if units else "fighters"
    doc = {
        "format": FORMAT, "schema_version": SCHEMA_VERSION, "ruleset": rid,
        "battlefield": {"width": 1000, "depth": 1000,
                        "grid": None if grid is None else {"kind": grid.kind,
                                                           "size": grid.size}},
        "sides": [{"id": "s"}],
        kind: placed_json,
    }
    try:
        return list(scenario_from_json(doc, str(path)).models)
    except ScenarioError as e:  # placed on this battlefield: the places are the library's
        raise ScenarioError([Problem(_in_library(p.path, kind), p.message)
                             for p in e.problems], str(path)) from None


def _in_library(place: str, kind: str) -> str:
    return "profiles" + place[len(kind):] if place.startswith(f"{kind}[") else place


@dataclass(frozen=True)
class Profiles:
    """What the Add tool offers, and why the library is missing from it (``problem``)."""

    models: list[Model]
    problem: str | None = None


def profiles_for(scenario: Scenario) -> Profiles:
    """Library profiles, then those on the battlefield not already in it (by name), as
    they are (``fresh`` makes a template of the one picked: a battlefield of thousands
    of models is listed without copying each)."""
    from tabletop_gui.scenario.problems import ScenarioError

    problem = None
    try:
        library = library_profiles(scenario)
    except ScenarioError as e:
        library = []
        shown = e.lines[:MAX_SHOWN] + ([f"\u2026 and {len(e.lines) - MAX_SHOWN} more"]
                                       if len(e.lines) > MAX_SHOWN else [])
        problem = (f"The profile library {e.source} cannot be used, so the Add tool offers "
                   "only the profiles on the battlefield:\n" + "\n".join(shown))
    out: list[Model] = []
    names: set[str] = set()
    for m in [*library, *scenario.models]:
        if m.name not in names:
            names.add(m.name)
            out.append(m)
    return Profiles(out, problem)


def fresh(m: Model) -> Model:
    """A template: no position-bound or in-play state."""
    return replace(m, state={}, x=0.0, y=0.0)


def placed(scenario: Scenario, template: Model, side: str, x: float, y: float) -> tuple[
        Scenario, str]:
    """A copy of ``template`` for ``side`` at (x, y) with a new id."""
    prefix = "f" if isinstance(template, Fighter) else "u"
    new_id = scenario.new_id(prefix)
    model = replace(template, id=new_id, side=side, x=round(x, 6), y=round(y, 6), state={})
    return scenario.with_entity(model), new_id
