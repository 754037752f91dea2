"""An event-loop watchdog for GUI tests (the ``watchdog`` fixture, tests/gui/conftest.py).

A ``QTimer`` ticks every ``TICK_MS`` on the event loop; each tick records the gap since
the one before: how long it was by the wall clock, and how much CPU time the event-loop
thread itself spent in it (``time.thread_time``: the work our slots, timers and paints
did before the loop came back). A gap is what a user waits for the window: a click or a
key press is handled only when the loop comes back.

The two numbers answer different questions. The CPU time is the event loop's own work,
whatever else the machine runs; the wall clock adds the time the thread waited: for the
CPU (other programs on a loaded machine), and for the interpreter lock (our worker
thread, or the garbage collector in it).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, QTimer

TICK_MS = 10


@dataclass(frozen=True)
class Gap:
    """One gap between two ticks, during ``phase``."""

    wall_ms: float
    busy_ms: float  # CPU time the event-loop thread spent in the gap
    phase: str

    def __str__(self) -> str:
        return f"{self.phase}: {self.wall_ms:.0f} ms ({self.busy_ms:.0f} ms of own work)"


class EventLoopWatchdog(QObject):
    """Records every gap between ticks while ``watching``."""

    def __init__(self) -> None:
        super().__init__()
        self.gaps: list[Gap] = []
        self._phase = ""
        self._last = (0.0, 0.0)
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    @contextmanager
    def watching(self, phase: str) -> Iterator[None]:
        """Record the gaps of what runs inside the block (and of the loop turns its
        waits spin) under ``phase``."""
        self._phase = phase
        self._last = (time.perf_counter(), time.thread_time())
        self._timer.start()
        try:
            yield
        finally:
            self._tick()
            self._timer.stop()

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        wall, busy = now - self._last[0], cpu - self._last[1]
        self._last = (now, cpu)
        self.gaps.append(Gap(1000.0 * wall, 1000.0 * busy, self._phase))

    def longest(self, phase: str | None = None) -> Gap:
        """The longest gap by the wall clock (of ``phase``, or of all)."""
        return max(self._of(phase), key=lambda g: g.wall_ms)

    def busiest(self, phase: str | None = None) -> Gap:
        """The gap in which the event loop did the most work of its own."""
        return max(self._of(phase), key=lambda g: g.busy_ms)

    def _of(self, phase: str | None) -> list[Gap]:
        gaps = [g for g in self.gaps if phase is None or g.phase == phase]
        return gaps or [Gap(0.0, 0.0, phase or "")]

    def summary(self) -> str:
        phases = dict.fromkeys(g.phase for g in self.gaps)
        return "; ".join(f"{p}: longest {self.longest(p).wall_ms:.0f} ms, most work "
                         f"{self.busiest(p).busy_ms:.0f} ms" for p in phases)
