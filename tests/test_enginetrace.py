"""The engine's search trace records the engine's search exactly as it ran:
the same counts, value and best move as the same search untraced."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from support import playout_positions, reachable, sample_positions

import zerosum
import zerosum.native
from zerosum.game import Game, ZerosumError
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.enginetrace import EngineRecorder
from zerosum.search.node import PythonCore, Scratch
from zerosum.search.trace import Trace, TraceTooBig, trace
from zerosum.search.types import Limits, is_decisive

TICTACTOE = zerosum.load("tictactoe")


def _untraced(game: Game[Any, Any], state: Any, run: Trace) -> Any:
    engine = Engine(game, EngineOptions(backend="python"))
    limits = Limits(depth=run.depth)
    if run.root_search == "every":
        return engine.analyze(state, limits)
    return engine.search(state, limits)


def _effective(nodes: list[Any], node: Any) -> dict[Any, Any]:
    """Each searched move's last search (a re-search replaces a null
    window's), in the order the moves were first searched."""
    out: dict[Any, Any] = {}
    for i in node.children:
        out[nodes[i].move] = nodes[i]
    return out


def check_engine_trace(game: Game[Any, Any], state: Any, run: Trace) -> None:
    """Everything an engine trace promises, against the untraced engine."""
    plain = _untraced(game, state, run)
    nodes = run.nodes
    stats = plain.stats
    # Counts: the trace's equal the untraced search's own.
    assert sum(n.visits for n in nodes) == stats.nodes == run.root.nodes == run.visited
    assert sum(n.leaf is not None for n in nodes) == stats.leaves == run.root.leaves
    assert sum(n.cut for n in nodes) == stats.cutoffs == run.cutoffs
    assert all(n.visits == 1 for n in nodes[1:])
    # The result: the same value and best move with or without a trace.
    assert run.value == plain.score.raw == run.root.value
    assert run.best_move == plain.best_move == run.root.best_move
    root_children = [nodes[i] for i in run.root.children]
    assert run.root.visits == len({c.iteration for c in root_children})
    if run.root.best is not None:
        best = nodes[run.root.best]
        assert best.move == run.best_move and best.value == run.value
    for node in nodes:
        assert node.value is not None and node.closed > node.opened
        assert node.nodes == 1 + sum(nodes[i].nodes for i in node.children) or node is run.root
        children = [nodes[i] for i in node.children]
        for child in children:
            assert game.result(node.state, child.move) == child.state
            assert child.ply == node.ply + 1
            assert child.opened > node.opened and child.closed < node.closed
            assert child.maximizing == (game.to_move(child.state) == game.to_move(state))
            if node.parent is not None:
                assert child.iteration == node.iteration
                assert child.depth == node.depth - 1  # type: ignore[operator]
        if node is run.root:
            continue
        assert node.alpha is not None and node.beta is not None and node.alpha < node.beta
        if node.leaf == "terminal":
            assert game.is_terminal(node.state) and not children
        elif node.leaf == "evaluation":
            assert node.depth == 0 and not game.is_terminal(node.state) and not children
        elif node.leaf == "hook":
            assert node.reason in ("win", "no-safe-move") and len(children) <= 1
            if node.reason == "win":
                after = game.result(node.state, node.best_move)
                mover = game.to_move(node.state)
                assert game.is_terminal(after) and game.utility(after, mover) > 0
            else:
                assert not game.non_losing_actions(node.state)
        elif node.reason in ("table", "table-image"):
            assert not children and not node.cut
        elif node.reason == "bound":
            # the best (or worst) any move can do: a win or loss within reach
            assert len(children) <= 1 and not node.cut and is_decisive(node.value)
        else:
            # Searched: its value is its best move's (fail-soft), the first
            # of equals in search order.
            assert node.leaf is None and node.reason is None
            effective = _effective(nodes, node)
            values = [c.value for c in effective.values()]
            extreme = max(values) if node.maximizing else min(values)
            assert node.value == extreme
            first = next(c for c in effective.values() if c.value == extreme)
            assert node.best == first.id and node.best_move == first.move
            legal = list(game.actions(node.state))
            assert set(node.pruned) <= set(legal)
            assert not set(node.pruned) & set(effective)
            if node.cut:
                assert node.pruned or len(effective) == len(node.actions)
                assert node.pruned == tuple(m for m in node.actions if m not in effective)
                bound = node.bound
                assert bound is not None
                assert node.value >= bound if node.maximizing else node.value <= bound
            else:
                assert not node.pruned
        if node.leaf is not None or node.reason is not None:
            assert not node.cut and not node.pruned


def test_counts_equal_the_engine_on_tictactoe_positions() -> None:
    states = [s for s in sorted(reachable(TICTACTOE)) if not TICTACTOE.is_terminal(s)]
    for state in states[::11]:
        for depth in (1, 2, 3):
            check_engine_trace(
                TICTACTOE, state, trace(TICTACTOE, state, algorithm="engine", depth=depth)
            )


@pytest.mark.slow
def test_counts_equal_the_engine_on_every_tictactoe_position() -> None:
    for state in sorted(reachable(TICTACTOE)):
        if TICTACTOE.is_terminal(state):
            continue
        for depth in (1, 2, 3, None):
            for root in ("best", "every"):
                run = trace(
                    TICTACTOE,
                    state,
                    algorithm="engine",
                    depth=depth,
                    root_search=root,
                    limit=10**6,
                )
                check_engine_trace(TICTACTOE, state, run)


@pytest.mark.parametrize("root", ["best", "every"])
def test_whole_tictactoe_solves(root: str) -> None:
    state = TICTACTOE.play("0 4".split())
    run = trace(TICTACTOE, state, algorithm="engine", root_search=root)  # type: ignore[arg-type]
    check_engine_trace(TICTACTOE, state, run)
    assert run.result.score.exact and run.value == 0


