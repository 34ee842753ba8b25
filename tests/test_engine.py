"""The engine against the reference algorithms, feature by feature, and its
behaviour under limits, threads and seeds.

The reference (plain minimax / alpha-beta in ``search/reference.py``) is the
ground truth: every combination of the engine's features must give the same
exact values, with the same win and loss distances."""

from __future__ import annotations

import itertools
import json
import random
import threading
import time
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, cast

import pytest
from support import HANG_GUARD, sample_positions

import zerosum
import zerosum.native
from zerosum.game import Game, MoveError, Player, PositionError, ZerosumError
from zerosum.search import reference
from zerosum.search.engine import Engine, EngineOptions, Progress
from zerosum.search.signature import compute_signature
from zerosum.search.types import WIN, Limits, is_decisive, loss_in, win_in

ROOT = Path(__file__).resolve().parents[1]
SIGNATURE = ROOT / "benchmarks" / "signature.json"

#: Whether the compiled backend can run here (the fast extra is installed).
NATIVE = zerosum.native.available()

FLAGS = ("tt", "symmetry", "static_order", "killers", "history", "pvs", "hooks")


def all_option_sets() -> list[EngineOptions]:
    """Every combination of the feature flags (symmetry only matters with a
    table, so it is combined with tt=True only)."""
    out = []
    for values in itertools.product((False, True), repeat=len(FLAGS)):
        flags: dict[str, Any] = dict(zip(FLAGS, values, strict=True))
        if flags["symmetry"] and not flags["tt"]:
            continue
        out.append(EngineOptions(backend="python", **flags))
        if NATIVE and flags["static_order"]:  # the compiled search keeps the game's order
            out.append(EngineOptions(backend="native", **flags))
    return out


def option_id(options: EngineOptions) -> str:
    on = [name for name in FLAGS if getattr(options, name)]
    return f"{options.backend}:" + ("+".join(on) or "plain")


OPTION_SETS = all_option_sets()
#: A few configurations for the slower games.
SOME_OPTIONS = [
    EngineOptions(),
    EngineOptions.plain(),
    EngineOptions(symmetry=True),
    EngineOptions(killers=False, history=False, pvs=False),
    EngineOptions(tt=False, hooks=False, static_order=False),
]


def reachable(game: Game[Any, Any]) -> list[Any]:
    """Every position reachable from the start (terminal ones included)."""
    seen: dict[Any, None] = {}
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen[state] = None
        if not game.is_terminal(state):
            stack.extend(game.result(state, m) for m in game.actions(state))
    return list(seen)


@cache
def tictactoe_truth() -> tuple[Any, dict[Any, int], dict[Any, tuple[Any, ...]]]:
    """Tic-tac-toe, the reference value and best moves of every non-terminal
    reachable position."""
    game = zerosum.load("tictactoe")
    values, best = {}, {}
    for state in reachable(game):
        if game.is_terminal(state):
            continue
        solved = reference.solve(game, state)
        values[state] = solved.score.raw
        best[state] = solved.best_moves
    return game, values, best


def test_tictactoe_has_5478_positions() -> None:
    game = zerosum.load("tictactoe")
    positions = reachable(game)
    assert len(positions) == 5478
    assert len(tictactoe_truth()[1]) == 5478 - sum(map(game.is_terminal, positions))


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_every_feature_combination_is_exact_on_tictactoe(options: EngineOptions) -> None:
    """One engine per combination searches all 4,520 non-terminal positions
    (its table kept between them, so entries are reused at other plies and by
    other routes): the value and distance must equal the reference, be marked
    exact, and come with an optimal move."""
    game, values, best = tictactoe_truth()
    engine = Engine(game, options)
    for state, expected in values.items():
        result = engine.search(state)
        assert result.score.raw == expected, game.format_position(state)
        assert result.score.exact
        assert result.best_move in best[state], game.format_position(state)


