"""Othello: perft against published counts, the published drawn line of the
weak solution of 8x8 Othello, 4x4 solved, passes, notation, symmetries."""

from __future__ import annotations

import random
import time
from collections.abc import Hashable

import pytest
from support import check_involutive_symmetries, playout_positions

import zerosum
from zerosum.game import MoveError, PositionError, ZerosumError
from zerosum.games.othello import FASTEST_FIRST, PASS, W_CORNER, Othello, State
from zerosum.search import reference
from zerosum.search.perft import divide, perft

#: Published perft counts from the 8x8 start, depths 1..9 (a pass is a ply).
PERFT_8X8 = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]
#: Depths the unit test checks (the rest: benchmarks/bench_othello_perft.py).
PERFT_TESTED = 7

#: The drawn line published with the 2023 weak solution of 8x8 Othello
#: (Takizawa): perfect play from the start ends 32-32.
DRAWN_LINE = (
    "F5 D6 C3 D3 C4 F4 F6 F3 E6 E7 D7 C5 B6 D8 C6 C7 D2 B5 A5 A6 A7 G5 E3 B4 C8 G6 G4 C2 E8 D1"
    " F7 E2 G3 H4 F1 E1 F2 G1 B1 F8 G8 B3 H3 B2 H5 B7 A3 A4 A1 A2 C1 H2 H1 G2 B8 A8 G7 H8 H7 H6"
)

#: Black has no legal square (reached by e6 f6 g6 g7 g8 f4 e3 h6 c4 c3 b2 f8 g3 h8);
#: White has moves, so Black must pass.
BLACK_MUST_PASS = "---------X--------X-X-X---XXXX-----XX-------XXOO------O------OOO X"
#: Neither side can move with empty squares left: Black a1, White the centre.
STUCK = "X--------------------------OO------OO--------------------------- X"

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


# -- an independent, plain implementation of the rules ------------------------------


