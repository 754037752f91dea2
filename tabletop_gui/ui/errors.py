"""The one place where problems reach the user.

``ErrorReporter`` (``MainWindow.errors``) shows a problem in the status bar at once and
in a non-modal notice window (the game goes on while it is open); an unexpected
exception is shown the same way, its traceback behind the notice's "Show Details…"
button instead of on a terminal nobody reads. ``excepthook`` routes what no slot caught
there too (installed by ``run_app``).

Callers say what is wrong and where (the file, the model and weapon, the action). A
source that would repeat itself (a drag step re-finding the same problem) tells a
problem when it appears, not at every step; the notice itself never stacks the same
message twice.
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import ParamSpec, TypeVar

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QMainWindow, QMessageBox

from tabletop_gui.model.notices import Notice, exception_text, traceback_text
from tabletop_gui.rules.text import printable

STATUS_MS = 10_000  # how long a problem stays in the status bar
NOTICE_LINES = 6  # the latest problems listed in the open notice
P = ParamSpec("P")
R = TypeVar("R")


def write_error_text(exc: BaseException) -> str:
    """Why a file could not be written, in words a player understands."""
    if isinstance(exc, UnicodeEncodeError):
        bad = exc.object[exc.start:exc.end] if isinstance(exc.object, str) else ""
        return (f"the battlefield holds text that cannot be written as UTF-8 "
                f"({bad.encode('unicode_escape').decode('ascii')}: {exc.reason}); "
                "rename the model, weapon or id that holds it")
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return exception_text(exc)


class ErrorReporter(QObject):
    """Status bar message plus a non-modal notice for every problem of one window."""

    reported = Signal(str)  # every message, as shown (tests and the log listen)

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.box: QMessageBox | None = None  # the non-modal notice, made when first needed
        self.messages: list[str] = []  # every message reported, in order
        self._shown: list[tuple[str, str]] = []  # (message, detail) in the open notice

    def problem(self, message: str, detail: str = "", title: str = "Problem") -> None:
        """Tell the user ``message`` (what is wrong and where); ``detail`` behind the
        notice's details button. While the notice is open, later problems join it.
        Characters a file brought in that would not print (U+202E turning the text
        around, U+2028, controls) are shown as escapes."""
        message = "\n".join(printable(line) for line in message.split("\n"))
        self.messages.append(message)
        self.window.statusBar().showMessage(message, STATUS_MS)
        box = self.box
        if box is None:
            box = self.box = QMessageBox(QMessageBox.Icon.Warning, title, message,
                                         QMessageBox.StandardButton.Close, self.window)
            box.setWindowModality(Qt.WindowModality.NonModal)
        if not box.isVisible():
            self._shown = []
            box.setWindowTitle(title)
        if all(m != message for m, _ in self._shown):
            self._shown = [*self._shown, (message, detail)][-NOTICE_LINES:]
            box.setText("\n\n".join(m for m, _ in self._shown))
            box.setDetailedText("\n".join(d for _, d in self._shown if d))
        if self.window.isVisible():
            box.show()
            box.raise_()
        else:  # found while the window is being built: shown over it once it is up
            QTimer.singleShot(0, self._show_later)
        self.reported.emit(message)

    def _show_later(self) -> None:
        if self.box is not None and self._shown and not self.box.isVisible():
            self.box.show()
            self.box.raise_()

    def failure(self, where: str, exc: BaseException) -> None:
        """An exception nobody expected while ``where`` (an action, in words)."""
        self.problem(f"{where} failed: {exception_text(exc)}", traceback_text(exc),
                     title="Something went wrong")

    def tell(self, notice: Notice) -> None:
        self.problem(notice.message, notice.detail)

    def excepthook(self, kind: type[BaseException], exc: BaseException,
                   tb: TracebackType | None) -> None:
        """``sys.excepthook`` of the application: an exception no slot caught."""
        if exc.__traceback__ is None:
            exc = exc.with_traceback(tb)
        self.failure("An action", exc)

    def guarded(self, where: str, recover: Callable[[], None] | None = None
                ) -> Callable[[Callable[P, R]], Callable[P, R | None]]:
        """A slot wrapper: an exception becomes a ``failure`` message, then ``recover``
        puts the window back in a state that shows no stale result."""
        def wrap(slot: Callable[P, R]) -> Callable[P, R | None]:
            def run(*args: P.args, **kwargs: P.kwargs) -> R | None:
                try:
                    return slot(*args, **kwargs)
                except Exception as e:  # noqa: BLE001 - told to the user, with traceback
                    self.failure(where, e)
                    if recover is not None:
                        recover()
                    return None
            return run
        return wrap
