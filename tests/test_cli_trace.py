"""``zerosum trace``: the tree as text, JSON and Graphviz; errors as one line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support import run_cli

import zerosum
from zerosum.search import reference

DOMINEERING = "domineering(rows=3,cols=3)"


def trace_json(*args: str) -> Any:
    done = run_cli("trace", *args, "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def test_text_tree_of_the_tutorials_domineering_example() -> None:
    done = run_cli("trace", DOMINEERING, "--depth", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    body = lines[3:-3]  # a heading of two lines and a blank, then a blank and two totals
    assert len(body) == 17  # one line per position visited
    assert body[0].startswith(" (root)  MAX  [-∞, +∞]  = 3")
    best = [line for line in body if line.startswith("  *")]
    assert best == ["  *b1  MIN  [L2, +∞]  = 3"]  # b1 is the best first move
    assert "   c1  MIN  [3, +∞]  = -1  α cutoff: -1 ≤ 3; pruned: a2 a3 b3" in lines
    assert sum("leaf (" in line for line in body) == 10
    assert lines[-2] == "Best move b1, value 3."
    assert lines[-1] == "17 positions, 10 leaves, 4 cut-offs, 17 listed."


def test_json_matches_the_search_and_the_documented_keys() -> None:
    obj = trace_json(DOMINEERING, "--depth", "1")
    assert obj["type"] == "trace"
    assert (obj["best_move"], obj["value"], obj["leaves"], obj["nodes"]) == ("b1", 2, 6, 7)
    tree = obj["tree"]
    assert len(tree) == obj["nodes"]
    root = tree[0]
    assert root["parent"] is None and root["move"] is None and root["alpha"] is None
    assert [tree[i]["move"] for i in root["children"]] == ["a1", "b1", "c1", "a2", "b2", "c2"]
    assert tree[root["best"]]["move"] == "b1"
    keys = {
        "id", "parent", "move", "ply", "max", "alpha", "beta", "value", "leaf", "children",
        "best", "best_move", "cut", "pruned", "nodes", "leaves", "opened", "closed", "position",
        "bound", "reason", "depth", "iteration", "visits",
    }
    assert all(set(node) == keys for node in tree)
    # the steps replay the search: every node opens before its children and
    # closes after them
    for node in tree:
        for child in node["children"]:
            assert node["opened"] < tree[child]["opened"] < tree[child]["closed"] < node["closed"]


def test_the_replys_figures_with_the_tutorials_scoring() -> None:
    obj = trace_json(
        DOMINEERING, "--moves", "(0,1)", "--depth", "2", "--evaluate-terminals"
    )
    assert (obj["best_move"], obj["value"], obj["leaves"]) == ("a3", -2, 5)


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
def test_counts_equal_the_untraced_search(algorithm: str) -> None:
    obj = trace_json("tictactoe", "--moves", "0 4 1", "--algorithm", algorithm)
    game = zerosum.load("tictactoe")
    plain = reference.best_move(game, game.play("0 4 1".split()), algorithm=algorithm)  # type: ignore[arg-type]
    assert (obj["nodes"], obj["leaves"], obj["cutoffs"]) == (
        plain.stats.nodes, plain.stats.leaves, plain.stats.cutoffs,
    )
    assert obj["best_move"] == "2" and obj["value"] == 0  # O blocks at 2, a draw
    assert sum(n["leaf"] is not None for n in obj["tree"]) == plain.stats.leaves


def test_top_lists_the_first_plies_of_the_full_minimax_tree() -> None:
    obj = trace_json("tictactoe", "--algorithm", "minimax", "--top", "1")
    assert obj["nodes"] == 549_946 and len(obj["tree"]) == 10
    assert sum(n["nodes"] for n in obj["tree"][1:]) == 549_945


def test_long_pruned_lists_are_shortened_in_text_only() -> None:
    args = ("trace", "mnk(m=5,n=5,k=4)", "--depth", "2")
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("   e2  MIN"))
    assert line.endswith("pruned: c2 d2 a3 b3 c3 d3 e3 a4 b4 c4 d4 e4 … and 5 more")
    tree = trace_json(*args[1:])["tree"]
    e2 = next(n for n in tree if n["ply"] == 1 and n["move"] == "e2")
    assert len(e2["pruned"]) == 17


def test_dot_is_graphviz() -> None:
    done = run_cli("trace", DOMINEERING, "--depth", "2", "--dot")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("digraph trace {") and out.rstrip().endswith("}")
    assert out.count("shape=box") + out.count("shape=ellipse") == 17
    assert out.count("style=dashed") == 3 + 3 + 1 + 3  # the pruned moves


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # (549,946 positions when counted within 2 s; a loaded machine may say "more than")
        (["tictactoe", "--algorithm", "minimax"], "positions, more than the 20,000 a trace can"
         " show; try a depth of 5 (18,730 positions)"),
        (["tictactoe", "--algorithm", "engine", "--depth", "2", "--evaluate-terminals"],
         "--evaluate-terminals is for minimax and alphabeta"),
        (["connect4", "--algorithm", "engine", "--depth", "12"], "positions, more than the 20,000"),
        (["tictactoe", "--algorithm", "negamax"], "invalid choice"),
        (["tictactoe", "--depth", "0"], "the depth must be 1 or more, got 0"),
        (["tictactoe", "--depth", "x"], "expected a whole number"),
        (["tictactoe", "--moves", "0 3 1 4 2"], "the game is over"),
        (["connect4", "--depth", "9"], "the search tree has more than "),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    done = run_cli("trace", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zerosum: error: ")
    assert message in lines[0]


def test_engine_text_tree_names_iterations_and_how_nodes_ended() -> None:
    done = run_cli(
        "trace", "tictactoe", "--moves", "0 4 8", "--algorithm", "engine", "--depth", "2"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("the engine (Python backend, iterative deepening), depth 2:")
    body = lines[3:-3]
    assert body[0] == " (root)  MAX  [-∞, +∞]  = -50  (searched 2 times)"
    assert sum("(iteration 1)" in line for line in body) == 6  # every root move at depth 1
    # (the antisymmetric evaluation: 2's last reply, 6, makes the cut-off)
    cut = "   2  MIN  (iteration 2)  [-50, -49]  = -50  α cutoff: -50 ≤ -50"
    assert cut in body
    # tic-tac-toe keys its table by symmetry class: after 0 4 8 (symmetric
    # about both diagonals) the replies 3, 5 and 7 mirror 1, and 6 mirrors 2
    settled = (
        "MIN  (iteration 2)  [-50, -49]  = -50"
        "  settled by the table's value stored for a symmetric position"
    )
    assert [line.split()[0] for line in body if line.endswith(settled)] == ["3", "5", "7", "6"]
    assert lines[-2] == "Best move 1, value -50."
    # the root is searched once per iteration and listed once
    assert lines[-1] == "25 positions, 17 leaves, 1 cut-offs, 24 listed."


def test_engine_json_counts_equal_the_untraced_engine() -> None:
    from zerosum.search.engine import Engine, EngineOptions
    from zerosum.search.types import Limits

    game = zerosum.load("connect4(width=5,height=4)")
    state = game.play(game.split_moves("3 3 2"))
    obj = trace_json("connect4(width=5,height=4)", "--moves", "3 3 2", "--algorithm", "engine",
                     "--depth", "3")
    plain = Engine(game, EngineOptions(backend="python")).search(state, Limits(depth=3))
    tree = obj["tree"]
    assert obj["algorithm"] == "engine" and obj["depth"] == 3
    assert obj["nodes"] == plain.stats.nodes == sum(n["visits"] for n in tree)
    assert obj["leaves"] == plain.stats.leaves == sum(n["leaf"] is not None for n in tree)
    assert obj["cutoffs"] == plain.stats.cutoffs == sum(n["cut"] for n in tree)
    assert obj["value"] == plain.score.raw
    assert obj["best_move"] == game.format_move(plain.best_move)
    assert {tree[i]["iteration"] for i in tree[0]["children"]} == {1, 2, 3}
    assert tree[0]["visits"] == 3


def test_engine_every_move_and_dot() -> None:
    obj = trace_json("tictactoe", "--moves", "0 4", "--algorithm", "engine", "--depth", "2",
                     "--every-move")
    assert obj["root_search"] == "every"
    done = run_cli("trace", "tictactoe", "--moves", "0 4", "--algorithm", "engine", "--depth",
                   "2", "--dot")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("digraph trace {")
