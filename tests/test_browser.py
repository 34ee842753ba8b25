"""End to end: ``zerosum serve`` in a subprocess, driven by Playwright in
Debian's Chromium (``/usr/bin/chromium``; never a browser a test tool
downloads). ``scripts/test.sh`` installs the ``chromium`` package when it is
missing; under ``CI=true`` a missing browser fails these tests instead of
skipping them.

Screenshots of every game's board are saved under ``artifacts/screenshots``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zerosum.registry import entries

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path:
        return path
    message = "Debian's chromium is not installed (scripts/test.sh installs it with apt-get)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The address of a ``zerosum serve`` on a free port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "LANGUAGE": "en"},
    )
    assert process.stdout is not None
    found: list[str] = []
    reader = threading.Thread(target=lambda: found.append(process.stdout.readline()))  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout=30)
    match = re.search(r"http://\S+/", found[0] if found else "")
    if not match:
        process.kill()
        raise AssertionError(f"zerosum serve did not start: {found} {process.stderr.read()}")  # type: ignore[union-attr]
    try:
        yield match.group(0)
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    yield page
    context.close()
    assert not errors, errors


def ply(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.ply"))


def wait_idle(page: Any) -> None:
    """Until no search runs (the AI has moved, analysis has finished)."""
    page.wait_for_function("document.body.dataset.searching === ''")


def new_game(page: Any, name: str, params: dict[str, str] | None = None,
             players: tuple[str, str] = ("human", "ai")) -> None:
    page.select_option("#game-select", name)
    for key, value in (params or {}).items():
        field = page.locator(f"[name='param-{key}']")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    for side, kind in enumerate(players):
        page.select_option(f"#player-{side}-kind", kind)
    old = page.evaluate("document.body.dataset.seed")
    page.click("#new-game")
    # The new game's state (a new game has a new seed), not an older one.
    page.wait_for_function(
        f"document.body.dataset.seed !== '{old}' && document.body.dataset.ply === '0'"
    )
    wait_idle(page)


def click_cell(page: Any, row: int, col: int) -> None:
    """Click a board cell and wait for the move it makes."""
    before = ply(page)
    page.click(f"#board rect.cell[data-row='{row}'][data-col='{col}']")
    page.wait_for_function(f"Number(document.body.dataset.ply) > {before}")


def box(page: Any, selector: str) -> dict[str, float]:
    """The element's bounding box (it must be shown)."""
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return dict(found)


