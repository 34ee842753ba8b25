"""The lessons (src/zerosum/lessons, written by scripts/lessons.py) run from
top to bottom in a real kernel (nbclient), in English and in Chinese, and
print the figures the lessons teach; each exercise's starting code is one
of the typical mistakes, and its check names it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")

import zerosum  # noqa: E402

LESSONS = Path(zerosum.__file__).resolve().parent / "lessons"
ROOT = Path(__file__).resolve().parent.parent

#: What each lesson prints (the same in both languages: the code is).
FIGURES: dict[str, list[str]] = {
    "01-game-and-minimax": [
        "to move: 0",
        "terminal: True | utility for X: 1 | for O: -1",
        "value: 0, positions visited: 549,946",
        "6 win in 1 ply\n0 win in 3 plies",
    ],
    "02-alpha-beta": [
        "minimax:    value 0, 549,946 positions",
        "alpha-beta: value 0, 20,866 positions, 7,692 cut-offs",
        "alpha-beta saves 96.2% of the positions",
    ],
    "03-depth-limited-search": [
        "Vertical's mobility at the start: 0",
        "after [] depth 1: best b1, value 2, leaves 6",
        "after [] depth 2: best b1, value 3, leaves 10",
        "after [b1] depth 1: best a3, value -3, leaves 2",
        "after [b1] depth 2: best a3, value -2, leaves 5",
    ],
    "04-openings-and-random-choice": [
        "{0: 3, 1: 2, 2: 3, 3: 2, 4: 4, 5: 2, 6: 3, 7: 2, 8: 3}",
        "equally good first moves: ['0', '1', '2', '3', '4', '5', '6', '7', '8']",
    ],
    "05-iterative-deepening": ["depth 1: best 0", "depth end: best 0, score draw"],
    "06-monte-carlo-tree-search": ["best move: 2"],
}

#: Each exercise's starting code and the mistake its check names, by language.
MISTAKES: dict[str, list[tuple[str, str]]] = {
    "01-game-and-minimax": [
        ("✘ expected", "✘ 应为"),
        ("a quick win should score better than a slow one", "快赢应该比慢赢得分高"),
    ],
    "02-alpha-beta": [
        ("the cut-off should happen when alpha ≥ beta", "应当在 alpha ≥ beta 时剪枝")
    ],
    "03-depth-limited-search": [
        ("only the player's own moves were counted", "只数了这一方自己的走法")
    ],
    "04-openings-and-random-choice": [
        ("only one of the equally good moves", "只给出了同样好的走法中的一个")
    ],
    "05-iterative-deepening": [
        ("a new iteration started after the time was up", "时间用完后又开始了新的一轮迭代")
    ],
    "06-monte-carlo-tree-search": [
        ("an unvisited child must score infinity", "没访问过的子节点必须得无穷大")
    ],
}


def run(path: Path, tmp_path: Path, monkeypatch: Any) -> str:
    """Execute the notebook; everything it printed or displayed as text."""
    # The kernel imports this checkout's zerosum (PYTHONPATH=src, made absolute:
    # the kernel runs in tmp_path).
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "src"))
    notebook = nbformat.read(str(path), as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=600,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    texts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error", output
            if output.get("output_type") == "stream":
                texts.append(output["text"])
            elif "data" in output:
                texts.append(output["data"].get("text/plain", ""))
    return "\n".join(texts)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_a_lesson_runs_and_prints_its_figures(
    name: str, lang: str, tmp_path: Path, monkeypatch: Any
) -> None:
    printed = run(LESSONS / lang / f"{name}.ipynb", tmp_path, monkeypatch)
    for figure in FIGURES[name]:
        assert figure in printed, (figure, printed[-2000:])
    for english, chinese in MISTAKES[name]:
        assert (english if lang == "en" else chinese) in printed, printed[-2000:]


def test_the_lessons_are_the_scripts_output(tmp_path: Path) -> None:
    """The notebooks shipped are what scripts/lessons.py writes (edit the
    script, not the notebooks), the same lessons in both languages, with no
    outputs saved."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("lessons_script", ROOT / "scripts" / "lessons.py")
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    for lang in ("en", "zh"):
        names = sorted(p.stem for p in (LESSONS / lang).glob("*.ipynb"))
        assert names == sorted(FIGURES)
        for name, cells in script.LESSONS:
            shipped = json.loads((LESSONS / lang / f"{name}.ipynb").read_text(encoding="utf-8"))
            assert shipped == script.notebook(cells, lang, name)
            assert all(not c.get("outputs") for c in shipped["cells"])


def test_the_lessons_command_copies_them_and_keeps_a_students_work(
    tmp_path: Path, capsys: Any
) -> None:
    from zerosum.cli import main

    target = tmp_path / "lessons"
    assert main(["lessons", "--lang", "zh", str(target)]) == 0
    said = capsys.readouterr().out
    assert f"已复制 6 课（zh）到 {target}" in said
    assert f"jupyter lab {target}" in said
    copied = sorted(p.name for p in target.iterdir())
    assert copied == sorted(f"{name}.ipynb" for name in FIGURES)
    shipped = (LESSONS / "zh" / "01-game-and-minimax.ipynb").read_bytes()
    assert (target / "01-game-and-minimax.ipynb").read_bytes() == shipped
    (target / "02-alpha-beta.ipynb").write_text("my work", encoding="utf-8")
    assert main(["lessons", "--lang", "en", str(target)]) == 0
    said = capsys.readouterr().out
    assert "02-alpha-beta.ipynb (already there: kept)" in said
    assert (target / "02-alpha-beta.ipynb").read_text(encoding="utf-8") == "my work"


def test_the_lessons_command_refuses_bad_input_in_one_line(tmp_path: Path, capsys: Any) -> None:
    from zerosum.cli import main

    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    assert main(["lessons", "--lang", "en", str(afile)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"zerosum: error: {afile} is a file; expected a folder to copy the lessons to"
    ]
    assert main(["lessons", "--lang", "fr", str(tmp_path)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
