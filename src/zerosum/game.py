"""The Game protocol every game implements, and the small shared types.

The protocol follows the textbook formalism (the tutorials' game tree):

* ``initial_state()``              -- the start position;
* ``to_move(state)``               -- whose turn: player 0 (moves first) or 1;
* ``actions(state)``               -- the legal moves, in a fixed order; empty
                                      exactly when the state is terminal;
* ``result(state, action)``        -- the state after a move (a *new* value);
* ``is_terminal(state)``           -- the terminal test;
* ``utility(state, player)``       -- +1 / 0 / -1 for ``player`` at a terminal.

These six rules (:class:`Rules`) are the only thing a game must write.
Everything else is an optional layer with a working default, each stated as
its own protocol below:

* :class:`Notation`   -- moves and positions as text (default: a move is
  written ``str(move)`` and read back by matching the legal moves; a game
  without ``parse_position`` is given by its moves from the start);
* :class:`Drawing`    -- ``render`` for the terminal, ``board`` and
  ``move_cells`` for graphical front ends (default: no grid);
* :class:`SearchHints` -- what makes search faster: a heuristic ``evaluate``
  for depth-limited search (antisymmetric: its value for one player is minus
  its value for the other; see :meth:`Game.evaluate`), an opening table,
  table keys, symmetries, move ordering, immediate wins, non-losing moves,
  static bounds and ``mover_wins_only``. None changes a proven value.
* sized results -- a game whose result has a size beyond win, draw or loss
  (Othello's final disc difference) says so with ``max_margin()`` (the
  largest margin; None by default: no size) and ``margin(state, player)``
  (the size at a terminal, its sign the utility's). A strong solve then
  finds the exact margin under perfect play (each side maximising its own
  margin: the objective of the FFO endgame test), the moves that reach it
  and a line to the end; a weak solve still proves win, draw or loss only
  (:mod:`zerosum.search.margin`).

:func:`zerosum.testing.check_game` checks the rules and every layer a game
implements.

States must be immutable and hashable: ``result`` never changes its input, so a
state can key a transposition table and search can never corrupt the caller's
position.

A complete small game, written against this protocol, is in the README
("Adding your own game") and is run as a test.
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

# Re-exported: users and the rest of the package import them from here.
from .errors import MoveError as MoveError
from .errors import PositionError as PositionError
from .errors import ZerosumError as ZerosumError
from .i18n import N_, _

#: One move in a move list: a bracketed group, or a run without spaces,
#: commas or brackets. Anything else (a stray bracket) is an error.
_MOVE_TOKEN = re.compile(r"\([^()]*\)|[^\s,()]+")
_MOVE_SEPARATORS = re.compile(r"[\s,]*")

#: The longest move text a parser is given (longer text is refused at once).
MAX_MOVE_TEXT = 64
#: The longest position text a parser is given.
MAX_POSITION_TEXT = 20_000
#: The longest part of a user's input an error message quotes.
EXCERPT = 32
#: The most legal moves an error message lists.
LISTED_MOVES = 10

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

#: Players are 0 (the side that moves first) and 1.
Player = int


def other(player: Player) -> Player:
    """The opponent of ``player``."""
    return 1 - player


def excerpt(text: object, most: int = EXCERPT) -> str:
    """``text`` (as a string) cut so that it quotes (``repr``) in at most
    ``most`` characters plus the quotes, ending in ``…`` when cut: what an
    error message quotes of a user's input.

    >>> excerpt("a" * 100, 5)
    'aaaa…'
    """
    value = text if isinstance(text, str) else str(text)
    if len(repr(value)) - 2 <= most:
        return value
    # Cut by the length as quoted: an escaped control character counts whole.
    cut = value[: most - 1]
    while len(repr(cut)) - 2 > most - 1:
        cut = cut[:-1]
    return cut + "…"


def whole_number(text: str) -> int | None:
    """The whole number ``text`` writes in ASCII digits 0-9 (spaces around
    allowed), or None. Other digits that ``str.isdigit`` accepts
    (superscripts, circled or Arabic-Indic digits) are not numbers here.

    >>> whole_number(" 42 "), whole_number("²"), whole_number("٧"), whole_number("-1")
    (42, None, None, None)
    """
    stripped = text.strip()
    if stripped and stripped.isascii() and stripped.isdigit():
        return int(stripped)
    return None


def _checked_text(kind: str, most: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wrap a parser so that a non-string argument is a TypeError and an
    over-long one a one-line :class:`MoveError` / :class:`PositionError`
    before the game's own parser sees it."""

    def wrap(parse: Callable[..., Any]) -> Callable[..., Any]:
        if getattr(parse, "_zerosum_checked", False):
            return parse

        @functools.wraps(parse)
        def checked(self: Any, *args: Any) -> Any:
            text = args[-1]
            if not isinstance(text, str):
                raise TypeError(
                    _("a {kind} must be a string, got {type}").format(
                        kind=_(kind), type=type(text).__name__
                    )
                )
            if len(text) > most:
                error = MoveError if kind == "move" else PositionError
                raise error(
                    _(
                        "cannot read {kind} {text!r}: it is {size} characters long;"
                        " expected at most {most}"
                    ).format(kind=_(kind), text=excerpt(text), size=len(text), most=most)
                )
            return parse(self, *args)

        checked._zerosum_checked = True  # type: ignore[attr-defined]
        return checked

    return wrap


