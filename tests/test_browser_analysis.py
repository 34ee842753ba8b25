"""The analysis board in a real browser (``test_browser.py``'s fixtures):
several engine lines at once, a line previewed on the board by hovering it
and played by clicking it, the best move's arrow, the evaluation bar beside
the board, the game in the address, variations, the evaluation graph and the
review, keyboard shortcuts with their help, animations and the dark theme."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import test_browser
from test_browser import box, click_cell, new_game, ply, wait_idle

# test_browser's fixtures: a zerosum server, Debian's Chromium, a fresh page.
server = test_browser.server
browser = test_browser.browser
page = test_browser.page


def analyse(page: Any, seconds: str = "0.5") -> None:
    page.fill("#analysis-time", seconds)
    page.dispatch_event("#analysis-time", "change")
    page.check("#analysis-toggle")
    page.locator("#engine-lines li").first.wait_for()
    wait_idle(page)


def test_several_engine_lines_hover_previews_click_plays(page: Any) -> None:
    new_game(page, "connect4", players=("human", "human"))
    page.select_option("#lines-count", "5")
    analyse(page)
    lines = page.locator("#engine-lines li")
    page.wait_for_function("document.querySelectorAll('#engine-lines li').length === 5")
    # each line: its rank, a score and a line of moves starting with its move
    for index in range(5):
        item = lines.nth(index)
        assert item.locator(".engine-rank").inner_text() == str(index + 1)
        assert item.locator(".score-chip").inner_text().strip()
        assert item.get_attribute("data-pv").split()[0] == item.get_attribute("data-move")
    # the best move's arrow points at the first line's move
    arrow = page.locator("#board .layer-arrows .arrow.rank-1")
    assert arrow.get_attribute("data-move") == lines.first.get_attribute("data-move")
    assert page.locator("#board .layer-arrows .arrow.rank-2").count() == 0
    page.check("#second-arrow")
    second = page.locator("#board .layer-arrows .arrow.rank-2")
    second.wait_for(state="attached")
    assert second.get_attribute("data-move") == lines.nth(1).get_attribute("data-move")
    # hovering a line draws it, numbered, stones falling to the bottom
    first = lines.first
    pv = first.get_attribute("data-pv").split()
    first.hover()
    page.wait_for_function(
        "Number(document.querySelector('#board .layer-line')?.dataset.shown) >= 2"
    )
    steps = page.locator("#board .layer-line g.line-step")
    numbers = page.eval_on_selector_all(
        "#board .layer-line .line-number", "ns => ns.map(n => n.textContent)"
    )
    assert numbers[:2] == ["1", "2"]
    assert page.get_attribute("#board .layer-line", "data-line").split()[:len(pv)] == pv
    bottom = box(page, "#board rect.cell[data-row='5'][data-col='0']")
    ghost = steps.nth(0).locator("circle.disc").bounding_box()
    assert ghost is not None and ghost["y"] >= bottom["y"] - 1
    test_browser.save_board(page, "connect4-line-preview")
    page.mouse.move(5, 5)
    page.wait_for_function("!document.querySelector('#board .layer-line g.line-step')")
    # fewer lines on request
    page.select_option("#lines-count", "2")
    page.wait_for_function("document.querySelectorAll('#engine-lines li').length === 2")
    # a click plays the line's first move
    move = lines.nth(1).get_attribute("data-move")
    lines.nth(1).click()
    page.wait_for_function("document.body.dataset.ply === '1'")
    assert page.input_value("#record").strip() == move
    page.uncheck("#analysis-toggle")
    page.uncheck("#second-arrow")


def test_the_evaluation_bar_stands_beside_the_board(page: Any) -> None:
    new_game(page, "tictactoe", players=("human", "human"))
    bar = box(page, "#eval-bar")
    board = box(page, "#board")
    assert bar["x"] + bar["width"] <= board["x"] + 1
    assert bar["height"] > board["height"] * 0.8
    assert abs(bar["y"] - board["y"]) < 40


def test_a_different_move_keeps_the_old_line_as_a_variation(page: Any) -> None:
    new_game(page, "tictactoe", players=("human", "human"))
    click_cell(page, 1, 1)  # 4
    click_cell(page, 0, 0)  # 0
    page.click("#goto-prev")
    page.wait_for_function("document.body.dataset.ply === '1'")
    click_cell(page, 2, 2)  # 8 instead of 0
    assert page.input_value("#record").split() == ["4", "8"]
    variation = page.locator("#moves li.variation")
    variation.wait_for()
    assert variation.get_attribute("data-variation-move") == "0"
    assert "0" in variation.inner_text()
    variation.click()
    page.wait_for_function("document.querySelector('#record').value.trim() === '4 0'")
    assert ply(page) == 2
    # the line left is a variation now
    page.wait_for_function(
        "document.querySelector('#moves li.variation')?.dataset.variationMove === '8'"
    )


def test_review_marks_the_move_that_threw_away_the_draw_and_the_graph_jumps(page: Any) -> None:
    new_game(page, "tictactoe", players=("human", "human"))
    click_cell(page, 1, 1)  # X takes the centre
    click_cell(page, 0, 1)  # O on an edge: a proven draw becomes a proven loss
    page.click("#review")
    page.wait_for_function("document.querySelector('#moves li[data-ply=\"2\"]')?.dataset.mark")
    wait_idle(page)
    second = page.locator("#moves li[data-ply='2']")
    assert second.get_attribute("data-mark") == "lost-draw"
    assert "threw away a draw" in second.inner_text()
    assert page.locator("#moves li[data-ply='1']").get_attribute("data-mark") is None
    graph = page.locator("#eval-graph")
    assert int(graph.get_attribute("data-points") or 0) == 3
    assert page.locator("#eval-graph .graph-mark.mark-lost-draw").count() == 1
    # a click at the graph's left edge goes to the start
    found = graph.bounding_box()
    assert found is not None
    page.mouse.click(found["x"] + 2, found["y"] + found["height"] / 2)
    page.wait_for_function("document.body.dataset.ply === '0'")
    # the review stays on show for the same line
    assert page.locator("#moves li[data-ply='2']").get_attribute("data-mark") == "lost-draw"


def test_the_graph_gets_each_analysed_position(page: Any) -> None:
    new_game(page, "tictactoe", players=("human", "human"))
    analyse(page)
    click_cell(page, 1, 1)
    page.wait_for_function("Number(document.querySelector('#eval-graph').dataset.points) === 2")
    page.uncheck("#analysis-toggle")


def test_keyboard_shortcuts_and_their_help(page: Any) -> None:
    new_game(page, "connect4", players=("human", "human"))
    click_cell(page, 0, 0)
    page.locator("body").click(position={"x": 5, "y": 5})
    # f flips (left-right on Connect Four)
    page.keyboard.press("f")
    page.wait_for_function("document.querySelector('#board').classList.contains('flipped')")
    page.keyboard.press("f")
    page.wait_for_function("!document.querySelector('#board').classList.contains('flipped')")
    # a: analysis on, then off
    page.keyboard.press("a")
    page.wait_for_function("document.querySelector('#analysis-toggle').checked")
    page.locator("#engine-lines li").first.wait_for()
    page.keyboard.press("a")
    page.wait_for_function("!document.querySelector('#analysis-toggle').checked")
    wait_idle(page)
    # h: a hint
    page.keyboard.press("h")
    page.locator("#board .hint").wait_for()
    # ? opens the help, which lists every shortcut; Escape closes it
    page.keyboard.press("?")
    help_box = page.locator("#help")
    help_box.wait_for(state="visible")
    keys = page.eval_on_selector_all("#help-list kbd", "ks => ks.map(k => k.textContent)")
    for key in ["←", "→", "Home", "End", "f", "h", "a", "n", "?"]:
        assert key in keys, keys
    page.keyboard.press("Escape")
    help_box.wait_for(state="hidden")
    # n: a new game
    old = page.evaluate("document.body.dataset.seed")
    page.keyboard.press("n")
    page.wait_for_function(f"document.body.dataset.seed !== '{old}'")
    assert ply(page) == 0


def animation_of(page: Any, selector: str) -> str:
    return str(page.eval_on_selector(selector, "e => getComputedStyle(e).animationName"))


def test_a_connect_four_stone_drops_and_othello_discs_turn(page: Any) -> None:
    new_game(page, "connect4", players=("human", "human"))
    click_cell(page, 0, 2)
    assert animation_of(page, "#board .layer-pieces .piece.fresh") == "fall"
    new_game(page, "othello", players=("human", "human"))
    page.locator("#board rect.cell.playable").first.click()
    page.wait_for_function("document.body.dataset.ply === '1'")
    turned = page.locator("#board .layer-pieces .piece.turned")
    assert turned.count() >= 1
    assert animation_of(page, "#board .layer-pieces .piece.turned") == "turn"


def test_no_animation_when_the_system_asks_for_less_motion(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    new_game(page, "connect4", players=("human", "human"))
    click_cell(page, 0, 2)
    name = animation_of(page, "#board .layer-pieces .piece.fresh")
    context.close()
    assert name == "none"


def luminance(colour: str) -> float:
    import re

    red, green, blue = (int(x) for x in re.findall(r"\d+", colour)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def test_the_dark_theme_follows_the_system(browser: Any, server: str) -> None:
    shades = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
        page = context.new_page()
        page.goto(server)
        page.wait_for_selector("body[data-ready='1']")
        shades[scheme] = page.evaluate(
            "[getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.body).color,"
            " getComputedStyle(document.querySelector('#setup')).backgroundColor]"
        )
        if scheme == "dark":
            test_browser.ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(test_browser.ARTIFACTS / "page-dark.png"))
        context.close()
    assert luminance(shades["light"][0]) > 200 and luminance(shades["light"][1]) < 80
    assert luminance(shades["dark"][0]) < 50 and luminance(shades["dark"][1]) > 180
    assert luminance(shades["dark"][2]) < 60


def test_the_address_holds_the_game_and_a_link_reproduces_it(
    browser: Any, server: str, page: Any
) -> None:
    new_game(page, "connect4", players=("human", "human"))
    for col in (3, 3, 4):
        click_cell(page, 0, col)
    page.click("#goto-prev")
    page.wait_for_function("document.body.dataset.ply === '2'")
    page.wait_for_function("location.hash.includes('ply=2')")
    address = page.url
    fields = parse_qs(urlsplit(address).fragment)
    assert fields["game"][0].startswith("connect4")
    assert fields["moves"] == ["4 4 5"]
    assert fields["start"][0].startswith(".......")
    # the link in another browser context: the same game, at the same move
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    other = context.new_page()
    other.goto(address)
    other.wait_for_function("document.querySelector('#record').value.trim() === '4 4 5'")
    other.wait_for_function("document.body.dataset.ply === '2'")
    players = other.evaluate("document.body.dataset.players")
    context.close()
    assert players == "human,human"


def test_the_readme_pictures(browser: Any, server: str) -> None:
    """The README's pictures of the analysis board, desktop (1280x800) and
    phone (390x844): a Connect Four game reviewed, analysis on, three lines,
    the best move's arrow. Saved under artifacts/screenshots (copied to
    docs/images by hand when the page changes)."""
    pictures = (("web-analysis", (1280, 800), False), ("web-phone", (390, 844), True))
    for name, viewport, phone in pictures:
        context = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]}, locale="en-US",
            is_mobile=phone, has_touch=phone, color_scheme="light",
        )
        page = context.new_page()
        page.goto(server + "#game=connect4&moves=4+4+4+3+5+6&players=human,human")
        page.wait_for_function("document.body.dataset.ply === '6'")
        page.click("#review")
        page.wait_for_function("Number(document.querySelector('#eval-graph').dataset.points) === 7")
        wait_idle(page)
        page.click("#goto-prev")
        page.wait_for_function("document.body.dataset.ply === '5'")
        page.click("#goto-next")
        page.wait_for_function("document.body.dataset.ply === '6'")
        analyse(page, "2")
        page.locator("#engine-lines li").nth(2).wait_for()
        page.evaluate("document.activeElement?.blur(); window.scrollTo(0, 0)")
        page.mouse.move(1, 1)  # no hover preview in the picture
        test_browser.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(test_browser.ARTIFACTS / f"{name}.png"))
        board = box(page, "#board")
        lines = box(page, "#engine-lines")
        context.close()
        assert board["width"] > 300
        if phone:  # the lines right under the board
            assert 0 < lines["y"] - (board["y"] + board["height"]) < 400
