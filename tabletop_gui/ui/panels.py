"""The panels a main window starts with: Roster, Inspector and Library."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop_gui.scenario.entities import Model
from tabletop_gui.ui.canvas.tools.add import AddTool
from tabletop_gui.ui.library_panel import LibraryPanel
from tabletop_gui.ui.roster_panel import RosterPanel

if TYPE_CHECKING:
    from tabletop_gui.ui.window_host import WindowHost


def install_panels(window: WindowHost) -> None:
    doc = window.document
    window.roster_panel = RosterPanel(doc)
    window.add_panel("Roster", window.roster_panel)
    from tabletop_gui.ui.inspector import InspectorPanel

    window.inspector = InspectorPanel(doc)
    window.add_panel("Inspector", window.inspector)
    add_tool = window.toolbox.tool(AddTool)
    assert isinstance(add_tool, AddTool)

    def on_pick(profile: Model | None, side: str | None) -> None:
        add_tool.template, add_tool.side = profile, side
        if profile is not None:
            window.toolbox.activate(add_tool)

    window.library_panel = LibraryPanel(doc, on_pick, window.errors.problem)
    window.add_panel("Library", window.library_panel)
