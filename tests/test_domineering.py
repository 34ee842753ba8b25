"""Domineering: the tutorial's worked example, published outcomes of small
boards, notation, symmetries and the engine hooks."""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Sequence

import pytest
from conftest import shared_data
from support import check_involutive_symmetries, playout_positions

import zerosum
from zerosum.game import MoveError, PositionError, ZerosumError
from zerosum.games.domineering import Domineering, State
from zerosum.search import reference
from zerosum.search.types import WIN, loss_in, win_in

# -- the tutorial's worked example ---------------------------------------------

#: (moves before, depth, the tutorial's best move as (row, col), its value
#: from the mover's view, leaves) on the empty 3x3 board, Vertical first.
TUTORIAL = [
    ((), 1, "(0,1)", 2, 6),
    ((), 2, "(0,1)", 3, 10),
    (("(0,1)",), 1, "(2,0)", -3, 2),
    (("(0,1)",), 2, "(2,0)", -2, 5),
]


def tutorial_best_move(game: Domineering, state: State, depth: int) -> tuple[int, int, int]:
    """The tutorial's get_best_move with alpha-beta, written out: moves tried
    row by row, mobility from the root player's view at the depth limit *and
    wherever the side to move has no move*, a later root move kept only when
    strictly better. Returns (move, value, leaves)."""
    root = game.to_move(state)
    leaves = 0

    def alphabeta(node: State, ply: int, alpha: float, beta: float) -> float:
        nonlocal leaves
        moves = game.actions(node)
        if ply == depth or not moves:
            leaves += 1
            return game.evaluate(node, root)
        if game.to_move(node) == root:
            value = -float("inf")
            for move in moves:
                value = max(value, alphabeta(game.result(node, move), ply + 1, alpha, beta))
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
            return value
        value = float("inf")
        for move in moves:
            value = min(value, alphabeta(game.result(node, move), ply + 1, alpha, beta))
            beta = min(beta, value)
            if alpha >= beta:
                break
        return value

    best_move, best_value = -1, -float("inf")
    for move in game.actions(state):
        value = alphabeta(game.result(state, move), 1, best_value, float("inf"))
        if value > best_value:
            best_move, best_value = move, value
    return best_move, int(best_value), leaves


@pytest.mark.parametrize(("before", "depth", "move", "value", "leaves"), TUTORIAL)
def test_tutorial_rules_give_the_worked_example(
    before: tuple[str, ...], depth: int, move: str, value: int, leaves: int
) -> None:
    game = Domineering(rows=3, cols=3)
    state = game.play(before)
    assert tutorial_best_move(game, state, depth) == (game.parse_move(state, move), value, leaves)


@pytest.mark.parametrize(("before", "depth", "move", "value", "leaves"), TUTORIAL)
def test_reference_alphabeta_reproduces_the_worked_example(
    before: tuple[str, ...], depth: int, move: str, value: int, leaves: int
) -> None:
    """The reference alpha-beta, scoring finished positions by the evaluation
    as the tutorial's code does, gives every figure of the worked example."""
    game = zerosum.load("domineering(rows=3,cols=3,first=vertical)")
    state = game.play(before)
    result = reference.best_move(
        game, state, algorithm="alphabeta", depth=depth, evaluate_terminals=True
    )
    assert result.best_move == game.parse_move(state, move)
    assert game.format_move(result.best_move) == {"(0,1)": "b1", "(2,0)": "a3"}[move]
    assert result.score.raw == value
    assert not result.score.exact
    assert result.stats.leaves == leaves


def test_reference_by_default_scores_no_move_as_a_loss() -> None:
    """Without evaluate_terminals, the end of the game is scored by the rules:
    after b1, Horizontal searching 2 plies. Every reply of Vertical to a3 leaves Horizontal with no
    move. The tutorial scores those positions by mobility (-2 at best), the
    reference (like the rules) as Horizontal's loss two plies on, so a3 is a
    proven loss; and the first such loss already cuts off b3's subtree, so 4
    leaves are scored instead of the tutorial's 5."""
    game = Domineering(rows=3, cols=3)
    state = game.play(["(0,1)"])
    result = reference.best_move(game, state, algorithm="alphabeta", depth=2)
    assert result.best_move == game.parse_move(state, "a3")
    assert result.score.raw == -(WIN - 2)
    assert result.score.exact and result.score.describe() == "loss in 2 plies"
    assert result.stats.leaves == 4
    after = game.play(["a3", "a1"], state)
    assert game.is_terminal(after) and game.evaluate(after, game.to_move(state)) == -2


