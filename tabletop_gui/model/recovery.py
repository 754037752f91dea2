"""Autosave and recovery: after edits (debounced) the document is written to a recovery
file in the user's data folder; a clean exit removes it; if the program died, the next
start finds it and offers to restore it.

The recovery file is a normal scenario file; a small JSON note beside it remembers the
path of the file the document came from.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer

from tabletop_gui.model.document import Document
from tabletop_gui.scenario.entities import Scenario

RECOVERY_NAME = "recovery.battle.json"
NOTE_NAME = "recovery.note.json"
DELAY_MS = 1500


def default_folder() -> Path:
    return Path(QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppDataLocation))


@dataclass(frozen=True)
class Recovered:
    scenario: Scenario
    original_path: Path | None


class Recovery(QObject):
    """Writes the document to ``folder/recovery.battle.json`` a moment after each edit."""

    def __init__(self, document: Document, folder: Path | None = None,
                 delay_ms: int = DELAY_MS) -> None:
        super().__init__(document)
        self.document = document
        self.folder = folder if folder is not None else default_folder()
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(delay_ms)
        self.timer.timeout.connect(self.write_now)
        self.enabled = False

    @property
    def file(self) -> Path:
        return self.folder / RECOVERY_NAME

    @property
    def note(self) -> Path:
        return self.folder / NOTE_NAME

    def start(self) -> None:
        """Start watching the document's edits."""
        if not self.enabled:
            self.enabled = True
            self.document.changed.connect(self._on_changed)

    def _on_changed(self, *_: object) -> None:
        self.timer.start()

    def write_now(self) -> None:
        """Write the recovery file now (or remove it when there is nothing unsaved)."""
        from tabletop_gui.scenario.save import save_scenario

        self.timer.stop()
        if not self.document.modified:
            self.discard()
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        save_scenario(self.document.scenario, self.file)
        path = self.document.path
        self.note.write_text(json.dumps({"path": str(path) if path else None}),
                             encoding="utf-8")

    def discard(self) -> None:
        """Remove the recovery file (a clean exit, or nothing unsaved)."""
        self.timer.stop()
        for p in (self.file, self.note):
            p.unlink(missing_ok=True)

    def pending(self) -> bool:
        return self.file.exists()

    def load(self) -> Recovered:
        """The recovered document (ScenarioError when the file is damaged)."""
        from tabletop_gui.scenario.load import load_scenario

        scenario = load_scenario(self.file)
        original: Path | None = None
        try:
            raw = json.loads(self.note.read_text(encoding="utf-8")).get("path")
            original = Path(raw) if isinstance(raw, str) else None
        except (OSError, ValueError, AttributeError):
            original = None
        return Recovered(scenario, original)
