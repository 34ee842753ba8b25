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


def test_a_native_engine_does_not_import_scipy_linalg() -> None:
    # numba's arraymath imports scipy.linalg (0.06-0.11 s) only to probe for
    # BLAS; the native backend keeps it out of the start-up.
    out = run(
        "import sys, zerosum\n"
        "from zerosum.search.engine import Engine, EngineOptions\n"
        "Engine(zerosum.load('connect4'), EngineOptions(backend='native'))\n"
        "print('numba.np.arraymath' in sys.modules, 'scipy.linalg' in sys.modules)\n"
    )
    assert out == "True False"


def test_linear_algebra_in_numba_still_works_afterwards() -> None:
    # The probe fails only while numba loads: a later np.dot (which needs
    # SciPy's BLAS) compiles and runs in the same process.
    pytest.importorskip("scipy")
    out = run(
        "import sys, zerosum\n"
        "from zerosum.search.engine import Engine, EngineOptions\n"
        "Engine(zerosum.load('connect4'), EngineOptions(backend='native'))\n"
        "assert 'scipy.linalg.cython_blas' not in sys.modules\n"
        "import numba, numpy as np\n"
        "f = numba.njit(lambda a: np.dot(a, a))\n"
        "print(f(np.arange(3.0)))\n"
    )
    assert out == "5.0"


def test_a_game_without_native_code_does_not_import_numba() -> None:
    out = run(
        "import sys, zerosum\n"
        "from zerosum.search.engine import Engine\n"
        "Engine(zerosum.load('nim'))\n"
        "print('numba' in sys.modules)\n"
    )
    assert out == "False"
