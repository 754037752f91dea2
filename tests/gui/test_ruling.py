"""Rulings in pictures and in the window (docs/rulings.md).

The pictures: for each hand-computed case of ``tests/core/ruling_cases.py`` the PNG shows
the measured segment where the numbers say (the closest points mapped to pixels, the
segment's colour found there and not beside it); the PDF is one page that starts with
%PDF and holds the verdict; SVG and Markdown hold the text. The window: the Ruling mode on
the key Y and from the context menu, on the window as `tabletop-gui` builds it, and the
Measure tool's closest points and segment, the same as the ruling's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QContextMenuEvent, QImage
from PySide6.QtWidgets import QApplication, QMenu

from tabletop_gui.cli import main
from tabletop_gui.model import recovery
from tabletop_gui.rules import registry
from tabletop_gui.rules.base import AttackRequest
from tabletop_gui.rules.ruling import Ruling, build_ruling
from tabletop_gui.scenario.battle import battle_of
from tabletop_gui.scenario.entities import Scenario
from tabletop_gui.scenario.load import load_scenario
from tabletop_gui.ui.canvas.coords import to_scene
from tabletop_gui.ui.canvas.segment_marks import SEGMENT
from tabletop_gui.ui.canvas.tools.measure import MeasureTool
from tabletop_gui.ui.canvas.tools.ruling import RulingTool
from tabletop_gui.ui.canvas.tools.select import SelectTool
from tabletop_gui.ui.ruling_picture import RulingPicture
from tests.core import ruling_cases as rc
from tests.gui.attack_support import built_window
from tests.gui.events import click, drag
from tests.gui.pdf_text import pdf_text

CASES = {
    "ovals": (rc.OVALS, "a", "t"),
    "grazing": (rc.GRAZING, "a", "t"),
    "wall_near_target": (rc.WALL_NEAR_TARGET, "a", "t"),
    "wall_near_attacker": (rc.WALL_NEAR_ATTACKER, "a", "t"),
    "platform_3": (rc.platform_case(3.0), "a", "t"),
    "platform_2.5": (rc.platform_case(2.5), "a", "t"),
    "arc_line": (rc.ARC_LINE, "s", "u"),
}


def _ruling(path: Path, attacker: str, target: str) -> tuple[Scenario, Ruling]:
    scenario = load_scenario(path)
    battle = battle_of(scenario)
    engine = registry.get(scenario.ruleset)
    report = engine.attack(battle, AttackRequest(attacker, target))
    return scenario, build_ruling(engine, battle, report, search_sight=False)


def _dark(color: QColor) -> bool:
    """The segment's colour (near black), not the table, a base or a sight line."""
    return max(color.red(), color.green(), color.blue()) <= SEGMENT.red() + 40


@pytest.mark.parametrize("name", list(CASES))
def test_the_png_shows_the_segment_where_the_numbers_say(qapp, tmp_path, name):
    case, attacker, target = CASES[name]
    scenario, ruling = _ruling(rc.write(tmp_path, name, case), attacker, target)
    picture = RulingPicture(scenario, ruling)
    png = tmp_path / f"{name}.png"
    assert picture.write_png(png)
    image = QImage(str(png))
    # the picture spans the caption's width (a tall pair shows more table at its sides)
    assert image.width() == picture.size.width() and image.height() > picture.size.height()
    (ax, ay, _), (bx, by, _) = ruling.closest_points
    pa, pb = picture.pixel_of(ax, ay), picture.pixel_of(bx, by)
    length = ((pb[0] - pa[0]) ** 2 + (pb[1] - pa[1]) ** 2) ** 0.5
    assert length > 20  # the pair is framed closely: the segment is long enough to sample
    ux, uy = (pb[0] - pa[0]) / length, (pb[1] - pa[1]) / length
    for f in (0.0, 0.25, 0.5, 0.75, 1.0):  # the two end dots and along the line
        x, y = pa[0] + f * (pb[0] - pa[0]), pa[1] + f * (pb[1] - pa[1])
        assert _dark(image.pixelColor(round(x), round(y))), (name, f)
    for side in (-1, 1):  # ten pixels beside the middle of the segment: not the segment
        x = (pa[0] + pb[0]) / 2 + side * 10 * -uy
        y = (pa[1] + pb[1]) / 2 + side * 10 * ux
        assert not _dark(image.pixelColor(round(x), round(y))), (name, side)


def test_the_pdf_is_one_page_with_the_verdict(qapp, tmp_path):
    scenario, ruling = _ruling(rc.write(tmp_path, "wall", rc.WALL_NEAR_TARGET), "a", "t")
    pdf = tmp_path / "ruling.pdf"
    assert RulingPicture(scenario, ruling).write_pdf(pdf)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 1
    text = re.sub(r"\s", "", pdf_text(data))
    for line in (ruling.verdict(), *ruling.numbers(), ruling.tipping_points[0].text):
        assert re.sub(r"\s", "", line) in text


