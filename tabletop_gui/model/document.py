"""The open battlefield: one scenario, its undo stack, its selection, its change signal.

The document is the single source of truth. Views (canvas items, panels) read
``Document.scenario`` and subscribe to ``Document.changed``; they never write to the
scenario. Every change is an edit: a new immutable ``Scenario`` pushed on the undo stack
as one ``ScenarioEdit`` (a drag is one edit, pushed on release; repeated nudges merge
through ``merge_id``).

Each revision has its ``Snapshot`` (scenario, battle, geometry built on first use), derived
from the previous one; ``Document.snapshot`` is the one to read. A drag under way
publishes a preview (``preview``): a snapshot derived from the revision's with the
dragged entities as the drag shows them (position and facing), announced by
``preview_changed``; the edit pushed on release, or ``end_preview``, ends it. An edit
equal to the scenario the preview shows (a drag's release) takes that very scenario and
its snapshot: what was worked out on the preview (geometry, the target scan) goes on.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import shiboken6
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from tabletop_gui.rules.base import Battle
from tabletop_gui.scenario.entities import Entity, Scenario, other_objects
from tabletop_gui.scenario.snapshot import Snapshot


@dataclass(frozen=True)
class Change:
    """What one step changed: entity ids whose data differ; ``structural`` when entities
    were added or removed, or the battlefield, sides, ruleset or name changed."""

    ids: frozenset[str]
    structural: bool


def diff(old: Scenario, new: Scenario) -> Change:
    """The change from ``old`` to ``new`` (identity first, then equality, per entity)."""
    if old is new:
        return Change(frozenset(), False)
    few = _few_changed(old, new)
    if few is not None:
        return few
    old_by_id: dict[str, Entity] = {e.id: e for e in old.entities}
    new_by_id: dict[str, Entity] = {e.id: e for e in new.entities}
    ids = {i for i in old_by_id.keys() ^ new_by_id.keys()}
    for i, e in new_by_id.items():
        o = old_by_id.get(i)
        if o is not None and o is not e and o != e:
            ids.add(i)
    structural = old_by_id.keys() != new_by_id.keys() or _settings_differ(old, new)
    return Change(frozenset(ids), structural)


def _settings_differ(old: Scenario, new: Scenario) -> bool:
    """What is not an entity differs: battlefield, sides, ruleset, name or options."""
    return (old.battlefield != new.battlefield or old.sides != new.sides
            or old.ruleset != new.ruleset or old.name != new.name
            or old.ruleset_options != new.ruleset_options)


def _few_changed(old: Scenario, new: Scenario) -> Change | None:
    """``diff`` of two scenarios whose entities are the same objects but a few, each in
    its place with its id (a move, an edit of some models), found by identity in C
    rather than by two indexes of every entity; None when they differ otherwise, or
    when an id is shared (``diff`` then says which entity counts)."""
    mine, theirs = new.entities, old.entities
    if len(mine) != len(theirs) or not new.ids_unique or not old.ids_unique:
        return None
    ids = set()
    for i in other_objects(theirs, mine):
        a, b = theirs[i], mine[i]
        if a.id != b.id:
            return None
        if a != b:
            ids.add(b.id)
    return Change(frozenset(ids), _settings_differ(old, new))


class ScenarioEdit(QUndoCommand):
    """One undoable step: the scenario before and after."""

    def __init__(
        self, document: Document, text: str, old: Scenario, new: Scenario,
        merge_id: int | None = None,
    ) -> None:
        super().__init__(text)
        self._document = weakref.ref(document)
        self.old = old
        self.new = new
        self._merge_id = -1 if merge_id is None else merge_id
        self._ids = diff(old, new).ids

    def id(self) -> int:  # noqa: A003 - Qt's name
        return self._merge_id

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt override
        if not isinstance(other, ScenarioEdit) or other.id() != self.id() or self.id() < 0:
            return False
        if other.old != self.new or other._ids != self._ids:
            return False
        self.new = other.new
        if self.new == self.old:
            self.setObsolete(True)
        return True

    def redo(self) -> None:
        self._apply(self.new)

    def undo(self) -> None:
        self._apply(self.old)

    def _apply(self, scenario: Scenario) -> None:
        document = self._document()
        if document is not None:
            document._apply(scenario)


class Document(QObject):
    """The open scenario with its undo stack and selection."""

    changed = Signal(object)  # Change
    selection_changed = Signal()
    path_changed = Signal()
    replaced = Signal()  # another battlefield (New, Open, restore): start over, then changed
    preview_changed = Signal()  # ``snapshot`` is a drag's preview (or the preview ended)

    def __init__(
        self, scenario: Scenario, path: Path | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._scenario = scenario
        self._snapshot = Snapshot.of(scenario)
        self._preview: Snapshot | None = None
        self._path = path
        self._selection: tuple[str, ...] = ()
        self.revision = 0
        self.undo_stack = QUndoStack(self)

    def __del__(self) -> None:
        # The steps are deleted by Qt's stack before anything else of a document nobody
        # holds goes. When a garbage collection frees a document in a cycle (a closed
        # window's), it clears the steps' Python objects first, which hands their C++
        # objects back to Python and deletes them; the stack, deleted with the document,
        # then deleted them again (a segfault). Finalizers run before that clearing.
        stack = self.__dict__.get("undo_stack")
        if stack is not None and shiboken6.isValid(stack):
            stack.blockSignals(True)  # nothing listening is told of a stack going away
            stack.clear()

    # -- reading ---------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def path(self) -> Path | None:
        return self._path

    @path.setter
    def path(self, value: Path | None) -> None:
        self._path = value
        self.path_changed.emit()

    @property
    def selection(self) -> tuple[str, ...]:
        return self._selection

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def snapshot(self) -> Snapshot:
        """The snapshot to read: the drag's preview while one is shown, else the current
        revision's."""
        return self._preview if self._preview is not None else self._snapshot

    @property
    def revision_snapshot(self) -> Snapshot:
        """The current revision's snapshot (not a drag's preview)."""
        return self._snapshot

    @property
    def previewing(self) -> bool:
        return self._preview is not None

    def battle(self) -> Battle:
        return self.snapshot.battle

    # -- a drag's preview --------------------------------------------------------------
    def preview(self, entities: Mapping[str, Entity]) -> None:
        """Show ``entities`` (the dragged ones, as the drag has them: position and facing)
        in ``snapshot`` without an edit; derived from the revision's snapshot."""
        scenario = self._scenario
        for e in entities.values():
            if scenario.entity(e.id) is not None:
                scenario = scenario.with_entity(e)
        base = self._preview if self._preview is not None else self._snapshot
        if len(entities) == 1:
            (entity_id,) = entities
            self._preview = base.moved(entity_id, scenario)
        else:
            self._preview = base.revised(scenario)
        self.preview_changed.emit()

    def end_preview(self) -> None:
        """Back to the revision's snapshot (a drag cancelled)."""
        if self._preview is not None:
            self._preview = None
            self.preview_changed.emit()

    # -- selection -------------------------------------------------------------------
    def set_selection(self, ids: Iterable[str]) -> None:
        entity = self._scenario.entity  # (by its index: no set of 2,000 ids per click)
        new = tuple(dict.fromkeys(i for i in ids if entity(i) is not None))
        if new != self._selection:
            self._selection = new
            self.selection_changed.emit()

    # -- editing ---------------------------------------------------------------------
    def edit(self, text: str, new_scenario: Scenario, merge_id: int | None = None) -> None:
        """Push one undoable step that replaces the scenario by ``new_scenario``."""
        if new_scenario == self._scenario:
            return
        if self._preview is not None and new_scenario == self._preview.scenario:
            # a drag's release: the very scenario the drag showed, so that its snapshot
            # (its battle, its geometry, what was worked out on it) is the revision's
            new_scenario = self._preview.scenario
        self.undo_stack.push(ScenarioEdit(self, text, self._scenario, new_scenario, merge_id))

    def replace(self, scenario: Scenario, path: Path | None = None,
                modified: bool = False) -> None:
        """Start over with another scenario (New, Open, restore): history is cleared;
        ``modified`` marks it unsaved (a restored recovery file)."""
        self.undo_stack.clear()
        old = self._scenario
        self._scenario = scenario
        self._snapshot = Snapshot.of(scenario)
        self._preview = None
        self.revision += 1
        self.path = path
        self._selection = ()
        self.replaced.emit()
        all_ids = frozenset(e.id for e in old.entities) | frozenset(
            e.id for e in scenario.entities
        )
        self.changed.emit(Change(all_ids, True))
        self.selection_changed.emit()
        self.undo_stack.setClean()
        if modified:
            self.undo_stack.resetClean()

    def mark_saved(self, path: Path) -> None:
        self.undo_stack.setClean()
        self.path = path

    def _apply(self, scenario: Scenario) -> None:
        change = diff(self._scenario, scenario)
        self._scenario = scenario
        # a drag's release: its preview has the very same models, its geometry is reused
        base = self._preview if self._preview is not None else self._snapshot
        self._snapshot = base.revised(scenario)
        self._preview = None
        self.revision += 1
        self.changed.emit(change)
        if self._selection:
            present = {e.id for e in scenario.entities}
            kept = tuple(i for i in self._selection if i in present)
            if kept != self._selection:
                self._selection = kept
                self.selection_changed.emit()
