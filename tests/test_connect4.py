"""Connect Four: move generation against published counts, the engine hooks
against brute force, notation, symmetry, and exact values against the public
benchmark set."""

from __future__ import annotations

import random
import re
from itertools import islice

import pytest
from conftest import shared_data
from support import playout_positions

import zerosum
from zerosum.datasets import connect4_score
from zerosum.game import MoveError, PositionError, ZerosumError
from zerosum.games.connect4 import DRAW, TEMPO_WEIGHT, WON, ConnectFour, State, threat_cells
from zerosum.search import reference
from zerosum.search.perft import perft
from zerosum.search.types import WIN

#: Distinct positions after n plies from the empty 7x6 board (OEIS A212693).
DISTINCT_POSITIONS = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275]
#: Perft: move sequences of n plies from the empty 7x6 board.
PERFT = [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234]

SIZES = [
    "connect4",
    "connect4(width=4,height=4)",
    "connect4(width=5,height=4)",
    "connect4(width=9,height=7)",
    "connect4(width=8,height=9)",
]


def c4(spec: str = "connect4") -> ConnectFour:
    game = zerosum.load(spec)
    assert isinstance(game, ConnectFour)
    return game


# -- an independent, naive model of the board ----------------------------------
def grid(game: ConnectFour, state: State) -> dict[tuple[int, int], int]:
    """(column, row from the bottom) -> player, read through the notation."""
    rows = game.format_position(state).split("/")[::-1]
    return {
        (c, r): "ry".index(ch)
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
        if ch != "."
    }


def naive_completes(stones: set[tuple[int, int]], cell: tuple[int, int]) -> bool:
    """Whether a stone on ``cell`` makes four in a row with ``stones``: some
    line of four through the cell has its other three cells in ``stones``."""
    c, r = cell
    return any(
        all((c + (start + i) * dc, r + (start + i) * dr) in stones for i in range(4) if start + i)
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
        for start in range(-3, 1)
    )


# -- move generation -----------------------------------------------------------
def test_distinct_positions_by_depth() -> None:
    game = c4()
    level = {game.initial_state()}
    counts = [len(level)]
    for _ in range(len(DISTINCT_POSITIONS) - 1):
        level = {
            game.result(state, move)
            for state in level
            if not game.is_terminal(state)
            for move in game.actions(state)
        }
        counts.append(len(level))
    assert counts == DISTINCT_POSITIONS


@pytest.mark.parametrize("depth", range(len(PERFT)))
def test_perft(depth: int) -> None:
    game = c4()
    assert perft(game, game.initial_state(), depth) == PERFT[depth]


def test_keys_are_unique_per_position() -> None:
    game = c4()
    level = {game.initial_state()}
    seen: dict[object, State] = {}
    for _ in range(6):
        for state in level:
            assert seen.setdefault(game.key(state), state) == state
        level = {game.result(s, m) for s in level for m in game.actions(s)}
    assert len(seen) == sum(DISTINCT_POSITIONS[:6])


def test_rules_on_a_game() -> None:
    game = c4()
    state = game.play(game.split_moves("445566"))
    assert game.to_move(state) == 0 and not game.is_terminal(state)
    assert game.actions(state) == (0, 1, 2, 3, 4, 5, 6)
    won = game.result(state, 6)
    assert game.is_terminal(won) and won[2] == WON
    assert game.utility(won, 0) == 1 and game.utility(won, 1) == -1
    assert game.winner(won) == 0 and game.actions(won) == ()
    # A vertical, a rising and a falling diagonal for Red, a row for Yellow;
    # no position before the last is over.
    for moves, winner in [
        ("1212121", 0),
        ("12234334544", 0),
        ("76654554344", 0),
        ("12131475", 1),
    ]:
        for ply in range(len(moves)):
            assert not game.is_terminal(game.play(list(moves[:ply])))
        final = game.play(list(moves))
        assert game.winner(final) == winner and game.is_terminal(final), moves
        assert game.utility(final, winner) == 1 and game.utility(final, 1 - winner) == -1


def test_a_full_board_without_four_is_a_draw() -> None:
    game = c4("connect4(width=4,height=4)")
    state = game.play(list("4321311144234232"))
    assert state[2] == DRAW and game.is_terminal(state) and game.winner(state) is None
    assert game.utility(state, 0) == game.utility(state, 1) == 0


