"""The Inspector's weapon table reads, writes and hints each field by its kind (the one
place in ``rules.fields``): an edited cell keeps the file's value and the typed value the
rules read, so nothing parses it again."""

from __future__ import annotations

from tabletop_gui.rules.fields import DiceSpec, ModifierSpec, RangeSpec, kind_of
from tabletop_gui.ui.inspector_tables import WeaponsEditor
from tests.gui.factories import ranked, skirmish


def _table(w) -> WeaponsEditor:  # noqa: ANN001
    return next(t for t in w.inspector.form.tables if isinstance(t, WeaponsEditor))


def _col(table: WeaponsEditor, name: str) -> int:
    return 1 + [f.name for f in table.fields].index(name)


def test_a_weapon_cell_is_read_once_by_its_kind(make_window):
    w = make_window(ranked())
    doc = w.document
    doc.set_selection(["u1"])
    table = _table(w)
    for name, text in (("range", "24"), ("shots", "D3"), ("strength", "+1"), ("aim", "4")):
        _table(w).table.item(0, _col(table, name)).setText(text)
    spear = doc.scenario.model("u1").weapons[0]
    assert spear.values["range"] == 24 and spear.parsed["range"] == RangeSpec(24.0)
    assert spear.values["shots"] == "D3" and spear.parsed["shots"] == DiceSpec(1, 3)
    assert spear.values["strength"] == "+1"
    assert spear.parsed["strength"] == ModifierSpec(1.0, relative=True)
    assert _table(w).table.item(0, _col(table, "strength")).text() == "+1"  # formatted back
    _table(w).table.item(0, _col(table, "shots")).setText("D1")  # refused, saying why
    assert doc.scenario.model("u1").weapons[0].values["shots"] == "D3"
    assert w.inspector.message.text().startswith('shots: dice "D1" out of bounds')


def test_each_weapon_column_hints_its_kind(make_window):
    w = make_window(skirmish())
    w.document.set_selection(["f1"])
    table = _table(w)
    col = _col(table, "range")
    spec = table.fields[col - 1]
    assert table.table.horizontalHeaderItem(col).toolTip() == f"range: {kind_of(spec).hint}"
    assert "min-max" in table.table.horizontalHeaderItem(col).toolTip()
