"""The ``zerosum`` command line: games, play, analyze, solve, perft.

It only calls the public API and renders what comes back. Bad input of any
kind prints one line to stderr, ``zerosum: error: ...``, and exits with
status 2; no command shows a traceback for a user's mistake.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from . import i18n
from .agents import LEVELS, Agent, Decision, EngineAgent, HumanAgent, RandomAgent, SearchAgent
from .game import Game, Player, ZerosumError
from .i18n import _
from .match import play_match
from .registry import games_table, load
from .report import analyze_object, error_object, plies_of, progress_object, solve_object
from .search import reference, solver
from .search.engine import Engine, EngineOptions, Progress
from .search.perft import divide, perft
from .search.types import Limits, MoveScore, Score, SearchResult

#: --algorithm: the engine, or one of the reference algorithms.
ALGORITHMS = ("engine", *reference.ALGORITHMS)

EXIT_USAGE = 2

#: The AI's time per move when neither --depth, --time nor --level is given.
DEFAULT_MOVE_SECONDS = 3.0

#: The analysis time when no depth, time or node limit is given: small games
#: are solved long before it, large ones get a useful heuristic answer.
DEFAULT_ANALYSIS_SECONDS = 10.0


class UsageError(ZerosumError):
    """A command-line mistake (bad option or value)."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(
            _("{message} (see '{prog} --help')").format(message=message, prog=self.prog)
        )


