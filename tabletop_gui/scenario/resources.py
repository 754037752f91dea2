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
from tabletop_gui.scenario.entities import Scenario
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
    return load_scenario(demo_path(ruleset_id))


def profiles_path(ruleset_id: str) -> Path:
    info(ruleset_id)
    return RESOURCES / "profiles" / f"{ruleset_id}.json"


def load_profiles(ruleset_id: str) -> list[dict[str, Any]]:
    """The ruleset's profile library, every profile checked against its declaration."""
    path = profiles_path(ruleset_id)
    try:
        data = path.read_bytes()
    except OSError as e:
        problem = Problem("", f"cannot read the file: {e.strerror}")
        raise ScenarioError([problem], str(path)) from None
    return profiles_from_json(decode(data, str(path)), ruleset_id, str(path))


def profiles_from_json(
    document: Any, ruleset_id: str, source: str = "<string>"
) -> list[dict[str, Any]]:
    """Check a decoded profile library of ``ruleset_id``; ScenarioError names every defect."""
    r = Reader()
    top = r.obj(document, "", ("ruleset", "profiles"))
    profiles: list[dict[str, Any]] = []
    if top is not None:
        if top.get("ruleset") != ruleset_id:
            r.problem("ruleset", f"must be {shown(ruleset_id)}, not {shown(top.get('ruleset'))}")
        raw = r.get(top, "profiles", "", required=True)
        items = [] if is_missing(raw) else r.array(raw, "profiles") or []
        names: set[str] = set()
        for i, item in enumerate(items):
            profile = _profile(r, item, index_path("profiles", i), ruleset_id)
            name = profile.get("name") if profile else None
            if isinstance(name, str) and name in names:
                r.problem(key_path(index_path("profiles", i), "name"),
                          f"another profile is also named {shown(name)}")
            elif profile is not None and isinstance(name, str):
                names.add(name)
                profiles.append(profile)
    if r.problems:
        raise ScenarioError(r.report(), source)
    return profiles


def _profile(r: Reader, value: Any, path: str, ruleset_id: str) -> dict[str, Any] | None:
    decl = INFOS[ruleset_id].declaration
    units = decl.models == "units"
    obj = r.obj(value, path, UNIT_PROFILE_FIELDS if units else FIGHTER_PROFILE_FIELDS)
    if obj is None:
        return None
    before = r.count
    m = ModelReader(r, ruleset_id, decl)
    r.req_id(obj, "name", path)
    if units:
        m.formation(obj, path)
    else:
        if not is_missing(base := r.get(obj, "base", path, required=True)):
            m.base(base, key_path(path, "base"))
        r.opt_number(obj, "height", path, 1.25, positive=True)
    m.profile_parts(obj, path)
    return obj if r.count == before else None
