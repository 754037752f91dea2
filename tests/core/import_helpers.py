"""Running `tabletop-gui import` in-process on the files of tests/data/import/."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

from tabletop_gui.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "import"


def data(name: str) -> str:
    return str(DATA / name)


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def import_json(tmp_path: Path, *files: str, extra: tuple[str, ...] = ()) -> tuple[Path, Any]:
    """Import ``files`` with --json into tmp_path/out.battle.json; (path, printed JSON)."""
    target = tmp_path / "out.battle.json"
    code, out, err = run_cli("import", *files, "-o", str(target), "--json", *extra)
    assert code == 0, err
    assert err == ""
    return target, json.loads(out)


def refused(tmp_path: Path, *files: str, extra: tuple[str, ...] = ()) -> list[str]:
    """Import that must be refused: exit 2, nothing on stdout, nothing written."""
    target = tmp_path / "refused.battle.json"
    code, out, err = run_cli("import", *files, "-o", str(target), *extra)
    assert code == 2, (out, err)
    assert out == ""
    assert not target.exists()
    assert not list(tmp_path.glob(".refused*"))  # no temporary file left behind either
    lines = err.splitlines()
    assert lines and all(line.strip() for line in lines)
    return lines