def test_column_fills_up() -> None:
    game = c4("connect4(width=4,height=4)")
    state = game.play(list("1111"))
    assert game.actions(state) == (1, 2, 3)
    assert game.ordered_actions(state) == (1, 2, 3)
    assert game.ordered_actions(game.initial_state()) == (1, 2, 0, 3)
    assert c4().ordered_actions(c4().initial_state()) == (3, 2, 4, 1, 5, 0, 6)


# -- engine hooks against brute force ------------------------------------------
@pytest.mark.parametrize("spec", SIZES)
def test_winning_and_non_losing_actions_match_brute_force(spec: str) -> None:
    game = c4(spec)
    for state in playout_positions(game, 400, seed=len(spec), terminal=True):
        if game.is_terminal(state):
            assert game.winning_action(state) is None
            assert list(game.non_losing_actions(state)) == []
            continue
        moves = game.actions(state)
        wins = [m for m in moves if game.result(state, m)[2] == WON]
        win = game.winning_action(state)
        assert (win is None) == (not wins) and (win is None or win in wins)

        def opponent_wins_at_once(after: State) -> bool:
            return not game.is_terminal(after) and any(
                game.result(after, reply)[2] == WON for reply in game.actions(after)
            )

        expected = {m for m in moves if not opponent_wins_at_once(game.result(state, m))}
        safe = list(game.non_losing_actions(state))
        assert len(safe) == len(set(safe)) and set(safe) == expected, game.render(state)
        # Best first: winning moves, then by threats left to the mover.
        mover = game.to_move(state)
        keys = []
        for m in safe:
            after = game.result(state, m)
            if after[2] == WON:
                keys.append(10**6)
                continue
            cells = grid(game, after)
            mine = {cell for cell, who in cells.items() if who == mover}
            empty = [
                (c, r) for c in range(game.width) for r in range(game.height) if (c, r) not in cells
            ]
            keys.append(sum(naive_completes(mine, cell) for cell in empty))
        assert keys == sorted(keys, reverse=True), (game.render(state), safe, keys)


@pytest.mark.parametrize("spec", ["connect4", "connect4(width=9,height=9)"])
def test_threat_cells_match_a_naive_search(spec: str) -> None:
    game = c4(spec)
    for state in playout_positions(game, 150, seed=7, terminal=True):
        cells = grid(game, state)
        red, _ = game.stones(state)
        threats = threat_cells(red, game.height)
        mine = {cell for cell, who in cells.items() if who == 0}
        for c in range(game.width):
            for r in range(game.height):
                if (c, r) in cells:
                    continue
                bit = 1 << (c * (game.height + 1) + r)
                assert bool(threats & bit) == naive_completes(mine, (c, r)), (c, r)


def test_non_losing_actions_on_known_positions() -> None:
    game = c4()
    # Red 4 5 6 on the bottom row, Yellow 3 and 1: only column 7 stops Red.
    one_threat = game.play(list("43516"))
    assert game.to_move(one_threat) == 1 and game.winning_action(one_threat) is None
    assert list(game.non_losing_actions(one_threat)) == [6]
    # Red 4 5 6, Yellow 1 1: columns 3 and 7 both win for Red.
    two_threats = game.play(list("41516"))
    assert list(game.non_losing_actions(two_threats)) == []
    # The same, but Yellow has three in column 1: its win is the only safe move.
    can_win = game.play(list("4151216"))
    assert game.winning_action(can_win) == 0
    assert list(game.non_losing_actions(can_win)) == [0]
    # Red's first move: everything is safe, the centre first.
    assert list(game.non_losing_actions(game.initial_state())) == [3, 2, 4, 1, 5, 0, 6]


def test_evaluate_is_antisymmetric_and_bounded() -> None:
    for spec in SIZES:
        game = c4(spec)
        for state in playout_positions(game, 300, seed=3, terminal=True):
            if game.is_terminal(state):
                continue
            value = game.evaluate(state, 0)
            assert value == -game.evaluate(state, 1)
            assert abs(value) < 100_000
    game = c4()
    centre = game.result(game.initial_state(), 3)
    edge = game.result(game.initial_state(), 0)
    # A stone is worth something beyond the move in hand it cost (the tempo
    # term: the side to move gains TEMPO_WEIGHT), and more in the centre.
    tempo = TEMPO_WEIGHT
    assert game.evaluate(centre, 0) > game.evaluate(edge, 0) > -2 * tempo
    assert game.evaluate(game.initial_state(), 0) == tempo
    threat = game.play(list("4455"))  # Red to move can make an open three
    assert game.evaluate(game.result(threat, 5), 0) > game.evaluate(game.result(threat, 0), 0)


