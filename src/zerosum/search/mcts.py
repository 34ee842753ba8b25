"""Monte Carlo tree search (UCT) with the MCTS-Solver, for any game.

>>> import zerosum
>>> from zerosum.search.mcts import MCTS
>>> from zerosum.search.types import Limits
>>> game = zerosum.load("tictactoe")
>>> mcts = MCTS(game, seed=1)
>>> result = mcts.analyze(game.play("0 4 1".split()), Limits(iterations=3000))
>>> game.format_move(result.best_move), result.score.describe()
('2', 'draw')

Each iteration does the four steps of the textbook algorithm:

1. **selection** -- from the root, while a node's moves are all expanded,
   go to the child with the highest UCT value ``q + c * sqrt(ln N / n)``
   (``q`` the child's mean result for the player choosing it, ``N`` and
   ``n`` the parent's and child's visits, ``c`` the exploration constant);
2. **expansion** -- add one child for a move not tried yet (drawn at random);
3. **playout** -- play the game to its end from there, uniformly at random
   (``playout="win"``: a move that wins at once, when the game's
   ``winning_action`` hook finds one, else random), or, with
   ``tree="python"`` when the game has native code, a batch of compiled
   playouts (:mod:`zerosum.native.playout`);
4. **backpropagation** -- add the result (win 1, draw 1/2, loss 0, for the
   player who moved into each node) to every node on the path.

The MCTS-Solver (Winands, Björnsson and Saito, 2008)
----------------------------------------------------
A terminal node's value is known; a node one of whose children is a proven
win for the player to move is a proven win; a node whose children are all
expanded and proven has the best of their values (a loss when they all
lose). Proofs are propagated during backpropagation; selection never enters
a child proven lost for the chooser, and once the root is proven a move
search ends. A proven move is reported with an exact :class:`Score`. The
distance to the end is tracked as well: exact when every child of every
node on the proof was proven with an exact distance (then it is the
negamax distance: quickest win, slowest loss), otherwise only an upper bound
and the score says ``distance_known=False``.

How results are reported
------------------------
``SearchStats.nodes`` and ``Progress.nodes`` count **iterations** (playout
results backed up; a descent that ends on a proven node counts one) and
``nps`` is then playouts per second; ``leaves`` counts playouts run. Each
root move's :class:`MoveScore` has ``visits`` and ``win_rate`` (the root
player's mean result through it), and an unproven move's score is the win
rate on a heuristic scale: ``round(1000 * (2 * win_rate - 1))``, from -1000
(always lost) to +1000 (always won). The principal variation follows the
most visited children (a proven win's quickest winning child first).

Where the game has native code (and the backend is not ``python``), the
whole search runs compiled by default (:mod:`zerosum.native.tree`: the same
algorithm with the tree in arrays; a node's children are created together on
its second visit; a reused subtree is moved to the front of the arrays).

Tree reuse: the tree is kept between searches of one :class:`MCTS`; a
later search at a position found among the last root's descendants (up to
:data:`REUSE_PLIES` plies down, e.g. after the opponent's reply) starts
from that subtree and its statistics.

Randomness comes from a seeded generator only (``seed``, else 0, or the
``rng`` a caller passes to :meth:`MCTS.best_move`): the same seed and
iteration budget give the same search. A time limit makes the amount of
search depend on the machine.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game import Game, ZerosumError
from ..i18n import _
from .backends import NOT_REGISTERED, NativeBackend
from .backends import native as native_backend
from .engine import Progress
from .types import WIN, Limits, MoveScore, Score, SearchResult, SearchStats, loss_in, win_in

#: The exploration constant by default: UCB1's sqrt(2) for results in [0, 1].
EXPLORATION = math.sqrt(2)
#: Nodes kept in the tree at most; past it, leaves are played out without
#: being expanded (so a long search does not exhaust memory).
MAX_NODES = 3_000_000
#: How far below the last root a later search looks for its position.
REUSE_PLIES = 2
#: Seconds between two progress reports (the first comes sooner).
PROGRESS_SECONDS = 0.5
FIRST_PROGRESS_SECONDS = 0.1
#: Iterations between two looks at the clock and stop().
CHECK_EVERY = 16
#: The playout policies.
PLAYOUTS = ("random", "win")
#: Where playouts run: ``native`` needs numba and the game's native code.
BACKENDS = ("auto", "python", "native")
#: Native playouts per leaf: a batch amortises the call into compiled code
#: (each counts as one iteration).
NATIVE_BATCH = 8

ProgressCallback = Callable[[Progress[Any]], None]
#: SearchOptions carrying an MCTSConfig (see :func:`options`).
_Options: Any = None


@dataclass(frozen=True)
class MCTSConfig:
    """How Monte Carlo tree search runs (how long is :class:`Limits`).

    * ``exploration`` -- the UCT constant ``c`` (results lie in [0, 1]);
    * ``playout``     -- ``random`` (uniform) or ``win`` (take a move that
      wins at once when ``game.winning_action`` finds one);
    * ``solver``      -- the MCTS-Solver: prove wins and losses in the tree;
    * ``reuse``       -- keep the tree between searches;
    * ``backend``     -- ``auto`` (native playouts when the game has native
      code and numba is installed), ``python`` or ``native`` (an error when
      not available); the native playouts are uniformly random;
    * ``tree``        -- with native playouts: ``native`` (default) keeps
      the whole tree in compiled code (:mod:`zerosum.native.tree`: one
      playout per iteration, children created all at once on a node's
      second visit); ``python`` keeps the
      Python tree and plays ``batch`` compiled playouts per expanded leaf;
    * ``batch``       -- native playouts per expanded leaf (Python tree);
    * ``max_nodes``   -- tree size cap.
    """

    exploration: float = EXPLORATION
    playout: str = "random"
    solver: bool = True
    reuse: bool = True
    backend: str = "auto"
    tree: str = "native"
    batch: int = NATIVE_BATCH
    max_nodes: int = MAX_NODES

    def __post_init__(self) -> None:
        if not (
            isinstance(self.exploration, int | float)
            and math.isfinite(self.exploration)
            and self.exploration >= 0
        ):
            raise ZerosumError(
                _("the exploration constant must be a number of at least 0, got {value}").format(
                    value=str(self.exploration)[:40]
                )
            )
        if self.playout not in PLAYOUTS:
            raise ZerosumError(
                _("unknown playout policy {name!r}; expected one of {names}").format(
                    name=str(self.playout)[:40], names=", ".join(PLAYOUTS)
                )
            )
        if self.backend not in BACKENDS:
            raise ZerosumError(
                _("unknown backend {name!r}; expected one of {names}").format(
                    name=str(self.backend)[:40], names=", ".join(BACKENDS)
                )
            )
        if self.playout != "random" and self.backend == "native":
            raise ZerosumError(
                _("native playouts are uniformly random; expected playout=random")
            )
        if self.tree not in ("native", "python"):
            raise ZerosumError(
                _("unknown tree {name!r}; expected native or python").format(
                    name=str(self.tree)[:40]
                )
            )
        for name, value in (("batch", self.batch), ("max_nodes", self.max_nodes)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ZerosumError(
                    _("{name} must be a whole number of at least 1, got {value}").format(
                        name=name, value=str(value)[:40]
                    )
                )


class _Node:
    """A node of the tree.

    * ``owner``  -- the player who moved into this node (whose results
      ``reward`` adds up, and for whom ``proven`` is stated);
    * ``player`` -- the player to move here;
    * ``untried``-- moves not expanded yet (None until first needed);
    * ``pess``, ``opti`` -- proven bounds on the outcome for ``owner``
      (-1 loss, 0 draw, +1 win): score-bounded MCTS;
    * ``proven`` -- None, or the proven outcome (when ``pess == opti``);
    * ``dist``, ``exact_dist`` -- plies to the end along the proof, and
      whether that is the exact (negamax) distance or an upper bound.
    """

    __slots__ = (
        "children",
        "dist",
        "exact_dist",
        "move",
        "opti",
        "owner",
        "pess",
        "player",
        "proven",
        "reward",
        "state",
        "untried",
        "visits",
    )

    def __init__(self, move: Any, state: Any, owner: int, player: int) -> None:
        self.move = move
        self.state = state
        self.owner = owner
        self.player = player
        self.children: list[_Node] = []
        self.untried: list[Any] | None = None
        self.visits = 0
        self.reward = 0.0
        self.proven: int | None = None
        self.pess = -1
        self.opti = 1
        self.dist = 0
        self.exact_dist = True


class MCTS:
    """Monte Carlo tree search bound to one game (the front door's
    :class:`~zerosum.search.front.Algorithm`). Keeps its tree between
    searches; one search at a time; :meth:`stop` from another thread."""

    def __init__(
        self,
        game: Game[Any, Any],
        config: MCTSConfig | None = None,
        seed: int | None = None,
    ) -> None:
        self.game = game
        self.config = config or MCTSConfig()
        self.rng = random.Random(0 if seed is None else seed)
        self._stop = threading.Event()
        self._root: _Node | None = None
        self.native: Any = None
        self.adapter: Any = None
        self._tree: Any = None
        self._backend: NativeBackend | None = None
        #: Whether the compiled tree holds a search of this game (not the
        #: warm-up's).
        self._reusable = False
        # The compiled playouts are uniformly random: another policy runs in
        # Python (MCTSConfig refuses it with backend native).
        if self.config.playout == "random" and self.config.backend != "python":
            backend = native_backend()
            adapter = None if backend is None else backend.adapter_for(game)
            if adapter is not None:
                assert backend is not None
                self.native = backend.playouts(adapter, game.to_move)
                self.adapter = adapter
                self._backend = backend
                self._warm_up()
            elif self.config.backend == "native":
                raise ZerosumError(
                    NOT_REGISTERED if backend is None else backend.unsupported_reason(game)
                )

    def _warm_up(self) -> None:
        """Compile (or load from numba's cache) the kernels now, so that the
        first search's clock is not spent on it: one tiny search from the
        start."""
        start = self.game.initial_state()
        if self.game.is_terminal(start):
            return
        if self.config.tree == "native":
            assert self._backend is not None
            self._tree = self._backend.tree(self.adapter, self.config.max_nodes)
            self._tree.start(start, 1)
            self._tree.run(1, float(self.config.exploration))
            self._tree.line(0)
        else:
            self.native.run(start, 1, random.Random(0))

    @property
    def backend(self) -> str:
        """Where playouts run: ``native`` or ``python``."""
        return "native" if self.native is not None else "python"

    # -- the front door's protocol -------------------------------------------------
    def analyze(
        self,
        state: Any,
        limits: Limits,
        multipv: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> SearchResult[Any]:
        """Every root move with its visits, win rate and (proven) score,
        best first (the ``multipv`` best only when given). Runs until the
        budget is spent or every root move is proven."""
        result = self._search(state, limits, None, on_progress, until_all=True)
        if multipv is None:
            return result
        return _replace_moves(result, result.moves[:multipv])

    def best_move(
        self,
        state: Any,
        limits: Limits,
        rng: random.Random | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> SearchResult[Any]:
        """The move to play: a proven win if there is one, else the most
        visited move (a proven draw is preferred to a move whose win rate is
        below one half). Ends early once the root is proven."""
        return self._search(state, limits, rng, on_progress, until_all=False)

    def solve(
        self,
        state: Any,
        weak: bool = False,
        depth: int | None = None,
        on_progress: ProgressCallback | None = None,
        limits: Limits | None = None,
        all_moves: bool = True,
    ) -> SearchResult[Any]:
        """Search until the MCTS-Solver proves the root (or :meth:`stop`, or
        ``limits`` run out); the outcome is exact, its distance only when
        every line was proven. Stopped before:
        :class:`~.solver.SolveInterrupted`."""
        if depth is not None:
            raise ZerosumError(_("mcts takes no depth limit; expected a time or iterations"))
        result = self._search(state, limits or Limits(), None, on_progress, until_all=False)
        if not result.score.exact:
            from .solver import SolveInterrupted

            raise SolveInterrupted(-WIN, WIN, result.best_move, result.stats)
        return result

    def stop(self) -> None:
        """From another thread: end the running search, which returns what it
        has. A request made before the search starts is lost."""
        self._stop.set()

    # -- the search ---------------------------------------------------------------------
    def _root_for(self, state: Any) -> _Node:
        """The node for ``state``: from the last tree when it is there (tree
        reuse), else a new one."""
        game = self.game
        old = self._root
        if old is not None and self.config.reuse:
            level = [old]
            for _depth in range(REUSE_PLIES + 1):
                for node in level:
                    if node.state == state:
                        return node
                level = [child for node in level for child in node.children]
        player = game.to_move(state)
        return _Node(None, state, 1 - player, player)

    def _search(
        self,
        state: Any,
        limits: Limits,
        rng: random.Random | None,
        on_progress: ProgressCallback | None,
        until_all: bool,
    ) -> SearchResult[Any]:
        if limits.depth is not None:
            raise ZerosumError(_("mcts takes no depth limit; expected a time or iterations"))
        self._stop.clear()
        started = time.perf_counter()
        generator = rng if rng is not None else self.rng
        if self.native is not None and self.config.tree == "native":
            return self._search_compiled(
                state, limits, generator, on_progress, until_all, started
            )
        root = self._root_for(state)
        self._root = root
        budget = min(
            (n for n in (limits.iterations, limits.nodes) if n is not None), default=None
        )
        deadline = None if limits.time is None else started + limits.time
        done, playouts = self._run(
            root, budget, deadline, generator, on_progress, started, until_all
        )
        elapsed = time.perf_counter() - started
        if on_progress is not None and root.children:
            on_progress(self._progress(root, done, elapsed))
        return self._result(root, done, playouts, elapsed)

    def _search_compiled(
        self,
        state: Any,
        limits: Limits,
        rng: random.Random,
        on_progress: ProgressCallback | None,
        until_all: bool,
        started: float,
    ) -> SearchResult[Any]:
        """The search with its tree in compiled code
        (:mod:`zerosum.native.tree`), run in chunks of iterations between
        looks at the budget, the clock, stop() and progress."""
        if self._tree is None:
            assert self._backend is not None
            self._tree = self._backend.tree(self.adapter, self.config.max_nodes)
        tree = self._tree
        seed = rng.getrandbits(63)
        if not (self.config.reuse and self._reusable and tree.reroot(state, seed, REUSE_PLIES)):
            tree.start(state, seed)
        self._reusable = True
        budget = min(
            (n for n in (limits.iterations, limits.nodes) if n is not None), default=None
        )
        deadline = None if limits.time is None else started + limits.time
        exploration = float(self.config.exploration)
        perf_counter = time.perf_counter
        chunk = 16
        next_report = started + FIRST_PROGRESS_SECONDS
        root = _ArrayNode(tree, 0, self.adapter.action)
        while True:
            done = tree.done
            if budget is not None and done >= budget:
                break
            todo = chunk if budget is None else min(chunk, budget - done)
            before = perf_counter()
            tree.run(todo, exploration)
            now = perf_counter()
            if tree.exhausted or (not until_all and tree.root_proven()):
                break
            if self._stop.is_set() or (deadline is not None and now >= deadline):
                break
            # chunks of 1-4 ms: few calls, yet a prompt stop and a deadline
            # kept to within a chunk
            spent = now - before
            if spent < 0.001 and chunk < 1 << 20:
                chunk *= 2
            elif spent > 0.004 and chunk > 1:
                chunk //= 2
            if deadline is not None:
                rate = todo / spent if spent > 0 else 1e6
                chunk = max(1, min(chunk, int(0.8 * rate * (deadline - now)) + 1))
            if on_progress is not None and now >= next_report:
                next_report = now + PROGRESS_SECONDS
                on_progress(self._progress(root, tree.done, now - started))  # type: ignore[arg-type]
        elapsed = perf_counter() - started
        if on_progress is not None:
            on_progress(self._progress(root, tree.done, elapsed))  # type: ignore[arg-type]
        if not tree.children(0):  # nothing searched (no time at all): the first legal move
            first = next(iter(self.game.actions(state)))
            stats = SearchStats(time_s=elapsed)
            return SearchResult(first, Score(0), (first,), stats, None, (first,), ())
        return self._result(root, tree.done, tree.playouts, elapsed)  # type: ignore[arg-type]

    def _run(
        self,
        root: _Node,
        budget: int | None,
        deadline: float | None,
        rng: random.Random,
        on_progress: ProgressCallback | None,
        started: float,
        until_all: bool,
    ) -> tuple[int, int]:
        """The iterations; returns (iterations, playouts). Written as one
        function with everything it touches in locals: attribute look-ups
        per iteration are what costs most in Python."""
        game = self.game
        config = self.config
        actions = game.actions
        result = game.result
        is_terminal = game.is_terminal
        utility = game.utility
        to_move = game.to_move
        random_ = rng.random
        c = config.exploration
        solver = config.solver
        log = math.log
        sqrt = math.sqrt
        perf_counter = time.perf_counter
        stop_is_set = self._stop.is_set
        max_nodes = config.max_nodes
        playout = self._playout_function(rng)
        batch = config.batch if self.native is not None else 1
        node_count = _count(root) if root.children else 1

        done = playouts = 0
        # The clock every iteration when one is slow (a long game in Python).
        check_every = 1 if deadline is not None else CHECK_EVERY
        next_check = check_every
        next_report = started + FIRST_PROGRESS_SECONDS
        while True:
            if root.proven is not None and not until_all:
                break
            if budget is not None and done >= budget:
                break
            if done >= next_check:
                next_check = done + check_every
                if stop_is_set():
                    break
                now = perf_counter()
                if deadline is not None and now >= deadline:
                    break
                if on_progress is not None and now >= next_report:
                    next_report = now + PROGRESS_SECONDS
                    on_progress(self._progress(root, done, now - started))

            # -- selection ----------------------------------------------------------
            node = root
            path = [root]
            best: _Node | None = root
            while True:
                if node.proven is not None and node is not root:
                    break
                untried = node.untried
                if untried is None:
                    untried = node.untried = list(actions(node.state))
                if untried:
                    break
                logn = log(node.visits)
                best = None
                best_value = -1.0
                at_root = node is root
                # What the chooser is proven to get at least: a child that
                # cannot do better is not worth searching.
                floor = node.pess if node.owner == node.player else -node.opti
                if at_root and until_all:
                    floor = -2  # analysis: every move's value is wanted
                for child in node.children:
                    if solver and (
                        child.opti <= floor or (at_root and child.proven is not None)
                    ):
                        continue
                    n = child.visits
                    value = child.reward / n + c * sqrt(logn / n)
                    if value > best_value:
                        best_value = value
                        best = child
                if best is None:
                    break  # the root, every move proven: nothing left to learn
                node = best
                path.append(node)
            if best is None and node is root and not root.untried:
                break

            # -- expansion ----------------------------------------------------------
            untried = node.untried
            if node.proven is None and untried and node_count < max_nodes:
                i = int(random_() * len(untried))
                move = untried[i]
                untried[i] = untried[-1]
                untried.pop()
                child_state = result(node.state, move)
                child = _Node(move, child_state, node.player, to_move(child_state))
                node_count += 1
                if is_terminal(child_state):
                    child.proven = child.pess = child.opti = utility(child_state, node.player)
                    child.untried = []
                node.children.append(child)
                path.append(child)
                node = child

            # -- playout (or a proven value) --------------------------------------------
            proven = node.proven
            if proven is not None:
                k = 1
                # the owner's result, seen from player 0
                r0 = (proven + 1) * 0.5 if node.owner == 0 else (1 - proven) * 0.5
            elif batch > 1:
                k = batch
                r0 = self.native.run(node.state, k, rng)
                playouts += k
            else:
                k = 1
                r0 = (playout(node.state) + 1) * 0.5
                playouts += 1
            done += k

            # -- backpropagation ------------------------------------------------------------
            for visited in path:
                visited.visits += k
                visited.reward += r0 if visited.owner == 0 else k - r0
            if solver and proven is not None:
                _propagate(path)
        return done, playouts

    def _playout_function(self, rng: random.Random) -> Callable[[Any], int]:
        """A playout from a state to the end: the utility for player 0."""
        game = self.game
        actions = game.actions
        result = game.result
        is_terminal = game.is_terminal
        utility = game.utility
        random_ = rng.random
        if self.config.playout == "win" and (
            type(game).winning_action is not Game.winning_action
        ):
            winning_action = game.winning_action

            def playout_win(state: Any) -> int:
                while not is_terminal(state):
                    move = winning_action(state)
                    if move is None:
                        moves = actions(state)
                        move = moves[int(random_() * len(moves))]
                    state = result(state, move)
                return utility(state, 0)

            return playout_win

        def playout(state: Any) -> int:
            while not is_terminal(state):
                moves = actions(state)
                state = result(state, moves[int(random_() * len(moves))])
            return utility(state, 0)

        return playout

    # -- reporting ----------------------------------------------------------------------
    def _progress(self, root: _Node, done: int, elapsed: float) -> Progress[Any]:
        moves = self._root_moves(root)
        best = moves[0] if moves else None
        return Progress(
            depth=None,
            score=best.score if best else Score(0),
            best_move=best.move if best else None,
            pv=best.pv if best else (),
            nodes=done,
            nps=done / elapsed if elapsed > 0 else 0.0,
            time_s=elapsed,
            tt_hit_rate=0.0,
            moves=moves,
        )

    def _root_moves(self, root: _Node) -> tuple[MoveScore[Any], ...]:
        entries = [(_rank(child), child) for child in root.children]
        entries.sort(key=lambda pair: pair[0], reverse=True)
        # The compiled tree's lines are followed in compiled code.
        lines = getattr(root, "line_below", _line)
        return tuple(
            MoveScore(
                child.move,
                _score(child),
                (child.move, *lines(child)),
                child.visits,
                visits=child.visits,
                win_rate=child.reward / child.visits if child.visits else 0.5,
            )
            for _rank_, child in entries
        )

    def _result(
        self, root: _Node, done: int, playouts: int, elapsed: float
    ) -> SearchResult[Any]:
        moves = self._root_moves(root)
        stats = SearchStats(nodes=done, leaves=playouts, time_s=elapsed)
        if not moves:  # no iteration ran: the first legal move
            first = next(iter(self.game.actions(root.state)))
            return SearchResult(first, Score(0), (first,), stats, None, (first,), ())
        best = moves[0]
        if best.score.exact:
            outcome = best.score.outcome
            best_moves = tuple(
                m.move for m in moves if m.score.exact and m.score.outcome == outcome
            )
        else:
            best_moves = (best.move,)
        return SearchResult(best.move, best.score, best.pv, stats, None, best_moves, moves)


class _ArrayNode:
    """A node of the compiled tree seen as a :class:`_Node` (the attributes
    the reporting helpers read), for the root and the lines below it."""

    __slots__ = ("action", "i", "tree")

    def __init__(self, tree: Any, i: int, action: Callable[[int], Any]) -> None:
        self.tree = tree
        self.i = i
        self.action = action

    @property
    def move(self) -> Any:
        return self.action(int(self.tree.move[self.i]))

    @property
    def state(self) -> Any:
        return None

    @property
    def proven(self) -> int | None:
        pess, opti = int(self.tree.pess[self.i]), int(self.tree.opti[self.i])
        return pess if pess == opti else None

    @property
    def opti(self) -> int:
        return int(self.tree.opti[self.i])

    @property
    def dist(self) -> int:
        return int(self.tree.dist[self.i])

    @property
    def exact_dist(self) -> bool:
        return bool(self.tree.exact[self.i])

    @property
    def visits(self) -> int:
        return int(self.tree.visits[self.i])

    @property
    def reward(self) -> float:
        return float(self.tree.reward[self.i])

    def line_below(self, node: _ArrayNode) -> tuple[Any, ...]:
        """The moves below ``node`` along the best children (as :func:`_line`)."""
        moves = self.tree.move
        return tuple(self.action(int(moves[i])) for i in self.tree.line(node.i))

    @property
    def children(self) -> list[_ArrayNode]:
        # unvisited children have told nothing yet
        return [
            _ArrayNode(self.tree, j, self.action)
            for j in self.tree.children(self.i)
            if self.tree.visits[j] > 0 or self.tree.pess[j] == self.tree.opti[j]
        ]


# -- helpers ------------------------------------------------------------------------------
def _propagate(path: list[_Node]) -> None:
    """After the last node of ``path`` was found proven: tighten the bounds of
    its ancestors from their children's (score-bounded MCTS-Solver), from
    the bottom up, while they change.

    For the chooser at a node (the player to move there, who owns its
    children): at least the best child's lower bound; at most the best
    child's upper bound once every move is expanded (else anything)."""
    for i in range(len(path) - 1, 0, -1):
        parent = path[i - 1]
        if parent.proven is not None:
            return
        children = parent.children
        pess = max(child.pess for child in children)
        opti = 1 if parent.untried else max(child.opti for child in children)
        if parent.owner != parent.player:
            pess, opti = -opti, -pess
        if pess == parent.pess and opti == parent.opti:
            return
        parent.pess, parent.opti = pess, opti
        if pess != opti:
            continue
        # Proven. Distance: quickest win, slowest loss for the chooser;
        # exact when every child is proven with an exact distance.
        value = pess if parent.owner == parent.player else -pess
        parent.proven = pess
        if value == 0:
            parent.dist, parent.exact_dist = 0, True
            continue
        same = [child.dist for child in children if child.proven == value]
        parent.dist = 1 + (min(same) if value > 0 else max(same))
        # A win through a finished game (one ply) cannot come sooner.
        parent.exact_dist = (value > 0 and parent.dist == 1) or (
            not parent.untried
            and all(child.proven is not None and child.exact_dist for child in children)
        )


def _score(child: _Node) -> Score:
    """A root move's score for the side to move at the root (the child's
    owner)."""
    if child.proven is not None:
        if child.proven == 0:
            return Score(0, exact=True)
        plies = child.dist + 1
        raw = win_in(plies) if child.proven > 0 else loss_in(plies)
        return Score(raw, exact=True, distance_known=child.exact_dist)
    rate = child.reward / child.visits if child.visits else 0.5
    return Score(round(1000 * (2 * rate - 1)))


def _rank(child: _Node) -> tuple[int, float, float]:
    """Best first, for the player choosing ``child``: proven wins (quickest
    first); unproven moves that may still win and win at least half their
    playouts (most visited first); proven draws; the other unproven moves
    (those proven unable to win, then any winning less than half); proven
    losses (slowest first)."""
    proven = child.proven
    if proven is not None:
        if proven > 0:
            return (5, -child.dist, 0.0)
        if proven < 0:
            return (0, child.dist, 0.0)
        return (3, 0.0, 0.0)
    rate = child.reward / child.visits if child.visits else 0.5
    if child.opti > 0 and rate >= 0.5:
        return (4, child.visits, rate)
    return (2, child.visits, rate)


def _line(node: _Node) -> tuple[Any, ...]:
    """The moves below ``node`` along the best children (a proven win for
    the chooser first, else the most visited child not proven lost)."""
    line: list[Any] = []
    while node.children and len(line) < 64:
        node = max(node.children, key=_rank)
        line.append(node.move)
    return tuple(line)


def _count(root: _Node) -> int:
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children)
    return count