N_("move")
N_("position")


@dataclass(frozen=True)
class Param:
    """A game parameter as the registry shows it: ``name=default``."""

    name: str
    default: int | str
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    #: Its name on a form ("Width"), marked with N_ and translated where
    #: shown; empty: the front end shows ``name``.
    label: str = ""


#: A cell of a :class:`Board`: ``(row, column)`` from the top-left, 0-based.
Cell = tuple[int, int]

#: The value of a :class:`Board` cell holding a piece that belongs to nobody.
NEUTRAL = 2


@dataclass(frozen=True)
class Board:
    """A position drawn as a grid, for graphical front ends (the browser).

    * ``cells`` -- ``rows * cols`` values, row by row from the top-left: the
      player (0 or 1) whose piece is there, :data:`NEUTRAL` for a piece of
      nobody's (``neutral`` says what it is), None when the cell is empty;
    * ``pieces`` -- how each player's pieces look, by name: ``"x"``/``"o"``,
      ``"red"``/``"yellow"``, ``"black"``/``"white"``,
      ``"vertical"``/``"horizontal"`` (a front end may fall back to two
      colours for a name it does not know);
    * ``neutral`` -- what a :data:`NEUTRAL` cell holds (``"stone"``,
      ``"covered"``), or ``""``;
    * ``drop`` -- a click anywhere in a column means the move in that column
      (Connect Four);
    * ``row_labels``, ``col_labels`` -- coordinates to print beside the grid
      (empty: none).
    """

    rows: int
    cols: int
    cells: tuple[int | None, ...]
    pieces: tuple[str, str]
    neutral: str = ""
    drop: bool = False
    row_labels: tuple[str, ...] = ()
    col_labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.cells) != self.rows * self.cols:
            raise ValueError(f"a {self.rows}x{self.cols} board needs {self.rows * self.cols} cells")


def letters(count: int) -> tuple[str, ...]:
    """Column labels ``a``, ``b``, ... for ``count`` columns."""
    return tuple(chr(ord("a") + i) for i in range(count))


def numbers(count: int) -> tuple[str, ...]:
    """Labels ``1``, ``2``, ... for ``count`` rows or columns."""
    return tuple(str(i + 1) for i in range(count))


