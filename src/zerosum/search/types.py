"""Typed values that go into a search and come out of it.

Scores are integers from the point of view of the side to move at the root
(negamax convention). A proven result carries its distance, the tutorials'
"10 - depth" idea scaled up: a win ``p`` plies from the root scores
``WIN - p`` and a loss ``-(WIN - p)``, so a quicker win and a slower loss
score better. Heuristic evaluations stay strictly inside
``+-(WIN - MAX_PLY)``, so a decisive score is never confused with one.

>>> win_in(3), loss_in(4)
(999997, -999996)
>>> Score(win_in(3), exact=True).describe()
'win in 3 plies'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..i18n import _

A = TypeVar("A")

WIN = 1_000_000
MAX_PLY = 10_000
#: Larger than any score; the window of a full search is (-INF, INF).
INF = WIN + 1
#: The longest time limit a search takes, in seconds (about 11.6 days: longer
#: than anyone waits for a move, and far below the 9.2e9 s at which the
#: operating system's timers overflow, which once killed the deadline thread).
MAX_SECONDS = 1e6
#: The largest position or iteration budget (the compiled search counts in
#: 64-bit integers).
MAX_BUDGET = 1 << 62


def win_in(plies: int) -> int:
    """Score of a win for the side to move that comes ``plies`` plies on."""
    return WIN - plies


def loss_in(plies: int) -> int:
    """Score of a loss for the side to move that comes ``plies`` plies on."""
    return -(WIN - plies)


def is_decisive(raw: int) -> bool:
    """True for a proven win or loss score (which carries its distance)."""
    return abs(raw) >= WIN - MAX_PLY


def terminal_score(utility: int, ply: int) -> int:
    """Score of a terminal position ``ply`` plies from the root, for a player
    whose utility there is ``utility`` (+1, 0, -1)."""
    return utility * (WIN - ply) if utility else 0


@dataclass(frozen=True)
class Score:
    """A search score with the knowledge of whether it is proven.

    ``raw`` is the integer the search compares; ``exact`` says whether it is a
    game-theoretic value (a proven win, loss or draw) rather than heuristic.
    A decisive raw score is proven in its sign; its distance is exact when
    ``exact`` is true (the engine may find a win past its depth limit whose
    distance is only an upper bound, and a weak solve proves only the sign).

    ``distance_known`` is false for a proven win or loss whose distance the
    search did not establish (the MCTS-Solver proves outcomes, not always
    their distances): ``raw`` is then decisive with the right sign and its
    distance is only an upper bound, so :attr:`plies` is None and
    :meth:`describe` says just ``win`` or ``loss``.

    >>> Score(win_in(7), exact=True, distance_known=False).describe()
    'win'
    """

    raw: int
    exact: bool = False
    distance_known: bool = True

    @property
    def outcome(self) -> int | None:
        """+1 win, 0 draw, -1 loss for the side to move; None if heuristic."""
        if not self.exact:
            return None
        return (self.raw > 0) - (self.raw < 0)

    @property
    def plies(self) -> int | None:
        """Plies until the game ends for a proven win or loss, else None
        (also when the distance is not known)."""
        if not self.distance_known:
            return None
        return WIN - abs(self.raw) if is_decisive(self.raw) else None

    @property
    def kind(self) -> str:
        """What the score is, for a front end that shows it without decoding
        ``raw``: ``win`` or ``loss`` (decisive: proven in its sign, its
        distance :attr:`plies` when known), ``draw`` (proven) or
        ``heuristic`` (``raw`` is then the evaluation).

        >>> Score(win_in(3), exact=True).kind, Score(0, exact=True).kind, Score(0).kind
        ('win', 'draw', 'heuristic')
        """
        if is_decisive(self.raw):
            return "win" if self.raw > 0 else "loss"
        if self.exact and self.raw == 0:
            return "draw"
        return "heuristic"

    def describe(self, mark_heuristic: bool = True) -> str:
        """The score in words, in the active language (:mod:`zerosum.i18n`):
        the one formatter every front end uses (the terminal, the browser
        through the ``words`` the server sends, the JSON). A proven win or
        loss with its distance ('win in 1 ply', 'loss in 5 plies'; a
        decisive score found past a depth limit too, its distance then an
        upper bound), 'win'/'loss' when the distance is not known, 'draw',
        else the number, '+12 (heuristic)' (just '+12' without
        ``mark_heuristic``, where the context says so already).

        >>> Score(win_in(1), exact=True).describe(), Score(loss_in(4)).describe()
        ('win in 1 ply', 'loss in 4 plies')
        >>> Score(-161).describe(), Score(-161).describe(mark_heuristic=False)
        ('-161 (heuristic)', '-161')
        """
        decisive = is_decisive(self.raw)
        if decisive and not self.distance_known:
            return _("win") if self.raw > 0 else _("loss")
        if decisive:
            plies = WIN - abs(self.raw)
            if plies == 1:
                return _("win in 1 ply") if self.raw > 0 else _("loss in 1 ply")
            template = _("win in {n} plies") if self.raw > 0 else _("loss in {n} plies")
            return template.format(n=plies)
        if self.exact:
            return _("draw") if self.raw == 0 else f"{self.raw:+d}"
        if not mark_heuristic:
            return f"{self.raw:+d}"
        return _("{score:+d} (heuristic)").format(score=self.raw)


@dataclass(frozen=True)
class Limits:
    """What a search may spend. ``None`` means no limit of that kind; with no
    depth limit the search goes to the end of the game (an exact solve).
    ``iterations`` is Monte Carlo tree search's budget (playouts backed up);
    the other algorithms take none."""

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        # Imported here to keep this module free of package-level imports.
        from ..game import ZerosumError
        from ..i18n import _

        if self.depth is not None and (not isinstance(self.depth, int) or self.depth < 1):
            raise ZerosumError(
                _("depth must be a whole number of at least 1, got {value}").format(
                    value=self.depth
                )
            )
        if self.time is not None and not (self.time > 0 and math.isfinite(self.time)):
            raise ZerosumError(
                _("time must be a number of seconds above 0, got {value}").format(value=self.time)
            )
        if self.time is not None and self.time > MAX_SECONDS:
            raise ZerosumError(
                _("time must be at most {most:g} seconds, got {value:g}").format(
                    most=MAX_SECONDS, value=self.time
                )
            )
        if self.nodes is not None and (not isinstance(self.nodes, int) or self.nodes < 1):
            raise ZerosumError(
                _("nodes must be a whole number of at least 1, got {value}").format(
                    value=self.nodes
                )
            )
        if self.iterations is not None and (
            not isinstance(self.iterations, int) or self.iterations < 1
        ):
            raise ZerosumError(
                _("iterations must be a whole number of at least 1, got {value}").format(
                    value=self.iterations
                )
            )
        for name in ("nodes", "iterations"):
            value = getattr(self, name)
            if value is not None and value > MAX_BUDGET:
                raise ZerosumError(
                    _("{name} must be at most {most}, got {value}").format(
                        name=name, most=MAX_BUDGET, value=str(value)[:40]
                    )
                )


def check_limits(limits: object) -> Limits:
    """``limits`` itself when it is a :class:`Limits` (None: no limits);
    else a TypeError saying what is expected."""
    if limits is None:
        return Limits()
    if not isinstance(limits, Limits):
        raise TypeError(
            f"limits must be a zerosum.Limits (depth, time, nodes), not {type(limits).__name__}"
        )
    return limits


@dataclass(frozen=True)
class SearchStats:
    """What a search did. ``nodes`` counts every position visited, the root
    and terminal positions included; ``leaves`` the positions scored without
    looking further (terminal, or evaluated at the depth limit); ``cutoffs``
    the alpha-beta cut-offs; ``tt_hits`` and ``tt_probes`` the transposition
    table's use (zero for the reference algorithms)."""

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    time_s: float = 0.0
    tt_probes: int = 0
    tt_hits: int = 0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.time_s if self.time_s > 0 else 0.0