# -- published outcomes of small boards ----------------------------------------


def solve_first_player_wins(game: Domineering, key: Callable[[State], Hashable]) -> bool:
    """Independent memoized negamax: does the side to move at the start win?
    (Whoever cannot move loses, so a position is won iff some move leads to a
    lost one.)"""
    memo: dict[Hashable, bool] = {}
    actions, result = game.actions, game.result

    def wins(state: State) -> bool:
        k = key(state)
        known = memo.get(k)
        if known is None:
            known = any(not wins(result(state, move)) for move in actions(state))
            memo[k] = known
        return known

    return wins(game.initial_state())


def class_key(game: Domineering) -> Callable[[State], Hashable]:
    """The key of a state's symmetry class."""
    return lambda state: game.canonical(state)[0]


def outcome_class(first_wins: dict[str, bool]) -> str:
    """The table's class from who wins moving first with each side first."""
    vertical_first, horizontal_first = first_wins["vertical"], first_wins["horizontal"]
    if vertical_first and horizontal_first:
        return "1"
    if not vertical_first and not horizontal_first:
        return "2"
    return "V" if vertical_first else "H"


def published_outcomes() -> list[tuple[int, int, str]]:
    path = shared_data("domineering/outcomes_small.csv")
    rows = []
    lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    assert lines[0] == "rows,cols,class"
    for line in lines[1:]:
        r, c, cls = line.split(",")
        assert cls in ("V", "H", "1", "2"), line
        rows.append((int(r), int(c), cls))
    return rows


def test_small_board_outcomes_match_the_published_table() -> None:
    table = published_outcomes()
    assert len(table) >= 40
    limit = sys.getrecursionlimit()
    disagreements = []
    for rows, cols, published in table:
        by_key: dict[str, bool] = {}
        by_class: dict[str, bool] = {}
        by_reference: dict[str, bool] = {}
        for first in ("vertical", "horizontal"):
            game = Domineering(rows=rows, cols=cols, first=first)
            assert rows * cols // 2 + 10 < limit
            by_key[first] = solve_first_player_wins(game, game.key)
            by_class[first] = solve_first_player_wins(game, class_key(game))
            start = game.initial_state()
            if game.is_terminal(start):
                by_reference[first] = False
            else:
                value, _ = reference.value(game, start, algorithm="alphabeta")
                by_reference[first] = value > 0
        assert by_key == by_class == by_reference, (rows, cols)
        if outcome_class(by_key) != published:
            disagreements.append((rows, cols, published, outcome_class(by_key)))
    assert disagreements == []


def test_reference_minimax_agrees_on_the_smallest_boards() -> None:
    for rows, cols in ((2, 2), (2, 3), (3, 3), (2, 4), (3, 4)):
        for first in ("vertical", "horizontal"):
            game = Domineering(rows=rows, cols=cols, first=first)
            minimax, _ = reference.value(game, game.initial_state(), algorithm="minimax")
            alphabeta, _ = reference.value(game, game.initial_state())
            assert minimax == alphabeta
            assert (minimax > 0) == solve_first_player_wins(game, game.key)


# -- rules ---------------------------------------------------------------------


def test_players_depend_on_who_moves_first() -> None:
    vertical_first = Domineering(rows=3, cols=3)
    horizontal_first = zerosum.load("domineering(rows=3,cols=3,first=horizontal)")
    assert vertical_first.player_names == ("Vertical", "Horizontal")
    assert horizontal_first.player_names == ("Horizontal", "Vertical")
    assert horizontal_first.spec() == "domineering(rows=3,cols=3,first=horizontal)"
    assert zerosum.load("domineering").spec() == "domineering(rows=8,cols=8,first=vertical)"
    # Horizontal moves first: its first move is a 1x2 tile.
    start = horizontal_first.initial_state()
    assert horizontal_first.format_position(start) == "H:.../.../..."
    tile = horizontal_first.parse_move(start, "a1")
    assert tile == 0b11
    assert horizontal_first.legal_moves_text(start) == "a1 b1 a2 b2 a3 b3"


