"""The opening explorer (issue 21): every move of a position whose result a
book or the store proves, with that result, best first; checked against the
reference minimax's exact values of tic-tac-toe."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import test_browser

import zerosum
from zerosum.search import reference
from zerosum.search.proven import Entry, move_score
from zerosum.search.recall import explore
from zerosum.store import Store
from zerosum.web.session import Session

browser = test_browser.browser


@contextlib.contextmanager
def served(env: dict[str, str]) -> Iterator[str]:
    """``zerosum serve`` on a free port with ``env`` added."""
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "LANGUAGE": "en", **env},
    )
    assert process.stdout is not None
    try:
        match = re.search(r"http://\S+/", process.stdout.readline())
        assert match, "zerosum serve did not start"
        yield match.group(0)
    finally:
        process.terminate()
        process.wait(timeout=30)


def exact(game: Any, state: Any) -> int:
    score = reference.analyze(game, state).score
    assert score.exact
    return score.raw


def test_the_kept_moves_come_with_their_proven_results_best_first(tmp_path: Path) -> None:
    game = zerosum.load("tictactoe")
    state = game.play(["0", "1"])
    with Store.open(tmp_path / "s.db") as store:
        kept = [m for m in game.actions(state) if m in (4, 3, 8, 5)]
        for move in kept:
            child = game.result(state, move)
            store.put(game, child, Entry.exact_value(exact(game, child), []))
        found = explore([store], game, state)
    assert [m for m, _s, _src in found] and {m for m, _s, _src in found} == set(kept)
    for move, score, source in found:
        assert source == "store"
        child = game.result(state, move)
        value = exact(game, child)  # for the opponent, who moves there
        assert score.raw == move_score(value, False), (move, score)
        assert score.kind == ("draw" if value == 0 else "win" if value < 0 else "loss")
    raws = [score.raw for _m, score, _s in found]
    assert raws == sorted(raws, reverse=True)


def test_the_page_gets_the_explorer_with_the_state(tmp_path: Path) -> None:
    from zerosum.search.proven import set_default_store

    game = zerosum.load("tictactoe")
    state = game.play(["0"])
    with Store.open(tmp_path / "s.db") as store:
        child = game.result(state, 4)
        store.put(game, child, Entry.exact_value(exact(game, child), []))
        previous = set_default_store(store)
        try:
            async def scenario() -> dict[str, Any]:
                sent: list[dict[str, Any]] = []
                session = Session(sent.append, "en")
                await session.start()
                await session.handle(json.dumps({
                    "type": "new", "game": "tictactoe", "moves": "0",
                    "players": [{"kind": "human"}, {"kind": "human"}],
                }))
                await session.close()
                return [m for m in sent if m["type"] == "state"][-1]

            shown = asyncio.run(scenario())
        finally:
            set_default_store(previous)
    entries = shown["explorer"]
    assert [e["move"] for e in entries] == [game.format_move(4)]
    assert entries[0]["kind"] == "draw" and entries[0]["words"] == "draw"
    assert entries[0]["source"] == "store"


def test_the_page_lists_the_proven_moves_and_a_click_plays_one(
    browser: Any, tmp_path: Path
) -> None:
    game = zerosum.load("tictactoe")
    state = game.play(["4"])
    path = tmp_path / "store.sqlite"
    with Store.open(path) as store:
        for move in (0, 1):  # a corner draws, an edge loses
            child = game.result(state, move)
            store.put(game, child, Entry.exact_value(exact(game, child), []))
    # The suite turns every server's store off (conftest.py): this one reads it.
    with served({"ZEROSUM_STORE": str(path), "ZEROSUM_NO_STORE": ""}) as address:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
        page = context.new_page()
        try:
            link = "#" + urlencode({"game": "tictactoe", "moves": "4", "players": "human,human"})
            page.goto(address + link)
            page.wait_for_selector("body[data-ready='1']")
            page.click("#tab-analysis")  # the explorer is in the analysis tab
            page.locator("#explorer .explorer-move").first.wait_for()
            moves = page.eval_on_selector_all(
                "#explorer .explorer-move", "items => items.map(i => i.dataset.move)"
            )
            words = page.eval_on_selector_all(
                "#explorer .explorer-words", "items => items.map(i => i.textContent)"
            )
            # Best first: the corners' draw, then the edges' loss (the store
            # keeps one entry per symmetry class: one corner and one edge
            # answer for all four).
            assert moves == ["0", "2", "6", "8", "1", "3", "5", "7"]
            assert words[:4] == ["draw"] * 4
            assert all(w.startswith("loss in ") for w in words[4:])
            page.click("#explorer .explorer-move[data-move='0'] button")
            page.wait_for_function("document.body.dataset.ply === '2'")
        finally:
            context.close()
