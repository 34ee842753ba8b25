"""The page's defects of issue 12, each in a real browser (Debian's Chromium
through Playwright; ``test_browser.py``'s fixtures: one ``zerosum serve`` for
the module, a fresh page a test). Each test failed before its fix.

Some tests put messages of their own into the page's WebSocket
(``page.route_web_socket``): the order of the server's messages is then
known exactly, which a real search cannot promise.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import test_browser
from test_browser import ARTIFACTS, box, click_cell, new_game, ply, wait_idle

# test_browser's fixtures: a zerosum server, Debian's Chromium, a fresh page.
server = test_browser.server
browser = test_browser.browser
page = test_browser.page


def play_cells(page: Any, cells: list[tuple[int, int]]) -> None:
    for row, col in cells:
        click_cell(page, row, col)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
    )


class Tap:
    """The page's WebSocket with a hand in it: every server message is
    recorded (``states``) and passed on; ``inject`` sends one of ours."""

    def __init__(self) -> None:
        self.route: Any = None
        self.states: list[dict[str, Any]] = []

    def handle(self, route: Any) -> None:
        self.route = route
        upstream = route.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state":
                self.states.append(data)
            route.send(message)

        upstream.on_message(from_server)
        route.on_message(lambda message: upstream.send(message))

    def inject(self, message: dict[str, Any]) -> None:
        self.route.send(json.dumps(message))


@pytest.fixture()
def tapped(page: Any) -> Iterator[tuple[Any, Tap]]:
    tap = Tap()
    page.route_web_socket(re.compile(r".*/ws\b.*"), tap.handle)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    yield page, tap


# ---------------------------------------------------------------- 1 and 12: the set-up


def test_a_refused_new_game_keeps_the_next_choice(page: Any) -> None:
    """Defects 1 and 12: after a refused New game the set-up shows what is
    played and says what was refused; a later choice is not reset by the
    reply to a level change, and New game starts the game chosen."""
    new_game(page, "tictactoe", players=("human", "human"))
    page.select_option("#game-select", "mnk")
    page.fill("[name='param-m']", "4")
    page.fill("[name='param-n']", "4")
    page.fill("[name='param-k']", "5")
    page.click("#new-game")
    refusal = page.locator("#setup-error")
    refusal.wait_for(state="visible")
    assert "k" in refusal.inner_text()
    # the fields show the game being played
    assert page.input_value("#game-select") == "tictactoe"
    page.select_option("#game-select", "othello")
    page.select_option("#player-1-kind", "ai")
    page.wait_for_function("document.body.dataset.players === 'human,ai'")
    page.select_option("#player-1-level", "easy")
    page.wait_for_function("document.body.dataset.levels?.includes('easy')")
    assert page.input_value("#game-select") == "othello"
    old = page.evaluate("document.body.dataset.seed")
    page.click("#new-game")
    page.wait_for_function(f"document.body.dataset.seed !== '{old}'")
    assert page.evaluate("document.body.dataset.game").startswith("othello")
    assert not refusal.is_visible()


def test_chinese_othello_4x4_perfect_against_perfect_starts_as_chosen(page: Any) -> None:
    """Defect 1, as seen in Chinese: Othello 4x4 perfect-vs-perfect was
    asked for and Connect Four 7x6 started (the replies to the player
    changes reset the set-up). This path did not fail before the fix here
    (the refusal path above did); it guards the Chinese page and a perfect
    AI thinking on the old game when New game is pressed."""
    page.select_option("#lang", "zh")
    page.wait_for_function("document.querySelector('#new-game').textContent.includes('新对局')")
    new_game(page, "connect4", players=("human", "human"))
    page.select_option("#game-select", "othello")
    page.fill("[name='param-size']", "4")
    for side in (0, 1):
        page.select_option(f"#player-{side}-level", "perfect")
        page.select_option(f"#player-{side}-kind", "ai")
    page.wait_for_function("document.body.dataset.levels === 'perfect,perfect'")
    assert page.input_value("#game-select") == "othello"
    assert page.input_value("[name='param-size']") == "4"
    old = page.evaluate("document.body.dataset.seed")
    page.click("#new-game")
    page.wait_for_function(f"document.body.dataset.seed !== '{old}'")
    assert page.evaluate("document.body.dataset.game").startswith("othello")
    page.wait_for_function("document.body.dataset.over === '1'", timeout=20_000)
    assert page.get_attribute("#board", "data-rows") == "4"
    page.select_option("#lang", "en")


def test_a_parameter_out_of_range_is_refused_visibly(page: Any) -> None:
    """Defect 12: Domineering rows=99 is refused; the field goes back to the
    rows played and the refusal is on the page."""
    new_game(page, "domineering", {"rows": "5", "cols": "5"}, players=("human", "human"))
    page.fill("[name='param-rows']", "99")
    page.click("#new-game")
    page.locator("#setup-error").wait_for(state="visible")
    assert "99" in page.inner_text("#setup-error")
    assert page.input_value("[name='param-rows']") == "5"
    assert page.get_attribute("#board", "data-rows") == "5"


@pytest.mark.parametrize("value", ["0", "-5", "1000"])
def test_an_analysis_time_out_of_range_is_refused(page: Any, value: str) -> None:
    """Defect 12: analysis time 0 became 10 silently, -5 was ignored."""
    page.fill("#analysis-time", value)
    page.dispatch_event("#analysis-time", "change")
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert "0.1" in toast.inner_text() and "600" in toast.inner_text()
    page.wait_for_function("document.querySelector('#analysis-time').value === '10'")
    assert page.get_attribute("#analysis-time", "aria-invalid") is None


def test_a_player_time_out_of_range_is_refused(page: Any) -> None:
    """Defect 12: a player time of 1000 s was sent with no message."""
    page.select_option("#player-1-kind", "ai")
    page.select_option("#player-1-level", "time")
    page.fill("#player-1-time", "1000")
    page.dispatch_event("#player-1-time", "change")
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert "600" in toast.inner_text()
    assert page.input_value("#player-1-time") != "1000"


# ---------------------------------------------------------------- 3: one search's lines


def test_lines_of_another_search_are_dropped(tapped: tuple[Any, Tap]) -> None:
    """Defect 3: the table mixed lines of two searches; objects whose
    search_id is not the current one are not shown."""
    page, tap = tapped
    page.wait_for_function("document.body.dataset.ply === '0'")
    state = dict(tap.states[-1])
    state.update(searching="analysis", search_id="new", players=[{"kind": "human"}] * 2)
    tap.inject(state)
    page.wait_for_function("document.body.dataset.searching === 'analysis'")
    line = {"type": "progress", "position": state["position"], "score": 0, "exact": False,
            "nodes": 10, "nps": 100, "time_s": 0.1, "pv": ["4"], "best_move": "4", "moves": []}
    tap.inject({**line, "depth": 9, "search_id": "old"})
    tap.inject({**line, "depth": 1, "search_id": "new"})
    page.locator("#analysis-lines .line").first.wait_for()
    page.wait_for_timeout(300)
    depths = page.locator("#analysis-lines .line-depth").all_inner_texts()
    assert depths == ["1"], depths


def test_stepping_through_with_analysis_on_keeps_one_search_per_table(page: Any) -> None:
    """Defect 3 end to end: after stepping away and back with analysis on,
    the table holds one search's depths (1, 2, 3, ...). With the server's
    search ids this passes with the old page too; the test above, with the
    messages' order fixed, is the one that failed before the page's fix."""
    new_game(page, "connect4", players=("human", "human"))
    play_cells(page, [(0, 3), (0, 3), (0, 2), (0, 4), (0, 1), (0, 5)])
    page.fill("#analysis-time", "1")
    page.dispatch_event("#analysis-time", "change")
    page.check("#analysis-toggle")
    page.locator("#analysis-lines .line").nth(2).wait_for()
    page.locator("body").click(position={"x": 5, "y": 5})
    # away and back to the same position while its analysis runs: the old
    # search's late lines are of this very position
    for key in ("ArrowLeft", "ArrowRight", "ArrowLeft", "ArrowRight"):
        page.keyboard.press(key)
        page.wait_for_timeout(250)  # each position's analysis starts
    page.wait_for_function("document.body.dataset.ply === '6'")
    page.locator("#analysis-lines .line").first.wait_for()
    wait_idle(page)
    depths = page.locator("#analysis-lines .line-depth").all_inner_texts()
    numbers = [int(d) for d in depths if d.isdigit()]
    assert numbers == list(range(1, len(numbers) + 1)), depths
    page.uncheck("#analysis-toggle")


# ---------------------------------------------------------------- 4, 5: keys


def test_fast_key_presses_all_count(page: Any) -> None:
    """Defect 4: five quick ← from ply 6 landed on ply 3."""
    new_game(page, "connect4", players=("human", "human"))
    play_cells(page, [(0, c) for c in range(6)])
    page.locator("body").click(position={"x": 5, "y": 5})
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(600)
    page.wait_for_function("document.body.dataset.ply === '1'")
    assert ply(page) == 1


def test_arrow_keys_work_after_the_analysis_switch(page: Any) -> None:
    """Defect 5: the switch kept the focus and the arrows stopped."""
    new_game(page, "tictactoe", players=("human", "human"))
    play_cells(page, [(0, 0), (1, 1)])
    page.click("#analysis-toggle")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.body.dataset.ply === '1'")
    page.uncheck("#analysis-toggle")


# ---------------------------------------------------------------- 6: a random move


def test_a_random_move_clears_the_ai_s_old_result(page: Any) -> None:
    """Defect 6: after a move with no search behind it the panel still
    showed the AI's previous result and evaluation."""
    new_game(page, "tictactoe", players=("human", "ai"))
    click_cell(page, 0, 0)
    page.wait_for_function("document.body.dataset.ply === '2'")
    wait_idle(page)
    assert page.locator("#search-result").is_visible()
    page.select_option("#player-1-kind", "random")
    free = page.locator("#board rect.cell.playable").first
    free.click()
    page.wait_for_function("document.body.dataset.ply === '4'")
    wait_idle(page)
    assert not page.locator("#search-result").is_visible()
    assert page.get_attribute("#eval-bar", "class").find("stale") >= 0


