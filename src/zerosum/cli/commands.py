"""The commands: each reads its options, asks the search front door
(:mod:`zerosum.search.front`) or the game, and hands the result to
:mod:`.render` or to the JSON objects of :mod:`zerosum.report`."""

from __future__ import annotations

import argparse
import contextvars
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar, cast

from ..game import Game, ZerosumError, excerpt, whole_number
from ..i18n import _
from ..play.agents import Agent, EngineAgent, HumanAgent
from ..play.match import play_match
from ..play.players import PlayerSpec, make_agent, side_seeds, spec_of
from ..registry import games_table, load
from ..report import (
    analyze_object,
    error_object,
    games_list,
    json_line,
    perft_object,
    position_fields,
    solve_object,
)
from ..search.engine import MAX_THREADS, every_core
from ..search.front import Searcher, SearchOptions
from ..search.perft import divide, perft
from ..search.proven import set_books_enabled, set_default_store
from ..search.solver import SolveInterrupted
from ..search.types import Limits, Progress, Score, SearchResult
from .inputs import input_lines, undecodable_line
from .parser import EXIT_USAGE, Stopped, UsageError, error_line
from .render import (
    TerminalObserver,
    ThinkingAgent,
    print_analysis,
    print_solution,
    progress_view,
)
from .store import store_for, use_book, use_store


# -- positions from the command line -------------------------------------------
def _position(game: Game[Any, Any], position: str | None, moves: str | None) -> Any:
    state = game.initial_state() if position is None else game.parse_position(position)
    if moves:
        state = game.play_text(moves, state)
    return state


T = TypeVar("T")


def _searching(search: Callable[[], T]) -> T:
    """Run a search; a game deeper than Python's recursion allows is one
    clear error rather than a RecursionError traceback."""
    try:
        return search()
    except RecursionError:
        raise ZerosumError(
            _(
                "the game is too long for the Python search: it recurses one level a ply"
                " and Python allows about {limit}; expected a depth limit or a shorter game"
            ).format(limit=sys.getrecursionlimit())
        ) from None


#: The levels for learners: their AI lists every move's score by default.
LEARNER_LEVELS = ("easy", "medium")

#: Seconds Ctrl+C waits for a stopped search to hand back what it found.
STOP_WAIT = 2.0


class Interrupted(KeyboardInterrupt):
    """Ctrl+C during :func:`_interruptible`: ``outcome`` is what the
    stopped search returned, or the exception it ended with (None when it
    did not end within :data:`STOP_WAIT`)."""

    def __init__(self, outcome: object) -> None:
        super().__init__()
        self.outcome = outcome


class StoppedWith(Exception):
    """Ctrl+C stopped a search that had a result to show: the command shows
    ``result`` and ends with exit status 130, as for any Ctrl+C."""

    def __init__(self, result: SearchResult[Any]) -> None:
        super().__init__()
        self.result = result


def _interruptible(search: Callable[[], T], stop: Callable[[], None]) -> T:
    """Run ``search`` in a worker thread (in this context: the language),
    so that Ctrl+C reaches it even inside a compiled kernel, which the main
    thread could not leave: Ctrl+C calls ``stop()``, waits for the search
    to end, and raises :class:`Interrupted` with what it ended with."""
    outcome: list[object] = []
    done = threading.Event()
    context = contextvars.copy_context()

    def work() -> None:
        try:
            outcome.append(context.run(search))
        except BaseException as error:  # handed to the main thread
            outcome.append(error)
        finally:
            done.set()

    # An event rather than Thread.join: a join that Ctrl+C interrupts can
    # leave the thread looking finished to the next join.
    try:
        # start() inside the try: the search may already print (and the user
        # press Ctrl+C) before start() has returned in this thread.
        threading.Thread(target=work, name="zerosum-search", daemon=True).start()
        while not done.wait(0.1):
            pass
    except KeyboardInterrupt:
        stop()
        done.wait(STOP_WAIT)
        raise Interrupted(outcome[0] if outcome else None) from None
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return cast(T, outcome[0])