# -- symmetry -------------------------------------------------------------------
@pytest.mark.parametrize("spec", SIZES)
def test_mirror_symmetry(spec: str) -> None:
    game = c4(spec)
    assert game.symmetry_count() == 2
    for state in playout_positions(game, 200, seed=11, terminal=True):
        mirrored = game.mirror(state)
        assert game.mirror(mirrored) == state
        key, transform = game.canonical(state)
        assert game.canonical(mirrored)[0] == key
        representative = mirrored if transform else state
        assert game.key(representative) == key
        assert key == min(game.key(state), game.key(mirrored))
        assert game.format_position(mirrored) == "/".join(
            row[::-1] for row in game.format_position(state).split("/")
        )
        for move in game.actions(state):
            there = game.map_move(move, transform)
            assert game.result(representative, there) == (
                game.mirror(game.result(state, move)) if transform else game.result(state, move)
            )
            assert game.map_move(there, transform, inverse=True) == move


# -- notation -------------------------------------------------------------------
def test_move_notation() -> None:
    game = c4()
    start = game.initial_state()
    assert [game.format_move(m) for m in game.actions(start)] == list("1234567")
    assert game.parse_move(start, " 4 ") == 3
    for bad in ["0", "8", "a", "", "44", "-1", "4.0"]:
        with pytest.raises(MoveError, match="expected a column number 1-7") as info:
            game.parse_move(start, bad)
        assert "\n" not in str(info.value) and "1 2 3 4 5 6 7" in str(info.value)
    full = game.play(list("444444"))
    with pytest.raises(MoveError, match=r"column 4 is full; expected one of 1 2 3 5 6 7$"):
        game.parse_move(full, "4")
    over = game.play(list("1212121"))
    with pytest.raises(MoveError, match="game is over"):
        game.parse_move(over, "3")
    with pytest.raises(MoveError, match="after the game is over"):
        game.play(list("12121213"))


def test_position_notation() -> None:
    game = c4()
    state = game.play(list("44"))
    text = "......./......./......./......./...y.../...r..."
    assert game.format_position(state) == text
    assert game.parse_position(text) == state
    assert game.parse_position(" 44 ") == state  # a move sequence
    assert game.parse_position(text.upper()) == state
    picture = game.render(state)
    assert picture.splitlines()[-1].split() == list("1234567")
    assert "Y" in picture and "R" in picture
    won = game.play(list("1212121"))
    assert game.parse_position(game.format_position(won)) == won


SMALL_ERRORS = [
    ("..../..../..../...", "expected 4 rows of 4 cells"),
    ("..../..../..../...x", "expected 4 rows of 4 cells"),
    ("..../..../..../..../....", "expected 4 rows of 4 cells"),
    ("..../..../r.../....", "floating stone in column 1"),
    ("..../..../..../yy..", "0 red and 2 yellow"),
    ("..../..../..../rrr.", "3 red and 0 yellow"),
    ("..../..../r.../y...", "cannot be reached"),  # Yellow's stone came first
    ("..../..../rrrr/yyyy", "four in a row for both sides"),
    ("..../y.../y.../rrrr", "has 4 red and 2 yellow"),
    ("y.../y.../yy../rrrr", "a move after four in a row"),
    ("rrrr/yyyy/rrrr/yyyy", "for both sides"),
    ("12a", "expected 4 rows"),
    ("11111", "cannot play move sequence '11111'"),
    ("5", "cannot play move sequence"),
]


@pytest.mark.parametrize(("text", "message"), SMALL_ERRORS)
def test_position_errors(text: str, message: str) -> None:
    game = c4("connect4(width=4,height=4)")
    with pytest.raises(PositionError, match="^[^\n]*" + re.escape(message)) as info:
        game.parse_position(text)
    assert "\n" not in str(info.value)


