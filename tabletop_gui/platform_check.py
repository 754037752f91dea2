"""What the window needs before Qt starts: a supported PySide6 for this Python, and a
display to open it on. Each check returns a sentence for the user, or None when all is
well; ``tabletop-gui`` prints it and exits with status 2 instead of letting Qt abort.

Supported: PySide6 6.8 up to (not including) 6.12, the range pyproject.toml installs.
PySide6 6.12.0 loses a reference to ``None`` and ``True`` on every call of a ``void`` Qt
method under Python 3.11, and the interpreter aborts after some thousands of Qt calls
("deallocating None"); from Python 3.12 on both objects are immortal and the fault is
harmless, so 6.12 and newer are refused only on older Pythons.
"""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import sys
from collections.abc import Mapping
from pathlib import Path

OLDEST = (6, 8)
FAULTY_FROM = (6, 12)  # on Python < 3.12 (see above)
PIN = "PySide6-Essentials>=6.8,<6.12"


def _version(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split(".")[:3]:
        digits = "".join(ch for ch in piece if ch.isascii() and ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


def installed_pyside() -> str | None:
    """The installed PySide6 version, None when it is missing; read from the package's
    ``__init__.py`` without importing it (importing it installs PySide6's import hook,
    which then reads the source of every module imported after it; ``importlib.metadata``
    alone takes a tenth of a second), else from the installed packages' metadata."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None:
        return None
    try:
        text = Path(spec.origin or "").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    found = re.search(r'^__version__ = "([^"]+)"$', text, re.MULTILINE)
    if found is not None:
        return found.group(1)
    from importlib import metadata  # lazy: only when the package does not say it

    for dist in ("PySide6-Essentials", "PySide6"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return None


def qt_problem(pyside: str | None, python: tuple[int, int]) -> str | None:
    """Why this PySide6 cannot run the window on this Python, or None."""
    py = f"{python[0]}.{python[1]}"
    if pyside is None:
        return f"PySide6 is not installed; install it with: pip install '{PIN}'"
    v = _version(pyside)
    if v[:2] < OLDEST:
        return (f"PySide6 {pyside} is too old (6.8 or newer is needed); "
                f"install a supported one with: pip install '{PIN}'")
    if v[:2] >= FAULTY_FROM and python < (3, 12):
        return (f"PySide6 {pyside} is not supported on Python {py}: it aborts the interpreter "
                f"(\"deallocating None\") after a few thousand Qt calls; install a supported "
                f"one with: pip install '{PIN}', or use Python 3.12 or newer")
    return None


def _x_display_reachable(display: str) -> bool:
    """Whether a local X display (":0", ":99.0", "unix:1") accepts a connection; a display
    on another host (or one written otherwise) is taken as reachable: Qt will say."""
    host, _, rest = display.rpartition(":")
    number = rest.split(".")[0]
    if host not in ("", "unix") or not number.isascii() or not number.isdigit():
        return True
    for address in (f"\0/tmp/.X11-unix/X{number}", f"/tmp/.X11-unix/X{number}"):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            try:
                s.connect(address)
                return True
            except OSError:
                continue
    return False


def display_problem(env: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """Why no window can be opened here, or None (also None off Linux and for Qt's
    headless platforms)."""
    qpa = env.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0]
    if not platform.startswith("linux") or qpa in ("offscreen", "minimal", "vnc", "eglfs",
                                                   "linuxfb", "vkkhrdisplay"):
        return None
    wayland, x11 = env.get("WAYLAND_DISPLAY", ""), env.get("DISPLAY", "")
    if qpa.startswith("wayland"):
        return None if wayland else (
            "no display: QT_QPA_PLATFORM asks for Wayland but WAYLAND_DISPLAY is not set")
    if not x11:
        if wayland and qpa == "":
            return None  # Qt takes Wayland
        return ("no display: DISPLAY is not set, so the window has nowhere to open. Run it "
                "in a desktop session (or under Xvfb), or use a sub-command without a "
                "window (tabletop-gui --help)")
    if not _x_display_reachable(x11):
        return (f"no display: the X display {x11!r} (DISPLAY) does not answer. Is the X "
                f"server running?")
    return None


def startup_problem() -> str | None:
    """The first reason the window cannot start here, or None."""
    return (qt_problem(installed_pyside(), (sys.version_info[0], sys.version_info[1]))
            or display_problem(os.environ))