def test_moves_in_row_major_order_and_tiles_cover_two_cells() -> None:
    game = Domineering(rows=3, cols=4)
    start = game.initial_state()
    assert game.legal_moves_text(start) == "a1 b1 c1 d1 a2 b2 c2 d2"
    assert game.actions(start) == sorted(game.actions(start))
    after = game.play(["b1"])  # Vertical covers b1 and b2
    assert game.format_position(after) == "H:.#../.#../...."
    assert game.legal_moves_text(after) == "c1 c2 a3 b3 c3"
    assert game.to_move(after) == 1


def test_whoever_cannot_move_loses() -> None:
    game = Domineering(rows=2, cols=2)
    state = game.play(["a1"])  # Vertical covers a1, a2; Horizontal has no 1x2 left
    assert game.is_terminal(state)
    assert game.actions(state) == []
    assert game.utility(state, 0) == 1 and game.utility(state, 1) == -1
    assert game.winner(state) == 0
    one = Domineering(rows=1, cols=1)
    assert game.winner(game.initial_state()) is None
    assert one.is_terminal(one.initial_state()) and one.utility(one.initial_state(), 0) == -1


def test_evaluation_is_the_tutorials_mobility() -> None:
    game = Domineering(rows=3, cols=3)
    assert game.evaluate(game.initial_state(), 0) == 0
    state = game.play(["b1"])
    assert game.evaluate(state, 0) == 4 - 2
    assert game.evaluate(state, 1) == 2 - 4


def test_bad_parameters_are_refused() -> None:
    for spec in ("domineering(rows=0)", "domineering(cols=17)", "domineering(first=diagonal)"):
        with pytest.raises(ZerosumError):
            zerosum.load(spec)
    with pytest.raises(ValueError):
        Domineering(rows=17)
    big = Domineering(rows=16, cols=16)
    assert len(big.actions(big.initial_state())) == 15 * 16
    assert big.format_move(big.actions(big.initial_state())[-1]) == "p15"


# -- notation ------------------------------------------------------------------


def test_moves_read_both_notations() -> None:
    game = Domineering(rows=3, cols=3)
    start = game.initial_state()
    tile = game.parse_move(start, "b1")
    assert tile == 1 << 1 | 1 << 4  # b1 and b2
    for text in ("B1", " b1 ", "(0,1)", "(0, 1)", " ( 0 , 1 ) ", "0,1"):
        assert game.parse_move(start, text) == tile, text
    assert game.format_move(tile) == "b1"
    after = game.result(start, tile)
    horizontal = game.parse_move(after, "(2,1)")
    assert horizontal == 1 << 7 | 1 << 8 and game.format_move(horizontal) == "b3"


def test_move_lists_keep_row_col_pairs_whole() -> None:
    game = Domineering(rows=3, cols=3)
    assert game.split_moves("(0,1) (2, 0), b1,c2") == ["(0,1)", "(2, 0)", "b1", "c2"]
    state = game.play(game.split_moves("(0, 1) (2,0)"))
    assert state == game.play(["b1", "a3"])


@pytest.mark.parametrize(
    ("moves", "text", "words"),
    [
        ((), "zz", "cannot read move 'zz'"),
        ((), "d1", "cannot read move 'd1'"),
        ((), "(3,0)", "cannot read move '(3,0)'"),
        ((), "a3", "Vertical cannot place a tile at a3"),
        (("b1",), "b1", "Horizontal cannot place a tile at b1"),
        (("b1",), "c3", "Horizontal cannot place a tile at c3"),
        (("b1", "a3", "a1"), "c1", "the game is over"),
    ],
)
def test_bad_moves_get_one_line_errors(moves: tuple[str, ...], text: str, words: str) -> None:
    game = Domineering(rows=3, cols=3)
    state = game.play(moves)
    with pytest.raises(MoveError) as caught:
        game.parse_move(state, text)
    message = str(caught.value)
    assert words in message and "\n" not in message
    if not game.is_terminal(state):
        assert game.legal_moves_text(state) in message


def test_position_notation_round_trips_and_keeps_the_side_to_move() -> None:
    game = Domineering(rows=3, cols=4, first="horizontal")
    text = "V:.#../.#../#..#"
    state = game.parse_position(text)
    assert game.format_position(state) == text
    assert game.to_move(state) == 1  # Vertical moves second in this game
    assert game.parse_position(" v:.#../.#../#..# ") == state
    other_side = game.parse_position("H:.#../.#../#..#")
    assert other_side != state and game.key(other_side) != game.key(state)
    assert game.legal_moves_text(state) == "a1 c1 d1 c2"


