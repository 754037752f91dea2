"""Core tests run without Qt: after each one, no Qt module may have been imported.

(The check is skipped once a GUI test has imported Qt in the same session, e.g. when
the GUI tests are collected first.)
"""

import sys
from collections.abc import Iterator

import pytest

QT_MODULES = ("PySide6", "shiboken6", "pyqtgraph")


@pytest.fixture(autouse=True)
def _core_stays_qt_free(request: pytest.FixtureRequest) -> Iterator[None]:
    already = any(m in sys.modules for m in QT_MODULES)
    yield
    if already:
        return
    loaded = [m for m in QT_MODULES if m in sys.modules]
    assert not loaded, f"{request.node.nodeid} imported {loaded}: tests/core must run without Qt"
