"""The documentation a clone carries: complete, linked, and pointing nowhere outside it.

A reader of a clone has README.md and docs/; nothing may send them to the workplace the
project was written in. The ruleset pages must name every option, characteristic and
weapon field the program declares, and the benchmark page every target the code checks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabletop_gui.bench.targets import TARGETS
from tabletop_gui.rules.registry import INFOS, RULESET_IDS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# spelt in pieces so that this file does not name them itself
OUTSIDE = ("shared" + "/spec", "shared" + "/rules", ".." + "/shared")
CHECKED = ("README.md", "pyproject.toml", "Makefile", "docs", "tabletop_gui", "resources",
           "tests")
TEXT = {".py", ".md", ".json", ".toml", ".txt", ""}


def _text_files() -> list[Path]:
    out = []
    for name in CHECKED:
        path = ROOT / name
        files = [path] if path.is_file() else sorted(path.rglob("*"))
        out += [f for f in files if f.is_file() and f.suffix in TEXT
                and "__pycache__" not in f.parts]
    return out


def test_nothing_points_outside_the_repository() -> None:
    files = _text_files()
    assert len(files) > 100 and ROOT / "docs" / "cli.md" in files
    found = [f"{f.relative_to(ROOT)}: {needle}" for f in files
             for needle in OUTSIDE if needle in f.read_text(encoding="utf-8")]
    assert not found


def _markdown() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, flags=re.M)}


@pytest.mark.parametrize("page", _markdown(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    broken = []
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        if not path.exists():
            broken.append(link)
        elif anchor and path.is_file() and anchor not in _anchors(path):
            broken.append(link)
    assert not broken


def test_docs_index_links_every_page() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")} - {"README.md"}
    assert pages == set(re.findall(r"\]\(([\w/-][\w/.-]*\.md)\)", index)) - {"../README.md"}


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_each_ruleset_page_names_what_the_program_reads(ruleset: str) -> None:
    page = DOCS / "rulesets" / f"{ruleset}.md"
    text = page.read_text(encoding="utf-8")
    info = INFOS[ruleset]
    assert text.startswith(f"# `{ruleset}` — ")
    decl = info.declaration
    names = [f.name for f in (*decl.characteristics, *decl.weapon_fields, *decl.state)]
    names += [*decl.traits, *decl.valued_traits]
    names += [o.key for o in (*info.situational_options, *info.ruleset_options)]
    names += [c for o in info.ruleset_options for c in o.choices if c]
    spans = re.findall(r"`[^`]+`", text)
    missing = [n for n in names
               if not any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", s) for s in spans)]
    assert not missing, f"{page.name} does not name {missing}"
    for heading in ("## Data", "## Target check", "## Dice order", "## Choices",
                    "## Worked example"):
        assert heading in text


def test_benchmark_page_lists_the_targets_the_code_checks() -> None:
    text = (DOCS / "benchmark.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|$", text, flags=re.M))
    assert set(rows) == set(TARGETS)
    for name, target in TARGETS.items():
        assert rows[name].strip().startswith(target.text()), name
