"""The browser app's smaller defects (issue 21, item 9) in Debian's
Chromium (``test_browser.py``'s fixtures). Each test failed before its
change unless its docstring says otherwise."""

from __future__ import annotations

import json
import re
from typing import Any

import test_browser
from test_browser import new_game

server = test_browser.server
browser = test_browser.browser
page = test_browser.page


class Held:
    """The page's WebSocket with the server's messages held back until
    ``release`` (a server slow to send its first state), and the page's
    own messages recorded; later connections are closed at once when
    ``down`` (the server gone)."""

    def __init__(self) -> None:
        self.route: Any = None
        self.hold = True
        self.down = False
        self.held: list[str | bytes] = []
        self.sent: list[dict[str, Any]] = []

    def handle(self, route: Any) -> None:
        if self.down:
            route.close()
            return
        self.route = route
        upstream = route.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if self.hold:
                self.held.append(message)
            else:
                route.send(message)

        def from_page(message: str | bytes) -> None:
            self.sent.append(json.loads(message))
            upstream.send(message)

        upstream.on_message(from_server)
        route.on_message(from_page)

    def release(self) -> None:
        self.hold = False
        for message in self.held:
            self.route.send(message)
        self.held = []


def test_a_late_first_state_does_not_start_a_game_of_the_page(page: Any) -> None:
    held = Held()
    page.route_web_socket(re.compile(r".*/ws\b.*"), held.handle)
    # no game in the address: the landing game is the server's
    page.evaluate("history.replaceState(null, '', location.pathname)")
    page.reload()
    page.wait_for_timeout(3500)  # longer than the page's old 2 s wait
    assert [m for m in held.sent if m.get("type") == "new"] == []
    held.release()
    page.wait_for_selector("body[data-ready='1']")


def test_a_click_while_disconnected_says_so(page: Any) -> None:
    held = Held()
    held.hold = False
    page.route_web_socket(re.compile(r".*/ws\b.*"), held.handle)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    new_game(page, "tictactoe", players=("human", "ai"))
    page.click("#board rect.cell[data-row='1'][data-col='1']")
    page.wait_for_function("document.body.dataset.ply === '2'")
    # the server goes away with the human to move: a click says so
    held.down = True
    held.route.close()
    page.wait_for_function("document.body.dataset.connected === ''")
    page.click("#board rect.cell[data-row='0'][data-col='1']")
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert "Disconnected" in toast.inner_text()


def test_nim_players_are_capitalised(page: Any) -> None:
    new_game(page, "nim", players=("human", "human"))
    assert page.inner_text("#player-0-name").startswith("First")
    assert page.inner_text("#status").startswith("First to move")


def test_the_chinese_page_badges_spaces_and_tooltips(page: Any) -> None:
    page.select_option("#lang", "zh")
    page.wait_for_function("document.querySelector('#new-game').textContent.includes('新对局')")
    new_game(page, "connect4", players=("human", "human"))
    status = page.inner_text("#status")
    assert "轮到红方走棋" in status, status
    # every parameter's tooltip in Chinese (the spec's key is English)
    titles = page.locator("#params .param-name").evaluate_all("els => els.map(e => e.title)")
    assert titles and not [t for t in titles if re.search(r"[A-Za-z]{2,}", t)], titles
    # the board's badges in the tree's words: 胜5 / 负4 / 和, never W / L / D
    new_game(page, "tictactoe", players=("human", "human"))
    page.fill("#paste", "4 0 8 2")
    page.click("#load-record")
    page.wait_for_function("document.body.dataset.ply === '4'")
    page.check("#analysis-toggle")
    page.wait_for_function("document.querySelectorAll('#board .score').length === 5")
    page.wait_for_function("document.body.dataset.searching === ''")
    badges = page.locator("#board .score").all_text_contents()
    assert not [b for b in badges if re.search(r"[WLD]", b)], badges
    assert any("胜" in b or "负" in b or "和" in b for b in badges), badges


def test_an_analysis_ends_with_a_row_saying_so(page: Any) -> None:
    """The lines table ends with the analysis's end (when and how many
    positions); no claim on how long it ran (that is the machine's)."""
    new_game(page, "connect4", players=("human", "human"))
    page.fill("#analysis-time", "1")
    page.dispatch_event("#analysis-time", "change")
    page.check("#analysis-toggle")
    page.locator("#analysis-lines .line.end").wait_for()
    text = page.inner_text("#analysis-lines .line.end")
    assert text.startswith("Analysis ended after") and "positions" in text