def _replace_moves(
    result: SearchResult[Any], moves: tuple[MoveScore[Any], ...]
) -> SearchResult[Any]:
    return SearchResult(
        result.best_move,
        result.score,
        result.pv,
        result.stats,
        result.depth,
        result.best_moves,
        moves,
    )


def _factory(game: Game[Any, Any], options: Any) -> MCTS:
    """The front door's factory: ``options`` is its SearchOptions (seed and
    backend are used; an :func:`options` value also carries the
    :class:`MCTSConfig`)."""
    config = getattr(options, "mcts", None)
    if config is None:
        backend = options.backend if options.backend in BACKENDS else "auto"
        config = MCTSConfig(backend=backend)
    return MCTS(game, config, seed=options.seed)


def options(config: MCTSConfig | None = None, seed: int | None = None) -> Any:
    """The front door's :class:`~zerosum.search.front.SearchOptions` for
    Monte Carlo tree search with ``config`` (exploration, playouts,
    backend...) and ``seed``:
    ``Searcher(game, mcts.options(MCTSConfig(exploration=1.0), seed=3))``."""
    chosen = config or MCTSConfig()
    return _Options(algorithm="mcts", backend=chosen.backend, seed=seed, mcts=chosen)


def _register() -> None:
    from dataclasses import make_dataclass

    from . import front

    global _Options
    # SearchOptions with the MCTS settings (made here: front imports this
    # module's package first).
    _Options = make_dataclass(
        "MCTSSearchOptions",
        [("mcts", MCTSConfig | None, None)],
        bases=(front.SearchOptions,),
        frozen=True,
    )

    front.register_algorithm(
        "mcts",
        _factory,
        analysis_limits=Limits(time=front.DEFAULT_ANALYSIS_SECONDS),
        move_limits=Limits(time=front.DEFAULT_MOVE_SECONDS),
        limit_kinds=frozenset({"time", "nodes", "iterations"}),
    )


_register()

__all__ = ["EXPLORATION", "MCTS", "PLAYOUTS", "MCTSConfig", "options"]
