"""Autosave and recovery: after edits (debounced) the document is written to a recovery
file in the user's data folder; a clean exit removes it; if the program died, the next
start finds it and offers to restore it.

The recovery file is a normal scenario file; a small JSON note beside it remembers the
path of the file the document came from and when it was autosaved, so that the offer
names what it would bring back (``describe``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal

from tabletop_gui.model.document import Document
from tabletop_gui.rules.registry import RULESET_IDS, info
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.load import load_scenario

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
    saved_at: datetime | None = None  # when the recovery file was written (local time)


def battlefield_words(scenario: Scenario) -> str:
    """\u201cAmbush at the ford\u201d (Warcry), or: an unnamed battlefield (The Ninth Age)."""
    ruleset = info(scenario.ruleset).name if scenario.ruleset in RULESET_IDS else scenario.ruleset
    name = f"\u201c{scenario.name}\u201d" if scenario.name else "an unnamed battlefield"
    return f"{name} ({ruleset})"


def describe(found: Recovered) -> str:
    """What a restore would bring back, in a player's words: the battlefield's name and
    ruleset, the file it came from, and when it was autosaved."""
    lines = [battlefield_words(found.scenario)]
    lines.append(f"from the file {found.original_path}" if found.original_path is not None
                 else "never saved to a file")
    if found.saved_at is not None:
        lines.append(f"autosaved {found.saved_at:%d %B %Y at %H:%M}")
    return "\n".join(lines)


class Recovery(QObject):
    """Writes the document to ``folder/recovery.battle.json`` a moment after each edit.

    An autosave that fails (disk full, no permission, text that cannot be written) emits
    ``failed`` with the exception: once, and again only after a later autosave worked."""

    failed = Signal(object)  # the exception of the first autosave that failed in a row

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
        self.failing = False  # the last autosave failed (already told)

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

    def write_now(self) -> bool:
        """Write the recovery file now (or remove it when there is nothing unsaved);
        False when that failed (``failed`` tells it, once in a row of failures)."""
        self.timer.stop()
        try:
            self._write()
        except Exception as e:  # noqa: BLE001 - a background save: told through ``failed``
            if not self.failing:
                self.failing = True
                self.failed.emit(e)
            return False
        self.failing = False
        return True

    def _write(self) -> None:
        if not self.document.modified:
            self.discard()
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        from tabletop_gui.scenario import save  # lazy: the first autosave, not the start

        save.save_scenario(self.document.scenario, self.file)
        path = self.document.path
        note = {"path": str(path) if path else None,
                "saved_at": datetime.now().isoformat(timespec="seconds")}
        self.note.write_text(json.dumps(note), encoding="utf-8")

    def discard(self) -> None:
        """Remove the recovery file (a clean exit, or nothing unsaved)."""
        self.timer.stop()
        for p in (self.file, self.note):
            p.unlink(missing_ok=True)

    def pending(self) -> bool:
        return self.file.exists()

    def load(self) -> Recovered:
        """The recovered document (ScenarioError when the file is damaged)."""
        scenario = load_scenario(self.file)
        original: Path | None = None
        saved_at: datetime | None = None
        try:
            note = json.loads(self.note.read_text(encoding="utf-8"))
            raw = note.get("path")
            original = Path(raw) if isinstance(raw, str) else None
            when = note.get("saved_at")
            saved_at = datetime.fromisoformat(when) if isinstance(when, str) else None
        except (OSError, ValueError, AttributeError):
            pass  # a note damaged or from an older version: the scenario alone
        if saved_at is None:
            try:
                saved_at = datetime.fromtimestamp(self.file.stat().st_mtime)
            except OSError:
                saved_at = None
        return Recovered(scenario, original, saved_at)