# ---------------------------------------------------------------- 7: a long error


def test_a_long_error_stays_in_its_box(browser: Any, server: str) -> None:
    """Defect 7: at 1024x768 a long error ran out of its box over New game."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    # Nim's set-up is long: New game sits at the bottom of the window
    new_game(page, "nim", players=("human", "human"))
    page.fill("#paste", "z" * 3000)
    page.click("#load-position")
    toast = page.locator("#toast")
    page.wait_for_function("document.querySelector('#toast').dataset.kind === 'error'")
    toast.wait_for(state="visible")
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(300)  # its entrance
    shown = box(page, "#toast")
    new_game_button = box(page, "#new-game")
    text = toast.inner_text()
    context.close()
    assert not overlap(shown, new_game_button), (shown, new_game_button)
    assert shown["x"] >= 0 and shown["x"] + shown["width"] <= 1024
    assert shown["y"] + shown["height"] <= 768
    assert len(text) < 300


# ---------------------------------------------------------------- 9, 10: drawing


def test_flip_mirrors_connect_four_left_to_right(page: Any) -> None:
    """Defect 9: Flip turned Connect Four upside down."""
    new_game(page, "connect4", players=("human", "human"))
    click_cell(page, 0, 0)
    settled = "Promise.all(document.getAnimations().map(a => a.finished)).then(() => true)"
    page.evaluate(settled)  # the stone has landed
    disc = page.locator("#board .layer-pieces circle.disc").first
    before = box(page, "#board .layer-pieces circle.disc")
    page.click("#flip")
    page.evaluate(settled)
    after = dict(disc.bounding_box() or {})
    board = box(page, "#board")
    assert abs(after["y"] - before["y"]) < 1  # still on the bottom row
    assert after["x"] > board["x"] + board["width"] * 0.8  # now on the right
    page.click("#flip")


def test_nim_score_badges_are_not_clipped(page: Any) -> None:
    """Defect 10: a badge wider than the stones was cut off. Not reproduced
    here (this test passed before any change): it guards that every badge
    stays inside the board."""
    new_game(page, "nim", players=("human", "human"))
    page.check("#analysis-toggle")
    page.locator("#board .score").first.wait_for()
    wait_idle(page)
    board = box(page, "#board")
    for badge in page.locator("#board .score").all():
        found = badge.bounding_box()
        assert found is not None
        assert found["x"] >= board["x"] - 0.5
        assert found["x"] + found["width"] <= board["x"] + board["width"] + 0.5
    page.uncheck("#analysis-toggle")
    test_browser.save_board(page, "nim-scores")


def test_gomoku_does_not_dot_every_empty_cell(page: Any) -> None:
    """Defect 15: gomoku's 225 legal-move dots were noise."""
    new_game(page, "gomoku", players=("human", "human"))
    assert page.locator("#board .layer-legal circle.legal").count() == 0
    assert page.locator("#board rect.cell.playable").count() == 225


