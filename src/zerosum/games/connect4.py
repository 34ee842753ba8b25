"""Connect Four: drop stones into columns; four in a row wins.

``connect4(width=7,height=6)`` -- ``width`` columns and ``height`` rows, each
4..9. Red moves first, then Yellow; a stone falls to the lowest empty cell of
its column. Four stones of one colour in a row -- across, up or diagonally --
win; a full board without one is a draw.

Moves are column numbers ``1``..``width`` from the left, the notation of the
published benchmark sets, so a game may be written as one digit string
(``4453``). Inside, a move is the 0-based column.

State: ``(current, mask, status)``, three ints, as in Pascal Pons' solver:

* ``current`` -- the stones of the side to move;
* ``mask``    -- every stone on the board;
* ``status``  -- :data:`ONGOING`, :data:`WON` (the side that just moved has
  four in a row) or :data:`DRAW` (the board is full), worked out once in
  :meth:`ConnectFour.result`.

The side to move follows from the number of stones (even: Red). Bit layout,
drawn for 7x6: column ``c`` holds bits ``c*(height+1)`` upwards, one bit per
row from the bottom, plus a sentinel bit on top that is always empty::

     6 13 20 27 34 41 48   <- sentinel row (never holds a stone)
     5 12 19 26 33 40 47
     4 11 18 25 32 39 46
     3 10 17 24 31 38 45
     2  9 16 23 30 37 44
     1  8 15 22 29 36 43
     0  7 14 21 28 35 42   <- bottom row
     1  2  3  4  5  6  7   <- move (column) numbers

The sentinel row keeps the shift tricks honest: shifting by ``height``,
``height+1`` or ``height+2`` steps one column sideways (down-diagonally,
across, up-diagonally), and a line that would run off the top of a column
lands on a sentinel bit, which no stone ever occupies. Adding a column's
bottom bit to ``mask`` carries up to the column's first empty cell, so
``mask | (mask + bottom)`` plays a stone without a loop. ``current + mask``
is unique per position (each column's sum stays inside the column and
identifies its height and colours): it is the table key.

Engine hooks: :meth:`ConnectFour.non_losing_actions` runs once per searched
position and needs the opponent's threats and, for each candidate move, the
mover's threats after it. Rather than one threat pass per board, it lays the
boards side by side in one big int ("lanes", see ``_init_lanes``) and runs the
threat formula once: in pure Python an int operation costs mostly its
interpreter overhead, little more for 600 bits than for 50.
:meth:`ConnectFour.winning_action` tests every move's four-in-a-row the same
way.

Position notation: the rows from the top, separated by ``/``, each cell
``r`` (Red), ``y`` (Yellow) or ``.`` (``......./......./......./......./
...y.../...r...`` after ``4 4``; the side to move follows from the counts).
:meth:`ConnectFour.parse_position` also reads a move sequence in benchmark
notation (``4453``) and rejects positions no game reaches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..game import (
    Board,
    Cell,
    Game,
    MoveError,
    Param,
    Player,
    PositionError,
    ZerosumError,
    excerpt,
    numbers,
    whole_number,
)
from ..i18n import N_, _
from ..registry import register

#: Values of a state's ``status``.
ONGOING, WON, DRAW = 0, 1, 2


@dataclass(frozen=True)
class BitLayout:
    """The bitboard layout of one board size (module docstring), with the
    tables the rules derive from it: what compiled code (``zerosum.native``)
    needs to play, test and evaluate positions exactly as these rules do.
    Every mask is an int over the ``width * (height + 1)`` bits.

    * ``bottom``        -- each column's bottom cell;
    * ``bottom_row``    -- all of them; ``top_row`` each column's top cell;
    * ``board``         -- every playable cell (no sentinel bits);
    * ``column_mask``   -- each column's cells;
    * ``parity_rows``   -- rows 1, 3, 5... from the bottom (Red's threats
      there count), and the others (Yellow's);
    * ``centre_order``  -- columns from the centre outwards, the move order;
    * ``centre_cells``  -- ``(weight, cells)`` of the evaluation's centre
      preference, by distance from the edge;
    * ``windows``       -- ``(step, anchors)`` per direction: a line of four
      is ``anchor, anchor + step, ...`` for each anchor bit.
    """

    width: int
    height: int
    bottom: tuple[int, ...]
    bottom_row: int
    top_row: int
    board: int
    column_mask: tuple[int, ...]
    parity_rows: tuple[int, int]
    centre_order: tuple[int, ...]
    centre_cells: tuple[tuple[int, int], ...]
    windows: tuple[tuple[int, int], ...]

State = tuple[int, int, int]

# -- evaluation weights (see ConnectFour.evaluate) ------------------------------
#: An open window (four cells in a line holding no enemy stone) with 1, 2 or 3
#: of one side's stones.
WINDOW_WEIGHT = (0, 1, 5, 20)
#: An empty cell that would complete four in a row (a "threat").
THREAT_WEIGHT = 40
#: Extra for a threat on the rows that favour its owner in the endgame (odd
#: rows from the bottom for Red, even rows for Yellow: "zugzwang" parity).
PARITY_THREAT_WEIGHT = 30
#: Per stone, per column step nearer the centre.
CENTRE_WEIGHT = 3
#: The side to move can complete four at once.
PLAYABLE_WIN_WEIGHT = 2000
#: The side to move, for its move in hand (the "tempo"): without it a search
#: to an odd depth, ending after the root mover's extra stone, scored the
#: position for the root mover and one to an even depth against it (the
#: empty board: -2, +32, 0, +38, -6, +58, -10, +61, -20 at depths 4 to 12).
#: 25 is about half of that swing (benchmarks/bench_connect4_eval.py).
TEMPO_WEIGHT = 25

MIN_SIZE, MAX_SIZE = 4, 9
CELL_CHARS = ("r", "y")


def threat_cells(stones: int, height: int) -> int:
    """Every cell where one more stone would make four in a row with
    ``stones`` (a bitboard in the module's layout, ``height`` rows). The
    result is not masked: the caller keeps the cells it cares about (empty
    ones on the board)."""
    # Raised by 4 * (height + 2) bits so that no stone lies below 4 steps in
    # any direction: the sideways formula below relies on it. (The engine
    # hooks inline the same formula over several boards at once; see
    # ConnectFour.non_losing_actions.)
    offset = 4 * (height + 2)
    x = stones << offset
    # Vertical: three stones directly below.
    cells = x & (x << 1)
    cells = (cells & (cells << 1)) << 1
    # Down-diagonal, across, up-diagonal (step s; unrolled: evaluate calls
    # this twice per leaf). A target needs stones at -1 and -2 steps and one
    # at -3 or +1, or stones at +1 and +2 steps and one at -1 or +3. With
    # r = stones at +s and +2s and q = a stone at 0 or +4s: r & q, 3 steps
    # below the target, or r at the target and q one step below it -- 11
    # operations a direction, not 14. (x >> 4s) << 3s stands in for x >> s,
    # exactly, as no stone lies below bit 4s.
    s = height
    r = x & (x >> s)
    r >>= s
    q = x | (x >> 4 * s)
    cells |= ((r & q) << 3 * s) | (r & (q << s))
    s += 1
    r = x & (x >> s)
    r >>= s
    q = x | (x >> 4 * s)
    cells |= ((r & q) << 3 * s) | (r & (q << s))
    s += 1
    r = x & (x >> s)
    r >>= s
    q = x | (x >> 4 * s)
    cells |= ((r & q) << 3 * s) | (r & (q << s))
    return cells >> offset

def has_four(stones: int, height: int) -> bool:
    """True when ``stones`` hold four in a row (layout of this module)."""
    for step in (1, height, height + 1, height + 2):
        pair = stones & (stones >> step)
        if pair & (pair >> 2 * step):
            return True
    return False


@register
class ConnectFour(Game[State, int]):
    """Connect Four on a ``width`` x ``height`` board: see the module docstring."""

    name = "connect4"
    title = N_("Connect Four: drop stones into columns, four in a row wins (7x6 by default)")
    params = (
        Param("width", 7, N_("columns"), minimum=MIN_SIZE, maximum=MAX_SIZE, label=N_("Width")),
        Param("height", 6, N_("rows"), minimum=MIN_SIZE, maximum=MAX_SIZE, label=N_("Height")),
    )
    player_names = (N_("Red"), N_("Yellow"))
    compact_moves = True
    mover_wins_only = True
    #: A threat is worth 40 points (see evaluate).
    evaluation_unit: int | None = 40

    def __init__(self, width: int = 7, height: int = 6) -> None:
        for label, value in (("width", width), ("height", height)):
            if not MIN_SIZE <= value <= MAX_SIZE:
                raise ZerosumError(
                    _("connect4 {label} must be between {low} and {high}, got {value}").format(
                        label=label, low=MIN_SIZE, high=MAX_SIZE, value=value
                    )
                )
        self.width, self.height = width, height
        h1 = height + 1
        self._h1 = h1
        self.cells = width * height
        #: The bottom cell of each column; all of them; every playable cell.
        self._bottom = tuple(1 << (c * h1) for c in range(width))
        self._bottom_row = sum(self._bottom)
        self._board = self._bottom_row * ((1 << height) - 1)
        self._column_mask = tuple(((1 << height) - 1) << (c * h1) for c in range(width))
        self._top_row = self._bottom_row << (height - 1)
        #: Columns from the centre outwards (left first on a tie).
        self._centre_order = tuple(sorted(range(width), key=lambda c: (abs(2 * c - width + 1), c)))
        # Legal moves by which columns are full (mask & top row): one shared
        # tuple per combination, in column order and in centre-first order.
        self._moves: dict[int, tuple[int, ...]] = {}
        self._ordered: dict[int, tuple[int, ...]] = {}
        for full in range(1 << width):
            top = sum(self._bottom[c] << (height - 1) for c in range(width) if full >> c & 1)
            self._moves[top] = tuple(c for c in range(width) if not full >> c & 1)
            self._ordered[top] = tuple(c for c in self._centre_order if not full >> c & 1)
        # Row parity masks: rows 1, 3, 5... from the bottom (index 0, 2, 4...)
        # favour Red's threats, the others Yellow's.
        odd_rows = sum(self._bottom_row << r for r in range(0, height, 2))
        self._parity_rows = (odd_rows, self._board & ~odd_rows)
        # Centre preference: (weight, cells) per distance from the edge.
        self._centre_cells = tuple(
            (
                d * CENTRE_WEIGHT,
                sum(self._column_mask[c] for c in range(width) if min(c, width - 1 - c) == d),
            )
            for d in range(1, (width + 1) // 2)
        )
        # Window anchors per direction: cells where a line of four starting
        # there (and going up / right / up-right / down-right) fits.
        directions = ((1, 0, 1), (h1, 1, 0), (h1 + 1, 1, 1), (height, 1, -1))
        self._windows = tuple((step, self._anchors(dc, dr)) for step, dc, dr in directions)
        # Shift amounts of threat_cells / has_four, precomputed for the hooks:
        # 1, 2, 3 steps in each of the three sideways directions.
        self._steps = tuple(k * s for s in (height, h1, h1 + 1) for k in (1, 3, 4))
        self._four_steps = (height, 2 * height, h1, 2 * h1, h1 + 1, 2 * (h1 + 1))
        self._init_lanes()

    @property
    def bit_layout(self) -> BitLayout:
        """This size's bit layout and the tables built on it (see
        :class:`BitLayout`)."""
        return BitLayout(
            width=self.width,
            height=self.height,
            bottom=self._bottom,
            bottom_row=self._bottom_row,
            top_row=self._top_row,
            board=self._board,
            column_mask=self._column_mask,
            parity_rows=self._parity_rows,
            centre_order=self._centre_order,
            centre_cells=self._centre_cells,
            windows=self._windows,
        )

    def _init_lanes(self) -> None:
        """Constants of the lane layout used by the engine hooks.

        One big int holds several boards side by side, lane ``i`` at bit
        ``i * lane``, so that one pass of the threat formula (about fifty
        big-int operations, whose cost is mostly interpreter overhead and
        grows little with the int's size) serves every lane at once. A lane
        is the board's bits plus ``3 * (height + 2)`` empty bits, the longest
        shift of the formula: a bit of a lane's board then only ever meets
        bits of its own lane or empty padding, so each lane computes exactly
        what the formula computes on that board alone."""
        width, h1 = self.width, self._h1
        lane = width * h1 + 3 * (h1 + 1)
        self._lane = lane
        #: Lane 0 starts above 4 * (height + 2) zero bits (see non_losing_actions).
        base = 4 * (h1 + 1)
        self._base = base
        #: Lane ``width`` (after the one-per-column lanes) holds the opponent.
        self._opp_shift = base + width * lane
        #: ``x * _rep_columns`` puts a copy of x in each column lane, 0..width-1.
        self._rep_columns = sum(1 << (base + c * lane) for c in range(width))
        #: ... and in every lane, the opponent's included.
        self._rep_all = self._rep_columns | (1 << self._opp_shift)
        #: Column ``c``'s cells in lane ``c``: ``(cells * _rep_columns) &
        #: _diagonal`` sends each column's cells to the column's own lane.
        self._diagonal = sum(self._column_mask[c] << (base + c * lane) for c in range(width))
        #: ``(x >> _base) % _fold`` folds the column lanes onto one board
        #: (exact when the lanes hold disjoint bits, as each holds one column).
        self._fold = (1 << lane) - 1
        # Per column, centre first: its cells, its lane's board cells and its
        # tie-break (higher = nearer the centre); per cell, the one-move answer.
        self._lanes = tuple(
            (self._column_mask[c], self._board << (base + c * lane), MAX_SIZE - rank)
            for rank, c in enumerate(self._centre_order)
        )
        self._single: dict[int, tuple[int]] = {
            1 << (c * h1 + r): (c,) for c in range(width) for r in range(self.height)
        }
        #: The column of a tie-break value (the inverse of the above).
        self._tie_column = tuple(
            self._centre_order[MAX_SIZE - t] if MAX_SIZE - t < width else -1
            for t in range(MAX_SIZE + 1)
        )

    def _anchors(self, dc: int, dr: int) -> int:
        bits = 0
        for c in range(self.width):
            for r in range(self.height):
                if 0 <= c + 3 * dc < self.width and 0 <= r + 3 * dr < self.height:
                    bits |= 1 << (c * self._h1 + r)
        return bits

    # -- the formalism ---------------------------------------------------------
    def initial_state(self) -> State:
        return (0, 0, ONGOING)

    def to_move(self, state: State) -> Player:
        return state[1].bit_count() & 1

    def actions(self, state: State) -> Sequence[int]:
        """Columns that are not full, left to right (0-based); empty once the
        game is over."""
        if state[2]:
            return ()
        return self._moves[state[1] & self._top_row]

    def result(self, state: State, action: int) -> State:
        """Drop a stone in column ``action`` (0-based, not full, game not
        over -- not checked here): the new side to move's stones are the old
        opponent's, and the status says whether the move won or filled the
        board."""
        current, mask, _status = state
        new_mask = mask | (mask + self._bottom[action])
        opponent = current ^ mask
        mover = opponent ^ new_mask  # the side that just moved, its new stone included
        # Four in a row for the mover? (has_four inlined, shifts precomputed:
        # this runs once per searched position)
        pair = mover & (mover >> 1)
        if pair & (pair >> 2):
            return (opponent, new_mask, WON)
        s1, s2, a1, a2, u1, u2 = self._four_steps
        pair = mover & (mover >> s1)
        if pair & (pair >> s2):
            return (opponent, new_mask, WON)
        pair = mover & (mover >> a1)
        if pair & (pair >> a2):
            return (opponent, new_mask, WON)
        pair = mover & (mover >> u1)
        if pair & (pair >> u2):
            return (opponent, new_mask, WON)
        return (opponent, new_mask, DRAW if new_mask == self._board else ONGOING)

    def is_terminal(self, state: State) -> bool:
        return state[2] != ONGOING

    def utility(self, state: State, player: Player) -> int:
        if state[2] != WON:
            return 0
        # The winner moved last: the player who is *not* to move.
        return -1 if state[1].bit_count() & 1 == player else 1

    def winner(self, state: State) -> Player | None:
        """The player with four in a row, if any."""
        if state[2] != WON:
            return None
        return 1 - (state[1].bit_count() & 1)

    def stones(self, state: State) -> tuple[int, int]:
        """Red's and Yellow's stones as bitboards."""
        current, mask, _status = state
        if mask.bit_count() & 1:
            return mask ^ current, current
        return current, mask ^ current

    # -- depth-limited search --------------------------------------------------
    def evaluate(self, state: State, player: Player) -> int:
        """Heuristic value for ``player`` (higher is better): for each side,
        every open window of four cells (no enemy stone in it) scores
        :data:`WINDOW_WEIGHT` by the stones it holds, every threat (an empty
        cell that would complete four) :data:`THREAT_WEIGHT`, plus
        :data:`PARITY_THREAT_WEIGHT` on the rows that favour its owner, and
        every stone :data:`CENTRE_WEIGHT` per column step from the edge; the
        side to move gains :data:`PLAYABLE_WIN_WEIGHT` when it can win at
        once, and :data:`TEMPO_WEIGHT` for its move in hand. Mine minus
        theirs; well inside +-100,000 on every board size."""
        red, yellow = self.stones(state)
        mask = state[1]
        score = self._side_score(red, mask, 0) - self._side_score(yellow, mask, 1)
        score += self._window_score(red, yellow) - self._window_score(yellow, red)
        if self.winning_action(state) is not None:
            score += PLAYABLE_WIN_WEIGHT if mask.bit_count() & 1 == 0 else -PLAYABLE_WIN_WEIGHT
        score += TEMPO_WEIGHT if mask.bit_count() & 1 == 0 else -TEMPO_WEIGHT
        return score if player == 0 else -score

    def _side_score(self, mine: int, mask: int, player: Player) -> int:
        """Threats and centre stones of one side."""
        threats = threat_cells(mine, self.height) & self._board & ~mask
        score = threats.bit_count() * THREAT_WEIGHT
        score += (threats & self._parity_rows[player]).bit_count() * PARITY_THREAT_WEIGHT
        for weight, cells in self._centre_cells:
            score += weight * (mine & cells).bit_count()
        return score

    def _window_score(self, mine: int, theirs: int) -> int:
        """Open windows of ``mine`` (no stone of ``theirs``), weighted by how
        many stones they hold; counted bit-parallel, one direction at a time."""
        score = 0
        w1, w2, w3 = WINDOW_WEIGHT[1:]
        for step, anchors in self._windows:
            m1, m2, m3 = mine >> step, mine >> 2 * step, mine >> 3 * step
            blocked = theirs | theirs >> step | theirs >> 2 * step | theirs >> 3 * step
            open_ = anchors & ~blocked
            # Count the four bits of each window: low bit, then the twos bit.
            a, b = mine ^ m1, m2 ^ m3
            low = a ^ b
            twos = (mine & m1) ^ (m2 & m3) ^ (a & b)
            score += w1 * (open_ & low & ~twos).bit_count()
            score += w2 * (open_ & twos & ~low).bit_count()
            score += w3 * (open_ & low & twos).bit_count()
        return score

    # -- notation --------------------------------------------------------------
    def format_move(self, action: int) -> str:
        return str(action + 1)

    def parse_move(self, state: State, text: str) -> int:
        """A column number 1..width; raise :class:`MoveError` for anything
        else, a full column, or a finished game."""
        if state[2]:
            raise MoveError(
                _("the game is over; no move {text!r} can be played").format(text=excerpt(text))
            )
        word = text.strip()
        number = whole_number(word) if len(word) == 1 else None
        if number is None or not 1 <= number <= self.width:
            raise MoveError(
                _(
                    "cannot read move {text!r}; expected a column number 1-{width}: one of {moves}"
                ).format(text=excerpt(text), width=self.width, moves=self.legal_moves_text(state))
            )
        column = number - 1
        if state[1] & self._top_row & self._column_mask[column]:
            raise MoveError(
                _("column {column} is full; expected one of {moves}").format(
                    column=word, moves=self.legal_moves_text(state)
                )
            )
        return column

    def _cell(self, red: int, yellow: int, column: int, row: int) -> str:
        bit = 1 << (column * self._h1 + row)
        return "r" if red & bit else "y" if yellow & bit else "."

    def format_position(self, state: State) -> str:
        red, yellow = self.stones(state)
        return "/".join(
            "".join(self._cell(red, yellow, c, r) for c in range(self.width))
            for r in reversed(range(self.height))
        )

    def parse_position(self, text: str) -> State:
        """Read the board notation (rows from the top, ``r``/``y``/``.``,
        separated by ``/``) or a move sequence (column digits, ``4453``).
        Raise :class:`PositionError` for malformed text, floating stones,
        wrong counts, or a position no game reaches (play stops at the first
        four in a row)."""
        stripped = text.strip()
        if whole_number(stripped) is not None:
            try:
                return self.play(list(stripped))
            except MoveError as exc:
                raise PositionError(
                    _("cannot play move sequence {moves!r}: {reason}").format(
                        moves=excerpt(stripped), reason=exc
                    )
                ) from None
        rows = stripped.lower().split("/")
        problem = PositionError(
            _(
                "cannot read position {text!r}; expected {height} rows of {width} cells"
                " (r, y or .) from the top, separated by '/', or a move sequence such as 4453"
            ).format(text=excerpt(text), height=self.height, width=self.width)
        )
        if len(rows) != self.height or any(len(row) != self.width for row in rows):
            raise problem
        red = yellow = 0
        for r, row in enumerate(reversed(rows)):
            for c, char in enumerate(row):
                bit = 1 << (c * self._h1 + r)
                if char == "r":
                    red |= bit
                elif char == "y":
                    yellow |= bit
                elif char != ".":
                    raise problem
        return self._validated(red, yellow, text)

    def _validated(self, red: int, yellow: int, text: str) -> State:
        """The state of a board given as Red's and Yellow's stones, after
        checking that some game reaches it."""
        mask = red | yellow
        # Gravity: each column is filled from the bottom without gaps.
        for c in range(self.width):
            column = (mask & self._column_mask[c]) >> (c * self._h1)
            if column & (column + 1):
                raise PositionError(
                    _(
                        "position {text!r} has a floating stone in column {column};"
                        " expected stones stacked from the bottom"
                    ).format(text=excerpt(text), column=c + 1)
                )
        n_red, n_yellow = red.bit_count(), yellow.bit_count()
        if n_red not in (n_yellow, n_yellow + 1):
            raise PositionError(
                _(
                    "position {text!r} has {red} red and {yellow} yellow stones;"
                    " expected as many red as yellow or one more (Red moves first)"
                ).format(text=excerpt(text), red=n_red, yellow=n_yellow)
            )
        red_four, yellow_four = has_four(red, self.height), has_four(yellow, self.height)
        last = 0 if n_red > n_yellow else 1  # who moved last
        if red_four and yellow_four:
            raise PositionError(
                _(
                    "position {text!r} has four in a row for both sides;"
                    " expected at most one (the game stops at the first four)"
                ).format(text=excerpt(text))
            )
        if (red_four and last != 0) or (yellow_four and last != 1):
            raise PositionError(
                _(
                    "position {text!r} has a move after four in a row;"
                    " expected the game to stop at the first four"
                ).format(text=excerpt(text))
            )
        if not self._reachable(red, yellow, red_four or yellow_four):
            raise PositionError(
                _(
                    "position {text!r} cannot be reached: no order of alternate moves"
                    " (Red first, each stone on the one below) builds it"
                ).format(text=excerpt(text))
            )
        current = red if last == 1 else yellow
        status = WON if red_four or yellow_four else DRAW if mask == self._board else ONGOING
        return (current, mask, status)

    def _reachable(self, red: int, yellow: int, ended: bool) -> bool:
        """Whether alternate moves, Red first, each stone on the one below,
        build this board without a four in a row before the last stone
        (``ended``: the board has one, completed by the last stone)."""
        if not ended:
            return self._order_exists(red, yellow)
        # The last stone is a top stone of the winner whose removal leaves no
        # four; every earlier position is then free of fours too.
        winner_is_red = red.bit_count() > yellow.bit_count()
        mover = red if winner_is_red else yellow
        mask = red | yellow
        for c in range(self.width):
            column = mask & self._column_mask[c]
            if not column:
                continue
            top = 1 << (column.bit_length() - 1)
            if mover & top and not has_four(mover ^ top, self.height):
                if winner_is_red and self._order_exists(red ^ top, yellow):
                    return True
                if not winner_is_red and self._order_exists(red, yellow ^ top):
                    return True
        return False

    def _order_exists(self, red: int, yellow: int) -> bool:
        """Whether the stones can be played in alternate order, Red first,
        each stone on the one below it. A depth-first search over column
        heights that tries the stone with the earliest deadline first and
        remembers dead ends (fast on real positions)."""
        h1 = self._h1
        columns: list[str] = []
        for c in range(self.width):
            colours = ""
            for r in range(self.height):
                bit = 1 << (c * h1 + r)
                colours += "r" if red & bit else "y" if yellow & bit else ""
            columns.append(colours)
        total = sum(len(col) for col in columns)
        # Latest ply (0-based) at which each stone can be played: Red plays
        # on even plies, Yellow on odd ones, each stone before the one above.
        deadlines: list[list[int]] = []
        for col in columns:
            latest: list[int] = []
            limit = total
            for colour in reversed(col):
                ply = limit - 1
                if (ply % 2 == 0) != (colour == "r"):
                    ply -= 1
                latest.append(ply)
                limit = ply
            deadlines.append(latest[::-1])
        if any(d and d[0] < 0 for d in deadlines):
            return False
        dead: set[tuple[int, ...]] = set()

        def search(heights: tuple[int, ...], ply: int) -> bool:
            if ply == total:
                return True
            if heights in dead:
                return False
            need = "r" if ply % 2 == 0 else "y"
            choices = sorted(
                (deadlines[c][h], c)
                for c, h in enumerate(heights)
                if h < len(columns[c]) and columns[c][h] == need
            )
            for _deadline, c in choices:
                if search((*heights[:c], heights[c] + 1, *heights[c + 1 :]), ply + 1):
                    return True
            dead.add(heights)
            return False

        return search((0,) * self.width, 0)

    def render(self, state: State) -> str:
        red, yellow = self.stones(state)
        lines = []
        for r in reversed(range(self.height)):
            cells = (self._cell(red, yellow, c, r).upper() for c in range(self.width))
            lines.append("| " + " ".join(cells) + " |")
        lines.append("+" + "-" * (2 * self.width + 1) + "+")
        lines.append("  " + " ".join(str(c + 1) for c in range(self.width)))
        return "\n".join(lines)

    def board(self, state: State) -> Board:
        red, yellow = self.stones(state)
        cells: list[int | None] = []
        for r in reversed(range(self.height)):
            for c in range(self.width):
                bit = 1 << (c * self._h1 + r)
                cells.append(0 if red & bit else 1 if yellow & bit else None)
        return Board(
            self.height,
            self.width,
            tuple(cells),
            ("red", "yellow"),
            drop=True,
            col_labels=numbers(self.width),
        )

    def winning_cells(self, state: State) -> tuple[Cell, ...]:
        """Every cell of every four in a row the winner has (row 0 at the
        top, as :meth:`board` draws it); none for a draw or a game on."""
        winner = self.winner(state)
        if winner is None:
            return ()
        stones = self.stones(state)[winner]
        h1 = self._h1
        found = 0
        # Steps in the bit layout: up, across, up-right, down-right; the
        # sentinel bit above each column stops a line running off the top.
        for step in (1, h1, h1 + 1, h1 - 1):
            starts = stones & (stones >> step) & (stones >> 2 * step) & (stones >> 3 * step)
            for k in range(4):
                found |= starts << k * step
        return tuple(
            (self.height - 1 - r, c)
            for r in reversed(range(self.height))
            for c in range(self.width)
            if found >> (c * h1 + r) & 1
        )

    def move_cells(self, state: State, action: int) -> tuple[Cell, ...]:
        """The cell the stone lands on."""
        filled = (state[1] >> (action * self._h1) & ((1 << self.height) - 1)).bit_count()
        return ((self.height - 1 - filled, action),)

    # -- engine hooks ------------------------------------------------------------
    def key(self, state: State) -> int:
        """``current + mask``: one int, unique per position (Pons)."""
        return state[0] + state[1]

    def symmetry_count(self) -> int:
        return 2

    def mirror_key(self, key: int) -> int:
        """The key of the left-right mirror image of the position with this
        key (columns are independent in a key, so they can be swapped)."""
        h1, last = self._h1, self.width - 1
        column = (1 << h1) - 1
        out = 0
        for c in range(self.width):
            out |= ((key >> (c * h1)) & column) << ((last - c) * h1)
        return out

    def mirror(self, state: State) -> State:
        """The left-right mirror image of ``state``."""
        current, mask, status = state
        return (self.mirror_key(current), self.mirror_key(mask), status)

    def transform(self, state: State, transform: int) -> State:
        """Transform 1 is the left-right mirror; 0 the identity."""
        return self.mirror(state) if transform else state

    def canonical(self, state: State) -> tuple[int, int]:
        """``(min(key, mirrored key), transform)``: transform 1 when the
        mirror image is the representative, else 0."""
        key = state[0] + state[1]
        mirrored = self.mirror_key(key)
        return (key, 0) if key <= mirrored else (mirrored, 1)

    def map_move(self, action: int, transform: int, inverse: bool = False) -> int:
        """Transform 1 mirrors the column (its own inverse)."""
        return self.width - 1 - action if transform else action

    def plies_left(self, state: State) -> int:
        """At most one ply per empty cell."""
        return self.cells - state[1].bit_count()

    def ordered_actions(self, state: State) -> Sequence[int]:
        """Legal columns from the centre outwards."""
        if state[2]:
            return ()
        return self._ordered[state[1] & self._top_row]

    def winning_action(self, state: State) -> int | None:
        """The leftmost column that completes four in a row for the side to
        move, or None."""
        current, mask, status = state
        if status:
            return None
        board = self._board
        playable = (mask + self._bottom_row) & board
        # Lane c holds the mover's stones plus the playable cell of column c;
        # a four in lane c means that move wins (the mover has none before:
        # the game would be over). The lowest four found is in the lowest
        # lane, the leftmost column.
        x = (current * self._rep_columns) | ((playable * self._rep_columns) & self._diagonal)
        pair = x & (x >> 1)
        fours = pair & (pair >> 2)
        s1, s2, a1, a2, u1, u2 = self._four_steps
        pair = x & (x >> s1)
        fours |= pair & (pair >> s2)
        pair = x & (x >> a1)
        fours |= pair & (pair >> a2)
        pair = x & (x >> u1)
        fours |= pair & (pair >> u2)
        if not fours:
            return None
        return ((fours & -fours).bit_length() - 1 - self._base) // self._lane

    def non_losing_actions(self, state: State) -> Sequence[int]:
        """Columns after which the opponent cannot complete four at once --
        Pons' "possible non-losing moves": a move that wins or fills the
        board always counts; otherwise, if the opponent has a playable
        threat the move must block it (two such threats: nothing is left),
        and no move goes directly beneath an opponent's threat.

        Best first: winning moves, then by how many threats (empty cells that
        would complete four) the move leaves its player, ties from the centre
        outwards. Empty at a terminal state. The result is shared: do not
        modify it."""
        current, mask, status = state
        if status:
            return ()
        board = self._board
        playable = (mask + self._bottom_row) & board
        # One pass of the threat formula over lanes: lane c (c < width) holds
        # the mover's stones after playing column c, lane `width` the
        # opponent's stones. See _init_lanes and _lane_threats.
        spread = (playable * self._rep_columns) & self._diagonal
        x = (current * self._rep_columns) | spread | ((current ^ mask) << self._opp_shift)
        # Vertical: three stones directly below.
        cells = x & (x << 1)
        cells = (cells & (cells << 1)) << 1
        # Each sideways direction (step s): with r = stones at +s and +2s
        # and q = a stone at 0 or +4s, a cell is a threat when r & q holds
        # 3s below it (stones at -2s, -s and -3s or +s) or r holds at the
        # cell and q at -s (stones at +s, +2s and -s or +3s). 11 operations
        # where threat_cells needs 14; exact because no stone lies below bit
        # 4s, so (x >> 4s) << 3s loses nothing of x >> s.
        d1, d3, d4, a1, a3, a4, u1, u3, u4 = self._steps
        r = x & (x >> d1)
        r >>= d1
        q = x | (x >> d4)
        cells |= ((r & q) << d3) | (r & (q << d1))
        r = x & (x >> a1)
        r >>= a1
        q = x | (x >> a4)
        cells |= ((r & q) << a3) | (r & (q << a1))
        r = x & (x >> u1)
        r >>= u1
        q = x | (x >> u4)
        cells |= ((r & q) << u3) | (r & (q << u1))
        # Keep the empty cells (of the board before the move) in every lane.
        cells &= (board ^ mask) * self._rep_all
        theirs = cells >> self._opp_shift  # the opponent's threats
        forced = playable & theirs
        if not forced:
            candidates = playable
        elif forced & (forced - 1):
            candidates = 0  # two threats to block: every ordinary move loses
        else:
            candidates = forced  # the one threat must be blocked
        candidates &= ~(theirs >> 1)
        # A move wins when its own cell is a threat in its lane (the formula
        # looks at the other three cells of each line, the mover's before).
        wins = cells & spread
        if wins:
            wins = (wins >> self._base) % self._fold  # lanes back onto the board
            candidates |= wins
        if not candidates & (candidates - 1):
            return self._single[candidates] if candidates else ()
        # Two or more: sort by (threats after the move, centre-first), each
        # packed into one int: count << 4 | tie. The threats of a move are
        # counted in its column's lane. A comprehension over the columns
        # costs less than picking the candidates' bits one by one.
        lanes = self._lanes
        if wins:  # (never in the engine: it asks winning_action first)
            keys = [
                (1 << 14) | tie if wins & column else ((cells & lane).bit_count() << 4) | tie
                for column, lane, tie in lanes
                if candidates & column
            ]
        else:
            keys = [
                ((cells & lane).bit_count() << 4) | tie
                for column, lane, tie in lanes
                if candidates & column
            ]
        keys.sort(reverse=True)
        tie_column = self._tie_column
        return [tie_column[k & 15] for k in keys]
