"""The compiled Othello primitives (zerosum.native.othello) against the Python
game, position by position on seeded random games of every size, and a
compiled perft against the published counts."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("numba")

import numpy as np
from support import playout_positions, sample_positions

import zerosum
from zerosum.games.othello import PASS, Othello, State
from zerosum.native import othello as native
from zerosum.native.contract import ONGOING
from zerosum.native.perft import walk
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.perft import perft
from zerosum.search.solver import solve
from zerosum.search.types import WIN, Limits

#: Published perft counts from the 8x8 start, depths 1..9 (a pass is a ply).
PERFT_8X8 = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]

SIZES = (4, 6, 8)
#: Positions per size (terminal ones included), from seeded random games.
SAMPLE = 400


def row(words: list[int] | Any) -> Any:
    return np.array(list(words), dtype=np.uint64)


def inside(size: int, *boards: int) -> Any:
    """A state row of Python-game bitboards (bit ``r*size + c``), in the
    native 8x8 layout."""
    return row(native.to_internal(b, size) for b in boards)


def sample(game: Othello, seed: int = 1) -> list[State]:
    return playout_positions(game, SAMPLE, seed, terminal=True)


def image(size: int, bits: int, t: int) -> int:
    """``bits`` under symmetry ``t``, square by square, from the formulas of
    the eight symmetries of the square written out here (0-3 the Python
    game's, in its order)."""
    n = size
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - c, r),
    ]
    out = 0
    for sq in range(n * n):
        if bits >> sq & 1:
            r, c = maps[t](*divmod(sq, n))
            out |= 1 << (r * n + c)
    return out


@pytest.mark.parametrize("size", SIZES)
def test_gen_play_and_status_agree_with_the_python_game(size: int) -> None:
    game = Othello(size)
    adapter = native.adapter(game)
    assert adapter is not None
    g, prims = adapter.constants, adapter.prims
    out = np.zeros(prims.max_moves, dtype=np.int32)
    after = np.zeros(prims.words, dtype=np.uint64)
    passes = ends = 0
    for state in sample(game):
        s = row(adapter.encode(state))
        assert list(s) == [native.to_internal(state[0], size), native.to_internal(state[1], size)]
        assert [native.to_external(int(w), size) for w in s] == [state[0], state[1]]
        if game.is_terminal(state):
            assert native.status(g, s) == game.utility(state, game.to_move(state))
            assert native.gen(g, s, out) == 0
            ends += 1
            continue
        assert native.status(g, s) == ONGOING
        count = native.gen(g, s, out)
        moves = [adapter.action(int(code)) for code in out[:count]]
        assert moves == expected_order(game, state)
        if empty_squares(game, state) > native.FASTEST_EMPTIES[size]:
            assert moves == list(game.ordered_actions(state))  # the Python game's order
        assert all(0 <= code < prims.move_codes for code in out[:count])
        passes += moves == [PASS]
        for code in out[:count]:
            native.play(g, s, int(code), after)
            child = game.result(state, adapter.action(int(code)))
            assert list(after) == list(adapter.encode(child))
    assert ends >= 4 and (passes > 0 or size == 8)


def expected_order(game: Othello, state: State) -> list[int]:
    """The native ``gen`` order, computed on the Python game: its static
    order (corners, edges, inside, C- then X-squares), and with at most
    ``native.FASTEST_EMPTIES`` empty squares fastest first -- the fewest
    opponent replies, a reply on a corner counting twice, ties in the
    static order."""
    moves = list(game.actions(state))
    if moves == [PASS]:
        return moves
    static = sorted(moves, key=lambda sq: game._order[sq])
    if len(static) < 2 or empty_squares(game, state) > native.FASTEST_EMPTIES[game.size]:
        return static
    n = game.size
    corners = {0, n - 1, n * (n - 1), n * n - 1}

    def replies(square: int) -> int:
        child = game.result(state, square)
        answers = [m for m in game.actions(child) if m != PASS]
        return len(answers) + sum(m in corners for m in answers)

    return sorted(static, key=replies)  # a stable sort keeps the static order on ties


