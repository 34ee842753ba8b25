"""Shared fixtures: the location of the third-party data in ``../shared/data``,
and what CI must have.

That data is not part of the repository (it is third-party): CI has it beside
the checkout. A test that needs it fails under ``CI=true`` when it is missing
and is skipped elsewhere. So does numba (the ``fast`` extra): without it the
native tests (some 235) skip locally, and under ``CI=true`` the run fails at
its start with one line saying why.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

#: Not a test module: a game the book tests load into their own processes
#: (``--import``). Collected (for its doctests), it would register its game in
#: this process too, and every test over all registered games would meet it.
collect_ignore = ["book_gate_game.py"]

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def shared_data(relative: str) -> Path:
    """Path of a file under ``../shared/data``; fail in CI or skip elsewhere
    when it is not there."""
    path = SHARED_DATA / relative
    if not path.exists():
        message = f"shared data {path} is missing"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(autouse=True, scope="session")
def _temporary_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test (and every process a test starts) uses no store by default,
    and a temporary one if that is turned back on: the suite never writes to
    the user's real store."""
    names = ("ZEROSUM_STORE", "ZEROSUM_NO_STORE", "ZEROSUM_NO_BOOK", "ZEROSUM_THREADS")
    previous = {name: os.environ.get(name) for name in names}
    os.environ["ZEROSUM_STORE"] = str(tmp_path_factory.mktemp("store") / "store.sqlite")
    # The front ends' default store and books are off: a test's output must
    # not depend on what another test proved (tests of the store name one).
    os.environ["ZEROSUM_NO_STORE"] = "1"
    os.environ["ZEROSUM_NO_BOOK"] = "1"
    # One thread for solve and analyze (their default is every core): the
    # counts of positions the tests compare are one thread's (tests of
    # threads ask for them, tests/test_threads.py).
    os.environ["ZEROSUM_THREADS"] = "1"
    yield
    for name, value in previous.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value

def pytest_sessionstart(session: pytest.Session) -> None:
    """Under ``CI=true`` a missing numba (or numpy) ends the run as a failure:
    CI must test the native backend, not skip it."""
    if os.environ.get("CI") != "true":
        return
    missing = []
    for name in ("numpy", "numba"):
        try:
            importlib.import_module(name)
        except ImportError as error:
            missing.append(f"{name} ({error})")
    if missing:
        pytest.exit(
            "CI=true but "
            + ", ".join(missing)
            + " cannot be imported: the native tests would be skipped; "
            "install the fast extra (python3 -m pip install -e '.[fast]')",
            returncode=pytest.ExitCode.TESTS_FAILED,
        )
