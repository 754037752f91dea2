"""Test set-up: Qt offscreen and pyqtgraph on PySide6, before anything imports Qt."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
os.environ.setdefault("QT_LOGGING_RULES", "*.debug=false;qt.qpa.*=false")

# Property and fuzz tests draw the same examples on every run and every machine, so that
# a run's result does not depend on luck; TABLETOP_HYPOTHESIS=explore draws new ones (a
# longer campaign by hand). Whatever one finds is fixed and kept as an explicit case.
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("repeatable", derandomize=True, database=None)
_hypothesis_settings.register_profile("explore", derandomize=False)
_hypothesis_settings.load_profile(
    "explore" if os.environ.get("TABLETOP_HYPOTHESIS") == "explore" else "repeatable")


# -- An exception that escapes fails the test --------------------------------------------
# pytest-qt fails a test whose Qt slots or virtual methods raise, while it captures
# exceptions. What it does not see fails the test here: an exception reaching
# sys.excepthook outside its capture (``qt_no_exception_capture``), sys.unraisablehook or
# threading.excepthook, and any traceback written to the test's captured stderr (a slot
# that prints its own traceback, an excepthook that itself failed).
import sys  # noqa: E402
import threading  # noqa: E402

import pytest  # noqa: E402

TRACEBACK_MARKS = ("Traceback (most recent call last)", "Error in sys.excepthook",
                   "Exception ignored in")


class _EscapedErrors:
    """Records what reaches the interpreter's last-resort hooks during each test phase."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self._saved: tuple = ()

    def _note(self, where: str, exc: BaseException | None) -> None:
        self.seen.append(f"{where}: {type(exc).__name__}: {exc}")

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        before_exc, before_unraisable, before_thread = self._saved = (
            sys.excepthook, sys.unraisablehook, threading.excepthook)

        def excepthook(kind, value, tb) -> None:  # noqa: ANN001
            self._note("sys.excepthook", value)
            before_exc(kind, value, tb)

        def unraisablehook(info) -> None:  # noqa: ANN001
            self._note("sys.unraisablehook", info.exc_value)
            before_unraisable(info)

        def thread_excepthook(args) -> None:  # noqa: ANN001
            self._note("threading.excepthook", args.exc_value)
            before_thread(args)

        sys.excepthook, sys.unraisablehook = excepthook, unraisablehook
        threading.excepthook = thread_excepthook

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self._saved:
            sys.excepthook, sys.unraisablehook, threading.excepthook = self._saved

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo):  # noqa: ANN201
        report = yield
        problems, self.seen = self.seen, []
        stderr = "".join(text for title, text in report.sections
                         if title == f"Captured stderr {call.when}")
        if any(mark in stderr for mark in TRACEBACK_MARKS):
            problems.append("a traceback was written to stderr (see 'Captured stderr')")
        if problems and report.passed:
            report.outcome = "failed"
            report.longrepr = (f"an exception escaped during {call.when}:\n"
                               + "\n".join(problems))
        return report


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_EscapedErrors(), "escaped-errors")
