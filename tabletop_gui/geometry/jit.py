"""The compiled loops (``jit_kernels``), when numba is installed; otherwise None.

numba is optional: without it (or with ``TABLETOP_GUI_NO_JIT`` set, or ``ENABLED``
False) every bulk computation runs its numpy path, with the same answers. The kernels are
loaded when a computation of at least ``JIT_FROM`` pairs first asks for them (never when
the program starts, nor for a small board: importing numba and loading the compiled loops
costs about 0.9 s of CPU once per process, which a board of a few dozen models never wins
back; a board of 200 fighters, 10,000 opposing pairs, wins about 40 ms on every whole
table and 1-3 ms on every drag step), then used for every size; they are compiled once per
machine (numba's cache beside the module; the first compile costs about 40 s of CPU).

The load runs in a background thread (``BACKGROUND``): the computation that started it,
and every one until the kernels are there, goes on in numpy, so that the first attacker
chosen on a big board is not kept waiting for the import. ``wait`` waits for a load under
way (the benchmark's untimed warm-up does).
"""

from __future__ import annotations

import os
import threading
from types import ModuleType

ENABLED = not os.environ.get("TABLETOP_GUI_NO_JIT")
JIT_FROM = 5_000  # pairs of a computation that loads the kernels (about 71 per side)
BACKGROUND = True  # load in a background thread (False: in the computation that asks)
_loaded: list[ModuleType | None] = []
_loading: list[threading.Thread] = []
_lock = threading.Lock()


def kernels(size: int = JIT_FROM) -> ModuleType | None:
    """The ``jit_kernels`` module for a computation of ``size`` pairs, or None: numba
    missing, the kernels off, or not loaded yet (``size`` of at least ``JIT_FROM`` starts
    the load)."""
    if not ENABLED:
        return None
    if not _loaded:
        if size < JIT_FROM:
            return None
        if BACKGROUND:
            _start_loading()
            return _loaded[0] if _loaded else None
        _load()
    return _loaded[0]


def loaded() -> ModuleType | None:
    """The kernels if they are loaded already (and on), else None: for the steps inside a
    computation (clipping lines), which never load them."""
    return kernels(0)


def wait(timeout: float | None = None) -> ModuleType | None:
    """Wait for a load under way, if any (at most ``timeout`` seconds); then ``loaded()``."""
    for thread in list(_loading):
        thread.join(timeout)
    return loaded()


def _load() -> None:
    with _lock:
        if _loaded:
            return
        try:
            from tabletop_gui.geometry import jit_kernels
        except ImportError:
            _loaded.append(None)
        else:
            _loaded.append(jit_kernels)


def _start_loading() -> None:
    with _lock:
        if _loaded or (_loading and _loading[-1].is_alive()):
            return
        thread = threading.Thread(target=_load, name="tabletop-gui-jit-load", daemon=True)
        _loading.append(thread)
        thread.start()
