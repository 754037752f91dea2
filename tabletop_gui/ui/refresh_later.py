"""Panels that follow an ``AttackState`` refresh at once on a user's choice, but only once
per event-loop turn during a drag: live previews (``AttackState.live``) arrive with every
mouse move, and a single-shot zero timer coalesces them into one refresh."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from tabletop_gui.model.attack_state import AttackState


class RefreshLater(QObject):
    """Subscribes ``refresh`` to ``state``: immediate, or coalesced when the change is live."""

    def __init__(self, state: AttackState, refresh: Callable[[], None],
                 parent: QObject, live: Callable[[], None] | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.refresh = refresh
        self.live = live if live is not None else refresh  # the refresh after live changes
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(0)
        self.timer.timeout.connect(lambda: self.live())
        state.subscribe(self.changed)

    def changed(self) -> None:
        if self.state.live:
            self.timer.start()
            return
        self.timer.stop()
        self.refresh()