# -- words a player reads ------------------------------------------------------
def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded to ``width`` terminal columns (a Chinese character
    takes two), so tables line up in both languages."""
    columns = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    space = " " * max(0, width - columns)
    return space + text if right else text + space


def algorithm_name(algorithm: str) -> str:
    return {
        "minimax": _("minimax search"),
        "alphabeta": _("alpha-beta pruning"),
        "engine": _("the engine (iterative deepening, alpha-beta, transposition table)"),
        "solver": _("the solver (null-window probes, transposition table)"),
    }.get(algorithm, algorithm)


def describe_score(score: Score) -> str:
    """A score in words: win/loss with its distance, draw, or heuristic."""
    if score.plies is not None:
        template = _("win in {n} plies") if score.raw > 0 else _("loss in {n} plies")
        return template.format(n=score.plies)
    if score.exact:
        return _("draw") if score.raw == 0 else f"{score.raw:+d}"
    return _("{score:+d} (heuristic)").format(score=score.raw)


def describe_value(value: int | None) -> str:
    return {1: _("win"), 0: _("draw"), -1: _("loss")}.get(value if value is not None else 9, "?")


# -- positions from the command line -------------------------------------------
def _position(game: Game[Any, Any], position: str | None, moves: str | None) -> Any:
    state = game.initial_state() if position is None else game.parse_position(position)
    if moves:
        state = game.play(game.split_moves(moves), state)
    return state


# -- commands --------------------------------------------------------------------
def cmd_games(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    rows = games_table()
    if args.json:
        out(json.dumps([{"name": n, "parameters": p, "description": d} for n, p, d in rows]))
        return 0
    out(_("Games (parameters with their defaults):"))
    width = max(len(n) for n, _p, _d in rows)
    for name, params, description in rows:
        out(f"  {name:<{width}}  {params or '-'}")
        out(f"  {'':<{width}}  {description}")
    out(_('Example: zerosum play tictactoe, zerosum analyze "connect4(width=7,height=6)"'))
    return 0


class TerminalObserver:
    """Shows the board after every move and whose turn it is."""

    def __init__(self, out: Callable[[str], None], sides: tuple[Agent, Agent]) -> None:
        self.out = out
        self.sides = sides

    def position(self, game: Game[Any, Any], state: Any) -> None:
        self.out("")
        self.out(game.render(state))
        if not game.is_terminal(state):
            player = game.to_move(state)
            self.out(
                _("{player} ({who}) to move").format(
                    player=game.player_name(player), who=self.sides[player].label
                )
            )

    def moved(self, game: Game[Any, Any], state: Any, player: Player, decision: Decision) -> None:
        name, move = game.player_name(player), game.format_move(decision.move)
        if decision.from_book:
            self.out(
                _("{player} plays {move} (from the opening table)").format(player=name, move=move)
            )
        elif decision.search is not None:
            search = decision.search
            self.out(
                _("{player} plays {move}: {score}, {nodes} positions searched").format(
                    player=name,
                    move=move,
                    score=describe_score(search.score),
                    nodes=search.stats.nodes,
                )
            )
        else:
            self.out(_("{player} plays {move}").format(player=name, move=move))


def _agent(kind: str, args: argparse.Namespace, seed_offset: int) -> Agent:
    if kind == "human":
        return HumanAgent()
    seed = None if args.seed is None else args.seed + seed_offset
    if kind == "random":
        return RandomAgent(seed)
    if args.algorithm != "engine":
        if args.time is not None or args.level is not None:
            raise UsageError(
                _("--time and --level need --algorithm engine, not {name}").format(
                    name=args.algorithm
                )
            )
        depth = Limits(depth=args.depth).depth
        return SearchAgent(algorithm=args.algorithm, depth=depth, seed=seed)
    if args.level is not None:
        level = LEVELS[args.level]
        limits = Limits(
            depth=args.depth if args.depth is not None else level.depth,
            time=args.time if args.time is not None else level.time,
        )
        return EngineAgent(limits, seed, level.noise)
    limits = Limits(depth=args.depth, time=args.time)
    if limits == Limits():
        # Small games are solved well within this; large ones still move.
        limits = Limits(time=DEFAULT_MOVE_SECONDS)
    return EngineAgent(limits, seed)


def cmd_play(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    game = load(args.game)
    start = _position(game, args.position, args.moves)
    sides = (_agent(args.first, args, 0), _agent(args.second, args, 1))
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
        out(_("Type a move, or quit to stop. Legal moves are listed when a move is wrong."))
    result = play_match(game, sides, TerminalObserver(out, sides), start=start)
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
    out(_("Record of the moves:"))
    state = start
    record = []
    for number, move in enumerate(result.moves, 1):
        record.append(f"{number}. {game.player_name(game.to_move(state))} {game.format_move(move)}")
        state = game.result(state, move)
    out("  ".join(record) if record else _("(no moves)"))
    return 0


class ProgressView:
    """Shows a running search's progress records: as JSON lines (``--json``),
    or as one status line rewritten in place on a terminal."""

    def __init__(
        self, game: Game[Any, Any], state: Any, stream: TextIO, as_json: bool, live: bool
    ) -> None:
        self.game = game
        #: The position searched (for the move entries of analysis progress).
        self.state = state
        self.stream = stream
        self.as_json = as_json
        self.live = live
        self.shown = False

    def __call__(self, progress: Progress[Any]) -> None:
        game = self.game
        if self.as_json:
            record = progress_object(game, self.state, progress)
            print(json.dumps(record), file=self.stream, flush=True)
            return
        if not self.live:
            return
        if progress.lower is not None and progress.upper is not None:
            head = _("value between {low} and {high}").format(
                low=describe_score(Score(progress.lower, exact=True)),
                high=describe_score(Score(progress.upper, exact=True)),
            )
        else:
            line = " ".join(game.format_move(m) for m in progress.pv[:8])
            head = _("depth {depth}: {score}, {line}").format(
                depth=progress.depth if progress.depth is not None else "∞",
                score=describe_score(progress.score),
                line=line,
            )
        tail = _(
            "{nodes} positions, {nps} positions/s, {time:.1f} s, table hits {hits:.0%}"
        ).format(
            nodes=progress.nodes,
            nps=round(progress.nps),
            time=progress.time_s,
            hits=progress.tt_hit_rate,
        )
        self.stream.write(f"\r\033[K{head} | {tail}")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        """End the in-place line so that what follows starts on its own."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


def _engine_limits(args: argparse.Namespace) -> Limits:
    limits = Limits(depth=args.depth, time=args.time, nodes=args.nodes)
    if limits == Limits():
        return Limits(time=DEFAULT_ANALYSIS_SECONDS)
    return limits


def _progress_view(
    game: Game[Any, Any], state: Any, args: argparse.Namespace, stream: TextIO
) -> ProgressView | None:
    if args.batch:
        return None
    live = args.progress or stream.isatty()
    as_json = args.json and stream is sys.stdout
    return ProgressView(game, state, stream, as_json=as_json, live=live)


