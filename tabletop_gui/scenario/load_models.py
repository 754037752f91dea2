"""Reading fighters and units, checked against the ruleset's Declaration.

Characteristics, weapon fields, traits and state keys must be ones the ruleset declares
(``rules/<pkg>/info.py``); each value is read by its field kind (``rules.fields.read_value``)
once: weapons keep the typed values (``Weapon.parsed``) next to the file's values.
Whole numbers of ``int``/``die`` fields are stored as ``int``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from tabletop_gui.rules.fields import Declaration, FieldError, FieldSpec, read_value
from tabletop_gui.scenario.entities import (
    Base,
    Fighter,
    OvalBase,
    RectBase,
    RoundBase,
    Trait,
    Unit,
    Weapon,
)
from tabletop_gui.scenario.problems import index_path, key_path, shown
from tabletop_gui.scenario.reader import Reader, is_missing

FIGHTER_FIELDS = ("id", "name", "side", "x", "y", "facing", "base", "elevation", "height",
                  "characteristics", "traits", "weapons", "state")
UNIT_FIELDS = ("id", "name", "side", "x", "y", "facing", "models", "files", "base_mm",
               "round_base", "characteristics", "height_class", "traits", "weapons", "state")
BASE_FIELDS: dict[str, tuple[str, ...]] = {
    "round": ("shape", "diameter_mm"),
    "oval": ("shape", "length_mm", "width_mm"),
    "rect": ("shape", "width_mm", "depth_mm"),
}
HEIGHT_CLASSES = ("standard", "large", "gigantic")
MAX_MODELS = 10_000


class ModelReader:
    """Reads the models of one file; ``declaration`` is None when the ruleset is unknown."""

    def __init__(self, reader: Reader, ruleset: str, declaration: Declaration | None) -> None:
        self.r = reader
        self.ruleset = ruleset
        self.decl = declaration

    # -- parts shared by fighters, units and profiles -----------------------------------
    def base(self, value: Any, path: str) -> Base | None:
        obj = self.r.obj(value, path)
        if obj is None:
            return None
        if "shape" not in obj:
            self.r.problem(key_path(path, "shape"), "missing required field")
            return None
        shape = self.r.choice(obj["shape"], key_path(path, "shape"), tuple(BASE_FIELDS))
        if shape is None:
            return None
        self.r.unknown_keys(obj, path, BASE_FIELDS[shape])
        names = BASE_FIELDS[shape][1:]
        sizes = [self.r.req_number(obj, k, path, positive=True) for k in names]
        mm = [s for s in sizes if s is not None]
        if len(mm) != len(names):
            return None
        if shape == "round":
            return RoundBase(diameter_mm=mm[0])
        if shape == "oval":
            return OvalBase(length_mm=mm[0], width_mm=mm[1])
        return RectBase(width_mm=mm[0], depth_mm=mm[1])

    def characteristics(self, value: Any, path: str) -> dict[str, Any]:
        obj = self.r.obj(value, path)
        if obj is None or self.decl is None:
            return {}
        return self._declared(obj, path, self.decl.characteristics, "characteristic")

    def state(self, value: Any, path: str) -> dict[str, Any]:
        obj = self.r.obj(value, path)
        if obj is None or self.decl is None:
            return {}
        return self._declared(obj, path, self.decl.state, "state field")

    def traits(self, value: Any, path: str) -> tuple[Trait, ...]:
        items = self.r.array(value, path)
        if items is None or self.decl is None:
            return ()
        out: list[Trait] = []
        for i, item in enumerate(items):
            p = index_path(path, i)
            if isinstance(item, str):
                # Traits are the players' flags: ones the ruleset does not read are kept
                # (and ignored by the rules), so tagging a model never breaks a file.
                if item in self.decl.valued_traits:
                    self.r.problem(p, f'{shown(item)} takes a value: {{"{item}": X}}')
                elif not item.strip():
                    self.r.problem(p, "a trait needs a name")
                else:
                    out.append(item)
                continue
            obj = self.r.obj(item, p)
            if obj is None:
                continue
            if len(obj) != 1:
                self.r.problem(p, 'a valued trait is an object with one key, such as {"name": 4}')
                continue
            (name, raw), = obj.items()
            v = self.r.integer(raw, key_path(p, name), minimum=0, maximum=1000)
            if v is not None:
                out.append({name: v})
        return tuple(out)

    def weapons(self, value: Any, path: str) -> tuple[Weapon, ...]:
        required = self.decl.weapons_required if self.decl is not None else True
        items = self.r.array(value, path, min_items=1 if required else 0)
        if items is None:
            return ()
        out: list[Weapon] = []
        names: set[str] = set()
        for i, item in enumerate(items):
            p = index_path(path, i)
            obj = self.r.obj(item, p)
            if obj is None:
                continue
            name = self.r.req_id(obj, "name", p)
            if name is not None and name in names:
                self.r.problem(key_path(p, "name"), f"another weapon is also named {shown(name)}")
            values: dict[str, Any] = {}
            parsed: dict[str, Any] = {}
            if self.decl is not None:
                rest = {k: v for k, v in obj.items() if k != "name"}
                values = self._declared(rest, p, self.decl.weapon_fields, "weapon field",
                                        parsed)
            if name is not None:
                names.add(name)
                out.append(Weapon(name=name, values=values, parsed=parsed))
        return tuple(out)

    def _declared(
        self, obj: dict[str, Any], path: str, specs: tuple[FieldSpec, ...], what: str,
        parsed: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Read every key by its spec's kind; the result (the file's values) keeps the
        declaration's order, and ``parsed`` receives the typed values in that order."""
        known = {s.name: s for s in specs}
        good: dict[str, Any] = {}
        for key, raw in obj.items():
            spec = known.get(key)
            p = key_path(path, key)
            if spec is None:
                self.r.problem(p, f"not a {what} of {self.ruleset} (known: {_names(known)})")
                continue
            try:
                typed = read_value(spec, raw)
            except FieldError as e:
                self.r.problem(p + e.at, str(e))
                continue
            except OverflowError:
                self.r.problem(p, "is too large")
                continue
            good[key] = typed if spec.kind in ("int", "die") else raw
            if parsed is not None:
                parsed[key] = typed
        for spec in specs:
            if spec.required and spec.name not in obj:
                self.r.problem(key_path(path, spec.name), f"missing required {what}")
        if parsed is not None:
            ordered = {s.name: parsed[s.name] for s in specs if s.name in parsed}
            parsed.clear()
            parsed.update(ordered)
        return {s.name: good[s.name] for s in specs if s.name in good}

    # -- fighters and units --------------------------------------------------------------
    def _placed(self, obj: dict[str, Any], path: str, sides: Collection[str]) -> dict[str, Any]:
        """id, name, side, x, y and facing, in the order of the file format."""
        r = self.r
        ident = r.req_id(obj, "id", path)
        name = r.opt_string(obj, "name", path)
        side = r.req_id(obj, "side", path)
        if side is not None and side not in sides:
            r.problem(key_path(path, "side"),
                      f"unknown side {shown(side)} (sides: {_names(sides) or 'none'})")
            side = None
        return {"id": ident, "name": name, "side": side, "x": r.req_number(obj, "x", path),
                "y": r.req_number(obj, "y", path),
                "facing": r.opt_number(obj, "facing", path, 90.0)}

    def profile_parts(self, obj: dict[str, Any], path: str) -> dict[str, Any]:
        """characteristics, traits, weapons and state, checked against the declaration."""
        r = self.r
        chars_raw = r.get(obj, "characteristics", path, required=True)
        chars = {} if is_missing(chars_raw) else self.characteristics(
            chars_raw, key_path(path, "characteristics"))
        traits = self.traits(obj.get("traits", []), key_path(path, "traits"))
        required = self.decl is None or self.decl.weapons_required
        weapons_raw = r.get(obj, "weapons", path, required=required)
        weapons = () if is_missing(weapons_raw) else self.weapons(
            weapons_raw, key_path(path, "weapons"))
        state = self.state(obj.get("state", {}), key_path(path, "state"))
        return {"characteristics": chars, "traits": traits, "weapons": weapons, "state": state}

    def fighter(self, value: Any, path: str, sides: Collection[str]) -> Fighter | None:
        obj = self.r.obj(value, path, FIGHTER_FIELDS)
        if obj is None:
            return None
        r = self.r
        before = r.count
        placed = self._placed(obj, path, sides)
        base_raw = r.get(obj, "base", path, required=True)
        base = None if is_missing(base_raw) else self.base(base_raw, key_path(path, "base"))
        elevation: float | None = None
        if obj.get("elevation") is not None:
            elevation = r.number(obj["elevation"], key_path(path, "elevation"), minimum=0.0)
        height = r.opt_number(obj, "height", path, 1.25, positive=True)
        profile = self.profile_parts(obj, path)
        if r.count > before or base is None or height is None:
            return None
        return Fighter(base=base, elevation=elevation, height=height, **placed, **profile)

    def unit(self, value: Any, path: str, sides: Collection[str]) -> Unit | None:
        obj = self.r.obj(value, path, UNIT_FIELDS)
        if obj is None:
            return None
        before = self.r.count
        placed = self._placed(obj, path, sides)
        formation = self.formation(obj, path)
        profile = self.profile_parts(obj, path)
        if self.r.count > before or formation is None:
            return None
        return Unit(**placed, **formation, **profile)

    def formation(self, obj: dict[str, Any], path: str) -> dict[str, Any] | None:
        """A unit's models, files, base_mm, round_base and height_class (None if bad)."""
        r = self.r
        models = files = None
        if not is_missing(raw := r.get(obj, "models", path, True)):
            models = r.integer(raw, key_path(path, "models"), minimum=1, maximum=MAX_MODELS)
        if not is_missing(raw := r.get(obj, "files", path, True)):
            files = r.integer(raw, key_path(path, "files"), minimum=1, maximum=MAX_MODELS)
        if models is not None and files is not None and files > models:
            r.problem(key_path(path, "files"), f"cannot exceed models ({models})")
            files = None
        base_mm = None
        if not is_missing(raw := r.get(obj, "base_mm", path, True)):
            p = key_path(path, "base_mm")
            pair = r.array(raw, p)
            if pair is not None and len(pair) != 2:
                r.problem(p, "must be [width, depth] in millimetres")
            elif pair is not None:
                w, d = (r.number(v, index_path(p, i), positive=True) for i, v in enumerate(pair))
                base_mm = None if w is None or d is None else (w, d)
        round_base: bool | None = False
        if "round_base" in obj:
            round_base = r.boolean(obj["round_base"], key_path(path, "round_base"))
        if round_base and models is not None and models != 1:
            r.problem(key_path(path, "round_base"), f"a round base holds one model, not {models}")
            round_base = None
        height_class: str | None = "standard"
        if "height_class" in obj:
            height_class = r.choice(obj["height_class"], key_path(path, "height_class"),
                                    HEIGHT_CLASSES)
        if None in (models, files, base_mm, round_base, height_class):
            return None
        return {"models": models, "files": files, "base_mm": base_mm, "round_base": round_base,
                "height_class": height_class}


def _names(names: Collection[str]) -> str:
    return ", ".join(names)
