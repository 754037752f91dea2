"""The compiled loops (``jit_kernels``), when numba is installed; otherwise None.

numba is optional: without it (or with ``TABLETOP_GUI_NO_JIT`` set, or ``ENABLED``
False) every bulk computation runs its numpy path, with the same answers. The kernels are
imported by the first computation of at least ``JIT_FROM`` pairs (never when the program
starts, nor for a small board: importing numba and loading the compiled loops costs about
0.9 s of CPU once per process, which a board of a few dozen models never wins back; a
board of 200 fighters, 10,000 opposing pairs, wins about 45 ms on every whole table and
1-3 ms on every drag step), then used for every size; they are compiled once per machine
(numba's cache beside the module; the first compile costs about 20 s of CPU). The tables
are built on the engine's worker, so the window's first paint never waits for the import.
"""

from __future__ import annotations

import os
from types import ModuleType

ENABLED = not os.environ.get("TABLETOP_GUI_NO_JIT")
JIT_FROM = 5_000  # pairs of a computation that loads the kernels (about 71 per side)
_loaded: list[ModuleType | None] = []


def kernels(size: int = JIT_FROM) -> ModuleType | None:
    """The ``jit_kernels`` module for a computation of ``size`` pairs, or None: numba
    missing, the kernels off, or not loaded yet and ``size`` under ``JIT_FROM``."""
    if not ENABLED:
        return None
    if not _loaded:
        if size < JIT_FROM:
            return None
        try:
            from tabletop_gui.geometry import jit_kernels
        except ImportError:
            _loaded.append(None)
        else:
            _loaded.append(jit_kernels)
    return _loaded[0]


def loaded() -> ModuleType | None:
    """The kernels if a computation has loaded them already (and they are on), else None:
    for the steps inside a computation (clipping lines), which never load them."""
    return kernels(0)
