"""MCTS in a real browser: chosen from the player menu, it thinks with win
rates drawn on the board, then moves."""

from __future__ import annotations

from typing import Any

# fixtures of the browser tests (a server, Chromium, a fresh page)
from test_browser import browser, new_game, page, server

__all__ = ["browser", "page", "server"]


def test_mcts_from_the_player_menu_shows_win_rates_and_moves(page: Any) -> None:
    new_game(page, "connect4", players=("human", "human"))
    page.fill("#player-1-time", "1.5")
    page.dispatch_event("#player-1-time", "change")
    page.select_option("#player-1-kind", "mcts")
    page.click("#board rect.cell[data-row='5'][data-col='3']")
    page.wait_for_function("document.body.dataset.searching === 'ai'")
    # while it thinks: a win rate on the board for every column
    page.wait_for_function(
        "Array.from(document.querySelectorAll('#board .score'))"
        ".filter(g => /%$/.test(g.textContent.trim())).length === 7"
    )
    page.locator("#analysis-lines .line").first.wait_for()
    assert "MCTS" in page.locator("#analysis-lines").inner_text()
    page.wait_for_function("document.body.dataset.ply === '2'", timeout=15_000)
