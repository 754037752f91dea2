"""No import circles in ``tabletop_gui``.

The graph is read from the source with ``ast``, not from ``sys.modules``: every import
counts, at module level, inside a function, or under ``if TYPE_CHECKING:``. A circle hidden
by a function-level import is still a circle of knowledge (each module needs the other),
and a type-checking import becomes a runtime one the day somebody needs the name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tabletop_gui

Graph = dict[str, set[str]]


def _modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package under ``root`` (the package's directory), by dotted name."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([package, *parts])] = path
    return out


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
              known: dict[str, Path]) -> set[str]:
    """The package's modules one import statement names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            here = module.split(".") if is_package else module.split(".")[:-1]
            base_parts = here[: len(here) - (node.level - 1)]
            base = ".".join(base_parts + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        # ``from a import b``: b is the module a.b when there is one, else a name in a
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                 for alias in node.names]
    out = set()
    for name in names:
        while name and name not in known:  # ``import a.b.c`` of a name inside a module
            name = name.rpartition(".")[0]
        if name:
            out.add(name)
    return out


def import_graph(root: Path, package: str) -> Graph:
    """module -> the package's modules it imports (anywhere in its source)."""
    known = _modules(root, package)
    graph: Graph = {}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges |= _imported(node, module, is_package, known)
        edges.discard(module)
        graph[module] = edges
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """One circle through each strongly connected group of modules (Tarjan), each as a path
    ``[a, b, ..., a]``, sorted so a failure message is stable."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    counter = 0

    def visit(v: str) -> None:  # iterative would be longer; the graph is a few hundred deep
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(_circle_in(graph, g) for g in groups)


def _circle_in(graph: Graph, group: set[str]) -> list[str]:
    """A shortest circle through the group's first module, staying inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & group):
                if w == start:
                    return [*paths[v], start]
                if w not in paths:
                    paths[w] = [*paths[v], w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no circle in a strongly connected group {sorted(group)}")


def assert_no_circle(root: Path, package: str) -> Graph:
    """Fail naming every circle (one per group of modules that import each other)."""
    graph = import_graph(root, package)
    found = cycles(graph)
    assert not found, "import circles:\n" + "\n".join("  " + " -> ".join(c) for c in found)
    return graph


def test_tabletop_gui_has_no_import_circle() -> None:
    graph = assert_no_circle(Path(tabletop_gui.__file__).parent, "tabletop_gui")
    assert len(graph) > 100  # the whole package was read


RULESET_FREE_LAYERS = ("geometry", "scenario", "model", "ui")


def ruleset_imports(graph: Graph, package: str) -> list[str]:
    """``module -> ruleset module`` for every import of a ruleset's own package
    (``<package>.rules.<ruleset>.*``) by a module of the layers that must not name a
    ruleset: a ruleset's knowledge is reached through the registry and ``Ruleset``."""
    rulesets = {m.split(".")[2] for m in graph
                if m.startswith(f"{package}.rules.") and len(m.split(".")) > 3}
    return sorted(f"{m} -> {e}" for m, edges in graph.items() for e in edges
                  if m.split(".")[1] in RULESET_FREE_LAYERS
                  and e.startswith(f"{package}.rules.") and e.split(".")[2] in rulesets)


def test_no_layer_outside_the_rules_imports_a_rulesets_package() -> None:
    graph = import_graph(Path(tabletop_gui.__file__).parent, "tabletop_gui")
    assert ruleset_imports(graph, "tabletop_gui") == []


def test_a_ruleset_import_from_the_ui_is_named(tmp_path: Path) -> None:
    root = _write(tmp_path / "pkg", {
        "__init__.py": "", "rules/__init__.py": "", "rules/registry.py": "",
        "rules/chess/__init__.py": "", "rules/chess/counts.py": "",
        "ui/__init__.py": "", "ui/items.py": "from pkg.rules.chess.counts import x\n",
        "ui/ok.py": "from pkg.rules import registry\n",
    })
    graph = import_graph(root, "pkg")
    assert ruleset_imports(graph, "pkg") == ["pkg.ui.items -> pkg.rules.chess.counts"]


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_circle_hidden_in_a_function_or_type_checking_is_found_and_named(tmp_path: Path
                                                                         ) -> None:
    pkg = _write(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "def f():\n    from pkg import b\n    return b\n",
        "b.py": ("from typing import TYPE_CHECKING\n"
                 "if TYPE_CHECKING:\n    from pkg.sub.c import X\n"),
        "sub/__init__.py": "",
        "sub/c.py": "from ..a import f\nX = 1\n",
        "d.py": "import pkg.a\nimport os\n",  # imports into the circle, not part of it
    })
    graph = import_graph(pkg, "pkg")
    assert graph["pkg.a"] == {"pkg.b"}
    assert graph["pkg.b"] == {"pkg.sub.c"}
    assert graph["pkg.sub.c"] == {"pkg.a"}
    assert graph["pkg.d"] == {"pkg.a"}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"]]
    with pytest.raises(AssertionError, match=r"pkg\.a -> pkg\.b -> pkg\.sub\.c -> pkg\.a"):
        assert_no_circle(pkg, "pkg")


def test_a_package_without_circles_passes(tmp_path: Path) -> None:
    pkg = _write(tmp_path / "pkg", {
        "__init__.py": "from pkg.a import f\n",  # a package re-exporting its module
        "a.py": "from . import b\ndef f():\n    return b\n",
        "b.py": "import json\n",
    })
    graph = import_graph(pkg, "pkg")
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": set()}
    assert cycles(graph) == []


def test_two_separate_circles_are_both_named(tmp_path: Path) -> None:
    pkg = _write(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "import pkg.b\n",
        "b.py": "import pkg.a\n",
        "c.py": "from pkg.d import x\n",
        "d.py": "from pkg import c\nx = 1\n",
    })
    assert cycles(import_graph(pkg, "pkg")) == [["pkg.a", "pkg.b", "pkg.a"],
                                                ["pkg.c", "pkg.d", "pkg.c"]]