@pytest.mark.parametrize(
    "options",
    [
        EngineOptions(
            tt=False, hooks=False, **cast(dict[str, Any], dict(zip(FLAGS[2:6], v, strict=True)))
        )
        for v in itertools.product((False, True), repeat=4)
    ],
    ids=option_id,
)
def test_depth_limited_values_match_the_reference(options: EngineOptions) -> None:
    """Without the table and the hooks (both may see past the horizon), a
    depth-d search is exactly depth-d minimax: every root move's score equals
    the reference's, whatever the move ordering. (On mnk(3,3,3): its
    evaluation is antisymmetric, evaluate(s, p) == -evaluate(s, other(p)),
    which the engine's side-to-move convention needs to agree with the
    reference's root-player convention; the tic-tac-toe tutorial's is not.)"""
    game = zerosum.load("mnk(m=3,n=3,k=3)")
    engine = Engine(game, options)
    for state in sample_positions(game, range(0, 5), 12, seed=5):
        for depth in (1, 2, 3):
            mine = engine.analyze(state, Limits(depth=depth))
            ref = reference.analyze(game, state, depth=depth)
            assert {m.move: m.score.raw for m in mine.moves} == {
                m.move: m.score.raw for m in ref.moves
            }
            assert mine.score.raw == ref.score.raw
            assert engine.search(state, Limits(depth=depth)).score.raw == ref.score.raw


OTHER_GAMES = [
    # (spec, plies played at random before the position, positions)
    ("mnk(m=3,n=4,k=3)", range(3, 8), 150),
    ("mnk(m=4,n=4,k=3)", range(6, 11), 150),
    ("connect4(width=4,height=4)", range(6, 12), 150),
    ("connect4(width=5,height=4)", range(10, 16), 100),
    ("connect4", range(31, 38), 120),
    ("nim(heaps=3-4-5)", range(2, 9), 150),
    ("domineering(rows=4,cols=4)", range(0, 6), 150),
    ("domineering(rows=3,cols=5,first=horizontal)", range(0, 6), 150),
    ("othello(size=4)", range(3, 9), 150),
]


@cache
def other_truth(spec: str) -> list[tuple[Any, int]]:
    for name, plies, count in OTHER_GAMES:
        if name == spec:
            game = zerosum.load(spec)
            positions = sample_positions(game, plies, count, seed=len(spec))
            return [(s, reference.value(game, s)[0]) for s in positions]
    raise KeyError(spec)


@pytest.mark.parametrize("spec", [g[0] for g in OTHER_GAMES])
@pytest.mark.parametrize("options", SOME_OPTIONS, ids=option_id)
def test_exact_values_on_other_games(spec: str, options: EngineOptions) -> None:
    game = zerosum.load(spec)
    truth = other_truth(spec)
    assert len(truth) >= 100
    engine = Engine(game, options)
    for state, expected in truth:
        result = engine.search(state)
        assert result.score.raw == expected, game.format_position(state)
        assert result.score.exact
        assert result.best_move in game.actions(state)


@pytest.mark.parametrize("spec", ["tictactoe", "connect4(width=4,height=4)", "othello(size=4)"])
def test_analysis_scores_every_move_exactly(spec: str) -> None:
    game = zerosum.load(spec)
    engine = Engine(game)
    for state in sample_positions(game, range(4, 9), 25, seed=2):
        mine = engine.analyze(state)
        ref = reference.solve(game, state)
        assert [m.score.raw for m in mine.moves] == [m.score.raw for m in ref.moves]
        assert {m.move: m.score.raw for m in mine.moves} == {m.move: m.score.raw for m in ref.moves}
        assert set(mine.best_moves) == set(ref.best_moves)
        for line in mine.moves:
            assert line.score.exact
            assert line.pv[0] == line.move
            replay = state
            for move in line.pv:  # the line is playable
                assert move in game.actions(replay)
                replay = game.result(replay, move)


def test_multipv_reports_the_n_best_lines() -> None:
    game = zerosum.load("connect4(width=5,height=4)")
    engine = Engine(game)
    for state in sample_positions(game, range(8, 12), 10, seed=4):
        full = engine.analyze(state)
        for n in (1, 2, 3):
            top = Engine(game).analyze(state, multipv=n)
            assert len(top.moves) == min(n, len(full.moves))
            assert [m.score.raw for m in top.moves] == [m.score.raw for m in full.moves][:n]


def test_multipv_must_be_positive() -> None:
    game = zerosum.load("tictactoe")
    with pytest.raises(ZerosumError):
        Engine(game).analyze(game.initial_state(), multipv=0)


def test_terminal_root_is_refused() -> None:
    game = zerosum.load("tictactoe")
    won = game.play("0 3 1 4 2".split())
    engine = Engine(game)
    for call in (engine.search, engine.analyze, engine.iterate):
        with pytest.raises(ZerosumError):
            call(won)


# -- regressions ---------------------------------------------------------------


