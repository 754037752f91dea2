"""A ruling: everything the ruleset decides between one attacker and one target, with the
evidence, and how far each answer is from changing (docs/rulings.md, docs/cli.md).

``build_ruling(ruleset, battle, report)`` gathers, for the attack ``report`` describes:
the pair's facts as `inspect` gives them; the two closest points between which the
distance is measured; every sample sight line with what blocks it
(``geometry.sight_lines``); the attack's checks with their margins; and *tipping points*,
sentences a player can act on, each computed from the geometry where a formula exists
(``geometry.tipping``):

- range, minimum range, engagement and the friendly-fire distance: the move along the
  line between the closest points that reaches the limit (for a 3D distance, the gap on
  the table at which ``sqrt(gap^2 + vertical^2)`` reaches it);
- cover (the Warcry family): where each obstacle on the line of cover ends, measured from
  the attacker's base against the ignored ½", and the platform's height against its
  limit; The Ninth Age: the hidden share of the Target Facing against one half;
- the arc (The Ninth Age): the turn of the target about its centre that changes the arc;
- sight: searched (no formula exists for sample lines through prisms), and the text says
  so and gives the bounds of the search.

``Ruling.to_json`` is the object `tabletop-gui ruling --json` prints; ``Ruling.text`` the
readable form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tabletop_gui.geometry import unit_arcs
from tabletop_gui.geometry.board_geometry import BoardGeometry
from tabletop_gui.geometry.cover import EXEMPT, GATE
from tabletop_gui.geometry.sight_lines import (
    SEARCH_DIRECTIONS,
    SEARCH_LIMIT,
    SEARCH_RESOLUTION,
    SEARCH_STEP,
    SightLine,
    sight_change,
    sight_lines,
)
from tabletop_gui.geometry.tipping import CoverSpan, arc_turn, cover_spans, gap_for
from tabletop_gui.rules.base import (
    AttackReport,
    Battle,
    Check,
    Checked,
    PairFacts,
    Ruleset,
    Terms,
)

Point3 = tuple[float, float, float]
AT_LIMIT = 1e-9


@dataclass(frozen=True)
class Tipping:
    """How far one answer is from changing, in a player's words."""

    rule: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}


@dataclass(frozen=True)
class Ring:
    """A limit drawn around the attacker's base: ``radius`` inches out from its edge, on
    the table (for a 3D distance, at the height difference of this pair)."""

    rule: str  # "range", "minimum_range", "engaged"
    radius: float
    text: str