@pytest.mark.parametrize(
    "text",
    [
        "",
        ".../.../...",
        "X:.../.../...",
        "V.../.../...",
        "V:.../...",
        "V:..../.../...",
        "V:.x./.../...",
    ],
)
def test_bad_positions_are_refused(text: str) -> None:
    game = Domineering(rows=3, cols=3)
    with pytest.raises(PositionError) as caught:
        game.parse_position(text)
    assert "expected" in str(caught.value) and "\n" not in str(caught.value)


def test_render_draws_coordinates_and_the_side_to_move() -> None:
    game = Domineering(rows=3, cols=3)
    picture = game.render(game.play(["b1"]))
    assert picture.splitlines()[:4] == ["   a b c", " 1 . # .", " 2 . # .", " 3 . . ."]
    assert "Horizontal to move" in picture
    assert "Vertical wins" in game.render(game.play(["b1", "a3", "a1"]))


# -- symmetries and engine hooks -----------------------------------------------


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (3, 5), (4, 6), (8, 8), (5, 1)])
def test_symmetries_are_involutions_sharing_one_key(rows: int, cols: int) -> None:
    game = Domineering(rows=rows, cols=cols)
    assert game.symmetry_count() == 4
    check_involutive_symmetries(game, playout_positions(game, 40, rows * 100 + cols))


def test_an_up_down_flip_renames_a_vertical_tile() -> None:
    game = Domineering(rows=3, cols=3)
    a1 = game.parse_move(game.initial_state(), "a1")  # covers a1 and a2
    assert game.format_move(game.map_move(a1, 2)) == "a2"  # covers a2 and a3
    assert game.format_move(game.map_move(a1, 1)) == "c1"
    assert game.format_move(game.map_move(a1, 3)) == "c2"
    state = game.play(["b1"])
    a3 = game.parse_move(state, "a3")  # Horizontal: a3 and b3
    assert game.format_move(game.map_move(a3, 2)) == "a1"
    assert game.format_move(game.map_move(a3, 1)) == "b3"


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (4, 4), (5, 6)])
def test_engine_hooks_agree_with_brute_force(rows: int, cols: int) -> None:
    game = Domineering(rows=rows, cols=cols)

    def loses_at_once(state: State) -> bool:
        return game.is_terminal(state)

    def wins_at_once(state: State, move: int) -> bool:
        return loses_at_once(game.result(state, move))

    checked_wins = checked_safe = 0
    for state in playout_positions(game, 300, rows * cols):
        moves = list(game.actions(state))
        assert sorted(game.ordered_actions(state)) == sorted(moves)
        win = game.winning_action(state)
        winning = [m for m in moves if wins_at_once(state, m)]
        if winning:
            checked_wins += 1
            assert win in winning
        else:
            assert win is None
        safe = game.non_losing_actions(state)
        assert safe is not None
        expected = [
            m
            for m in moves
            if wins_at_once(state, m)
            or not any(
                wins_at_once(game.result(state, m), reply)
                for reply in game.actions(game.result(state, m))
            )
        ]
        assert sorted(safe) == sorted(expected)
        assert list(safe) == [m for m in game.ordered_actions(state) if m in expected]
        checked_safe += len(moves) != len(expected)
    assert checked_wins > 0 and checked_safe > 0


def test_worked_example_from_the_command_line() -> None:
    """The issue's command: the tutorial's search for the AI's move."""
    import json
    import subprocess
    import sys

    def best(moves: str, *extra: str) -> tuple[str, int, int]:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "zerosum",
                "analyze",
                "domineering(rows=3,cols=3)",
                "--moves",
                moves,
                "--algorithm",
                "alphabeta",
                "--depth",
                "2",
                "--multipv",
                "1",
                "--json",
                *extra,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        return data["moves"][0]["move"], data["moves"][0]["score"], data["leaves"]

    assert best("") == ("b1", 3, 10)
    assert best("(0,1)", "--evaluate-terminals") == ("a3", -2, 5)
    assert best("(0, 1)", "--evaluate-terminals") == ("a3", -2, 5)


# -- move ordering ---------------------------------------------------------------


