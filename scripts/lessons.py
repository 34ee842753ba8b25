"""Write the lesson notebooks (src/zerosum/lessons/{en,zh}/*.ipynb) from the
one bilingual source below: run ``python3 scripts/lessons.py`` after editing
it. Markdown cells are given in both languages; code cells are the same in
both, with ``{LANG}`` standing for the language (the checkers answer in it).
The notebooks are written without outputs (the student runs them; CI runs
them with nbclient in tests/test_lessons.py).
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "zerosum" / "lessons"


def setup(*imports: str) -> str:
    """A lesson's first code cell: its imports (in ruff's order) and LANG."""
    return "\n".join([*imports, "", 'LANG = "{LANG}"  # the language the checkers answer in'])


BASIC = (
    "import zerosum",
    "from zerosum import notebook",
    "from zerosum.exercises import check",
    "from zerosum.search import reference",
)

#: Each lesson: its file name, then cells: ("md", english, chinese) or ("code", source).
LESSONS: list[tuple[str, list[tuple[str, ...]]]] = [
    (
        "01-game-and-minimax",
        [
            (
                "md",
                """# Lesson 1 — A game, formally; and minimax

A two-player, zero-sum game of perfect information is six things (the textbook formalism):
the **initial state**, the **player** to move, the **actions** (legal moves), the **result**
of a move, the **terminal test** and the **utility** of a finished game for a player.
zerosum's games are written exactly that way. We start with tic-tac-toe.""",
                """# 第 1 课 —— 博弈的形式化定义，以及极小化极大（minimax）

两人零和完全信息博弈由六部分组成（教科书的形式化定义）：**初始状态**、轮到走棋的**玩家**、
**行动**（合法走法）、走一步之后的**结果**、**终局测试**，以及终局对某一方的**效用**。
zerosum 里的每个游戏都正是这样写的。我们从井字棋开始。""",
            ),
            (
                "code",
                setup(*BASIC)
                + """

game = zerosum.load("tictactoe")
state = game.initial_state()
print("to move:", game.to_move(state))          # player 0 (X) moves first
print("actions:", game.actions(state))         # the cells 0..8
after = game.result(state, 4)                  # X takes the centre: a NEW state
print("after 4, to move:", game.to_move(after), "| terminal:", game.is_terminal(after))
notebook.board(game, after)""",
            ),
            (
                "md",
                """States never change: `result` returns a new one, so a search can never
corrupt the position it was given. A finished game has a utility: +1 for the winner, -1 for
the loser, 0 for both in a draw.""",
                """状态永远不会被修改：`result` 返回一个新状态，所以搜索不可能弄坏传给它的局面。
终局有效用：赢家 +1，输家 -1，和棋双方都是 0。""",
            ),
            (
                "code",
                """won = game.play(["0", "3", "1", "4", "2"])   # X fills the top row
print("terminal:", game.is_terminal(won), "| utility for X:", game.utility(won, 0),
      "| for O:", game.utility(won, 1))
notebook.board(game, won)""",
            ),
            (
                "md",
                """## Minimax

MAX (the player to move at the root) picks the move with the highest value, MIN the one with
the lowest; the value of a finished game is its utility. Searching the whole game from the
empty board visits **549,946 positions** — the figure of the tutorials. The reference code
in `zerosum.search.reference` is written to be read.""",
                """## 极小化极大

MAX（根节点上轮到走棋的一方）选值最大的走法，MIN 选值最小的；终局的值就是它的效用。
从空棋盘搜索整个博弈要访问 **549,946 个局面** —— 正是教程里的数字。
`zerosum.search.reference` 里的参考实现是写来给人读的。""",
            ),
            (
                "code",
                """value, stats = reference.value(game, game.initial_state(), algorithm="minimax")
print(f"value: {value}, positions visited: {stats.nodes:,}")""",
            ),
            (
                "md",
                """## A quick win should score better than a slow one

Here X can win at once (6) or in three plies (0, 1, 7, 8). With +1 for every win, all five
moves look the same, and a program may dawdle for ever. The tutorials score a win `10 - depth`
(and a loss `depth - 10`), so the quicker win scores better; zerosum's scores carry the
distance the same way ("win in 1 ply").""",
                """## 快赢应该比慢赢得分高

这里 X 可以立即获胜（6），也可以在三步之后获胜（0、1、7、8）。如果所有胜利都记 +1，
这五个走法看起来一样，程序可能一直拖延下去。教程把胜利记为 `10 - 深度`（失败记为
`深度 - 10`），于是更快的胜利得分更高；zerosum 的分数也同样带着距离（"1 步后获胜"）。""",
            ),
            (
                "code",
                """quick = game.play(["2", "3", "4", "5"])
found = reference.analyze(game, quick)
for line in found.moves:
    print(game.format_move(line.move), line.score.describe())
notebook.result(game, quick, found)""",
            ),
            (
                "md",
                """## Watch the search

The widget below is the browser's search-tree view: step through minimax on a small
position (X on 0 and 1, O on 4; O to move), play it at a speed, click a node to see its board.""",
                """## 观察搜索过程

下面的小部件就是浏览器里的搜索树视图：在一个小局面上（X 在 0 和 1，O 在 4，轮到 O）
一步步观察极小化极大，按速度播放，点击节点查看它的棋盘。""",
            ),
            ("code", """notebook.tree(game, moves="0 4 1", algorithm="minimax", lang=LANG)"""),
            (
                "md",
                """## Exercises

**1.** Write `minimax(board, player)`: +1 if `player` wins with best play from `board`,
0 for a draw, -1 for a loss. The board changes in place like the tutorials' board:
`board.actions()`, `board.play(move)`, `board.undo()`, `board.to_move()`,
`board.is_terminal()`, `board.utility(player)`. Then run the check.""",
                """## 练习

**1.** 写出 `minimax(board, player)`：若 `player` 在双方最佳走法下获胜返回 +1，和棋返回 0，
失败返回 -1。棋盘像教程里那样原地修改：`board.actions()`、`board.play(move)`、
`board.undo()`、`board.to_move()`、`board.is_terminal()`、`board.utility(player)`。
然后运行检查。""",
            ),
            (
                "code",
                """def minimax(board, player):
    if board.is_terminal():
        return board.utility(player)
    # your code: try every move (play, search, undo); MAX takes the largest value, MIN the smallest
    return 0


check("minimax", minimax, lang=LANG)""",
            ),
            (
                "md",
                """**2.** Write `minimax_depth(board, player, depth)` (called with depth 0): a win
`d` plies away scores `10 - d`, a loss `d - 10`, a draw 0.""",
                """**2.** 写出 `minimax_depth(board, player, depth)`（调用时 depth 为 0）：
`d` 步之后的胜利
得 `10 - d` 分，失败得 `d - 10` 分，和棋 0 分。""",
            ),
            (
                "code",
                """def minimax_depth(board, player, depth):
    if board.is_terminal():
        return board.utility(player) * 10  # your code: bring the depth in
    values = []
    for move in board.actions():
        board.play(move)
        values.append(minimax_depth(board, player, depth + 1))
        board.undo()
    return max(values) if board.to_move() == player else min(values)


check("minimax_depth", minimax_depth, lang=LANG)""",
            ),
        ],
    ),
    (
        "02-alpha-beta",
        [
            (
                "md",
                """# Lesson 2 — Alpha-beta pruning

Alpha-beta returns the same value as minimax but skips moves that cannot change it. `alpha`
is the value MAX is already sure of, `beta` the value MIN is already sure of; as soon as
`alpha >= beta`, the remaining moves of the position cannot matter and are pruned.""",
                """# 第 2 课 —— Alpha-beta 剪枝

Alpha-beta 返回与极小化极大相同的值，但会跳过不可能改变这个值的走法。`alpha` 是 MAX
已经有把握得到的值，`beta` 是 MIN 已经有把握得到的值；一旦 `alpha >= beta`，这个局面
剩下的走法就无关紧要了，被剪掉。""",
            ),
            (
                "code",
                setup(*BASIC)
                + """

game = zerosum.load("tictactoe")
start = game.initial_state()
mm_value, mm = reference.value(game, start, algorithm="minimax")
ab_value, ab = reference.value(game, start, algorithm="alphabeta")
print(f"minimax:    value {mm_value}, {mm.nodes:,} positions")
print(f"alpha-beta: value {ab_value}, {ab.nodes:,} positions, {ab.cutoffs:,} cut-offs")
print(f"alpha-beta saves {100 * (mm.nodes - ab.nodes) / mm.nodes:.1f}% of the positions")""",
            ),
            (
                "md",
                """Side by side on a small position: minimax on the left, alpha-beta on the right,
with alpha and beta at every node and the reason of each cut-off. Tick *Practice* to predict
values and pruned moves yourself.""",
                """在一个小局面上并排比较：左边是极小化极大，右边是 alpha-beta，
每个节点都标出 alpha 和
beta，以及每次剪枝的原因。勾选"练习"可以自己预测节点的值和被剪掉的走法。""",
            ),
            ("code", """notebook.tree(game, moves="0 4 1", algorithm="both", lang=LANG)"""),
            (
                "md",
                """## Exercise

Write `alphabeta(board, player, alpha, beta)` with values +1/0/-1 for `player`. The checker
compares the value with the window's rules and counts the positions you visit: exactly as
many as the tutorials' alpha-beta trying the moves in order.""",
                """## 练习

写出 `alphabeta(board, player, alpha, beta)`，对 `player` 返回 +1/0/-1。检查器按窗口的规则
核对返回值，并数你访问的局面数：必须和按顺序尝试走法的教程版 alpha-beta 完全一样多。""",
            ),
            (
                "code",
                """import math


def alphabeta(board, player, alpha, beta):
    if board.is_terminal():
        return board.utility(player)
    maximizing = board.to_move() == player
    value = -math.inf if maximizing else math.inf
    for move in board.actions():
        board.play(move)
        child = alphabeta(board, player, alpha, beta)
        board.undo()
        if maximizing:
            value = max(value, child)
            alpha = max(alpha, value)
        else:
            value = min(value, child)
            beta = min(beta, value)
        if alpha > beta:  # is this the right test?
            break
    return value


check("alphabeta", alphabeta, lang=LANG)""",
            ),
        ],
    ),
    (
        "03-depth-limited-search",
        [
            (
                "md",
                """# Lesson 3 — Depth-limited search and an evaluation function

Most games are far too big to search to the end. Depth-limited search stops at a fixed depth
and scores the position there with an **evaluation function**. The tutorials' example is
Domineering on a 3×3 board: Vertical places 2×1 tiles, Horizontal 1×2 tiles, and whoever
cannot move loses. The evaluation is *mobility*: my tiles that still fit minus the opponent's.""",
                """# 第 3 课 —— 有深度限制的搜索与评估函数

大多数博弈太大，无法搜索到终局。有深度限制的搜索在固定深度停下，用**评估函数**给那里的
局面打分。教程的例子是 3×3 棋盘上的 Domineering（多米诺棋）：竖方放 2×1 的骨牌，横方放
1×2 的骨牌，无法落子的一方输。评估函数是*机动性*：我还能放下的骨牌数减去对手的。""",
            ),
            (
                "code",
                setup(*BASIC)
                + """

game = zerosum.load("domineering(rows=3,cols=3)")
start = game.initial_state()
print("Vertical's mobility at the start:", game.evaluate(start, 0))
notebook.board(game, start)""",
            ),
            (
                "md",
                """The tutorials' figures, reproduced by the reference alpha-beta (scoring finished
positions by the evaluation too, as their code does):""",
                """用参考实现的 alpha-beta 重现教程里的数字
（和教程的代码一样，终局也用评估函数打分）：""",
            ),
            (
                "code",
                """for moves, depth in [("", 1), ("", 2), ("b1", 1), ("b1", 2)]:
    state = game.play(game.split_moves(moves))
    found = reference.best_move(game, state, algorithm="alphabeta", depth=depth,
                                evaluate_terminals=True)
    print(f"after [{moves}] depth {depth}: best {game.format_move(found.best_move)},"
          f" value {found.score.raw}, leaves {found.stats.leaves}")""",
            ),
            ("code", """notebook.tree(game, algorithm="alphabeta", depth=2, lang=LANG)"""),
            (
                "md",
                """## Exercise

Write the mobility evaluation `evaluate(board, player)`: the tiles `player` could place
minus the tiles the opponent could place, whoever is to move. `board.moves_for(player)`
lists a player's tiles.""",
                """## 练习

写出机动性评估函数 `evaluate(board, player)`：不论轮到谁，`player` 能放下的骨牌数减去对手
能放下的骨牌数。`board.moves_for(player)` 列出某一方的骨牌位置。""",
            ),
            (
                "code",
                """def evaluate(board, player):
    return len(board.moves_for(player))  # and the opponent?


check("evaluate", evaluate, lang=LANG)""",
            ),
        ],
    ),
    (
        "04-openings-and-random-choice",
        [
            (
                "md",
                """# Lesson 4 — The opening table and a random choice among equal moves

Searching the first move is the most expensive search of the game, and its answer never
changes: programs keep an **opening table** instead. Tic-tac-toe's (the tutorials') scores
the centre 4, the corners 3, the edges 2.""",
                """# 第 4 课 —— 开局表，以及在同样好的走法中随机选择

第一步的搜索是整盘棋中最昂贵的，而它的答案永远不变：所以程序改用**开局表**。
井字棋的开局表（教程中的）给中心 4 分，角 3 分，边 2 分。""",
            ),
            (
                "code",
                setup(
                    "import zerosum",
                    "from zerosum.exercises import check",
                    "from zerosum.search import reference",
                )
                + """

game = zerosum.load("tictactoe")
start = game.initial_state()
print(game.opening_scores(start))""",
            ),
            (
                "md",
                """Under perfect play every first move draws, so a program that always takes the
first
best move is predictable. Choosing **at random among the equally good moves** (with a seed,
to reproduce a game) keeps the play correct and varied.""",
                """在双方都下得完美时，第一步走哪里都是和棋，所以总选第一个最佳走法的程序很容易被预测。
**在同样好的走法中随机选择**（用种子可以重现一盘棋），既保证下得正确，又有变化。""",
            ),
            (
                "code",
                """import random

found = reference.analyze(game, start)
print("equally good first moves:", [game.format_move(m) for m in found.best_moves])
for seed in (1, 2, 3):
    choice = reference.best_move(game, start, rng=random.Random(seed)).best_move
    print("seed", seed, "->", game.format_move(choice))""",
            ),
            (
                "md",
                """## Exercise

Write `best_moves(game, state)`: every move as good as the best one (by the quick-win score of
lesson 1), the moves to choose from at random. You may use `zerosum.exercises.Board` and your
search from lesson 1, or the game's rules directly.""",
                """## 练习

写出 `best_moves(game, state)`：返回所有与最佳走法同样好的走法（按第 1 课的快赢分数），
也就是随机选择的候选。可以用 `zerosum.exercises.Board` 和第 1 课的搜索，也可以直接用游戏规则。""",
            ),
            (
                "code",
                """def score(game, state, player, depth):
    if game.is_terminal(state):
        return game.utility(state, player) * (10 - depth)
    values = [score(game, game.result(state, m), player, depth + 1) for m in game.actions(state)]
    return max(values) if game.to_move(state) == player else min(values)


def best_moves(game, state):
    me = game.to_move(state)
    scores = {m: score(game, game.result(state, m), me, 1) for m in game.actions(state)}
    best = max(scores.values())
    return [m for m in scores if scores[m] == best][:1]  # only one?


check("best_moves", best_moves, lang=LANG)""",
            ),
        ],
    ),
    (
        "05-iterative-deepening",
        [
            (
                "md",
                """# Lesson 5 — Iterative deepening and time limits

How deep can we search in one second? Nobody knows in advance. **Iterative deepening**
searches depth 1, then 2, then 3, ... and when the time is up answers with the move of the
last depth that *completed*. The repeated shallow searches are cheap next to the last one,
and they order the moves for it. zerosum's engine reports each completed depth:""",
                """# 第 5 课 —— 迭代加深与时间限制

一秒钟能搜多深？事先谁也不知道。**迭代加深**先搜深度 1，再搜 2、3……时间一到，就用最后一个
*完成*的深度给出的走法作答。重复的浅层搜索比最后一轮便宜得多，还能为它排好走法的顺序。
zerosum 的引擎会报告每个完成的深度：""",
            ),
            (
                "code",
                setup(
                    "import zerosum",
                    "from zerosum.exercises import check",
                    "from zerosum.search import front",
                )
                + """

game = zerosum.load("tictactoe")
engine = front.SearchOptions(algorithm="engine", backend="python")


def report(progress):
    depth = "end" if progress.depth is None else progress.depth
    print(f"depth {depth}: best {game.format_move(progress.best_move)},"
          f" score {progress.score.describe()}, positions so far {progress.nodes:,}")


found = front.analyze(game, game.initial_state(), engine, depth=9, on_progress=report)""",
            ),
            (
                "md",
                """With a time limit instead of a depth, the search stops when the time is up
(a deadline
is also checked inside an iteration, so one deep iteration never overruns):""",
                """用时间限制代替深度限制，时间一到搜索就停止（迭代内部也会检查截止时间，所以不会因为
某一轮太深而超时）：""",
            ),
            (
                "code",
                """connect4 = zerosum.load("connect4")
found = front.analyze(connect4, connect4.initial_state(),
                      front.SearchOptions(algorithm="engine", backend="python"), time=0.5)
print("deepest completed depth:", found.depth,
      "| best move:", connect4.format_move(found.best_move))""",
            ),
            (
                "md",
                """## Exercise

Write `iterative_deepening(search, max_depth, time_left)`: `search(depth)` returns the best
move at that depth, or `None` when the time ran out during that iteration; `time_left()` says
whether a new iteration may start. Return the move of the last completed depth.""",
                """## 练习

写出 `iterative_deepening(search, max_depth, time_left)`：`search(depth)` 返回该深度的最佳
走法，若这一轮中途时间用完则返回 `None`；`time_left()` 表示能否开始新的一轮。
返回最后一个完成的深度给出的走法。""",
            ),
            (
                "code",
                """def iterative_deepening(search, max_depth, time_left):
    best = None
    for depth in range(1, max_depth + 1):
        best = search(depth)  # what if the time ran out during this depth? and time_left()?
    return best


check("iterative_deepening", iterative_deepening, lang=LANG)""",
            ),
        ],
    ),
    (
        "06-monte-carlo-tree-search",
        [
            (
                "md",
                """# Lesson 6 — Monte Carlo tree search

Without an evaluation function, MCTS plays many random games (playouts) and grows a tree
towards the moves that win most often. Each iteration **selects** a path down the tree by the
UCT score, **expands** one new position, plays it out at random, and **backs up** the result.
UCT balances the mean result (exploitation) against how rarely a move was tried (exploration):

`UCT = wins / visits + c * sqrt(ln(parent visits) / visits)`""",
                """# 第 6 课 —— 蒙特卡洛树搜索

没有评估函数时，MCTS 下许多随机对局（模拟），让搜索树朝着最常获胜的走法生长。每次迭代按
UCT 分数**选择**一条向下的路径，**扩展**一个新局面，随机下完，再把结果**回传**。
UCT 在平均结果（利用）与走法被尝试得多少（探索）之间取得平衡：

`UCT = 胜 / 访问 + c * sqrt(ln(父节点访问) / 访问)`""",
            ),
            (
                "code",
                setup(
                    "import zerosum",
                    "from zerosum import notebook",
                    "from zerosum.exercises import check",
                    "from zerosum.search import front",
                    "from zerosum.search.mcts import MCTSConfig, options",
                )
                + """

game = zerosum.load("tictactoe")
state = game.play(["0", "4", "1"])  # O must block at 2
found = front.analyze(game, state, options(MCTSConfig(backend="python"), seed=1), nodes=2000)
print("best move:", game.format_move(found.best_move))
for line in found.moves:
    print(game.format_move(line.move), "visits", line.visits,
          "mean result", round(line.win_rate, 3))
notebook.board(game, state)""",
            ),
            (
                "md",
                """Play a game against alpha-beta in the widget below (click a cell).""",
                """在下面的小部件里和 alpha-beta 下一盘（点击格子落子）。""",
            ),
            ("code", """notebook.play(game, human=0, seed=1, lang=LANG)"""),
            (
                "md",
                """## Exercise

Write `uct(wins, visits, parent_visits, c)`. A child never visited must be tried first.""",
                """## 练习

写出 `uct(wins, visits, parent_visits, c)`。从未访问过的子节点必须最先尝试。""",
            ),
            (
                "code",
                """import math


def uct(wins, visits, parent_visits, c):
    return wins / visits + c * math.sqrt(math.log(parent_visits) / visits)


check("uct", uct, lang=LANG)""",
            ),
        ],
    ),
]


def _source(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    return lines


def notebook(cells: list[tuple[str, ...]], lang: str, name: str) -> dict[str, object]:
    out: list[dict[str, object]] = []
    for index, cell in enumerate(cells):
        cell_id = f"{name[:2]}-{index:02d}"
        if cell[0] == "md":
            text = cell[1] if lang == "en" else cell[2]
            out.append(
                {
                    "cell_type": "markdown",
                    "id": cell_id,
                    "metadata": {},
                    "source": _source(text),
                }
            )
        else:
            code = cell[1].replace("{LANG}", lang)
            out.append(
                {
                    "cell_type": "code",
                    "id": cell_id,
                    "metadata": {},
                    "execution_count": None,
                    "outputs": [],
                    "source": _source(code),
                }
            )
    return {
        "cells": out,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def main() -> None:
    for lang in ("en", "zh"):
        folder = OUT / lang
        folder.mkdir(parents=True, exist_ok=True)
        for name, cells in LESSONS:
            path = folder / f"{name}.ipynb"
            text = json.dumps(notebook(cells, lang, name), ensure_ascii=False, indent=1) + "\n"
            path.write_text(text, encoding="utf-8")
            print(path.relative_to(OUT.parent.parent.parent))


if __name__ == "__main__":
    main()
