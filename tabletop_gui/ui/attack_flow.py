"""The game-night attack flow wired into the main window.

``MainWindow.install_attack_flow`` makes one and docks its panels (Attack with the odds,
Log); the flow hangs the attack overlays on the scene's overlay layer, follows the document
(edits, undo, selection, a drag's preview snapshot) and adds the keyboard flow:

- select an attacker on the canvas (or in the Attack panel);
- click an enemy, or Tab / Shift+Tab to cycle the valid targets;
- R rolls seeded dice, digits enter physical dice (Backspace takes back the last one);
- Enter applies the result as one undoable edit, logged; Esc clears the attack.

The flow holds the attack's two model parts: the ``AttackController`` (``attack``: the
choice, the dice, the seed, and the ``AttackView`` it publishes) and the ``TargetScanner``
(``targets``: every enemy's status), coupled by ``follow_attack`` (the scan follows the
controller's snapshot and choice). The Attack panel, the odds plot and the canvas overlay
only draw what these publish. The rules engine runs on the window's worker thread
(``model.engine_thread``): the controller and the scanner hand it jobs and the answers
come back on later event-loop turns, each one redrawing the overlays (in slices of
``OVERLAY_SLICE_S``, so a thousand marks never hold the event loop) and the panels. The
status bar shows how far the target scan is.
"""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QEvent, QKeyCombination, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QMainWindow,
    QPlainTextEdit,
    QWidget,
)

from tabletop_gui.model.attack_controller import AttackController
from tabletop_gui.model.attack_view import AttackView, applied_scenario, edit_text
from tabletop_gui.model.document import Change, Document
from tabletop_gui.model.jobs import Outcome, Runner, Ticket
from tabletop_gui.model.target_scanner import TargetScanner, follow_attack
from tabletop_gui.scenario.entities import Fighter, Unit
from tabletop_gui.ui.attack_panel import AttackPanel, card_area
from tabletop_gui.ui.busy import BusyIndicator
from tabletop_gui.ui.canvas.scene import BattlefieldScene
from tabletop_gui.ui.canvas.tools.select import SelectTool
from tabletop_gui.ui.canvas_overlays import AttackOverlay
from tabletop_gui.ui.errors import ErrorReporter
from tabletop_gui.ui.log_panel import LogPanel, attack_entry

APPLY_PREFIX = "Apply attack"
SCAN_REST_MS = 60  # during a drag, full reports wait until the mouse rests this long
OVERLAY_SLICE_S = 0.015  # overlay drawing per event-loop turn
WARM_REST_MS = 200  # a file opened: its battle is built once the window rests this long
TEXT_INPUTS = (QLineEdit, QAbstractSpinBox, QPlainTextEdit, QComboBox)
KEY_HELP = (  # Help > Keyboard shortcuts
    ("R", "roll the dice of the attack (seeded)"),
    ("Tab, Shift+Tab", "next / previous valid target"),
    ("0-9", "enter a physical die"),
    ("Backspace", "remove the last die entered (dice box, or the canvas while dice are entered)"),
    ("Enter", "apply the result (one undoable edit, logged)"),
    ("Esc", "clear the attack"),
)


def _combined(event: QKeyEvent) -> int:
    """The key and modifiers as a shortcut names them (Backtab is Shift+Tab; the keypad
    flag does not count)."""
    mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    key = event.key()
    if key == Qt.Key.Key_Backtab:
        key, mods = Qt.Key.Key_Tab, mods | Qt.KeyboardModifier.ShiftModifier
    return QKeyCombination(mods, Qt.Key(key)).toCombined()


