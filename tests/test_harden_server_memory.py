"""Issue 22.1: a closed game frees its memory at once. Twenty games are
opened and closed in the server (the ASGI app in this process, driven over
WebSocket by Starlette's test client), each analysing a native Connect Four
position; the process's resident memory must come back near its size after
the first game, with no garbage collection asked for."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from zerosum.web.app import create_app

pytest.importorskip("numba")

#: The native engine's table for Connect Four (see native/table.py).
TABLE_MB = 64


def resident_mb() -> float:
    """This process's resident memory (VmRSS of /proc/self/status), MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def one_game(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "settings", "analysis_time": 0.3})
        ws.send_json(
            {"type": "new", "game": "connect4", "moves": "4 4 3",
             "players": [{"kind": "human"}, {"kind": "human"}]}
        )  # fmt: skip
        ws.send_json({"type": "analysis", "on": True})
        for _ in range(10_000):
            message: dict[str, Any] = ws.receive_json()
            if message["type"] == "analysis":
                break
        else:
            raise AssertionError("no analysis")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_closed_games_give_their_memory_back() -> None:
    gc.collect()
    frozen = gc.isenabled()
    # An idle server rarely runs a full collection: none may be needed here.
    gc.disable()
    try:
        with TestClient(create_app(hosts=("testserver",))) as client:
            one_game(client)  # compiles/loads the kernel, warms every cache
            idle = resident_mb()
            peaks = []
            for _ in range(20):
                one_game(client)
                peaks.append(resident_mb())
    finally:
        if frozen:
            gc.enable()
    # Bound: the idle size plus two tables (one game's analysis table that
    # the allocator may keep mapped for reuse, and slack for Python's own
    # arenas). Kept, twenty games hold up to 20 tables: 1,280 MB more.
    assert max(peaks) - idle < 2 * TABLE_MB, (idle, peaks)