@pytest.mark.parametrize("options", SOME_OPTIONS, ids=option_id)
def test_takes_the_immediate_win_not_a_slower_one(options: EngineOptions) -> None:
    game = zerosum.load("tictactoe")
    # X has 0 1 4, O 3 5 6, X to move: 2, 7 and 8 win at once; other moves
    # (e.g. 7's neighbours) still win, later.
    state = game.play("0 3 1 5 4 6".split())
    assert reference.solve(game, state).score.raw == win_in(1)
    result = Engine(game, options).search(state)
    assert result.score.raw == win_in(1)
    assert result.best_move in (2, 8, 7)
    following = game.result(state, result.best_move)
    assert game.is_terminal(following) and game.utility(following, 0) == 1


def _loses_at_once(game: Game[Any, Any], state: Any, move: Any) -> bool:
    """Whether the opponent can win at once after ``move``."""
    mover = game.to_move(state)
    after = game.result(state, move)
    if game.is_terminal(after):
        return False
    for reply in game.actions(after):
        end = game.result(after, reply)
        if game.is_terminal(end) and game.utility(end, mover) < 0:
            return True
    return False


@pytest.mark.parametrize("options", SOME_OPTIONS, ids=option_id)
def test_when_every_move_loses_it_still_blocks(options: EngineOptions) -> None:
    """Every lost tic-tac-toe position in which some moves lose at once but a
    block lasts longer: the engine must choose a slowest loss, which blocks."""
    game, values, best = tictactoe_truth()
    engine = Engine(game, options)
    cases = 0
    for state, value in values.items():
        if not loss_in(2) < value < 0:
            continue
        if not any(_loses_at_once(game, state, m) for m in game.actions(state)):
            continue
        cases += 1
        result = engine.search(state)
        assert result.score.raw == value
        assert result.best_move in best[state]
        assert not _loses_at_once(game, state, result.best_move)
    assert cases > 50


def test_connect4_blocks_a_threat_when_losing() -> None:
    """Connect Four positions (4x4 and 5x4 boards) that are lost, where some
    moves lose at once: the engine blocks and loses as late as possible."""
    cases = 0
    for spec in ("connect4(width=4,height=4)", "connect4(width=5,height=4)"):
        game = zerosum.load(spec)
        engine = Engine(game)
        for state, value in other_truth(spec):
            if not loss_in(2) < value < 0:
                continue
            if not any(_loses_at_once(game, state, m) for m in game.actions(state)):
                continue
            cases += 1
            result = engine.search(state)
            assert result.score.raw == value
            assert not _loses_at_once(game, state, result.best_move)
    assert cases >= 5


@pytest.mark.parametrize("budget", [0.001, 0.01, 0.05])
def test_tiny_time_budgets_still_give_a_legal_move(budget: float) -> None:
    game = zerosum.load("connect4")
    engine = Engine(game)
    for moves in ("", "4", "444"):
        state = game.play(list(moves))
        started = time.perf_counter()
        result = engine.search(state, Limits(time=budget))
        elapsed = time.perf_counter() - started
        assert result.best_move in game.actions(state)
        assert result.pv and result.pv[0] == result.best_move
        assert elapsed < HANG_GUARD  # how soon depends on the load: a benchmark's question


@pytest.mark.parametrize("nodes", [1, 2, 50, 1000, 20_000])
def test_node_budget_is_respected(nodes: int) -> None:
    game = zerosum.load("connect4")
    for spec_moves in ("", "4453"):
        state = game.play(list(spec_moves))
        result = Engine(game).search(state, Limits(nodes=nodes))
        assert result.best_move in game.actions(state)
        # Roots are counted once per iteration on top of the budget.
        assert result.stats.nodes <= nodes + 50


def test_an_unfinished_iteration_is_thrown_away() -> None:
    """A node budget that runs out mid-iteration returns the result of the
    last completed depth (or a deeper move proven better), never a guess."""
    game = zerosum.load("connect4")
    state = game.initial_state()
    depths = [p.depth for p in Engine(game).iterate(state, Limits(depth=6))]
    assert depths == [1, 2, 3, 4, 5, 6]
    for budget in (300, 1000, 3000, 10_000):
        limited = Engine(game).search(state, Limits(nodes=budget))
        assert limited.depth is not None and 1 <= limited.depth <= 9
        full = Engine(game).search(state, Limits(depth=limited.depth))
        same = (limited.best_move, limited.score, limited.pv) == (
            full.best_move,
            full.score,
            full.pv,
        )
        proven_better = limited.score.exact and limited.score.raw > full.score.raw
        assert same or proven_better, (budget, limited, full)


