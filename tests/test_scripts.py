"""The README's two set-up commands (issue 20, items 1 and 2).

* ``scripts/setup.sh`` works from a stock Debian ``python3`` that refuses
  ``pip install`` outside a virtual environment (PEP 668): it makes ``.venv``
  and installs there. Marked slow: it installs numba from the package index.
* ``scripts/test.sh`` runs every step whatever an earlier one gave, reports
  each verdict, and fails when any step failed (its step runner,
  ``scripts/steps.sh``, driven here with steps that pass and fail).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Debian's own interpreter: externally managed (PEP 668) on Debian 12 and later.
STOCK_PYTHON = Path("/usr/bin/python3")


def _readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]


def test_the_readme_opens_with_exactly_two_commands() -> None:
    commands = _readme_commands()
    assert len(commands) == 2
    assert commands[0].startswith("bash scripts/setup.sh && .venv/bin/zerosum ")
    assert commands[1] == "bash scripts/test.sh"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/test.sh" in ci


def _steps(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", f". scripts/steps.sh\n{script}"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )


def test_every_step_runs_after_a_failure_and_the_run_fails() -> None:
    done = _steps('step first false\nstep second echo ran-second\nreport "checks"')
    assert done.returncode == 1
    assert "ran-second" in done.stdout
    assert "first FAILED with status 1" in done.stdout
    assert "second ok" in done.stdout


def test_all_steps_passing_passes() -> None:
    done = _steps('step one true\nstep two true\nreport "checks"')
    assert done.returncode == 0, done.stdout
    assert done.stdout.count(" ok (") == 2


def _externally_managed(python: Path) -> bool:
    if not python.exists():
        return False
    stdlib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('stdlib'))"],
        capture_output=True, text=True, check=False,
    ).stdout.strip()
    return bool(stdlib) and (Path(stdlib) / "EXTERNALLY-MANAGED").exists()


@pytest.mark.slow
def test_setup_installs_from_a_stock_externally_managed_python(tmp_path: Path) -> None:
    if not _externally_managed(STOCK_PYTHON):
        pytest.skip(f"{STOCK_PYTHON} is not an externally managed (PEP 668) interpreter here")
    # A clean copy of the checkout, as a fresh clone would be.
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    clone = tmp_path / "zerosum"
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env["PYTHON"] = str(STOCK_PYTHON)
    # The premise: the stock interpreter refuses a plain install (PEP 668).
    refused = subprocess.run(
        [str(STOCK_PYTHON), "-m", "pip", "install", "--dry-run", "--no-deps", "."],
        cwd=clone, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert refused.returncode != 0 and "externally-managed-environment" in refused.stderr
    setup = _readme_commands()[0].split("&&")[0].strip()
    done = subprocess.run(
        ["bash", "-c", setup], cwd=clone, env=env,
        capture_output=True, text=True, timeout=1500, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    version = subprocess.run(
        [str(clone / ".venv" / "bin" / "zerosum"), "--version"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert version.returncode == 0 and "zerosum" in version.stdout
