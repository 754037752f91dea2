"""The fighter data library: community Warcry fighter lists and base sizes.

Two JSON shapes players keep (the project ships no such data):

- fighters: ``[{"name", "warband", "movement", "toughness", "wounds", "points",
  "runemarks": [...], "weapons": [{"attacks", "strength", "dmg_hit", "dmg_crit",
  "min_range", "max_range", "runemark"}]}]`` (other keys are ignored);
- base sizes: ``{"ORDER": [{"name", "base_size_x", "base_size_y"}], "CHAOS": [...]}``,
  sizes in millimetres as strings. Equal sizes are a round base, unequal an oval one
  (the longer size along the facing).

``FighterLibrary`` searches them and gives base sizes by fighter name (exact, else the
longest library name the fighter's name starts with: ``Iron Legionary with Bolas`` takes
``Iron Legionary``'s base). ``LibraryStore`` keeps them in a folder (the GUI passes the
user's data folder): loading a file merges it into what is kept.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from tabletop_gui.importers.sources import ImportRefused, decode_json, located, read_file
from tabletop_gui.scenario.entities import Base, Fighter, OvalBase, RoundBase, Weapon
from tabletop_gui.scenario.problems import shown

FIGHTERS_FILE = "warcry-fighters.json"
BASES_FILE = "warcry-bases.json"
MAX_RECORDS = 10_000


@dataclass(frozen=True)
class FighterRecord:
    name: str
    warband: str
    movement: float
    toughness: int
    wounds: int
    points: int
    runemarks: tuple[str, ...]
    weapons: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "warband": self.warband, "movement": self.movement,
                "toughness": self.toughness, "wounds": self.wounds, "points": self.points,
                "runemarks": list(self.runemarks), "weapons": [dict(w) for w in self.weapons]}


@dataclass
class FighterLibrary:
    # the ruleset whose fighters these are (the fighter data's profiles are Warcry's)
    ruleset: ClassVar[str] = "warcry"
    fighters: list[FighterRecord] = field(default_factory=list)
    bases: dict[str, tuple[str, Base]] = field(default_factory=dict)  # casefold -> (name, base)

    def search(self, text: str) -> list[FighterRecord]:
        """Fighters whose name or warband holds every word of ``text`` (any case)."""
        words = text.casefold().split()
        return [f for f in self.fighters
                if all(w in f"{f.name} {f.warband}".casefold() for w in words)]

    def base_for(self, name: str) -> Base | None:
        key = name.casefold().strip()
        if key in self.bases:
            return self.bases[key][1]
        prefixes = [k for k in self.bases if key.startswith(k + " ")]
        return self.bases[max(prefixes, key=len)][1] if prefixes else None

    def fighter(self, record: FighterRecord) -> Fighter:
        """A template fighter of the record (Warcry), not yet placed."""
        weapons = []
        names: set[str] = set()
        for i, w in enumerate(record.weapons):
            label = (w["runemark"] or f"weapon {i + 1}").replace("_", " ").capitalize()
            while label in names:
                label += "'"
            names.add(label)
            lo, hi = w["min_range"], w["max_range"]
            rng: float | str = float(hi) if lo <= 0 else f"{_num(lo)}-{_num(hi)}"
            weapons.append(Weapon(label, {"range": rng, "attacks": w["attacks"],
                                          "strength": w["strength"],
                                          "damage": f"{w['dmg_hit']}/{w['dmg_crit']}"}))
        base = self.base_for(record.name) or RoundBase(32.0)
        return Fighter(id="", name=record.name, side="", x=0.0, y=0.0, base=base,
                       characteristics={"move": record.movement,
                                        "toughness": record.toughness,
                                        "wounds": record.wounds},
                       traits=record.runemarks, weapons=tuple(weapons))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def is_fighter_data(document: Any) -> bool:
    return isinstance(document, list) and bool(document) and all(
        isinstance(d, dict) and "warband" in d and "weapons" in d for d in document[:20])


def is_base_sizes(document: Any) -> bool:
    return isinstance(document, dict) and bool(document) and all(
        isinstance(v, list) and all(isinstance(d, dict) and "base_size_x" in d for d in v)
        for v in document.values())


def fighters_from_json(document: Any, source: str) -> list[FighterRecord]:
    errors: list[str] = []
    if not isinstance(document, list):
        raise ImportRefused([located(source, "", "fighter data must be a list of fighters")])
    if len(document) > MAX_RECORDS:
        raise ImportRefused([located(source, "", f"more than {MAX_RECORDS} fighters")])
    out: list[FighterRecord] = []
    for i, item in enumerate(document):
        place = f"[{i}]"
        if not isinstance(item, dict):
            errors.append(located(source, place, f"must be an object, not {shown(item)}"))
            continue
        bad: list[str] = []

        def get(key: str, kind: type | tuple[type, ...], where: str, obj: dict[str, Any],
                bad: list[str] = bad) -> Any:
            v = obj.get(key)
            if isinstance(v, bool) or not isinstance(v, kind):
                bad.append(located(source, f"{where}.{key}",
                                   f"must be {_kind(kind)}, not {shown(v)}"))
                return None
            if isinstance(v, int | float) and not 0 <= v <= 1e6:
                bad.append(located(source, f"{where}.{key}", f"{shown(v)} is out of range"))
                return None
            return v

        name = get("name", str, place, item)
        warband = get("warband", str, place, item)
        movement = get("movement", (int, float), place, item)
        toughness = get("toughness", int, place, item)
        wounds = get("wounds", int, place, item)
        points = item.get("points", 0)
        points = points if isinstance(points, int) and not isinstance(points, bool) else 0
        runemarks = item.get("runemarks", [])
        if not isinstance(runemarks, list) or not all(isinstance(r, str) for r in runemarks):
            bad.append(located(source, f"{place}.runemarks", "must be a list of names"))
            runemarks = []
        weapons: list[dict[str, Any]] = []
        raw_weapons = item.get("weapons")
        if not isinstance(raw_weapons, list) or not raw_weapons:
            bad.append(located(source, f"{place}.weapons", "must be a list of weapons"))
            raw_weapons = []
        for j, w in enumerate(raw_weapons):
            wp = f"{place}.weapons[{j}]"
            if not isinstance(w, dict):
                bad.append(located(source, wp, "must be an object"))
                continue
            got = {k: get(k, int, wp, w) for k in ("attacks", "strength", "dmg_hit",
                                                    "dmg_crit", "min_range", "max_range")}
            mark = w.get("runemark", "")
            got["runemark"] = mark if isinstance(mark, str) else ""
            if None not in got.values():
                if got["max_range"] <= 0 or got["min_range"] >= got["max_range"] \
                        or got["attacks"] < 1 or got["strength"] < 1:
                    bad.append(located(source, wp, "range, attacks or strength out of range"))
                else:
                    weapons.append(got)
        if bad or toughness is None or wounds is None or name is None:
            errors.extend(bad)
            continue
        out.append(FighterRecord(name.strip(), (warband or "").strip(), float(movement),
                                 toughness, wounds, points, tuple(runemarks), tuple(weapons)))
    if errors:
        raise ImportRefused(errors)
    return out


def _kind(kind: type | tuple[type, ...]) -> str:
    if kind is str:
        return "text"
    return "a whole number" if kind is int else "a number"


def bases_from_json(document: Any, source: str) -> dict[str, tuple[str, Base]]:
    errors: list[str] = []
    out: dict[str, tuple[str, Base]] = {}
    if not isinstance(document, dict):
        raise ImportRefused([located(source, "", "base sizes must be an object of lists")])
    for group, items in document.items():
        if not isinstance(items, list):
            errors.append(located(source, group, "must be a list"))
            continue
        for i, item in enumerate(items):
            place = f"{group}[{i}]"
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                errors.append(located(source, place, "must be {name, base_size_x, base_size_y}"))
                continue
            sizes = []
            for key in ("base_size_x", "base_size_y"):
                raw = item.get(key)
                try:
                    mm = float(str(raw).strip().removesuffix("mm").strip())
                except ValueError:
                    mm = -1.0
                if not 0 < mm <= 1000:
                    errors.append(located(source, f"{place}.{key}",
                                          f"{shown(raw)} is not a size in millimetres"))
                sizes.append(mm)
            if all(0 < mm <= 1000 for mm in sizes):
                x, y = sizes
                base: Base = RoundBase(x) if x == y else OvalBase(max(x, y), min(x, y))
                out[item["name"].casefold().strip()] = (item["name"].strip(), base)
    if errors:
        raise ImportRefused(errors)
    return out


class LibraryStore:
    """The library kept in ``folder`` (the user's data folder in the GUI)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def load(self) -> FighterLibrary:
        """What is kept; a damaged kept file is refused like an imported one."""
        lib = FighterLibrary()
        fighters = self.folder / FIGHTERS_FILE
        bases = self.folder / BASES_FILE
        if fighters.exists():
            lib.fighters = fighters_from_json(decode_json(read_file(fighters), str(fighters)),
                                              str(fighters))
        if bases.exists():
            lib.bases = bases_from_json(decode_json(read_file(bases), str(bases)), str(bases))
        return lib

    def add_file(self, path: str | Path) -> str:
        """Merge a fighter data or base size file into the library; what it held, in words."""
        source = str(path)
        document = decode_json(read_file(path), source)
        lib = self.load()
        if is_fighter_data(document):
            new = fighters_from_json(document, source)
            keys = {(f.name, f.warband) for f in new}
            lib.fighters = [f for f in lib.fighters if (f.name, f.warband) not in keys] + new
            self._write(FIGHTERS_FILE, [f.to_json() for f in lib.fighters])
            return f"{len(new)} fighters of {len({f.warband for f in new})} warbands"
        if is_base_sizes(document):
            new_bases = bases_from_json(document, source)
            lib.bases.update(new_bases)
            self._write(BASES_FILE, {"ALL": [_base_json(n, b) for n, b in lib.bases.values()]})
            return f"{len(new_bases)} base sizes"
        raise ImportRefused([located(source, "", "neither fighter data ([{name, warband, "
                                                 "weapons...}]) nor base sizes ({\"ORDER\": "
                                                 "[{name, base_size_x, base_size_y}]})")])

    def _write(self, name: str, document: Any) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.folder / name
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=self.folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(document, f, ensure_ascii=False, indent=1)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def _base_json(name: str, base: Base) -> dict[str, str]:
    if isinstance(base, RoundBase):
        x = y = base.diameter_mm
    elif isinstance(base, OvalBase):
        x, y = base.length_mm, base.width_mm
    else:
        x, y = base.depth_mm, base.width_mm
    return {"name": name, "base_size_x": _num(x), "base_size_y": _num(y)}
