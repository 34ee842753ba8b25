"""The conformance suite, for built-in games and your own.

``check_game(game)`` plays seeded random games and checks every promise of
the protocol that the game makes: the rules (moves exist exactly until the
end, utilities in {-1, 0, 1} summing to zero, ``result`` never changes its
input), and each optional layer the game implements (notation round-trips,
search hints agree with brute force, symmetries map positions and moves
consistently, a board places each move where it acts, the evaluation is
antisymmetric). The first broken
promise raises :class:`ConformanceError` with one line saying what and where:
the check, the method (when one raised or returned the wrong kind of value)
and the position. Every check is bounded in positions and moves (a list of
moves is read up to :data:`MAX_MOVES`), never in seconds.

>>> import zerosum
>>> from zerosum.testing import check_game
>>> check_game(zerosum.load("tictactoe"))   # silent when all is well

Run it on your own game in a test (see the README's "Adding your own game").
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

from .game import Board, Game, excerpt

#: The checks, in order: name and function.
Check = Callable[[Game[Any, Any], list[list[tuple[Any, Any]]]], None]


class ConformanceError(AssertionError):
    """A promise of the protocol that a game breaks (one line: which check,
    the position and the move)."""


#: The most moves read from one call of ``actions`` (or ``ordered_actions``,
#: ``non_losing_actions``): an endless iterable is a broken promise, not a hang.
MAX_MOVES = 100_000

#: Methods whose first argument is a position (named in a failure).
_STATE_FIRST = frozenset({
    "actions", "result", "is_terminal", "utility", "to_move", "format_position",
    "ordered_actions", "key", "winning_action", "non_losing_actions", "plies_left",
    "canonical", "transform", "board", "move_cells", "parse_move", "render", "evaluate",
    "opening_scores",
})  # fmt: skip
_MOVE_LISTS = frozenset({"actions", "ordered_actions", "non_losing_actions"})


class _Guarded:
    """The game as a check sees it: a method that raises becomes a
    :class:`ConformanceError` naming the check, the method and the position;
    a list of moves is read whole (at most :data:`MAX_MOVES`)."""

    def __init__(self, game: Game[Any, Any], check: str) -> None:
        self._game = game
        self._check = check
        #: The latest position a method was asked about (named in failures).
        self._position: Any = None

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._game, name)
        if not callable(value) or name.startswith("__"):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            if args and name in _STATE_FIRST:
                self._position = args[0]
            try:
                answer = value(*args, **kwargs)
                if name in _MOVE_LISTS and answer is not None:
                    answer = _read_moves(answer)
            except ConformanceError:
                raise
            except Exception as error:  # the user's code: name it, don't trace back
                self.fail(f"{name}() raised {type(error).__name__}: {excerpt(error, 80)}")
            return answer

        return call

    def fail(self, what: str) -> None:
        _fail(self, what, self._position)


def _read_moves(moves: Any) -> list[Any]:
    listed = list(itertools.islice(iter(moves), MAX_MOVES + 1))
    if len(listed) > MAX_MOVES:
        raise ValueError(f"more than {MAX_MOVES:,} moves (an endless iterable?)")
    return listed


def check_game(
    game: Game[Any, Any], *, playouts: int = 12, seed: int | str = 0, max_plies: int = 1000
) -> None:
    """Run every conformance check on ``game`` over ``playouts`` seeded random
    games of at most ``max_plies`` plies. Raises :class:`ConformanceError`
    at the first broken promise (also for an exception the game raised, or a
    value of the wrong kind it returned: one line naming the check, the
    method and the position); returns None when all hold."""
    records = _guarded(game, "playouts", lambda g: playout_records(g, playouts, seed, max_plies))
    for check in CHECKS:
        name = check.__name__.removeprefix("check_")
        _guarded(game, name, lambda g, run=check: run(g, records))  # type: ignore[misc]


def _guarded(game: Game[Any, Any], name: str, run: Callable[[Any], Any]) -> Any:
    guard = _Guarded(game, name)
    try:
        return run(guard)
    except ConformanceError:
        raise
    except RecursionError:
        guard.fail("a method recursed without end")
    except Exception as error:  # a method's answer the check could not use
        guard.fail(
            f"a method returned a value of the wrong kind ({type(error).__name__}:"
            f" {excerpt(error, 80)})"
        )


def playout_records(
    game: Game[Any, Any], count: int, seed: int | str = 0, max_plies: int = 1000
) -> list[list[tuple[Any, Any]]]:
    """Seeded random games, each a list of ``(state, move)`` pairs ending
    with ``(final state, None)``."""
    rng = random.Random(f"{game.spec()}:{seed}")
    games = []
    for _ in range(count):
        state = game.initial_state()
        record: list[tuple[Any, Any]] = []
        for _ply in range(max_plies):
            moves = list(game.actions(state))
            if not moves:
                break
            move = rng.choice(moves)
            record.append((state, move))
            state = game.result(state, move)
        record.append((state, None))
        games.append(record)
    return games


def _fail(game: Any, what: str, state: Any = None, move: Any = None) -> None:
    """Raise the one-line :class:`ConformanceError`: the game, the check
    (when run by :func:`check_game`), what is wrong, the position and move."""
    check = ""
    if isinstance(game, _Guarded):
        game, check = game._game, f"check {game._check}: "
    where = ""
    if state is not None:
        try:
            where = f" at {excerpt(game.format_position(state), 80)}"
        except Exception:  # the notation itself may be what is broken
            where = f" at {excerpt(repr(state), 80)}"
    if move is not None:
        where += f", move {excerpt(repr(move), 40)}"
    try:
        spec = str(game.spec())
    except Exception:
        spec = type(game).__name__
    raise ConformanceError(f"{spec}: {check}{what}{where}".replace("\n", "\\n"))


def _overrides(game: Game[Any, Any], name: str) -> bool:
    inner = game._game if isinstance(game, _Guarded) else game
    return getattr(type(inner), name) is not getattr(Game, name)


# -- the rules -----------------------------------------------------------------
def check_moves_until_the_end(game: Game[Any, Any], records: list[list[tuple[Any, Any]]]) -> None:
    """Legal moves are non-empty exactly when the state is not terminal, and
    every game ends."""
    for record in records:
        for state, _move in record:
            terminal = game.is_terminal(state)
            if terminal not in (True, False):
                _fail(game, f"is_terminal must return True or False, got {terminal!r}", state)
            if bool(game.actions(state)) == terminal:
                _fail(game, "actions must be empty exactly at terminal states", state)
            if game.to_move(state) not in (0, 1):
                _fail(game, "to_move must be 0 or 1", state)
            if any(move is None for move in game.actions(state)):
                _fail(game, "actions must not hold None (None means no move)", state)
        if not game.is_terminal(record[-1][0]):
            _fail(game, "a random game did not end within the ply limit")


def check_utilities(game: Game[Any, Any], records: list[list[tuple[Any, Any]]]) -> None:
    """Terminal utilities are -1, 0 or +1 and the two players' sum to zero."""
    for record in records:
        final = record[-1][0]
        first, second = game.utility(final, 0), game.utility(final, 1)
        if first not in (-1, 0, 1) or first + second != 0:
            _fail(game, f"utilities {first}, {second} must be in -1..1 and sum to 0", final)


