"""The window's worker: one thread that runs the rules engine and the file reader, so the
event loop never waits for them (``model.jobs`` says what a job is).

Jobs run one at a time in the order submitted; their outcomes come back through a queued
signal and are handed to ``done`` on the thread that owns this object (the GUI thread),
one per turn of its event loop: outcomes that arrive together do not add up into one
long turn.
One thread, not a pool: the engine's caches of one document revision (the battle, its
geometry and pair tables, which a drag updates in place) are then only ever touched by
one thread, and two cores gain nothing from two Python threads anyway.

``busy_changed`` says when work starts and when the last job is delivered (the status
bar's indicator); ``close()`` stops the thread: jobs not started are dropped and nothing
is delivered after it (the window calls it when it closes).

The worker shares the interpreter lock with the event loop: the interpreter's switch
interval is lowered to ``SWITCH_S`` (from 5 ms), so that the loop, which takes the lock
back at every slot and paint, waits at most that long for it (a drag step of 200 models
took a third longer with 5 ms).
"""

from __future__ import annotations

import queue
import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal

from tabletop_gui.model.jobs import Outcome, Ticket, run_job

T = TypeVar("T")
_STOP = object()
SWITCH_S = 0.0005


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
        self._inbox: deque[Any] = deque()
        self._pump = QTimer(self)  # one outcome per turn of the event loop
        self._pump.setSingleShot(True)
        self._pump.setInterval(0)
        self._pump.timeout.connect(self._deliver_next)
        self._delivered.connect(self._arrived)  # queued: emitted from the worker thread
        if sys.getswitchinterval() > SWITCH_S:
            sys.setswitchinterval(SWITCH_S)
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
        self._inbox.clear()
        self._pump.stop()
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
                try:
                    self._delivered.emit((ticket, outcome, done))
                except RuntimeError:  # deleted without close() (a script's exit): stop
                    self._closed = True
                    return

    # -- the owner's thread --------------------------------------------------------------
    def _arrived(self, item: Any) -> None:
        self._inbox.append(item)
        if not self._pump.isActive():
            self._pump.start()

    def _deliver_next(self) -> None:
        if self._inbox:
            item = self._inbox.popleft()
            if self._inbox:
                self._pump.start()
            self._deliver(item)

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