class AttackFlow(QObject):
    """Keeps the attack (controller and target scan) in step with the document and acts
    on the user's keys."""

    scan_finished = Signal()  # every enemy of the attacker marked valid or invalid

    def __init__(self, window: QMainWindow, document: Document, scene: BattlefieldScene,
                 errors: ErrorReporter, runner: Runner, busy: BusyIndicator) -> None:
        super().__init__(window)
        self.window = window
        self.document = document
        self.scene = scene
        self.errors = errors
        self.busy = busy
        # an engine failure: told, the attack and the scan start over
        self.attack = AttackController(document.snapshot, runner=runner,
                                       later=self._next_turn, on_failure=self._engine_failed)
        self.targets = TargetScanner(runner, self._scan_failed)
        follow_attack(self.targets, self.attack)  # before the views that draw the statuses
        self.attack_panel = AttackPanel(self.attack, self.targets)
        self.odds_panel = self.attack_panel.odds  # on the attack card
        self.log_panel = LogPanel()
        self.overlay = AttackOverlay(scene.overlay_layer)
        self._told: set[str] = set()  # problems already told, for the attacker ``_told_for``
        self._told_for: str | None = None
        self.applied = 0
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(0)
        self._preview_timer.timeout.connect(
            errors.guarded("Following the drag", self.reset)(self._apply_preview))
        self._scan_timer = QTimer(self)  # the drag rested: the full reports may follow
        self._scan_timer.setSingleShot(True)
        self._scan_timer.setInterval(SCAN_REST_MS)
        self._scan_timer.timeout.connect(
            errors.guarded("Judging the targets", self.reset)(self.targets.release_reports))
        self._draw_timer = QTimer(self)
        self._draw_timer.setSingleShot(True)
        self._draw_timer.setInterval(0)
        self._draw_timer.timeout.connect(
            errors.guarded("Drawing the attack", self.reset)(self._draw))
        self._finished_for: object = None  # the scan plan scan_finished was emitted for
        # a file opened: the worker builds its battle and geometry once the window rests
        # (``_warm``), which the first attacker's click would wait for
        self._runner = runner
        self._warm_timer = QTimer(self)
        self._warm_timer.setSingleShot(True)
        self._warm_timer.setInterval(WARM_REST_MS)
        self._warm_timer.timeout.connect(errors.guarded("Building the battlefield",
                                                        self.reset)(self._warm))
        self._warming: Ticket | None = None  # the build under way
        self.attack.subscribe(self._view_published)
        self.targets.subscribe(self._attack_changed)
        self.attack_panel.apply_requested.connect(
            errors.guarded("Applying the attack", self.reset)(self.apply))
        self.attack_panel.attacker_combo.activated.connect(self._select_attacker_on_canvas)
        document.replaced.connect(self._opened)
        scene.labels.placed.connect(self._reports_wait)
        scene.labels.placed.connect(self._not_resting)
        # an edit is followed on the next turn: the canvas, the roster and the inspector
        # take it in this one (two thousand models: neither turn is long)
        self._document_timer = QTimer(self)
        self._document_timer.setSingleShot(True)
        self._document_timer.setInterval(0)
        self._document_timer.timeout.connect(
            errors.guarded("Following the battlefield", self.reset)(self._follow_document))
        document.changed.connect(self._document_changed)
        # a bound method, not the guarded closure itself: the document may outlive this
        # flow, and a closure connected to its signal would be held by the connection
        # (out of the collector's sight) and keep the closed window alive
        self._follow_selection = errors.guarded("Following the selection",
                                                self.reset)(self._selection_changed)
        document.selection_changed.connect(self._selection_moved)
        document.preview_changed.connect(self._preview_changed)
        self._undo_index = document.undo_stack.index()
        self._pushing = False
        document.undo_stack.indexChanged.connect(self._undo_moved)
        self.shortcuts = self._make_shortcuts()
        window.installEventFilter(self)
        for view in scene.views():  # Backspace takes back a die before the tool sees it
            view.installEventFilter(self)
        self._selection_changed()

    def _engine_failed(self, where: str, error: Exception) -> None:
        """An engine call of the attack failed: told; the scan starts over (and so does
        the controller, after this)."""
        self.errors.failure(where, error)
        self.targets.reset()

    def _scan_failed(self, where: str, error: Exception) -> None:
        """A piece of the target scan failed: told, and the attack starts over too."""
        self._engine_failed(where, error)
        self.attack.reset()

    def _next_turn(self, work: Callable[[], None]) -> None:
        """The attack's evaluation, once for every change made in this event-loop turn."""
        QTimer.singleShot(0, self, self.errors.guarded("Preparing the attack", self.reset)(work))

    # -- keys ------------------------------------------------------------------------
    def _make_shortcuts(self) -> dict[str, QShortcut]:
        keys: dict[str, tuple[str, Callable[[], None]]] = {
            "Tab": ("next target", lambda: self.cycle_target(1)),
            "Shift+Tab": ("previous target", lambda: self.cycle_target(-1)),
            "R": ("roll", self.roll),
            "Return": ("apply", self.apply),
            "Enter": ("apply", self.apply),
            "Esc": ("clear", self.clear),
        }
        for digit in range(10):
            keys[str(digit)] = (f"die {digit}",
                                lambda d=digit: self.attack_panel.dice.type_digit(d))
        out: dict[str, QShortcut] = {}
        errors_guard = self.errors.guarded("The attack key", self.reset)
        for seq, (_, slot) in keys.items():
            sc = QShortcut(QKeySequence(seq), self.window)
            sc.setContext(Qt.ShortcutContext.WindowShortcut)
            sc.activated.connect(errors_guard(slot))
            out[seq] = sc
        self._keys = {QKeySequence(seq)[0].toCombined() for seq in keys}
        return out

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Before Qt matches an attack key against the shortcuts (ShortcutOverride), a key
        that belongs to the focused widget is left to it: accepting the override makes Qt
        deliver the key to that widget as usual, and the shortcut does not fire. The
        canvas claims its tool's keys itself (``BattlefieldView.event``)."""
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) \
                and _combined(event) in self._keys and self._key_belongs_elsewhere(event):
            event.accept()
            return True
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.key() == Qt.Key.Key_Backspace \
                and event.modifiers() == Qt.KeyboardModifier.NoModifier \
                and self.attack.dice.faces and watched in self.scene.views() \
                and isinstance(getattr(watched, "tool", None), SelectTool):
            # dice entered on the canvas: Backspace takes back the last one (the select
            # tool deletes the selected models with it only when no die is entered;
            # Delete always does; a drawing tool keeps Backspace for its last vertex)
            self.attack.remove_last_die()
            return True
        return False

    def _key_belongs_elsewhere(self, event: QKeyEvent) -> bool:
        """A text input outside the attack panels keeps its keys (Enter, Esc, Tab, digits
        in a list); Tab and Shift+Tab move the focus while there is no attacker."""
        focus = QApplication.focusWidget()
        ours = focus is not None and any(
            p.isAncestorOf(focus) for p in (self.attack_panel, self.odds_panel))
        if isinstance(focus, TEXT_INPUTS) and not ours:
            return True
        return event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) \
            and self.attack.choice.attacker is None

    def panels(self) -> list[tuple[str, QWidget]]:
        """The panels the window docks: the Attack card (with the odds) and the Log."""
        return [("Attack", card_area(self.attack_panel)), ("Log", self.log_panel)]

    def watch_keys_of(self, widget: QWidget) -> None:
        """Also judge the attack keys typed in ``widget`` (a dock that may float: its
        keys do not pass through the main window)."""
        widget.installEventFilter(self)

    # -- actions -----------------------------------------------------------------------
    def show_marks(self, shown: bool) -> None:
        """Show or hide the attack's marks on the canvas (the Ruling mode hides them)."""
        self.overlay.set_enabled(shown)

    def roll(self) -> None:
        self.attack_panel.dice.roll()

    def cycle_target(self, step: int) -> None:
        """Tab (``step`` 1) and Shift+Tab (-1): the next or previous valid target, nearest
        first (none while the verdicts are still being computed)."""
        target = self.targets.next_valid(self.attack.choice.target, step)
        if target is not None:
            self.attack.set_target(target)

    def clear(self) -> None:
        """Esc: cancel the canvas tool's work in progress and forget the attack."""
        tool = getattr(self.scene.views()[0], "tool", None) if self.scene.views() else None
        if tool is not None:
            tool.cancel()
        self.attack.clear()
        self.document.set_selection([])

    def apply(self) -> None:
        """The resolution's state changes as one undoable edit, and a log entry."""
        attack = self.attack
        if not attack.can_apply:
            return
        if attack.scenario is not self.document.scenario:  # a drag preview: the document's
            attack.set_snapshot(self.document.revision_snapshot)
            if not attack.can_apply:
                return
        view, scenario = attack.current_view, attack.scenario
        if view.report is None or view.resolution is None or scenario is None:
            return
        self.applied += 1
        entry = attack_entry(view.report, view.resolution, scenario, view.dice.seed,
                             self.applied)
        new = applied_scenario(scenario, view)
        self._pushing = True
        try:
            self.document.edit(edit_text(scenario, view), new)
        finally:
            self._pushing = False
        self.log_panel.add(entry)
        attack.clear_dice()

    # -- following the document ----------------------------------------------------------
    @property
    def idle(self) -> bool:
        """Nothing left to compute or draw: every answer in, the scan complete (or no
        attacker), every mark drawn."""
        return not self.attack.pending and not self.targets.busy \
            and not self._draw_timer.isActive() \
            and not self._scan_timer.isActive() and not self._preview_timer.isActive() \
            and not self._document_timer.isActive() \
            and not self._warm_timer.isActive() and not self._warming_now \
            and (self.attack.choice.attacker is None or self.targets.scan.complete)

    @property
    def marked(self) -> bool:
        """What the screen shows of the attack is up to date with the document: its view
        (the Attack panel, the odds) published, every enemy's verdict known and its mark
        drawn (or no attacker). The full reports may still be coming (the checks in the
        tooltips, the sight lines to the valid targets: ``idle`` says when they are in)."""
        scan = self.targets.scan
        attacker = self.attack.choice.attacker
        return not self.attack.pending and not self._draw_timer.isActive() \
            and not self._preview_timer.isActive() and not self._document_timer.isActive() \
            and (attacker is None or (scan.verdicts_known and scan.plan is not None
                                      and scan.plan.attacker == attacker
                                      and scan.plan.scenario is self.attack.scenario))

    def reset(self, keep_marks: bool = False) -> None:
        """Start over on the document as it is (after a failure): no attack, no scan
        under way, no marks, nothing kept of before. ``keep_marks``: the marks are hidden
        and kept (``_opened``)."""
        self._scan_timer.stop()
        self._draw_timer.stop()
        self._preview_timer.stop()
        self._document_timer.stop()
        self._warm_timer.stop()
        self._told, self._told_for = set(), None
        self.overlay.clear(keep_marks=keep_marks)
        self.targets.reset()
        self.attack.reset(self.document.snapshot)

    def _opened(self) -> None:
        """Another file opened: started over (``reset``), but the marks of the models
        it has too are kept hidden, to be shown again where the first attacker's enemies
        are drawn the same (a thousand marks made again were a tenth of a second)."""
        self.reset(keep_marks=True)
        self.overlay.forget_marks_but({e.id for e in self.document.scenario.entities})
        self.warm_soon()

    def warm_soon(self) -> None:
        """Have the document's battle and geometry built on the worker once the window
        rests (``_warm``): a file opened, or given on the command line."""
        if not self._runner.synchronous:
            self._warm_timer.start()

    @property
    def _warming_now(self) -> bool:
        return self._warming is not None and not self._warming.cancelled

    def _not_resting(self) -> None:
        """The window worked (labels placed): the build waits for rest again."""
        if self._warm_timer.isActive():
            self._warm_timer.start()

    def _warm(self) -> None:
        """The file opened, at rest and no attacker chosen yet: the worker builds the
        battle and its geometry of the document (as the first attacker's scan would, on
        its click). Not while anything else is under way (the window or the worker
        busy: it waits for rest again), nor when built already."""
        snapshot = self.document.snapshot
        if self.attack.choice.attacker is not None or snapshot.geometry_built:
            return
        if self._warming_now or self.scene.building or self.scene.labels.pending \
                or self.attack.pending or getattr(self._runner, "busy", False):
            self._warm_timer.start()
            return

        def built(outcome: Outcome[object]) -> None:
            # (a failure is not told here: the attack that needs the battle tells it)
            if self._warming is ticket:
                self._warming = None

        ticket = self._runner.submit(lambda: snapshot.geometry is not None, built)
        self._warming = ticket

    def _document_changed(self, change: Change) -> None:
        self._preview_timer.stop()
        self._document_timer.start()

    def _follow_document(self) -> None:
        self._document_timer.stop()
        if self.attack.snapshot is not self.document.snapshot:
            self.attack.set_snapshot(self.document.snapshot)

    def _selection_moved(self) -> None:
        self._follow_selection()

    def _selection_changed(self) -> None:
        """One model selected: an enemy of the attacker becomes the target, else the
        attacker; nothing selected clears the attack."""
        if self._document_timer.isActive():
            self._follow_document()  # a model added and selected in one go
        sel = [i for i in self.document.selection
               if isinstance(self.document.scenario.entity(i), Fighter | Unit)]
        attack = self.attack
        if not self.document.selection:
            if attack.choice.attacker is not None:
                attack.clear()
            return
        if len(sel) != 1:
            return
        picked = attack.model(sel[0])
        attacker = attack.model(attack.choice.attacker)
        if picked is None:
            return
        if attacker is not None and picked.side != attacker.side:
            attack.set_target(picked.id)
        else:
            attack.set_attacker(picked.id)

    def _undo_moved(self, index: int) -> None:
        """Undoing or redoing an applied attack is written in the log too (a new edit
        pushed moves the index as well: only steps back and forth are undo and redo)."""
        stack = self.document.undo_stack
        before, self._undo_index = self._undo_index, index
        if self._pushing or abs(index - before) != 1 or not shiboken6.isValid(stack):
            return  # (the stack clears itself as it is destroyed, at exit)
        cmd = stack.command(min(index, before))
        if cmd is not None and cmd.text().startswith(APPLY_PREFIX):
            verb = "undone" if index < before else "redone"
            self.log_panel.add(f"({verb}: {cmd.text()})")

    def _select_attacker_on_canvas(self) -> None:
        if self.attack.choice.attacker is not None:
            self.document.set_selection([self.attack.choice.attacker])

    def _preview_changed(self) -> None:
        """A drag step (followed on the next turn: steps coalesce), or the drag's preview
        ended without an edit (cancelled): the document as it is."""
        if self.document.previewing:
            self._preview_timer.start()
        else:
            self._preview_timer.stop()
            self._document_timer.start()

    def _apply_preview(self) -> None:
        """The attack on the drag's preview snapshot (the dragged models as the drag
        shows them, position and facing; before the edit is pushed on release)."""
        self._preview_timer.stop()
        if not self.document.previewing or self.attack.snapshot is self.document.snapshot:
            return
        self.targets.hold()  # until the drag rests
        self._scan_timer.start()
        self.attack.set_snapshot(self.document.snapshot)

    def _view_published(self, view: AttackView) -> None:
        self._attack_changed()

    def _attack_changed(self) -> None:
        """A view was published, or more statuses came: the marks are drawn again (in
        slices). The scanner keeps the target scan going on the worker: every enemy's
        verdict first, then the full reports (sight lines, every check in the tooltips),
        which wait until a drag rests."""
        self._draw()
        self._tell_problems()
        scan = self.targets.scan
        if self.attack.choice.attacker is not None and scan.complete \
                and self._finished_for is not scan.plan:
            self._finished_for = scan.plan
            self.attack_panel.refresh_targets()
            self.scan_finished.emit()
        self._show_progress()

    def _draw(self) -> None:
        """The overlays of the attack, one slice per event-loop turn until all drawn; the
        full reports wait meanwhile (the marks of the verdicts first)."""
        if self.overlay.update(self.attack.current_view, self.attack.scenario, self.targets,
                               budget_s=OVERLAY_SLICE_S):
            self._draw_timer.stop()
            self._reports_wait()
        else:
            self.targets.pause(True)
            self._draw_timer.start()
        self._show_progress()

    def _reports_wait(self) -> None:
        """The full reports wait while the canvas draws the marks or places the labels
        (two thousand of them after an edit), and while the attack's own view is being
        answered (the Attack panel and the odds follow it): the worker would take the
        interpreter lock from the event loop half the time; the verdicts go on
        meanwhile."""
        self.targets.pause(self._draw_timer.isActive() or self.scene.labels.pending
                           or self.attack.pending)

    def _show_progress(self) -> None:
        scan = self.targets.scan
        attacker = self.attack.model(self.attack.choice.attacker)
        if attacker is None or (scan.complete and not self.attack.pending):
            self.busy.finish("targets")
        else:
            done, total = scan.progress()
            what = "Judging the targets of" if not scan.verdicts_known \
                else "Checking the targets of"
            self.busy.report("targets", f"{what} {attacker.name}", done, total)
        if self._draw_timer.isActive():
            done, total = self.overlay.progress
            self.busy.report("marks", "Drawing the target marks", done, total)
        else:
            self.busy.finish("marks")

    def _tell_problems(self) -> None:
        """Tell what went wrong judging the targets or drawing the overlays, each problem
        once while the attacker stays (a drag step finds the same problems again)."""
        attacker = self.attack.choice.attacker
        if attacker != self._told_for:
            self._told, self._told_for = set(), attacker
        for notice in [*self.targets.problems(), *self.overlay.problems]:
            if notice.message not in self._told:
                self._told.add(notice.message)
                self.errors.tell(notice)