@dataclass(frozen=True)
class Ruling(Checked):
    ruleset: str
    attacker: str
    target: str
    weapon: str | None
    attack_type: str
    facts: PairFacts
    closest_points: tuple[Point3, Point3]
    lines: tuple[SightLine, ...]
    checks: tuple[Check, ...]
    tipping_points: tuple[Tipping, ...]
    terms: Terms = field(default_factory=Terms)
    rings: tuple[Ring, ...] = ()
    cover_spans: tuple[CoverSpan, ...] = ()
    cover_why: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)  # terrain id -> its label

    @property
    def lines_clear(self) -> int:
        return sum(1 for s in self.lines if s.clear)

    @property
    def blocked_by(self) -> list[str]:
        """Terrain blocking at least one sample line, in the battlefield's order."""
        found = {t for s in self.lines for t in s.blocked_by}
        return [t for t in self.labels if t in found]

    def label(self, terrain_id: str) -> str:
        return self.labels.get(terrain_id, terrain_id)

    def verdict(self) -> str:
        weapon = f" with {self.weapon}" if self.weapon else ""
        if self.valid:
            return f"VALID: {self.attacker} may attack {self.target}{weapon}"
        return (f"NOT VALID: {self.attacker} may not attack {self.target}{weapon}: "
                + "; ".join(self.reasons))

    def to_json(self) -> dict[str, Any]:
        facts = self.facts.to_json()
        del facts["attacker"], facts["target"]
        return {
            "ruleset": self.ruleset,
            "attacker": self.attacker,
            "target": self.target,
            "weapon": self.weapon,
            "facts": facts,
            "closest_points": [[round(c, 3) for c in p] for p in self.closest_points],
            "sight": {"visible": self.facts.visible, "lines_total": len(self.lines),
                      "lines_clear": self.lines_clear, "blocked_by": self.blocked_by},
            "checks": [check_json(c) for c in self.checks],
            "valid": self.valid,
            "reasons": self.reasons,
            "tipping_points": [t.to_json() for t in self.tipping_points],
        }

    def numbers(self) -> list[str]:
        """The measured facts, one line each (the text and the pictures' captions)."""
        f = self.facts
        a, b = self.closest_points
        dist = f'distance {f.distance:.2f}"'
        if self.terms.three_d and f.vertical_distance > 0:
            dist += (f' (on the table {f.horizontal_distance:.2f}", in height '
                     f'{f.vertical_distance:.2f}")')
        if f.spaces is not None:
            dist = f"{f.spaces} space{'' if f.spaces == 1 else 's'}, " + dist
        out = [dist + f" between {_point(a)} on {self.attacker} and {_point(b)} on "
               f"{self.target}"]
        sight = "visible" if f.visible else "not visible"
        out.append(f"sight: {sight}, {self.lines_clear} of {len(self.lines)} sample lines "
                   "clear" + (f"; blocked by {', '.join(self.label(t) for t in self.blocked_by)}"
                              if self.blocked_by else ""))
        cover = f.cover if not f.cover_by else (
            f"{f.cover} ({', '.join(self.label(t) for t in f.cover_by)})")
        out.append(f"cover: {cover}" + (f": {self.cover_why}" if self.cover_why else ""))
        extra = [f"engaged: {'yes' if f.engaged else 'no'}"]
        if f.arc is not None:
            extra.append(f"arc: {self.attacker} is in the {arc_words(f.arc)} arc of "
                         f"{self.target}")
        out.append(", ".join(extra))
        return out

    def text(self) -> str:
        weapon = self.weapon or "(no weapon)"
        lines = [f"{self.ruleset} ruling: {self.attacker} attacks {self.target} with "
                 f"{weapon} ({self.attack_type})", self.verdict(), *self.numbers(), "checks:"]
        for c in self.checks:
            margin = "" if c.margin is None else f"  (margin {_number(c.margin)})"
            lines.append(f"  [{'ok' if c.ok else 'NO'}] {c.text}{margin}")
        lines.append("tipping points:" if self.tipping_points else "tipping points: none")
        lines += [f"  - {t.rule}: {t.text}" for t in self.tipping_points]
        return "\n".join(lines)


def check_json(c: Check) -> dict[str, Any]:
    return {"rule": c.rule, "ok": c.ok, "text": c.text, "value": _rounded(c.value),
            "threshold": _rounded(c.threshold), "margin": _rounded(c.margin)}


def _rounded(x: float | None) -> float | None:
    if x is None or isinstance(x, int):
        return x
    return round(float(x), 3)


def _number(x: float) -> str:
    return str(x) if isinstance(x, int) else f"{x:.3f}"


def _point(p: Point3) -> str:
    return f"({p[0]:.2f}, {p[1]:.2f}, {p[2]:.2f})"


def amount(x: float) -> str:
    """A distance a player can measure: to 0.01", or 'less than 0.01"'."""
    if x < 0.005:
        return 'less than 0.01"'
    return f'{x:.2f}"'


def arc_words(arc: str) -> str:
    return arc.replace("_", " ")


# -- building -----------------------------------------------------------------------------


def build_ruling(ruleset: Ruleset, battle: Battle, report: AttackReport,
                 search_sight: bool = True) -> Ruling:
    """The ruling of the attack ``report`` describes (see the module docstring)."""
    a, t = report.attacker, report.target
    facts = ruleset.pair_facts(battle, a, t)
    terms = ruleset.terms(battle)
    g = battle.geometry
    m = g.measure(a, t)
    za, zt = (g.elevation(a), g.elevation(t)) if terms.three_d else (0.0, 0.0)
    points = ((m.point_a[0], m.point_a[1], za), (m.point_b[0], m.point_b[1], zt))
    lines = sight_lines(g, a, t)
    labels = {tr.id: tr.label for tr in battle.board.terrains}
    spans = tuple(cover_spans(g, a, t)) if terms.cover is not None else ()
    b = _Builder(a, t, facts, terms, g)
    for c in report.checks:
        b.check(c)
    b.engagement()
    b.cover(spans, labels)
    b.arc()
    if search_sight:
        b.sight()
    why = next((md.why for md in report.modifiers if md.name == "cover"), "")
    return Ruling(
        ruleset=report.ruleset, attacker=a, target=t, weapon=report.weapon,
        attack_type=report.attack_type, facts=facts, closest_points=points, lines=lines,
        checks=report.checks, tipping_points=tuple(b.out), terms=terms,
        rings=tuple(b.rings), cover_spans=spans, cover_why=why, labels=labels,
    )


