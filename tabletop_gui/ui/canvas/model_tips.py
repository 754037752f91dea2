"""What hovering a model on the canvas says: its profile (name, side, the ruleset's
characteristics, weapons), wounds or Health Points left and its state, in a player's
words ("taken down", "2 of 5 wounds left", "3 models lost"), never internal keys.

Plain text built from the ruleset's declaration (``rules.registry.info``), so a field a
ruleset declares is shown even if this table has no nicer name for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape

from tabletop_gui.model.health import health_of
from tabletop_gui.rules.fields import FieldSpec
from tabletop_gui.rules.registry import INFOS
from tabletop_gui.scenario.entities import Model, Scenario, Trait, Unit

# characteristic and weapon field names as a player says them (per field name; the
# rulesets share most names)
NAMES: Mapping[str, str] = {
    "move": "Move", "toughness": "Toughness", "wounds": "Wounds", "fight": "Fight",
    "shoot": "Shoot", "armour": "Armour", "defense": "Defense",
    "base_attack": "Attack die", "precision": "Precision", "movement": "Movement",
    "adv": "Advance", "mar": "March", "dis": "Discipline", "hp": "Health Points",
    "def": "Defensive Skill", "res": "Resilience", "arm": "Armour", "aegis": "Aegis",
    "fortitude": "Fortitude", "att": "Attack Value", "off": "Offensive Skill",
    "str": "Strength", "ap": "Armour Penetration", "agi": "Agility",
    # weapons
    "range": "range", "attacks": "attacks", "strength": "strength", "damage": "damage",
    "piercing": "piercing", "parry": "parry", "attack": "attack die",
    "attack_type": "", "hand": "", "kind": "", "aim": "aim", "shots": "shots",
    "attributes": "",
}
WEAPON_NAMES: Mapping[str, str] = {"ap": "AP"}  # where a weapon's field reads otherwise
WORDS: Mapping[str, str] = {  # enum values
    "melee": "melee", "ranged": "ranged", "missile": "missile",
    "close_combat": "close combat", "shooting": "shooting",
    "main": "main hand", "off": "off hand", "both": "both hands",
}
LIMBS: Mapping[str, str] = {"RH": "right hand", "LH": "left hand", "RL": "right leg",
                            "LL": "left leg"}
INCH_MARK = "\u2033"


def _num(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return f"{v:g}" if isinstance(v, float) else str(v)


def _value(spec: FieldSpec | None, value: object, *, unit_inches: bool) -> str:
    kind = spec.kind if spec is not None else ""
    if kind == "die" and isinstance(value, int | float):
        return f"d{_num(value)}"
    if kind == "bool":
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_num(v) for v in value)
    text = WORDS.get(value, value) if isinstance(value, str) else _num(value)
    if kind == "range" and unit_inches:
        return f"{text}{INCH_MARK}"
    return text


def _specs(fields: Iterable[FieldSpec]) -> dict[str, FieldSpec]:
    return {f.name: f for f in fields}


def characteristics_line(model: Model, ruleset: str) -> str:
    """``Move 4 · Toughness 5 · Wounds 22``, in the ruleset's declared order."""
    info = INFOS.get(ruleset)
    specs = _specs(info.declaration.characteristics) if info else {}
    order = [n for n in specs if n in model.characteristics] + sorted(
        n for n in model.characteristics if n not in specs)
    parts = []
    for name in order:
        value = _value(specs.get(name), model.characteristics[name], unit_inches=False)
        parts.append(f"{NAMES.get(name, name.replace('_', ' '))} {value}")
    return " \u00b7 ".join(parts)


def weapon_lines(model: Model, ruleset: str) -> list[str]:
    """One line per weapon: ``Greatblade: range 2″, attacks 4, strength 5, damage 2/5``."""
    info = INFOS.get(ruleset)
    specs = _specs(info.declaration.weapon_fields) if info else {}
    grid = bool(info and info.declaration.needs_grid)
    lines = []
    for weapon in model.weapons:
        parts = []
        order = [n for n in specs if n in weapon.values] + sorted(
            n for n in weapon.values if n not in specs)
        for name in order:
            raw = weapon.values[name]
            if raw in (None, [], "") or (name == "piercing" and raw == 0):
                continue
            value = _value(specs.get(name), raw, unit_inches=not grid)
            if name == "range" and grid:
                value += " space" if raw == 1 else " spaces"
            elif name == "aim":
                value += "+"
            label = WEAPON_NAMES.get(name, NAMES.get(name, name.replace("_", " ")))
            parts.append(f"{label} {value}" if label else value)
        lines.append(f"{weapon.name}: {', '.join(parts)}" if parts else weapon.name)
    return lines


def state_lines(model: Model, down: bool) -> list[str]:
    """Wounds or Health Points left and the state, in a player's words (``down``: out of
    the game by its ruleset's rule, ``Scenario.taken_down``)."""
    out: list[str] = []
    state = model.state
    if isinstance(model, Unit):
        hp = max(1, int(model.characteristics.get("hp", 1)))
        alive = model.models_left
        lost = model.models - alive
        if alive == 0 or down:
            out.append("destroyed")
        elif lost:
            out.append(f"{lost} model{'s' if lost != 1 else ''} lost, {alive} of "
                       f"{model.models} left")
        else:
            out.append(f"all {model.models} models left")
        if hp > 1 and alive:
            health = health_of(model)
            if health is not None:
                out.append(f"{_num(health.left)} of {_num(health.total)} Health Points left")
        for key, words in (("charging", "charging"), ("marched", "marched this turn"),
                           ("moved", "moved this turn")):
            if state.get(key):
                out.append(words)
        return out
    health = health_of(model)
    if down:
        out.append("taken down")
    elif health is not None:
        left, total = _num(health.left), _num(health.total)
        out.append(f"{left} of {total} wound{'s' if health.total != 1 else ''} left")
    if state.get("panicked"):
        out.append("panicked")
    limbs = state.get("limbs_lost")
    if isinstance(limbs, list | tuple) and limbs:
        out.append("lost: " + ", ".join(LIMBS.get(str(x), str(x)) for x in limbs))
    return out


def side_name(scenario: Scenario | None, side_id: str) -> str:
    side = scenario.side(side_id) if scenario is not None else None
    return (side.name or side.id) if side is not None else side_id


def model_tooltip(model: Model, scenario: Scenario) -> str:
    """The hover text of a model (rich text: Qt shows it wrapped, the name in bold)."""
    ruleset = scenario.ruleset
    kind = (f"{model.models} models in {model.files} files" if isinstance(model, Unit)
            else "")
    head = f"<b>{escape(model.name)}</b> ({escape(model.id)})"
    lines = [head, escape(side_name(scenario, model.side)) + (f" \u00b7 {kind}" if kind else "")]
    state = state_lines(model, scenario.taken_down(model))
    if state:
        lines.append("<i>" + escape("; ".join(state)) + "</i>")
    chars = characteristics_line(model, ruleset)
    if chars:
        lines.append(escape(chars))
    lines += [escape(w) for w in weapon_lines(model, ruleset)]
    if model.traits:
        lines.append("Traits: " + escape(", ".join(_trait(t) for t in model.traits)))
    return "<br>".join(lines)


def _trait(t: Trait) -> str:
    if isinstance(t, str):
        return t.replace("_", " ")
    return ", ".join(f"{k.replace('_', ' ')} ({_num(v)})" for k, v in t.items())
