"""Qt adapters without widgets: the open document, its undo commands, item models."""