# -- commands --------------------------------------------------------------------
def cmd_games(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    rows = games_table()
    if args.json:
        out(json_line(games_list(rows)))
        return 0
    out(_("Games (parameters with their defaults):"))
    width = max(len(n) for n, _p, _d in rows)
    for name, params, description in rows:
        out(f"  {name:<{width}}  {params or '-'}")
        out(f"  {'':<{width}}  {description}")
    out(_('Example: zerosum play tictactoe, zerosum analyze "connect4(width=7,height=6)"'))
    return 0


def player_spec(kind: str, args: argparse.Namespace) -> PlayerSpec:
    """The spec of a ``--x``/``--o`` player (``human``, ``random``, ``mcts``
    or ``ai``) from the command line's limits."""
    if kind in ("human", "random"):
        return PlayerSpec(kind)
    if kind == "mcts":
        backend = None if args.backend == "auto" else args.backend
        return spec_of("mcts", time=args.time, iterations=args.iterations, backend=backend)
    if args.level is not None and args.algorithm != "engine":
        raise UsageError(
            _("--level needs --algorithm engine, not {name}").format(name=args.algorithm)
        )
    return spec_of(
        "engine",
        level=args.level,
        depth=args.depth,
        time=args.time,
        iterations=None if args.level is not None else iterations_for(args),
    )


def _agent(kind: str, args: argparse.Namespace, side: int) -> Agent:
    spec = player_spec(kind, args)
    seed = side_seeds(args.seed)[side]
    return make_agent(spec, seed, options=search_options(args) if kind == "ai" else None)


def _thinking(side: Agent) -> Agent:
    return ThinkingAgent(side, sys.stdout) if isinstance(side, EngineAgent) else side


def cmd_play(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    game = load(args.game)
    start = _position(game, args.position, args.moves)
    sides = (_agent(args.first, args, 0), _agent(args.second, args, 1))
    scores = args.scores if args.scores is not None else args.level in LEARNER_LEVELS
    for side in sides:
        if isinstance(side, EngineAgent):
            side.scores = scores
        if isinstance(side, HumanAgent):
            # hint: the engine at the AI's limits when given, else 1 s.
            given = Limits(depth=args.depth, time=args.time)
            side.hint_limits = given if given != Limits() else Limits(time=1.0)
            side.hint_options = replace(search_options(args), algorithm="engine")
    if args.progress or sys.stdout.isatty():
        # The AI's live line while it thinks.
        sides = (_thinking(sides[0]), _thinking(sides[1]))
    out(
        _("{game}: {first} ({a}) against {second} ({b}).").format(
            game=game.spec(),
            first=game.player_name(0),
            a=sides[0].label,
            second=game.player_name(1),
            b=sides[1].label,
        )
    )
    if "human" in (args.first, args.second):
        out(
            _(
                "Type a move, or hint, undo, help (?) or quit. Legal moves are listed when a"
                " move is wrong."
            )
        )
    if hasattr(sys.stdin, "reconfigure"):
        # A byte that is not valid text is an unreadable move, not a traceback.
        sys.stdin.reconfigure(errors="replace")
    observer = TerminalObserver(out, sides)
    try:
        result = _searching(lambda: play_match(game, sides, observer, start=start))
    except KeyboardInterrupt:
        # Ctrl+C: say so, and keep what was played.
        out("")
        out(_("Interrupted; the game was not finished."))
        _print_record(game, start, observer.moves, out)
        return 130
    out("")
    if result.quit_by is not None:
        out(
            _("{player} quit; the game was not finished.").format(
                player=game.player_name(result.quit_by)
            )
        )
    elif result.outcome == 0:
        out(_("Result: draw."))
    else:
        winner = 0 if result.outcome == 1 else 1
        out(_("Result: {player} wins.").format(player=game.player_name(winner)))
    _print_record(game, start, result.moves, out)
    return 0


def _print_record(
    game: Game[Any, Any], start: Any, moves: list[Any], out: Callable[[str], None]
) -> None:
    out(_("Record of the moves:"))
    state = start
    record = []
    for number, move in enumerate(moves, 1):
        record.append(f"{number}. {game.player_name(game.to_move(state))} {game.format_move(move)}")
        state = game.result(state, move)
    out("  ".join(record) if record else _("(no moves)"))


def search_options(args: argparse.Namespace) -> SearchOptions:
    """The front door's options from the command line's."""
    return SearchOptions(
        algorithm=args.algorithm,
        backend=getattr(args, "backend", "auto"),
        hash_mb=getattr(args, "hash", None),
        symmetry=getattr(args, "symmetry", None),
        threads=threads_for(args),
        evaluate_terminals=getattr(args, "evaluate_terminals", False),
        seed=getattr(args, "seed", None),
        store=store_for(args),
        use_store=use_store(args),
        use_book=use_book(args),
    )


def threads_for(args: argparse.Namespace) -> int:
    """--threads, else ``$ZEROSUM_THREADS``, else every core for solve and
    analyze and one for the rest (a game's AI shares the machine with its
    player)."""
    threads: int | None = getattr(args, "threads", None)
    if threads is not None:
        return threads
    if args.command not in ("solve", "analyze"):
        return 1
    given = os.environ.get("ZEROSUM_THREADS", "").strip()
    if not given:
        return every_core()
    number = whole_number(given)
    if number is None or not 1 <= number <= MAX_THREADS:
        raise UsageError(
            _("ZEROSUM_THREADS must be a number of threads from 1 to {most}, got {text!r}").format(
                most=MAX_THREADS, text=excerpt(given)
            )
        )
    return number


def note_one_thread(args: argparse.Namespace, searcher: Searcher) -> None:
    """One line when --threads asks for more than one thread of a search
    that runs in Python (the GIL would serialise them: it runs on one)."""
    asked = getattr(args, "threads", None) or 1
    if asked > 1 and args.algorithm == "engine" and searcher.backend == "python":
        print(
            _("zerosum: --threads needs the native backend; searching on one thread"),
            file=sys.stderr,
        )


def iterations_for(args: argparse.Namespace) -> int | None:
    """--iterations, which only Monte Carlo tree search takes (with --o mcts
    in play it is that side's)."""
    iterations: int | None = getattr(args, "iterations", None)
    if iterations is None:
        return None
    if args.algorithm == "mcts":
        return iterations
    if "mcts" in (getattr(args, "first", None), getattr(args, "second", None)):
        return None
    raise UsageError(
        _("--iterations needs --algorithm mcts, not {name}").format(name=args.algorithm)
    )


def _analyze_one(game: Game[Any, Any], state: Any, args: argparse.Namespace) -> SearchResult[Any]:
    view = progress_view(game, state, args, sys.stdout)
    try:
        limits = Limits(
            depth=args.depth, time=args.time, nodes=args.nodes, iterations=iterations_for(args)
        )
        searcher = Searcher(game, search_options(args))
        note_one_thread(args, searcher)
        started = time.perf_counter()
        try:
            # No limit given: the algorithm's default (the engine: 10 s).
            result = _searching(
                lambda: _interruptible(
                    lambda: searcher.analyze(
                        state,
                        None if limits == Limits() else limits,
                        multipv=args.multipv,
                        on_progress=view,
                    ),
                    searcher.stop,
                )
            )
        except Interrupted as interrupt:
            if not isinstance(interrupt.outcome, SearchResult) or not interrupt.outcome.moves:
                raise Stopped(
                    _("Stopped after {seconds:.1f} s, before depth 1 was finished.").format(
                        seconds=time.perf_counter() - started
                    )
                ) from None
            # Ctrl+C stops the search, as a time limit would: show what it found.
            if view is not None:
                view.done()
            print(
                _("Stopped after {seconds:.1f} s: the analysis below is what it had found.").format(
                    seconds=time.perf_counter() - started
                ),
                file=sys.stderr,
            )
            raise StoppedWith(interrupt.outcome) from None
        if not result.moves:
            raise UsageError(
                _(
                    "the limit ended the search before it finished depth 1, so no move has a"
                    " score; expected a larger --nodes or --time"
                )
            )
        return result
    finally:
        if view is not None:
            view.done()


class Unfinished(Exception):
    """A solve that its ``--time`` or ``--nodes`` budget ended before the
    value was proven: what it proved is the answer (exit status 0)."""

    def __init__(self, bounds: SolveInterrupted, seconds: float, weak: bool) -> None:
        super().__init__("unfinished")
        self.bounds = bounds
        self.seconds = seconds
        self.weak = weak

    def lines(self, game: Game[Any, Any], state: Any) -> list[str]:
        """The text answer: what was proven, and that it is not a full solve."""
        found = [stopped_line(game, state, self.bounds, None, self.seconds, False)]
        if self.bounds.best_move is not None:
            found.append(
                _("A move proven to reach the lower bound: {move}").format(
                    move=game.format_move(self.bounds.best_move)
                )
            )
        found.append(
            _("Not a full solve: the --time or --nodes budget ran out before the value was proven.")
        )
        return found

    def json(self, game: Game[Any, Any], state: Any) -> dict[str, Any]:
        """The ``result`` object of an unfinished solve (``solved`` false)."""
        low, high = self.bounds.lower, self.bounds.upper
        move = self.bounds.best_move
        return {
            "type": "result",
            **position_fields(game, state),
            "solved": False,
            "value": 1 if low > 0 else -1 if high < 0 else 0 if low == high == 0 else None,
            "exact": False,
            "lower": low,
            "upper": high,
            "best_move": None if move is None else game.format_move(move),
            "nodes": self.bounds.stats.nodes,
            "time_s": round(self.seconds, 6),
            "weak": self.weak,
        }


def _decides(progress: Progress[Any]) -> bool:
    """Whether a solve's progress record proves the outcome (win, draw or
    loss) before the distance."""
    low, high = progress.lower, progress.upper
    if low is None or high is None:
        return False
    return low > 0 or high < 0 or low == high == 0


def _solve_one(game: Game[Any, Any], state: Any, args: argparse.Namespace) -> SearchResult[Any]:
    """The exact value (or, with --depth, the depth-limited value, which is
    exact only when the game ends within the depth). Ctrl+C ends it with
    one line saying what was proven (:class:`Stopped`); the --time or
    --nodes budget with what was proven (:class:`Unfinished`)."""
    # Solve progress goes to stderr: stdout keeps exactly one result per position.
    view = progress_view(game, state, args, sys.stderr)
    last: list[Progress[Any]] = []  # the latest progress: the bounds proven so far
    noted: list[bool] = []

    def report(progress: Progress[Any]) -> None:
        last[:] = [progress]
        if view is None:
            return
        if not view.live and not view.as_json and not noted and _decides(progress):
            # Whatever the output is: a strong solve may run for ever after
            # the outcome is proven (ten heaps of Nim: the nim-sum's answer).
            noted.append(True)
            view.note(progress)
        view(progress)

    limits = Limits(time=getattr(args, "time", None), nodes=getattr(args, "nodes", None))
    all_moves = not args.weak or getattr(args, "all_moves", False)
    searcher = Searcher(game, search_options(args))
    note_one_thread(args, searcher)
    started = time.perf_counter()
    try:
        return _searching(
            lambda: _interruptible(
                lambda: searcher.solve(
                    state,
                    weak=args.weak,
                    depth=args.depth,
                    on_progress=report,
                    limits=None if limits == Limits() else limits,
                    all_moves=all_moves,
                ),
                searcher.stop,
            )
        )
    except SolveInterrupted as spent:  # the budget ran out
        raise Unfinished(spent, time.perf_counter() - started, args.weak) from None
    except Interrupted as interrupt:  # (the view ends in finally, before main prints)
        elapsed = time.perf_counter() - started
        bounds = interrupt.outcome if isinstance(interrupt.outcome, SolveInterrupted) else None
        hint = not args.weak and args.depth is None
        latest = last[0] if last else None
        raise Stopped(stopped_line(game, state, bounds, latest, elapsed, hint)) from None
    finally:
        if view is not None:
            view.done()


def stopped_line(
    game: Game[Any, Any],
    state: Any,
    bounds: SolveInterrupted | None,
    latest: Progress[Any] | None,
    seconds: float,
    hint: bool,
) -> str:
    """What an interrupted solve had proven, in one line: the solver's
    bounds when it handed them back, else its latest progress (with
    ``hint``, a word on ``--weak``)."""
    low: int | None = None
    high: int | None = None
    nodes: int | None = None
    if bounds is not None:
        low, high, nodes = bounds.lower, bounds.upper, bounds.stats.nodes
    elif latest is not None:
        low, high = latest.lower, latest.upper
    if low is None or high is None:
        proven = _("nothing was proven yet")
    else:
        outcome = (
            _("{player} to move wins")
            if low > 0
            else _("{player} to move loses")
            if high < 0
            else _("{player} to move draws")
            if low >= 0 and high <= 0
            else _("{player} to move: the outcome is not proven")
        ).format(player=game.player_name(game.to_move(state)))
        proven = _("{outcome}; the value is between {low} and {high}").format(
            outcome=outcome,
            low=Score(low, exact=True).describe(),
            high=Score(high, exact=True).describe(),
        )
    if nodes is None:
        line = _("Stopped after {seconds:.1f} s: {proven}.").format(seconds=seconds, proven=proven)
    else:
        line = _("Stopped after {seconds:.1f} s and {nodes} positions: {proven}.").format(
            seconds=seconds, nodes=f"{nodes:,}", proven=proven
        )
    if hint:
        line += " " + _("(--weak proves only the outcome, often much sooner.)")
    return line


def _run_positions(
    args: argparse.Namespace,
    out: Callable[[str], None],
    search: Callable[[Game[Any, Any], Any, argparse.Namespace], SearchResult[Any]],
    to_json: Callable[[Game[Any, Any], Any, SearchResult[Any]], dict[str, Any]],
    show: Callable[
        [Game[Any, Any], Any, SearchResult[Any], argparse.Namespace, Callable[[str], None]], None
    ],
) -> int:
    """Shared by analyze and solve: one position from --moves/--position, or
    one per line of standard input with --batch."""
    game = load(args.game)
    if not args.batch:
        state = _position(game, args.position, args.moves)
        status = 0
        try:
            result = search(game, state, args)
        except StoppedWith as stopped:  # Ctrl+C: what was found, exit 130
            result, status = stopped.result, 130
        except Unfinished as unfinished:
            if args.json:
                out(json_line(unfinished.json(game, state)))
            else:
                out(game.render(state))
                for text in unfinished.lines(game, state):
                    out(text)
            return 0
        if args.json:
            out(json_line(to_json(game, state, result)))
        else:
            show(game, state, result, args, out)
        return status
    failures = 0
    for number, line in input_lines():
        text = "" if line is None else line.strip()
        try:
            if line is None:
                raise ZerosumError(undecodable_line())
            state = _position(game, args.position, text)
            out(json_line(to_json(game, state, search(game, state, args))))
        except StoppedWith as stopped:  # Ctrl+C: this line's answer, then stop
            out(json_line(to_json(game, state, stopped.result)))
            return 130
        except Unfinished as unfinished:  # an answer, not a failure
            out(json_line(unfinished.json(game, state)))
        except ZerosumError as error:
            failures += 1
            message = _("line {number}: {error}").format(number=number, error=error)
            out(json_line(error_object(str(error), line=number, moves=excerpt(text))))
            print(error_line(message), file=sys.stderr)
        sys.stdout.flush()
    return EXIT_USAGE if failures else 0


def cmd_analyze(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    return _run_positions(args, out, _analyze_one, analyze_object, print_analysis)


def cmd_solve(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    def to_json(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> dict[str, Any]:
        obj = solve_object(game, state, result)
        obj["weak"] = args.weak
        if args.weak:  # the outcome is proven, its distance is not
            obj["plies"] = None
        return obj

    if getattr(args, "split", None) is not None:
        from .split import run_split

        def show(
            game: Game[Any, Any], state: Any, result: SearchResult[Any], split: dict[str, Any]
        ) -> None:
            if args.json:
                out(json_line({**to_json(game, state, result), "split": split}))
            else:
                print_solution(game, state, result, args, out)

        return run_split(args, out, _position, show)
    for flag in ("workers", "cluster"):
        if getattr(args, flag, None) is not None:
            raise ZerosumError(_("--{flag} goes with --split").format(flag=flag))
    return _run_positions(args, out, _solve_one, to_json, print_solution)


def cmd_perft(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    game = load(args.game)
    state = _position(game, args.position, args.moves)
    if args.depth < 0:
        raise UsageError(_("perft depth must be 0 or more, got {depth}").format(depth=args.depth))
    import time

    started = time.perf_counter()
    split = divide(game, state, args.depth) if args.divide and args.depth else []
    count = sum(n for _m, n in split) if split else perft(game, state, args.depth)
    elapsed = time.perf_counter() - started
    if args.json:
        obj = perft_object(game, state, args.depth, count, elapsed, split if args.divide else None)
        out(json_line(obj))
        return 0
    for move, n in split:
        out(f"{game.format_move(move)}: {n}")
    out(
        _("perft({depth}) = {count}  ({time:.3f} s)").format(
            depth=args.depth, count=f"{count:,}", time=elapsed
        )
    )
    return 0


def cmd_serve(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    try:
        from ..web.app import serve
    except ImportError as error:
        raise ZerosumError(
            _(
                "the web app needs the web extra ({missing} is missing); "
                "install it with: python3 -m pip install 'zerosum[web]'"
            ).format(missing=error.name or error)
        ) from None
    # The browser's searches read and write the server's store by default
    # (each page may turn it and the books off in its settings).
    set_default_store(store_for(args))
    set_books_enabled(use_book(args))
    return serve(args.host, args.port, args.open, args.allow_hosts, args.allow_origins)