class _Builder:
    """Writes the tipping points and the rings of one pair."""

    def __init__(self, attacker: str, target: str, facts: PairFacts, terms: Terms,
                 g: BoardGeometry) -> None:
        self.a, self.t, self.f, self.terms, self.g = attacker, target, facts, terms, g
        self.out: list[Tipping] = []
        self.rings: list[Ring] = []
        self.h = facts.horizontal_distance
        self.v = facts.vertical_distance if terms.three_d else 0.0

    def add(self, rule: str, text: str) -> None:
        self.out.append(Tipping(rule, text))

    def ring(self, rule: str, gap: float, text: str) -> None:
        if gap >= 0.01:  # a ring on the base itself shows nothing
            self.rings.append(Ring(rule, gap, text + self.height_note()))

    # -- moves along the line between the closest points ------------------------------
    def gap_at(self, limit: float) -> float | None:
        """The gap on the table at which the ruleset's distance equals ``limit``."""
        return gap_for(limit, self.v) if self.terms.three_d else limit

    def height_note(self) -> str:
        return (f' (on the table; {self.v:.2f}" apart in height)'
                if self.terms.three_d and self.v > 0 else "")

    def check(self, c: Check) -> None:
        if c.margin is None or c.threshold is None or c.rule == "engaged":
            return  # engagement is told once, from the facts (``engagement``)
        if c.rule == "range":
            self.range(c)
        elif c.rule == "minimum_range":
            self.minimum_range(c)
        elif c.rule == "friendly_fire":
            self.friendly_fire(c)
        else:
            self.add(c.rule, f"{c.text}: {amount(c.margin)} to spare" if c.ok
                     else f"{c.text}: missed by {amount(-c.margin)}")

    def within(self, rule: str, limit: float, ok: bool, ring: str,
               texts: tuple[str, str, str, str]) -> None:
        """A limit met while the distance is at most it (range, engagement). ``texts``:
        out of reach by height alone, exactly at the limit, met (``{}``: the room left),
        missed (``{}``: the move needed)."""
        gap = self.gap_at(limit)
        if gap is None:
            self.add(rule, texts[0])
            return
        self.ring(rule, gap, ring)
        room = gap - self.h
        if ok and room <= AT_LIMIT:
            self.add(rule, texts[1])
        elif ok:
            self.add(rule, texts[2].format(amount(room)) + self.height_note())
        else:
            self.add(rule, texts[3].format(amount(-room)) + self.height_note())

    def range(self, c: Check) -> None:
        assert c.threshold is not None and c.margin is not None
        t = self.t
        if self.terms.engagement == "adjacent":  # ranges in spaces
            n = int(round(c.margin))
            self.add("range", f"out of range if {t} were {_spaces(n + 1)} further away" if c.ok
                     else f"{_spaces(-n)} closer and {t} is in range")
            return
        limit = float(c.threshold)
        self.within("range", limit, c.ok, f'range {limit:g}"', (
            f'out of range whatever the move on the table: {t} is {self.v:.2f}" higher or '
            f'lower, more than the {limit:g}" range',
            f"exactly at the limit: any move further away and {t} is out of range",
            f"out of range if {t} were more than {{}} further away",
            f"{{}} closer and {t} is in range"))

    def minimum_range(self, c: Check) -> None:
        assert c.threshold is not None
        t, limit = self.t, float(c.threshold)
        gap = self.gap_at(limit)
        if gap is None:
            self.add("minimum_range", f"beyond the minimum range at any distance on the table: "
                     f'{self.v:.2f}" apart in height, more than {limit:g}"')
            return
        self.ring("minimum_range", gap, f'minimum range {limit:g}"')
        room = self.h - gap
        if c.ok:
            self.add("minimum_range", f"within the minimum range if {t} were {amount(room)} "
                     "closer" + self.height_note())
        elif room >= -AT_LIMIT:
            self.add("minimum_range", f"exactly at the minimum range, which is within it: any "
                     f"move further away and {t} is beyond it")
        else:
            self.add("minimum_range", f"more than {amount(-room)} further away and {t} is "
                     "beyond the minimum range" + self.height_note())

    def friendly_fire(self, c: Check) -> None:
        assert c.threshold is not None and c.margin is not None and c.value is not None
        if abs(float(c.threshold) - 3.0) < 1e-9 and abs(float(c.value) - self.f.distance) < 1e-6:
            room = c.margin
            self.add("friendly_fire", (
                f'the 3" exception allows the shot; more than {amount(room)} further away and '
                "friendly fire forbids it" if c.ok else
                f'{amount(-room)} closer (within 3") and the exception allows the shot'))
            return
        self.add("friendly_fire", f"a fighter of {self.a}'s side is {amount(float(c.value))} "
                 f"from {self.t}; more than {amount(-c.margin)} further from it and friendly "
                 "fire no longer forbids the shot" if not c.ok
                 else f"{c.text} ({amount(c.margin)} to spare)")

    def engagement(self) -> None:
        kind, f = self.terms.engagement, self.f
        if kind == "within":
            limit = self.terms.engage_limit
            self.within("engaged", limit, f.engaged, f'engagement {limit:g}"', (
                f'not engaged at any distance on the table: {self.v:.2f}" apart in height, '
                f'more than {limit:g}"',
                f'exactly {limit:g}" apart, which is engaged: any move apart and they are not',
                f'engaged (within {limit:g}"): more than {{}} further apart and they are not',
                f'{{}} closer and they are engaged (within {limit:g}")'))
        elif kind == "contact":
            tol = self.terms.engage_limit
            if f.engaged:
                self.add("engaged", f'in base contact (a gap of up to {tol:g}" counts): '
                         f"more than {amount(tol - self.h)} apart and they are not")
            else:
                self.add("engaged", f"{amount(self.h - tol)} closer and they are in base "
                         "contact")
        elif kind == "adjacent" and f.spaces is not None:
            self.add("engaged", "in adjacent spaces: one space apart more and they are not"
                     if f.engaged else f"{_spaces(f.spaces - 1)} closer and they are adjacent")

    # -- cover ------------------------------------------------------------------------------
    def cover(self, spans: tuple[CoverSpan, ...], labels: Mapping[str, str]) -> None:
        rule, f, a, t = self.terms.cover, self.f, self.a, self.t
        if rule is not None:
            exempting = not rule.gate_1in or f.distance > GATE + AT_LIMIT
            for s in spans:
                self.cover_span(s, exempting, rule.gate_1in)
            g = self.g
            j = g.index(t)
            stands = int(g.bodies.stands_on[j])
            if rule.platform_applies and stands >= 0:
                label = g.terrain.terrains[stands].label
                up = g.elevation(t) - g.elevation(a)
                limit = rule.platform_threshold
                if up >= limit - 1e-9:
                    spare = up - limit
                    self.add("cover", f'cover from {label}: {t} stands {up:.2f}" above {a}, '
                             f'and {limit:g}" or more counts' + (
                                 " (exactly at the limit: any lower and it would not)"
                                 if spare <= 1e-9 else f" ({amount(spare)} to spare)"))
                else:
                    self.add("cover", f'no cover from {label}: {t} stands {up:.2f}" above {a}, '
                             f'{amount(limit - up)} short of the {limit:g}" that counts')
        elif self.terms.facing_cover is not None:
            self.facing_cover(self.terms.facing_cover)

    def cover_span(self, s: CoverSpan, exempting: bool, gated: bool) -> None:
        a, far = self.a, s.leaves_from_base
        where = f"the line between the closest points leaves it {far:.2f}\" from {a}'s base"
        if not exempting:
            text = (f'cover from {s.label}: {a} and {self.t} are within {GATE:g}" '
                    f'({self.f.distance:.2f}"), so no part of the line is ignored')
            gap = self.gap_at(GATE)
            if far <= EXEMPT and gap is not None:
                text += (f'; more than {amount(gap - self.h)} further apart and it would lie '
                         f"in the ignored ½\" next to {a}'s base")
            self.add("cover", text)
        elif far > EXEMPT:
            self.add("cover", f"cover from {s.label}: {where}, {amount(far - EXEMPT)} beyond the "
                     "ignored ½\" next to the base; it stops counting if it ended within ½\" "
                     "of the base" + (f' (the ½" is ignored only while they are more than '
                                      f'{GATE:g}" apart)' if gated else ""))
        elif EXEMPT - far <= 1e-9:
            self.add("cover", f"no cover from {s.label}: {where}, exactly at the end of the "
                     "ignored ½\" next to the base; reaching any further from the base, it "
                     "would give cover")
        else:
            self.add("cover", f"no cover from {s.label}: {where}, within the ignored ½\" next "
                     f"to the base; it would give cover if it reached {amount(EXEMPT - far)} "
                     f"further from the base (for a round base: {a} standing that much "
                     "further back)")

    def facing_cover(self, threshold: str) -> None:
        fc = self.g.facing_cover(self.a, self.t, threshold=(
            "half_or_more" if threshold == "half_or_more" else "more_than_half"))
        words = "half or more" if threshold == "half_or_more" else "more than half"
        hard, total = fc.hard_fraction, fc.total_fraction
        kind = "no" if fc.kind == "none" else fc.kind
        self.add("cover", f"{kind} cover: {_percent(hard)} of the Target Facing hidden by "
                 f"hard cover, {_percent(total)} by anything; {words} hidden gives cover")

    # -- arc and sight ----------------------------------------------------------------
    def arc(self) -> None:
        if not self.terms.arcs or self.f.arc is None:
            return
        g, a, t = self.g, self.a, self.t
        turn = arc_turn(g.body(t), unit_arcs.reference_point(g.body(a)))
        here = f"{a} is in the {arc_words(turn.arc)} arc of {t}"
        if turn.on_line:
            here += " (exactly on a 135° line: ties go to the flank)"
        ways = [(deg, way, new) for deg, way, new in (
            (turn.clockwise, "clockwise", turn.clockwise_arc),
            (turn.anticlockwise, "anticlockwise", turn.anticlockwise_arc))
            if deg is not None and new is not None]
        if not ways:
            self.add("arc", here + f"; no turn of {t} changes that (one 360° arc)")
            return
        flank = turn.arc.endswith("flank")
        parts = []
        for deg, way, new in sorted(ways):
            if deg <= 1e-7:
                turned = f"any turn {way}"
            else:
                turned = f"{'more than ' if flank else ''}{deg:.1f}° {way}"
            parts.append(f"{turned} puts {a} in the {arc_words(new)} arc")
        self.add("arc", here + f"; turning {t} about its centre: " + ", ".join(parts))

    def sight(self) -> None:
        ch = sight_change(self.g, self.a, self.t, self.f.visible)
        verb = "opens" if ch.becomes_visible else "closes"
        bounds = (f"searched: {self.t} moved in {SEARCH_DIRECTIONS} directions, steps of "
                  f'{SEARCH_STEP:g}" up to {SEARCH_LIMIT:g}", to {SEARCH_RESOLUTION:g}"')
        if not ch.found:
            self.add("visible", f"no move of {self.t} up to {SEARCH_LIMIT:g}\" {verb} the line "
                     f"of sight ({bounds})")
            return
        self.add("visible", f"{self.t} {amount(ch.distance)} {self.direction(ch.direction)} "
                 f"{verb} the line of sight ({bounds})")

    def direction(self, degrees: float) -> str:
        a = self.a
        words = (f"away from {a}", f"away from {a} and to its left", f"to {a}'s left",
                 f"towards {a} and to its left", f"towards {a}",
                 f"towards {a} and to its right", f"to {a}'s right",
                 f"away from {a} and to its right")
        return words[round(degrees / 45.0) % 8]


def _spaces(n: int) -> str:
    return f"{n} space{'' if n == 1 else 's'}"


def _percent(x: float) -> str:
    return f"{100 * x:.0f}%"
