"""`tabletop-gui rulesets`: every ruleset with its declarations and options."""

from __future__ import annotations

import json

from tabletop_gui.cli import main
from tabletop_gui.rules.registry import RULESET_IDS


def test_rulesets_json(capsys) -> None:
    assert main(["rulesets", "--json"]) == 0
    out, err = capsys.readouterr()
    d = json.loads(out)
    by_id = {r["id"]: r for r in d["rulesets"]}
    assert list(by_id) == list(RULESET_IDS)
    for r in by_id.values():
        assert set(r) >= {"id", "name", "characteristics", "weapon_fields", "traits", "state",
                          "situational_options", "ruleset_options", "attack_types"}
    w = by_id["warcry"]
    assert [c["name"] for c in w["characteristics"]] == ["move", "toughness", "wounds"]
    assert w["ruleset_options"][0]["key"] == "cover"
    assert w["ruleset_options"][0]["choices"] == ["all", "missile", "none"]
    assert w["attack_types"] == ["melee", "missile"]
    m = by_id["mordheim-warcry"]
    assert [o["key"] for o in m["situational_options"]] == ["diving_charge"]
    assert "parry" in [f["name"] for f in m["weapon_fields"]] and "shield" in m["traits"]
    f = by_id["fight-vs-defense"]
    assert [o["key"] for o in f["ruleset_options"]] == ["platform_cover_in_melee"]


def test_rulesets_text(capsys) -> None:
    assert main(["rulesets"]) == 0
    out, _ = capsys.readouterr()
    for rid in RULESET_IDS:
        assert f"{rid}: " in out
    assert "cover (enum, default \"all\", one of all/missile/none)" in out
    assert "diving_charge (bool, default false)" in out


def test_rulesets_list_their_interpretations(capsys) -> None:
    assert main(["rulesets", "--json"]) == 0
    by_id = {r["id"]: r for r in json.loads(capsys.readouterr()[0])["rulesets"]}
    for rid in ("warcry", "fight-vs-defense", "mordheim-warcry"):
        assert by_id[rid]["notes"]
    assert main(["rulesets"]) == 0
    assert "interpretations:" in capsys.readouterr()[0]
