"""A guard against a reference-count fault of the Qt bindings on Python 3.11.

The PySide6 6.12 wheels (one abi3 build for every Python) return ``None`` from C++
functions without taking a reference, which is harmless from Python 3.12 on (``None``
is immortal there) but on 3.11 takes one reference from ``None`` per call of any
``void`` method (``QPainter.drawRect``, ``QGraphicsItem.setPos``...). After some
thousands of calls the interpreter aborts with "none_dealloc: deallocating None".

``protect_none()`` gives ``None`` a reserve of 2**40 references on Python < 3.12, which
makes it as good as immortal; pyproject.toml keeps PySide6 below 6.12, so this only
acts where a newer release was installed by hand. It is called when
``tabletop_gui.model`` is imported, before any Qt call of the program.
"""

from __future__ import annotations

import ctypes
import sys

RESERVE = 1 << 40
_done = False


def protect_none() -> None:
    global _done
    if _done or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    import PySide6

    if tuple(PySide6.__version_info__[:2]) < (6, 12):
        return  # the releases pyproject.toml allows do not have the fault
    ctypes.c_ssize_t.from_address(id(None)).value += RESERVE
    _done = True
