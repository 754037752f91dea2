"""The QApplication of the process: one, named, made on first use (by the window, the
ruling pictures of the command line, the benchmarks). Qt itself loads only then."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

ORGANIZATION = "tabletop-gui"
APPLICATION = "Tabletop GUI"


def ensure_application() -> QApplication:
    """The QApplication of this process, created on first use."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "tabletop-gui"])
    assert isinstance(app, QApplication)
    if not app.organizationName():
        app.setOrganizationName(ORGANIZATION)
        app.setApplicationName(APPLICATION)
    return app
