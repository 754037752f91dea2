"""The Ruling mode of the window: one pair explained on the battlefield, for settling an
argument (docs/rulings.md).

``RulingMode`` keeps the pair (attacker, target), asks the rules for the attack and the
ruling (``rules.ruling.build_ruling``; the weapon and options of the Attack panel when it
prepares the same attacker), draws the evidence (``RulingOverlay``), shows the checklist
in the Ruling panel (the window's attack flow, once installed, is asked for its choice and
hides its marks meanwhile), and exports the ruling (``RulingPicture``: the same pictures as
`tabletop-gui ruling --out`) or copies its picture to the clipboard. It follows the
document: an edit, an undo or a new file updates or clears the ruling.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPointF
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu

from tabletop_gui.model.attack_view import AttackChoice
from tabletop_gui.model.document import Change
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest, RulesError
from tabletop_gui.rules.ruling import Ruling, build_ruling
from tabletop_gui.ui.canvas.model_items import ModelItem
from tabletop_gui.ui.ruling_overlay import RulingOverlay
from tabletop_gui.ui.ruling_panel import HINT, RulingPanel
from tabletop_gui.ui.ruling_picture import RulingPicture

if TYPE_CHECKING:
    from tabletop_gui.ui.window_host import WindowHost

EXPORT_FILTERS = ("PNG picture (*.png);;SVG picture (*.svg);;PDF, one page (*.pdf);;"
                  "Markdown with the picture beside it (*.md)")


class RulingMode(QObject):
    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self.window = window
        self.document = window.document
        self.scene = window.scene
        self.attacker: str | None = None
        self.target: str | None = None
        self.ruling: Ruling | None = None
        self.active = False
        self.overlay = RulingOverlay(self.scene.overlay_layer)
        self.panel = RulingPanel()
        self.dock = window.add_panel("Ruling", self.panel)
        guard = window.errors.guarded
        self.panel.export_requested.connect(guard("Exporting the ruling")(self.export_dialog))
        self.panel.copy_requested.connect(guard("Copying the ruling")(self.copy_picture))
        self.document.changed.connect(guard("Following the battlefield", self.clear)(
            self._document_changed))
        self.document.replaced.connect(self.clear)

    # -- the pair ---------------------------------------------------------------------
    def start(self, pair: tuple[str, str | None] | None = None) -> None:
        """The mode is on, on ``pair``; by default the pair of the Attack panel, else the
        selected model(s), else the mode's last pair."""
        self.active = True
        self._attack_marks(False)
        self.dock.show()
        self.dock.raise_()
        attacker, target = pair if pair is not None else self._prepared_pair()
        if attacker is not None:
            self.set_pair(attacker, target)
        else:
            self._redraw()

    def stop(self) -> None:
        self.active = False
        self.overlay.clear()
        self._attack_marks(True)

    def _attack_marks(self, shown: bool) -> None:
        """The Attack panel's marks (range band, targets) step aside in this mode."""
        flow = self.window.attack_flow
        if flow is not None:
            flow.show_marks(shown)

    def _attack_choice(self) -> AttackChoice | None:
        """The attack the Attack panel prepares (None before the attack flow is in)."""
        flow = self.window.attack_flow
        return flow.attack.choice if flow is not None else None

    def _prepared_pair(self) -> tuple[str | None, str | None]:
        choice = self._attack_choice()
        if choice is not None and choice.attacker is not None:
            return choice.attacker, choice.target
        if self.attacker is not None:
            return self.attacker, self.target
        models = [i for i in self.document.selection if self.document.scenario.model(i)]
        if len(models) >= 2:
            return models[0], models[1]
        return (models[0], None) if models else (None, None)

    def pick(self, model_id: str) -> None:
        """A model clicked in the mode: the attacker first, then an enemy of it as the
        target; a model of the attacker's side becomes the new attacker."""
        scenario = self.document.scenario
        picked = scenario.model(model_id)
        attacker = scenario.model(self.attacker) if self.attacker else None
        if picked is None or model_id == self.attacker:
            return
        if attacker is None or picked.side == attacker.side:
            self.set_pair(model_id, None)
        else:
            self.set_pair(attacker.id, model_id)

    def set_pair(self, attacker: str | None, target: str | None) -> None:
        self.attacker, self.target = attacker, target
        self._redraw()

    def clear(self) -> None:
        self.attacker = self.target = None
        self.ruling = None
        self.overlay.clear()
        self.panel.show_message(HINT)

    # -- computing and showing ----------------------------------------------------------
    def _document_changed(self, change: Change) -> None:
        if self.attacker is not None:
            self._redraw()

    def _redraw(self) -> None:
        self.ruling = None
        self.overlay.clear()
        scenario = self.document.scenario
        if self.attacker is not None and scenario.model(self.attacker) is None:
            self.attacker = self.target = None
        if self.target is not None and scenario.model(self.target) is None:
            self.target = None
        if self.attacker is None:
            self.panel.show_message(HINT)
            return
        if self.target is None:
            self.panel.show_message(f"Ruling: {self.attacker} attacks… click the target.")
            return
        try:
            self.ruling = self.compute(self.attacker, self.target)
        except RulesError as e:
            self.panel.show_message(f"No ruling for {self.attacker} against {self.target}: {e}")
            return
        self.panel.show_ruling(self.ruling)
        if self.active:
            self.overlay.show(self.ruling, self.document.snapshot)

    def compute(self, attacker: str, target: str) -> Ruling:
        snapshot = self.document.snapshot
        ruleset = registry.get(snapshot.scenario.ruleset)
        battle = snapshot.battle
        weapon: str | None = None
        options: dict[str, Any] = {}
        choice = self._attack_choice()
        if choice is not None and choice.attacker == attacker:  # as the Attack panel has it
            weapon, options = choice.weapon, dict(choice.options)
        report = ruleset.attack(battle, AttackRequest(attacker, target, weapon, None, options))
        return build_ruling(ruleset, battle, report)

    # -- sharing ------------------------------------------------------------------------
    def picture(self) -> Any:
        if self.ruling is None:
            raise RulesError("no ruling to share: choose an attacker and a target first")
        return RulingPicture(self.document.scenario, self.ruling)

    def export(self, path: Path) -> bool:
        written = bool(self.picture().write(path))
        message = f"Ruling written to {path}" if written else f"Could not write {path}"
        self.window.statusBar().showMessage(message, 5000)
        if not written:
            self.window.errors.problem(f"The ruling could not be written to {path}.")
        return written

    def export_dialog(self) -> None:
        if self.ruling is None:
            return
        name = f"ruling-{self.ruling.attacker}-{self.ruling.target}.png"
        start = self.document.path.parent / name if self.document.path else Path(name)
        chosen, _ = QFileDialog.getSaveFileName(self.window, "Export the ruling", str(start),
                                                EXPORT_FILTERS)
        if chosen:
            path = Path(chosen)
            if path.suffix.lower() not in (".png", ".svg", ".pdf", ".md"):
                path = path.with_suffix(".png")
            self.export(path)

    def copy_picture(self) -> None:
        if self.ruling is None:
            return
        QApplication.clipboard().setImage(self.picture().image())
        self.window.statusBar().showMessage("Ruling picture copied", 4000)

    # -- the context menu -----------------------------------------------------------------
    def context_menu(self, scene_pos: QPointF, on_pick: Any) -> QMenu | None:
        """The menu for a right-click at ``scene_pos``: a ruling of the prepared attacker
        (the Attack panel's, the selected model, or the mode's own) against the model
        there, or that model as the attacker. ``on_pick(attacker, target)`` is called
        with the chosen pair."""
        item = self.scene.entity_at(scene_pos)
        if not isinstance(item, ModelItem):
            return None
        clicked = item.entity_id
        attacker = self._menu_attacker(clicked)
        menu = QMenu(self.window)
        if attacker is not None:
            menu.addAction(f"Ruling: {attacker} against {clicked}").triggered.connect(
                lambda: on_pick(attacker, clicked))
        menu.addAction(f"Ruling: {clicked} attacks…").triggered.connect(
            lambda: on_pick(clicked, None))
        return menu

    def _menu_attacker(self, clicked: str) -> str | None:
        choice = self._attack_choice()
        candidates = [choice.attacker if choice is not None else None]
        selected = [i for i in self.document.selection if self.document.scenario.model(i)]
        candidates.append(selected[0] if len(selected) == 1 else None)
        candidates.append(self.attacker)
        return next((c for c in candidates if c is not None and c != clicked), None)
