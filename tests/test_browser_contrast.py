"""Every text of the board and the search-tree view readable in both
themes (issue 21, item 4): the WCAG 2 contrast ratio of each visible text
against what is drawn behind it, computed in the page, at least 4.5 (3 for
large text: WCAG AA). Also the evaluation bar's white side visible on a
light page. Debian's Chromium, ``test_browser.py``'s fixtures."""

from __future__ import annotations

from typing import Any

import pytest
import test_browser
from test_browser import new_game
from test_browser_trace import open_example

server = test_browser.server
browser = test_browser.browser
page = test_browser.page

#: In the page: [text, ratio, needed, selector hint] for every visible text
#: under ``root`` whose contrast is below WCAG AA. The colour behind a text
#: is the first painted thing under its centre (an HTML background, an SVG
#: shape's fill), blended down to the page's background; the opacities of
#: the text's ancestors count.
CONTRAST = r"""
(root) => {
  const canvas = document.createElement('canvas').getContext('2d');
  const rgba = (text) => {
    canvas.clearRect(0, 0, 1, 1);
    canvas.fillStyle = '#000';
    canvas.fillStyle = text;
    canvas.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const over = (top, below) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat([1]);
  };
  const luminance = ([r, g, b]) => {
    const f = (v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      o *= Number(getComputedStyle(e).opacity);
    }
    return o;
  };
  const paintOf = (el) => {
    const style = getComputedStyle(el);
    if (el instanceof SVGElement) {
      if (['rect', 'circle', 'ellipse', 'path', 'polygon'].includes(el.tagName)) {
        if (style.fill && style.fill !== 'none' && !style.fill.startsWith('url')) {
          const c = rgba(style.fill);
          c[3] *= Number(style.fillOpacity) * opacity(el);
          return c;
        }
      }
      return null;
    }
    const c = rgba(style.backgroundColor);
    c[3] *= opacity(el);
    return c[3] > 0 ? c : null;
  };
  const page = rgba(getComputedStyle(document.body).backgroundColor);
  // what is drawn under a point, whether it takes the pointer or not
  const every = document.createElement('style');
  every.textContent = '* { pointer-events: auto !important; }';
  document.head.appendChild(every);
  const behind = (el, x, y) => {
    const layers = [];
    for (const under of document.elementsFromPoint(x, y)) {
      // an HTML text's own background counts; an SVG text's fill is its ink
      if (under === el ? el instanceof SVGElement : el.contains(under)) continue;
      const c = paintOf(under);
      if (c) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let colour = page;
    for (const c of layers.reverse()) colour = over(c, colour);
    return colour;
  };
  const bad = [];
  const texts = [];
  for (const el of root.querySelectorAll('*')) {
    const own = [...el.childNodes].some(
      (n) => n.nodeType === 3 && n.textContent.trim());
    if (own) texts.push(el);
  }
  for (const el of texts) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || box.bottom < 0 || box.top > innerHeight) continue;
    const style = getComputedStyle(el);
    const gone = style.visibility === 'hidden' || style.display === 'none';
    if (gone || el.closest('[hidden]')) continue;
    // WCAG exempts a control that cannot be used
    if (el.closest('button:disabled, [aria-hidden="true"]')) continue;
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (x < 0 || x > innerWidth) continue;
    const ink = rgba(el instanceof SVGElement ? style.fill : style.color);
    ink[3] *= opacity(el);
    if (ink[3] === 0) continue;
    const back = behind(el, x, y);
    const front = over(ink, back);
    const [l1, l2] = [luminance(front), luminance(back)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = el instanceof SVGElement ? box.height : parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    if (ratio < needed - 0.01) {
      bad.push([el.textContent.trim().slice(0, 30), Math.round(ratio * 100) / 100, needed,
                el.tagName + '.' + (el.getAttribute('class') || '')]);
    }
  }
  every.remove();
  return bad;
}
"""


def low_contrast(page: Any, selector: str) -> list[Any]:
    return list(page.evaluate(f"({CONTRAST})(document.querySelector({selector!r}))"))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_text_of_the_tree_view_is_readable(page: Any, theme: str) -> None:
    page.emulate_media(color_scheme=theme)
    open_example(page, "dom-2")
    for _ in range(9):
        page.click("#tree-forward")
    page.click("#tree-panes g.node[data-id='1']")
    assert low_contrast(page, "#tree-view") == []
    page.click("#tree-last")
    assert low_contrast(page, "#tree-view") == []


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("game", ["connect4", "othello", "tictactoe", "domineering", "nim"])
def test_every_text_of_the_board_is_readable(page: Any, theme: str, game: str) -> None:
    page.emulate_media(color_scheme=theme)
    new_game(page, game, players=("human", "human"))
    page.check("#analysis-toggle")
    page.wait_for_function(
        "document.querySelectorAll('#board .score, #move-buttons .score-chip').length > 0"
    )
    if page.is_enabled("#stop"):
        page.click("#stop")
    test_browser.wait_idle(page)
    assert low_contrast(page, "#play") == []


def test_othellos_white_side_of_the_bar_shows_on_a_light_page(page: Any) -> None:
    """The bar has an edge (this passed before the change here: main had
    given the bar a dark border already)."""
    page.emulate_media(color_scheme="light")
    new_game(page, "othello", players=("human", "human"))
    colours = page.evaluate(
        """() => {
          const bar = document.querySelector('#eval-bar');
          const style = getComputedStyle(bar);
          return [style.getPropertyValue('--p1-color'), style.borderTopColor,
                  style.borderTopColor, style.borderTopWidth, style.boxShadow];
        }"""
    )
    # white (Othello's second player) is drawn with an edge the page can see
    assert colours[3] != "0px" or colours[4] != "none", colours
