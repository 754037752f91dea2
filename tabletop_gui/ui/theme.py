"""Light and dark: the window follows the system's colour scheme (Qt 6.5+
``QStyleHints.colorScheme``), or ``TABLETOP_GUI_THEME`` (``light``, ``dark``) when set; and
the high-contrast palette of the table view (``ui/table_view.py``)."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

THEME_ENV = "TABLETOP_GUI_THEME"
Role = QPalette.ColorRole
Group = QPalette.ColorGroup


def wanted_scheme() -> Qt.ColorScheme:
    """The scheme asked for: the environment variable, else the system's."""
    asked = os.environ.get(THEME_ENV, "").strip().lower()
    if asked == "dark":
        return Qt.ColorScheme.Dark
    if asked == "light":
        return Qt.ColorScheme.Light
    return QGuiApplication.styleHints().colorScheme()


def dark_palette() -> QPalette:
    p = QPalette()
    base, window, text = QColor("#1e1f22"), QColor("#2b2d30"), QColor("#e6e6e6")
    for role, colour in ((Role.Window, window), (Role.WindowText, text), (Role.Base, base),
                         (Role.AlternateBase, QColor("#313338")), (Role.ToolTipBase, window),
                         (Role.ToolTipText, text), (Role.Text, text), (Role.Button, window),
                         (Role.ButtonText, text), (Role.BrightText, QColor("#ff6b6b")),
                         (Role.Highlight, QColor("#3d7cc9")),
                         (Role.HighlightedText, QColor("#ffffff")),
                         (Role.Link, QColor("#6cb4ff")), (Role.PlaceholderText, QColor("#9a9a9a")),
                         (Role.Mid, QColor("#3c3f41")), (Role.Dark, QColor("#151517")),
                         (Role.Light, QColor("#45484c")), (Role.Midlight, QColor("#3a3c40")),
                         (Role.Shadow, QColor("#000000"))):
        p.setColor(role, colour)
    for role in (Role.WindowText, Role.Text, Role.ButtonText):
        p.setColor(Group.Disabled, role, QColor("#7a7a7a"))
    return p


def high_contrast_palette() -> QPalette:
    """Black on white with deep blue selections, every outline dark: the table view on a
    TV or projector (the style draws its frames from these, so they all stay visible)."""
    p = QPalette()
    black, white, blue = QColor("#000000"), QColor("#ffffff"), QColor("#0033cc")
    for role, colour in ((Role.Window, white), (Role.WindowText, black), (Role.Base, white),
                         (Role.AlternateBase, QColor("#f0f0f0")), (Role.Text, black),
                         (Role.Button, QColor("#f4f4f4")), (Role.ButtonText, black),
                         (Role.ToolTipBase, white), (Role.ToolTipText, black),
                         (Role.Highlight, blue), (Role.HighlightedText, white),
                         (Role.BrightText, QColor("#c00000")), (Role.Link, blue),
                         (Role.PlaceholderText, QColor("#404040")),
                         (Role.Mid, QColor("#606060")), (Role.Dark, QColor("#303030")),
                         (Role.Shadow, black), (Role.Light, white),
                         (Role.Midlight, QColor("#e0e0e0"))):
        p.setColor(role, colour)
    return p


def is_dark(palette: QPalette) -> bool:
    return palette.color(Role.Window).lightness() < 128


class ThemeFollower(QObject):
    """Keeps the application's palette on the wanted scheme: a dark palette for Dark, the
    style's own for Light, untouched when nothing is known (the platform decides). A
    child of the application: it lives as long as the application does."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.app = app
        self.applied: Qt.ColorScheme | None = None
        app.styleHints().colorSchemeChanged.connect(lambda _scheme: self.apply())
        self.apply()

    def apply(self) -> None:
        scheme = wanted_scheme()
        if scheme == Qt.ColorScheme.Dark:
            self.app.setPalette(dark_palette())
        elif scheme == Qt.ColorScheme.Light and self.applied == Qt.ColorScheme.Dark:
            self.app.setPalette(self.app.style().standardPalette())
        self.applied = scheme


def follow_system_theme() -> ThemeFollower | None:
    """Start following the system's scheme (once per application)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return None
    follower = app.findChild(ThemeFollower)
    return follower if isinstance(follower, ThemeFollower) else ThemeFollower(app)
