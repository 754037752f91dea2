"""``rules.base.first_valid``: the weapon an attack takes when none is chosen (the
Warcry family's ``plan`` and the CLI's ``attack`` both use it)."""

from __future__ import annotations

import gc

import pytest

from tabletop_gui.rules.base import RulesError, first_valid


def attempts(answers: dict[str, object]) -> tuple[list[str], object]:
    """An attempt that answers from ``answers`` (an exception class is raised, made anew
    with the name: nothing else holds it), and the names it was asked, in order."""
    asked: list[str] = []

    def attempt(name: str) -> object:
        asked.append(name)
        answer = answers[name]
        if isinstance(answer, type) and issubclass(answer, Exception):
            raise answer(f"{name} refused")
        return answer

    return asked, attempt


def test_the_first_valid_answer_is_taken_and_no_later_name_is_tried():
    asked, attempt = attempts({"axe": "invalid axe", "bow": "valid bow", "club": "valid club"})
    assert first_valid(["axe", "bow", "club"], attempt, lambda a: a.startswith("valid")) \
        == "valid bow"
    assert asked == ["axe", "bow"]


def test_without_a_valid_answer_the_first_answer_is_taken():
    asked, attempt = attempts({"axe": RulesError, "bow": "invalid bow",
                               "club": "invalid club"})
    assert first_valid(["axe", "bow", "club"], attempt, lambda a: a.startswith("valid")) \
        == "invalid bow"
    assert asked == ["axe", "bow", "club"]


def test_a_refused_name_is_passed_over_for_a_later_valid_one():
    _, attempt = attempts({"axe": RulesError, "bow": "valid bow"})
    assert first_valid(["axe", "bow"], attempt, lambda a: a.startswith("valid")) == "valid bow"


def test_when_every_name_is_refused_the_first_refusal_is_raised():
    _, attempt = attempts({"axe": RulesError, "bow": RulesError})
    with pytest.raises(RulesError, match="^axe refused$"):
        first_valid(["axe", "bow"], attempt, lambda a: True)


def test_other_errors_are_not_passed_over():
    _, attempt = attempts({"axe": KeyError, "bow": "valid bow"})
    with pytest.raises(KeyError):
        first_valid(["axe", "bow"], attempt, lambda a: True)


def test_no_names_is_a_programming_error_not_a_refusal():
    _, attempt = attempts({})
    with pytest.raises(ValueError, match="no weapon names"):
        first_valid([], attempt, lambda a: True)


def test_a_refusal_raised_leaves_no_cycle_for_the_collector():
    """The refusal's traceback holds ``first_valid``'s frame: had the frame kept the
    refusal in a local, the pair would be a cycle (with the battle) for the collector."""
    _, attempt = attempts({"axe": RulesError, "bow": RulesError})
    gc.collect()
    gc.disable()
    try:
        with pytest.raises(RulesError):
            first_valid(["axe", "bow"], attempt, lambda a: True)
        assert gc.collect() == 0
    finally:
        gc.enable()
