"""Shared fixtures: the location of the third-party data in ``../shared/data``.

That data is not part of the repository (it is third-party): CI has it beside
the checkout. A test that needs it fails under ``CI=true`` when it is missing
and is skipped elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