def naive_flips(size: int, mine: set[int], theirs: set[int], square: int) -> set[int]:
    """The discs a disc on ``square`` flips, by walking each direction."""
    if square in mine or square in theirs:
        return set()
    r0, c0 = divmod(square, size)
    flipped: set[int] = set()
    for dr, dc in DIRECTIONS:
        line = []
        r, c = r0 + dr, c0 + dc
        while 0 <= r < size and 0 <= c < size and r * size + c in theirs:
            line.append(r * size + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < size and 0 <= c < size and r * size + c in mine:
            flipped.update(line)
    return flipped


def bits_to_set(bits: int) -> set[int]:
    return {sq for sq in range(bits.bit_length()) if bits >> sq & 1}


def naive_moves(size: int, mine: set[int], theirs: set[int]) -> list[int]:
    return [sq for sq in range(size * size) if naive_flips(size, mine, theirs, sq)]


@pytest.mark.parametrize("size", [4, 6, 8])
def test_moves_and_flips_agree_with_a_plain_implementation(size: int) -> None:
    game = Othello(size)
    rng = random.Random(size)
    passes = ends = 0
    for _ in range(30):
        state = game.initial_state()
        while not game.is_terminal(state):
            mine, theirs = bits_to_set(state[0]), bits_to_set(state[1])
            squares = naive_moves(size, mine, theirs)
            if squares:
                assert list(game.actions(state)) == squares
            else:
                assert naive_moves(size, theirs, mine)  # else the game would be over
                assert list(game.actions(state)) == [PASS]
                passes += 1
            move = rng.choice(list(game.actions(state)))
            after = game.result(state, move)
            if move == PASS:
                assert (after[0], after[1]) == (state[1], state[0])
            else:
                flipped = naive_flips(size, mine, theirs, move)
                assert bits_to_set(after[1]) == mine | flipped | {move}
                assert bits_to_set(after[0]) == theirs - flipped
            assert game.to_move(after) == 1 - game.to_move(state)
            state = after
        assert not naive_moves(size, bits_to_set(state[0]), bits_to_set(state[1]))
        assert not naive_moves(size, bits_to_set(state[1]), bits_to_set(state[0]))
        ends += 1
    assert ends == 30 and (passes > 0 or size == 8)


# -- published figures ---------------------------------------------------------------


def test_perft_from_the_start_matches_published_counts() -> None:
    game = zerosum.load("othello")
    start = game.initial_state()
    counts = [perft(game, start, depth) for depth in range(1, PERFT_TESTED + 1)]
    assert counts == PERFT_8X8[:PERFT_TESTED]
    split = divide(game, start, 3)
    assert [game.format_move(m) for m, _ in split] == ["d3", "c4", "f5", "e6"]
    assert [n for _, n in split] == [14, 14, 14, 14]


def test_the_published_drawn_line_replays_to_32_32() -> None:
    game = Othello()
    moves = DRAWN_LINE.split()
    assert len(moves) == 60
    state = game.play(moves)
    assert game.is_terminal(state)
    assert game.disc_counts(state) == (32, 32)
    assert game.utility(state, 0) == game.utility(state, 1) == 0
    assert game.winner(state) is None
    assert game.play(DRAWN_LINE.lower().split()) == state
    assert game.play(game.split_moves(DRAWN_LINE.replace(" ", ""))) == state
    # No pass was needed: every prefix leaves the mover a square.
    prefix = game.initial_state()
    for text in moves[:-1]:
        prefix = game.result(prefix, game.parse_move(prefix, text))
        assert game.actions(prefix) != [PASS]
    with pytest.raises(MoveError, match="game is over"):
        game.play(["pass"], state)


def solve_disc_difference(game: Othello) -> tuple[int, int]:
    """Independent memoized negamax over the whole game: the final disc
    difference (mover minus opponent) with perfect play from the start, and
    the number of positions solved."""
    memo: dict[Hashable, int] = {}

    def negamax(state: State) -> int:
        key = game.key(state)
        known = memo.get(key)
        if known is None:
            moves = game.actions(state)
            if not moves:
                known = state[0].bit_count() - state[1].bit_count()
            else:
                known = max(-negamax(game.result(state, move)) for move in moves)
            memo[key] = known
        return known

    return negamax(game.initial_state()), len(memo)


def test_4x4_othello_is_a_win_for_white() -> None:
    game = zerosum.load("othello(size=4)")
    assert isinstance(game, Othello)
    started = time.perf_counter()
    difference, positions = solve_disc_difference(game)
    seconds = time.perf_counter() - started
    # Black, to move at the start, ends 8 discs behind (3-11, as published).
    assert difference == -8
    assert positions > 10_000
    print(f"4x4 Othello solved: {positions} positions in {seconds:.2f} s")
    value, _ = reference.value(game, game.initial_state())
    assert value < 0 and abs(value) > 900_000  # a proven loss for Black


# -- passes and the end ------------------------------------------------------------


def test_a_side_with_no_move_must_pass() -> None:
    game = Othello()
    state = game.play("e6 f6 g6 g7 g8 f4 e3 h6 c4 c3 b2 f8 g3 h8".split())
    assert state == game.parse_position(BLACK_MUST_PASS)
    assert game.to_move(state) == 0 and not game.is_terminal(state)
    assert game.actions(state) == [PASS]
    assert game.ordered_actions(state) == [PASS]
    for text in ("pass", "PASS", " Pass "):
        assert game.parse_move(state, text) == PASS
    assert game.format_move(PASS) == "pass"
    with pytest.raises(MoveError, match="must pass"):
        game.parse_move(state, "a1")
    after = game.result(state, PASS)
    assert game.to_move(after) == 1
    assert game.disc_counts(after) == game.disc_counts(state) == (12, 6)
    assert PASS not in game.actions(after) and game.actions(after)
    with pytest.raises(MoveError, match="cannot pass"):
        game.parse_move(after, "pass")
    assert "must pass" in game.render(state)
    assert perft(game, state, 1) == 1
    assert perft(game, state, 2) == len(game.actions(after))


def test_the_game_ends_when_neither_side_can_move() -> None:
    game = Othello()
    state = game.parse_position(STUCK)
    assert game.is_terminal(state) and game.actions(state) == []
    assert game.disc_counts(state) == (1, 4)
    assert game.utility(state, 0) == -1 and game.utility(state, 1) == 1
    assert game.winner(state) == 1
    assert "White wins" in game.render(state)
    with pytest.raises(MoveError, match="game is over"):
        game.parse_move(state, "pass")


# -- notation ---------------------------------------------------------------------------


def test_start_positions_of_each_size() -> None:
    expected = {4: "a2 b1 c4 d3", 6: "c2 b3 e4 d5", 8: "d3 c4 f5 e6"}
    for size, moves in expected.items():
        game = zerosum.load(f"othello(size={size})")
        start = game.initial_state()
        assert sorted(game.legal_moves_text(start).split()) == sorted(moves.split())
        board, side = game.format_position(start).split()
        assert (board.count("X"), board.count("O"), side) == (2, 2, "X")
        assert game.spec() == f"othello(size={size})"
    assert Othello().format_position(Othello().initial_state()) == (
        "---------------------------OX------XO--------------------------- X"
    )


@pytest.mark.parametrize("spec", ["othello(size=5)", "othello(size=10)", "othello(size=2)"])
def test_other_sizes_are_refused(spec: str) -> None:
    with pytest.raises(ZerosumError, match="size"):
        zerosum.load(spec)


def test_position_notation_round_trips_and_reads_variants() -> None:
    game = Othello()
    state = game.play(["f5", "f6", "e6"])
    text = game.format_position(state)
    assert text.endswith(" O")
    assert game.parse_position(text) == state
    assert game.parse_position(text.lower() + ";") == state
    rows = "/".join(text[i : i + 8] for i in range(0, 64, 8))
    assert game.parse_position(rows.replace("-", ".") + " white") == state
    assert game.parse_position(text.replace("X", "b").replace("O", "w")) == state


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "expected"),
        ("X" * 64, "expected"),
        ("-" * 64 + " Z", "bad side"),
        ("-" * 63 + " X", "63 squares"),
        ("-" * 27 + "OX------XO" + "-" * 26 + "Q X", "bad square"),
        ("-" * 64 + " X", "centre"),
    ],
)
def test_bad_positions_are_refused(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words) as caught:
        Othello().parse_position(text)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("i1", "cannot read"),
        ("a9", "cannot read"),
        ("f55", "cannot read"),
        ("xyzzy", "cannot read"),
        ("d4", "taken"),
        ("a1", "flip nothing"),
        ("pass", "cannot pass"),
    ],
)
def test_bad_moves_get_one_line_errors(text: str, words: str) -> None:
    game = Othello()
    start = game.initial_state()
    with pytest.raises(MoveError, match=words) as caught:
        game.parse_move(start, text)
    message = str(caught.value)
    assert "\n" not in message and "d3 c4 f5 e6" in message


