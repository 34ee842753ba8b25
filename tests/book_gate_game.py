"""A test game for the book builder's stop-and-resume tests: Connect Four
whose start position waits while the book named by ``ZEROSUM_TEST_GATE_BOOK``
holds at least ``ZEROSUM_TEST_GATE_AT`` positions. Every task of the build
replays its moves from the start, so the whole build (its workers and its
leader) stands still at a known point, whatever the machine's speed, for
the test to stop it there.

Imported with ``--import tests/book_gate_game.py``; the game is
``gatedconnect4``. With ``ZEROSUM_TEST_GATE_FILE`` the start position
also waits while that file exists (the split solve's tests).
"""

from __future__ import annotations

import os
import sqlite3
import time
from typing import Any

from zerosum.games.connect4 import ConnectFour
from zerosum.registry import register


def _stored(path: str) -> int:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            return int(db.execute("SELECT count(*) FROM positions").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


@register
class GatedConnectFour(ConnectFour):
    name = "gatedconnect4"
    title = "Connect Four that waits at a gate (a test game)"

    def initial_state(self) -> Any:
        book = os.environ.get("ZEROSUM_TEST_GATE_BOOK")
        at = int(os.environ.get("ZEROSUM_TEST_GATE_AT", "0"))
        while book and at and _stored(book) >= at:
            time.sleep(0.05)
        # The split solve's tests: wait while this file exists.
        # The process waiting says so by a file named by its pid in the
        # folder ``ZEROSUM_TEST_GATE_PIDS`` (for a test to kill it there).
        # The driver named by ``ZEROSUM_TEST_GATE_DRIVER`` (a pid) passes.
        gate = os.environ.get("ZEROSUM_TEST_GATE_FILE")
        if os.environ.get("ZEROSUM_TEST_GATE_DRIVER") == str(os.getpid()):
            gate = None
        if gate and os.path.exists(gate):
            folder = os.environ.get("ZEROSUM_TEST_GATE_PIDS")
            if folder:
                with open(os.path.join(folder, str(os.getpid())), "w"):
                    pass
            while os.path.exists(gate):
                time.sleep(0.05)
        return super().initial_state()
