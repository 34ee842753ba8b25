"""The rich displays and the widgets in a real JupyterLab, driven by
Debian's Chromium through Playwright: a notebook is run from the Run menu,
and its board, result table, search tree and game must render with no
console error of zerosum's (JupyterLab's own failed requests to server
extensions that are not installed, such as ``/lsp/status``, are not ours).

Needs JupyterLab (the ``test`` extra installs it); skipped without it,
failed under ``CI=true``."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_browser

ROOT = Path(__file__).resolve().parent.parent
#: Hang guard for JupyterLab's start, a kernel's start and the page (a
#: loaded machine is slow; never a verdict).
GUARD_MS = 300_000

browser = test_browser.browser

CELLS = [
    "import zerosum\nfrom zerosum import notebook\nfrom zerosum.search import reference\n"
    "game = zerosum.load('tictactoe')\nnotebook.board(game, moves='0 4 1')",
    "reference.analyze(game, game.play(['0', '4', '1']))",
    "notebook.tree(zerosum.load('domineering(rows=3,cols=3)'), algorithm='both', depth=2,"
    " lang='en')",
    "notebook.play(game, seed=1, lang='en')",
]


def _jupyterlab() -> None:
    if importlib.util.find_spec("jupyterlab") is None:
        message = "JupyterLab is not installed (pip install -e '.[test]' installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a JupyterLab serving a folder with the test notebook."""
    _jupyterlab()
    folder = tmp_path_factory.mktemp("lab")
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "id": f"c{i}",
                "metadata": {},
                "execution_count": None,
                "outputs": [],
                "source": source,
            }
            for i, source in enumerate(CELLS)
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (folder / "widgets.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH", "")) if p)
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--port=0",
        "--ServerApp.token=zerosum",
        f"--ServerApp.root_dir={folder}",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert process.stderr is not None
    found: list[str] = []

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            match = re.search(r"(http://127\.0\.0\.1:\d+)/lab", line)
            if match and not found:
                found.append(match.group(1))

    threading.Thread(target=read, daemon=True).start()
    waited = threading.Event()
    for _ in range(GUARD_MS // 500):
        if found or process.poll() is not None:
            break
        waited.wait(0.5)
    if not found:
        process.kill()
        raise AssertionError("JupyterLab did not start")
    try:
        yield found[0]
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.slow
def test_the_displays_and_widgets_render_in_jupyterlab(browser: Any, lab: str) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    missing: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{lab}/lab/tree/widgets.ipynb?token=zerosum", timeout=GUARD_MS)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=GUARD_MS)
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator, .jp-KernelStatus", timeout=GUARD_MS)
    page.click("text=Run", timeout=GUARD_MS)
    page.click("text=Run All Cells", timeout=GUARD_MS)
    page.wait_for_selector(".zerosum-widget #tree-view[data-ready='1']", timeout=GUARD_MS)
    page.wait_for_selector(".zerosum-play svg.board rect.cell", timeout=GUARD_MS)
    # the position, drawn in SVG; the search result as its table
    assert page.locator("figure.zerosum-position svg").count() == 1
    assert "O to move" in page.text_content("figure.zerosum-position figcaption")
    assert "<td>2</td><td>draw</td>" in page.inner_html("table.zerosum-result tbody")
    # the tree: minimax and alpha-beta side by side, the same trees as the browser's
    panes = page.locator(".zerosum-widget .tree-pane")
    assert panes.count() == 2
    assert panes.nth(0).locator("g.node").count() == 27
    assert panes.nth(1).locator("g.node").count() == 17
    page.locator(".zerosum-widget #tree-last").click()
    assert panes.nth(1).locator("g.node[data-id='0'] .value").text_content() == "3"
    # the game: a click on the centre, then the AI's answer
    cell = page.locator(".zerosum-play svg.board rect.cell[data-row='1'][data-col='1']")
    cell.dispatch_event("pointerdown", {"button": 0})
    cell.dispatch_event("pointerup", {"button": 0})
    page.wait_for_selector(".zerosum-play[data-ply='2']", timeout=GUARD_MS)
    context.close()
    # JupyterLab's own requests to server extensions not installed (/lsp/)
    # fail with a console line each; anything else is an error.
    theirs = [url for url in missing if "/lsp/" in url]
    ours = [e for e in errors if not e.startswith("Failed to load resource")]
    assert not ours, errors
    assert len(missing) == len(theirs), missing