# ---------------------------------------------------------------- 11: reload


def test_a_reload_keeps_the_game(page: Any) -> None:
    """Defect 11: a reload brought a fresh tic-tac-toe."""
    new_game(page, "connect4", players=("human", "human"))
    play_cells(page, [(0, 3), (0, 3), (0, 2)])
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function("document.body.dataset.ply === '3'")
    assert page.input_value("#record").split() == ["4", "4", "3"]
    assert page.evaluate("document.body.dataset.game").startswith("connect4")


# ---------------------------------------------------------------- 13: Chinese


def test_the_chinese_speed_column_does_not_wrap(page: Any) -> None:
    """Defect 13: "2.16万/秒" did not fit its column (on two lines, or cut)."""
    page.select_option("#lang", "zh")
    page.wait_for_function("document.querySelector('#new-game').textContent.includes('新对局')")
    new_game(page, "connect4", players=("human", "human"))
    page.fill("#analysis-time", "1")
    page.dispatch_event("#analysis-time", "change")
    page.check("#analysis-toggle")
    page.locator("#analysis-lines .line").nth(2).wait_for()
    wait_idle(page)
    height = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.line-nps')).lineHeight)"
    )
    # Whatever speed this machine reached, each cell is given the page's own
    # formatting of speeds written with 万 (the defect's 2.16万, and wider):
    # the verdict must not depend on how fast or loaded the machine is.
    for speed in (21_600, 216_000, 1_230_000):
        cells = page.evaluate(
            """async (speed) => {
                 const { compact } = await import('/static/scores.js');
                 const found = document.querySelectorAll('#analysis-lines .line-nps');
                 return Array.from(found).map(e => {
                   e.textContent = e.textContent.replace(/^[^/]+/, compact(speed));
                   const range = document.createRange(); range.selectNodeContents(e);
                   return [e.textContent, e.getClientRects().length,
                           range.getBoundingClientRect().width - e.clientWidth,
                           e.getBoundingClientRect().height, getComputedStyle(e).whiteSpace]; });
               }""",
            speed,
        )
        assert cells and all("万" in text for text, *_ in cells), cells
        for text, rects, overflow, tall, wrap in cells:
            # one line whatever the fonts: it may not wrap, and it fits
            fits = wrap == "nowrap" and rects == 1 and overflow <= 1 and tall < 1.5 * height
            assert fits, (text, overflow, wrap)
    page.uncheck("#analysis-toggle")
    page.select_option("#lang", "en")


