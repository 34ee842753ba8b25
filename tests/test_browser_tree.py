"""The search-tree dialog's keys, first view, details and refusals (issue 21,
item 8), in Debian's Chromium (``test_browser.py``'s fixtures). Each test
failed before its change unless its docstring says otherwise."""

from __future__ import annotations

from typing import Any

import test_browser
from test_browser import box, new_game
from test_browser_trace import open_example, view

server = test_browser.server
browser = test_browser.browser
page = test_browser.page


def test_keys_work_after_a_click_on_a_part_that_takes_no_focus(page: Any) -> None:
    open_example(page, "dom-2")
    page.click("#tree-details .detail-head")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert view(page, "step") == "2"
    page.click("#tree-status")
    page.keyboard.press("Escape")
    assert page.locator("#tree-view").is_hidden()


def test_escape_closes_the_dialog_from_the_practice_switch(page: Any) -> None:
    open_example(page, "dom-2")
    page.check("#tree-practice")
    page.focus("#tree-practice")
    page.keyboard.press("Escape")
    assert page.locator("#tree-view").is_hidden()


def test_the_tree_opens_with_its_root_in_view(page: Any) -> None:
    """The tic-tac-toe tree, 82 nodes wide: its root is in the middle."""
    open_example(page, "ttt-full")
    root = box(page, "#tree-panes g.node[data-id='0']")
    scroll = box(page, "#tree-panes .tree-scroll")
    assert scroll["x"] <= root["x"] and root["x"] + root["width"] <= scroll["x"] + scroll["width"]
    assert scroll["y"] <= root["y"] and root["y"] + root["height"] <= scroll["y"] + scroll["height"]


def test_at_step_zero_the_details_do_not_give_the_answer(page: Any) -> None:
    open_example(page, "dom-2")
    assert view(page, "step") == "0"
    details = page.inner_text("#tree-details")
    assert "Best move" not in details
    assert "not found yet" in details
    page.click("#tree-last")
    page.click("#tree-panes g.node[data-id='0']")
    details = page.inner_text("#tree-details")
    assert "Best move" in details


def test_practice_works_while_stepping_and_fills_the_value_when_answered(page: Any) -> None:
    open_example(page, "dom-2")
    page.check("#tree-practice")
    # switched on at step 0, practice stays there: stepping is the exercise
    assert view(page, "step") == "0"
    page.click("#tree-last")
    assert page.text_content("#tree-panes g.node[data-id='0'] .value") == "?"
    page.click("#tree-panes g.node[data-id='0']")
    page.fill(".practice-value", "3")
    page.click(".practice button[type='submit']")
    page.wait_for_function(
        "document.querySelector('.practice-verdict')?.dataset.result === 'right'"
    )
    values = page.locator("#tree-details .detail-row").all_inner_texts()
    value = next(row for row in values if row.startswith("Value"))
    assert value.split()[-1] == "3"


def test_depth_zero_is_refused_with_its_reason(page: Any) -> None:
    new_game(page, "tictactoe", players=("human", "human"))
    page.click("#tab-tree")
    page.fill("#tree-depth", "0")
    page.click("#tree-show")
    page.wait_for_selector("#tree-view[data-ready='error']")
    assert "1 or more" in page.text_content("#tree-panes .tree-error")


def test_side_by_side_too_big_gives_advice_for_both_and_clears_the_toolbar(page: Any) -> None:
    """Minimax's advice (its tree is the larger), and no step counter of the
    tree shown before. (The advice part did not fail before the change every
    time: which refusal came first was a matter of timing.)"""
    open_example(page, "dom-2")
    page.click("#tree-last")
    page.keyboard.press("Escape")
    page.click("#tab-tree")
    page.select_option("#tree-algorithm", "minimax")
    page.click("#tree-show")
    page.wait_for_selector("#tree-view[data-ready='error']")
    alone = page.text_content("#tree-panes .tree-error")
    page.keyboard.press("Escape")
    page.select_option("#tree-algorithm", "both")
    page.click("#tree-show")
    page.wait_for_selector("#tree-view[data-ready='error']")
    assert page.text_content("#tree-panes .tree-error") == alone
    assert page.text_content("#tree-step") == ""
