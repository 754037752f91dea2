"""Fresh scenarios for File > New: a ruleset's demo, or an empty battlefield."""

from __future__ import annotations

from tabletop_gui.rules.registry import info
from tabletop_gui.scenario.entities import Battlefield, Grid, Scenario, Side

DEFAULT_SIDES = (Side("red", "Red", "#c0392b"), Side("blue", "Blue", "#2e86c1"))


def empty_scenario(ruleset_id: str) -> Scenario:
    """An empty battlefield of a usual size for the ruleset, with two sides."""
    decl = info(ruleset_id).declaration
    if decl.needs_grid:
        bf = Battlefield(18.0, 18.0, Grid("hex", 1.5))
    elif decl.models == "units":
        bf = Battlefield(72.0, 48.0)
    else:
        bf = Battlefield(30.0, 22.0)
    return Scenario(ruleset=ruleset_id, battlefield=bf, sides=DEFAULT_SIDES, name="Untitled")


def demo_available() -> bool:
    try:
        import tabletop_gui.scenario.resources  # noqa: F401  (shipped?)
    except ImportError:
        return False
    return True


def demo_scenario(ruleset_id: str) -> Scenario:
    """The ruleset's demo battlefield shipped in ``resources/demos``."""
    from tabletop_gui.scenario.resources import load_demo  # lazy: see demo_available

    return load_demo(ruleset_id)


def start_scenario(ruleset_id: str) -> Scenario:
    """What the window opens without a file: the demo when shipped, else an empty field."""
    return demo_scenario(ruleset_id) if demo_available() else empty_scenario(ruleset_id)
