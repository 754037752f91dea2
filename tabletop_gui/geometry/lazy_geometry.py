"""``LazyGeometry``: the geometry of one board, built when first asked for, once.

Numpy and shapely load with the first geometry built, not with the module (the GUI's
first window imports this through the document, before any geometry is needed).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Generic, TypeVar

from tabletop_gui.geometry.board import Board

if TYPE_CHECKING:
    from tabletop_gui.geometry.board_geometry import BoardGeometry
    from tabletop_gui.geometry.terrain import TerrainSet

T = TypeVar("T")


class BuiltOnce(Generic[T]):
    """A value built on first use, once (``()`` returns it); threads that ask meanwhile
    wait for the one being built. Subclasses say how (``_build``) and what they no longer
    need to hold once it is built (``_forget``)."""

    def __init__(self) -> None:
        self._value: T | None = None
        self._lock = threading.Lock()

    def __call__(self) -> T:
        value = self._value
        if value is not None:
            return value
        with self._lock:  # a newer value waits for an older one, never the reverse
            if self._value is None:
                self._value = self._build()
                self._forget()
            return self._value

    @property
    def built(self) -> T | None:
        """The value if it was built already."""
        return self._value

    def _build(self) -> T:
        raise NotImplementedError

    def _forget(self) -> None:
        """Drop what only the build needed."""


class LazyGeometry(BuiltOnce["BoardGeometry"]):
    """The geometry of one board, built on first use, once (``()`` returns it); threads
    that ask meanwhile wait for the one being built (the GUI thread and the engine's
    worker share one document revision's).

    ``terrain``: the prepared terrain of equal terrain values (reused, not prepared
    again). ``base``: (body id, the lazy geometry of a board that differs from this one
    in that body only): this geometry is then derived from it (``BoardGeometry.moved``).
    Once built, neither is held any more.
    """

    def __init__(self, board: Board, terrain: TerrainSet | None = None,
                 base: tuple[str, LazyGeometry] | None = None) -> None:
        super().__init__()
        self.board = board
        self._terrain = terrain
        self._base = base

    def _build(self) -> BoardGeometry:
        from tabletop_gui.geometry.board_geometry import BoardGeometry  # lazy: numpy

        if self._base is not None:
            body_id, base = self._base
            return base().moved(self.board, body_id)
        return BoardGeometry(self.board, self._terrain)

    def _forget(self) -> None:
        self._base = None
        self._terrain = None

    def revised(self, board: Board) -> LazyGeometry:
        """The lazy geometry of another board, built afresh (the terrain reused when the
        terrain values are equal and this geometry knows it prepared)."""
        known = self._value.terrain if self._value is not None else self._terrain
        same = board.terrains is self.board.terrains or board.terrains == self.board.terrains
        return LazyGeometry(board, known if same else None)

    def moved(self, board: Board, body_id: str) -> LazyGeometry:
        """The lazy geometry of ``board``, which differs from this one's only in body
        ``body_id`` (a drag step): derived from this one's when it is built, or from the
        one this was to be derived from when that moved the same body (the steps of a drag
        nobody asked about are skipped); else built afresh. Derivations never chain more
        than one unbuilt geometry deep."""
        if self._value is None:
            base = self._base
            if base is not None and base[0] == body_id:
                return LazyGeometry(board, base=base)
            if base is not None:
                return self.revised(board)
        return LazyGeometry(board, base=(body_id, self))