def test_fastest_first_sorts_as_the_python_reckoning_on_6x6_middle_games() -> None:
    """Positions with 17-22 empty squares on 6x6, where the native order is
    fastest first and the Python game's is not: the order in ``out`` (sorted
    in place, without a key array) is the one computed in Python."""
    game = Othello(6)
    adapter = native.adapter(game)
    assert adapter is not None
    out = np.zeros(adapter.prims.max_moves, dtype=np.int32)
    sorted_differently = 0
    for state in endgames(game, range(17, 23), 150, seed=21):
        count = native.gen(adapter.constants, row(adapter.encode(state)), out)
        moves = [adapter.action(int(code)) for code in out[:count]]
        assert moves == expected_order(game, state)
        sorted_differently += moves != sorted(moves, key=lambda sq: game._order[sq])
    assert sorted_differently > 50  # the sort really reorders


@pytest.mark.parametrize("size", SIZES)
def test_evaluate_equals_the_python_evaluation(size: int) -> None:
    game = Othello(size)
    adapter = native.adapter(game)
    assert adapter is not None
    values = set()
    for state in sample(game, seed=2):
        value = native.evaluate(adapter.constants, row(adapter.encode(state)))
        assert value == game.evaluate(state, game.to_move(state))
        values.add(value)
    assert len(values) > 20  # the sample exercises the evaluation's terms


def test_moves_and_flips_match_the_python_game_on_crowded_boards() -> None:
    """Random dense boards (not reached in play): every square's flips and
    both sides' move sets, against the Python game's."""
    rng = random.Random(5)
    for size in SIZES:
        game = Othello(size)
        adapter = native.adapter(game)
        assert adapter is not None
        g = adapter.constants
        for _ in range(200):
            mine = theirs = 0
            for sq in range(size * size):
                roll = rng.random()
                if roll < 0.35:
                    mine |= 1 << sq
                elif roll < 0.8:
                    theirs |= 1 << sq
            a, b = inside(size, mine, theirs)
            internal = functools.partial(native.to_internal, size=size)
            assert native.moves_bits(g, a, b) == internal(game.moves_bits(mine, theirs))
            assert native.moves_bits(g, b, a) == internal(game.moves_bits(theirs, mine))
            for sq in range(size * size):
                if not (mine | theirs) >> sq & 1:
                    code = adapter.code(sq)
                    assert native.flips(g, a, b, code) == internal(game.flips(mine, theirs, sq))


@pytest.mark.parametrize("size", SIZES)
def test_keys_are_equal_exactly_for_equal_positions(size: int) -> None:
    game = Othello(size)
    adapter = native.adapter(game)
    assert adapter is not None
    seen: dict[tuple[int, int], int] = {}
    keys: dict[int, tuple[int, int]] = {}
    for seed in range(3):  # several games meet the same early positions
        for state in sample(game, seed=seed):
            board = (state[0], state[1])
            k = int(native.key(adapter.constants, row(adapter.encode(state))))
            assert seen.setdefault(board, k) == k
            assert keys.setdefault(k, board) == board  # no collision in the sample
    assert len(keys) > SAMPLE


@pytest.mark.parametrize("size", SIZES)
def test_symmetries_agree_with_the_python_game(size: int) -> None:
    game = Othello(size)
    adapter = native.adapter(game)
    assert adapter is not None
    g = adapter.constants
    d = np.zeros(2, dtype=np.uint64)
    after = np.zeros(2, dtype=np.uint64)
    out = np.zeros(adapter.prims.max_moves, dtype=np.int32)
    early = late = 0
    for state in sample(game, seed=3)[:150]:
        s = row(adapter.encode(state))
        images = [(image(size, state[0], t), image(size, state[1], t)) for t in range(8)]
        for t in range(4):  # the test's formulas are the Python game's transforms
            moved = game.transform(state, t)
            assert (moved[0], moved[1]) == images[t]
        key, t = native.canonical(g, s)
        if empty_squares(game, state) < int(g[native.G_SYMMETRIC]):
            # Far from the start: the plain key (no transform to pay for).
            assert (key, t) == (native.key(g, s), 0)
            late += 1
        else:
            # The representative is the least image, reached by transform t.
            assert images[t] == min(images)
            assert key == native.key(g, inside(size, *images[t]))
            early += 1
        for u in range(8):
            native.transform(g, s, u, d)
            assert (int(d[0]), int(d[1])) == tuple(inside(size, *images[u]))
            if empty_squares(game, state) >= int(g[native.G_SYMMETRIC]):
                assert native.canonical(g, inside(size, *images[u]))[0] == key
        if not game.is_terminal(state):
            count = native.gen(g, s, out)
            for code in out[:count]:
                m = int(code)
                native.play(g, s, m, after)
                played = (
                    native.to_external(int(after[0]), size),
                    native.to_external(int(after[1]), size),
                )
                for u in range(8):
                    mapped = native.map_move(g, m, u, False)
                    assert native.map_move(g, mapped, u, True) == m
                    # Playing the mapped move in the image gives the image of
                    # the position after the move.
                    native.play(g, inside(size, *images[u]), mapped, d)
                    assert (int(d[0]), int(d[1])) == tuple(
                        inside(size, image(size, played[0], u), image(size, played[1], u))
                    )
                    if u < 4:
                        action = adapter.action(m)
                        assert adapter.action(mapped) == game.map_move(action, u)
    assert early > 10 and (late > 10 or size == 4)  # both kinds of key met
    for u in range(8):
        assert native.map_move(g, native.PASS_CODE, u, False) == native.PASS_CODE  # pass stays
        assert native.map_move(g, native.PASS_CODE, u, True) == native.PASS_CODE


