"""Nim: take objects from a heap; whoever takes the last object wins.

``nim(heaps=3-4-5)`` -- the starting heap sizes separated by ``-`` (1 to
:data:`MAX_HEAPS` heaps of 0 to :data:`MAX_HEAP` objects, at least one object
in all). On a turn a player takes one or more objects from a single heap.
Normal play: the player who takes the last object wins, so the side to move
with nothing left has lost.

Bouton's theorem solves it: the side to move wins exactly when the nim-sum
(the bitwise XOR of the heap sizes) is not zero, by moving to a position
whose nim-sum is zero. The tests check the search agrees.

State: ``(heaps, player)`` -- the heap sizes in their starting order (heaps
keep their places, so they can be named) and the player to move.

Moves: ``heap:count``, the heap numbered from 1 on the left: ``2:3`` takes
three objects from the second heap. Inside, a move is the pair
``(heap index from 0, count)``.

Position notation: the heap sizes joined by ``-`` and the side to move,
``3-2-5 second``; the side may be left out when it is ``first``. Only
positions that a game from the starting heaps can reach are accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import xor

from ..game import (
    NEUTRAL,
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

MAX_HEAPS = 16
MAX_HEAP = 100
#: The heuristic value of a position for the side to move with a nonzero
#: nim-sum (a win with correct play); the negative when it is zero.
NIM_SUM_SCORE = 100

Heaps = tuple[int, ...]
State = tuple[Heaps, Player]
Move = tuple[int, int]


def parse_heaps(text: str) -> Heaps:
    """Heap sizes from ``"3-4-5"``; raise :class:`ZerosumError` unless there
    are 1 to :data:`MAX_HEAPS` whole numbers from 0 to :data:`MAX_HEAP` with
    at least one object in all."""
    parts = text.strip().split("-")
    expected = _("1-{count} heap sizes from 0 to {most} separated by '-', e.g. 3-4-5").format(
        count=MAX_HEAPS, most=MAX_HEAP
    )
    sizes = [whole_number(part) for part in parts]
    if any(size is None for size in sizes):
        raise ZerosumError(
            _("cannot read heaps {text!r}; expected {expected}").format(
                text=excerpt(text), expected=expected
            )
        )
    heaps = tuple(size or 0 for size in sizes)
    if len(heaps) > MAX_HEAPS or any(h > MAX_HEAP for h in heaps):
        raise ZerosumError(
            _("heaps {text!r} are out of range; expected {expected}").format(
                text=excerpt(text), expected=expected
            )
        )
    if not any(heaps):
        raise ZerosumError(
            _("heaps {text!r} hold no objects; expected at least one object").format(
                text=excerpt(text)
            )
        )
    return heaps


def nim_sum(heaps: Heaps) -> int:
    """The XOR of the heap sizes: zero exactly when the side to move loses."""
    return reduce(xor, heaps, 0)


@register
class Nim(Game[State, Move]):
    """Normal-play Nim: see the module docstring."""

    name = "nim"
    mover_wins_only = True
    title = N_("Nim: take objects from one heap a turn; whoever takes the last one wins")
    params = (
        Param(
            "heaps",
            "3-4-5",
            N_("heap sizes separated by '-', e.g. 3-4-5"),
            label=N_("Heaps"),
        ),
    )

    def __init__(self, heaps: str = "3-4-5") -> None:
        self.start = parse_heaps(heaps)
        #: The spec's value, written canonically.
        self.heaps = "-".join(str(h) for h in self.start)

    # -- the formalism ---------------------------------------------------------
    def initial_state(self) -> State:
        return (self.start, 0)

    def to_move(self, state: State) -> Player:
        return state[1]

    def actions(self, state: State) -> Sequence[Move]:
        """Every ``(heap, count)``: heaps left to right, counts from 1 up."""
        return [(i, count) for i, size in enumerate(state[0]) for count in range(1, size + 1)]

    def result(self, state: State, action: Move) -> State:
        heaps, player = state
        i, count = action
        return ((*heaps[:i], heaps[i] - count, *heaps[i + 1 :]), 1 - player)

    def is_terminal(self, state: State) -> bool:
        return not any(state[0])

    def utility(self, state: State, player: Player) -> int:
        """At the end the side to move has nothing to take: it has lost."""
        if any(state[0]):
            return 0
        return -1 if player == state[1] else 1

    def evaluate(self, state: State, player: Player) -> int:
        """The nim-sum rule as a heuristic: +-:data:`NIM_SUM_SCORE`, positive
        for ``player`` when they are to move and the nim-sum is not zero, or
        the opponent is to move and it is zero."""
        good_for_mover = nim_sum(state[0]) != 0
        return NIM_SUM_SCORE if good_for_mover == (player == state[1]) else -NIM_SUM_SCORE

    # -- notation --------------------------------------------------------------
    def format_move(self, action: Move) -> str:
        return f"{action[0] + 1}:{action[1]}"

    def parse_move(self, state: State, text: str) -> Move:
        """``heap:count`` (heap from 1); raise :class:`MoveError` for a
        malformed move, no such heap, a count of 0 or more than the heap
        holds, or a finished game."""
        heaps = state[0]
        now = _("the heaps are {heaps}").format(heaps="-".join(map(str, heaps)))
        if not any(heaps):
            raise MoveError(
                _("the game is over; no move {text!r} can be played").format(text=excerpt(text))
            )
        heap_text, colon, count_text = text.strip().partition(":")
        heap_number, count_number = whole_number(heap_text), whole_number(count_text)
        if not colon or heap_number is None or count_number is None:
            raise MoveError(
                _(
                    "cannot read move {text!r}; expected HEAP:COUNT with the heap numbered"
                    " from 1, e.g. 1:2 ({now})"
                ).format(text=excerpt(text), now=now)
            )
        heap, count = heap_number, count_number
        if not 1 <= heap <= len(heaps):
            raise MoveError(
                _("there is no heap {heap}; expected a heap 1-{last} ({now})").format(
                    heap=heap, last=len(heaps), now=now
                )
            )
        size = heaps[heap - 1]
        if size == 0:
            raise MoveError(
                _("heap {heap} is empty; expected a heap with objects ({now})").format(
                    heap=heap, now=now
                )
            )
        if not 1 <= count <= size:
            raise MoveError(
                _("cannot take {count} from heap {heap}; expected a count 1-{size} ({now})").format(
                    count=count, heap=heap, size=size, now=now
                )
            )
        return (heap - 1, count)

    def format_position(self, state: State) -> str:
        heaps, player = state
        return f"{'-'.join(map(str, heaps))} {self.player_names[player]}"

    def parse_position(self, text: str) -> State:
        """Heap sizes joined by ``-``, then ``first`` or ``second`` (the side
        to move; ``first`` when left out). Raise :class:`PositionError` for
        malformed text, a different number of heaps from the start, a heap
        larger than it started, or a side to move no game gives there."""
        words = text.split()
        names = [name.lower() for name in self.player_names]
        problem = PositionError(
            _(
                "cannot read position {text!r}; expected {count} heap sizes joined by '-'"
                " and the side to move, e.g. {example}"
            ).format(
                text=excerpt(text),
                count=len(self.start),
                example=self.format_position(self.initial_state()),
            )
        )
        if not 1 <= len(words) <= 2 or (len(words) == 2 and words[1].lower() not in names):
            raise problem
        parts = words[0].split("-")
        sizes = [whole_number(part) for part in parts]
        if len(parts) != len(self.start) or any(
            size is None or part != part.strip() for size, part in zip(sizes, parts, strict=True)
        ):
            raise problem
        heaps = tuple(size or 0 for size in sizes)
        player = names.index(words[1].lower()) if len(words) == 2 else 0
        if any(h > s for h, s in zip(heaps, self.start, strict=True)):
            raise PositionError(
                _(
                    "position {text!r} cannot be reached: a heap is larger than at the start"
                    " ({heaps}); expected heaps no larger"
                ).format(text=excerpt(text), heaps=self.heaps)
            )
        removed = sum(self.start) - sum(heaps)
        changed = sum(h != s for h, s in zip(heaps, self.start, strict=True))
        # A game takes between `changed` and `removed` moves to get here; only
        # when those are equal (or nothing was taken) is the side fixed.
        if (removed == changed and player != removed % 2) or (removed == 0 and player != 0):
            raise PositionError(
                _(
                    "position {text!r} cannot be reached with {player} to move; expected {expected}"
                ).format(
                    text=excerpt(text),
                    player=self.player_names[player],
                    expected=self.player_names[removed % 2],
                )
            )
        return (heaps, player)

    def board(self, state: State) -> Board:
        """A row per heap (as wide as the largest starting heap), its objects
        from the left as :data:`NEUTRAL` stones."""
        heaps = state[0]
        width = max(max(self.start), 1)
        cells = tuple(NEUTRAL if col < size else None for size in heaps for col in range(width))
        return Board(
            len(heaps),
            width,
            cells,
            ("first", "second"),
            neutral="stone",
            row_labels=numbers(len(heaps)),
        )

    def move_cells(self, state: State, action: Move) -> tuple[Cell, ...]:
        """The objects taken, the leftmost first: a click on an object takes
        it and every object to its right."""
        heap, count = action
        size = state[0][heap]
        return tuple((heap, col) for col in range(size - count, size))

    def render(self, state: State) -> str:
        heaps, player = state
        width = len(str(len(heaps)))
        lines = [
            f"{i + 1:>{width}}: {'|' * size if size else '-'}  ({size})"
            for i, size in enumerate(heaps)
        ]
        lines.append(_("{player} to move").format(player=self.player_name(player)))
        return "\n".join(lines)

    # -- engine hooks ----------------------------------------------------------
    def plies_left(self, state: State) -> int:
        """Each ply takes at least one object."""
        return sum(state[0])

    def ordered_actions(self, state: State) -> Sequence[Move]:
        """Moves to a zero nim-sum (the winning ones) first, then the rest in
        :meth:`actions` order."""
        heaps = state[0]
        total = nim_sum(heaps)
        moves = self.actions(state)
        if not total:
            return moves
        best = [(i, h - (h ^ total)) for i, h in enumerate(heaps) if h ^ total < h]
        return best + [m for m in moves if m not in best]

    def winning_action(self, state: State) -> Move | None:
        """Taking the whole of the only heap left, if one heap is left."""
        heaps = state[0]
        nonempty = [i for i, h in enumerate(heaps) if h]
        if len(nonempty) == 1:
            i = nonempty[0]
            return (i, heaps[i])
        return None

    def non_losing_actions(self, state: State) -> Sequence[Move]:
        """Moves that do not leave exactly one nonempty heap (which the
        opponent would take at once), a move that takes the last object
        included; in :meth:`ordered_actions` order."""
        heaps = state[0]
        nonempty = sum(1 for h in heaps if h)
        result = []
        for i, count in self.ordered_actions(state):
            left = nonempty - (count == heaps[i])
            if left != 1:
                result.append((i, count))
        return result

    def static_bound(self, state: State) -> int:
        """The nim-sum rule as a static decision: a nonzero nim-sum wins for
        the side to move, zero loses, and either happens within as many
        plies as there are objects left (each ply takes at least one). The
        distance itself is left to search (a weak solve needs none)."""
        heaps = state[0]
        left = sum(heaps)
        if not left:
            return 0
        return left if nim_sum(heaps) else -left
