"""The profiles the Add tool places: the ruleset's library shipped in ``resources/`` and
the distinct profiles already on the battlefield, each a template fighter or unit."""

from __future__ import annotations

from dataclasses import dataclass, replace

from tabletop_gui.scenario import resources
from tabletop_gui.scenario.entities import Fighter, Model, Scenario
from tabletop_gui.scenario.problems import ScenarioError

MAX_SHOWN = 10  # problems of a broken library listed in the message


def library_profiles(scenario: Scenario) -> list[Model]:
    """The ruleset's profile library as template models (empty when none is shipped),
    each checked against the ruleset's declaration and built once, where it is read
    (``resources.library_models``). A library file that cannot be used raises
    ScenarioError naming the file and each problem's place in it."""
    if not resources.profiles_path(scenario.ruleset).exists():
        return []
    return resources.library_models(scenario.ruleset)


@dataclass(frozen=True)
class Profiles:
    """What the Add tool offers, and why the library is missing from it (``problem``)."""

    models: list[Model]
    problem: str | None = None


def profiles_for(scenario: Scenario) -> Profiles:
    """Library profiles, then those on the battlefield not already in it (by name), as
    they are (``fresh`` makes a template of the one picked: a battlefield of thousands
    of models is listed without copying each)."""
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
