"""Untrusted import files: every refusal is exit 2, located one-line messages on stderr,
nothing on stdout and nothing written; and a fuzz test of the roster reader."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_gui.importers.combine import import_files
from tabletop_gui.importers.sources import MAX_ZIP_MEMBERS, ImportRefused
from tabletop_gui.scenario.load import MAX_BYTES
from tests.core.import_helpers import data, refused

ASHEN = Path(data("warcry-ashen-wardens.ros"))
RIVER = Path(data("ninth-age-river-guard.ros"))
BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="&lol3;"/>
"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE roster [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="&secret;"/>
"""


def _write(tmp_path: Path, name: str, content: bytes | str) -> str:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return str(path)


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in members.items():
            z.writestr(name, content)
    return buf.getvalue()


def test_wrong_namespace(tmp_path):
    path = _write(tmp_path, "a.ros", ASHEN.read_text(encoding="utf-8").replace(
        "http://www.battlescribe.net/schema/rosterSchema", "http://example.com/roster"))
    assert refused(tmp_path, path) == [
        f"{path}: line 2: not a BattleScribe roster: the root element is <roster> in "
        "namespace http://example.com/roster; a roster is <roster> in namespace "
        "http://www.battlescribe.net/schema/rosterSchema"]


def test_a_catalogue_is_not_a_roster(tmp_path):
    path = _write(tmp_path, "a.cat", '<?xml version="1.0"?>\n<catalogue xmlns='
                  '"http://www.battlescribe.net/schema/catalogueSchema" name="x"/>')
    (line,) = refused(tmp_path, path)
    assert line.startswith(f"{path}: line 2: not a BattleScribe roster") and \
        "(a BattleScribe catalogue, not a roster)" in line


def test_warcry_fighter_without_model_profile_or_wounds(tmp_path):
    text = ASHEN.read_text(encoding="utf-8")
    no_model = text.replace('typeName="Model">\n              <characteristics>\n'
                            '                <characteristic name="Move" typeId="9e00-0000-0000-'
                            '0021">4</characteristic>\n                <characteristic '
                            'name="Toughness" typeId="9e00-0000-0000-0022">3',
                            'typeName="Portrait">\n              <characteristics>\n'
                            '                <characteristic name="Move" typeId="9e00-0000-0000-'
                            '0021">4</characteristic>\n                <characteristic '
                            'name="Toughness" typeId="9e00-0000-0000-0022">3', 1)
    assert no_model != text
    path = _write(tmp_path, "no-model.ros", no_model)
    assert refused(tmp_path, path) == [
        f'{path}: forces[0].selections[2] "Warden Crossbowman" (line 75): no "Model" profile: '
        "a fighter needs one (Move, Toughness, Wounds)"]
    no_wounds = text.replace('<characteristic name="Wounds" typeId="9e00-0000-0000-0023">'
                             '10</characteristic>', "")
    path = _write(tmp_path, "no-wounds.ros", no_wounds)
    assert refused(tmp_path, path) == [
        f'{path}: forces[0].selections[1].profiles[0] "Warden Spearman" (line 52): the '
        '"Model" profile has no Wounds (needed by warcry)']
    bad = text.replace(">2/5</characteristic>", ">lots</characteristic>", 1)
    path = _write(tmp_path, "bad-damage.ros", bad)
    (line,) = refused(tmp_path, path)
    assert line.startswith(f'{path}: forces[0].selections[0].profiles[1] "Warden Blade" '
                           '(line 24): Damage: must be "hit/crit"')


def test_ninth_age_unit_without_offensive_profile(tmp_path):
    text = RIVER.read_text(encoding="utf-8").replace('typeName="3 Offensive"',
                                                     'typeName="3 Offence"')
    path = _write(tmp_path, "no-offensive.ros", text)
    lines = refused(tmp_path, path)
    assert lines[0] == (f'{path}: forces[0].selections[0] "River Spearmen" (line 9): no '
                        '"3 Offensive" profile (needed for Att, Off, Str, Ap, Agi)')
    assert len(lines) == 4  # one per unit, all told at once


