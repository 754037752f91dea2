"""The window's worker: one thread that runs the rules engine and the file reader, so the
event loop never waits for them (``model.jobs`` says what a job is).

Jobs run one at a time in the order submitted; their outcomes come back through a queued
signal and are handed to ``done`` on the thread that owns this object (the GUI thread).
One thread, not a pool: the engine's caches of one document revision (the battle, its
geometry and pair tables, which a drag updates in place) are then only ever touched by
one thread, and two cores gain nothing from two Python threads anyway.

``busy_changed`` says when work starts and when the last job is delivered (the status
bar's indicator); ``close()`` stops the thread: jobs not started are dropped and nothing
is delivered after it (the window calls it when it closes).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal

from tabletop_gui.model.jobs import Outcome, Ticket, run_job

T = TypeVar("T")
_STOP = object()


class EngineThread(QObject):
    """Runs jobs on one daemon thread; delivers each outcome on this object's thread."""

    synchronous = False
    busy_changed = Signal(bool)
    _delivered = Signal(object)  # (ticket, outcome or None when skipped, done)

    def __init__(self, parent: QObject | None = None, name: str = "tabletop-engine") -> None:
        super().__init__(parent)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._closed = False
        self._outstanding = 0
        self._delivered.connect(self._deliver)  # queued: emitted from the worker thread
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    @property
    def busy(self) -> bool:
        """Jobs submitted whose outcome has not been delivered (or dropped) yet."""
        return self._outstanding > 0

    def submit(self, work: Callable[[], T], done: Callable[[Outcome[T]], None]) -> Ticket:
        ticket = Ticket()
        if self._closed:
            ticket.cancel()
            return ticket
        self._outstanding += 1
        if self._outstanding == 1:
            self.busy_changed.emit(True)
        self._queue.put((ticket, work, done))
        return ticket

    def close(self) -> None:
        """Stop: nothing is run or delivered after this (a job running finishes first,
        on its own thread, and its outcome is dropped)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._queue.put(_STOP)
        if self._outstanding:
            self._outstanding = 0
            self.busy_changed.emit(False)

    # -- the worker thread ---------------------------------------------------------------
    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            ticket, work, done = item
            outcome = None if ticket.cancelled or self._closed else run_job(work)
            with self._lock:  # close() waits for an emit under way, then none follows
                if self._closed:
                    return
                self._delivered.emit((ticket, outcome, done))

    # -- the owner's thread --------------------------------------------------------------
    def _deliver(self, item: tuple[Ticket, Outcome[Any] | None, Callable[[Outcome[Any]],
                                                                        None]]) -> None:
        if self._closed:
            return
        ticket, outcome, done = item
        self._outstanding -= 1
        try:
            if outcome is not None and not ticket.cancelled:
                done(outcome)
        finally:
            if self._outstanding == 0:
                self.busy_changed.emit(False)
