"""`python -m tabletop_gui` is `tabletop-gui`."""

from tabletop_gui.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