class Game(ABC, Generic[S, A]):
    """Base class of every game. Subclasses implement the six abstract methods
    and may override any of the optional ones.

    ``name`` and ``params`` describe the game to the registry; the registry
    passes parameters as keyword arguments to the constructor.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    params: ClassVar[tuple[Param, ...]] = ()
    #: Names of the players in turn order, as shown to people.
    player_names: tuple[str, str] = (N_("first"), N_("second"))
    #: True when every move's notation is one character, so a move list may be
    #: written as one compact string (``"041"`` = ``"0 4 1"``).
    compact_moves: bool = False
    #: True when turns alternate and the game can end only by a win for the
    #: player who just moved, or a draw (Connect Four, m,n,k-games,
    #: Domineering, Nim; not Othello). The engine then bounds scores more
    #: tightly (no win sooner than 3 plies when none is immediate).
    mover_wins_only: bool = False
    #: True when the engine's table should key positions by symmetry class
    #: unless told otherwise (its ``symmetry`` option left at None): worth it
    #: where :meth:`canonical` is cheap next to the search it saves
    #: (tic-tac-toe and other small m,n,k boards, Domineering). Both backends
    #: follow it, so the default options search alike on either.
    symmetric_search: bool = False
    #: The version of the game's rules, for the store of proven results
    #: (:mod:`zerosum.store`): raise it whenever a change of the rules could
    #: change a position's value or its moves, and answers kept for the old
    #: rules are never used for the new ones. 1 unless a game says otherwise.
    rules_version: int = 1
    #: The scale of :meth:`evaluate`: about what one strategic feature is
    #: worth in its points (Connect Four: a threat, 40; Othello: a corner,
    #: 40; the m,n,k-games: an open line of three, 64, of two 8, so 40
    #: between them), or None when the evaluation has no such scale (the
    #: default, and Domineering's and Nim's mobility counts on boards
    #: usually proven exactly). A game review judges a drop of a heuristic
    #: score against it (about one unit lost is an inaccuracy); with None
    #: it marks only proven results. Search never reads it.
    evaluation_unit: int | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every game's parsers refuse a non-string (TypeError) and an
        over-long text (one line) before they run, so a game need not."""
        super().__init_subclass__(**kwargs)
        if "parse_move" in cls.__dict__:
            cls.parse_move = _checked_text("move", MAX_MOVE_TEXT)(  # type: ignore[method-assign]
                cls.__dict__["parse_move"]
            )
        if "parse_position" in cls.__dict__:
            cls.parse_position = _checked_text(  # type: ignore[method-assign]
                "position", MAX_POSITION_TEXT
            )(cls.__dict__["parse_position"])

    # -- the formalism -------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> S:
        """The position the game starts from."""

    @abstractmethod
    def to_move(self, state: S) -> Player:
        """The player whose turn it is (0 or 1). Defined for terminal states
        too: it is the player who would move next."""

    @abstractmethod
    def actions(self, state: S) -> Sequence[A]:
        """Legal moves in a fixed, documented order; empty iff terminal."""

    @abstractmethod
    def result(self, state: S, action: A) -> S:
        """The state after ``action``; ``state`` itself is never changed.
        ``action`` must be legal (front ends check with :meth:`parse_move`)."""

    @abstractmethod
    def is_terminal(self, state: S) -> bool:
        """True when the game is over."""

    @abstractmethod
    def utility(self, state: S, player: Player) -> int:
        """At a terminal state: +1 if ``player`` won, -1 if they lost, 0 for a
        draw. The two players' utilities always sum to zero."""

    # -- sized results ---------------------------------------------------------
    def max_margin(self) -> int | None:
        """The largest margin a game can end with (:meth:`margin`), or None
        when its results have no size beyond win, draw or loss (the default).
        A game that gives a number here is solved for its exact margin."""
        return None

    def margin(self, state: S, player: Player) -> int:
        """At a terminal state: by how much ``player`` won (positive), lost
        (negative) or 0 for a draw, within ``+-max_margin()``; its sign is
        always :meth:`utility`'s and the players' margins sum to zero. The
        default is the utility itself."""
        return self.utility(state, player)

    # -- depth-limited search ------------------------------------------------
    def evaluate(self, state: S, player: Player) -> int:
        """Heuristic value of a non-terminal ``state`` for ``player``: higher
        is better. The contract (:func:`zerosum.testing.check_game` checks
        it on random positions):

        * **antisymmetric**: ``evaluate(s, 0) == -evaluate(s, 1)`` at every
          position, as in a zero-sum game. Search asks for either side: the
          engine (negamax) for the side to move at the leaf, the reference
          minimax and alpha-beta for the player to move at the root; only
          an antisymmetric evaluation gives them the same scores. Write it
          from one fixed side (the side to move, or player 0) and negate
          for the other; a rule such as "the opponent's threat counts
          first", read for each player in turn, is not antisymmetric.
        * a whole number strictly within +-(1,000,000 - 10,000), so that it
          is never mistaken for a proven result.

        The default knows nothing (0)."""
        return 0

    def opening_scores(self, state: S) -> Mapping[A, int] | None:
        """An opening table: scores for the moves of ``state`` when the game
        has one for it (higher is better), else None."""
        return None

    # -- notation (optional: see Notation) ---------------------------------
    def format_move(self, action: A) -> str:
        """The move in the game's notation (default: ``str(action)``)."""
        return str(action)

    def parse_move(self, state: S, text: str) -> A:
        """Parse a move in ``state``; raise :class:`MoveError` (one line,
        listing what is expected) when it is malformed or illegal. The
        default finds the legal move whose :meth:`format_move` is ``text``."""
        if not isinstance(text, str):
            raise TypeError(f"a move is read from a str, not {type(text).__name__}")
        wanted = text.strip()
        for action in self.actions(state):
            if self.format_move(action) == wanted:
                return action
        from .i18n import _

        raise MoveError(
            _("cannot play {text!r} here; expected one of {moves}").format(
                text=wanted[:20], moves=self.legal_moves_text(state)
            )
        )

    def format_position(self, state: S) -> str:
        """A one-line text that :meth:`parse_position` turns back into
        ``state`` (default: ``repr(state)``, for reading only)."""
        return repr(state)

    def parse_position(self, text: str) -> S:
        """Inverse of :meth:`format_position`; raise :class:`PositionError`.
        The default says the game reads no positions (give its moves)."""
        from .i18n import _

        raise PositionError(
            _("{game} has no position notation; give the moves from the start instead").format(
                game=self.name or type(self).__name__
            )
        )

    def render(self, state: S) -> str:
        """A multi-line picture of the board for the terminal."""
        return self.format_position(state)

    def render_played(self, state: S, owners: Mapping[Cell, Player]) -> str:
        """:meth:`render`, knowing who placed the piece on each cell of
        ``owners`` (from the record of the game: ``(row, col)`` of
        :meth:`board` to player), for games whose position alone does not
        say (Domineering's tiles). Default: :meth:`render`."""
        return self.render(state)

    def player_name(self, player: Player) -> str:
        """The player's name as shown to people, in the active language
        (:attr:`player_names` stay English: notations may spell them)."""
        return _(self.player_names[player])

    # -- graphical front ends (optional) ---------------------------------------
    def board(self, state: S) -> Board | None:
        """``state`` as a grid of cells for a graphical front end, or None
        when the game has no grid (the front end then shows :meth:`render`
        and the moves as buttons)."""
        return None

    def move_cells(self, state: S, action: A) -> tuple[Cell, ...]:
        """The cells of :meth:`board` that ``action`` marks in ``state`` (a
        legal move): the first is where a front end draws the move's score
        and the cell whose click selects it. Empty for a move with no place
        on the board (a pass), or when the game has no board."""
        return ()

    def winning_cells(self, state: S) -> tuple[Cell, ...]:
        """At a finished position, the cells of the winning line(s) (for the
        page to highlight); empty when there is none (a draw, a game not won
        by a line, or one without a board)."""
        return ()

    def piece_counts(self, state: S) -> tuple[int, int] | None:
        """Each player's pieces on the board, for games decided by counting
        them (Othello's discs); None for the others."""
        return None

    def spec(self) -> str:
        """The spec that :func:`zerosum.load` turns back into this game."""
        values = ",".join(f"{p.name}={getattr(self, p.name)}" for p in self.params)
        return f"{self.name}({values})" if values else self.name

    # -- hooks the engine uses (all optional) --------------------------------
    def key(self, state: S) -> Hashable:
        """Transposition-table key: the state itself unless a game has a
        smaller or faster one. Two states with equal keys must be equal."""
        return state

    def symmetry_count(self) -> int:
        """How many board symmetries :meth:`canonical` considers (1: none)."""
        return 1

    def transform(self, state: S, transform: int) -> S:
        """The image of ``state`` under symmetry ``transform`` (0 is the
        identity). A game with :meth:`symmetry_count` above 1 implements it;
        the conformance suite checks it against :meth:`canonical` and
        :meth:`map_move`."""
        if transform == 0:
            return state
        raise NotImplementedError(f"{type(self).__name__} does not implement transform")

    def canonical(self, state: S) -> tuple[Hashable, int]:
        """The key of the symmetry class of ``state`` and the index of the
        transformation that maps ``state`` onto the class representative.
        Symmetric states get the same key."""
        return self.key(state), 0

    def map_move(self, action: A, transform: int, inverse: bool = False) -> A:
        """Apply symmetry ``transform`` (or its inverse) to a move, so that a
        move stored for the representative can be used in ``state``."""
        return action

    def ordered_actions(self, state: S) -> Sequence[A]:
        """Legal moves in the order most likely to be good first (a static
        ordering hint such as centre columns first). Default: ``actions``."""
        return self.actions(state)

    def winning_action(self, state: S) -> A | None:
        """A move that wins at once, if the game can tell cheaply; None when
        there is none or the game does not know. Search may then score the
        node as a win in one ply without generating the other moves. A game
        that implements :meth:`non_losing_actions` must make this complete:
        None then means no move wins at once."""
        return None

    def non_losing_actions(self, state: S) -> Sequence[A] | None:
        """Moves after which the opponent cannot win at once (a move that ends
        the game counts as non-losing), best first; None when the game cannot
        tell cheaply. Search calls it only when :meth:`winning_action` found
        no win, and reads an empty sequence as "every move loses in two
        plies"."""
        return None

    def plies_left(self, state: S) -> int | None:
        """An upper bound on the plies the game can still last from
        ``state`` (a game of Connect Four: the empty cells), or None when
        the game cannot tell (the default). The solver then probes only
        results that can happen."""
        return None

    def informed_order(self, state: S) -> bool:
        """Whether :meth:`ordered_actions` is so well informed here that
        search should keep its order as it is (no killer or history
        reordering). Othello's fastest-first endgame order is. Default: no."""
        return False

    def static_bound(self, state: S) -> int:
        """A static decision, without search: ``+p`` when the side to move is
        proven to win within ``p`` plies whatever is played, ``-p`` when
        proven to lose within ``p`` plies, 0 when the game cannot tell
        (the default). Domineering's move-count bound (safe moves,
        protective areas) is one. Search uses it as a bound on the value:
        ``+p`` means at least ``win_in(p)``, ``-p`` at most ``loss_in(p)``."""
        return 0

    # -- conveniences built on the protocol ----------------------------------
    def play(self, moves: Iterable[str], state: S | None = None) -> S:
        """Parse and apply moves written in the game's notation."""
        current = self.initial_state() if state is None else state
        for text in moves:
            if self.is_terminal(current):
                raise MoveError(
                    _(
                        "move {text!r} comes after the game is over; expected no more moves"
                    ).format(text=excerpt(text))
                )
            current = self.result(current, self.parse_move(current, text))
        return current

    def play_text(self, text: str, state: S | None = None) -> S:
        """Play a move list written as text (see :meth:`split_moves`) from
        ``state`` (default: the start). An error names the move by its number
        and, when the list was written compactly, quotes the list too
        (``"99"`` in a 7-column Connect Four: move 1, ``9``)."""
        if not isinstance(text, str):
            raise TypeError(
                _("a move list must be a string, got {type}").format(type=type(text).__name__)
            )
        moves = self.split_moves(text)
        current = self.initial_state() if state is None else state
        for number, move in enumerate(moves, 1):
            try:
                current = self.play([move], current)
            except MoveError as error:
                if len(moves) == 1 and move.strip() == text.strip():
                    raise
                raise MoveError(
                    _("move {number} of {moves!r}: {reason}").format(
                        number=number, moves=excerpt(text.strip(), 20), reason=error
                    )
                ) from None
        return current

    def split_moves(self, text: str) -> list[str]:
        """Split a move list written with spaces or commas, keeping a
        bracketed move such as ``(0, 1)`` whole; for games with one-character
        moves a list may also be one compact string (``"041"``). A stray
        bracket (``"(((("``, ``"5(0"``) is a :class:`MoveError`."""
        if not isinstance(text, str):
            raise TypeError(
                _("a move list must be a string, got {type}").format(type=type(text).__name__)
            )
        parts = []
        position = 0
        for match in _MOVE_TOKEN.finditer(text):
            gap = text[position : match.start()]
            if not _MOVE_SEPARATORS.fullmatch(gap):
                raise MoveError(self._stray_bracket(text))
            parts.append(match.group())
            position = match.end()
        if not _MOVE_SEPARATORS.fullmatch(text[position:]):
            raise MoveError(self._stray_bracket(text))
        if self.compact_moves and len(parts) == 1 and len(parts[0]) > 1:
            return list(parts[0])
        return parts

    @staticmethod
    def _stray_bracket(text: str) -> str:
        return _(
            "cannot read the move list {moves!r}: a bracket is not closed or not opened;"
            " expected moves separated by spaces or commas, e.g. (0,1)"
        ).format(moves=excerpt(text.strip()))

    def legal_moves_text(self, state: S, most: int | None = LISTED_MOVES) -> str:
        """The legal moves of ``state`` in notation, separated by spaces; when
        there are more than ``most`` (None: no limit), the first ``most``
        and how many there are in all, so that a message stays short."""
        actions = self.actions(state)
        shown = actions if most is None or len(actions) <= most else actions[:most]
        text = " ".join(self.format_move(a) for a in shown)
        if len(shown) < len(actions):
            text = _("{moves} … ({count} moves in all)").format(
                moves=text, count=len(actions)
            )
        return text


