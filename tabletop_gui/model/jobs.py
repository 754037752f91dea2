"""Work handed to a runner: computed now on the caller's thread, or on a worker thread with
the answer delivered later on the caller's (the GUI's) thread.

A job is a function of values (frozen scenario, request, dice) that returns a value; it
touches nothing its caller holds. ``Runner.submit(work, done)`` runs ``work`` and hands
its ``Outcome`` (the value, or the exception it raised) to ``done`` on the thread that
submitted it. The returned ``Ticket`` cancels it: a job not started is never run, and the
outcome of a cancelled job is never delivered (a job already running finishes first; the
callers keep their jobs short so that a superseded one costs little).

``InlineRunner`` runs every job at once inside ``submit`` (the model parts alone, in
tests, and anywhere no event loop turns); ``model.engine_thread.EngineThread`` is the
window's worker.

A long job calls ``pause_point()`` between its steps: on the worker, it waits there while
the event loop handles a drag's frame (the two share one interpreter lock: a frame took
half again as long beside a target scan), and a job whose ticket was cancelled meanwhile
stops there (``Cancelled``: its answer would be dropped anyway). Elsewhere it does
nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What a job gave: its value, or the exception it raised (``error``)."""

    value: T | None = None
    error: Exception | None = None

    def get(self) -> T:
        """The value; the job's exception is raised again."""
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]


class Cancelled(Exception):  # noqa: N818 - a job stopped, not a failure
    """A job stopped at a pause point because its ticket was cancelled."""


_pauses = threading.local()  # ``hook``: the runner's pause of this thread, if any


def pause_point() -> float:
    """Between two steps of a long job: the runner of this thread may make it wait (the
    event loop's frame first) or stop it (``Cancelled``); without one, nothing. The
    seconds it waited (a job's own time budget does not count them)."""
    hook = getattr(_pauses, "hook", None)
    return hook() if hook is not None else 0.0


def set_pause_hook(hook: Callable[[], float] | None) -> None:
    """The pause (``pause_point``) of jobs run on the calling thread (a runner's own)."""
    _pauses.hook = hook


class Ticket:
    """A submitted job: ``cancel()`` it when its answer is no longer wanted."""

    def __init__(self) -> None:
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()


def run_job(work: Callable[[], T]) -> Outcome[T]:
    """Run ``work``; an exception becomes the outcome's ``error`` (a failure of the job is
    told where its answer is delivered, not on the worker thread)."""
    try:
        return Outcome(work(), None)
    except Exception as e:  # noqa: BLE001 - handed to the receiver with its traceback
        return Outcome(None, e)


class Runner(Protocol):
    """Runs jobs; ``synchronous`` when the answer is delivered before ``submit`` returns."""

    synchronous: bool

    def submit(self, work: Callable[[], T], done: Callable[[Outcome[T]], None]) -> Ticket:
        ...


class InlineRunner:
    """Runs each job at once on the caller's thread and delivers before returning."""

    synchronous = True

    def submit(self, work: Callable[[], T], done: Callable[[Outcome[T]], None]) -> Ticket:
        ticket = Ticket()
        done(run_job(work))
        return ticket
