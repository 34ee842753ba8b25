"""The server never waits on compilation (issue 21 item 1, issue 22 item
10): a game's native code compiles in a child process
(:mod:`zerosum.web.compiling`) while its searches run on the Python backend,
and the page says so.

The warmer and the session are driven with a stand-in child that answers
only when the test opens a gate (so "still compiling" is a state the test
holds, not a race); the browser test runs the real ``zerosum serve`` with an
empty numba cache directory."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_browser
from support import HANG_GUARD
from test_browser import new_game, wait_idle
from web_support import wait_for

from zerosum.search.front import available_backends
from zerosum.web.compiling import COMPILING, FAILED, READY, NativeWarmer, compile_game
from zerosum.web.session import Session

browser = test_browser.browser

#: A stand-in for the compiling child: answers each spec once the gate file
#: (its first argument) exists.
GATED_CHILD = r"""
import os, sys, time
gate = sys.argv[1]
for line in sys.stdin:
    spec = line.strip()
    while not os.path.exists(gate):
        time.sleep(0.01)
    print("ready\t" + spec, flush=True)
"""

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def gated_warmer(gate: Path) -> NativeWarmer:
    return NativeWarmer([sys.executable, "-c", GATED_CHILD, str(gate)], enabled=True)


async def until(test: Any) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not test():
        assert time.monotonic() < deadline, "hung"
        await asyncio.sleep(0.01)


def test_a_spec_is_compiling_until_the_child_answers_then_ready(tmp_path: Path) -> None:
    gate = tmp_path / "gate"

    async def scenario() -> None:
        warmer = gated_warmer(gate)
        heard: list[str] = []
        warmer.subscribe(heard.append)
        try:
            assert warmer.status("connect4(width=7,height=6)") == COMPILING
            warmer.start(["tictactoe"])
            warmer.request("connect4(width=7,height=6)")
            await asyncio.sleep(0.2)
            assert heard == []
            assert warmer.status("tictactoe") == COMPILING
            gate.touch()
            await until(lambda: len(heard) == 2)
            assert set(heard) == {"tictactoe", "connect4(width=7,height=6)"}
            assert warmer.status("tictactoe") == READY
        finally:
            warmer.close()

    asyncio.run(scenario())


def test_a_child_that_dies_fails_every_spec_and_later_ones_at_once() -> None:
    async def scenario() -> None:
        warmer = NativeWarmer([sys.executable, "-c", "import sys; sys.stdin.readline()"], True)
        heard: list[str] = []
        warmer.subscribe(heard.append)
        try:
            warmer.request("othello(size=8)")
            await until(lambda: heard == ["othello(size=8)"])
            assert warmer.status("othello(size=8)") == FAILED
            warmer.request("tictactoe")
            await until(lambda: "tictactoe" in heard)
            assert warmer.status("tictactoe") == FAILED
        finally:
            warmer.close()

    asyncio.run(scenario())


def test_without_a_native_backend_every_game_is_ready() -> None:
    assert NativeWarmer(enabled=False).status("connect4(width=7,height=6)") == READY


def test_the_child_says_which_games_have_no_native_code() -> None:
    # Nim has no compiled search: as good as ready (nothing to wait for).
    assert compile_game("nim(heaps=3-4-5)").split("\t")[:2] == ["none", "nim(heaps=3-4-5)"]
    assert compile_game("chess").startswith("failed\tchess\t")


def test_the_session_analyses_in_python_while_compiling_then_natively(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    native = available_backends()["native"] == "yes"

    async def scenario() -> None:
        warmer = gated_warmer(gate)
        sent: list[dict[str, Any]] = []
        session = Session(sent.append, "en", warmer)
        try:
            await session.start()
            await session.handle(json.dumps({"type": "new", "game": "connect4", "players": HUMANS}))
            await session.handle(json.dumps({"type": "settings", "analysis_time": 30}))
            await session.handle(json.dumps({"type": "analysis", "on": True}))
            # Lines come while the game compiles: from the Python backend.
            await wait_for(sent, lambda m: m["type"] == "progress", HANG_GUARD)
            states = [m for m in sent if m["type"] == "state"]
            assert "Connect Four" in states[-1]["compiling"]
            assert session.analyst.backend == "python"
            gate.touch()
            # Ready: the analysis starts again on the compiled search.
            await until(lambda: session.analyst.backend == ("native" if native else "python"))
            await wait_for(
                sent, lambda m: m["type"] == "state" and m["compiling"] is None, HANG_GUARD
            )
            assert session.searching == "analysis"
        finally:
            await session.close()
            warmer.close()

    asyncio.run(scenario())


def test_the_chinese_page_is_told_in_chinese(tmp_path: Path) -> None:
    async def scenario() -> None:
        warmer = gated_warmer(tmp_path / "never")
        sent: list[dict[str, Any]] = []
        session = Session(sent.append, "zh", warmer)
        try:
            await session.start()
            await session.handle(json.dumps({"type": "new", "game": "connect4", "players": HUMANS}))
            text = session.state_object()["compiling"]
            assert "正在编译" in text and "四子棋" in text, text
        finally:
            await session.close()
            warmer.close()

    asyncio.run(scenario())


@pytest.fixture()
def cold_server() -> Iterator[str]:
    """``zerosum serve`` with an empty numba cache: every game's native code
    compiles from scratch."""
    with tempfile.TemporaryDirectory() as cache:
        process = subprocess.Popen(
            [sys.executable, "-m", "zerosum", "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "LANGUAGE": "en", "NUMBA_CACHE_DIR": cache},
        )
        assert process.stdout is not None
        found: list[str] = []
        reader = threading.Thread(target=lambda: found.append(process.stdout.readline()))  # type: ignore[union-attr]
        reader.start()
        reader.join(timeout=HANG_GUARD)
        match = re.search(r"http://\S+/", found[0] if found else "")
        try:
            assert match, f"zerosum serve did not start: {found}"
            yield match.group(0)
        finally:
            process.terminate()
            process.wait(timeout=30)


@pytest.mark.skipif(available_backends()["native"] != "yes", reason="no native backend")
def test_a_cold_server_answers_and_analyses_while_connect_four_compiles(
    browser: Any, cold_server: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(cold_server)
        page.wait_for_selector("body[data-ready='1']")
        new_game(page, "connect4", players=("human", "human"))
        note = page.locator("#compiling-note")
        note.wait_for()
        assert "Connect Four" in note.inner_text()
        page.fill("#analysis-time", "60")
        page.dispatch_event("#analysis-time", "change")
        page.check("#analysis-toggle")
        # The Python backend's lines, while the note still says compiling
        # (a compile from scratch takes far longer than a first line).
        page.locator("#engine-lines li").first.wait_for()
        assert note.is_visible()
        # The server answers meanwhile: the health check and a new game.
        took = page.evaluate(
            "async () => { const t = performance.now();"
            " const r = await fetch('/api/health'); await r.json();"
            " return performance.now() - t; }"
        )
        print(f"/api/health answered in {took:.0f} ms while Connect Four compiled")
        assert note.is_visible()
        page.uncheck("#analysis-toggle")
        wait_idle(page)
    finally:
        context.close()
    assert not errors, errors