def check_result_is_pure(game: Game[Any, Any], records: list[list[tuple[Any, Any]]]) -> None:
    """``result`` returns a new, hashable state and never changes its input."""
    for record in records[:4]:
        for state, move in record[:-1]:
            before = copy.deepcopy(state)
            try:
                key = hash(state)
            except TypeError:
                _fail(game, "states must be immutable and hashable", before)
            after = game.result(state, move)
            if state != before or hash(state) != key:
                _fail(game, "result changed its input state", before, move)
            if after == state:
                _fail(game, "result returned the same state", state, move)


def check_mover_wins_only(game: Game[Any, Any], records: list[list[tuple[Any, Any]]]) -> None:
    """A game declaring ``mover_wins_only`` alternates turns and never ends
    with a loss for the player who moved last."""
    if not game.mover_wins_only:
        return
    for record in records:
        for (state, move), (after, _next) in itertools.pairwise(record):
            if game.to_move(after) == game.to_move(state):
                _fail(game, "mover_wins_only needs alternating turns", state, move)
        if len(record) >= 2:
            (last, move), (final, _n) = record[-2], record[-1]
            if game.utility(final, game.to_move(last)) < 0:
                _fail(game, "mover_wins_only, but the last mover lost", last, move)


# -- notation -------------------------------------------------------------------
def check_notation(game: Game[Any, Any], records: list[list[tuple[Any, Any]]]) -> None:
    """Moves round-trip through ``format_move``/``parse_move``; positions
    through ``format_position``/``parse_position`` when the game reads
    positions; the spec through ``zerosum.load`` for a registered game."""
    reads_positions = _overrides(game, "parse_position")
    for record in records[:4]:
        for state, _move in record:
            if reads_positions:
                text = game.format_position(state)
                if game.parse_position(text) != state:
                    _fail(game, f"parse_position(format_position(s)) != s for {text[:60]!r}")
            for move in game.actions(state):
                written = game.format_move(move)
                if game.parse_move(state, written) != move:
                    _fail(game, f"parse_move(format_move(m)) != m for {written!r}", state)


