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


def test_a_closed_window_is_freed_while_its_document_lives_on(qtbot, tmp_path):
    """A closed window, its attack flow installed and an attacker chosen, is freed by a
    collection even while something else still holds its document. A slot connected to
    the document's signals as a closure (not as a method of a Qt object of the window)
    is held by the connection, where the collector cannot see it, and kept the whole
    window (flow, panels, menus) alive for as long as the document lived."""
    import weakref

    import shiboken6
    from PySide6.QtCore import QSettings

    from tabletop_gui.ui.main_window import MainWindow
    from tests.gui.attack_support import demo, first_pair, select_attacker

    scenario = demo("warcry")
    attacker, _ = first_pair(scenario)
    document = Document(scenario)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(document, settings=settings)
    window.files.maybe_discard = lambda: True  # closing asks nothing
    flow = window.install_attack_flow()
    window.show()
    qtbot.waitExposed(window)
    select_attacker(qtbot, flow, attacker)
    freed = weakref.ref(window)
    flow_freed = weakref.ref(flow)
    window.close()
    window.deleteLater()
    del window, flow
    qtbot.waitUntil(lambda: freed() is None or not shiboken6.isValid(freed()))
    gc.collect()
    assert freed() is None, "the closed window's Python object is still held"
    assert flow_freed() is None, "the closed window's attack flow is still held"
    assert shiboken6.isValid(document)  # the document itself lives on, unharmed
    document.set_selection([attacker])  # and its signals reach nothing of the window
