"""A ruleset declares its own field kinds: Circle of Realms' ``limbs`` is a list of strings
(the generic kind it is stored and edited as) read by the ruleset's own check, and shown
by its own name; the shared kinds know nothing of limbs."""

from __future__ import annotations

from typing import get_args

import pytest

from tabletop_gui.rules.circle_of_realms.info import INFO
from tabletop_gui.rules.fields import FieldError, FieldKind, read_value

LIMBS_LOST = next(f for f in INFO.declaration.state if f.name == "limbs_lost")


def test_limbs_is_circle_of_realms_own_kind() -> None:
    assert "limbs" not in get_args(FieldKind)
    assert LIMBS_LOST.kind == "strings"
    assert LIMBS_LOST.describe()["type"] == "limbs"  # what `rulesets` prints


@pytest.mark.parametrize("value,message", [
    (["RH", "XX"], "limbs must be among RH, LH, RL, LL, not XX"),
    ("RH", "must be a list of strings"),
    ([1], "must be a list of strings"),
])
def test_a_bad_limb_list_is_refused_saying_why(value: object, message: str) -> None:
    with pytest.raises(FieldError, match=message):
        read_value(LIMBS_LOST, value)


def test_a_limb_list_is_kept() -> None:
    assert read_value(LIMBS_LOST, ["RL", "LL"]) == ["RL", "LL"]
