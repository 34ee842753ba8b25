"""The search trace records the reference search exactly as it ran."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from support import reachable, sample_positions

import zerosum
from zerosum.game import Game
from zerosum.search import reference
from zerosum.search.trace import Trace, TraceTooBig, trace
from zerosum.search.types import INF

TICTACTOE = zerosum.load("tictactoe")
DOMINEERING = zerosum.load("domineering(rows=3,cols=3)")


class _Spy:
    """A game that counts which (position, move) pairs a search plays."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self._game = game
        self.played: Counter[tuple[Any, Any]] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def result(self, state: Any, action: Any) -> Any:
        self.played[(state, action)] += 1
        return self._game.result(state, action)


def _untraced(game: Game[Any, Any], state: Any, run: Trace) -> Any:
    search = reference.best_move if run.root_search == "best" else reference.analyze
    return search(
        game,
        state,
        algorithm=run.algorithm,  # type: ignore[arg-type]
        depth=run.depth,
        evaluate_terminals=run.evaluate_terminals,
    )


def check_trace(game: Game[Any, Any], state: Any, run: Trace) -> None:
    """Everything a trace promises, against the untraced search."""
    spy = _Spy(game)
    plain = _untraced(spy, state, run)  # type: ignore[arg-type]
    nodes = run.nodes
    # Counts: the trace's equal the untraced search's own.
    assert len(nodes) == plain.stats.nodes == run.root.nodes == run.visited
    assert sum(n.leaf is not None for n in nodes) == plain.stats.leaves == run.root.leaves
    assert sum(n.cut for n in nodes) == plain.stats.cutoffs
    # Values: the root's is the search's result, the same with or without a trace.
    assert run.value == plain.score.raw == run.root.value
    assert run.best_move == plain.best_move == run.root.best_move
    # Every searched edge is a move the search played, and nothing else was.
    edges = Counter((nodes[n.parent].state, n.move) for n in nodes if n.parent is not None)
    assert edges == spy.played
    for node in nodes:
        assert node.value is not None and node.closed > node.opened
        children = [nodes[i] for i in node.children]
        assert node.best is None or nodes[node.best].parent == node.id
        if node.leaf is not None:
            assert not children and not node.pruned
            assert node.leaf == "evaluation" or game.is_terminal(node.state)
            continue
        # The moves searched, then the pruned ones, are the legal moves in order.
        legal = list(game.actions(node.state))
        assert [c.move for c in children] + list(node.pruned) == legal
        assert not set(node.pruned) & {c.move for c in children}
        for child in children:
            assert game.result(node.state, child.move) == child.state
            assert child.ply == node.ply + 1
            assert child.opened > node.opened and child.closed < node.closed
        values = [c.value for c in children]
        assert node.value == (max(values) if node.maximizing else min(values))  # type: ignore[type-var]
        assert node.best is not None and nodes[node.best].value == node.value
        assert node.cut or not node.pruned
        if node.cut:  # the value crossed the window's far bound
            assert run.algorithm == "alphabeta"
            bound = node.bound
            assert bound is not None
            assert node.value >= bound if node.maximizing else node.value <= bound
    if run.algorithm == "minimax":
        assert all(n.alpha is None and n.beta is None for n in nodes[1:])


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
def test_counts_equal_the_search_on_every_tictactoe_position(algorithm: str) -> None:
    for state in sorted(reachable(TICTACTOE)):
        if TICTACTOE.is_terminal(state):
            continue
        run = trace(TICTACTOE, state, algorithm=algorithm, limit=10**6)
        plain = reference.best_move(TICTACTOE, state, algorithm=algorithm)  # type: ignore[arg-type]
        assert (run.visited, run.leaves, run.value) == (
            plain.stats.nodes,
            plain.stats.leaves,
            plain.score.raw,
        )
        assert len(run.nodes) == run.root.nodes == plain.stats.nodes
        assert sum(n.leaf is not None for n in run.nodes) == plain.stats.leaves


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
def test_every_promise_on_tictactoe_samples(algorithm: str) -> None:
    states = [s for s in sorted(reachable(TICTACTOE)) if not TICTACTOE.is_terminal(s)]
    for state in states[::37]:
        # Whole trees from six empty cells on (the full checks are slow on
        # minimax's biggest trees; their counts are checked above).
        for depth in (None, 2) if len(TICTACTOE.actions(state)) <= 6 else (2, 3):
            for root in ("best", "every"):
                run = trace(
                    TICTACTOE, state, algorithm=algorithm, depth=depth, root_search=root,
                    limit=10**6,
                )
                check_trace(TICTACTOE, state, run)


