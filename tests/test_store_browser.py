"""The store in a real browser: ``zerosum serve --store PATH`` answers an
analysis from the store with a *store* badge, and the page's Store setting
turns it off (``test_browser.py``'s browser and page, a server of its own)."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_browser
from test_browser import new_game, wait_idle

import zerosum
from zerosum.search.front import Searcher, SearchOptions
from zerosum.search.types import Limits
from zerosum.store import Store

browser = test_browser.browser
page = test_browser.page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``zerosum serve`` on a store that knows tic-tac-toe's start and every
    position after its first move."""
    path = tmp_path_factory.mktemp("store") / "browser.sqlite"
    game = zerosum.load("tictactoe")
    with Store.open(path) as store:
        Searcher(game, SearchOptions(store=store, use_book=False)).analyze(
            game.initial_state(), Limits()
        )
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "serve", "--port", "0", "--store", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    found: list[str] = []
    reader = threading.Thread(target=lambda: found.append(process.stdout.readline()))  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout=30)
    match = re.search(r"http://\S+/", found[0] if found else "")
    if not match:
        process.kill()
        raise AssertionError(f"zerosum serve did not start: {found}")
    try:
        yield match.group(0)
    finally:
        process.terminate()
        process.wait(timeout=10)


def _analyse(page: Any) -> None:
    page.check("#analysis-toggle")
    page.locator("#search-result").wait_for()
    wait_idle(page)


def test_an_analysis_from_the_store_has_a_badge_and_the_setting_turns_it_off(
    page: Any, tmp_path: Path
) -> None:
    new_game(page, "tictactoe", players=("human", "human"))
    assert page.is_checked("#use-store") and page.is_checked("#use-book")
    _analyse(page)
    badge = page.locator("#search-result .source-badge")
    badge.wait_for()
    assert badge.inner_text().strip() == "store"
    assert "0 positions" in page.inner_text("#search-result")
    page.uncheck("#analysis-toggle")
    wait_idle(page)
    page.uncheck("#use-store")
    page.wait_for_function("!document.querySelector('#use-store').checked")
    _analyse(page)
    page.wait_for_function("!document.querySelector('#search-result .source-badge')")
    assert "draw" in page.inner_text("#search-result")
    page.uncheck("#analysis-toggle")