# ---------------------------------------------------------------- 14: the toolbar


def test_the_toolbar_stays_put_and_undo_is_not_paused(page: Any) -> None:
    """Defect 14: the toolbar moved when Resume appeared; after Undo in
    human-vs-AI the status said "paused" on the human's turn."""
    new_game(page, "connect4", players=("human", "ai"))
    page.select_option("#player-1-level", "easy")
    page.wait_for_function("document.body.dataset.levels?.includes('easy')")
    click_cell(page, 0, 3)
    page.wait_for_function("document.body.dataset.ply === '2'")
    wait_idle(page)
    hint = box(page, "#hint")
    page.click("#undo")
    page.wait_for_function("document.body.dataset.ply === '0'")
    assert "paused" not in page.inner_text("#status")
    page.click("#goto-next")
    page.wait_for_function("document.body.dataset.ply === '1'")
    page.locator("#resume").wait_for(state="visible")
    assert "paused" in page.inner_text("#status")
    assert box(page, "#hint") == hint


# ---------------------------------------------------------------- 15: wording and layout


def test_hint_and_best_move_wording(page: Any) -> None:
    """Defect 15: "Hint: 6 (−161 (heuristic))" and "Best move 6: −26
    (heuristic) (62,233 positions, 3.58 s)"."""
    new_game(page, "connect4", players=("human", "human"))
    page.click("#hint")
    page.wait_for_function("document.querySelector('#search-result')?.textContent.startsWith('Hint')")
    text = page.inner_text("#search-result")
    assert "((" not in text.replace(" ", "") and "))" not in text.replace(" ", ""), text
    page.fill("#analysis-time", "0.5")
    page.dispatch_event("#analysis-time", "change")
    page.check("#analysis-toggle")
    page.wait_for_function(
        "document.querySelector('#search-result')?.textContent.startsWith('Best move')"
    )
    wait_idle(page)
    text = page.inner_text("#search-result")
    assert not re.search(r"\)\s*\(", text), text
    page.uncheck("#analysis-toggle")


