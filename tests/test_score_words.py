"""One score in words (issue 26, item 9): one formatter beside Score, with
its translations; the terminal, the JSON, the browser's hint and the page
all say what it says, and the page shows the words the server sends."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import zerosum
from zerosum import i18n
from zerosum.report import analyze_object
from zerosum.search import reference
from zerosum.search.types import Score, loss_in, win_in
from zerosum.web.views import hint_object

STATIC = Path(zerosum.__file__).resolve().parent / "web" / "static"


@pytest.fixture
def chinese() -> Iterator[None]:
    i18n.activate("zh")
    try:
        yield
    finally:
        i18n.activate("en")


def test_one_ply_is_singular_and_more_are_plural_in_english() -> None:
    i18n.activate("en")
    assert Score(win_in(1), exact=True).describe() == "win in 1 ply"
    assert Score(loss_in(1), exact=True).describe() == "loss in 1 ply"
    assert Score(win_in(2), exact=True).describe() == "win in 2 plies"
    assert Score(loss_in(5), exact=True).describe() == "loss in 5 plies"
    assert Score(0, exact=True).describe() == "draw"
    assert Score(win_in(7), exact=True, distance_known=False).describe() == "win"
    assert Score(-35).describe() == "-35 (heuristic)"


def test_the_same_scores_in_chinese(chinese: None) -> None:
    assert Score(win_in(1), exact=True).describe() == "1 步后赢"
    assert Score(loss_in(1), exact=True).describe() == "1 步后输"
    assert Score(win_in(2), exact=True).describe() == "2 步后获胜"
    assert Score(loss_in(5), exact=True).describe() == "5 步后落败"
    assert Score(0, exact=True).describe() == "和棋"
    assert Score(-35).describe() == "-35（估值）"


def test_the_browsers_hint_says_one_ply_as_the_terminal_does() -> None:
    """The browser's hint said "win in 1 plies" (its own formatter)."""
    game = zerosum.load("tictactoe")
    state = game.play(["0", "3", "1", "4"])  # X to move wins at 2
    hint = hint_object(game, state, 2, win_in(1), True)
    assert hint["text"] == "Hint: 2, win in 1 ply"
    assert (hint["words"], hint["plies"]) == ("win in 1 ply", 1)


def page_words(objects: list[dict[str, Any]], tmp_path: Path) -> list[str]:
    """What the page's scoreWords shows for each object (run by Node on
    the page's own scores.js and i18n.js)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    for name in ("scores.js", "i18n.js"):
        shutil.copy(STATIC / name, tmp_path / name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    script = tmp_path / "words.js"
    script.write_text(
        'import { scoreWords } from "./scores.js";\n'
        'import { readFileSync } from "node:fs";\n'
        'const objects = JSON.parse(readFileSync(process.argv[2], "utf8"));\n'
        "console.log(JSON.stringify(objects.map((o) => scoreWords(o))));\n"
    )
    data = tmp_path / "objects.json"
    data.write_text(json.dumps(objects, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [node, str(script), str(data)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    words: list[str] = json.loads(done.stdout)
    return words


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_shows_the_servers_words_for_the_same_scores(lang: str, tmp_path: Path) -> None:
    game = zerosum.load("tictactoe")
    # X to move: 2 wins in 1 ply, the others lose or draw at various distances.
    state = game.play(["0", "3", "1", "4"])
    i18n.activate(lang)
    try:
        analysis = analyze_object(game, state, reference.analyze(game, state))
        hint = hint_object(game, state, 2, win_in(1), True)
    finally:
        i18n.activate("en")
    objects = [analysis, *analysis["moves"], hint]
    server = [obj["words"] for obj in objects]
    kinds = {Score(m["score"], m["exact"]).outcome for m in analysis["moves"]}
    assert {1, -1} <= kinds, kinds  # wins and losses: singular and plural both shown
    assert any(m["plies"] == 1 for m in analysis["moves"])
    assert page_words(objects, tmp_path) == server
