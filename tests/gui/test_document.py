"""The document: edits on the undo stack, change summaries, merging nudges, selection."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletop_gui.model.document import Change, Document, diff
from tests.gui.factories import skirmish


def test_edit_undo_redo_and_change_summary(qtbot):
    s0 = skirmish()
    doc = Document(s0)
    seen: list[Change] = []
    doc.changed.connect(seen.append)
    f1 = s0.model("f1")
    s1 = s0.with_entity(f1.moved_to(7, 5))
    doc.edit("Move Iron Sentinel", s1)
    assert doc.scenario is s1 and doc.modified
    assert seen[-1] == Change(frozenset({"f1"}), False)
    assert doc.undo_stack.undoText() == "Move Iron Sentinel"
    doc.undo_stack.undo()
    assert doc.scenario == s0 and not doc.modified
    doc.undo_stack.redo()
    assert doc.scenario == s1
    doc.edit("Delete", s1.without_entity("w1"))
    assert seen[-1] == Change(frozenset({"w1"}), True)
    assert doc.revision == 4


def test_nudges_merge_into_one_step(qtbot):
    s = skirmish()
    doc = Document(s)
    for _ in range(5):
        f = doc.scenario.model("f1")
        doc.edit("Nudge", doc.scenario.with_entity(f.moved_to(f.x + 0.1, f.y)), merge_id=7)
    assert doc.undo_stack.count() == 1
    assert abs(doc.scenario.model("f1").x - 6.5) < 1e-9
    doc.undo_stack.undo()
    assert doc.scenario == s


def test_nudges_of_another_model_do_not_merge(qtbot):
    s = skirmish()
    doc = Document(s)
    f1, f2 = s.model("f1"), s.model("f2")
    doc.edit("Nudge", s.with_entity(f1.moved_to(1, 1)), merge_id=7)
    doc.edit("Nudge", doc.scenario.with_entity(f2.moved_to(2, 2)), merge_id=7)
    assert doc.undo_stack.count() == 2


def test_selection_drops_deleted_ids(qtbot):
    s = skirmish()
    doc = Document(s)
    with qtbot.waitSignal(doc.selection_changed):
        doc.set_selection(["f1", "nope", "f2"])
    assert doc.selection == ("f1", "f2")
    terrain = s.entities[-1]
    doc.set_selection(["f2", "nope", terrain.id, "f2", "f1"])  # in order, each once
    assert doc.selection == ("f2", terrain.id, "f1") == tuple(
        dict.fromkeys(i for i in ["f2", terrain.id, "f2", "f1"]
                      if i in {e.id for e in s.entities}))
    doc.set_selection(["f1", "f2"])
    doc.edit("Delete", s.without_entity("f1"))
    assert doc.selection == ("f2",)
    doc.undo_stack.undo()
    assert doc.selection == ("f2",)


def test_diff_sees_side_changes_as_structural():
    s = skirmish()
    s2 = replace(s, sides=(replace(s.sides[0], color="#000000"), s.sides[1]))
    assert diff(s, s2).structural and not diff(s, s2).ids
    assert diff(s, s) == Change(frozenset(), False)


def test_a_release_keeps_the_drags_scenario_and_snapshot(qtbot):
    """The edit pushed on a drag's release equals the scenario the drag showed: the
    document takes that very value, and the preview's snapshot is the revision's (what
    was worked out on it goes on, issue 17); undo and redo give the values back; a
    release that pushes something else gets a snapshot of its own."""
    s0 = skirmish()
    doc = Document(s0)
    f1 = s0.model("f1")
    moved = f1.moved_to(7, 5)
    doc.preview({"f1": moved})
    preview = doc.snapshot
    pushed = s0.with_entity(moved)
    doc.edit("Move", pushed)
    assert doc.scenario is preview.scenario and doc.snapshot is preview
    assert doc.scenario == pushed and not doc.previewing
    doc.undo_stack.undo()
    assert doc.scenario is s0 and doc.snapshot.scenario is s0
    doc.undo_stack.redo()
    assert doc.scenario == pushed and doc.snapshot.scenario is doc.scenario
    doc.preview({"f1": f1.moved_to(9, 5)})
    shown = doc.snapshot
    doc.edit("Move", doc.scenario.with_entity(f1.moved_to(10, 5)))
    assert doc.snapshot is not shown and doc.snapshot.scenario is doc.scenario
    assert doc.scenario.model("f1").x == pytest.approx(10.0, abs=1e-9)


def _diff_by_index(old, new) -> Change:  # noqa: ANN001 - the obvious way, the reference
    old_by_id = {e.id: e for e in old.entities}
    new_by_id = {e.id: e for e in new.entities}
    ids = set(old_by_id.keys() ^ new_by_id.keys())
    ids |= {i for i, e in new_by_id.items() if i in old_by_id and old_by_id[i] != e}
    structural = (old_by_id.keys() != new_by_id.keys() or old.battlefield != new.battlefield
                  or old.sides != new.sides or old.ruleset != new.ruleset
                  or old.name != new.name or old.ruleset_options != new.ruleset_options)
    return Change(frozenset(ids), structural)


def test_diff_of_a_few_entities_changed_equals_the_diff_by_index():
    """``diff`` finds the entities another object in the same place by identity
    (``_few_changed``: a move among thousands); random edits, shared ids and other
    changes give what comparing every entity by id gives (issue 17)."""
    import random

    from tabletop_gui.model import document as document_module
    from tabletop_gui.scenario.entities import Obstacle

    rnd = random.Random(1717)
    fast = 0
    for _ in range(300):
        old = skirmish()
        if rnd.random() < 0.2:  # an id shared by a fighter and a piece of terrain
            old = replace(old, obstacles=(*old.obstacles, Obstacle(
                "f2", ((1, 1), (2, 1), (2, 2)), 1.0, "Rock"),))
        new = old
        for _ in range(rnd.randint(0, 3)):
            kind = rnd.random()
            e = rnd.choice(new.entities)
            if kind < 0.5 and hasattr(e, "x"):
                new = new.with_entity(replace(e, x=e.x + rnd.choice([0.0, 1.0])))
            elif kind < 0.6:
                new = new.with_entity(replace(e, name=e.name + "!"))
            elif kind < 0.7:
                new = new.with_entity(replace(e))  # an equal value, another object
            elif kind < 0.8:
                new = new.without_entity(e.id)
            elif kind < 0.9:
                new = replace(new, name=new.name + "?")
            else:
                new = replace(new, sides=new.sides[::-1])
        assert diff(old, new) == _diff_by_index(old, new)
        few = document_module._few_changed(old, new)
        if few is not None:
            fast += 1
            assert few == _diff_by_index(old, new)
    assert 100 < fast < 300  # both ways were taken


def test_battle_of_document(qtbot):
    doc = Document(skirmish())
    battle = doc.battle()
    assert set(battle.combatants) == {"f1", "f2", "f3", "f4"}


def test_a_snapshot_per_revision_and_a_drag_preview(qtbot):
    s0 = skirmish()
    doc = Document(s0)
    first = doc.snapshot
    assert first.scenario is s0 and doc.battle() is first.battle
    f1 = s0.model("f1")
    s1 = s0.with_entity(f1.moved_to(7, 5))
    doc.edit("Move", s1)
    second = doc.snapshot
    assert second is not first and second.scenario is s1
    assert first.scenario is s0 and first.battle.board.body("f1").footprint.x == f1.x
    doc.undo_stack.undo()
    assert doc.snapshot.scenario is s0 and doc.snapshot is not first  # a new revision
    # a drag: the preview is a snapshot of its own, the revision's stays
    shown: list[bool] = []
    doc.preview_changed.connect(lambda: shown.append(doc.previewing))
    revision = doc.snapshot
    turned = replace(f1, x=8.0, facing=45.0)
    doc.preview({"f1": turned})
    assert doc.previewing and doc.revision_snapshot is revision
    assert doc.snapshot.scenario.model("f1") is turned and doc.scenario is s0
    assert doc.snapshot.battle.board.body("f1").footprint.facing == 45.0
    preview = doc.snapshot
    doc.edit("Move", s0.with_entity(turned))  # the release: the preview's battle stays
    assert not doc.previewing and doc.snapshot.battle is preview.battle
    doc.preview({"f1": f1})
    doc.end_preview()
    assert shown == [True, True, False] and not doc.previewing


_COLLECTED = """
import gc
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication
app = QApplication([])
from tabletop_gui.model.document import Document
from tabletop_gui.scenario.resources import load_demo
start = load_demo("warcry")
for held in ("alone", "through a QObject", "by itself"):
    for n in range(200):
        doc = Document(start)
        s = start
        for k in range(6):
            m = s.models[k % len(s.models)]
            s = s.with_entity(m.moved_to(m.x + 0.1 * (k + 1), m.y))
            doc.edit("Move", s, merge_id=7 if k % 2 else None)
        doc.undo_stack.undo()
        if held == "through a QObject":  # a cycle through a Qt object, as a window's
            holder = QObject()
            holder.doc, doc.holder = doc, holder
            del holder
        elif held == "by itself":
            doc.me = doc
        del doc
        if n % 10 == 0:
            gc.collect()
    gc.collect()
print("collected")
"""


def test_documents_with_edits_are_freed_by_the_garbage_collector_without_a_crash():
    """A document nobody holds, with steps on its undo stack, alone or in a cycle (a
    closed window's), is freed without a crash. A garbage collection used to clear the
    steps' Python objects first, which deleted their C++ objects, and the stack deleted
    them again with the document: a segfault in the middle of a later test, or at exit.
    Run in a child process, which such a crash kills."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run([sys.executable, "-c", _COLLECTED], env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "collected"
    assert run.stderr == ""
