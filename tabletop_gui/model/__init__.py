"""Qt adapters without widgets: the open document, its undo commands, item models."""

from tabletop_gui.model.none_guard import protect_none

protect_none()
