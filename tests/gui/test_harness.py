"""The test run tells the truth: a test whose code lets an exception escape fails, even
where pytest-qt does not look (tests/conftest.py, "An exception that escapes")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).resolve().parent / "harness_cases" / "slot_errors.py"


def test_an_exception_in_a_slot_fails_the_test_run(tmp_path: Path) -> None:
    """A pytest run of tiny tests whose slots raise or print a traceback fails each of
    them, and passes the clean one (the file is outside the suite: not collected)."""
    case = tmp_path / "test_slot_errors.py"
    shutil.copy(CASES, case)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), "-rA", "-q",
         str(case)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    outcome = {line.split("::")[1].split()[0]: line.split()[0] for line in out.splitlines()
               if line.startswith(("PASSED", "FAILED", "ERROR")) and "::" in line}
    assert outcome == {
        "test_slot_raises_outside_pytest_qt_capture": "FAILED",  # sys.excepthook
        "test_slot_prints_its_traceback": "FAILED",  # a traceback on stderr
        "test_slot_raises": "FAILED",  # pytest-qt's own capture
        "test_clean": "PASSED",
    }, out
    assert "sys.excepthook: ValueError: deliberate error in a slot" in out
    assert "a traceback was written to stderr" in out
