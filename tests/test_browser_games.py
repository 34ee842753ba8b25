"""A whole human-vs-AI game of every game type in a real browser
(``test_browser.py``'s server and Chromium): the human clicks random legal
moves, the AI plays at level easy with no wait, until the game is over;
the page must log no error (nor a warning of its own) on its console."""

from __future__ import annotations

import random
from typing import Any

import pytest
import test_browser
from test_browser import new_game, ply

from zerosum.registry import entries

# test_browser's fixtures: a zerosum server, Debian's Chromium.
server = test_browser.server
browser = test_browser.browser

MAX_TURNS = 200  # gomoku's 225 cells at most; every game here ends sooner


@pytest.mark.parametrize("name", [e.name for e in entries()])
def test_a_whole_game_against_the_ai(browser: Any, server: str, name: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
    def on_console(message: Any) -> None:
        # errors, and the page's own warnings (a part that failed to draw)
        if message.type == "error" or message.text.startswith("zerosum:"):
            problems.append(message.text)

    page.on("console", on_console)
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#delay", "0")
    page.dispatch_event("#delay", "change")
    page.select_option("#player-1-level", "easy")
    new_game(page, name, players=("human", "ai"))
    page.wait_for_function("document.body.dataset.levels === ',easy'")
    chooser = random.Random(name)
    for _turn in range(MAX_TURNS):
        if page.evaluate("document.body.dataset.over") == "1":
            break
        before = ply(page)
        cells = page.locator("#board rect.cell.playable")
        buttons = page.locator("#move-buttons [data-move]")
        count = cells.count()
        if count:
            cells.nth(chooser.randrange(count)).click()
        else:
            buttons.nth(chooser.randrange(buttons.count())).click()
        # the human's move, then the AI's reply (or the end)
        page.wait_for_function(
            f"Number(document.body.dataset.ply) > {before}"
            " && document.body.dataset.searching === ''"
            " && (document.body.dataset.over === '1'"
            f" || Number(document.body.dataset.ply) > {before + 1})",
            timeout=30_000,
        )
    over = page.evaluate("document.body.dataset.over")
    banner = page.inner_text("#banner") if page.locator("#banner").is_visible() else ""
    moves = page.locator("#moves li[data-ply]").count()
    played = ply(page)
    ai_moves = page.evaluate(
        "Array.from(document.querySelectorAll('#moves li[data-ply]'))"
        ".filter(li => li.querySelector('.move-who')?.textContent.trim() === "
        "document.querySelector('#player-1-name').textContent.trim()).length"
    )
    test_browser.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(test_browser.ARTIFACTS / f"game-{name}.png"))
    context.close()
    assert over == "1", f"{name}: not over after {MAX_TURNS} turns"
    assert banner.strip()
    assert moves == played > 0  # every move listed
    assert ai_moves >= (played - 1) // 2  # the AI answered every human move
    assert not problems, problems
