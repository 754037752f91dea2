"""Canvas overlays of the attack being prepared, hung on the scene's overlay layer.

For the selected attacker and weapon: the range band (minimum to maximum, from the base
edge, at the attacker's own level), the 1" engagement zone, every enemy marked valid
(green ring and check) or invalid (orange dashed ring and cross) with the reasons as
hover tooltip, sight lines to valid targets (solid when clear, dashed in cover, the
covering terrain highlighted), the arcs of the selected target when it is a rank-and-file
unit, and on a grid the spaces within range and the enemies' Zones of Control.
The colours are Okabe-Ito (colour-blind safe) and every mark has a shape besides colour.
Overlay items accept no mouse buttons: clicks reach the models below.

``AttackOverlay.update(view, scenario, targets)`` draws the view the attack controller
published (``AttackView``: the choice, the report, the ruleset's shapes) on its scenario
with the target scanner's statuses. It may be given a time budget: it then builds what fits and says
whether everything is drawn; what is left (a thousand marks for a large battlefield) is
drawn by the next calls, the marks already drawn staying as they were until then.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from typing import Any

import shapely
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsSceneHoverEvent,
)

from tabletop_gui.geometry import outline
from tabletop_gui.geometry.board import Footprint
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.model.attack_view import NO_CHOICE, AttackChoice, AttackView
from tabletop_gui.model.notices import Notice
from tabletop_gui.model.target_scan import TargetScan, TargetStatus
from tabletop_gui.model.target_scanner import TargetScanner
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import OverlayShape
from tabletop_gui.rules.fields import RangeSpec
from tabletop_gui.scenario.battle import body_of
from tabletop_gui.scenario.entities import Fighter, Model, Scenario
from tabletop_gui.ui import mark_sprites
from tabletop_gui.ui.canvas.coords import INCH, to_scene
from tabletop_gui.ui.overlay_shapes import (
    RangeProblem,
    cell_polygon,
    check_glyph,
    cross_glyph,
    line_path,
    model_polygon,
    qpath,
    range_band,
    shape_path,
    weapon_range,
)

VALID = QColor("#009E73")  # bluish green
INVALID = QColor("#D55E00")  # vermillion
BAND = QColor("#56B4E9")  # sky blue
ENGAGE = QColor("#E69F00")  # orange
SIGHT_CLEAR = QColor("#0072B2")  # blue
SIGHT_COVER = QColor("#E69F00")  # orange
COVER_TERRAIN = QColor("#CC79A7")  # reddish purple
ZOC = QColor("#CC79A7")
ARC = QColor("#000000")
# the pen of each kind of shape a ruleset asks for (others: a thin black line)
SHAPE_PENS = {"arc_line": (ARC, Qt.PenStyle.DashDotLine)}
RING_GAP_IN = 0.12
HALO_MARGIN = 0.5 * INCH  # cosmetic halo pens stay inside the repainted area
MARK_CACHE = 4000  # marker paths kept (per base shape, size, facing and validity)


def _cosmetic(color: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(color, width)
    pen.setCosmetic(True)
    pen.setStyle(style)
    return pen


class OverlayItem(QGraphicsPathItem):
    """One overlay shape; ``kind`` and ``key`` say what it shows (tests and tooltips)."""

    def __init__(self, kind: str, key: str, path: QPainterPath, pen: QPen,
                 brush: QBrush | None = None, tooltip: str = "",
                 parent: QGraphicsItem | None = None, clear_count: int = 0,
                 total: int = 0) -> None:
        super().__init__(path, parent)
        self.kind = kind
        self.key = key
        self.clear_count = clear_count  # a ruling's sight line: heights clear of ``total``
        self.total = total
        self.setPen(pen)
        if brush is not None:  # a path item has no brush of its own
            self.setBrush(brush)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        if tooltip:
            self.setToolTip(tooltip)


_MARK_PENS: dict[bool, QPen] = {}


def _mark_pen(valid: bool) -> QPen:
    """The pen of a valid (solid) or invalid (dashed) mark, made once."""
    pen = _MARK_PENS.get(valid)
    if pen is None:
        pen = _MARK_PENS[valid] = _cosmetic(
            VALID if valid else INVALID, 3.0,
            Qt.PenStyle.SolidLine if valid else Qt.PenStyle.DashLine)
    return pen


class TargetMarker(OverlayItem):
    """An enemy marked valid (solid ring + check) or invalid (dashed ring + cross).

    Its path never changes (a new mark is a new item). It draws nothing itself: it hangs
    on the overlay's ``mark_sprites.MarksLayer``, which blits the marks of the same base
    shape and validity from one picture, all in one paint call; the item is there to be
    found under the pointer (its reasons as tooltip) and to say what it shows. The
    tooltip and reasons follow the status in place (``show``)."""

    def __init__(self, status: TargetStatus, shape: tuple[object, QPainterPath],
                 at: QPointF, model: Model | None = None,
                 layer: mark_sprites.MarksLayer | None = None) -> None:
        path = shape[1].translated(at)
        super().__init__("target", status.target, path, _mark_pen(status.valid))
        self.sprite_key, self.mark_path = shape  # (key, path around the origin)
        self.at = at  # where the origin goes
        self.shown = True
        m = HALO_MARGIN
        box = path.boundingRect().adjusted(-m, -m, m, m)
        self.area = (box.left(), box.top(), box.right(), box.bottom())
        self._outline = path  # what the pointer finds: the ring and what it surrounds
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)
        self.setAcceptHoverEvents(True)
        self.valid = status.valid
        self.status = status
        self.model = model  # the enemy's value it was drawn for
        self._hovered = False
        self._layer = layer  # the layer it hangs on, which draws it
        if layer is not None:
            self.setParentItem(layer)

    def setVisible(self, visible: bool) -> None:  # noqa: N802 - Qt name
        """Shown or hidden, its layer repaints it."""
        self.set_shown(visible)

    def set_shown(self, visible: bool) -> None:
        """``setVisible`` without the Python override's dispatch (a thousand marks shown
        or hidden at once: 7 µs a mark through the override, under 2 here)."""
        if visible != self.shown:
            self.shown = visible
            if self._layer is not None:
                self._layer.changed(self)
        QGraphicsItem.setVisible(self, visible)

    def shape(self) -> QPainterPath:
        """The ring's path itself: Qt would stroke it with the pen (0.3 ms a mark, the
        first time the pointer looks for an item among a thousand marks)."""
        return self._outline

    def show(self, status: TargetStatus) -> None:
        """Follow a newer status of the same validity (the drawing stays); its tooltip
        is written when the pointer comes over the mark, not on every drag step."""
        self.status = status
        if self._hovered:
            QGraphicsItem.setToolTip(self, status.tooltip)

    @property
    def reasons(self) -> tuple[str, ...]:
        return self.status.reasons

    def toolTip(self) -> str:  # noqa: N802 - Qt name
        return self.status.tooltip

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent) -> None:  # noqa: N802
        self._hovered = True
        QGraphicsItem.setToolTip(self, self.status.tooltip)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:  # noqa: N802
        self._hovered = False
        super().hoverLeaveEvent(event)


class AttackOverlay:
    """Builds the overlay items of an attack (``update``) under a parent item (the layer).

    Items are grouped (the attacker's zones, one group per enemy, the target's arcs) and a
    group is rebuilt only when what it shows changed, so a scan that reports a few more
    enemies, or a drag of one model, touches only their items."""

    def __init__(self, layer: QGraphicsItem) -> None:
        self.layer = layer
        self.marks = mark_sprites.MarksLayer(layer)  # draws every target mark
        self.enabled = True
        # "attacker", "grid", "ruleset", ("target", enemy id), ("sight", enemy id)
        self._groups: dict[object, tuple[object, list[OverlayItem]]] = {}
        # per enemy, what its marks were drawn for: (status, enemy, is the target,
        # geometry, has a sight line, its marker); an enemy whose values are the very same
        # is skipped, one judged again with the same verdict keeps its mark
        self._seen: dict[str, tuple[TargetStatus, Model | None, bool, object, bool,
                                    TargetMarker | None]] = {}
        self._context: tuple[object, ...] | None = None  # what the last update showed
        self._shown_on: Scenario | None = None  # the scenario the last update drew on
        self._sighted: set[str] = set()  # the enemies with a sight line group
        self._target_shown: str | None = None
        self._version = 0  # of the scan the last update showed
        self._left: set[str] = set()  # enemies the last update left to draw
        self._geometry: BoardGeometry | None = None
        self._scenario: Scenario | None = None  # what the update under way draws on
        self._choice: AttackChoice = NO_CHOICE  # and the attack it draws
        self._building: list[OverlayItem] = []
        self._marks: dict[tuple[Footprint, bool], QPainterPath] = {}
        # the same by a fighter's base, facing and validity (no body made to find it)
        self._quick_marks: dict[tuple[object, float, bool],
                                tuple[tuple[Footprint, bool], QPainterPath]] = {}
        self._zones: tuple[object, QPainterPath | None, QPainterPath | None] | None = None
        self._ring: tuple[object, QPainterPath] | None = None  # ``_target_ring``'s, kept
        self._zones_at = (0.0, 0.0)  # where the attacker stood when its zones were built
        self._zones_to = (0.0, 0.0)  # and where they were last moved with it
        self._spare: dict[tuple[str, bool], tuple[Model | None, TargetMarker]] = {}
        # the statuses the marks kept aside held before they were shown again (``_kept``):
        # let go at the first update after every mark is drawn, not as they are shown (a
        # thousand full reports freed on the way to the screen: ~10 ms of the next click)
        self._let_go: list[TargetStatus] = []
        self.problems: list[Notice] = []  # what the last update could not draw, and why
        self._deadline: float | None = None  # perf_counter() past which nothing is built
        self._later = 0  # groups the last update left to build
        self.progress = (0, 0)  # (groups drawn, groups wanted) by the last update

    @property
    def items(self) -> list[OverlayItem]:
        return [i for _, items in self._groups.values() for i in items]

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        for item in self.items:
            item.setVisible(enabled)

    def of_kind(self, kind: str) -> list[OverlayItem]:
        """``items`` of that kind, in their order (one pass over the groups: a thousand
        marks are not listed first)."""
        return [i for _, items in self._groups.values() for i in items if i.kind == kind]

    def marker(self, target: str) -> TargetMarker | None:
        """The mark shown on ``target`` (in its group: not looked for among every item)."""
        group = self._groups.get(("target", target))
        return None if group is None else next(
            (i for i in group[1] if isinstance(i, TargetMarker)), None)

    def clear(self, keep_marks: bool = False) -> None:
        """Draw nothing. ``keep_marks``: the enemies' marks are hidden, kept for the next
        attacker on the same battlefield (its enemies' marks shown again, not made again:
        a thousand of them are a tenth of a second)."""
        self._seen = {}
        self._context = None
        self._shown_on = None
        self._left = set()
        for name in list(self._groups):
            self._drop(name)
        if keep_marks:
            return
        for _, item in self._spare.values():
            self._remove(item)
        self._spare.clear()

    def forget_marks_but(self, ids: set[str] | frozenset[str]) -> None:
        """Remove the hidden marks kept for enemies whose ids are not in ``ids`` (the
        models of a document just opened): no other may be shown again. The others keep
        their verdict only: the statuses of the file before (facts, reports) are freed
        now, not a thousand of them on the first click that shows the marks again (a
        mark is shown again with its new status, ``show``)."""
        for key in [k for k in self._spare if k[0] not in ids]:
            self._remove(self._spare.pop(key)[1])
        for (t, valid), (_, marker) in self._spare.items():
            marker.status = TargetStatus(t, valid, (), None, None, stale=True)

    def _drop(self, name: object) -> None:
        _, items = self._groups.pop(name)
        if isinstance(name, tuple) and name[0] == "sight":
            self._sighted.discard(name[1])
        for item in items:
            if isinstance(item, TargetMarker):
                self._set_aside(item)
            else:
                self._remove(item)

    def _remove(self, item: QGraphicsItem) -> None:
        scene = self.layer.scene()
        if scene is not None:
            scene.removeItem(item)
        else:
            item.setParentItem(None)

    def _set_aside(self, marker: TargetMarker) -> None:
        """Hide a mark that flipped, with its drawing cached: a drag that moves a target
        back and forth across a limit shows it again instead of drawing a new one."""
        key = (marker.key, marker.valid)
        old = self._spare.get(key)
        if old is not None and old[1] is not marker:
            self._remove(old[1])
        marker.set_shown(False)
        self._spare[key] = (marker.model, marker)

    def _add(self, item: OverlayItem) -> None:
        if isinstance(item, TargetMarker):
            item.set_shown(self.enabled)
        else:
            item.setVisible(self.enabled)
        self._building.append(item)

    def _group(self, name: object, key: object, build: Callable[[], None]) -> bool:
        """Keep the group when its key is unchanged, else rebuild it with ``build``;
        True when rebuilt. Past the deadline a group is not rebuilt: it is left as it
        is (counted in ``_later``) for the next update."""
        old = self._groups.get(name)
        if old is not None and old[0] == key:
            return False
        if self._past_deadline():
            self._later += 1
            return False
        if old is not None:
            self._drop(name)
        self._building = []
        build()
        self._groups[name] = (key, self._building)
        self._building = []
        if isinstance(name, tuple) and name[0] == "sight":
            self._sighted.add(name[1])
        return True

    def _past_deadline(self) -> bool:
        return self._deadline is not None and time.perf_counter() > self._deadline

    # -- building ----------------------------------------------------------------------
    def update(self, view: AttackView, scenario: Scenario | None, targets: TargetScanner,
               budget_s: float | None = None) -> bool:
        """Show ``view`` (of the attack chosen on ``scenario``) and the enemies ``targets``
        has judged so far (with a synchronous runner, every one). With ``budget_s``, stop
        building after that long: False when something is left to draw (call again)."""
        self._deadline = None if budget_s is None else time.perf_counter() + budget_s
        self._later = 0
        if self._let_go and self.progress[0] == self.progress[1]:
            self._let_go = []  # the update before drew every mark
        self._scenario, self._choice = scenario, view.choice
        if budget_s is not None:  # drawn over several calls, maybe: repainted once
            self.marks.hold(True)
        try:
            self._update(view, targets)
        finally:
            self._deadline = None
        later = self._later + len(self._left)
        self.progress = (len(self._groups), len(self._groups) + later)
        self.marks.hold(later > 0)  # all drawn: repainted now
        return later == 0

    def _model(self, model_id: str | None) -> Model | None:
        scenario = self._scenario
        return scenario.model(model_id) if scenario is not None and model_id else None

    def _update(self, view: AttackView, targets: TargetScanner) -> None:
        attacker = self._model(self._choice.attacker)
        self.problems = []
        if attacker is None or self._scenario is None:
            self.clear(keep_marks=self._scenario is not None)
            return
        info = registry.info(self._scenario.ruleset)
        weapon = view.report.weapon if view.report is not None else self._choice.weapon
        try:
            rng = weapon_range(info, attacker, weapon)
        except RangeProblem as e:  # the rest is drawn; the problem is told (``problems``)
            rng = None
            self.problems = [Notice(str(e))]
        scan = targets.scan
        geometry = scan.geometry  # of the scanned scenario (the worker built it)
        self._geometry = geometry
        grid = geometry.grid if geometry is not None else None
        zone_in = info.engagement_zone if grid is None else None  # the ruleset's, in inches
        # the zones do not depend on where the attacker stands: a drag step moves them
        if self._group("attacker", (attacker.moved_to(0.0, 0.0), weapon, rng, zone_in),
                       lambda: self._attacker_zones(attacker, rng, weapon, zone_in)):
            self._zones_at = self._zones_to = (attacker.x, attacker.y)
        elif "attacker" in self._groups and (attacker.x, attacker.y) != self._zones_to:
            # moved from where they were drawn (back there too: a drag cancelled)
            self._zones_to = (attacker.x, attacker.y)
            shift = to_scene(attacker.x - self._zones_at[0], attacker.y - self._zones_at[1])
            for item in self._groups["attacker"][1]:
                item.setPos(shift)
        # only the enemies whose statuses changed since the last update, when nothing
        # else did (the scan's next piece, another target); else every enemy
        context = (scan, scan.plan, attacker, weapon, rng, geometry)
        changed = self._changes(context)
        self._shown_on = self._scenario
        target = self._choice.target
        if changed is not None and target != self._target_shown:
            changed |= {t for t in (target, self._target_shown) if t is not None}
        self._context, self._version = context, scan.version
        self._target_shown = target
        if changed is None or grid is not None:
            self._every_enemy(targets.statuses(), attacker, geometry, rng, grid is not None)
        else:
            self._changed_enemies(changed | self._left, scan, attacker, geometry, target)
        shapes = view.overlays
        if shapes:
            self._group("ruleset", shapes, lambda: self._ruleset_shapes(shapes))
        elif "ruleset" in self._groups:
            self._drop("ruleset")

    def _changed_enemies(self, todo: set[str], scan: TargetScan, attacker: Model,
                         geometry: BoardGeometry | None, target: str | None) -> None:
        """The marks (and sight lines) of the enemies ``todo`` whose statuses changed, as
        far as the deadline allows (the others are left for the next update)."""
        self._left = set()
        left = iter(todo)
        # the lookups without a call each (a drag step walks a thousand enemies, twice):
        # an enemy's entity is its model when it is the model drawn (``Scenario.model``)
        seen, status_of = self._seen, scan.lookup()
        by_id: Mapping[str, object] = self._scenario.by_id if self._scenario is not None \
            else {}
        entity = by_id.get
        spares = self._spare
        deadline, clock = self._deadline, time.perf_counter
        for t in left:  # (``_past_deadline`` inline)
            if deadline is not None and clock() > deadline:  # the rest for the next
                self._left.add(t)  # update, as they are (not one by one: a thousand
                self._left.update(left)  # marks drawn in slices walked what was left
                break  # every slice)
            status = status_of(t)
            if status is None:
                continue
            before = seen.get(t)
            # what ``_enemy`` does for a stale status of the verdict drawn (the same
            # enemy value: its mark stays, a sight line goes), without its calls: a
            # drag step's thousand stale copies, then its thousand verdicts
            if before is not None and status.stale and before[5] is not None \
                    and before[0].valid == status.valid \
                    and before[2] == (t == target) and before[1] is not None \
                    and before[1] is entity(t):
                if before[4] and ("sight", t) in self._groups:
                    self._drop(("sight", t))
                before[5].show(status)
                seen[t] = (status, before[1], before[2], geometry, False, before[5])
            elif before is None and status.stale and t != target \
                    and (t, status.valid) in spares \
                    and self._kept(status, entity(t), False, geometry):  # type: ignore[arg-type]
                continue  # its mark kept aside shown again (the next attacker's enemies),
                # as ``_enemy`` would (``_again`` does nothing without a mark drawn)
            elif not self._enemy(status, attacker, geometry):
                self._left.add(t)

    def _changes(self, context: tuple[Any, ...]) -> set[str] | None:
        """The enemies whose marks or sight lines may show something else than the last
        update drew: those whose statuses changed since, when nothing else did; None
        when every enemy is to be looked at again. A drag step (the scan started again
        for the same choice and enemies on the next scenario value) adds the models it
        moved, and, when the attacker moved or the geometry is another, the enemies
        with a sight line: the others' marks stay as they are (``_every_enemy`` would
        skip them one by one: a thousand enemies of a dragged model are ~10 ms)."""
        scan = context[0]
        before = self._context
        if before == context:
            return scan.changed_since(self._version)
        scenario, drawn_on = self._scenario, self._shown_on
        if before is None or before[0] is not scan or before[3:5] != context[3:5] \
                or scenario is None or drawn_on is None:
            return None
        plan, plan_before = context[1], before[1]
        if plan is None or plan_before is None or plan.key != plan_before.key \
                or (plan.enemies is not plan_before.enemies
                    and plan.enemies != plan_before.enemies):
            return None
        changes = scan.changes_since(self._version)
        moved = scenario.models_changed_from(drawn_on) if scenario is not drawn_on else []
        if changes is None or moved is None:
            return None
        changed, restaled = changes
        moved_ids = {m.id for pair in moved for m in pair}
        changed |= moved_ids
        if before[2] is not context[2] or before[5] is not context[5]:
            changed |= self._sighted
        if restaled:
            # the statuses only copied stale since (drawn as the scan had them: judged
            # since, they would not be), of enemies that did not move and have no sight
            # line: their marks and tooltips stay as they are, with the status they were
            # drawn for (a drag step does not walk its thousand enemies for nothing; the
            # ones left to draw are drawn all the same, ``_update``)
            changed -= restaled - moved_ids - self._sighted
        return changed

    def _every_enemy(self, statuses: list[TargetStatus], attacker: Model,
                     geometry: BoardGeometry | None, rng: RangeSpec | int | None,
                     grid: bool) -> None:
        wanted: set[object] = {"attacker", "ruleset"}
        scenario = self._scenario
        assert scenario is not None
        if grid and geometry is not None:
            wanted.add("grid")
            enemies = tuple(self._model(s.target) for s in statuses)
            self._group("grid", (attacker, rng, enemies, scenario.battlefield, geometry),
                        lambda: self._grid(geometry, rng if isinstance(rng, int) else None,
                                           statuses))
        self._left = set()
        seen, self._seen = self._seen, {}
        now = self._seen
        model, target = scenario.model, self._choice.target
        for status in statuses:
            t = status.target
            enemy = model(t)
            chosen = t == target
            before = seen.get(t)
            if before is not None and before[1] is enemy and before[2] == chosen:
                if before[0] is status and (before[3] is geometry or not before[4]):
                    now[t] = before  # nothing changed since it was drawn
                    continue
                marker = before[5]
                if not before[4] and marker is not None and status.stale \
                        and before[0].valid == status.valid:
                    marker.show(status)  # judged again, the same (``_again``)
                    now[t] = (status, enemy, chosen, geometry, False, marker)
                    continue
            if not self._again(before, status, enemy, chosen, geometry) and (
                    self._past_deadline()
                    or not self._enemy(status, attacker, geometry)):
                self._left.add(t)  # for the next update
        wanted.update([("target", s.target) for s in statuses])
        wanted.update([("sight", t) for t, drawn in now.items() if drawn[4]])
        for name in [n for n in self._groups if n not in wanted]:
            self._drop(name)

    def _again(self, before: tuple[Any, ...] | None, status: TargetStatus,
               enemy: Model | None, chosen: bool, geometry: object) -> bool:
        """A verdict again, the same as the one drawn (a new scenario value, the enemy
        where it was, no sight line either way): the mark stays, it takes the status."""
        if before is None or before[1] is not enemy or before[2] != chosen or before[4] \
                or before[5] is None or not status.stale or before[0].valid != status.valid:
            return False
        before[5].show(status)
        self._seen[status.target] = (status, enemy, chosen, geometry, False, before[5])
        return True

    def _enemy(self, status: TargetStatus, attacker: Model,
               geometry: BoardGeometry | None) -> bool:
        """The mark (and sight line) of one enemy; False when left for a later update."""
        t = status.target
        enemy = self._model(t)
        chosen = t == self._choice.target
        if self._again(self._seen.get(t), status, enemy, chosen, geometry):
            return True
        if self._kept(status, enemy, chosen, geometry):
            return True
        drawn = True
        if not self._group(("target", t), (status.valid, enemy, chosen),
                           lambda: self._target(status)):
            if ("target", t) in self._groups:
                for item in self._groups[("target", t)][1]:
                    if isinstance(item, TargetMarker):
                        item.show(status)
            else:
                drawn = False
        sight = status.valid and not status.stale and status.facts is not None \
            and status.facts.visible and geometry is not None
        if sight:
            key = (status, attacker, enemy, geometry)
            self._group(("sight", t), key, lambda: self._sight_line(status))
            drawn = drawn and self._groups.get(("sight", t), (None,))[0] == key
        elif ("sight", t) in self._groups:
            self._drop(("sight", t))
        if drawn:
            marker = next((i for i in self._groups[("target", t)][1]
                           if isinstance(i, TargetMarker)), None)
            self._seen[t] = (status, enemy, chosen, geometry, sight, marker)
        else:
            self._seen.pop(t, None)
        return drawn

    def _kept(self, status: TargetStatus, enemy: Model | None, chosen: bool,
              geometry: object) -> bool:
        """What ``_enemy`` does for a verdict (no sight line) whose mark was hidden for
        the same enemy value and verdict (``clear(keep_marks=True)``), or for a value
        drawn the same (``_drawn_as``: a file opened again): the mark shown again, in one
        step (the next attacker's thousand enemies, most of them marked as
        they were: a third of the work of the general way). False, and nothing done,
        for any other case."""
        t = status.target
        name = ("target", t)
        if not status.stale or chosen or name in self._groups:
            return False
        spare = self._spare.get((t, status.valid))
        if spare is None or enemy is None or self._past_deadline() or (
                spare[0] is not enemy and not self._drawn_as(spare[1], enemy)):
            return False
        del self._spare[(t, status.valid)]
        marker = spare[1]
        self._let_go.append(marker.status)
        marker.model = enemy
        marker.show(status)
        marker.set_shown(self.enabled)
        self._groups[name] = ((status.valid, enemy, chosen), [marker])
        if ("sight", t) in self._groups:
            self._drop(("sight", t))
        self._seen[t] = (status, enemy, chosen, geometry, False, marker)
        return True

    def _attacker_zones(self, attacker: Model, rng: RangeSpec | int | None,
                        weapon: str | None, zone_in: float | None) -> None:
        band, zone = self._zone_paths(attacker, rng, zone_in)
        if isinstance(rng, RangeSpec) and band is not None:
            self._range_band(band, rng, weapon)
        if zone is not None:
            self._add(OverlayItem("engagement", attacker.id, zone,
                                  _cosmetic(ENGAGE, 1.5, Qt.PenStyle.DotLine),
                                  tooltip=f'{zone_in:g}" engagement zone', parent=self.layer))
        for item in self._building:  # drawn once, then moved along with the attacker
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def _zone_paths(self, attacker: Model, rng: RangeSpec | int | None,
                    zone_in: float | None
                    ) -> tuple[QPainterPath | None, QPainterPath | None]:
        """Range band and engagement zone as painter paths: built around the base at the
        origin once per base, range and facing, then moved (a drag step only translates;
        the next attacker of the same base and facing, a click among a thousand, too)."""
        at_origin = attacker.moved_to(0.0, 0.0)
        # a fighter's outline is its base turned by its facing (``body_of``)
        shape = (attacker.base, attacker.facing) if isinstance(attacker, Fighter) \
            else at_origin
        key = (shape, rng, zone_in)
        if self._zones is None or self._zones[0] != key:
            outline = model_polygon(at_origin)
            band = qpath(range_band(outline, rng)) if isinstance(rng, RangeSpec) else None
            zone = (qpath(outline.buffer(zone_in, quad_segs=32)) if zone_in is not None
                    else None)
            self._zones = (key, band, zone)
        _, band, zone = self._zones
        offset = to_scene(attacker.x, attacker.y)
        return (band.translated(offset) if band is not None else None,
                zone.translated(offset) if zone is not None else None)

    def _ruleset_shapes(self, shapes: tuple[OverlayShape, ...]) -> None:
        """The shapes the ruleset wants drawn for the attack (``AttackView.overlays``),
        each in the pen of its kind."""
        for shape in shapes:
            color, style = SHAPE_PENS.get(shape.kind, (ARC, Qt.PenStyle.SolidLine))
            self._add(OverlayItem(shape.kind, shape.kind, shape_path(shape),
                                  _cosmetic(color, 1.5, style), tooltip=shape.tooltip,
                                  parent=self.layer))

    def _range_band(self, band: QPainterPath, rng: RangeSpec, weapon: str | None) -> None:
        brush = QBrush(QColor(BAND.red(), BAND.green(), BAND.blue(), 45))
        lo = f'{rng.minimum:g}" to ' if rng.minimum else ""
        tip = (f"range of {weapon or 'the weapon'}: {lo}{rng.maximum:g}\" from the base "
               "edge, drawn at the attacker's level (targets use the 3D distance)")
        self._add(OverlayItem("range", "band", band,
                              _cosmetic(BAND.darker(130), 1.5, Qt.PenStyle.DashLine), brush,
                              tip, parent=self.layer))

    def _target(self, status: TargetStatus) -> None:
        enemy = self._model(status.target)
        if enemy is None:
            return
        spare = self._spare.pop((status.target, status.valid), None)
        if spare is not None and (spare[0] is enemy or self._drawn_as(spare[1], enemy)):
            spare[1].model = enemy
            spare[1].show(status)
            self._add(spare[1])
        else:
            if spare is not None:
                self._remove(spare[1])
            marker = TargetMarker(status, self._mark_shape(enemy, status.valid),
                                  to_scene(enemy.x, enemy.y), model=enemy,
                                  layer=self.marks)
            self._add(marker)
        if status.target == self._choice.target:
            sel = OverlayItem("selected_target", status.target, self._target_ring(enemy),
                              _cosmetic(VALID if status.valid else INVALID, 1.0),
                              tooltip="the target", parent=self.layer)
            sel.setZValue(mark_sprites.Z_MARKS + 1.0)  # over its mark's white halo
            self._add(sel)

    def _drawn_as(self, marker: TargetMarker, enemy: Model) -> bool:
        """``marker`` draws what a new mark of ``enemy`` (of its validity) would: the
        same picture at the very same place (an enemy of another value, a file opened
        again, whose mark need not be made again)."""
        drawn = marker.model
        if isinstance(drawn, Fighter) and isinstance(enemy, Fighter):
            # (what ``_mark_shape`` draws a fighter's mark by, and where it goes; a
            # thousand enemies of a file opened again: no point made, no shape looked up)
            return drawn.x == enemy.x and drawn.y == enemy.y \
                and drawn.facing == enemy.facing and drawn.base == enemy.base
        at = to_scene(enemy.x, enemy.y)
        return marker.at.x() == at.x() and marker.at.y() == at.y() \
            and marker.sprite_key == self._mark_shape(enemy, marker.valid)[0]

    def _target_ring(self, enemy: Model) -> QPainterPath:
        """The ring around the chosen target's base: built around the base at the origin
        once per base and facing (a unit: per value but for its place), then moved to
        the target (a move or drag step of the target only translates it)."""
        at_origin = enemy.moved_to(0.0, 0.0)
        shape = (enemy.base, enemy.facing) if isinstance(enemy, Fighter) else at_origin
        if self._ring is None or self._ring[0] != shape:
            ring = model_polygon(at_origin).buffer(RING_GAP_IN * 2.5, quad_segs=24)
            self._ring = (shape, qpath(ring))
        return self._ring[1].translated(to_scene(enemy.x, enemy.y))

    def _mark_shape(self, enemy: Model, valid: bool) -> tuple[object, QPainterPath]:
        """Ring and glyph around an enemy's base: drawn once per base shape, size, facing
        and validity around the origin, then moved to the enemy (a board of 2,000 models
        has a handful of different bases); with the key they are known by."""
        # a fighter's footprint at the origin is its base turned by its facing
        quick = (enemy.base, enemy.facing, valid) if isinstance(enemy, Fighter) else None
        found = self._quick_marks.get(quick) if quick is not None else None
        if found is not None:
            return found
        footprint = body_of(enemy).footprint
        key = (dataclasses.replace(footprint, x=0.0, y=0.0), valid)
        path = self._marks.get(key)
        if path is None:
            ring = outline.polygon(key[0], segments=64).buffer(RING_GAP_IN, quad_segs=24)
            path = qpath(ring)
            minx, _, _, maxy = ring.bounds
            glyph_at = to_scene(minx, maxy) + QPointF(-0.05 * INCH, -0.05 * INCH)
            size = 0.35 * INCH
            path.addPath(check_glyph(glyph_at, size) if valid else cross_glyph(glyph_at, size))
            if len(self._marks) > MARK_CACHE:
                self._marks.clear()
            self._marks[key] = path
        if quick is not None:
            if len(self._quick_marks) > MARK_CACHE:
                self._quick_marks.clear()
            self._quick_marks[quick] = (key, path)
        return key, path

    def _sight_line(self, status: TargetStatus) -> None:
        attacker = self._model(self._choice.attacker)
        facts = status.facts
        if attacker is None or facts is None:
            return
        m = self._geometry.measure(attacker.id, status.target) if self._geometry else None
        if m is None:
            return
        covered = facts.cover != "none"
        style = Qt.PenStyle.DashLine if covered else Qt.PenStyle.SolidLine
        color = SIGHT_COVER if covered else SIGHT_CLEAR
        why = next((m.why for m in status.report.modifiers if m.name == "cover"), "") \
            if status.report is not None else ""
        tip = (f"in {facts.cover} cover" + (f": {why}" if why else "")) if covered \
            else "clear line of sight"
        self._add(OverlayItem("sight", status.target, line_path(m.point_a, m.point_b),
                              _cosmetic(color, 2.0, style), tooltip=tip, parent=self.layer))
        if covered and self._scenario is not None:
            for terrain_id in facts.cover_by:
                terrain = self._scenario.entity(terrain_id)
                polygon = getattr(terrain, "polygon", None)
                if not polygon:
                    continue
                shape = qpath(shapely.Polygon(polygon))
                brush = QBrush(COVER_TERRAIN, Qt.BrushStyle.BDiagPattern)
                self._add(OverlayItem("cover_terrain", terrain_id, shape,
                                      _cosmetic(COVER_TERRAIN, 3.0), brush,
                                      f"gives cover to {status.target}", parent=self.layer))

    def _grid(self, geometry: BoardGeometry, spaces: int | None,
              statuses: list[TargetStatus]) -> None:
        grid = geometry.grid
        board_grid = geometry.board.grid
        attacker = self._choice.attacker
        if grid is None or board_grid is None or attacker is None:
            return
        own = geometry.space_of(attacker)
        table = shapely.box(0.0, 0.0, geometry.board.width, geometry.board.depth)
        if spaces is not None:
            cells = [c for c in _spaces_near(grid, own, spaces) if c != own]
            area = shapely.unary_union([cell_polygon(board_grid, grid.centre(c))
                                        for c in cells]).intersection(table)
            brush = QBrush(QColor(BAND.red(), BAND.green(), BAND.blue(), 45))
            self._add(OverlayItem("range", "spaces", qpath(area),
                                  _cosmetic(BAND.darker(130), 1.5, Qt.PenStyle.DashLine), brush,
                                  f"within range: {spaces} space(s)", parent=self.layer))
        zoc_cells: set[tuple[int, int]] = set()
        for status in statuses:
            zoc_cells |= set(grid.zone_of_control(geometry.space_of(status.target)))
        if zoc_cells:
            area = shapely.unary_union([cell_polygon(board_grid, grid.centre(c))
                                        for c in zoc_cells]).intersection(table)
            self._add(OverlayItem("zoc", "enemies", qpath(area),
                                  _cosmetic(ZOC, 1.0, Qt.PenStyle.DotLine),
                                  QBrush(ZOC, Qt.BrushStyle.FDiagPattern),
                                  "enemy Zones of Control (leaving one risks an Attack of "
                                  "Opportunity)", parent=self.layer))


def _spaces_near(grid: object, start: tuple[int, int], n: int) -> set[tuple[int, int]]:
    """Every space within ``n`` steps of ``start`` (breadth-first over neighbours)."""
    seen = {start}
    frontier = [start]
    for _ in range(n):
        nxt = []
        for s in frontier:
            for nb in grid.neighbours(s):  # type: ignore[attr-defined]
                if nb not in seen:
                    seen.add(nb)
                    nxt.append(nb)
        frontier = nxt
    return seen
