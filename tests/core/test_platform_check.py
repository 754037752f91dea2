"""Before Qt starts: arguments refused, an unsupported PySide6 named, a missing display
reported as such (exit status 2 and one line, never Qt's abort)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop_gui import platform_check
from tabletop_gui.platform_check import display_problem, installed_pyside, qt_problem

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("pyside", "python"), [
    ("6.8.0", (3, 11)), ("6.11.3", (3, 11)), ("6.11.3", (3, 13)), ("6.12.0", (3, 12)),
    ("6.13.1", (3, 14)),
])
def test_supported_combinations(pyside: str, python: tuple[int, int]) -> None:
    assert qt_problem(pyside, python) is None


def test_pyside_6_12_on_python_3_11_is_refused_with_the_reason() -> None:
    text = qt_problem("6.12.0", (3, 11))
    assert text is not None
    assert "PySide6 6.12.0 is not supported on Python 3.11" in text
    assert "PySide6-Essentials>=6.8,<6.12" in text


def test_missing_or_old_pyside_is_named() -> None:
    assert "not installed" in (qt_problem(None, (3, 11)) or "")
    assert "6.7.2 is too old" in (qt_problem("6.7.2", (3, 11)) or "")


def test_display_checks() -> None:
    linux = "linux"
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, linux) is None
    assert display_problem({}, "darwin") is None
    assert "DISPLAY is not set" in (display_problem({}, linux) or "")
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, linux) is None
    assert "WAYLAND_DISPLAY" in (display_problem({"QT_QPA_PLATFORM": "wayland"}, linux) or "")
    # a local display number nobody listens on
    dead = display_problem({"DISPLAY": ":7391"}, linux)
    assert dead is not None and "':7391' (DISPLAY) does not answer" in dead
    assert display_problem({"DISPLAY": "otherhost:0"}, linux) is None  # Qt will tell


def _run_without_display(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return subprocess.run([sys.executable, "-m", "tabletop_gui", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland check")
def test_unknown_ruleset_is_refused_before_qt_starts() -> None:
    done = _run_without_display("--ruleset", "nope")
    assert done.returncode == 2
    assert done.stderr.startswith("tabletop-gui: unknown ruleset 'nope' (--ruleset; known: ")
    assert "xcb" not in done.stderr and done.stdout == ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland check")
def test_no_display_is_reported_as_such() -> None:
    done = _run_without_display()
    assert done.returncode == 2
    assert done.stderr.startswith("tabletop-gui: no display: DISPLAY is not set")
    assert "xcb" not in done.stderr


def _installed_version() -> str:
    from importlib import metadata

    for dist in ("PySide6-Essentials", "PySide6"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    raise AssertionError("PySide6 is part of the install")


def test_the_installed_pyside_is_read_without_importing_it() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from tabletop_gui.platform_check import "
         "installed_pyside; print(installed_pyside(), 'PySide6' in sys.modules, "
         "'importlib.metadata' in sys.modules)"],
        capture_output=True, text=True, timeout=60, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [_installed_version(), "False", "False"]


def test_the_installed_pyside_from_the_metadata_or_missing(monkeypatch, tmp_path) -> None:
    """A package whose ``__init__.py`` does not say its version: the metadata does; no
    package at all: None."""
    import importlib.util

    quiet = tmp_path / "__init__.py"
    quiet.write_text("# no version here\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("PySide6", quiet)
    monkeypatch.setattr(platform_check.importlib.util, "find_spec", lambda name: spec)
    assert installed_pyside() == _installed_version()
    monkeypatch.setattr(platform_check.importlib.util, "find_spec", lambda name: None)
    assert installed_pyside() is None
