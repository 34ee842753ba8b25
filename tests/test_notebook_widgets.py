"""The notebook widgets' code (zerosum.notebook, anywidget) in a real
browser: Debian's Chromium through Playwright, as the browser tests.

JupyterLab itself is not installed here (too heavy for CI: see the lead's
note in the report), so the widget's ES module runs in a plain page with a
stand-in for anywidget's model: the same ``render({model, el})`` call, the
same synced values (the trace objects and boards Python computed), and
messages to the kernel answered by the Python widget object itself (through
Playwright's ``expose_function``). No console error is allowed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("anywidget")

import test_browser

import zerosum
from zerosum.notebook import display
from zerosum.notebook.widget import PlayWidget, TreeWidget, play, tree
from zerosum.search.trace import trace

browser = test_browser.browser
ORIGIN = "http://zerosum.test"

#: A page that loads the widget's module and renders one widget with a
#: stand-in model: get/set/on/off/send as anywidget's model has them.
PAGE = """<!doctype html><html><head><meta charset="utf-8"><style id="css"></style></head>
<body><div id="out"></div><script type="module">
const spec = window.SPEC;
document.getElementById("css").textContent = spec.css;
const listeners = {};
const values = spec.values;
const model = {
  get: (key) => values[key],
  set: (key, value) => { values[key] = value; },
  save_changes() {},
  on(name, fn) { (listeners[name] ||= []).push(fn); },
  off(name, fn) { listeners[name] = (listeners[name] || []).filter((f) => f !== fn); },
  async send(message) {
    const answer = JSON.parse(await window.kernel(JSON.stringify(message)));
    for (const [key, value] of Object.entries(answer.values)) {
      values[key] = value;
      for (const fn of listeners["change:" + key] || []) fn();
    }
    for (const sent of answer.sent) for (const fn of listeners["msg:custom"] || []) fn(sent);
  },
};
const module = await import("/widget.mjs");
module.default.render({ model, el: document.getElementById("out") });
document.body.dataset.rendered = "1";
</script></body></html>"""


def open_widget(browser: Any, widget: Any) -> Iterator[Any]:
    """A page showing ``widget``; fails on any console error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    sent: list[Any] = []
    widget.send = lambda content, buffers=None: sent.append(content)
    synced = ("traces", "boards", "algorithm", "title", "lang", "catalog", "kind", "state")
    values = {k: getattr(widget, k) for k in synced if widget.has_trait(k)}

    def kernel(text: str) -> str:
        sent.clear()
        for handler in widget._msg_callbacks.callbacks:  # the widget's on_msg handlers
            handler(widget, json.loads(text), [])
        current = {k: getattr(widget, k) for k in synced if widget.has_trait(k)}
        return json.dumps({"values": current, "sent": list(sent)})

    page.expose_function("kernel", kernel)
    spec = {"css": widget._css, "values": values}
    page.add_init_script(f"window.SPEC = {json.dumps(spec)};")
    page.route(f"{ORIGIN}/", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
    page.route(
        f"{ORIGIN}/widget.mjs",
        lambda route: route.fulfill(body=widget._esm, content_type="text/javascript"),
    )
    page.goto(f"{ORIGIN}/")
    page.wait_for_selector("body[data-rendered='1']")
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture()
def domineering_tree(browser: Any) -> Iterator[Any]:
    game = zerosum.load("domineering(rows=3,cols=3)")
    yield from open_widget(browser, tree(game, algorithm="both", depth=2, lang="en"))


def test_the_tree_widget_steps_through_the_same_trace(domineering_tree: Any) -> None:
    page = domineering_tree
    page.wait_for_selector("#tree-view[data-ready='1']")
    game = zerosum.load("domineering(rows=3,cols=3)")
    ab = trace(game, game.initial_state(), algorithm="alphabeta", depth=2)
    mm = trace(game, game.initial_state(), algorithm="minimax", depth=2)
    panes = page.locator(".tree-pane")
    assert panes.count() == 2  # minimax and alpha-beta side by side
    assert panes.nth(0).locator("g.node").count() == len(mm.nodes) == 27
    assert panes.nth(1).locator("g.node").count() == len(ab.nodes) == 17
    assert (
        "17 positions, 10 leaves, 4 cut-offs"
        in panes.nth(1).locator(".tree-pane-head").text_content()
    )
    assert "alpha-beta searched 37% fewer positions" in page.text_content("#tree-subject")
    for _ in range(9):
        page.click("#tree-forward")
    assert page.text_content("#tree-window") == "α −∞, β L2"
    assert "Searching a1 b3 (MAX to move)" in page.text_content("#tree-status")
    page.click("#tree-last")
    assert (
        page.locator(".tree-pane").nth(1).locator("g.node[data-id='0'] .value").text_content()
        == "3"
    )
    # a node's details, with its small board drawn by the page's BoardView
    page.locator(".tree-pane").nth(1).locator("g.node[data-id='1']").click()
    page.wait_for_selector("#tree-details .tree-board svg.board rect")
    assert "Window on entry" in page.text_content("#tree-details")
    # practice: the values hidden, a prediction checked
    page.check("#tree-practice")
    page.locator(".tree-pane").nth(1).locator("g.node[data-id='1']").click()
    page.fill(".practice-value", "-3")
    page.click(".practice button.primary")
    assert page.get_attribute(".practice-verdict", "data-result") in ("right", "wrong")


def test_a_big_trees_boards_are_asked_of_the_kernel(browser: Any) -> None:
    game = zerosum.load("tictactoe")
    widget = tree(game, algorithm="minimax", moves="0 4 1", lang="zh")
    widget.boards = {}  # as for a tree bigger than SENT_BOARDS
    for page in open_widget(browser, widget):
        page.wait_for_selector("#tree-view[data-ready='1']")
        assert page.text_content("#tree-title") == "搜索树"
        page.locator(".tree-pane g.node[data-id='1']").click()
        page.wait_for_selector("#tree-details .tree-board svg.board")


def test_the_game_widget_plays_against_the_ai(browser: Any) -> None:
    game = zerosum.load("tictactoe")
    widget = play(game, human=0, seed=3, lang="en")
    assert isinstance(widget, PlayWidget)
    for page in open_widget(browser, widget):
        assert page.text_content(".play-status") == "Your move: click a cell."
        page.locator("svg.board rect.cell[data-row='1'][data-col='1']").dispatch_event(
            "pointerdown", {"button": 0}
        )
        page.locator("svg.board rect.cell[data-row='1'][data-col='1']").dispatch_event(
            "pointerup", {"button": 0}
        )
        page.wait_for_selector(".zerosum-play[data-ply='2']")
        assert widget.moves[0] == 4  # the centre, then the AI's answer
        assert len(widget.moves) == 2


def test_widgets_are_anywidgets_with_the_browsers_modules() -> None:
    game = zerosum.load("domineering(rows=3,cols=3)")
    widget = tree(game, depth=1)
    assert isinstance(widget, TreeWidget)
    assert "class TreeView" in widget._esm and "class BoardView" in widget._esm
    assert widget.traces["alphabeta"]["leaves"] == 6  # the tutorials' figure
    assert ".zerosum-widget .tree-view" in widget._css
    assert "\nbody" not in widget._css  # nothing styles the notebook's page


def test_rich_displays() -> None:
    game = zerosum.load("connect4")
    shown = display.board(game, moves="4 4 3")
    svg = shown.svg()
    assert svg.count("<circle") == 42 + 3  # the holes and three discs
    assert f"{game.player_name(1)} to move" in shown._repr_html_()
    assert repr(shown) == game.render(game.play(["4", "4", "3"]))
    from zerosum.search import reference

    ttt = zerosum.load("tictactoe")
    state = ttt.play(["0", "4", "1"])
    found = reference.analyze(ttt, state)
    html = display.result(ttt, state, found)._repr_html_()
    assert html.count("<tr") == 1 + len(ttt.actions(state))  # the head, then each move
    first_row = html.split("<tbody>")[1].split("</tr>")[0]
    assert "<td>2</td><td>draw</td>" in first_row  # O must block at 2, and it draws
    assert repr(display.result(ttt, state, found)) == repr(found)


def test_importing_zerosum_in_ipython_gives_results_an_html_view() -> None:
    """In a fresh IPython shell, ``import zerosum`` registers the HTML views
    of search and match results; their plain text is unchanged, and
    outside IPython nothing of the notebook is imported."""
    import subprocess
    import sys

    from test_browser import ROOT

    script = """
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
import zerosum
from zerosum.search import reference
from zerosum.play.match import MatchResult
game = zerosum.load("tictactoe")
found = reference.analyze(game, game.play(["0", "4", "1"]))
data, _ = shell.display_formatter.format(found)
assert data["text/plain"] == repr(found), data["text/plain"]
assert '<table class="zerosum-result">' in data["text/html"]
assert "<td>2</td><td>draw</td>" in data["text/html"]
data, _ = shell.display_formatter.format(MatchResult(moves=[0, 4], outcome=1))
assert "the first player won" in data["text/html"]
print("ok")
"""
    env = {"PYTHONPATH": str(ROOT / "src"), "LANGUAGE": "en", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.stdout.strip() == "ok", done.stderr
    plain = (
        "import sys, zerosum;"
        " print('zerosum.notebook' in sys.modules, 'IPython' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", plain], capture_output=True, text=True, env=env)
    assert done.stdout.strip() == "False False", done.stderr