def _analyze_one(game: Game[Any, Any], state: Any, args: argparse.Namespace) -> SearchResult[Any]:
    if args.multipv is not None and args.multipv < 1:
        raise UsageError(_("--multipv must be 1 or more, got {n}").format(n=args.multipv))
    if args.algorithm == "engine":
        if args.evaluate_terminals:
            raise UsageError(_("--evaluate-terminals needs --algorithm minimax or alphabeta"))
        view = _progress_view(game, state, args, sys.stdout)
        try:
            return Engine(game, _engine_options(args)).analyze(
                state, _engine_limits(args), multipv=args.multipv, on_progress=view
            )
        finally:
            if view is not None:
                view.done()
    if args.time is not None or args.nodes is not None:
        raise UsageError(
            _("--time and --nodes need --algorithm engine, not {name}").format(name=args.algorithm)
        )
    depth = Limits(depth=args.depth).depth
    if args.multipv == 1:
        # The tutorial's get_best_move: one best line, searched with the
        # root's alpha raised by each better move.
        result = reference.best_move(
            game,
            state,
            algorithm=args.algorithm,
            depth=depth,
            evaluate_terminals=args.evaluate_terminals,
        )
        assert result.best_move is not None
        entry = MoveScore(result.best_move, result.score, result.pv, result.stats.nodes)
        return SearchResult(
            result.best_move,
            result.score,
            result.pv,
            result.stats,
            depth,
            result.best_moves,
            (entry,),
        )
    result = reference.analyze(
        game,
        state,
        algorithm=args.algorithm,
        depth=depth,
        evaluate_terminals=args.evaluate_terminals,
    )
    if args.multipv is not None:
        result = SearchResult(
            result.best_move,
            result.score,
            result.pv,
            result.stats,
            result.depth,
            result.best_moves,
            result.moves[: args.multipv],
        )
    return result


def _engine_options(args: argparse.Namespace) -> EngineOptions:
    return EngineOptions(symmetry=args.symmetry)


def _solve_one(game: Game[Any, Any], state: Any, args: argparse.Namespace) -> SearchResult[Any]:
    """The exact value (or, with --depth, the depth-limited value, which is
    exact only when the game ends within the depth)."""
    depth = Limits(depth=args.depth).depth
    if args.weak and (args.algorithm != "engine" or depth is not None):
        raise UsageError(_("--weak needs --algorithm engine and no --depth"))
    if args.algorithm != "engine":
        return reference.analyze(game, state, algorithm=args.algorithm, depth=depth)
    # Solve progress goes to stderr: stdout keeps exactly one result per position.
    view = _progress_view(game, state, args, sys.stderr)
    try:
        if depth is not None:
            engine = Engine(game, _engine_options(args))
            return engine.analyze(state, Limits(depth=depth), on_progress=view)
        return solver.solve(
            game, state, weak=args.weak, options=_engine_options(args), on_progress=view
        )
    finally:
        if view is not None:
            view.done()


def _print_analysis(
    game: Game[Any, Any],
    state: Any,
    result: SearchResult[Any],
    args: argparse.Namespace,
    out: Callable[[str], None],
) -> None:
    out(game.render(state))
    out(_("{player} to move.").format(player=game.player_name(game.to_move(state))))
    horizon = (
        _("to the end of the game")
        if result.depth is None
        else _("depth {depth}").format(depth=result.depth)
    )
    out(
        _("Analysis by {algorithm}, {horizon}:").format(
            algorithm=algorithm_name(args.algorithm), horizon=horizon
        )
    )
    head = (_("move"), _("score"), _("positions"), _("principal variation"))
    out(f"  {pad(head[0], 6)} {pad(head[1], 22)} {pad(head[2], 10, right=True)}  {head[3]}")
    for entry in result.moves:
        line = " ".join(game.format_move(m) for m in entry.pv)
        out(
            f"  {pad(game.format_move(entry.move), 6)} {pad(describe_score(entry.score), 22)}"
            f" {entry.nodes:>10}  {line}"
        )
    _print_stats(result, out)


def _print_stats(result: SearchResult[Any], out: Callable[[str], None]) -> None:
    stats = result.stats
    out(
        _(
            "Positions visited: {nodes}, leaves: {leaves}, cut-offs: {cutoffs}, time: {time:.3f} s"
        ).format(nodes=stats.nodes, leaves=stats.leaves, cutoffs=stats.cutoffs, time=stats.time_s)
    )


