"""The analysis board in a real browser (``test_browser.py``'s fixtures):
several engine lines at once, a line previewed on the board by hovering it
and played by clicking it, the best move's arrow, the evaluation bar beside
the board, the game in the address, variations, the evaluation graph and the
review, keyboard shortcuts with their help, animations and the dark theme."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import test_browser
from test_browser import new_game, ply, wait_idle

# test_browser's fixtures: a zerosum server, Debian's Chromium, a fresh page.
server = test_browser.server
browser = test_browser.browser
page = test_browser.page


def click_cell(page: Any, row: int, col: int) -> None:
    before = ply(page)
    page.click(f"#board rect.cell[data-row='{row}'][data-col='{col}']")
    page.wait_for_function(f"Number(document.body.dataset.ply) > {before}")


def analyse(page: Any, seconds: str = "0.5") -> None:
    page.fill("#analysis-time", seconds)
    page.dispatch_event("#analysis-time", "change")
    page.check("#analysis-toggle")
    page.locator("#engine-lines li").first.wait_for()
    wait_idle(page)


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return dict(found)


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
    page.wait_for_function("Number(document.querySelector('#board .layer-line')?.dataset.shown) >= 2")
    steps = page.locator("#board .layer-line g.line-step")
    numbers = page.eval_on_selector_all("#board .layer-line .line-number", "ns => ns.map(n => n.textContent)")
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