@dataclass(frozen=True)
class MoveScore(Generic[A]):
    """One root move as analysis reports it: its score for the side to move,
    the principal variation starting with the move, and the positions its
    search visited.

    Monte Carlo tree search also fills ``visits`` (iterations through the
    move) and ``win_rate`` (the mean playout result for the side to move,
    0 to 1, a draw counting one half); whether the MCTS-Solver proved the
    move's value is ``score.exact``. The other algorithms leave them None."""

    move: A
    score: Score
    pv: tuple[A, ...]
    nodes: int
    visits: int | None = None
    win_rate: float | None = None


@dataclass(frozen=True)
class SearchResult(Generic[A]):
    """The outcome of a search.

    * ``best_move`` -- the chosen move (None only at a terminal position);
    * ``score``     -- its score for the side to move at the root;
    * ``pv``        -- the principal variation, starting with ``best_move``;
    * ``best_moves``-- every move that scores as well as the best;
    * ``moves``     -- per-move analysis, best first (empty if not asked for);
    * ``depth``     -- the depth limit searched (None: to the end of the game);
    * ``stats``     -- positions visited, leaves, cut-offs, time;
    * ``source``    -- where the answer came from: ``search`` (this search),
      ``store`` (the store of proven results) or ``book`` (an opening book);
      an answer kept from an earlier proof counts no positions searched;
    * ``margin``    -- for the solve of a game with sized results
      (``Game.max_margin``): the exact final margin for the side to move
      under perfect play (Othello: the disc difference), ``best_moves`` the
      moves reaching it; None otherwise.
    """

    best_move: A | None
    score: Score
    pv: tuple[A, ...]
    stats: SearchStats
    depth: int | None = None
    best_moves: tuple[A, ...] = ()
    moves: tuple[MoveScore[A], ...] = field(default_factory=tuple)
    source: str = "search"
    margin: int | None = None


@dataclass(frozen=True)
class Progress(Generic[A]):
    """A report after each completed iteration (engine) or null-window probe
    (solver).

    * ``depth``   -- the depth just completed; None for a solver probe or an
                     iteration that reached the end of the game everywhere;
    * ``score``   -- the best move's score (solver: the lower bound so far,
                     exact once ``lower == upper``);
    * ``pv``      -- the principal variation (may be empty in the solver);
    * ``nodes``, ``nps``, ``time_s`` -- since the search started;
    * ``tt_hit_rate`` -- table hits per probe (0.0 without a table);
    * ``lower``, ``upper`` -- the solver's proven bounds on the value (None
      from the engine);
    * ``moves``   -- during :meth:`Engine.analyze`, every root move scored at
      this depth, best first (empty from other searches).
    """

    depth: int | None
    score: Score
    best_move: A | None
    pv: tuple[A, ...]
    nodes: int
    nps: float
    time_s: float
    tt_hit_rate: float
    lower: int | None = None
    upper: int | None = None
    moves: tuple[MoveScore[A], ...] = ()