def _print_solution(
    game: Game[Any, Any],
    state: Any,
    result: SearchResult[Any],
    args: argparse.Namespace,
    out: Callable[[str], None],
) -> None:
    out(game.render(state))
    player = game.player_name(game.to_move(state))
    # A weak solve proves the outcome only, not its distance.
    plies = None if args.weak else plies_of(game, state, result.score, result.pv)
    value = (
        describe_value(result.score.outcome)
        if result.score.exact
        else describe_score(result.score)  # --depth that did not reach the end
    )
    if plies is None:
        out(_("{player} to move: {value}.").format(player=player, value=value))
    else:
        out(
            _(
                "{player} to move: {value}; the game ends in {plies} plies with perfect play."
            ).format(player=player, value=value, plies=plies)
        )
    moves = " ".join(game.format_move(m) for m in result.best_moves)
    out(_("Optimal moves: {moves}").format(moves=moves))
    out(
        _("Principal variation: {line}").format(
            line=" ".join(game.format_move(m) for m in result.pv)
        )
    )
    solved_by = "solver" if args.algorithm == "engine" else args.algorithm
    out(_("Solved by {algorithm}.").format(algorithm=algorithm_name(solved_by)))
    _print_stats(result, out)


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
        result = search(game, state, args)
        if args.json:
            out(json.dumps(to_json(game, state, result), ensure_ascii=False))
        else:
            show(game, state, result, args, out)
        return 0
    failures = 0
    for number, raw in enumerate(sys.stdin, 1):
        text = raw.strip()
        try:
            state = _position(game, args.position, text)
            out(json.dumps(to_json(game, state, search(game, state, args)), ensure_ascii=False))
        except ZerosumError as error:
            failures += 1
            message = _("line {number}: {error}").format(number=number, error=error)
            out(json.dumps(error_object(str(error), line=number, moves=text), ensure_ascii=False))
            print(f"zerosum: error: {message}", file=sys.stderr)
        sys.stdout.flush()
    return EXIT_USAGE if failures else 0


def cmd_analyze(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    return _run_positions(args, out, _analyze_one, analyze_object, _print_analysis)


def cmd_solve(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    def to_json(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> dict[str, Any]:
        obj = solve_object(game, state, result)
        obj["weak"] = args.weak
        if args.weak:  # the outcome is proven, its distance is not
            obj["plies"] = None
        return obj

    return _run_positions(args, out, _solve_one, to_json, _print_solution)


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
        obj: dict[str, Any] = {
            "type": "perft",
            "game": game.spec(),
            "position": game.format_position(state),
            "depth": args.depth,
            "nodes": count,
            "time_s": round(elapsed, 6),
        }
        if args.divide:
            obj["divide"] = {game.format_move(m): n for m, n in split}
        out(json.dumps(obj))
        return 0
    for move, n in split:
        out(f"{game.format_move(move)}: {n}")
    out(
        _("perft({depth}) = {count}  ({time:.3f} s)").format(
            depth=args.depth, count=count, time=elapsed
        )
    )
    return 0


# -- parser ---------------------------------------------------------------------
def _whole_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a whole number, got {text!r}").format(text=text)
        ) from None
    return value


def _seconds(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a number of seconds, got {text!r}").format(text=text)
        ) from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="zerosum",
        description=_("Two-player zero-sum games: play, analyze and solve them."),
    )
    parser.add_argument("--lang", choices=i18n.LANGUAGES, help=_("language: en or zh"))
    parser.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        metavar="MODULE",
        help=_(
            "import a Python file or module that registers games of your own "
            "(may be repeated)"
        ),
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    games = commands.add_parser("games", help=_("list every game with its parameters"))
    games.add_argument("--json", action="store_true", help=_("print JSON"))

    def position_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", metavar="GAME", help=_("game spec, e.g. tictactoe"))
        p.add_argument("--moves", help=_('moves played from the start, e.g. "0 4 1"'))
        p.add_argument("--position", help=_("a position in the game's notation"))

    def search_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--algorithm",
            choices=ALGORITHMS,
            default="engine",
            help=_("search algorithm: engine (default), minimax or alphabeta (the references)"),
        )
        p.add_argument("--json", action="store_true", help=_("print one JSON object"))
        p.add_argument(
            "--batch",
            action="store_true",
            help=_("read one move list per line from standard input; print JSON lines"),
        )
        p.add_argument(
            "--symmetry",
            action="store_true",
            help=_("engine: one table entry per symmetry class of positions"),
        )
        p.add_argument(
            "--progress",
            action="store_true",
            help=_("show live progress even when the output is not a terminal"),
        )

    play = commands.add_parser("play", help=_("play a game in the terminal"))
    position_options(play)
    for flags, dest, default in (
        (("--x", "--first"), "first", "human"),
        (("--o", "--second"), "second", "ai"),
    ):
        play.add_argument(
            *flags,
            dest=dest,
            choices=("human", "ai", "random"),
            default=default,
            help=_("who plays this side: human, ai or random"),
        )
    play.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default="engine",
        help=_("the AI's search algorithm: engine (default), minimax or alphabeta"),
    )
    play.add_argument("--depth", type=_whole_number, help=_("the AI's search depth"))
    play.add_argument("--time", type=_seconds, help=_("the AI's seconds per move"))
    play.add_argument(
        "--level",
        choices=tuple(LEVELS),
        help=_("the AI's strength: easy, medium, hard or perfect"),
    )
    play.add_argument("--seed", type=_whole_number, help=_("seed for random choices"))

    analyze = commands.add_parser("analyze", help=_("score every move of a position"))
    position_options(analyze)
    search_options(analyze)
    analyze.add_argument("--depth", type=_whole_number, help=_("depth limit in plies"))
    analyze.add_argument(
        "--time",
        type=_seconds,
        help=_("time limit in seconds (default 10 when no limit is given)"),
    )
    analyze.add_argument("--nodes", type=_whole_number, help=_("limit on positions searched"))
    analyze.add_argument("--multipv", type=_whole_number, help=_("show only the N best moves"))
    analyze.add_argument(
        "--evaluate-terminals",
        action="store_true",
        help=_(
            "with minimax/alphabeta and --depth: score finished positions with the"
            " evaluation too, as the tutorials' code does"
        ),
    )

    solve = commands.add_parser("solve", help=_("the exact value of a position"))
    position_options(solve)
    search_options(solve)
    solve.add_argument(
        "--weak", action="store_true", help=_("prove only win, draw or loss (faster)")
    )
    solve.add_argument(
        "--depth",
        type=_whole_number,
        help=_("search only this many plies (the value is then exact only if the game ends)"),
    )

    counting = commands.add_parser("perft", help=_("count move sequences of a given length"))
    position_options(counting)
    counting.add_argument("depth", metavar="DEPTH", type=_whole_number, help=_("plies"))
    counting.add_argument("--divide", action="store_true", help=_("count per first move"))
    counting.add_argument("--json", action="store_true", help=_("print one JSON object"))
    serve = commands.add_parser(
        "serve", help=_("play and analyse in the browser (a local web app)")
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help=_("address to listen on (default 127.0.0.1: this computer only)"),
    )
    serve.add_argument("--port", type=_port, default=8000, help=_("port (default 8000)"))
    serve.add_argument(
        "--open", action="store_true", help=_("open the page in the default browser")
    )
    return parser


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(
            _("expected a port number from 0 to 65535, got {text!r}").format(text=text)
        )
    return int(text)


