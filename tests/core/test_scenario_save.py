"""Saving: canonical, stable round trips and atomic writes."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tabletop_gui.rules.registry import RULESET_IDS
from tabletop_gui.scenario import save as save_module
from tabletop_gui.scenario.entities import Battlefield, Fighter, RoundBase, Scenario, Side
from tabletop_gui.scenario.load import load_scenario, loads_scenario
from tabletop_gui.scenario.resources import demo_path, load_demo
from tabletop_gui.scenario.save import dumps_scenario, save_scenario, scenario_to_json
from tests.core.scenario_samples import circle_doc, ninth_age_doc, text, warcry_doc


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_demo_round_trip_is_equal_and_byte_stable(ruleset: str, tmp_path: Path) -> None:
    first = load_demo(ruleset)
    target = tmp_path / "demo.battle.json"
    save_scenario(first, target)
    once = target.read_bytes()
    second = load_scenario(target)
    assert second == first
    assert scenario_to_json(second) == scenario_to_json(first)
    save_scenario(second, target)
    assert target.read_bytes() == once
    assert once.endswith(b"\n") and not once.endswith(b"\n\n")


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_shipped_demos_are_in_canonical_form(ruleset: str) -> None:
    path = demo_path(ruleset)
    assert path.read_text(encoding="utf-8") == dumps_scenario(load_scenario(path))


@pytest.mark.parametrize("make", [warcry_doc, ninth_age_doc, circle_doc])
def test_hand_written_documents_round_trip(make: Any) -> None:
    first = loads_scenario(text(make()))
    written = dumps_scenario(first)
    again = loads_scenario(written)
    assert again == first
    assert dumps_scenario(again) == written


def test_whole_numbers_and_defaults_are_written_plainly() -> None:
    doc = warcry_doc()
    doc["fighters"][0]["x"] = 6.0
    doc["fighters"][0]["characteristics"]["wounds"] = 10.0
    scenario = loads_scenario(text(doc))
    assert scenario.fighters[0].x == 6.0 and isinstance(scenario.fighters[0].x, float)
    assert scenario.fighters[0].characteristics["wounds"] == 10
    assert isinstance(scenario.fighters[0].characteristics["wounds"], int)
    out = scenario_to_json(scenario)
    f2 = out["fighters"][1]
    assert f2["facing"] == 90 and f2["elevation"] is None and f2["height"] == 1.25
    assert f2["traits"] == [] and f2["state"] == {}
    assert '"x": 6,' in dumps_scenario(scenario)


def test_characteristics_are_written_in_declaration_order() -> None:
    doc = warcry_doc()
    doc["fighters"][0]["characteristics"] = {"wounds": 10, "move": 4, "toughness": 4}
    doc["fighters"][0]["weapons"][0] = {"damage": "1/3", "strength": 4, "attacks": 3,
                                        "range": 1, "name": "Sword"}
    out = scenario_to_json(loads_scenario(text(doc)))
    assert list(out["fighters"][0]["characteristics"]) == ["move", "toughness", "wounds"]
    assert list(out["fighters"][0]["weapons"][0]) == ["name", "range", "attacks", "strength",
                                                      "damage"]


def test_non_ascii_names_are_kept_as_utf8(tmp_path: Path) -> None:
    doc = warcry_doc()
    doc["name"] = "Embuscade à l'Éperon — 戦"
    target = tmp_path / "s.battle.json"
    save_scenario(loads_scenario(text(doc)), target)
    assert "Embuscade à l'Éperon — 戦".encode() in target.read_bytes()
    assert load_scenario(target).name == doc["name"]


def test_a_nan_in_memory_is_never_written(tmp_path: Path) -> None:
    bad = Scenario("warcry", Battlefield(30, 22), (Side("a"),), fighters=(
        Fighter("f", "F", "a", float("nan"), 1.0, RoundBase(32)),))
    target = tmp_path / "s.battle.json"
    with pytest.raises(ValueError):
        save_scenario(bad, target)
    assert not target.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fail_at", ["os.replace", "os.fsync", "write"])
def test_failure_mid_save_leaves_the_old_file_and_no_temp(
    fail_at: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "battle.json"
    save_scenario(load_demo("warcry"), target)
    old = target.read_bytes()
    changed = loads_scenario(text(warcry_doc()))

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise OSError("disk full")

    if fail_at == "os.replace":
        monkeypatch.setattr(save_module.os, "replace", boom)
    elif fail_at == "os.fsync":
        monkeypatch.setattr(save_module.os, "fsync", boom)
    else:
        real_fdopen = os.fdopen

        class Failing:
            def __init__(self, fd: int, mode: str) -> None:
                self.f = real_fdopen(fd, mode)

            def __enter__(self) -> Failing:
                return self

            def __exit__(self, *exc: Any) -> None:
                self.f.close()

            def write(self, data: bytes) -> None:
                self.f.write(data[: len(data) // 2])
                raise OSError("disk full")

        monkeypatch.setattr(save_module.os, "fdopen", Failing)
    with pytest.raises(OSError, match="disk full"):
        save_scenario(changed, target)
    assert target.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["battle.json"]


def test_save_replaces_and_keeps_the_file_mode(tmp_path: Path) -> None:
    target = tmp_path / "battle.json"
    target.write_text("old")
    target.chmod(0o600)
    save_scenario(load_demo("ninth-age"), target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert load_scenario(target) == load_demo("ninth-age")
    fresh = tmp_path / "new.battle.json"
    save_scenario(load_demo("ninth-age"), fresh)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
