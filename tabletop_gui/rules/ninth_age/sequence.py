"""Dice, step by step, in the page's order; and odds conditioned on the first dice.

Order (each step in the order of the attacks, hits or wounds it concerns): shots dice;
hit rolls; their re-rolls (Hatred); second rolls of Hopeless Shots; to-wound rolls;
their re-rolls (Flaming against Flammable); armour saves; special saves; re-rolls of
special saves (Divine Attacks); Multiple Wounds dice.

Each attack and each of its hits is an ``Item`` that waits at one step. The runner is a
generator (``rules/resolver.py``): it advances every item through the steps, asking for
each die (``face = yield DieAsk(...)``); wherever it stands (conditioning on known dice)
the items are where they are, and the answer is the sum of what is already lost and each
waiting item's exact remainder (``odds.Odds``): the dice not yet rolled are independent
of the rolled ones, item by item.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from tabletop_gui.rules.base import DieRoll
from tabletop_gui.rules.dist import Dist
from tabletop_gui.rules.fields import DiceSpec
from tabletop_gui.rules.ninth_age.odds import Odds, capped, dice_dist, repeat_capped
from tabletop_gui.rules.ninth_age.profile import CANNOT_HIT, HOPELESS, AttackProfile
from tabletop_gui.rules.ninth_age.tables import NO_SAVE
from tabletop_gui.rules.resolver import DieAsk, dice_word, face_error

STEPS = ("shots", "hit", "hit_reroll", "hopeless", "wound", "wound_reroll", "armour",
         "special", "special_reroll", "mw")

STEP_WORDS = {"shots": "shots", "hit": "to hit", "hit_reroll": "to hit, re-rolls",
              "hopeless": "to hit, second rolls (Hopeless Shots)", "wound": "to wound",
              "wound_reroll": "to wound, re-rolls", "armour": "armour save",
              "special": "special save", "special_reroll": "special save, re-rolls",
              "mw": "Multiple Wounds"}

Asks = Generator[DieAsk, "int | str", int]


@dataclass
class Item:
    step: str  # one of STEPS, or "done"
    label: str
    kind: str = "normal"
    lethal: bool = False
    six: bool = False
    hp: int = 0  # Health Points lost once done
    wounded: bool = False
    known: int = 0  # shots: faces summed so far
    left: int = 0  # shots: dice still to roll
    save: str = ""


@dataclass
class Run:
    """The items of one attack and the dice rolled; while a step is under way, ``done``
    holds the items it has advanced and ``pos`` the first item of ``items`` it has not."""

    items: list[Item]
    dice: list[DieRoll] = field(default_factory=list)
    hits: int = 0
    done: list[Item] | None = None
    pos: int = 0
    step_left: int = 0  # dice still to roll in the step under way

    @property
    def current(self) -> list[Item]:
        """Every item where it stands now (a waiting item is mid-step, as left)."""
        return self.items if self.done is None else self.done + self.items[self.pos:]

    @property
    def hp(self) -> int:
        return sum(i.hp for i in self.current if i.step == "done")

    @property
    def wounds(self) -> int:
        return sum(1 for i in self.current if i.wounded)


class Runner:
    """Advances the items of one attack sequence, asking for each die."""

    def __init__(self, profile: AttackProfile, shots: DiceSpec | None = None) -> None:
        self.p = profile
        self.shot_sides = shots.sides if shots is not None else 6

    def start(self, attacks: int, shots: DiceSpec | None, shooting_models: int,
              dice: list[DieRoll] | None = None) -> Run:
        """The attack before any die; each die rolled is appended to ``dice``."""
        items: list[Item] = []
        if shots is not None and self.p.hit_needed < CANNOT_HIT:
            items = [Item("shots", f"model {m + 1}", left=shots.count, known=shots.bonus)
                     for m in range(shooting_models)]
        elif self.p.hit_needed < CANNOT_HIT:
            items = [Item("hit", f"attack {a + 1}") for a in range(attacks)]
        return Run(items, dice if dice is not None else [])

    def _roll(self, run: Run, sides: int, label: str, step: str, need: str,
              outcome: Callable[[int], str]) -> Asks:
        n = run.step_left
        words = STEP_WORDS[step]
        if step in ("shots", "mw"):
            purpose = f"roll {dice_word(n)} for {words} (d{sides} each)"
        else:
            purpose = f"roll {dice_word(n)} {words}, {need}"
        face = yield DieAsk(sides, label, words, n, purpose)
        assert isinstance(face, int)
        run.step_left -= 1
        run.dice.append(DieRoll(sides, face, label, outcome(face)))
        return face

    def run(self, run: Run) -> Generator[DieAsk, int | str, Run]:
        for step in STEPS:
            if step == "hit":
                run.items = self._number_attacks(run.items)
            out: list[Item] = []
            run.done, run.pos = out, 0
            run.step_left = sum((it.left if step in ("shots", "mw") else 1)
                                for it in run.items if it.step == step)
            for pos, item in enumerate(run.items):
                run.pos = pos
                if item.step != step:
                    out.append(item)
                    continue
                out.extend((yield from self._advance(run, item)))
            run.items, run.done = out, None
        return run

    def _number_attacks(self, items: list[Item]) -> list[Item]:
        """After the shots dice: one waiting attack per shot, numbered in order."""
        out: list[Item] = []
        for it in items:
            if it.step == "shots" and it.left == 0:
                out.extend(Item("hit", "") for _ in range(max(0, it.known)))
            else:
                out.append(it)
        n = 0
        for it in out:
            if it.step == "hit":
                n += 1
                it.label = f"attack {n}"
        return out

    def _success(self, run: Run, item: Item, six: bool) -> list[Item]:
        """A successful attack turns into its hits (each waiting for its to-wound roll)."""
        kinds = self.p.hit_kinds(six)
        run.hits += len(kinds)
        hits = []
        for n, (kind, auto) in enumerate(kinds):
            label = item.label if len(kinds) == 1 else f"{item.label} hit {n + 1}"
            hit = Item("armour" if auto else "wound", label, kind=kind, wounded=auto)
            hits.append(self._settle(hit))
        return hits

    def _settle(self, item: Item) -> Item:
        """Steps without dice: no armour save, no special save, fixed Multiple Wounds."""
        h = self.p.hit(item.kind)
        if item.step == "armour" and h.armour(item.lethal) >= NO_SAVE:
            item.step = "special"
        if item.step == "special":
            which, need = h.special_save(item.lethal)
            if need >= NO_SAVE:
                item.step = "mw"
            item.save = which
        if item.step == "mw":
            if h.wounds.fixed:
                item.step = "done"
                item.hp = min(h.hp_cap, max(0, h.wounds.count + h.wounds.bonus))
            else:
                item.known, item.left = h.wounds.bonus, h.wounds.count
        return item

    def _advance(self, run: Run, item: Item) -> Generator[DieAsk, int | str, list[Item]]:
        p = self.p
        step = item.step
        if step == "shots":
            face = yield from self._roll(run, self.shot_sides, f"shots, {item.label}", step,
                                         "", lambda f: f"{f} shots")
            item.known += face
            item.left -= 1
            return [item]
        if step in ("hit", "hit_reroll", "hopeless"):
            need = 4 if step == "hopeless" else min(p.hit_needed, 6)
            what = {"hit": "hit roll", "hit_reroll": "hit re-roll",
                    "hopeless": "second roll (Hopeless Shots)"}[step]
            first = p.hit_needed == HOPELESS and step == "hit"

            def outcome(f: int) -> str:
                if first:
                    return "6: roll again" if f == 6 else "miss"
                return "hit" + (" (natural 6)" if f == 6 and step != "hopeless" else "") if (
                    f >= need and f != 1) else "miss"
            face = yield from self._roll(run, 6, f"{what}, {item.label}", step,
                                         "6 to roll again" if first else f"{need}+", outcome)
            if first:
                if face == 6:
                    item.step, item.six = "hopeless", True
                    return [item]
                return [_done(item)]
            if face >= need and face != 1:
                return self._success(run, item, item.six if step == "hopeless" else face == 6)
            if step == "hit" and p.reroll_failed_hits:
                item.step = "hit_reroll"
                return [item]
            return [_done(item)]
        h = p.hit(item.kind)
        if step in ("wound", "wound_reroll"):
            need = h.wound_needed
            what = "to-wound roll" if step == "wound" else "to-wound re-roll"
            face = yield from self._roll(
                run, 6, f"{what}, {item.label}", step, f"{need}+",
                lambda f: "wound" + (" (Lethal Strike)" if f == 6 and h.lethal_strike
                                     else "") if f >= need and f != 1 else "fail")
            if face >= need and face != 1:
                item.step, item.wounded = "armour", True
                item.lethal = h.lethal_strike and face == 6
                return [self._settle(item)]
            if step == "wound" and h.reroll_failed_wounds:
                item.step = "wound_reroll"
                return [item]
            return [_done(item)]
        if step == "armour":
            need = h.armour(item.lethal)
            face = yield from self._roll(
                run, 6, f"armour save, {item.label}", step, f"{need}+",
                lambda f: "saved" if f >= need and f != 1 else "failed")
            if face >= need and face != 1:
                return [_done(item)]
            item.step = "special"
            return [self._settle(item)]
        if step in ("special", "special_reroll"):
            which, need = h.special_save(item.lethal)
            if step == "special_reroll":
                which, need = "aegis", h.aegis_needed
            name = f"{which} save" + (" re-roll (Divine Attacks)" if step == "special_reroll"
                                      else "")
            face = yield from self._roll(
                run, 6, f"{name}, {item.label}", step, f"{need}+ ({which})",
                lambda f: "saved" if f >= need and f != 1 else "failed")
            if face >= need and face != 1:
                if step == "special" and which == "aegis" and h.divine:
                    item.step = "special_reroll"
                    return [item]
                return [_done(item)]
            item.step = "mw"
            return [self._settle(item)]
        # Multiple Wounds dice (a multiple stays waiting with its partial sum)
        while item.left > 0:
            face = yield from self._roll(run, h.wounds.sides,
                                         f"Multiple Wounds die, {item.label}", "mw", "",
                                         lambda f: f"D{h.wounds.sides} shows {f}")
            item.known += face
            item.left -= 1
        item.step, item.hp = "done", min(h.hp_cap, max(0, item.known))
        return [item]

    def remainder(self, odds: Odds, run: Run, shots: DiceSpec | None, cap: int) -> Dist:
        """Exact distribution of everything the waiting items will still add, capped."""
        groups: dict[tuple[str, str, bool, int, int], int] = {}
        total = Dist.point(min(run.hp, cap))
        for it in run.current:
            if it.step == "done":
                continue
            key = (it.step, it.kind, it.lethal, it.known, it.left)
            groups[key] = groups.get(key, 0) + 1
        for (step, kind, lethal, known, left), n in groups.items():
            part = _waiting(odds, step, kind, lethal, known, left, shots)
            total = (total + repeat_capped(part, n, cap)).clip(lo=0, hi=cap)
        return total


def dice_waiting(run: Run) -> int:
    """At least how many more dice the waiting items of a run that ran dry will roll:
    one per item waiting at a step (steps without dice are settled before waiting), the
    Multiple Wounds dice left, and for a shooting model its shots dice plus one hit roll
    per shot (each die showing at least 1)."""
    n = 0
    for it in run.current:
        if it.step == "done":
            continue
        if it.step == "shots":
            n += it.left + max(0, it.known + it.left)
        elif it.step == "mw":
            n += it.left
        else:
            n += 1
    return n


def _waiting(odds: Odds, step: str, kind: str, lethal: bool, known: int, left: int,
             shots: DiceSpec | None) -> Dist:
    if step == "shots":
        assert shots is not None
        n = Dist.point(known) + dice_dist(DiceSpec(1, shots.sides)).repeat(left)
        return odds.attacks_mixture(n)
    table = {
        "hit": odds.attack, "hit_reroll": odds.hit_reroll, "hopeless": odds.hopeless,
    }
    if step in table:
        return table[step]()
    if step == "wound":
        return odds.wound(kind)
    if step == "wound_reroll":
        return odds.wound_reroll(kind)
    if step == "armour":
        return odds.armour(kind, lethal)
    if step == "special":
        return odds.special(kind, lethal)
    if step == "special_reroll":
        return odds.special_reroll(kind)
    h = odds.p.hit(kind)
    partial = Dist.point(known) + dice_dist(DiceSpec(1, h.wounds.sides)).repeat(left)
    return partial.clip(lo=0, hi=h.hp_cap)


def _done(item: Item) -> Item:
    item.step, item.hp = "done", 0
    return item


def conditioned(profile: AttackProfile, attacks: int, shots: DiceSpec | None,
                shooting_models: int, remaining: int, known: list[int]) -> tuple[Dist, int]:
    """HP-lost distribution given the first dice; also how many of them were used."""
    runner = Runner(profile, shots)
    run = runner.start(attacks, shots, shooting_models)
    steps = runner.run(run)
    try:
        ask = next(steps)
        for pos, face in enumerate(known):
            if not 1 <= face <= ask.sides:
                raise face_error(pos + 1, ask.label, face, ask.sides)
            ask = steps.send(face)
    except StopIteration:
        pass
    used = len(run.dice)
    cap = max(0, remaining)
    return capped(runner.remainder(Odds(profile), run, shots, cap), remaining), used
