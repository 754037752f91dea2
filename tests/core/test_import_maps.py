"""Maps and table positions: the Universal VTT map of tests/data/import/ (24 × 16 cells:
a room with a closed door and an open doorway, an open wall with a corner, a pillar)
and the Tabletop Simulator save; the battlefield background picture in the format."""

from __future__ import annotations

import base64
import json

import pytest
from shapely.geometry import Point, Polygon

from tabletop_gui.importers.combine import import_files
from tabletop_gui.importers.uvtt import WALL_THICKNESS, wall_height
from tabletop_gui.scenario.background import decode_data_uri
from tabletop_gui.scenario.entities import Background
from tabletop_gui.scenario.load import ScenarioError, load_scenario, loads_scenario
from tabletop_gui.scenario.save import dumps_scenario, scenario_to_json
from tests.core.import_helpers import data, import_json, run_cli

MAP = data("map-crypt.dd2vtt")
PNG = data("map-crypt.png")


def _covered(scenario, x: float, y: float) -> list[str]:
    return [o.name for o in scenario.obstacles if Polygon(o.polygon).buffer(1e-9).covers(
        Point(x, y))]


def test_map_walls_doors_gaps_and_objects():
    s = import_files([MAP]).scenario
    assert (s.battlefield.width, s.battlefield.depth) == (24, 16)
    names = sorted(o.name for o in s.obstacles)
    # the room's 4 walls (the right one cut in two by the open doorway), the open wall's
    # 2 runs, the closed door, the pillar
    assert names == ["Door", "Object"] + ["Wall"] * 7
    assert all(o.height == wall_height("warcry") for o in s.obstacles)
    walls = [Polygon(o.polygon) for o in s.obstacles if o.name == "Wall"]
    for w in walls:  # thin: the narrow side of each wall is its thickness
        rect = w.minimum_rotated_rectangle
        x, y = rect.exterior.coords.xy
        sides = sorted(Point(x[i], y[i]).distance(Point(x[i + 1], y[i + 1])) for i in range(2))
        assert sides[0] == pytest.approx(WALL_THICKNESS, abs=1e-6)
    # y is flipped: map row 2 is 14" from the bottom edge
    assert "Wall" in _covered(s, 6, 14)  # the room's top wall
    assert "Wall" in _covered(s, 2, 11)  # its left wall
    assert _covered(s, 10, 11) == []  # the open doorway, map cells (10, 4)-(10, 6)
    assert "Wall" in _covered(s, 10, 13) and "Wall" in _covered(s, 10, 9)
    assert "Door" in _covered(s, 6, 8)  # the closed door on the bottom wall
    assert _covered(s, 16.5, 11.5) == ["Object"]  # the solid pillar, not only its outline
    assert _covered(s, 6, 11) == []  # the room is not a solid block
    assert "Wall" in _covered(s, 14, 10) and "Wall" in _covered(s, 17, 6)  # the open wall


def test_map_image_becomes_the_background():
    s = import_files([MAP]).scenario
    assert isinstance(s.battlefield.background, Background)
    media, raw = decode_data_uri(s.battlefield.background.image)
    with open(PNG, "rb") as f:
        assert (media, raw) == ("image/png", f.read())


def test_map_with_rosters_places_models_clear_of_walls(tmp_path):
    target, summary = import_json(tmp_path, MAP, data("warcry-ashen-wardens.ros"),
                                  data("warcry-gloom-stalkers.json"))
    assert summary["obstacles"] == 9 and summary["fighters"] == 7
    assert any("read but not used: environment, lights" in w for w in summary["warnings"])
    s = load_scenario(target)
    from tabletop_gui.geometry.outline import outline_points
    from tabletop_gui.scenario.battle import body_of

    for m in s.models:
        body = Polygon(outline_points(body_of(m).footprint))
        assert not any(body.intersects(Polygon(o.polygon)) for o in s.obstacles), m.name
    code, out, _ = run_cli("inspect", str(target), "--json")
    assert code == 0 and json.loads(out)["pairs"]


def test_table_positions_move_named_models_and_name_the_rest():
    result = import_files([data("warcry-ashen-wardens.ros"), data("warcry-gloom-stalkers.json"),
                           data("table-positions.json")])
    s = result.scenario
    at = {f.name: (f.x, f.y, f.facing) for f in s.fighters}
    # x = posX + 30/2, y = posZ + 22/2, facing = 90 - rotY
    assert at["Warden Captain"] == pytest.approx((10.0, 8.0, 90.0))
    assert at["Stalker Chief"] == pytest.approx((18.0, 15.0, 270.0))
    assert at["Warden Spearman"] == pytest.approx((12.5, 8.0, 45.0))  # the first of the name
    assert at["Warden Spearman (2)"] == pytest.approx((15.0, 8.0, 0.0))
    assert result.imported["positioned"] == 4
    told = [w for w in result.warnings if "table-positions.json" in w]
    assert told == [
        f'{data("table-positions.json")}: ObjectStates[4] "Mystery Goblin": no fighter or unit '
        "of that name: not used",
        f'{data("table-positions.json")}: 1 objects without a name (the table, dice, '
        "scenery) not used"]


def test_background_round_trips_and_old_files_stay_byte_identical(tmp_path):
    s = import_files([MAP]).scenario
    text = dumps_scenario(s)
    assert loads_scenario(text) == s
    assert scenario_to_json(s)["battlefield"]["background"]["image"].startswith(
        "data:image/png;base64,")
    plain = import_files([data("warcry-ashen-wardens.ros")]).scenario
    assert "background" not in scenario_to_json(plain)["battlefield"]


@pytest.mark.parametrize(("image", "message"), [
    ("data:image/gif;base64,R0lGODlh", "must be base64 data of image/png, image/jpeg, "
                                       "image/webp"),
    ("data:image/png;base64,@@@", "the base64 data is damaged"),
    ("data:image/png;base64," + base64.b64encode(b"\xff\xd8\xff\xe0 jpeg").decode(),
     "the data is not image/png (image/jpeg)"),
    ("http://example.com/map.png", "must be a data URI"),
])
def test_a_bad_background_is_refused_with_its_place(image, message):
    doc = json.loads(dumps_scenario(import_files([MAP]).scenario))
    doc["battlefield"]["background"]["image"] = image
    with pytest.raises(ScenarioError) as e:
        loads_scenario(json.dumps(doc))
    (problem,) = e.value.problems
    assert problem.path == "battlefield.background.image"
    assert problem.message.startswith(message)
