"""The compiled loops (``jit_kernels``), when numba is installed; otherwise None.

numba is optional: without it (or with ``TABLETOP_GUI_NO_JIT`` set, or ``ENABLED``
False) every bulk computation runs its numpy path, with the same answers. Loaded once per
process (the import, then every loop's compiled code read from numba's cache:
``jit_kernels.warm``), the kernels are then used for every size; that costs about 1 s of
CPU (compiling them, once per machine and after any edit of ``jit_kernels``, into
numba's cache beside the module, about 30 s). They are never loaded when the program
starts, nor for a small board:

- a computation of at least ``JIT_FROM`` pairs loads them (and waits for them): such a
  computation wins the import back at once, even in a one-shot command;
- in a process that lives on (the window, the benchmark: ``load_early``), a computation of
  at least ``EARLY_FROM`` pairs (a board of about 150 fighters) starts loading them in a
  background thread and goes on in numpy, as does every computation until they are there:
  the first attacker chosen on such a board is not kept waiting for the import, and the
  later tables (about 40 ms faster each for 200 fighters) and drag steps (1-3 ms) win it
  back. ``wait`` waits for a load under way (the benchmark's untimed warm-up does).

The import holds the interpreter much of its second: a computation running meanwhile is
slowed about as much as if it waited. So the window starts the load (``preload``) as soon
as a big board has been painted, before anyone chooses an attacker.
"""

from __future__ import annotations

import os
import threading
from types import ModuleType

ENABLED = not os.environ.get("TABLETOP_GUI_NO_JIT")
JIT_FROM = 100_000  # pairs of a computation that loads the kernels (about 450 per side)
EARLY_FROM = 5_000  # pairs that start loading them in a process that lives on (71 a side)
_early: list[bool] = []  # ``load_early`` was called
_loaded: list[ModuleType | None] = []
_loading: list[threading.Thread] = []
_lock = threading.Lock()


def load_early() -> None:
    """This process lives on (the window, the benchmark): from now on a computation of
    ``EARLY_FROM`` pairs starts loading the kernels in the background."""
    if not _early:
        _early.append(True)


def preload(size: int) -> None:
    """Start loading the kernels in the background if a coming computation will have
    ``size`` pairs, at least ``EARLY_FROM`` (the window, once its board is painted)."""
    if ENABLED and not _loaded and size >= EARLY_FROM:
        _start_loading()


def kernels(size: int = JIT_FROM) -> ModuleType | None:
    """The ``jit_kernels`` module for a computation of ``size`` pairs, or None: numba
    missing, the kernels off, or not loaded (yet)."""
    if not ENABLED:
        return None
    if not _loaded:
        if size >= JIT_FROM:
            _load()  # after a background load under way, if any
        elif _early and size >= EARLY_FROM:
            _start_loading()
            return _loaded[0] if _loaded else None
        else:
            return None
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
            jit_kernels.warm()  # each loop's compiled code, read from numba's cache now
            _loaded.append(jit_kernels)


def _start_loading() -> None:
    with _lock:
        if _loaded or (_loading and _loading[-1].is_alive()):
            return
        thread = threading.Thread(target=_load, name="tabletop-gui-jit-load", daemon=True)
        _loading.append(thread)
        thread.start()
