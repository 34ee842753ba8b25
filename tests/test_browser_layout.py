"""The page's layout at three window sizes (issue 21, item 5), measured as
boxes in Debian's Chromium (``test_browser.py``'s server and browser). Each
test failed before its change."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import test_browser
from test_browser import box

server = test_browser.server
browser = test_browser.browser


@pytest.fixture()
def sized(browser: Any, server: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    width, height = request.param
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    yield page
    context.close()


@pytest.mark.parametrize("sized", [(390, 844)], indirect=True)
def test_a_phone_has_the_game_menu_and_new_game_on_its_first_screen(sized: Any) -> None:
    page = sized
    for selector in ("#game-select", "#new-game"):
        assert box(page, selector)["y"] + box(page, selector)["height"] <= 844, selector
    # the moves and the copy sections use the screen's width
    for selector in (".moves-section", ".copy-section", "#moves"):
        assert box(page, selector)["width"] >= 0.8 * 390, selector


@pytest.mark.parametrize("sized", [(390, 844)], indirect=True)
def test_a_phone_stacks_the_tree_panes_with_room_for_each(sized: Any) -> None:
    page = sized
    page.click("#tab-tree")
    page.select_option("#tree-algorithm", "both")
    page.fill("#tree-depth", "2")
    page.click("#tree-show")
    page.wait_for_selector("#tree-view[data-ready='1']")
    panes = page.locator("#tree-panes .tree-pane")
    assert panes.count() == 2
    first, second = panes.nth(0).bounding_box(), panes.nth(1).bounding_box()
    assert first is not None and second is not None
    assert first["height"] >= 300 and second["height"] >= 300
    assert second["y"] >= first["y"] + first["height"] - 1  # one under the other
    assert box(page, ".tree-head")["height"] <= 60  # a one-line title


@pytest.mark.parametrize("sized", [(1280, 800)], indirect=True)
def test_new_game_is_in_view_and_keeps_the_board_in_view(sized: Any) -> None:
    page = sized
    button = box(page, "#new-game")
    assert button["y"] + button["height"] <= 800
    old = page.evaluate("document.body.dataset.seed")
    page.click("#new-game")
    page.wait_for_function(f"document.body.dataset.seed !== '{old}'")
    board = box(page, "#board")
    assert board["y"] < 800 and board["y"] + board["height"] > 0
    assert board["y"] + board["height"] / 2 < 800  # most of it shown


@pytest.mark.parametrize("sized", [(1024, 768)], indirect=True)
def test_at_1024_the_lines_graph_and_moves_are_beside_the_board(sized: Any) -> None:
    page = sized
    board = box(page, "#board")
    right = board["x"] + board["width"]
    for selector in ("#engine-lines", "#eval-graph", "#moves"):
        part = box(page, selector)
        assert part["x"] >= right, selector
        assert part["y"] < 768, selector
    assert board["width"] >= 380