# -- search hints -----------------------------------------------------------------
def _wins_at_once(game: Game[Any, Any], state: Any, move: Any) -> bool:
    child = game.result(state, move)
    return bool(game.is_terminal(child) and game.utility(child, game.to_move(state)) == 1)


def check_search_hints(game: Game[Any, Any], records: list[list[tuple[Any, Any]]]) -> None:
    """``winning_action`` names only moves that win at once (all of them
    when the game also gives ``non_losing_actions``); ``non_losing_actions``
    is exactly the moves after which the opponent cannot win at once;
    ``ordered_actions`` is a permutation of ``actions``; ``key`` is equal
    for equal states; ``plies_left`` is never less than the plies a game
    really went on."""
    knows_wins = _overrides(game, "winning_action")
    for record in records:
        for index, (state, _move) in enumerate(record):
            bound = game.plies_left(state)
            if bound is not None and bound < len(record) - 1 - index:
                _fail(game, f"plies_left said {bound}, but the game went on longer", state)
    seen: dict[Any, Any] = {}
    for record in records[:4]:
        for state, _move in record[:-1]:
            moves = list(game.actions(state))
            ordered = list(game.ordered_actions(state))
            if sorted(map(repr, ordered)) != sorted(map(repr, moves)):
                _fail(game, "ordered_actions must be a permutation of actions", state)
            key = game.key(state)
            try:
                hash(key)
            except TypeError:
                _fail(game, f"key must be hashable, got a {type(key).__name__}", state)
            if game.key(copy.deepcopy(state)) != key:
                _fail(game, "equal states must have equal keys", state)
            if seen.setdefault(key, state) != state:
                _fail(game, "different positions must have different keys", state)
            win = game.winning_action(state)
            if win is not None:
                if win not in moves or not _wins_at_once(game, state, win):
                    _fail(game, "winning_action named a move that does not win", state, win)
                continue
            if knows_wins and any(_wins_at_once(game, state, m) for m in moves):
                _fail(game, "winning_action missed a winning move", state)
            safe = game.non_losing_actions(state)
            if safe is None:
                continue
            expected = set()
            for move in moves:
                child = game.result(state, move)
                if game.is_terminal(child) or not any(
                    _wins_at_once(game, child, reply) for reply in game.actions(child)
                ):
                    expected.add(move)
            if set(safe) != expected or len(safe) != len(set(safe)):
                _fail(game, "non_losing_actions differs from brute force", state)


#: The bound a heuristic evaluation must stay strictly within (the proven
#: scores start beyond it; see :meth:`zerosum.game.Game.evaluate`).
EVALUATION_BOUND = 1_000_000 - 10_000


def check_evaluation(game: Game[Any, Any], records: list[list[tuple[Any, Any]]]) -> None:
    """``evaluate`` is a whole number strictly within +-990,000 and
    antisymmetric: its value for one player is minus its value for the
    other, at every position of the random games (the engine scores for
    the side to move, the reference alpha-beta for the root player; only
    an antisymmetric evaluation makes them agree)."""
    if not _overrides(game, "evaluate"):
        return
    for record in records:
        for state, _move in record:
            first, second = game.evaluate(state, 0), game.evaluate(state, 1)
            for value in (first, second):
                if isinstance(value, bool) or not isinstance(value, int):
                    _fail(game, f"evaluate must return an int, got {type(value).__name__}", state)
                if not -EVALUATION_BOUND < value < EVALUATION_BOUND:
                    _fail(
                        game,
                        f"evaluate returned {value:,}; expected strictly within"
                        f" +-{EVALUATION_BOUND:,}",
                        state,
                    )
            if first != -second:
                _fail(
                    game,
                    f"evaluate must be antisymmetric (the value for one player is minus the"
                    f" value for the other), got {first:,} for player 0 and {second:,} for"
                    " player 1",
                    state,
                )