@pytest.mark.parametrize(
    "spec",
    [
        "connect4",
        "connect4(width=5,height=4)",
        "domineering(rows=5,cols=5)",
        "othello(size=6)",
        "othello",
    ],
)
def test_counts_equal_the_engine_on_random_positions(spec: str) -> None:
    game = zerosum.load(spec)
    states = sample_positions(game, range(0, 12), 4, seed=11)
    states += playout_positions(game, 40, seed=3)[::10]
    for state in states:
        for depth in (1, 2, 3):
            for root in ("best", "every"):
                run = trace(game, state, algorithm="engine", depth=depth, root_search=root)
                check_engine_trace(game, state, run)


def test_every_kind_of_node_is_seen() -> None:
    """The checks above meet table cut-offs, hook leaves, bounds and
    cutoffs (so they are tested, not vacuous)."""
    kinds: Counter[Any] = Counter()
    game = zerosum.load("connect4(width=5,height=4)")
    for state in playout_positions(game, 30, seed=5)[::3]:
        run = trace(game, state, algorithm="engine", depth=4)
        check_engine_trace(game, state, run)
        kinds.update((n.leaf, n.reason) for n in run.nodes)
        kinds.update("cut" for n in run.nodes if n.cut)
    for state in [TICTACTOE.play("0 4".split()), TICTACTOE.play("0 4 8".split())]:
        run = trace(TICTACTOE, state, algorithm="engine")
        kinds.update((n.leaf, n.reason) for n in run.nodes)
    for kind in [
        ("terminal", None),
        ("evaluation", None),
        ("hook", "win"),
        (None, "table"),
        (None, "table-image"),
        (None, "bound"),
        "cut",
    ]:
        assert kinds[kind], (kind, kinds)


def test_keep_depth_lists_the_top_and_counts_everything() -> None:
    state = TICTACTOE.initial_state()
    whole = trace(TICTACTOE, state, algorithm="engine", depth=4)
    top = trace(TICTACTOE, state, algorithm="engine", depth=4, keep_depth=1)
    assert all(n.ply <= 1 for n in top.nodes)
    assert (top.visited, top.leaves, top.value) == (whole.visited, whole.leaves, whole.value)
    assert [n.nodes for n in top.nodes] == [n.nodes for n in whole.nodes if n.ply <= 1]


def test_a_tree_too_big_is_refused_with_its_size() -> None:
    game = zerosum.load("connect4")
    with pytest.raises(TraceTooBig) as raised:
        trace(game, game.initial_state(), algorithm="engine", depth=8, limit=500)
    error = raised.value
    size = (
        Engine(game, EngineOptions(backend="python"))
        .search(game.initial_state(), Limits(depth=8))
        .stats.nodes
    )
    assert error.nodes == size
    assert error.suggested is not None
    depth, nodes = error.suggested
    assert nodes <= 500 < trace_size(game, depth + 1)
    assert trace_size(game, depth) == nodes


def trace_size(game: Game[Any, Any], depth: int) -> int:
    engine = Engine(game, EngineOptions(backend="python"))
    return engine.search(game.initial_state(), Limits(depth=depth)).stats.nodes


def test_the_engine_cannot_evaluate_terminals() -> None:
    with pytest.raises(ZerosumError, match="evaluate_terminals"):
        trace(
            TICTACTOE,
            TICTACTOE.initial_state(),
            algorithm="engine",
            depth=2,
            evaluate_terminals=True,
        )


@pytest.mark.skipif(not zerosum.native.available(), reason="the native backend is not installed")
def test_the_native_backend_cannot_be_traced() -> None:
    game = zerosum.load("connect4")
    engine = Engine(game, EngineOptions(backend="native"))
    recorder = EngineRecorder(game, game.initial_state())
    with pytest.raises(ZerosumError, match="native backend cannot be traced"):
        engine.trace(game.initial_state(), Limits(depth=2), recorder)


def test_untraced_search_has_no_wrapper() -> None:
    """Without a recorder the core's node function is the plain one (no
    wrapper in the recursion); with one, the wrapper."""
    import threading

    options = EngineOptions(backend="python")
    plain = PythonCore(TICTACTOE, options, None, threading.Event(), None, None, Scratch())
    assert plain.node.__name__ == "node"
    recorder = EngineRecorder(TICTACTOE, TICTACTOE.initial_state())
    traced = PythonCore(
        TICTACTOE, options, None, threading.Event(), None, None, Scratch(), recorder
    )
    assert traced.node.__name__ == "traced_node"


def test_a_value_stored_for_a_mirror_image_is_named_so() -> None:
    # After 0 4 8 the board is symmetric about both diagonals, and tic-tac-toe
    # keys its table by symmetry class: replies that mirror a searched reply
    # are settled by the value stored for that reply's position.
    run = trace(TICTACTOE, TICTACTOE.play("0 4 8".split()), algorithm="engine", depth=2)
    images = [n for n in run.nodes if n.reason == "table-image"]
    assert images
    for node in images:
        # a mirror image searched in full (so it stored its value) before
        key = TICTACTOE.canonical(node.state)[0]
        assert any(
            n.closed < node.closed
            and n.leaf is None
            and n.reason is None
            and n.state != node.state
            and TICTACTOE.canonical(n.state)[0] == key
            for n in run.nodes
        )
    # without the symmetric table no value comes from a mirror image
    unmirrored = zerosum.load("tictactoe")
    unmirrored.symmetric_search = False
    plain = trace(unmirrored, unmirrored.play("0 4 8".split()), algorithm="engine", depth=2)
    assert not any(n.reason == "table-image" for n in plain.nodes)