@pytest.mark.parametrize(
    "spec",
    [
        "connect4(width=5,height=4)",
        "domineering(rows=4,cols=4)",
        "domineering(rows=3,cols=5,first=horizontal)",
        "othello(size=6)",
        "nim(heaps=2-3-4)",
        "mnk(m=4,n=4,k=3)",
    ],
)
def test_random_positions_of_the_other_games(spec: str) -> None:
    game = zerosum.load(spec)
    for index, state in enumerate(sample_positions(game, range(0, 8), 4, seed=11)):
        depth = 1 + index % 3
        for algorithm in ("minimax", "alphabeta"):
            for root in ("best", "every"):
                run = trace(
                    game, state, algorithm=algorithm, depth=depth, root_search=root,
                    evaluate_terminals=index % 2 == 1,
                )
                check_trace(game, state, run)


def test_the_tutorials_domineering_figures() -> None:
    start = DOMINEERING.initial_state()
    one = trace(DOMINEERING, start, algorithm="alphabeta", depth=1)
    assert (DOMINEERING.format_move(one.best_move), one.value, one.leaves) == ("b1", 2, 6)
    two = trace(DOMINEERING, start, algorithm="alphabeta", depth=2)
    assert (DOMINEERING.format_move(two.best_move), two.value, two.leaves) == ("b1", 3, 10)
    assert two.visited == 17 and two.cutoffs == 4
    assert sum(n.leaf is not None for n in two.nodes) == 10
    reply = DOMINEERING.play(["(0,1)"])
    three = trace(DOMINEERING, reply, algorithm="alphabeta", depth=2, evaluate_terminals=True)
    assert (DOMINEERING.format_move(three.best_move), three.value, three.leaves) == ("a3", -2, 5)
    for run, state in ((one, start), (two, start), (three, reply)):
        check_trace(DOMINEERING, state, run)


def test_windows_and_cutoffs_as_the_tutorial_draws_them() -> None:
    run = trace(DOMINEERING, DOMINEERING.initial_state(), algorithm="alphabeta", depth=2)
    root = run.root
    assert (root.alpha, root.beta) == (-INF, INF)
    first, second = (run.nodes[i] for i in root.children[:2])
    assert (first.alpha, first.beta) == (-INF, INF)  # the first move: a full window
    assert second.alpha == first.value and second.beta == INF  # then alpha is the best so far
    cut = [n for n in run.nodes if n.cut]
    assert cut and all(not n.maximizing and n.bound == n.alpha for n in cut)  # alpha cutoffs at MIN


def test_a_big_tree_is_refused_with_its_size_and_a_depth() -> None:
    with pytest.raises(TraceTooBig) as caught:
        trace(TICTACTOE, TICTACTOE.initial_state(), algorithm="minimax", sizing_seconds=600)
    error = caught.value
    assert error.nodes == 549_946 and error.suggested is not None
    depth, size = error.suggested
    assert size <= 20_000
    fits = trace(TICTACTOE, TICTACTOE.initial_state(), algorithm="minimax", depth=depth)
    assert fits.visited == size
    assert "549,946" in str(error) and f"depth of {depth}" in str(error)
    huge = zerosum.load("connect4")
    with pytest.raises(TraceTooBig) as caught:
        trace(huge, huge.initial_state(), algorithm="minimax", budget=50_000, sizing_seconds=600)
    assert caught.value.nodes is None and "more than 50,000" in str(caught.value)


def test_the_top_of_a_big_tree_keeps_the_full_counts() -> None:
    run = trace(TICTACTOE, TICTACTOE.initial_state(), algorithm="minimax", keep_depth=2)
    assert run.visited == run.root.nodes == 549_946
    assert len(run.nodes) == 1 + 9 + 72
    corner, edge = run.nodes[run.root.children[0]], run.nodes[run.root.children[1]]
    assert corner.nodes + edge.nodes < run.visited
    assert sum(run.nodes[i].nodes for i in run.root.children) == run.visited - 1
    assert run.root.value == 0
    assert all(run.nodes[i].value == 0 for i in run.root.children)  # every first move draws


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"algorithm": "solver"}, "cannot trace 'solver'"),
        ({"depth": 0}, "depth must be 1 or more"),
    ],
)
def test_bad_requests_are_one_line_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(zerosum.ZerosumError, match=message):
        trace(TICTACTOE, TICTACTOE.initial_state(), **kwargs)
    with pytest.raises(zerosum.ZerosumError, match="game is over"):
        trace(TICTACTOE, TICTACTOE.play("0 3 1 4 2".split()))


def test_no_recorder_means_the_plain_search() -> None:
    search = reference._new_search(TICTACTOE, TICTACTOE.initial_state(), None, False, None)
    assert type(search) is reference.ReferenceSearch