def test_broken_zip_and_zips_out_of_bounds(tmp_path):
    whole = Path(data("ninth-age-river-guard.rosz")).read_bytes()
    path = _write(tmp_path, "cut.rosz", whole[: len(whole) // 2])
    (line,) = refused(tmp_path, path)
    assert line.startswith(f"{path}: not a readable zip archive:")
    path = _write(tmp_path, "two.rosz", _zip({"a.ros": b"<a/>", "b.ros": b"<b/>"}))
    assert refused(tmp_path, path) == [
        f"{path}: the zip archive must hold exactly one .ros file, it holds 2 (a.ros, b.ros)"]
    many = {f"n{i}.txt": b"" for i in range(MAX_ZIP_MEMBERS)} | {"a.ros": b"<a/>"}
    path = _write(tmp_path, "many.rosz", _zip(many))
    assert refused(tmp_path, path) == [
        f"{path}: the zip archive holds {MAX_ZIP_MEMBERS + 1} members (at most "
        f"{MAX_ZIP_MEMBERS}; a .rosz holds one .ros)"]
    path = _write(tmp_path, "bomb.rosz", _zip({"a.ros": b"<" + b" " * MAX_BYTES + b">"}))
    assert Path(path).stat().st_size < 100_000  # small on disk, 16 MiB unpacked
    assert refused(tmp_path, path) == [
        f"{path}: member a.ros: unpacks to {MAX_BYTES + 2} bytes (at most 16 MiB)"]


def test_zip_member_lying_about_its_size(tmp_path):
    content = b"<" + b" " * MAX_BYTES + b">"
    raw = bytearray(_zip({"a.ros": content}))
    # both size fields (local header and central directory) claim 10 bytes
    true_size = (len(content)).to_bytes(4, "little")
    assert raw.count(true_size) == 2
    raw = raw.replace(true_size, (10).to_bytes(4, "little"))
    path = _write(tmp_path, "liar.rosz", bytes(raw))
    (line,) = refused(tmp_path, path)
    assert line.startswith(f"{path}: member a.ros: ")


@pytest.mark.parametrize(("content", "message"), [
    (BOMB, "line 2: refused: the XML declares a document type (DTD)"),
    (EXTERNAL, "line 2: refused: the XML declares a document type (DTD)"),
    (b"<a>" * 40 + b"</a>" * 40, "line 1: nested too deeply (at most 32 levels)"),
    (b"<roster><forces></roster>", "line 1, column 19: not well-formed XML: mismatched tag"),
    (b"\x00\x01binary", "not a file this command imports"),
    (b'<?xml version="1.0" encoding="U-F-8"?><roster/>',
     "line 1: not readable XML: the declared encoding is not known"),
    ('{"roster": ' * 40 + "{}" + "}" * 40,
     "nested too deeply at line 1, column 353 (at most 32 levels)"),
    ('{"roster": {"forces": 3}}', "roster.forces: must be a list, not 3"),
    ('{"roster": {"forces": [{"selections": [{"number": "many"}]}]}}',
     "roster.forces[0].selections[0]: number must be a whole number from 0 to 10000"),
    ('{"hello": 1}', "a JSON file of no kind this command imports"),
])
def test_hostile_or_malformed_files(tmp_path, content, message):
    path = _write(tmp_path, "hostile", content)
    (line,) = refused(tmp_path, path)
    assert line.startswith(f"{path}: {message}"), line


def test_huge_file_is_refused_before_parsing(tmp_path):
    path = tmp_path / "huge.ros"
    with path.open("wb") as f:
        f.truncate(MAX_BYTES + 1)
    assert refused(tmp_path, str(path)) == [f"{path}: the file is larger than 16 MiB"]


def test_every_file_is_told_at_once_and_unknown_game(tmp_path):
    other = _write(tmp_path, "other.json", json.dumps({"roster": {
        "name": "x", "gameSystemName": "Some Other Game", "forces": []}}))
    missing = str(tmp_path / "missing.ros")
    lines = refused(tmp_path, other, missing, data("warcry-ashen-wardens.ros"))
    assert lines == [f"{missing}: cannot read the file: No such file or directory"]
    lines = refused(tmp_path, other, data("warcry-ashen-wardens.ros"))
    assert lines == [f"{other}: game system 'Some Other Game': this program imports Warcry "
                     "and The Ninth Age rosters"]


def test_rulesets_that_cannot_play_the_roster(tmp_path):
    lines = refused(tmp_path, data("warcry-gloom-stalkers.json"),
                    extra=("--ruleset", "ninth-age"))
    assert lines == [f"{data('warcry-gloom-stalkers.json')}: a Warcry roster cannot be played "
                     "with ninth-age (--ruleset); it becomes fighters of warcry, "
                     "fight-vs-defense, mordheim-warcry"]
    lines = refused(tmp_path, data("warcry-gloom-stalkers.json"),
                    data("ninth-age-marsh-host.json"))
    assert lines[-1] == "rosters of different games cannot share a battlefield"
    lines = refused(tmp_path, data("map-crypt.dd2vtt"), extra=("--ruleset", "chess"))
    assert lines[0].startswith("--ruleset: unknown ruleset 'chess'")
    lines = refused(tmp_path, data("warcry-gloom-stalkers.json"),
                    extra=("--into", data("warcry-bases.json")))
    assert f"{data('warcry-bases.json')}: format: missing required field" in lines


def test_a_scenario_given_as_a_file_points_to_into(tmp_path):
    from tabletop_gui.scenario.resources import demo_path

    (line,) = refused(tmp_path, str(demo_path("warcry")))
    assert line == f"{demo_path('warcry')}: this is a scenario file: give it as --into to " \
                   "import into it"


def test_a_side_that_does_not_fit_is_refused(tmp_path):
    doc = json.loads(Path(data("warcry-gloom-stalkers.json")).read_text())
    doc["roster"]["forces"][0]["selections"][0]["number"] = 400
    path = _write(tmp_path, "horde.json", json.dumps(doc))
    (line,) = refused(tmp_path, path)
    assert line.startswith(f"{path}: side 'Gloom Stalkers': 401 fighters do not fit in its "
                           "deployment area")


# -- fuzz ------------------------------------------------------------------------------

_text = st.text(alphabet=st.sampled_from("0123456789-/+\"×xØ ADas\u200b\ue000"), max_size=8)
_char = st.fixed_dictionaries({"name": st.sampled_from(
    ["Move", "Toughness", "Wounds", "Range", "Attacks", "Strength", "Damage", "HP", "Def",
     "Res", "Arm", "Att", "Off", "Str", "AP", "Agi", "Base", "Height", "Save", "Rules"]),
    "$text": _text})
_profile = st.fixed_dictionaries({"name": _text, "typeName": st.sampled_from(
    ["Model", "Weapon", "Ability", "0 Size", "1 Global", "2 Defensive", "3 Offensive",
     "4 Armour", "5 Melee Weapon", "6 Ranged Weapon", 7]),
    "characteristics": st.lists(_char, max_size=6)})
_selection = st.recursive(
    st.fixed_dictionaries({"name": _text, "type": st.sampled_from(["model", "unit", "upgrade"]),
                           "number": st.one_of(st.integers(-2, 30), st.just("2")),
                           "profiles": st.lists(_profile, max_size=5)}),
    lambda inner: st.fixed_dictionaries({
        "name": _text, "type": st.sampled_from(["model", "unit", "upgrade"]),
        "number": st.integers(0, 5), "profiles": st.lists(_profile, max_size=4),
        "selections": st.lists(inner, max_size=3)}),
    max_leaves=8)
_roster = st.fixed_dictionaries({"roster": st.fixed_dictionaries({
    "name": _text, "gameSystemName": st.sampled_from(
        ["Warhammer Age of Sigmar: Warcry", "The 9th Age: Fantasy Battles", ""]),
    "forces": st.lists(st.fixed_dictionaries({"selections": st.lists(_selection, max_size=4)}),
                       max_size=2)})})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(document=_roster)
def test_fuzz_roster_reader_refuses_or_builds_a_valid_scenario(tmp_path, document):
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    try:
        result = import_files([str(path)])
    except ImportRefused as e:
        assert e.lines and all(line.startswith(str(path)) for line in e.lines), e.lines
        return
    assert result.scenario.models  # a roster that imports gives models, checked by the loader


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.tuples(st.integers(0, 8699), st.binary(max_size=3)), max_size=4))
def test_fuzz_damaged_battlescribe_xml_is_refused_or_read(tmp_path, cuts):
    content = bytearray(ASHEN.read_bytes())
    for at, junk in cuts:
        content[at:at + len(junk)] = junk
    path = tmp_path / "fuzz.ros"
    path.write_bytes(bytes(content))
    try:
        import_files([str(path)])
    except ImportRefused as e:
        assert e.lines and all(line.startswith(str(path)) for line in e.lines), e.lines
