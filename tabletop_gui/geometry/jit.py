"""The compiled loops (``jit_kernels``), when numba is installed; otherwise None.

numba is optional: without it (or with ``TABLETOP_GUI_NO_JIT`` set, or ``ENABLED``
False) every bulk computation runs its numpy path, with the same answers. The kernels are
imported on the first bulk computation (not when the program starts) and compiled once
per machine (numba's cache beside the module).
"""

from __future__ import annotations

import os
from types import ModuleType

ENABLED = not os.environ.get("TABLETOP_GUI_NO_JIT")
_loaded: list[ModuleType | None] = []


def kernels() -> ModuleType | None:
    """The ``jit_kernels`` module, or None when numba is missing or the kernels are off."""
    if not ENABLED:
        return None
    if not _loaded:
        try:
            from tabletop_gui.geometry import jit_kernels
        except ImportError:
            _loaded.append(None)
        else:
            _loaded.append(jit_kernels)
    return _loaded[0]