def cmd_serve(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    try:
        from .web.app import serve
    except ImportError as error:
        raise ZerosumError(
            _(
                "the web app needs the web extra ({missing} is missing); "
                "install it with: python3 -m pip install 'zerosum[web]'"
            ).format(missing=error.name or error)
        ) from None
    return serve(args.host, args.port, args.open)


COMMANDS: dict[str, Callable[[argparse.Namespace, Callable[[str], None]], int]] = {
    "games": cmd_games,
    "play": cmd_play,
    "analyze": cmd_analyze,
    "solve": cmd_solve,
    "perft": cmd_perft,
    "serve": cmd_serve,
}


def import_games(name: str) -> None:
    """Import ``name``, a ``.py`` file or a module name, so that the games it
    registers can be loaded; a failure is one clear error."""
    import importlib
    import importlib.util
    from pathlib import Path

    path = Path(name)
    try:
        if name.endswith(".py"):
            if not path.is_file():
                raise ZerosumError(
                    _("cannot import {name}: no such file").format(name=name)
                )
            spec = importlib.util.spec_from_file_location(path.stem, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[path.stem] = module
            spec.loader.exec_module(module)
        else:
            importlib.import_module(name)
    except ZerosumError:
        raise
    except Exception as error:  # the user's code: report, don't trace back
        raise ZerosumError(
            _("cannot import {name}: {kind}: {error}").format(
                name=name, kind=type(error).__name__, error=error
            )
        ) from None


def _early_language(argv: Sequence[str]) -> str | None:
    """The --lang value, read before parsing so that help is translated."""
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)

    def out(text: str) -> None:
        print(text, flush=True)

    try:
        i18n.activate(_early_language(args_list))
        args = build_parser().parse_args(args_list)
        if args.command is None:
            build_parser().print_help()
            return EXIT_USAGE
        for module in args.imports:
            import_games(module)
        return COMMANDS[args.command](args, out)
    except ZerosumError as error:
        print(f"zerosum: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
