"""The Inspector panel: every field of the selected fighter, unit, obstacle or platform
(or of the battlefield when nothing is selected), editable.

The panel reads the document and never writes to it: each change becomes an edit pushed
on the undo stack (successive changes of one field merge). It follows the document:
values are reloaded in place after each change; the form is rebuilt only when its shape
changes (another kind of entity selected, another number of weapons...). A selection
that needs another form gets it ``FOLLOW_MS`` later: the click on the board is answered
and painted first (``form`` and ``note`` are brought up to date when read)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from tabletop_gui.model.document import Change, Document
from tabletop_gui.rules.registry import info
from tabletop_gui.scenario.entities import Fighter, Obstacle, Platform, Scenario, Unit
from tabletop_gui.ui.inspector_fields import Binding
from tabletop_gui.ui.inspector_forms import (
    Form,
    Many,
    battlefield_form,
    many_form,
    model_form,
    terrain_form,
)

MERGE_BASE = 4000
FOLLOW_MS = 30  # a selection's new form waits this long: the board answers the click first


class InspectorPanel(QScrollArea):
    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setWidgetResizable(True)
        self.setMinimumWidth(280)
        self._form: Form | None = None
        self._note: QLabel | None = None  # what a mixed selection shows instead of a form
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b03a2e")
        self._key: tuple[Any, ...] | None = None
        # the last model's page left, by what its editors need (``_kept_key``): the first
        # model selected after File > Open or after the battlefield's form shows it again
        # instead of building it (10-18 ms on a full army)
        self._kept: tuple[tuple[Any, ...], QWidget, Form] | None = None
        self._later = QTimer(self)  # the form of a new selection, once the board answered
        self._later.setSingleShot(True)
        self._later.setInterval(FOLLOW_MS)
        self._later.timeout.connect(self.rebuild)
        self._shown_key: tuple[Any, ...] | None = None  # ``_kept_key`` of the form shown
        document.selection_changed.connect(self._on_selection)
        document.changed.connect(self._on_changed)
        self.rebuild()

    # -- what is shown ---------------------------------------------------------------
    @property
    def form(self) -> Form | None:
        """The editors of what is selected (None: a mixed selection, see ``note``)."""
        self._catch_up()
        return self._form

    @property
    def note(self) -> QLabel | None:
        """What a mixed selection shows instead of a form."""
        self._catch_up()
        return self._note

    def _catch_up(self) -> None:
        if self._later.isActive():
            self.rebuild()

    def target(self) -> Any:
        """The selected entity, the scenario when nothing is selected, ``Many`` for several
        models (their common fields), None for a mixed selection."""
        sel = self.document.selection
        scenario = self.document.scenario
        if not sel:
            return scenario
        if len(sel) == 1:
            return scenario.entity(sel[0])
        models = tuple(m for i in sel if (m := scenario.model(i)) is not None)
        return Many(models) if len(models) == len(sel) else None

    def _shape_of(self, t: Any) -> tuple[Any, ...]:
        s = self.document.scenario
        if t is None or isinstance(t, Scenario | Many):
            kind = "none" if t is None else "scenario" if isinstance(t, Scenario) else "many"
            return (kind, self.document.selection, tuple(x.id for x in s.sides))
        extra: tuple[Any, ...] = ()
        if isinstance(t, Fighter | Unit):
            extra = (s.ruleset, tuple((x.id, x.name) for x in s.sides), len(t.weapons),
                     t.base.shape if isinstance(t, Fighter) else t.round_base)
        # not the id: another entity of the same kind has the same editors (they read
        # the entity selected when they commit)
        return (t.kind, *extra)

    def _kept_key(self, t: Any) -> tuple[Any, ...] | None:
        """What a model's form depends on (its shape, the battlefield's size its x and y
        editors are bounded by); None for the other forms (they are not kept)."""
        if not isinstance(t, Fighter | Unit):
            return None
        field = self.document.scenario.battlefield
        return (self._shape_of(t), field.width, field.depth)

    def rebuild(self) -> None:
        self._later.stop()
        t = self.target()
        left = self._shown_key if self._form is not None else None
        self._key = self._shape_of(t)
        self._shown_key = self._kept_key(t)
        old = self.takeWidget()
        self.message.setParent(None)
        self.message.clear()
        if old is not None:
            if left is not None and self._form is not None:
                if self._kept is not None:
                    self._kept[1].deleteLater()
                # out of sight, the panel's: Qt deletes it with the panel, on this
                # thread (taken, it had no owner: never deleted, held by Python alone)
                old.setParent(self)
                self._kept = (left, old, self._form)
            else:
                old.deleteLater()
        kept = self._kept
        if kept is not None and self._shown_key is not None and kept[0] == self._shown_key:
            self._kept = None
            _, page, self._form = kept
            self._note = None
            layout = page.layout()
            assert isinstance(layout, QVBoxLayout)
            layout.insertWidget(0, self.message)
            self._form.load(t)
            self.setWidget(page)
            return
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.message)
        self._form = None
        self._note = None
        if t is None:
            self._note = QLabel(f"{len(self.document.selection)} items selected, not all "
                                "of them models: select one to edit it.")
            self._note.setWordWrap(True)
            layout.addWidget(self._note)
        else:
            self._form = self._form_for(t)
            for g in self._form.groups:
                layout.addWidget(g)
            self._form.load(t)
        layout.addStretch(1)
        self.setWidget(page)

    def _on_selection(self) -> None:
        """Another entity with the same editors shows its values in them (a click on
        another model of a large battlefield, a drag's press: no new form to build);
        else the form is built for it."""
        t = self.target()
        if self._form is None or t is None or self._shape_of(t) != self._key:
            self._later.start()  # after the rest of this turn (the canvas, the attack)
            return
        self._later.stop()
        self.message.clear()
        self._form.load(t)

    def _form_for(self, t: Any) -> Form:
        s = self.document.scenario
        if isinstance(t, Scenario):
            return battlefield_form(self.commit)
        if isinstance(t, Many):
            return many_form(s, t, info(s.ruleset).declaration, self.commit)
        if isinstance(t, Fighter | Unit):
            return model_form(s, t, info(s.ruleset).declaration, self.commit, self.commit_entity,
                              self.refuse)
        assert isinstance(t, Obstacle | Platform)
        return terrain_form(t, self.commit, self.commit_entity, self.refuse)

    def _on_changed(self, change: Change) -> None:
        t = self.target()
        if self._shape_of(t) != self._key:
            self.rebuild()
        elif self._form is not None and t is not None:
            self._form.load(t)

    # -- edits -----------------------------------------------------------------------
    def refuse(self, text: str) -> None:
        self.message.setText(text)

    def commit(self, binding: Binding, value: Any) -> None:
        """An editor's new value: build the edited entity and push it as one edit (not
        from a form that still shows the selection before, for a turn)."""
        if self._later.isActive():
            return
        t = self.target()
        if t is None:
            return
        try:
            new = binding.write(t, value)
        except ValueError as e:
            self.refuse(str(e))
            binding.load(t)
            return
        self.message.clear()
        if new == t:
            return
        merge = MERGE_BASE + (self.form.number_of(binding) if self.form is not None else 0)
        if isinstance(t, Scenario):
            self.document.edit(f"Edit {binding.label}", new, merge_id=merge)
        elif isinstance(t, Many):
            scenario = self.document.scenario
            for m in new.models:
                scenario = scenario.with_entity(m)
            self.document.edit(f"Edit {binding.label} of {len(t.models)} models", scenario,
                               merge_id=merge)
        else:
            self.document.edit(f"Edit {binding.label} of {t.name or t.id}",
                               self.document.scenario.with_entity(new), merge_id=merge)

    def commit_entity(self, what: str, new: Any) -> None:
        if self._later.isActive():
            return
        t = self.target()
        if t is None or new == t:
            return
        self.message.clear()
        self.document.edit(f"Edit {what} of {t.name or t.id}",
                           self.document.scenario.with_entity(new))

    def binding(self, label: str) -> Binding:
        assert self.form is not None
        return self.form.binding(label)