def test_native_perft_matches_the_published_8x8_counts() -> None:
    game = zerosum.load("othello")
    adapter = native.adapter(game)
    assert adapter is not None
    nodes, _ends = walk(adapter, game.initial_state(), 9)
    assert nodes[1:] == PERFT_8X8


@pytest.mark.parametrize(("size", "depth"), [(4, 13), (6, 7)])
def test_native_perft_matches_python_perft(size: int, depth: int) -> None:
    game = Othello(size)
    adapter = native.adapter(game)
    assert adapter is not None
    start = game.initial_state()
    nodes, ends = walk(adapter, start, depth)
    assert nodes == [perft(game, start, d) for d in range(depth + 1)]
    if size == 4:
        assert sum(ends) > 0  # games over before the board is full


def test_adapter_supports_every_size_and_only_othello() -> None:
    for size in SIZES:
        adapter = native.adapter(Othello(size))
        assert adapter is not None
        assert adapter.kind == "othello"
        assert adapter.prims.words == 2 and not adapter.prims.exact_key
        assert adapter.prims.move_codes == 65
        assert adapter.code(PASS) == 64 and adapter.action(64) == PASS
        # Square (r, c) is bit 8*r + c whatever the size.
        assert adapter.code(size + 1) == 9 and adapter.action(9) == size + 1
        assert [adapter.action(adapter.code(sq)) for sq in range(size * size)] == list(
            range(size * size)
        )
    assert native.adapter(zerosum.load("tictactoe")) is None


# -- search on the native backend against the Python backend ------------------------


def empty_squares(game: Othello, state: State) -> int:
    return game.cells - (state[0] | state[1]).bit_count()


