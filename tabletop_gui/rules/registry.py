"""The rulesets by id. Static declarations load eagerly; engines load on first use."""

from __future__ import annotations

import importlib

from tabletop_gui.rules.base import RulesError, Ruleset
from tabletop_gui.rules.circle_of_realms.info import INFO as CIRCLE_OF_REALMS
from tabletop_gui.rules.fields import RulesetInfo
from tabletop_gui.rules.fight_vs_defense.info import INFO as FIGHT_VS_DEFENSE
from tabletop_gui.rules.mordheim_warcry.info import INFO as MORDHEIM_WARCRY
from tabletop_gui.rules.ninth_age.info import INFO as NINTH_AGE
from tabletop_gui.rules.warcry.info import INFO as WARCRY

INFOS: dict[str, RulesetInfo] = {
    i.id: i for i in (WARCRY, FIGHT_VS_DEFENSE, MORDHEIM_WARCRY, NINTH_AGE, CIRCLE_OF_REALMS)
}
RULESET_IDS: tuple[str, ...] = tuple(INFOS)
DEFAULT_RULESET = "warcry"

_PACKAGES = {rid: "tabletop_gui.rules." + rid.replace("-", "_") for rid in INFOS}
_LOADED: dict[str, Ruleset] = {}


def info(ruleset_id: str) -> RulesetInfo:
    try:
        return INFOS[ruleset_id]
    except KeyError:
        raise RulesError(
            f"unknown ruleset {ruleset_id!r} (known: {', '.join(RULESET_IDS)})"
        ) from None


def get(ruleset_id: str) -> Ruleset:
    """The engine of a ruleset (its package's ``RULESET``)."""
    info(ruleset_id)
    if ruleset_id not in _LOADED:
        module = importlib.import_module(_PACKAGES[ruleset_id] + ".engine")
        _LOADED[ruleset_id] = module.RULESET
    return _LOADED[ruleset_id]