def test_moves_are_read_in_any_case_and_written_in_lower_case() -> None:
    game = Othello()
    start = game.initial_state()
    assert game.parse_move(start, "F5") == game.parse_move(start, "f5") == 5 + 4 * 8
    assert game.format_move(game.parse_move(start, " F5 ")) == "f5"
    four = Othello(4)
    with pytest.raises(MoveError, match=r"a1\.\.d4"):
        four.parse_move(four.initial_state(), "e1")


def test_move_lists_may_run_squares_together() -> None:
    game = Othello()
    assert game.split_moves("f5d6C3 d3, pass e1") == ["f5", "d6", "C3", "d3", "pass", "e1"]
    assert game.split_moves("f5d") == ["f5d"]  # not a run of squares: left for parse_move


def test_render_draws_coordinates_counts_and_legal_squares() -> None:
    game = Othello()
    lines = game.render(game.initial_state()).splitlines()
    assert lines[0] == "   a b c d e f g h"  # as moves are typed
    assert lines[4] == " 4 . . * O X . . ."
    assert lines[5] == " 5 . . . X O * . ."
    assert lines[-1] == "Black (X) 2, White (O) 2; Black to move (* legal)"
    assert "Black (X) 4, White (O) 1" in game.render(game.play(["f5"]))


# -- evaluation, symmetries, ordering --------------------------------------------------


@pytest.mark.parametrize("size", [4, 6, 8])
def test_evaluation_is_antisymmetric_and_bounded(size: int) -> None:
    game = Othello(size)
    assert game.evaluate(game.initial_state(), 0) == 0
    values = set()
    for state in playout_positions(game, 300, size):
        value = game.evaluate(state, 0)
        assert value == -game.evaluate(state, 1)
        assert abs(value) < 10_000
        values.add(value)
    assert len(values) > 10


def test_evaluation_prefers_corners() -> None:
    game = Othello()
    # Two positions that differ only by a Black disc on a1 (which changes
    # neither side's moves).
    base = "-" * 27 + "OX------XO" + "-" * 27
    with_corner = game.parse_position("X" + base[1:] + " O")
    without = game.parse_position(base + " O")
    assert game.evaluate(with_corner, 0) - game.evaluate(without, 0) == W_CORNER


@pytest.mark.parametrize("size", [4, 6, 8])
def test_symmetries_are_involutions_sharing_one_key(size: int) -> None:
    game = Othello(size)
    assert game.symmetry_count() == 4
    start = game.initial_state()
    for t in range(4):
        assert game.transform(start, t) == start
    check_involutive_symmetries(game, playout_positions(game, 60, size))


def test_transforms_are_the_diagonals_and_the_half_turn() -> None:
    game = Othello()
    f5 = game.parse_move(game.initial_state(), "f5")
    assert [game.format_move(game.map_move(f5, t)) for t in range(4)] == ["f5", "e6", "d3", "c4"]
    assert game.map_move(PASS, 2) == PASS


def test_ordered_actions_put_corners_first_and_x_squares_last() -> None:
    game = Othello()
    for state in playout_positions(game, 300, 1):
        moves = list(game.actions(state))
        ordered = list(game.ordered_actions(state))
        assert sorted(ordered) == sorted(moves)
        if game.informed_order(state):
            continue  # the endgame's fastest-first order: the next test
        names = [game.format_move(m) for m in ordered]
        corners = [i for i, n in enumerate(names) if n in ("a1", "h1", "a8", "h8")]
        x_squares = [i for i, n in enumerate(names) if n in ("b2", "g2", "b7", "g7")]
        if corners:
            assert corners == list(range(len(corners)))
        if x_squares:
            assert x_squares == list(range(len(names) - len(x_squares), len(names)))


def test_endgame_moves_come_fastest_first() -> None:
    """With at most FASTEST_FIRST empty squares, moves are ordered by how
    many replies they leave the opponent (fewest first), counted here by
    playing each move and listing the opponent's moves."""
    game = Othello()
    seen = 0
    for state in playout_positions(game, 2000, 3):
        empty = game.cells - (state[0] | state[1]).bit_count()
        if empty > FASTEST_FIRST or len(game.actions(state)) < 2:
            continue
        assert game.informed_order(state)
        replies = []
        for move in game.ordered_actions(state):
            child = game.result(state, move)
            replies.append(len([m for m in game.actions(child) if m != PASS]))
        assert replies == sorted(replies)
        seen += 1
    assert seen > 50
