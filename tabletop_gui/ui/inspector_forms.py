"""The Inspector's forms: which editors a fighter, a unit, an obstacle, a platform and the
battlefield itself get. Each editor is a Binding (inspector_fields); tables edit weapons
and polygon vertices (inspector_tables)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtWidgets import QFormLayout, QGroupBox, QWidget

from tabletop_gui.rules.fields import Declaration, FieldError, FieldSpec, kind_of, read_value
from tabletop_gui.scenario.entities import (
    Fighter,
    Grid,
    Obstacle,
    OvalBase,
    Platform,
    RectBase,
    RoundBase,
    Scenario,
    Unit,
)
from tabletop_gui.ui.inspector_fields import (
    Binding,
    Commit,
    bool_field,
    choice_field,
    int_field,
    number_field,
    parse_traits,
    text_field,
    traits_text,
)

NONE = "(none)"


@dataclass(frozen=True)
class Many:
    """Several selected models, edited together: a field shows the first one's value and
    a new value goes to every one of them."""

    models: tuple[Fighter | Unit, ...]


def _for_all(read: Callable[[Any], Any], write: Callable[[Any, Any], Any]
             ) -> tuple[Callable[[Many], Any], Callable[[Many, Any], Many]]:
    return (lambda t: read(t.models[0])), (
        lambda t, v: Many(tuple(write(m, v) for m in t.models)))


def many_form(scenario: Scenario, many: Many, decl: Declaration, commit: Commit) -> Form:
    """The fields several models share: side, facing, height class or height, state."""
    f = Form(commit)
    f.group(f"{len(many.models)} models")
    f.add(choice_field("side", [(s.name or s.id, s.id) for s in scenario.sides],
                       *_for_all(*_attr("side")), commit))
    f.add(number_field("facing", *_for_all(*_attr("facing")), commit, minimum=0,
                       maximum=359.99, step=5, suffix="\u00b0"))
    f.group("State")
    for spec in decl.state:
        if spec.kind == "bool":
            f.add(_spec_field(spec, *_for_all(*_in_map("state", spec)), commit))
    return f


class Form:
    """Group boxes of bound editors for one entity (or the battlefield)."""

    def __init__(self, commit: Commit) -> None:
        self.commit = commit
        self.bindings: list[Binding] = []
        self.groups: list[QGroupBox] = []
        self.tables: list[Any] = []
        self._layout: QFormLayout | None = None

    def group(self, title: str) -> None:
        box = QGroupBox(title)
        self._layout = QFormLayout(box)
        self.groups.append(box)

    def add(self, binding: Binding) -> Binding:
        assert self._layout is not None
        binding.widget.setObjectName(f"field_{binding.label}")
        self._layout.addRow(binding.label, binding.widget)
        self.bindings.append(binding)
        return binding

    def number_of(self, binding: Binding) -> int:
        """The place of ``binding`` in this form (its edits merge with each other only);
        past the last for a binding of another form."""
        return next((i for i, b in enumerate(self.bindings) if b is binding),
                    len(self.bindings))

    def add_widget(self, widget: QWidget) -> None:
        assert self._layout is not None
        self._layout.addRow(widget)
        self.tables.append(widget)

    def load(self, entity: Any) -> None:
        for b in self.bindings:
            b.load(entity)
        for t in self.tables:
            t.load(entity)

    def binding(self, label: str) -> Binding:
        return next(b for b in self.bindings if b.label == label)


# -- field factories by declaration ------------------------------------------------------

def _spec_field(spec: FieldSpec, get: Callable[[Any], Any],
                put: Callable[[Any, Any], Any], commit: Commit) -> Binding:
    label, optional = spec.name, not spec.required
    none = NONE if optional else ""
    if spec.kind in ("int", "die"):
        low = 2 if spec.kind == "die" else int(spec.minimum if spec.minimum is not None else 0)
        return int_field(label, get, put, commit, minimum=low, maximum=9999, none_text=none)
    if spec.kind == "number":
        lowest = float(spec.minimum if spec.minimum is not None else -1e6)
        return number_field(label, get, put, commit, minimum=lowest, none_text=none)
    if spec.kind == "bool":
        return bool_field(label, get, put, commit)
    if spec.kind == "enum":
        return choice_field(label, [(c, c) for c in spec.choices], get, put, commit)

    kind = kind_of(spec)

    def text_get(e: Any) -> str:
        return kind.format(get(e))

    def text_put(e: Any, text: str) -> Any:
        if kind.name != "strings" and not text.strip():
            return put(e, None)
        return put(e, kind.from_text(text))

    binding = text_field(label, text_get, text_put, commit)
    binding.widget.setToolTip(f"{spec.name}: {kind.hint}")  # what the kind takes
    return binding


def _in_map(attr: str, spec: FieldSpec) -> tuple[Callable[[Any], Any], Callable[[Any, Any], Any]]:
    """Read/write one key of a mapping attribute (characteristics, state); None removes it."""
    def get(e: Any) -> Any:
        return getattr(e, attr).get(spec.name, spec.default)

    def put(e: Any, v: Any) -> Any:
        values = dict(getattr(e, attr))
        if v is None:
            values.pop(spec.name, None)
        else:
            try:
                typed = read_value(spec, v)
            except FieldError as err:
                raise ValueError(f"{spec.name} {err}") from None
            # whole numbers as the kind reads them (5.0 -> 5); other kinds as written
            values[spec.name] = typed if spec.kind in ("int", "die") else v
        return replace(e, **{attr: values})

    return get, put


def _attr(name: str) -> tuple[Callable[[Any], Any], Callable[[Any, Any], Any]]:
    return (lambda e: getattr(e, name)), (lambda e, v: replace(e, **{name: v}))


def _positive(name: str) -> Callable[[Any, Any], Any]:
    def put(e: Any, v: Any) -> Any:
        if v is None or v <= 0:
            raise ValueError(f"{name} must be > 0")
        return replace(e, **{name: v})
    return put


# -- forms -------------------------------------------------------------------------------

def model_form(scenario: Scenario, model: Fighter | Unit, decl: Declaration, commit: Commit,
               table_commit: Callable[[str, Any], None], refuse: Callable[[str], None]) -> Form:
    f = Form(commit)
    f.group("Fighter" if isinstance(model, Fighter) else "Unit")
    f.add(text_field("name", *_attr("name"), commit))
    f.add(choice_field("side", [(s.name or s.id, s.id) for s in scenario.sides],
                       *_attr("side"), commit))
    f.add(number_field("x", *_attr("x"), commit, minimum=0, maximum=scenario.battlefield.width,
                       suffix="\u2033"))
    f.add(number_field("y", *_attr("y"), commit, minimum=0, maximum=scenario.battlefield.depth,
                       suffix="\u2033"))
    f.add(number_field("facing", *_attr("facing"), commit, minimum=0, maximum=359.99,
                       step=5, suffix="\u00b0"))
    if isinstance(model, Fighter):
        _fighter_fields(f, commit)
    else:
        _unit_fields(f, commit)
    f.group("Characteristics")
    for spec in decl.characteristics:
        f.add(_spec_field(spec, *_in_map("characteristics", spec), commit))
    f.group("State")
    for spec in decl.state:
        f.add(_spec_field(spec, *_in_map("state", spec), commit))
    f.group("Traits")
    f.add(text_field("traits", lambda e: traits_text(e.traits),
                     lambda e, t: replace(e, traits=parse_traits(t)), commit))
    f.group("Weapons")
    from tabletop_gui.ui.inspector_tables import WeaponsEditor  # lazy: a model selected

    f.add_widget(WeaponsEditor(decl.weapon_fields, table_commit, refuse,
                               decl.weapons_required))
    return f


def _base_size(e: Fighter, i: int) -> float:
    b = e.base
    if isinstance(b, RoundBase):
        return b.diameter_mm
    if isinstance(b, OvalBase):
        return (b.length_mm, b.width_mm)[i]
    return (b.width_mm, b.depth_mm)[i]


def _with_base_size(e: Fighter, i: int, v: float) -> Fighter:
    if v is None or v <= 0:
        raise ValueError("base sizes must be > 0")
    b = e.base
    if isinstance(b, RoundBase):
        return replace(e, base=RoundBase(v))
    if isinstance(b, OvalBase):
        return replace(e, base=OvalBase(*((v, b.width_mm) if i == 0 else (b.length_mm, v))))
    return replace(e, base=RectBase(*((v, b.depth_mm) if i == 0 else (b.width_mm, v))))


def _with_shape(e: Fighter, shape: str) -> Fighter:
    b = e.base
    if isinstance(b, RoundBase):
        length = width = b.diameter_mm
    elif isinstance(b, OvalBase):
        length, width = b.length_mm, b.width_mm
    else:
        length, width = b.depth_mm, b.width_mm
    new: RoundBase | OvalBase | RectBase
    if shape == "round":
        new = RoundBase(max(length, width))
    elif shape == "oval":
        new = OvalBase(length, width)
    else:
        new = RectBase(width, length)
    return e if new.shape == b.shape else replace(e, base=new)


def _fighter_fields(f: Form, commit: Commit) -> None:
    f.group("Base")
    f.add(choice_field("shape", [("round", "round"), ("oval", "oval"), ("rectangular", "rect")],
                       lambda e: e.base.shape, _with_shape, commit))
    f.add(number_field("size 1 (mm)", lambda e: _base_size(e, 0),
                       lambda e, v: _with_base_size(e, 0, v), commit, minimum=1, maximum=1000,
                       step=1, decimals=1))
    f.add(number_field("size 2 (mm)", lambda e: _base_size(e, 1),
                       lambda e, v: _with_base_size(e, 1, v), commit, minimum=1, maximum=1000,
                       step=1, decimals=1))
    f.add(number_field("elevation", *_attr("elevation"), commit, minimum=0, maximum=1000,
                       suffix="\u2033", none_text="from platforms"))
    f.add(number_field("height", lambda e: e.height, _positive("height"), commit,
                       minimum=0.01, maximum=100, suffix="\u2033"))


def _unit_fields(f: Form, commit: Commit) -> None:
    f.group("Formation")
    f.add(int_field("models", lambda e: e.models, _positive("models"), commit, minimum=1,
                    maximum=10000))
    f.add(int_field("files", lambda e: e.files, _positive("files"), commit, minimum=1,
                    maximum=1000))
    f.add(number_field("base width (mm)", lambda e: e.base_mm[0],
                       lambda e, v: replace(e, base_mm=(v, e.base_mm[1])), commit, minimum=1,
                       maximum=1000, step=5, decimals=1))
    f.add(number_field("base depth (mm)", lambda e: e.base_mm[1],
                       lambda e, v: replace(e, base_mm=(e.base_mm[0], v)), commit, minimum=1,
                       maximum=1000, step=5, decimals=1))
    f.add(bool_field("round base", *_attr("round_base"), commit))
    f.add(choice_field("height class", [(c, c) for c in ("standard", "large", "gigantic")],
                       *_attr("height_class"), commit))


def terrain_form(terrain: Obstacle | Platform, commit: Commit,
                 table_commit: Callable[[str, Any], None], refuse: Callable[[str], None]
                 ) -> Form:
    f = Form(commit)
    f.group("Obstacle" if isinstance(terrain, Obstacle) else "Platform")
    f.add(text_field("name", *_attr("name"), commit))
    f.add(number_field("height", lambda e: e.height, _positive("height"), commit,
                       minimum=0.01, maximum=1000, suffix="\u2033"))
    if isinstance(terrain, Obstacle):
        f.add(bool_field("blocks sight", *_attr("blocks_sight"), commit))
        f.add(choice_field("cover", [("hard", "hard"), ("soft", "soft")], *_attr("cover"),
                           commit))
    f.group("Vertices")
    from tabletop_gui.ui.inspector_tables import VerticesEditor  # lazy: terrain selected

    f.add_widget(VerticesEditor(table_commit, refuse))
    return f


def battlefield_form(commit: Commit) -> Form:
    """The scenario's own fields: name, battlefield size, grid."""
    f = Form(commit)
    f.group("Battlefield")
    f.add(text_field("name", *_attr("name"), commit))

    def put_bf(**kw: Any) -> Callable[[Scenario, Any], Scenario]:
        def put(s: Scenario, v: Any) -> Scenario:
            key = next(iter(kw))
            return replace(s, battlefield=replace(s.battlefield, **{key: kw[key](s, v)}))
        return put

    def positive(_s: Scenario, v: Any) -> float:
        if v is None or v <= 0:
            raise ValueError("sizes must be > 0")
        return float(v)

    f.add(number_field("width", lambda s: s.battlefield.width, put_bf(width=positive), commit,
                       minimum=1, maximum=1000, step=1, suffix="\u2033"))
    f.add(number_field("depth", lambda s: s.battlefield.depth, put_bf(depth=positive), commit,
                       minimum=1, maximum=1000, step=1, suffix="\u2033"))

    def grid_kind(s: Scenario, v: Any) -> Grid | None:
        g = s.battlefield.grid
        return None if v is None else Grid(v, g.size if g else 1.0)

    def grid_size(s: Scenario, v: Any) -> Grid | None:
        g = s.battlefield.grid
        if g is None:
            raise ValueError("choose a grid kind first")
        return Grid(g.kind, positive(s, v))

    f.add(choice_field("grid", [(NONE, None), ("squares", "square"), ("hexes", "hex")],
                       lambda s: s.battlefield.grid.kind if s.battlefield.grid else None,
                       put_bf(grid=grid_kind), commit))
    f.add(number_field("space size", lambda s: s.battlefield.grid.size if s.battlefield.grid
                       else 1.0, put_bf(grid=grid_size), commit, minimum=0.1, maximum=100,
                       suffix="\u2033"))
    return f