def test_depth_limit_and_progress_records() -> None:
    game = zerosum.load("connect4")
    records: list[Progress[Any]] = []
    result = Engine(game).search(game.initial_state(), Limits(depth=5), on_progress=records.append)
    assert [p.depth for p in records] == [1, 2, 3, 4, 5]
    assert result.depth == 5 and not result.score.exact
    assert records[-1].best_move == result.best_move
    assert all(a.nodes < b.nodes for a, b in itertools.pairwise(records))
    for p in records:
        assert p.pv and p.pv[0] == p.best_move and 0.0 <= p.tt_hit_rate <= 1.0
        assert p.lower is None and p.upper is None


def test_iterate_gives_the_result_afterwards_and_when_stopped_early() -> None:
    game = zerosum.load("connect4")
    engine = Engine(game)
    run = engine.iterate(game.initial_state(), Limits(depth=7))
    with pytest.raises(ZerosumError):
        _ = run.result  # nothing completed yet
    for progress in run:
        if progress.depth == 3:
            break
    assert run.result.depth == 3 and not run.finished
    run.close()
    run = engine.iterate(game.initial_state(), Limits(depth=4))
    assert [p.depth for p in run] == [1, 2, 3, 4]
    assert run.finished and run.result.depth == 4


def test_stop_from_another_thread() -> None:
    game = zerosum.load("connect4")
    engine = Engine(game)
    first_depth_done = threading.Event()
    results: list[Any] = []

    def on_progress(progress: Progress[Any]) -> None:
        first_depth_done.set()

    def work() -> None:
        results.append(engine.search(game.initial_state(), on_progress=on_progress))

    thread = threading.Thread(target=work)
    started = time.perf_counter()
    thread.start()
    assert first_depth_done.wait(30)
    engine.stop()
    thread.join(30)
    assert not thread.is_alive()
    assert time.perf_counter() - started < 30
    (result,) = results
    assert result.best_move in game.actions(game.initial_state())
    assert result.depth is not None and result.depth >= 1
    # A new search is not affected by the old stop request.
    again = engine.search(game.initial_state(), Limits(depth=2))
    assert again.depth == 2


def test_determinism_same_move_score_and_nodes() -> None:
    for spec, moves, depth in (
        ("connect4", "4453", 7),
        ("tictactoe", "", None),
        ("othello(size=4)", "", 6),
    ):
        game = zerosum.load(spec)
        state = game.play(game.split_moves(moves)) if moves else game.initial_state()
        limits = Limits(depth=depth)
        a = Engine(game).search(state, limits)
        b = Engine(game).search(state, limits)
        assert (a.best_move, a.score, a.pv, a.stats.nodes) == (
            b.best_move,
            b.score,
            b.pv,
            b.stats.nodes,
        )
        engine = Engine(game)
        c = engine.search(state, limits)
        engine.clear()
        d = engine.search(state, limits)
        assert (c.best_move, c.score, c.stats.nodes) == (d.best_move, d.score, d.stats.nodes)


def test_node_count_change_detector() -> None:
    """A change detector, not a correctness test: node counts over fixed
    positions and depths, recorded in benchmarks/signature.json from the
    engine itself, so any change in search behaviour (a bug or an intended
    improvement alike) changes them and must be acknowledged by regenerating
    the file. Correctness is checked elsewhere against independently derived
    values: the reference algorithms' exact values, published perft counts
    and solved results, and the benchmark sets' scores."""
    recorded = json.loads(SIGNATURE.read_text(encoding="utf-8"))
    current = compute_signature(recorded["positions"])
    changed = [
        f"{row['name']}: recorded {row['nodes']}, now {now}"
        for row, now in zip(recorded["positions"], current, strict=True)
        if row["nodes"] != now
    ]
    assert not changed, (
        "node-count signature changed:\n  "
        + "\n  ".join(changed)
        + "\nIf the change in search behaviour is intended, regenerate it with"
        " `python benchmarks/bench_engine.py --write-signature` and commit the JSON."
    )


