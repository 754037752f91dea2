"""What every sub-command shares: loading the scenario file or refusing it (exit 2)."""

from __future__ import annotations

from tabletop_gui.commands import InputRefused
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.load import load_scenario
from tabletop_gui.scenario.problems import ScenarioError


def load_or_refuse(path: str) -> Scenario:
    """The scenario in ``path``; every problem (unreadable file included) as a line
    ``PATH: place: message`` of an InputRefused."""
    try:
        return load_scenario(path)
    except ScenarioError as e:
        raise InputRefused([f"{path}: {line}" for line in e.lines] or [f"{path}: refused"]
                           ) from None
