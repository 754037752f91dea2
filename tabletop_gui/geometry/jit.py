"""The compiled loops (``jit_kernels``), when numba is installed; otherwise None.

numba is optional: without it (or with ``TABLETOP_GUI_NO_JIT`` set, or ``ENABLED``
False) every bulk computation runs its numpy path, with the same answers. The kernels are
imported on the first computation of at least ``JIT_FROM`` pairs or lines (not when the
program starts, nor for the few pairs of a small board, which numpy answers as fast), then
used for every size; they are compiled once per machine (numba's cache beside the module).
"""

from __future__ import annotations

import os
from types import ModuleType

ENABLED = not os.environ.get("TABLETOP_GUI_NO_JIT")
JIT_FROM = 4_000  # pairs or lines of a computation that loads the kernels
_loaded: list[ModuleType | None] = []


def kernels(size: int = JIT_FROM) -> ModuleType | None:
    """The ``jit_kernels`` module for a computation of ``size`` pairs or lines, or None:
    numba missing, the kernels off, or not loaded yet and ``size`` under ``JIT_FROM``."""
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