def test_othello_s_evaluation_bar_shows_white_against_the_page(page: Any) -> None:
    """Defect 15: Othello's bar was white on white."""
    new_game(page, "othello", players=("human", "human"))
    colours = page.evaluate(
        """() => {
          const bar = document.querySelector('#eval-bar');
          const style = getComputedStyle(bar);
          return [style.borderTopColor, style.borderTopWidth,
                  getComputedStyle(document.querySelector('#panel-analysis')).backgroundColor];
        }"""
    )
    border, width, _panel = colours
    assert float(width.rstrip("px")) >= 1
    channels = [int(x) for x in re.findall(r"\d+", border)[:3]]
    alpha = re.findall(r"[\d.]+", border)[3:4]
    assert (max(channels) < 160) and (not alpha or float(alpha[0]) >= 0.5), border


def test_the_level_menu_shows_medium_at_1024(browser: Any, server: str) -> None:
    """Defect 15: at 1024 px the level menu clipped "medium"."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#player-1-kind", "ai")
    page.select_option("#player-1-level", "medium")
    room = page.evaluate(
        """() => {
          const select = document.querySelector('#player-1-level');
          const style = getComputedStyle(select);
          const canvas = document.createElement('canvas').getContext('2d');
          canvas.font = style.font;
          const text = canvas.measureText(select.options[select.selectedIndex].text).width;
          const inner = select.clientWidth - parseFloat(style.paddingLeft)
            - parseFloat(style.paddingRight);
          return inner - text;
        }"""
    )
    context.close()
    assert room >= 24, room  # the text and the menu's arrow (about 20 px) both fit


def test_on_a_phone_the_evaluation_is_under_the_board(browser: Any, server: str) -> None:
    """Defect 15: on a phone the evaluation and lines were 1,100 px below
    the board."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    board = box(page, "#board")
    bar = box(page, "#eval-bar")
    lines = box(page, "#engine-lines")  # the engine's lines (multi-PV)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "phone.png"), full_page=True)
    context.close()
    below = board["y"] + board["height"]
    assert 0 <= bar["y"] - below < 200, (board, bar)
    assert lines["y"] - below < 400, (board, lines)


