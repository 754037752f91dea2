"""Table editors of the Inspector: a model's weapons (add/remove, one column per field the
ruleset declares) and a terrain polygon's vertices (add/remove)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tabletop_gui.model.polygons import polygon_problem
from tabletop_gui.rules.fields import FieldError, FieldSpec, kind_of
from tabletop_gui.scenario.entities import Fighter, Obstacle, Platform, Unit, Weapon

Commit = Callable[[str, Any], None]  # (what changed, new entity); raises nothing
Refuse = Callable[[str], None]


class TableEditor(QWidget):
    """A table with Add and Remove buttons below."""

    def __init__(self, headers: list[str], add_text: str, remove_text: str) -> None:
        super().__init__()
        self.table = QTableWidget(0, len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(90)
        self.add_button = QPushButton(add_text)
        self.remove_button = QPushButton(remove_text)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        self.table.itemChanged.connect(self._item_changed)
        self._loading = False

    def fill(self, rows: list[list[str]]) -> None:
        self._loading = True
        try:
            self.table.setRowCount(len(rows))
            for r, row in enumerate(rows):
                for c, text in enumerate(row):
                    self.table.setItem(r, c, QTableWidgetItem(text))
        finally:
            self._loading = False

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if not self._loading:
            self.cell_edited(item.row(), item.column(), item.text())

    def cell_edited(self, row: int, col: int, text: str) -> None:
        raise NotImplementedError

    def selected_row(self) -> int:
        rows = {i.row() for i in self.table.selectedIndexes()}
        return max(rows) if rows else self.table.rowCount() - 1


class WeaponsEditor(TableEditor):
    def __init__(self, fields: tuple[FieldSpec, ...], commit: Commit, refuse: Refuse,
                 required: bool) -> None:
        super().__init__(["Name", *(f.name for f in fields)], "Add weapon", "Remove weapon")
        self.fields = fields
        for col, spec in enumerate(fields, start=1):  # each column says what its kind takes
            header = self.table.horizontalHeaderItem(col)
            if header is not None:
                header.setToolTip(f"{spec.name}: {kind_of(spec).hint}")
        self.commit, self.refuse, self.required = commit, refuse, required
        self.model: Fighter | Unit | None = None
        self.add_button.clicked.connect(self.add_weapon)
        self.remove_button.clicked.connect(self.remove_weapon)

    def load(self, model: Fighter | Unit) -> None:
        self.model = model
        self.fill([[w.name, *(kind_of(f).format(w.values.get(f.name)) for f in self.fields)]
                   for w in model.weapons])

    def cell_edited(self, row: int, col: int, text: str) -> None:
        assert self.model is not None
        weapons = list(self.model.weapons)
        w = weapons[row]
        if col == 0:
            if not text.strip():
                self.refuse("a weapon needs a name")
                return self.load(self.model)
            new = replace(w, name=text.strip())
        else:
            spec = self.fields[col - 1]
            values, parsed = dict(w.values), dict(w.parsed)
            if not text.strip():
                if spec.required:
                    self.refuse(f"{spec.name} is required")
                    return self.load(self.model)
                values.pop(spec.name, None)
                parsed.pop(spec.name, None)
            else:
                try:
                    values[spec.name], parsed[spec.name] = kind_of(spec).parse(spec, text)
                except FieldError as e:
                    self.refuse(f"{spec.name}: {e}")
                    return self.load(self.model)
            new = replace(w, values=values, parsed=parsed)
        weapons[row] = new
        self.commit(f"weapon {new.name}", replace(self.model, weapons=tuple(weapons)))

    def add_weapon(self) -> None:
        assert self.model is not None
        names = {w.name for w in self.model.weapons}
        n = 1
        while f"Weapon {n}" in names:
            n += 1
        values = {f.name: kind_of(f).new_value(f) for f in self.fields if f.required}
        weapon = Weapon.read(f"Weapon {n}", values, self.fields)
        self.commit("weapons", replace(self.model, weapons=(*self.model.weapons, weapon)))

    def remove_weapon(self) -> None:
        assert self.model is not None
        row = self.selected_row()
        if row < 0:
            return
        if self.required and len(self.model.weapons) <= 1:
            self.refuse("this ruleset needs at least one weapon")
            return
        weapons = tuple(w for i, w in enumerate(self.model.weapons) if i != row)
        self.commit("weapons", replace(self.model, weapons=weapons))


class VerticesEditor(TableEditor):
    def __init__(self, commit: Commit, refuse: Refuse) -> None:
        super().__init__(["x (in)", "y (in)"], "Add vertex", "Remove vertex")
        self.commit, self.refuse = commit, refuse
        self.terrain: Obstacle | Platform | None = None
        self.add_button.clicked.connect(self.add_vertex)
        self.remove_button.clicked.connect(self.remove_vertex)

    def load(self, terrain: Obstacle | Platform) -> None:
        self.terrain = terrain
        self.fill([[f"{x:g}", f"{y:g}"] for x, y in terrain.polygon])

    def _set(self, polygon: list[tuple[float, float]]) -> None:
        assert self.terrain is not None
        problem = polygon_problem(polygon)
        if problem is not None:
            self.refuse(problem)
            self.load(self.terrain)
            return
        self.commit("vertices", replace(self.terrain, polygon=tuple(polygon)))

    def cell_edited(self, row: int, col: int, text: str) -> None:
        assert self.terrain is not None
        try:
            v = float(text)
        except ValueError:
            self.refuse(f"{text!r} is not a number")
            return self.load(self.terrain)
        poly = list(self.terrain.polygon)
        x, y = poly[row]
        poly[row] = (v, y) if col == 0 else (x, v)
        self._set(poly)

    def add_vertex(self) -> None:
        assert self.terrain is not None
        poly = list(self.terrain.polygon)
        i = max(0, self.selected_row())
        a, b = poly[i], poly[(i + 1) % len(poly)]
        poly.insert(i + 1, (round((a[0] + b[0]) / 2, 6), round((a[1] + b[1]) / 2, 6)))
        self._set(poly)

    def remove_vertex(self) -> None:
        assert self.terrain is not None
        poly = list(self.terrain.polygon)
        if len(poly) <= 3:
            self.refuse("a polygon needs at least 3 vertices")
            return
        poly.pop(self.selected_row())
        self._set(poly)
