"""The command line's options: argparse, with usage errors as one line."""

from __future__ import annotations

import argparse
import re
from typing import NoReturn

from .. import i18n
from ..game import ZerosumError, excerpt, whole_number
from ..i18n import N_, _
from ..play.agents import LEVELS
from ..search.engine import BACKENDS, MAX_THREADS
from ..search.front import algorithms
from ..search.tt import check_megabytes
from .book import add_parser as add_book
from .lessons import add_parser as add_lessons
from .trace import add_parser as add_trace
from .usage import EXIT_USAGE as EXIT_USAGE
from .usage import UsageError as UsageError
from .usage import error_line as error_line
from .usage import one_line as one_line

#: argparse's own words (it takes them through gettext), listed so that they
#: are extracted into the catalog and translated with the rest.
ARGPARSE_TEXTS = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("expected %s argument"),
    N_("expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
    N_("unexpected option string: %s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
)


def _argparse_gettext(message: str | None) -> str | None:
    return message if message is None else _(message)


def _argparse_ngettext(singular: str, plural: str, count: int) -> str:
    return _(singular if count == 1 else plural)


def translate_argparse() -> None:
    """Make argparse's own words (``usage:``, ``options``, its error
    messages) come from zerosum's catalog in the active language. argparse
    looks its ``_`` and ``ngettext`` up when it uses them, so this holds for
    parsers built afterwards."""
    argparse._ = _argparse_gettext  # type: ignore[attr-defined]
    argparse.ngettext = _argparse_ngettext  # type: ignore[attr-defined]


class Stopped(KeyboardInterrupt):
    """Ctrl+C, with the one line to say about what was stopped (the command
    ends with exit status 130, as for any Ctrl+C)."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(
            _("{message} (see '{prog} --help')").format(message=message, prog=self.prog)
        )


# -- parser ---------------------------------------------------------------------
#: A decimal number in ASCII digits (int() and float() also take "٣", "1_0").
_DECIMAL = re.compile(r"\s*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\s*", re.ASCII)
_INTEGER = re.compile(r"\s*[-+]?[0-9]+\s*", re.ASCII)


def _whole_number(text: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise argparse.ArgumentTypeError(
            _("expected a whole number, got {text!r}").format(text=excerpt(text))
        )
    return int(text)


def decimal(text: str) -> float | None:
    """``text`` as a number written in ASCII (``1``, ``0.5``, ``2e-3``), or
    None."""
    return float(text) if _DECIMAL.fullmatch(text) else None


def _seconds(text: str) -> float:
    value = decimal(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            _("expected a number of seconds, got {text!r}").format(text=excerpt(text))
        )
    return value


def build_parser() -> argparse.ArgumentParser:
    translate_argparse()
    parser = _Parser(
        prog="zerosum",
        description=_("Two-player zero-sum games: play, analyze and solve them."),
    )
    parser.add_argument("--lang", choices=i18n.LANGUAGES, help=_("language: en or zh"))
    parser.add_argument(
        "--version",
        action="store_true",
        help=_("show the version and which search backends are available, and exit"),
    )
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

    def engine_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--backend",
            choices=BACKENDS,
            default="auto",
            help=_(
                "engine: auto (native when compiled code is available), python or native"
            ),
        )
        p.add_argument(
            "--hash",
            type=_megabytes,
            metavar="MB",
            help=_("engine: transposition table size in megabytes"),
        )
        p.add_argument(
            "--threads",
            type=_threads,
            metavar="N",
            help=_(
                "engine: threads for one native search, sharing its table"
                " (default: every core for solve and analyze, one for play)"
            ),
        )
        p.add_argument(
            "--symmetry",
            action=argparse.BooleanOptionalAction,
            help=_(
                "engine: one table entry per symmetry class of positions "
                "(default: where it pays, e.g. tic-tac-toe and Domineering)"
            ),
        )

    def store_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--store",
            metavar="PATH",
            help=_(
                "the store of proven results to read and write (default: $ZEROSUM_STORE,"
                " else one in your user data folder)"
            ),
        )
        p.add_argument(
            "--no-store", action="store_true", help=_("neither read nor write the store")
        )
        p.add_argument("--no-book", action="store_true", help=_("do not use opening books"))

    def position_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", metavar="GAME", help=_("game spec, e.g. tictactoe"))
        p.add_argument("--moves", help=_('moves played from the start, e.g. "0 4 1"'))
        p.add_argument("--position", help=_("a position in the game's notation"))

    def search_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--algorithm",
            choices=algorithms(),
            default="engine",
            help=_(
                "search algorithm: engine (default), minimax or alphabeta (the references),"
                " mcts (Monte Carlo tree search)"
            ),
        )
        engine_options(p)
        store_options(p)
        p.add_argument("--json", action="store_true", help=_("print one JSON object"))
        p.add_argument(
            "--batch",
            action="store_true",
            help=_("read one move list per line from standard input; print JSON lines"),
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
            choices=("human", "ai", "random", "mcts"),
            default=default,
            help=_("who plays this side: human, ai, random or mcts (Monte Carlo tree search)"),
        )
    play.add_argument(
        "--algorithm",
        choices=algorithms(),
        default="engine",
        help=_("the AI's search algorithm: engine (default), minimax, alphabeta or mcts"),
    )
    engine_options(play)
    store_options(play)
    play.add_argument("--depth", type=_whole_number, help=_("the AI's search depth"))
    play.add_argument("--time", type=_seconds, help=_("the AI's seconds per move"))
    play.add_argument(
        "--iterations",
        type=_whole_number,
        help=_("Monte Carlo tree search: iterations (playouts) per move"),
    )
    play.add_argument(
        "--level",
        choices=tuple(LEVELS),
        help=_("the AI's strength: easy, medium, hard or perfect"),
    )
    play.add_argument("--seed", type=_whole_number, help=_("seed for random choices"))
    play.add_argument(
        "--scores",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=_(
            "after each AI move, list every move it considered with its score"
            " (default: on at the learner levels easy and medium)"
        ),
    )
    play.add_argument(
        "--progress",
        action="store_true",
        help=_("show the AI's search live even when the output is not a terminal"),
    )

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
    analyze.add_argument(
        "--iterations",
        type=_whole_number,
        help=_("Monte Carlo tree search: limit on iterations (playouts)"),
    )
    analyze.add_argument(
        "--seed", type=_whole_number, help=_("Monte Carlo tree search: seed of its playouts")
    )
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
    solve.add_argument(
        "--time",
        type=_seconds,
        help=_("stop after this many seconds with what is proven by then (not a full solve)"),
    )
    solve.add_argument(
        "--nodes",
        type=_whole_number,
        help=_("stop after this many positions with what is proven by then (not a full solve)"),
    )
    solve.add_argument(
        "--seed", type=_whole_number, help=_("Monte Carlo tree search: seed of its playouts")
    )
    solve.add_argument(
        "--all-moves",
        action="store_true",
        help=_("with --weak: list every move that keeps the outcome (each one is proven: slower)"),
    )
    solve.add_argument(
        "--split",
        type=_whole_number,
        metavar="K",
        help=_(
            "solve by independent jobs: one per position K plies on, each kept in the store"
            " (the same command resumes)"
        ),
    )
    solve.add_argument(
        "--workers",
        type=_whole_number,
        metavar="N",
        help=_("with --split: worker processes on this machine (default: every core)"),
    )
    solve.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help=_(
            "with --split: run the jobs on a Ray cluster: ray://HOST:PORT, HOST:PORT or auto"
            " (default: $ZEROSUM_CLUSTER; the cluster extra)"
        ),
    )

    counting = commands.add_parser("perft", help=_("count move sequences of a given length"))
    position_options(counting)
    counting.add_argument("depth", metavar="DEPTH", type=_whole_number, help=_("plies"))
    counting.add_argument("--divide", action="store_true", help=_("count per first move"))
    counting.add_argument("--json", action="store_true", help=_("print one JSON object"))
    match = commands.add_parser(
        "match", help=_("play many games between two players and measure the Elo difference")
    )
    match.add_argument("game", metavar="GAME", help=_("game spec, e.g. connect4"))
    for name in ("player_a", "player_b"):
        match.add_argument(
            name,
            metavar=name.upper(),
            help=_(
                "a player: engine:level=hard, engine:time=0.5, mcts:iterations=5000,"
                ' minimax:depth=3, random or cmd:"PROGRAM ARGS"'
            ),
        )
    match.add_argument(
        "--games", type=_whole_number, default=10, help=_("games to play (default 10)")
    )
    match.add_argument(
        "--openings",
        metavar="random:K",
        help=_("start each pair of games after K random moves (colours swapped in the pair)"),
    )
    match.add_argument(
        "--jobs", type=_whole_number, default=1, help=_("games played at once, in processes")
    )
    match.add_argument(
        "--seed", type=_whole_number, default=0, help=_("the match seed (default 0)")
    )
    match.add_argument(
        "--sprt", metavar="elo0=0,elo1=30", help=_("stop early by a sequential test")
    )
    match.add_argument(
        "--max-plies",
        type=_whole_number,
        help=_("adjudicate a game as a draw after this many moves"),
    )
    match.add_argument(
        "--record",
        metavar="FILE",
        help=_("the games' record (JSON lines; default match-TIME.jsonl)"),
    )
    match.add_argument(
        "--force", action="store_true", help=_("overwrite the record file if it exists")
    )
    match.add_argument("--json", action="store_true", help=_("print one JSON object"))
    match.add_argument(
        "--progress",
        action="store_true",
        help=_("show the progress bar even when the output is not a terminal"),
    )

    engine = commands.add_parser(
        "engine", help=_("speak the engine protocol (UGI) on standard input and output")
    )
    engine.add_argument("game", metavar="GAME", help=_("game spec, e.g. connect4"))

    replay = commands.add_parser("replay", help=_("show a game of a match record"))
    replay.add_argument("file", metavar="FILE", help=_("a record written by zerosum match"))
    replay.add_argument(
        "--game", type=_whole_number, default=1, help=_("which game, from 1 (default 1)")
    )
    replay.add_argument(
        "--final", action="store_true", help=_("show only the final position")
    )

    add_trace(commands, _whole_number)
    add_book(commands, _whole_number)
    add_lessons(commands)
    serve = commands.add_parser(
        "serve", help=_("play and analyse in the browser (a local web app)")
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help=_("address to listen on (default 127.0.0.1: this computer only)"),
    )
    serve.add_argument("--port", type=_port, default=8000, help=_("port (default 8000)"))
    store_options(serve)
    serve.add_argument(
        "--open", action="store_true", help=_("open the page in the default browser")
    )
    serve.add_argument(
        "--allow-host",
        dest="allow_hosts",
        action="append",
        default=[],
        metavar="NAME",
        help=_(
            "also answer requests addressed to this host name (by default only"
            " localhost, 127.0.0.1, ::1 and --host; * for any); may be repeated"
        ),
    )
    serve.add_argument(
        "--allow-origin",
        dest="allow_origins",
        action="append",
        default=[],
        metavar="URL",
        help=_(
            "also let pages from this origin (e.g. http://host:8000) play (by default only"
            " the server's own page; * for any); may be repeated"
        ),
    )
    return parser


def _threads(text: str) -> int:
    number = whole_number(text)
    if number is None or not 1 <= number <= MAX_THREADS:
        raise argparse.ArgumentTypeError(
            _("expected a number of threads from 1 to {most}, got {text!r}").format(
                most=MAX_THREADS, text=excerpt(text)
            )
        )
    return number


def _megabytes(text: str) -> float:
    value = decimal(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            _("expected a number of megabytes, got {text!r}").format(text=excerpt(text))
        )
    try:
        return check_megabytes(value)
    except ZerosumError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _port(text: str) -> int:
    number = whole_number(text)
    if number is None or not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(
            _("expected a port number from 0 to 65535, got {text!r}").format(text=excerpt(text))
        )
    return number