# ---------------------------------------------------------------- 8: game over


def test_game_over_shows_the_winning_line(page: Any) -> None:
    """Defect 8: the winning line was not highlighted."""
    new_game(page, "connect4", players=("human", "human"))
    play_cells(page, [(0, 0), (0, 1), (0, 0), (0, 1), (0, 0), (0, 1), (0, 0)])
    page.locator("#banner").wait_for(state="visible")
    wins = page.locator("#board .layer-win rect.win")
    assert wins.count() == 4
    assert {int(w.get_attribute("data-col") or -1) for w in wins.all()} == {0}
    assert "wins" in page.inner_text("#banner")


def test_othello_s_result_gives_the_disc_count(page: Any) -> None:
    """Defect 8: Othello said "Black wins" without the count."""
    new_game(page, "othello", {"size": "4"}, players=("human", "human"))
    for _ in range(40):
        if page.evaluate("document.body.dataset.over") == "1":
            break
        before = ply(page)
        cells = page.locator("#board rect.cell.playable")
        (cells.first if cells.count() else page.locator("#move-buttons [data-move]").first).click()
        page.wait_for_function(f"Number(document.body.dataset.ply) > {before}")
    banner = page.locator("#banner")
    banner.wait_for(state="visible")
    assert re.search(r"\d+\s*[–-]\s*\d+|cannot move", banner.inner_text()), banner.inner_text()


# ---------------------------------------------------------------- 2, 13: the server's words


def test_the_hint_agrees_with_the_analysis_and_says_it_in_the_server_s_words(page: Any) -> None:
    """Defect 2 (fixed by the server, shown by the page): with analysis on,
    the hint is the analysis's best move, in the hint's own text."""
    new_game(page, "connect4", players=("human", "human"))
    page.fill("#analysis-time", "0.5")
    page.dispatch_event("#analysis-time", "change")
    page.check("#analysis-toggle")
    page.locator("#engine-lines li").first.wait_for()
    wait_idle(page)
    best = page.locator("#engine-lines li").first.get_attribute("data-move")
    page.click("#hint")
    page.locator("#board .hint").wait_for()
    page.wait_for_function(
        "document.querySelector('#search-result')?.textContent.startsWith('Hint')"
    )
    text = page.inner_text("#search-result")
    assert text.startswith(f"Hint: {best},"), (text, best)
    assert "(" not in text, text
    page.uncheck("#analysis-toggle")


def test_the_chinese_set_up_names_parameters_and_players_in_chinese(page: Any) -> None:
    """Defect 13: player names stayed English and parameter names were the
    spec's (rows, cols)."""
    page.select_option("#lang", "zh")
    page.wait_for_function("document.querySelector('#new-game').textContent.includes('新对局')")
    new_game(page, "domineering", players=("human", "human"))
    labels = page.eval_on_selector_all("#params .param-name", "ns => ns.map(n => n.textContent)")
    assert labels and not any(re.search(r"[A-Za-z]", label) for label in labels), labels
    names = [page.inner_text("#player-0-name"), page.inner_text("#player-1-name")]
    assert not any(re.search(r"[A-Za-z]", name) for name in names), names
    choices = page.eval_on_selector_all(
        "#params select option", "os => os.map(o => o.textContent)"
    )
    assert choices and not any(re.search(r"[A-Za-z]", choice) for choice in choices), choices
    page.select_option("#lang", "en")
