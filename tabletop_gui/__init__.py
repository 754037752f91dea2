"""tabletop_gui: a desktop assistant for tabletop wargames."""

__version__ = "0.1.0"
