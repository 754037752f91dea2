"""The shipped files: demo battlefields, profile libraries and the JSON Schema.

They live in the checkout's top-level ``resources/`` folder; building the package maps
that folder into it as ``tabletop_gui/resources`` (``[tool.setuptools.package-dir]`` in
pyproject.toml), so an installed wheel carries them inside the package, while a source
checkout (or its editable install) reads them where they are.

A profile library is ``{"ruleset": id, "profiles": [...]}``; a profile is what a fighter
(or unit) would hold without its place on the table: fighters ``name``, ``base``,
``height``, ``characteristics``, ``traits``, ``weapons``; units ``name``, ``models``,
``files``, ``base_mm``, ``round_base``, ``height_class``, ``characteristics``, ``traits``,
``weapons``. Profiles are checked against the ruleset's declaration like a scenario file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tabletop_gui.rules.registry import INFOS, info
from tabletop_gui.scenario.entities import Fighter, Model, Scenario, Unit
from tabletop_gui.scenario.load import decode, load_scenario
from tabletop_gui.scenario.load_models import ModelReader
from tabletop_gui.scenario.problems import Problem, ScenarioError, index_path, key_path, shown
from tabletop_gui.scenario.reader import Reader, is_missing


def resources_folder() -> Path:
    """``tabletop_gui/resources`` in an installed wheel, else the checkout's ``resources/``."""
    package = Path(__file__).resolve().parent.parent
    for folder in (package / "resources", package.parent / "resources"):
        if (folder / "scenario.schema.json").is_file():
            return folder
    return package.parent / "resources"  # neither: reading a file there names the path


RESOURCES = resources_folder()
SCHEMA_PATH = RESOURCES / "scenario.schema.json"
FIGHTER_PROFILE_FIELDS = ("name", "base", "height", "characteristics", "traits", "weapons")
UNIT_PROFILE_FIELDS = ("name", "models", "files", "base_mm", "round_base", "height_class",
                       "characteristics", "traits", "weapons")


def demo_path(ruleset_id: str) -> Path:
    """The demo battlefield of a ruleset (RulesError for an unknown ruleset)."""
    info(ruleset_id)
    return RESOURCES / "demos" / f"{ruleset_id}.battle.json"


def load_demo(ruleset_id: str) -> Scenario:
    """The demo battlefield of a ruleset, read as a shipped file (its polygons are
    checked by the tests, not on each start: ``load_terrain``)."""
    return load_scenario(demo_path(ruleset_id), shipped=True)


def profiles_path(ruleset_id: str) -> Path:
    info(ruleset_id)
    return RESOURCES / "profiles" / f"{ruleset_id}.json"


def load_profiles(ruleset_id: str) -> list[dict[str, Any]]:
    """The ruleset's profile library, every profile checked against its declaration."""
    return [raw for raw, _ in _library(ruleset_id)]


def library_models(ruleset_id: str) -> list[Model]:
    """The ruleset's profile library as template models (id ``t0``, ``t1``..., side ``s``,
    at (1, 1): the Add tool gives each its own), read and checked once."""
    return [model for _, model in _library(ruleset_id)]


def _library(ruleset_id: str) -> list[tuple[dict[str, Any], Model]]:
    path = profiles_path(ruleset_id)
    try:
        data = path.read_bytes()
    except OSError as e:
        problem = Problem("", f"cannot read the file: {e.strerror}")
        raise ScenarioError([problem], str(path)) from None
    return _profiles(decode(data, str(path)), ruleset_id, str(path))


def profiles_from_json(
    document: Any, ruleset_id: str, source: str = "<string>"
) -> list[dict[str, Any]]:
    """Check a decoded profile library of ``ruleset_id``; ScenarioError names every defect."""
    return [raw for raw, _ in _profiles(document, ruleset_id, source)]


def _profiles(document: Any, ruleset_id: str, source: str
              ) -> list[tuple[dict[str, Any], Model]]:
    """Each profile of a decoded library as it is in the file and as a template model."""
    r = Reader()
    top = r.obj(document, "", ("ruleset", "profiles"))
    profiles: list[tuple[dict[str, Any], Model]] = []
    if top is not None:
        if top.get("ruleset") != ruleset_id:
            r.problem("ruleset", f"must be {shown(ruleset_id)}, not {shown(top.get('ruleset'))}")
        raw = r.get(top, "profiles", "", required=True)
        items = [] if is_missing(raw) else r.array(raw, "profiles") or []
        names: set[str] = set()
        for i, item in enumerate(items):
            profile = _profile(r, item, index_path("profiles", i), ruleset_id, f"t{i}")
            name = profile[0].get("name") if profile else None
            if isinstance(name, str) and name in names:
                r.problem(key_path(index_path("profiles", i), "name"),
                          f"another profile is also named {shown(name)}")
            elif profile is not None and isinstance(name, str):
                names.add(name)
                profiles.append(profile)
    if r.problems:
        raise ScenarioError(r.report(), source)
    return profiles


def _profile(r: Reader, value: Any, path: str, ruleset_id: str, template_id: str
             ) -> tuple[dict[str, Any], Model] | None:
    """A profile checked against the ruleset's declaration, and its template model."""
    decl = INFOS[ruleset_id].declaration
    units = decl.models == "units"
    obj = r.obj(value, path, UNIT_PROFILE_FIELDS if units else FIGHTER_PROFILE_FIELDS)
    if obj is None:
        return None
    before = r.count
    m = ModelReader(r, ruleset_id, decl)
    name = r.req_id(obj, "name", path)
    placed: dict[str, Any] = {"id": template_id, "name": name, "side": "s", "x": 1.0, "y": 1.0}
    formation = base = height = None
    if units:
        formation = m.formation(obj, path)
    else:
        if not is_missing(raw := r.get(obj, "base", path, required=True)):
            base = m.base(raw, key_path(path, "base"))
        height = r.opt_number(obj, "height", path, 1.25, positive=True)
    parts = m.profile_parts(obj, path)
    if r.count != before:
        return None
    if units:
        assert formation is not None
        return obj, Unit(**placed, **formation, **parts)
    assert base is not None and height is not None
    return obj, Fighter(base=base, height=height, **placed, **parts)