def save_board(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.locator("#board").screenshot(path=str(path))
    return path


def test_a_whole_tictactoe_game_against_the_ai_by_clicking(page: Any) -> None:
    new_game(page, "tictactoe")
    for _turn in range(5):
        if page.locator("#banner").is_visible():
            break
        before = ply(page)
        page.locator("#board rect.cell.playable").first.click()
        page.wait_for_function(f"Number(document.body.dataset.ply) > {before}")
        wait_idle(page)
    banner = page.locator("#banner")
    banner.wait_for(state="visible")
    # Clicking the first free cell loses against a perfect O (or draws).
    assert re.search(r"O wins|Draw", banner.inner_text()), banner.inner_text()
    assert "X wins" not in banner.inner_text()
    moves = page.locator("#moves li[data-ply]")
    assert moves.count() == ply(page)
    save_board(page, "tictactoe")
    page.screenshot(path=str(ARTIFACTS / "page-tictactoe.png"))


def test_an_illegal_click_is_refused_with_a_message(page: Any) -> None:
    new_game(page, "tictactoe", players=("human", "human"))
    page.click("#board rect.cell[data-row='1'][data-col='1']")
    page.wait_for_function("document.body.dataset.ply === '1'")
    page.click("#board rect.cell[data-row='1'][data-col='1']")  # taken
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert toast.inner_text().strip()
    assert ply(page) == 1


def test_a_connect_four_move_lands_at_the_bottom(page: Any) -> None:
    new_game(page, "connect4", players=("human", "human"))
    # A click on the top cell of the fourth column drops a stone in it.
    page.click("#board rect.cell[data-row='0'][data-col='3']")
    page.wait_for_function("document.body.dataset.ply === '1'")
    assert page.input_value("#record").strip() == "4"
    assert page.input_value("#position").startswith(".......")
    assert page.input_value("#position").split("/")[5] == "...r..."
    save_board(page, "connect4")


def test_a_domineering_move_with_its_hover_preview(page: Any) -> None:
    new_game(page, "domineering", {"rows": "5", "cols": "5", "first": "vertical"},
             players=("human", "human"))
    cell = page.locator("#board rect.cell[data-row='1'][data-col='2']")
    cell.hover()
    preview = page.locator("#board .preview")
    preview.wait_for(state="attached")
    assert preview.get_attribute("data-preview-move") == "c2"
    cell.click()
    page.wait_for_function("document.body.dataset.ply === '1'")
    assert page.input_value("#record").strip() == "c2"
    # Horizontal now: the preview lies across.
    page.locator("#board rect.cell[data-row='4'][data-col='0']").hover()
    page.wait_for_function(
        "document.querySelector('#board .preview')?.dataset.previewMove === 'a5'"
    )
    save_board(page, "domineering")


def test_analysis_lines_and_every_moves_score_appear(page: Any) -> None:
    new_game(page, "tictactoe", players=("human", "human"))
    page.click("#board rect.cell[data-row='0'][data-col='0']")
    page.wait_for_function("document.body.dataset.ply === '1'")
    page.check("#analysis-toggle")
    page.locator("#analysis-lines .line").first.wait_for()
    wait_idle(page)
    badges = page.locator("#board .score")
    assert badges.count() == 8  # every legal move of O
    # Tic-tac-toe is solved at once: every score is exact; after X takes a
    # corner only the centre draws for O.
    assert page.locator("#board .score.exact").count() == 8
    assert page.locator("#board .score.draw").count() == 1
    assert page.locator("#board .score[data-move='4']").get_attribute("class").find("draw") >= 0
    page.uncheck("#analysis-toggle")


def test_clicks_count_while_analysis_redraws_the_board(page: Any) -> None:
    """Each analysis line redraws the board; a press that straddles a redraw
    must still make its move."""
    new_game(page, "connect4", players=("human", "human"))
    page.check("#analysis-toggle")
    for move in range(8):
        page.locator("#analysis-lines .line").first.wait_for()
        page.click(f"#board rect.cell[data-row='0'][data-col='{move % 7}']")
        page.wait_for_function(f"document.body.dataset.ply === '{move + 1}'")
    assert page.input_value("#record").split() == ["1", "2", "3", "4", "5", "6", "7", "1"]
    page.uncheck("#analysis-toggle")


def test_undo_redo_and_the_keyboard_step_through_the_record(page: Any) -> None:
    new_game(page, "tictactoe", players=("human", "human"))
    for row, col in ((1, 1), (0, 0), (2, 2)):
        before = ply(page)
        page.click(f"#board rect.cell[data-row='{row}'][data-col='{col}']")
        page.wait_for_function(f"document.body.dataset.ply === '{before + 1}'")
    page.click("#undo")
    page.wait_for_function("document.body.dataset.ply === '2'")
    page.click("#redo")
    page.wait_for_function("document.body.dataset.ply === '3'")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.body.dataset.ply === '2'")
    page.keyboard.press("Home")
    page.wait_for_function("document.body.dataset.ply === '0'")
    page.keyboard.press("End")
    page.wait_for_function("document.body.dataset.ply === '3'")
    assert page.input_value("#record").split() == ["4", "0", "8"]


def test_the_page_switches_to_chinese(page: Any) -> None:
    page.select_option("#lang", "zh")
    page.wait_for_function("document.querySelector('#new-game').textContent.includes('新对局')")
    page.select_option("#lang", "en")
    page.wait_for_function("document.querySelector('#new-game').textContent.includes('New game')")


@pytest.mark.parametrize("name", [e.name for e in entries()])
def test_every_game_draws_its_board(page: Any, name: str) -> None:
    """Each registered game starts, shows a board (or its text) with its
    legal moves clickable, and gets a screenshot."""
    new_game(page, name, players=("human", "human"))
    for move in range(4):
        cells = page.locator("#board rect.cell.playable")
        buttons = page.locator("#move-buttons [data-move]")
        assert cells.count() + buttons.count() > 0
        (cells.nth(cells.count() // 2) if cells.count() else buttons.first).click()
        page.wait_for_function(f"document.body.dataset.ply === '{move + 1}'")
    assert len(page.input_value("#record").split()) == 4
    path = save_board(page, f"board-{name}")
    assert path.stat().st_size > 1000


def test_connect_four_analysis_page(page: Any) -> None:
    """The whole page while the engine analyses a Connect Four position (the
    README's picture)."""
    new_game(page, "connect4", players=("human", "human"))
    page.fill("#paste", "4 4 3 5")
    page.click("#load-record")
    page.wait_for_function("document.body.dataset.ply === '4'")
    page.fill("#analysis-time", "2")
    page.dispatch_event("#analysis-time", "change")
    page.check("#analysis-toggle")
    page.locator("#analysis-lines .line").nth(3).wait_for()
    wait_idle(page)
    assert page.locator("#board .score").count() == 7
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "page-connect4.png"))


def test_hint_and_stop_buttons(page: Any) -> None:
    new_game(page, "tictactoe", players=("human", "human"))
    page.click("#board rect.cell[data-row='0'][data-col='0']")
    page.wait_for_function("document.body.dataset.ply === '1'")
    page.click("#hint")
    # After X takes a corner, only the centre holds the draw for O.
    page.locator("#board .hint").wait_for()
    assert "4" in page.locator("#toast").inner_text()
    # The AI thinking for a minute on Connect Four plays at once when stopped.
    new_game(page, "connect4", players=("human", "human"))
    page.select_option("#player-0-level", "time")
    page.fill("#player-0-time", "60")
    page.dispatch_event("#player-0-time", "change")
    page.select_option("#player-0-kind", "ai")
    page.wait_for_function("document.body.dataset.searching === 'ai'")
    page.locator("#analysis-lines .line").first.wait_for()
    page.click("#stop")
    page.wait_for_function("document.body.dataset.ply === '1'", timeout=10_000)
