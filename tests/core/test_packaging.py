"""The built wheel is a working program away from the checkout.

The wheel is built from a copy of the checkout with this environment's setuptools (no
download), installed without its dependencies into a fresh virtual environment outside
the checkout, and that environment is then given this one's packages (numpy, shapely...)
through a ``.pth`` file. From a folder outside the checkout, the installed
``tabletop-gui`` finds its shipped demos, profiles and schema inside the package and
validates a demo. The build itself must print no setuptools deprecation warning.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=240, check=False)


def _source_copy(dest: Path) -> Path:
    """What a clone holds for the build: pyproject.toml, README.md, the code, resources/."""
    src = dest / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in ("tabletop_gui", "resources"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    return src


def _checkout_files() -> set[str]:
    """Every module and resource file the wheel must carry, as wheel paths."""
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tabletop_gui").rglob("*.py")}
    resources = {"tabletop_gui/" + p.relative_to(ROOT).as_posix()
                 for p in (ROOT / "resources").rglob("*") if p.is_file()}
    return modules | resources


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_built_wheel_installs_and_validates_a_shipped_demo(tmp_path: Path) -> None:
    assert not tmp_path.resolve().is_relative_to(ROOT)
    src = _source_copy(tmp_path)
    wheels = tmp_path / "wheels"
    build = _run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                  "--no-build-isolation", "--no-index", "-w", str(wheels), str(src)],
                 cwd=tmp_path)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    build_output = build.stdout + build.stderr
    assert "Deprecat" not in build_output, [
        line for line in build_output.splitlines() if "Deprecat" in line]
    (wheel,) = wheels.glob("tabletop_gui-*.whl")
    with zipfile.ZipFile(wheel) as z:
        shipped = {n for n in z.namelist() if n.startswith("tabletop_gui/")}
    missing = _checkout_files() - shipped
    assert not missing, f"the wheel lacks {sorted(missing)}"

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    install = _run([sys.executable, "-m", "pip", "--python", str(python), "install",
                    "--no-deps", "--no-index", str(wheel)], cwd=tmp_path)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    # only now (pip would otherwise see this environment's editable install there too)
    own_site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                          "'purelib'))"], cwd=tmp_path).stdout.strip())
    (own_site / "test-environment.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n", encoding="utf-8")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    where = _run([str(python), "-c", "from tabletop_gui.scenario.resources import "
                  "RESOURCES, demo_path, load_profiles; load_profiles('ninth-age'); "
                  "print(RESOURCES); print(demo_path('ninth-age'))"], cwd=elsewhere, env=env)
    assert where.returncode == 0, where.stderr
    resources, demo = (Path(line) for line in where.stdout.split())
    assert resources.is_relative_to(own_site / "tabletop_gui")
    assert demo.is_file() and demo.is_relative_to(resources)

    validate = _run([str(env_dir / "bin" / "tabletop-gui"), "validate", str(demo)],
                    cwd=elsewhere, env=env)
    assert validate.returncode == 0, validate.stderr
    assert validate.stdout.startswith("ok: ninth-age.battle.json — ninth-age, 6 units")