def test_svg_and_markdown_hold_the_text_and_the_picture(qapp, tmp_path):
    scenario, ruling = _ruling(rc.write(tmp_path, "wall", rc.WALL_NEAR_TARGET), "a", "t")
    picture = RulingPicture(scenario, ruling)
    svg = tmp_path / "ruling.svg"
    assert picture.write_svg(svg)
    assert "VALID: a may attack t with Bow" in svg.read_text(encoding="utf-8")
    md = tmp_path / "ruling.md"
    assert picture.write_markdown(md)
    text = md.read_text(encoding="utf-8")
    assert "**VALID: a may attack t with Bow**" in text
    assert "![the ruling on the battlefield](ruling.png)" in text
    for tip in ruling.tipping_points:
        assert f"- {tip.rule}: {tip.text}" in text
    beside = QImage(str(tmp_path / "ruling.png"))
    assert (beside.width(), beside.height()) == (picture.size.width(), picture.size.height())


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf", ".md"])
def test_the_command_writes_each_kind(qapp, tmp_path, capsys, suffix):
    path = rc.write(tmp_path, "tower", rc.platform_case(3.0))
    out = tmp_path / f"ruling{suffix}"
    assert main(["ruling", str(path), "--attacker", "a", "--target", "t", "--out",
                 str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[1] == "VALID: a may attack t with Bow"
    assert printed.splitlines()[-1] == f"written: {out}"
    assert out.stat().st_size > 0
    if suffix == ".pdf":
        assert out.read_bytes().startswith(b"%PDF")
    if suffix == ".md":
        assert not QImage(str(out.with_suffix(".png"))).isNull()
    if suffix == ".png":
        assert not QImage(str(out)).isNull()


# -- the window ---------------------------------------------------------------------------


@pytest.fixture
def window_on(qtbot, tmp_path, monkeypatch):
    """The main window on a case file, built and completed as ``run_app`` does."""
    monkeypatch.setattr(recovery, "default_folder", lambda: tmp_path / "recovery")

    def make(name: str, scenario: dict, ruleset: str = "warcry"):  # noqa: ANN202
        return built_window(qtbot, str(rc.write(tmp_path, name, scenario)), ruleset)

    return make


def _at(window, x: float, y: float) -> QPoint:  # noqa: ANN001
    return window.view.mapFromScene(to_scene(x, y))


def test_key_y_then_a_click_shows_the_ruling(window_on, qtbot):
    window = window_on("wall", rc.WALL_NEAR_TARGET)
    window.document.set_selection(["a"])  # the attacker, as the attack flow takes it
    assert window.attack_flow.attack.choice.attacker == "a"
    qtbot.keyClick(window.view, Qt.Key.Key_Y)
    tool = window.view.tool
    assert isinstance(tool, RulingTool)
    mode = tool.mode
    assert (mode.attacker, mode.target) == ("a", None)
    assert "click the target" in mode.panel.text()
    click(window.view.viewport(), _at(window, 16, 10))
    assert (mode.attacker, mode.target) == ("a", "t")
    ruling = mode.ruling
    assert ruling is not None and ruling.valid
    overlay = mode.overlay
    # the two closest points and the segment between them, labelled to 0.01"
    assert overlay.marks is not None
    assert overlay.marks.start == pytest.approx((10.5, 10.0), abs=1e-9)
    assert overlay.marks.end == pytest.approx((15.5, 10.0), abs=1e-9)
    assert overlay.marks.label.text() == "5.00\u2033"
    assert overlay.marks.dots[0].pos() == to_scene(10.5, 10.0)
    # every plan path's sample lines, all clear past a wall that does not block sight
    lines = overlay.of_kind("sight_line")
    assert len(lines) == 8 and all(i.clear_count == i.total == 9 for i in lines)
    # the wall that gives cover, the part of the line inside it, the ignored half inch
    assert [i.key for i in overlay.of_kind("cover_terrain")] == ["w1"]
    assert [i.key for i in overlay.of_kind("cover_span")] == ["w1"]
    assert len(overlay.of_kind("exemption")) == 1
    # the limits as rings: the bow's 8" and the 1" of engagement
    assert sorted(i.key for i in overlay.of_kind("ring")) == ["engaged", "range"]
    text = mode.panel.text()
    assert "VALID: a may attack t with Bow" in text
    assert 'in range: 5" <= 8" (margin 3.000)' in text
    assert 'out of range if t were more than 3.00" further away' in text
    # the attack's own marks step aside while the ruling is shown
    assert window.attack_flow.overlay.items
    assert all(not i.isVisible() for i in window.attack_flow.overlay.items)
    # Esc clears the ruling; the next Esc is the attack flow's again
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert mode.ruling is None and overlay.items == [] and overlay.marks is None
    assert window.attack_flow.attack.choice.attacker == "a"
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert window.attack_flow.attack.choice.attacker is None
    qtbot.keyClick(window.view, Qt.Key.Key_S)  # leaving the mode gives the marks back
    assert isinstance(window.view.tool, SelectTool)
    assert window.attack_flow.overlay.enabled


def test_the_ruling_follows_an_undo(window_on, qtbot):
    window = window_on("wall", rc.WALL_NEAR_TARGET)
    qtbot.keyClick(window.view, Qt.Key.Key_Y)
    mode = window.view.tool.mode
    vp = window.view.viewport()
    click(vp, _at(window, 10, 10))
    click(vp, _at(window, 16, 10))
    assert mode.ruling is not None and mode.ruling.facts.cover == "cover"
    t = window.document.scenario.model("t")
    window.document.edit("Move t", window.document.scenario.with_entity(
        t.moved_to(16, 14)))  # off the wall's line: no cover any more
    assert mode.ruling is not None and mode.ruling.facts.cover == "none"
    window.document.undo_stack.undo()
    assert mode.ruling.facts.cover == "cover"


def test_context_menu_on_a_pair_shows_arcs_for_the_ninth_age(window_on, qtbot):
    window = window_on("arc", rc.ARC_LINE, "ninth-age")
    window.document.set_selection(["s"])
    assert window.attack_flow.attack.choice.attacker == "s"
    pos = _at(window, 36, 24)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos,
                              window.view.viewport().mapToGlobal(pos))
    QApplication.sendEvent(window.view.viewport(), event)
    menu = window.toolbox.menu
    assert isinstance(menu, QMenu)
    qtbot.waitUntil(menu.isVisible)
    actions = [a.text() for a in menu.actions()]
    assert actions == ["Ruling: s against u", "Ruling: u attacks…"]
    menu.actions()[0].trigger()
    menu.close()
    tool = window.view.tool
    assert isinstance(tool, RulingTool)
    mode = tool.mode
    assert (mode.attacker, mode.target) == ("s", "u")
    assert mode.ruling is not None and mode.ruling.facts.arc == "right_flank"
    assert len(mode.overlay.of_kind("arc")) == 4  # the 135° lines from the four corners
    assert mode.overlay.of_kind("ring") == [m for m in mode.overlay.of_kind("ring")
                                            if m.key == "range"]  # no 1" ring: contact
    assert "ties go to the flank" in mode.panel.text()


def test_export_and_copy_the_ruling_from_the_window(window_on, qtbot, tmp_path):
    window = window_on("tower", rc.platform_case(3.0))
    tool = window.toolbox.tool(RulingTool)
    tool.show_pair("a", "t")
    mode = tool.mode
    assert window.view.tool is tool and mode.ruling is not None
    for suffix in (".png", ".svg", ".pdf", ".md"):
        out = tmp_path / f"exported{suffix}"
        assert mode.export(out) and out.stat().st_size > 0
    assert (tmp_path / "exported.pdf").read_bytes().startswith(b"%PDF")
    QApplication.clipboard().clear()
    mode.panel.copy_button.click()
    copied = QApplication.clipboard().image()
    assert not copied.isNull()
    expected = mode.picture().image()
    assert (copied.width(), copied.height()) == (expected.width(), expected.height())


def test_the_measure_tool_shows_the_rulings_closest_points(window_on, qtbot):
    window = window_on("ovals", rc.OVALS)
    qtbot.keyClick(window.view, Qt.Key.Key_M)
    tool = window.view.tool
    assert isinstance(tool, MeasureTool)
    drag(window.view.viewport(), _at(window, 10, 10), _at(window, 13, 10))
    assert tool.marks is not None
    m = window.document.snapshot.geometry.measure("a", "t")
    _, ruling = _ruling(window.document.path, "a", "t")
    (ax, ay, _), (bx, by, _) = ruling.closest_points
    assert tool.marks.start == m.point_a == pytest.approx((ax, ay), abs=1e-12)
    assert tool.marks.end == m.point_b == pytest.approx((bx, by), abs=1e-12)
    assert (ax, ay, bx, by) == pytest.approx((11.0, 10.0, 12.0, 10.0), abs=1e-6)
    assert [d.pos() for d in tool.marks.dots] == [to_scene(ax, ay), to_scene(bx, by)]
    assert tool.marks.label.text() == "1.00\u2033"
    line = tool.marks.line.line()
    assert (line.p1(), line.p2()) == (to_scene(ax, ay), to_scene(bx, by))


def test_a_tall_pair_fills_the_width_of_its_caption(qapp, tmp_path):
    from tabletop_gui.scenario.resources import demo_path
    from tabletop_gui.ui.ruling_picture import CAPTION_MIN_WIDTH

    scenario, ruling = _ruling(demo_path("warcry"), "r3", "b3")  # 3" across, 10" apart
    picture = RulingPicture(scenario, ruling)
    assert picture.size.width() >= CAPTION_MIN_WIDTH
    png = tmp_path / "tall.png"
    assert picture.write_png(png)
    assert QImage(str(png)).width() == picture.size.width()