def tie_rank(game: Domineering, tile: int) -> tuple[int, int, int]:
    """The tie-break key of a tile, worked out from its cells: its class
    from how far its line is from the nearest edge line and how far it is
    from the nearer end of its line (odd lines first, then even lines inside
    the board, edge lines last; an even distance from the end first), then
    those two distances (nearer the edges first)."""
    first = (tile & -tile).bit_length() - 1
    second = tile.bit_length() - 1
    (r1, c1), (r2, c2) = divmod(first, game.cols), divmod(second, game.cols)
    if c1 == c2:  # Vertical: its line is column c1, it spans rows r1, r2
        line = min(c1, game.cols - 1 - c1)
        place = min(r1, game.rows - 1 - r2)
    else:
        line = min(r1, game.rows - 1 - r1)
        place = min(c1, game.cols - 1 - c2)
    rank = 4 if line == 0 else (0 if line % 2 else 2) + place % 2
    return rank, line, place


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (4, 6), (6, 4), (7, 7), (2, 6), (6, 2), (5, 8)])
def test_tiles_that_take_most_opponent_placements_come_first(rows: int, cols: int) -> None:
    """Counted tile by tile: the opponent's legal tiles that share a cell
    with ours; most first, then by place (class, line, distance from the
    end), then row-major."""
    for first in ("vertical", "horizontal"):
        game = Domineering(rows=rows, cols=cols, first=first)
        seen_ties = 0
        for state in playout_positions(game, 150, rows * 31 + cols):
            moves = list(game.actions(state))
            theirs = game.actions((state[0], 1 - state[1]))

            def taken(tile: int, theirs: Sequence[int] = theirs) -> int:
                return sum(1 for other in theirs if other & tile)

            expected = sorted(
                moves, key=lambda tile: (-taken(tile), tie_rank(game, tile), tile.bit_length())
            )
            assert list(game.ordered_actions(state)) == expected
            counts = [taken(tile) for tile in expected]
            seen_ties += len(set(counts)) < len(counts)
            assert all(0 <= count <= 4 for count in counts)
        assert seen_ties > 0


def test_place_classes_on_a_board() -> None:
    """Horizontal's place classes on an empty 5x6 board, by named cell
    (the last column names no tile), and the order they give."""
    game = Domineering(rows=5, cols=6, first="horizontal")
    ranks = [
        "".join(str(tie_rank(game, 0b11 << (r * 6 + c))[0]) if c < 5 else "." for c in range(6))
        for r in range(5)
    ]
    assert ranks == ["44444.", "01010.", "23232.", "01010.", "44444."]
    order = [game.format_move(m) for m in game.ordered_actions(game.initial_state())]
    # Tiles in rows 2-4 take 4 of Vertical's placements, on the edges 2:
    # rows 2 and 4 at even places first (at the ends of the row before c),
    # then their odd places, then row 3; then the edge rows, ends first.
    assert order[:10] == ["a2", "e2", "a4", "e4", "c2", "c4", "b2", "d2", "b4", "d4"]
    assert order[10:15] == ["a3", "e3", "c3", "b3", "d3"]
    assert order[15:19] == ["a1", "e1", "a5", "e5"]


def test_ordering_on_a_worked_example() -> None:
    """Horizontal to move on a 3x4 board after Vertical's b1. Vertical can
    still place a1, a2, c1, c2, d1, d2. Horizontal's c2 (with d2) overlaps
    c1, c2, d1, d2 (4); c1 overlaps c1, d1 (2); c3 overlaps c2, d2 (2); a3
    overlaps a2 (1); b3 overlaps c2 (1)."""
    game = Domineering(rows=3, cols=4)
    state = game.play(["b1"])
    assert game.legal_moves_text(state) == "c1 c2 a3 b3 c3"
    assert [game.format_move(m) for m in game.ordered_actions(state)] == [
        "c2",
        "c1",
        "c3",
        "a3",
        "b3",
    ]


# -- the static bound --------------------------------------------------------------


def exact_values(game: Domineering, states: Sequence[State]) -> dict[State, tuple[bool, int]]:
    """The exact value of each state and of everything reachable from it:
    (the side to move wins, plies to the end with the winner hurrying and
    the loser delaying). Independent memoized minimax."""
    memo: dict[State, tuple[bool, int]] = {}

    def value(state: State) -> tuple[bool, int]:
        known = memo.get(state)
        if known is not None:
            return known
        wins: list[int] = []
        losses: list[int] = []
        for move in game.actions(state):
            won, plies = value(game.result(state, move))
            (wins if won else losses).append(plies)
        if losses:
            known = (True, min(losses) + 1)
        elif wins:
            known = (False, max(wins) + 1)
        else:
            known = (False, 0)
        memo[state] = known
        return known

    for state in states:
        value(state)
    return memo


