"""What a game supplies to the compiled search.

A state is a row of ``uint64`` words (``Primitives.words`` of them: two for
Connect Four up to 64 bits of layout and four beyond, one for Domineering up
to 8x8, two for Othello, eleven for gomoku). The kernel
keeps one row per ply on an explicit stack, so the primitives never allocate:
they read a row and write into another.

Every primitive is a numba ``@njit(cache=True)`` function at module level
taking ``g`` first: a ``uint64[:]`` array of the game's constants for its
size (masks, shifts, widths), built once by the adapter. So one compiled
function serves every board size, and the on-disk cache holds it.

Primitives (``s`` a state row ``uint64[:]``, ``d`` another row, ``out`` an
``int32[:]`` buffer of ``max_moves`` entries):

* ``gen(g, s, out) -> int`` -- the legal moves of the side to move as move
  codes, in the game's static order (most promising first: the Python game's
  ``ordered_actions`` order); returns how many. Called only when ``status``
  says the game is not over; a pass is a move with its own code.
* ``play(g, s, m, d)`` -- write the state after move ``m`` into ``d``.
* ``status(g, s) -> int`` -- :data:`ONGOING` (2) when the game goes on,
  else the utility for the side to move: +1, 0 or -1. Turns alternate
  (a pass is a move), so the side to move is implied by the ply.
* ``key(g, s) -> uint64`` -- the transposition-table key. When
  ``exact_key`` is true it is injective (Connect Four's ``current + mask``,
  Domineering's occupied cells), otherwise a 64-bit hash (a false match then
  has a probability near 2**-64 per probe: say so where it matters).
* ``evaluate(g, s) -> int64`` -- the heuristic value for the side to move,
  equal to the Python game's ``evaluate(state, to_move(state))``.

Optional hooks (None when a game has none); the kernel's use of them is the
Python engine's (``zerosum.search.engine``):

* ``win_move(g, s) -> int`` -- a move that wins at once, or -1; complete
  when ``nonlosing`` is given;
* ``nonlosing(g, s, out) -> int`` -- the moves after which the opponent
  cannot win at once, best first; -1 when the game cannot tell;
* ``bound(g, s) -> int`` -- a static decision: ``+p`` when the side to move
  is proven to win within ``p`` plies, ``-p`` when proven to lose within
  ``p`` plies, 0 when unknown (Domineering's move-count bound);
* ``canonical(g, s) -> (uint64, int)`` -- the key of the symmetry class and
  the transform mapping ``s`` onto the representative;
  ``map_move(g, m, t, inverse) -> int`` maps a move code by transform ``t``;
* ``informed_order(g, s) -> bool`` -- ``gen``'s order at ``s`` is informed
  (Othello's fastest first in the endgame): killers and history then leave
  it alone (the Python game's ``informed_order``);
* ``exact(g, s, ply, depth, alpha, beta, counters) -> int`` -- a cheaper
  search of its own for small positions (Othello's last empty squares): the
  value of ``s`` (not over), ``ply`` plies below the search's root, for the
  null window ``(alpha, beta)`` with ``depth`` plies left, in the kernel's
  units (a win ending the game at ply ``q`` is ``WIN - q``) and with the
  fail-soft meaning of the kernel's own result (exact inside the window, a
  bound on the right side outside it); or :data:`NOT_EXACT` to let the
  kernel search. It must give an exact answer only (no horizon: decline when
  ``depth`` may not reach the end of the game), and it adds the positions
  it visited below ``s`` to ``counters[0]``. The kernel asks at null-window
  nodes only (so principal variations are the kernel's), before the table.

The kernel calls ``status`` first at every node, so ``gen`` may assume a
game in progress.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

#: ``status`` of a game in progress.
ONGOING = 2
#: What ``exact`` returns when it leaves the position to the kernel (below
#: every value).
NOT_EXACT = -(1 << 40)


@dataclass(frozen=True)
class Primitives:
    """One game type's compiled primitives (see the module docstring).

    * ``words``       -- ``uint64`` words per state;
    * ``max_moves``   -- an upper bound on the legal moves of a position;
    * ``move_codes``  -- move codes lie in ``0 .. move_codes - 1``;
    * ``max_plies``   -- an upper bound on the plies left in any game;
    * ``mover_wins_only`` -- as ``Game.mover_wins_only``;
    * ``exact_key``   -- ``key`` is injective (no false table matches);
    * ``prefetch``    -- the kernel starts loading each child's table slot
      once a node's moves are ordered (``play`` and ``key`` once more per
      move): worth it when they cost little next to a cache miss, as in
      Connect Four (a hint only: values and node counts are unchanged).
    """

    words: int
    max_moves: int
    move_codes: int
    max_plies: int
    # Compiled dispatchers: their numpy return types are not Python ints,
    # so the fields are loosely typed (the contract is the docstring's).
    gen: Callable[..., Any]
    play: Callable[..., Any]
    status: Callable[..., Any]
    key: Callable[..., Any]
    evaluate: Callable[..., Any]
    win_move: Callable[..., Any] | None = None
    nonlosing: Callable[..., Any] | None = None
    bound: Callable[..., Any] | None = None
    canonical: Callable[..., Any] | None = None
    map_move: Callable[..., Any] | None = None
    informed_order: Callable[..., Any] | None = None
    exact: Callable[..., Any] | None = None
    mover_wins_only: bool = False
    exact_key: bool = False
    prefetch: bool = False


class NativeGame(Protocol):
    """The adapter between a Python game and its primitives.

    * ``kind``       -- a name for the primitives (one compiled kernel per
      kind: ``"connect4"``, ``"domineering"``...);
    * ``prims``      -- the :class:`Primitives`;
    * ``constants``  -- the ``g`` array (numpy ``uint64``) for this size;
    * ``encode(state)`` -- the state's words (a sequence of ints, each
      ``0 <= w < 2**64``);
    * ``code(action)``  -- a Python move as its move code;
    * ``action(code)``  -- the inverse;
    * ``symmetric``  -- optional (default False): key the table by symmetry
      class when the engine's ``symmetry`` option is None even though the
      game's ``symmetric_search`` does not ask for it, because the compiled
      ``canonical`` is cheap where the Python one is not (Othello's).
    """

    kind: str
    prims: Primitives
    constants: Any

    def encode(self, state: Hashable) -> Sequence[int]: ...

    def code(self, action: Any) -> int: ...

    def action(self, code: int) -> Any: ...
