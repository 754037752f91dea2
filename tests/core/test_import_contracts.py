"""The layer contracts of pyproject.toml hold (import-linter)."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_contracts_hold() -> None:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert exe, "import-linter is part of the test extras"
    done = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


# Run in a fresh interpreter in which Qt cannot be imported at all (as on a machine
# without PySide6): every module of the core and of the command line is imported, and
# every sub-command runs on every shipped demo (`ruling --json` on the first pair of
# each); then no Qt module may be loaded.
_WITHOUT_QT = """
import contextlib, importlib, io, json, pkgutil, sys
QT = ("PySide6", "shiboken6", "pyqtgraph")

class NoQt:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in QT:
            raise ImportError(f"{name} imported by the core")
        return None

sys.meta_path.insert(0, NoQt())
import tabletop_gui
from tabletop_gui.cli import main
from tabletop_gui.scenario.resources import demo_path
from tabletop_gui.rules.registry import RULESET_IDS
for pkg in ("geometry", "rules", "scenario", "importers", "commands"):
    top = importlib.import_module(f"tabletop_gui.{pkg}")
    for m in pkgutil.walk_packages(top.__path__, f"tabletop_gui.{pkg}."):
        importlib.import_module(m.name)
runs = 0
for ruleset in RULESET_IDS:
    path = str(demo_path(ruleset))
    for argv in (["validate", path], ["inspect", path, "--json"], ["rulesets", "--json"]):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            assert main(argv) == 0, argv
        runs += 1
        if argv[0] == "inspect":
            pair = json.loads(out.getvalue())["pairs"][0]
    argv = ["ruling", path, "--attacker", pair["attacker"], "--target", pair["target"],
            "--json"]
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(argv) == 0, argv
    assert json.loads(out.getvalue())["tipping_points"], argv
    runs += 1
loaded = sorted(m for m in sys.modules if m.split(".")[0] in QT)
print(runs, loaded)
sys.exit(1 if loaded or runs != 4 * len(RULESET_IDS) else 0)
"""


def test_core_and_command_line_run_without_qt() -> None:
    done = subprocess.run([sys.executable, "-c", _WITHOUT_QT], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("[]")


def test_the_check_catches_a_core_module_that_imports_qt() -> None:
    """The same check fails when a core module pulls Qt in (here: one more import)."""
    leaky = _WITHOUT_QT.replace("runs = 0\n", "import PySide6.QtCore\nruns = 0\n", 1)
    assert leaky != _WITHOUT_QT
    done = subprocess.run([sys.executable, "-c", leaky], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode != 0
    assert "ImportError: PySide6 imported by the core" in done.stderr