def every_position(game: Domineering) -> list[State]:
    """Every set of covered cells with either side to move."""
    return [(occupied, player) for occupied in range(1 << game.cells) for player in (0, 1)]


def check_bound_claims(game: Domineering, values: dict[State, tuple[bool, int]]) -> int:
    """Every claim of static_bound holds: its side, and its distance as an
    upper bound on the exact one. Returns how many positions it decided."""
    decided = 0
    for state, (wins, plies) in values.items():
        bound = game.static_bound(state)
        if bound:
            decided += 1
            assert (bound > 0) == wins, (game.format_position(state), bound, wins, plies)
            assert plies <= abs(bound), (game.format_position(state), bound, plies)
        if game.is_terminal(state):
            assert bound == 0
    return decided


@pytest.mark.parametrize(
    ("rows", "cols"), [(3, 3), (3, 4), (4, 3), (2, 7), (7, 2), (3, 5), (1, 12), (4, 4)]
)
def test_static_bound_is_sound_on_every_position(rows: int, cols: int) -> None:
    """Every covering of the board, each side to move (irregular boards and
    positions no game reaches included)."""
    game = Domineering(rows=rows, cols=cols)
    states = every_position(game)
    values = exact_values(game, states)
    decided = check_bound_claims(game, values)
    assert decided > len(states) // 4


@pytest.mark.parametrize(("rows", "cols"), [(4, 5), (5, 4), (3, 6), (6, 3), (2, 9)])
def test_static_bound_is_sound_on_every_reachable_position(rows: int, cols: int) -> None:
    for first in ("vertical", "horizontal"):
        game = Domineering(rows=rows, cols=cols, first=first)
        values = exact_values(game, [game.initial_state()])
        assert len(values) > 180
        assert check_bound_claims(game, values) > len(values) // 3


@pytest.mark.parametrize(("rows", "cols"), [(6, 6), (7, 7), (8, 8), (5, 9), (4, 16)])
def test_static_bound_is_sound_late_in_larger_games(rows: int, cols: int) -> None:
    """Positions of random games with at most 20 empty cells, and everything
    reachable from them, on boards too large to enumerate."""
    game = Domineering(rows=rows, cols=cols)
    roots = [
        state
        for state in playout_positions(game, 4000, rows * cols)
        if game.cells - state[0].bit_count() <= 20
    ][::7]
    assert len(roots) >= 20
    values = exact_values(game, roots)
    assert check_bound_claims(game, values) > 0


def test_exact_values_agree_with_the_reference_search() -> None:
    """The memoized minimax the soundness tests trust gives the reference
    alpha-beta's values (distance included) on a sample."""
    game = Domineering(rows=3, cols=4, first="horizontal")
    values = exact_values(game, [game.initial_state()])
    for state in list(values)[::9]:
        wins, plies = values[state]
        expected = win_in(plies) if wins else loss_in(plies)
        assert reference.value(game, state)[0] == expected


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        # Vertical to move has two safe moves (a1-a2 and d1-d2: Horizontal
        # can never cover those cells) against Horizontal's one possible
        # move (a4-b4): a win within 2*1 + 1 plies.
        ("V:.##./.##./####/..#.", 3),
        # Horizontal's protective area a1-b2 (the top edge is its wall):
        # playing a2-b2 leaves a1-b1 safe and takes a move from each of
        # Vertical's columns a and b. With the safe move c3-d3 that
        # outweighs Vertical's 2 possible moves: a win within 5 plies.
        ("H:..##/..##/....", 5),
        # The empty 3x4 board, Vertical to move: Horizontal's two areas
        # (a1-b2 and c1-d2) answer Vertical's 4 possible moves, so Vertical
        # loses (the published class of 3x4 is H) within 8 plies.
        ("V:..../..../....", -8),
        # Horizontal to move wins the empty 3x4 board, but the counts cannot
        # tell yet.
        ("H:..../..../....", 0),
    ],
)
def test_static_bound_on_hand_made_positions(text: str, bound: int) -> None:
    game = Domineering(rows=text.count("/") + 1, cols=len(text.split("/")[0]) - 2)
    state = game.parse_position(text)
    assert game.static_bound(state) == bound
    wins, plies = exact_values(game, [state])[state]
    assert bound == 0 or ((bound > 0) == wins and plies <= abs(bound))