def test_two_separate_fours_cannot_be_reached() -> None:
    game = c4()
    # Red has a row on the bottom and a column on the right: no single last
    # stone completes both.
    red_two_fours = "......./......./......r/......r/yyy.yyr/rrrryyr"
    with pytest.raises(PositionError, match="cannot be reached"):
        game.parse_position(red_two_fours)
    # One stone may complete a line longer than four.
    seven = game.play(list("1122335566774"))
    assert seven[2] == WON and game.parse_position(game.format_position(seven)) == seven
    assert game.parse_position("1122335566774") == seven


def test_parse_accepts_exactly_the_reachable_positions() -> None:
    """On 4x4, compare with every position reached from the start."""
    game = c4("connect4(width=4,height=4)")
    reached = {game.initial_state()}
    frontier = list(reached)
    while frontier:
        children = {game.result(s, m) for s in frontier for m in game.actions(s)}
        frontier = list(children - reached)
        reached |= children
    boards = {game.format_position(s): s for s in reached}
    rng = random.Random(5)
    for text in islice(boards, 0, None, 50):
        assert game.parse_position(text) == boards[text]
    for _ in range(4000):
        columns = ["".join(rng.choice("ry") for _ in range(rng.randint(0, 4))) for _ in range(4)]
        text = "/".join(
            "".join(col[r] if r < len(col) else "." for col in columns) for r in reversed(range(4))
        )
        try:
            parsed: State | None = game.parse_position(text)
        except PositionError:
            parsed = None
        assert parsed == boards.get(text), text


def test_sizes_are_checked() -> None:
    assert c4().spec() == "connect4(width=7,height=6)"
    assert c4("connect4(9,4)").spec() == "connect4(width=9,height=4)"
    for spec in ["connect4(width=3)", "connect4(height=10)", "connect4(width=x)"]:
        with pytest.raises(ZerosumError):
            zerosum.load(spec)
    with pytest.raises(ZerosumError, match="width must be between 4 and 9"):
        ConnectFour(width=10)


# -- exact values against the published benchmark --------------------------------
def test_benchmark_score_convention() -> None:
    game = c4()
    before = game.play(list("445566"))  # Red wins with its 4th stone, 7 on the board
    assert connect4_score(game, before, WIN - 1) == 22 - 4
    lost = game.play(list("41516"))  # Yellow loses when Red plays its 4th stone
    assert connect4_score(game, lost, -(WIN - 2)) == -(22 - 4)
    small = c4("connect4(width=5,height=4)")  # 20 cells: a win at T stones scores 11 - ceil(T/2)
    assert connect4_score(small, small.play(list("112233")), WIN - 1) == 11 - 4
    with pytest.raises(ValueError, match="not an exact"):
        connect4_score(game, before, 500)
    assert connect4_score(game, before, 0) == 0


def test_exact_values_match_the_benchmark_set() -> None:
    """Test_L3_R1 (end-game positions): every position with at most 10 empty
    cells, and the first 15 with more, solved by the reference alpha-beta and
    converted to the benchmark's score convention."""
    game = c4()
    lines = shared_data("connect4/Test_L3_R1").read_text().splitlines()
    easy = hard = 0
    outcomes = set()
    for line in lines:
        moves, expected = line.split()
        empty = game.cells - len(moves)
        if empty > 10 and hard == 15:
            continue
        state = game.parse_position(moves)
        raw, _ = reference.value(game, state)
        assert connect4_score(game, state, raw) == int(expected), line
        outcomes.add((raw > 0) - (raw < 0))
        if empty > 10:
            hard += 1
        else:
            easy += 1
    assert easy > 500 and hard == 15
    assert outcomes == {-1, 0, 1}


def test_the_python_backend_solves_published_positions() -> None:
    """The Python backend searches Connect Four with the generic node
    function (no pure-Python Connect Four core since issue 26): the first 12
    end-game (L3_R1) and 4 middle-game (L2_R1) positions of the published
    sets get their published scores."""
    from zerosum.search.engine import Engine, EngineOptions
    from zerosum.search.solver import solve

    game = c4()
    for name, count in (("Test_L3_R1", 12), ("Test_L2_R1", 4)):
        lines = shared_data(f"connect4/{name}").read_text().splitlines()[:count]
        for line in lines:
            moves, expected = line.split()
            state = game.parse_position(moves)
            engine: Engine[int] = Engine(game, EngineOptions(backend="python"))
            result = solve(game, state, engine=engine)
            assert connect4_score(game, state, result.score.raw) == int(expected), line
