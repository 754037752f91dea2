"""Short pauses of the cyclic garbage collector.

Python's collector stops every thread while it walks its oldest generation, and that
generation holds everything long-lived: a battlefield of two thousand fighters, its
canvas items and a thousand target reports are some 150,000 objects, a walk of a tenth
of a second or more, started whenever enough new objects have survived. Most of them live
until the next file is opened, and they are freed by reference counting anyway (an
attack makes no cycle: ``tests/core/test_no_reference_cycles.py``; a cycle frozen and
dropped later would stay until ``release``). So once the window has settled
(``settle``: no work under way), the young generations are collected and every object
alive is frozen out of the collector's reach (``gc.freeze``): later walks visit only
what was made since. ``release`` gives everything back to the collector (a window that
closes: its own cycles can then be collected).
"""

from __future__ import annotations

import gc


def settle() -> None:
    """The objects alive now are long-lived: collect the young generations (a few
    thousand objects at most), then freeze the survivors."""
    gc.collect(1)
    gc.freeze()


def release() -> None:
    """Let the collector walk every object again (the next collection frees the frozen
    cycles that have become garbage)."""
    gc.unfreeze()
