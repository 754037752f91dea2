"""Undo property: for random sequences of edits (including merging nudges), undoing all
gives back the first document exactly, redoing all gives the last; the canvas mirrors
the document at every end."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_gui.model import edits
from tabletop_gui.model.document import Document
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.ui.canvas.model_items import ModelItem
from tabletop_gui.ui.canvas.scene import BattlefieldScene
from tests.gui.factories import skirmish

OPS = ("move", "nudge", "rotate", "turn", "delete", "duplicate", "terrain", "rename",
       "damage", "battlefield")
step = st.tuples(st.sampled_from(OPS), st.integers(0, 50), st.floats(-5, 5, allow_nan=False))


def apply(doc: Document, op: str, pick: int, amount: float) -> None:
    s = doc.scenario
    ids = [e.id for e in s.entities]
    models = [m.id for m in s.models]
    target = ids[pick % len(ids)] if ids else None
    model = models[pick % len(models)] if models else None
    if op == "move" and target:
        doc.edit("Move", edits.move(s, [target], amount, -amount / 2))
    elif op == "nudge" and target:
        doc.edit("Nudge", edits.move(s, [target], 0.1, 0), merge_id=edits.MERGE_NUDGE)
    elif op == "rotate" and model:
        doc.edit("Rotate", edits.face(s, model, amount * 70))
    elif op == "turn" and model:
        doc.edit("Turn", edits.rotate(s, [model], 15), merge_id=edits.MERGE_ROTATE)
    elif op == "delete" and target:
        doc.edit("Delete", edits.delete(s, [target]))
    elif op == "duplicate" and target:
        doc.edit("Duplicate", edits.duplicate(s, [target])[0])
    elif op == "terrain":
        x = 5 + amount
        doc.edit("Draw", edits.add_terrain(s, "platform" if pick % 2 else "obstacle",
                                           [(x, 1), (x + 2, 1), (x + 1, 3)], 1 + pick % 3)[0])
    elif op == "rename" and target:
        e = s.entity(target)
        doc.edit("Rename", s.with_entity(replace(e, name=f"n{pick}")), merge_id=4000)
    elif op == "damage" and model:
        m = s.model(model)
        doc.edit("Damage", s.with_entity(replace(m, state={**m.state, "damage": pick})))
    elif op == "battlefield":
        bf = replace(s.battlefield, width=30 + pick % 5)
        doc.edit("Battlefield", replace(s, battlefield=bf))


def mirrors(scene: BattlefieldScene, scenario: Scenario) -> bool:
    items = scene.entity_items()
    if set(items) != {e.id for e in scenario.entities}:
        return False
    return all(i.model == scenario.model(k) for k, i in items.items() if isinstance(i, ModelItem))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=30))
def test_undo_all_then_redo_all(qapp, steps):
    first = skirmish()
    doc = Document(first)
    scene = BattlefieldScene(doc)
    for op, pick, amount in steps:
        apply(doc, op, pick, amount)
    last = doc.scenario
    stack = doc.undo_stack
    while stack.canUndo():
        stack.undo()
    assert doc.scenario == first
    assert mirrors(scene, first)
    assert not doc.modified
    while stack.canRedo():
        stack.redo()
    assert doc.scenario == last
    assert mirrors(scene, last)