def check_symmetries(game: Game[Any, Any], records: list[list[tuple[Any, Any]]]) -> None:
    """Every symmetric image of a position has its canonical key; the
    canonical transform maps the position onto the representative; a move
    mapped with ``map_move`` is legal in the image, leads to the image of the
    move's result, and maps back. A game asking for a symmetric table
    (``symmetric_search``) has symmetries to use."""
    count = game.symmetry_count()
    if count < 1:
        _fail(game, "symmetry_count must be at least 1")
    if game.symmetric_search and count < 2:
        _fail(game, "symmetric_search needs symmetries: symmetry_count() is 1")
    for record in records[:3]:
        for state, _move in record[:12]:
            key, t = game.canonical(state)
            if not 0 <= t < count or game.canonical(state) != (key, t):
                _fail(game, "canonical must be deterministic with a transform index", state)
            if game.key(game.transform(state, t)) != key:
                _fail(game, "the canonical transform must map onto the key's position", state)
            for u in range(count):
                image = game.transform(state, u)
                if game.canonical(image)[0] != key:
                    _fail(game, f"symmetric image {u} has another canonical key", state)
                for move in game.actions(state):
                    mapped = game.map_move(move, u)
                    if mapped not in game.actions(image) or game.result(
                        image, mapped
                    ) != game.transform(game.result(state, move), u):
                        _fail(game, f"map_move disagrees with transform {u}", state, move)
                    if game.map_move(mapped, u, inverse=True) != move:
                        _fail(game, f"map_move's inverse of transform {u} is wrong", state, move)


# -- drawing ------------------------------------------------------------------------
def _selected_by_click(
    board: Board, legal: Sequence[tuple[Any, tuple[tuple[int, int], ...]]], cell: tuple[int, int]
) -> list[Any]:
    """The moves a click on ``cell`` selects (docs/messages.md): on a drop
    board the move in the clicked column; else the moves whose first cell it
    is, else those that include it."""
    if board.drop:
        return [m for m, cells in legal if cells and cells[0][1] == cell[1]]
    first = [m for m, cells in legal if cells and cells[0] == cell]
    return first or [m for m, cells in legal if cell in cells]


def check_board(game: Game[Any, Any], records: list[list[tuple[Any, Any]]]) -> None:
    """A game drawn as a grid places each move where it acts: its cells are
    on the board, a click on its first cell selects it and no other move,
    and the move changes every one of its cells."""
    for record in records[:4]:
        for state, _move in record:
            board = game.board(state)
            legal = [(m, game.move_cells(state, m)) for m in game.actions(state)]
            if board is None:
                if any(cells for _m, cells in legal):
                    _fail(game, "move_cells without a board", state)
                continue
            if any(v not in (None, 0, 1, 2) for v in board.cells):
                _fail(game, "board cells must be None, 0, 1 or 2", state)
            for move, cells in legal:
                if len(set(cells)) != len(cells) or not all(
                    0 <= r < board.rows and 0 <= c < board.cols for r, c in cells
                ):
                    _fail(game, "move cells must be distinct cells of the board", state, move)
                if not cells:
                    continue
                if _selected_by_click(board, legal, cells[0]) != [move]:
                    _fail(game, "a click on a move's first cell must select it alone", state, move)
                after = game.board(game.result(state, move))
                if after is None or any(
                    after.cells[r * board.cols + c] == board.cells[r * board.cols + c]
                    for r, c in cells
                ):
                    _fail(game, "a move must change every one of its cells", state, move)


CHECKS: tuple[Check, ...] = (
    check_moves_until_the_end,
    check_utilities,
    check_result_is_pure,
    check_mover_wins_only,
    check_notation,
    check_search_hints,
    check_evaluation,
    check_symmetries,
    check_board,
)

__all__ = ["CHECKS", "MAX_MOVES", "ConformanceError", "check_game", "playout_records"]