def endgames(game: Othello, empties: range, count: int, seed: int) -> list[State]:
    """``count`` positions of seeded random games with a number of empty
    squares in ``empties`` (the game still on)."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.initial_state()
        stop = rng.choice(list(empties))
        while not game.is_terminal(state) and empty_squares(game, state) > stop:
            state = game.result(state, rng.choice(list(game.actions(state))))
        if not game.is_terminal(state):
            found.append(state)
    return found


def same_solution(game: Othello, state: State, **options: Any) -> int | None:
    """Native and Python solves agree: value, distance and every best move.
    Returns the outcome."""
    python = solve(game, state, options=EngineOptions(backend="python", **options))
    fast = solve(game, state, options=EngineOptions(backend="native", **options))
    assert fast.score == python.score  # the raw value (with its distance), exact
    assert fast.score.exact
    assert set(fast.best_moves) == set(python.best_moves)
    return fast.score.outcome


def test_native_solves_4x4_positions_as_python() -> None:
    game = Othello(4)
    states = [game.initial_state(), *sample_positions(game, range(1, 9), 40, seed=11)]
    outcomes = {same_solution(game, state, symmetry=i % 2 == 1) for i, state in enumerate(states)}
    assert outcomes == {-1, 0, 1}
    # The published result: White (second) wins 4x4 Othello.
    start = solve(game, game.initial_state(), options=EngineOptions(backend="native"))
    assert start.score.outcome == -1


@pytest.mark.parametrize("size", [6, 8])
def test_native_solves_late_endgames_as_python(size: int) -> None:
    game = Othello(size)
    outcomes = set()
    for i, state in enumerate(endgames(game, range(4, 11), 10, seed=size)):
        # Every other one keyed by symmetry class: the native table merges
        # all eight images, the Python one four; the values must not differ.
        outcomes.add(same_solution(game, state, symmetry=i % 2 == 1))
    assert len(outcomes) >= 2


@pytest.mark.parametrize("size", [6, 8])
def test_native_depth_limited_analysis_scores_every_move_as_python(size: int) -> None:
    """Heuristic scores at a depth limit test the compiled evaluation and the
    move order inside the search, move by move."""
    game = Othello(size)
    for state in endgames(game, range(size * size // 2, size * size - 8), 4, seed=size + 1):
        limits = Limits(depth=3)
        python = Engine(game, EngineOptions(backend="python")).analyze(state, limits)
        fast = Engine(game, EngineOptions(backend="native")).analyze(state, limits)
        assert [(m.move, m.score) for m in fast.moves] == [(m.move, m.score) for m in python.moves]
        assert fast.depth == python.depth == 3


# -- the last empty squares without the kernel ----------------------------------------


def minimax(game: Othello, state: State, ply: int = 0) -> int:
    """The exact value for the side to move in the kernel's units (a win
    ending the game at ply ``q`` is ``WIN - q``): plain minimax on the Python
    game, quickest win and slowest loss, no pruning."""
    if game.is_terminal(state):
        utility = game.utility(state, game.to_move(state))
        return 0 if utility == 0 else (WIN - ply) if utility > 0 else (ply - WIN)
    return max(-minimax(game, game.result(state, m), ply + 1) for m in game.actions(state))


def exact_value(game: Othello, state: State) -> int:
    """The value for the side to move in the kernel's units: by
    :func:`minimax` up to 5 empty squares, beyond by the Python backend's
    strong solve (value with its distance)."""
    if empty_squares(game, state) <= 5:
        return minimax(game, state)
    return solve(game, state, options=EngineOptions(backend="python")).score.raw


@pytest.mark.parametrize("size", SIZES)
def test_solve_end_keeps_the_fail_soft_contract(size: int) -> None:
    """``solve_end`` on positions with 1-9 empty squares (passes and games
    ending early included; above ``PARITY_EMPTIES`` it sorts the moves) for
    null windows below, at and above the true value: a result at or below
    alpha is an upper bound of the value, one above it a lower bound."""
    game = Othello(size)
    adapter = native.adapter(game)
    assert adapter is not None
    g = adapter.constants
    states = endgames(game, range(1, 10), 40, seed=size + 30)
    kinds = set()
    sorted_ones = 0
    for state in states:
        truth = exact_value(game, state)
        mine, theirs = (int(w) for w in adapter.encode(state))
        empties = int(g[native.G_FULL]) & ~(mine | theirs)
        sorted_ones += empties.bit_count() > native.PARITY_EMPTIES
        for alpha in {truth - 1, truth, -1, 0, truth - 5, truth + 3}:
            value, nodes = native.solve_end(
                np.uint64(mine), np.uint64(theirs), np.uint64(empties),
                g[native.G_GOOD], g[native.G_QUADRANT], g[native.G_HALF],
                g[native.G_CORNERS], alpha, alpha + 1, 0,
            )
            assert nodes >= 1
            if value <= alpha:
                assert truth <= value
            else:
                assert truth >= value
        kinds.add((truth > 0) - (truth < 0))
    assert {-1, 1} <= kinds  # wins and losses both met
    assert sorted_ones >= 5


@pytest.mark.parametrize("size", [6, 8])
def test_exact_hook_changes_no_solve(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Strong solves (value with its distance, every best move) with the
    ``exact`` hook at 10 empty squares and without it agree, on positions
    where the hook decides much of the tree."""
    game = Othello(size)
    states = endgames(game, range(8, 13), 6, seed=size + 40)
    answers = {}
    for setting in (10, 0):
        monkeypatch.setitem(native.EXACT_EMPTIES, size, setting)
        runs = [solve(game, s, options=EngineOptions(backend="native")) for s in states]
        answers[setting] = [(r.score, set(r.best_moves)) for r in runs]
    assert answers[10] == answers[0]
