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
