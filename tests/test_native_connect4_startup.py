"""Start-up of the native backend: what a process imports before its first
search (speed itself is measured in benchmarks/README.md, not asserted)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("numba")


def run(code: str) -> str:
    """``code`` in a fresh interpreter (this process has imported plenty)."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
        env=dict(os.environ),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_game_without_native_code_does_not_import_numba() -> None:
    out = run(
        "import sys, zerosum\n"
        "from zerosum.search.engine import Engine\n"
        "Engine(zerosum.load('nim'))\n"
        "print('numba' in sys.modules)\n"
    )
    assert out == "False"
