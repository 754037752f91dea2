"""The profiles the Add tool places: the ruleset's library shipped in ``resources/`` and
the distinct profiles already on the battlefield, each a template fighter or unit."""

from __future__ import annotations

from dataclasses import replace

from tabletop_gui.scenario.entities import Fighter, Model, Scenario


def library_profiles(scenario: Scenario) -> list[Model]:
    """The ruleset's profile library as template models (empty when none is shipped).

    Each profile is checked and built by the scenario loader, as a model of a small
    battlefield with the document's grid."""
    from tabletop_gui.scenario.load import FORMAT, SCHEMA_VERSION, scenario_from_json
    from tabletop_gui.scenario.problems import ScenarioError
    from tabletop_gui.scenario.resources import load_profiles, profiles_path

    rid = scenario.ruleset
    try:
        if not profiles_path(rid).exists():
            return []
        raw = load_profiles(rid)
    except ScenarioError:
        return []
    units = any("models" in p for p in raw)
    grid = scenario.battlefield.grid
    placed_json = [{**p, "id": f"t{n}", "side": "s", "x": 1.0, "y": 1.0}
                   for n, p in enumerate(raw)]
    doc = {
        "format": FORMAT, "schema_version": SCHEMA_VERSION, "ruleset": rid,
        "battlefield": {"width": 1000, "depth": 1000,
                        "grid": None if grid is None else {"kind": grid.kind,
                                                           "size": grid.size}},
        "sides": [{"id": "s"}],
        "units" if units else "fighters": placed_json,
    }
    try:
        return list(scenario_from_json(doc, "profiles").models)
    except ScenarioError:
        return []


def profiles_for(scenario: Scenario) -> list[Model]:
    """Library profiles, then those on the battlefield not already in it (by name)."""
    out: list[Model] = []
    names: set[str] = set()
    for m in [*library_profiles(scenario), *scenario.models]:
        if m.name not in names:
            names.add(m.name)
            out.append(fresh(m))
    return out


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