def test_seeded_random_choice_among_equal_moves() -> None:
    game = zerosum.load("tictactoe")
    state = game.initial_state()  # every move draws
    engine = Engine(game)
    first = engine.search(state, rng=random.Random(1))
    assert set(first.best_moves) == set(range(9))
    assert first.score.raw == 0 and first.score.exact
    again = Engine(game).search(state, rng=random.Random(1))
    assert again.best_move == first.best_move
    chosen = {Engine(game).search(state, rng=random.Random(seed)).best_move for seed in range(40)}
    assert len(chosen) >= 6  # uniform over nine: 40 draws miss more than 3 very rarely
    # Ties are exact: every tied move is optimal in the reference.
    _, values, best = tictactoe_truth()
    for s in sample_positions(game, range(1, 6), 40, seed=9):
        result = engine.search(s, rng=random.Random(0))
        assert set(result.best_moves) == set(best[s])
        assert result.best_move in best[s] and result.score.raw == values[s]


def test_engine_options_plain_turns_everything_off() -> None:
    plain = EngineOptions.plain()
    assert not any(getattr(plain, name) for name in FLAGS)


# -- a game whose turns do not alternate ------------------------------------------


class Bonus(Game[tuple[int, int], int]):
    """Take 1 or 2 from a heap; taking 2 earns another turn; whoever takes the
    last object wins. Turns do not alternate, so negamax must not negate
    blindly. State: (heap, player to move)."""

    name = "bonus-test"

    def __init__(self, heap: int = 11) -> None:
        self.heap = heap

    def initial_state(self) -> tuple[int, int]:
        return (self.heap, 0)

    def to_move(self, state: tuple[int, int]) -> Player:
        return state[1]

    def actions(self, state: tuple[int, int]) -> Sequence[int]:
        return [t for t in (1, 2) if t <= state[0]]

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        heap, player = state
        return (heap - action, player if action == 2 and heap - action else 1 - player)

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] == 0

    def utility(self, state: tuple[int, int], player: Player) -> int:
        # The player to move at the end did not take the last object.
        return -1 if state[1] == player else 1

    def evaluate(self, state: tuple[int, int], player: Player) -> int:
        return (state[0] % 3) * (1 if state[1] == player else -1)

    def format_move(self, action: int) -> str:
        return str(action)

    def parse_move(self, state: tuple[int, int], text: str) -> int:
        if text not in ("1", "2"):
            raise MoveError(text)
        return int(text)

    def format_position(self, state: tuple[int, int]) -> str:
        return f"{state[0]} {state[1]}"

    def parse_position(self, text: str) -> tuple[int, int]:
        try:
            heap, player = text.split()
            return (int(heap), int(player))
        except ValueError:
            raise PositionError(text) from None


@pytest.mark.parametrize("options", SOME_OPTIONS, ids=option_id)
def test_turns_that_do_not_alternate(options: EngineOptions) -> None:
    game = Bonus(13)
    engine = Engine(game, options)
    from zerosum.search.solver import solve

    for heap in range(1, 14):
        for player in (0, 1):
            state = (heap, player)
            expected, _ = reference.value(game, state)
            assert engine.search(state).score.raw == expected, state
            assert solve(game, state, engine=engine).score.raw == expected, state
            for depth in (1, 2, 3):
                ref = reference.analyze(game, state, depth=depth)
                mine = Engine(game, EngineOptions(tt=False, hooks=False)).analyze(
                    state, Limits(depth=depth)
                )
                assert [m.score.raw for m in mine.moves] == [m.score.raw for m in ref.moves]


def test_scores_are_decisive_only_when_proven() -> None:
    game = zerosum.load("connect4")
    result = Engine(game).search(game.play(list("44")), Limits(depth=4))
    assert not is_decisive(result.score.raw) and not result.score.exact
    assert abs(result.score.raw) < WIN - 10_000


@pytest.mark.parametrize("junk", ["fast", 3, {"depth": 2}])
def test_junk_limits_are_a_type_error(junk: Any) -> None:
    """Not a Limits value: a TypeError naming what is expected, from the
    engine, the solver and the front door alike."""
    from zerosum.search import front
    from zerosum.search.solver import solve

    game = zerosum.load("tictactoe")
    state = game.initial_state()
    with pytest.raises(TypeError, match="Limits"):
        Engine(game).search(state, junk)
    with pytest.raises(TypeError, match="Limits"):
        solve(game, state, limits=junk)
    with pytest.raises(TypeError, match="Limits"):
        front.Searcher(game).analyze(state, junk)


def test_an_iteration_limit_is_refused_by_the_engine() -> None:
    """Iterations are Monte Carlo tree search's budget: the engine says it
    takes none, rather than ignoring it."""
    from zerosum.search import front

    game = zerosum.load("tictactoe")
    with pytest.raises(ZerosumError, match="iterations"):
        front.Searcher(game).analyze(game.initial_state(), Limits(iterations=100))
