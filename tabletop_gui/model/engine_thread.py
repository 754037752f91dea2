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

A drag's frame goes first: from ``frame_started()`` (a drag step arrived) until
``frame_done()`` (the drag ended, or the owner's event loop has nothing left to do: it is
about to wait for events) the worker starts no job, and a job waits at its next
``jobs.pause_point`` (at most ``FRAME_WAIT_S`` each time: a loop that never rests does not
stall it); a job whose ticket was cancelled meanwhile stops there. A drag step's target
scan then runs between the frames instead of stretching them (a frame of 200 models took
half again as long beside it), and the scan of a step the next step superseded stops
instead of finishing for nothing.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QAbstractEventDispatcher, QObject, QTimer, Signal

from tabletop_gui.model.jobs import Cancelled, Outcome, Ticket, run_job, set_pause_hook

T = TypeVar("T")
_STOP = object()
SWITCH_S = 0.0005
FRAME_WAIT_S = 0.03  # the longest a job waits at a pause point for a frame to be done


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
        self._frame_free = threading.Event()  # no drag frame being handled
        self._frame_free.set()
        self._running: Ticket | None = None  # the ticket of the job the worker runs
        self._pump = QTimer(self)  # one outcome per turn of the event loop
        self._pump.setSingleShot(True)
        self._pump.setInterval(0)
        self._pump.timeout.connect(self._deliver_next)
        self._delivered.connect(self._arrived)  # queued: emitted from the worker thread
        dispatcher = QAbstractEventDispatcher.instance(self.thread())
        if dispatcher is not None:  # the owner's loop rests: a drag's frame is done
            dispatcher.aboutToBlock.connect(self.frame_done)
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

    def frame_started(self) -> None:
        """The event loop handles a drag's frame: jobs wait (``frame_done``)."""
        self._frame_free.clear()

    def frame_done(self) -> None:
        """The frame is done (the event loop rests, or the drag ended): jobs go on."""
        self._frame_free.set()

    def close(self) -> None:
        """Stop: nothing is run or delivered after this (a job running finishes first,
        on its own thread, and its outcome is dropped)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._queue.put(_STOP)
        self._frame_free.set()
        self._inbox.clear()
        self._pump.stop()
        if self._outstanding:
            self._outstanding = 0
            self.busy_changed.emit(False)

    # -- the worker thread ---------------------------------------------------------------
    def _work(self) -> None:
        set_pause_hook(self._pause)
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            ticket, work, done = item
            if not ticket.cancelled:  # (cancelled ones go at once: a drag queues many)
                self._frame_free.wait(FRAME_WAIT_S)
            self._running = ticket
            outcome = None if ticket.cancelled or self._closed else run_job(work)
            self._running = None
            with self._lock:  # close() waits for an emit under way, then none follows
                if self._closed:
                    return
                try:
                    self._delivered.emit((ticket, outcome, done))
                except RuntimeError:  # deleted without close() (a script's exit): stop
                    self._closed = True
                    return

    def _pause(self) -> float:
        """A job's pause point (on the worker): wait while a frame is handled (the seconds
        waited); stop a job whose ticket was cancelled."""
        waited = 0.0
        if not self._frame_free.is_set():
            began = time.perf_counter()
            self._frame_free.wait(FRAME_WAIT_S)
            waited = time.perf_counter() - began
        ticket = self._running
        if ticket is not None and (ticket.cancelled or self._closed):
            raise Cancelled
        return waited

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