# -- the layers, each its own protocol (for reading and for type checkers) -------
class Rules(Protocol[S, A]):
    """The textbook's game: what every game must write."""

    def initial_state(self) -> S: ...
    def to_move(self, state: S) -> Player: ...
    def actions(self, state: S) -> Sequence[A]: ...
    def result(self, state: S, action: A) -> S: ...
    def is_terminal(self, state: S) -> bool: ...
    def utility(self, state: S, player: Player) -> int: ...


class Notation(Protocol[S, A]):
    """Moves and positions as text, for people and files. ``parse_*`` raise
    :class:`MoveError` / :class:`PositionError` (one line) on bad text;
    ``parse(format(x)) == x``."""

    compact_moves: bool

    def format_move(self, action: A) -> str: ...
    def parse_move(self, state: S, text: str) -> A: ...
    def format_position(self, state: S) -> str: ...
    def parse_position(self, text: str) -> S: ...


S_in = TypeVar("S_in", bound=Hashable, contravariant=True)
A_in = TypeVar("A_in", bound=Hashable, contravariant=True)


class Drawing(Protocol[S_in, A_in]):
    """How front ends draw a position: a text picture, and a grid whose
    cells a click selects moves by."""

    def render(self, state: S_in) -> str: ...
    def board(self, state: S_in) -> Board | None: ...
    def move_cells(self, state: S_in, action: A_in) -> tuple[Cell, ...]: ...
    def winning_cells(self, state: S_in) -> tuple[Cell, ...]: ...
    def piece_counts(self, state: S_in) -> tuple[int, int] | None: ...


class SearchHints(Protocol[S, A]):
    """What makes search faster without changing a proven value: the
    heuristic evaluation and opening table, table keys and symmetries, move
    ordering, immediate wins, non-losing moves, static bounds, and whether
    only the mover can win."""

    mover_wins_only: bool
    symmetric_search: bool
    rules_version: int
    evaluation_unit: int | None

    def evaluate(self, state: S, player: Player) -> int: ...
    def opening_scores(self, state: S) -> Mapping[A, int] | None: ...
    def key(self, state: S) -> Hashable: ...
    def symmetry_count(self) -> int: ...
    def transform(self, state: S, transform: int) -> S: ...
    def canonical(self, state: S) -> tuple[Hashable, int]: ...
    def map_move(self, action: A, transform: int, inverse: bool = False) -> A: ...
    def ordered_actions(self, state: S) -> Sequence[A]: ...
    def winning_action(self, state: S) -> A | None: ...
    def non_losing_actions(self, state: S) -> Sequence[A] | None: ...
    def informed_order(self, state: S) -> bool: ...
    def plies_left(self, state: S) -> int | None: ...
    def static_bound(self, state: S) -> int: ...
