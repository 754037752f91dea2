"""Qt objects whose Python objects go away (a closed window's, often in a garbage
collection): nothing of theirs may run while Python takes them apart."""

from __future__ import annotations

import gc

from tabletop_gui.model.document import Document
from tests.gui.factories import skirmish


def test_a_scene_deleted_with_items_selected_calls_no_slot_of_its_own(qtbot):
    """Deleting a scene deletes its items, which deselects them and emits the scene's
    selectionChanged after Python has cleared the scene's object: its slot could not be
    found ("Slot 'BattlefieldScene::' not found", caught in the middle of a later test).
    Alone, and in a cycle freed by a collection; pytest-qt fails the test on the error."""
    from tabletop_gui.ui.canvas.scene import BattlefieldScene

    for n in range(20):
        scene = BattlefieldScene(Document(skirmish()))
        qtbot.waitUntil(lambda s=scene: not s.building)
        items = list(scene.entity_items().values())
        for item in items[:3]:
            item.setSelected(True)
        assert len(scene.selectedItems()) == 3
        if n % 2:
            scene.itself = scene  # a cycle, as a closed window's scene is in
        del scene, items
        gc.collect()
