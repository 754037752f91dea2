"""Test set-up: Qt offscreen and pyqtgraph on PySide6, before anything imports Qt."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
os.environ.setdefault("QT_LOGGING_RULES", "*.debug=false;qt.qpa.*=false")

import sys  # noqa: E402

import pytest  # noqa: E402

_exit_status = [0]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _exit_status[0] = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """Leave without interpreter finalisation once Qt was loaded.

    PySide6 can abort while the garbage collector tears down Qt wrappers at interpreter
    exit ("bool_dealloc ... refcount error"), after every test has passed; the exit
    status must be the test run's, so the process ends here with it.
    """
    if "PySide6" in sys.modules:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_exit_status[0])
