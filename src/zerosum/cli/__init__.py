"""The ``zerosum`` command line: games, play, analyze, solve, perft, trace, serve.

It only calls the public API (the search front door for every search) and
renders what comes back. Bad input of any kind prints one line to stderr,
``zerosum: error: ...``, and exits with status 2; no command shows a
traceback for a user's mistake.

* :mod:`.parser`   -- the options;
* :mod:`.commands` -- one function per command;
* :mod:`.render`   -- what a person reads (JSON objects come from
  :mod:`zerosum.report`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .. import i18n
from ..game import ZerosumError
from ..i18n import _
from ..registry import import_games
from .book import cmd_book
from .commands import cmd_analyze, cmd_games, cmd_perft, cmd_play, cmd_serve, cmd_solve
from .engine import cmd_engine
from .lessons import cmd_lessons
from .match import cmd_match
from .parser import EXIT_USAGE, Stopped, build_parser, error_line
from .replay import cmd_replay
from .trace import cmd_trace

COMMANDS: dict[str, Callable[[argparse.Namespace, Callable[[str], None]], int]] = {
    "games": cmd_games,
    "play": cmd_play,
    "analyze": cmd_analyze,
    "solve": cmd_solve,
    "perft": cmd_perft,
    "trace": cmd_trace,
    "serve": cmd_serve,
    "match": cmd_match,
    "replay": cmd_replay,
    "engine": cmd_engine,
    "book": cmd_book,
    "lessons": cmd_lessons,
}


def version_lines() -> list[str]:
    """``zerosum --version``: the version and each search backend's
    availability (the native one needs the ``fast`` extra)."""
    from importlib.metadata import PackageNotFoundError, version

    from ..search.front import available_backends

    try:
        number = version("zerosum")
    except PackageNotFoundError:
        number = "?"
    lines = [f"zerosum {number} (Python {sys.version.split()[0]})"]
    for name, status in available_backends().items():
        state = _("available") if status == "yes" else _("not available: {why}").format(why=status)
        lines.append(_("backend {name}: {state}").format(name=name, state=state))
    return lines


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
        if args.version:
            for line in version_lines():
                out(line)
            return 0
        if args.command is None:
            build_parser().print_help()
            return EXIT_USAGE
        for module in args.imports:
            import_games(module)
        return COMMANDS[args.command](args, out)
    except ZerosumError as error:
        print(error_line(str(error)), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as interrupt:
        print("", file=sys.stderr)  # end the line the terminal echoed ^C on
        if isinstance(interrupt, Stopped):
            print(interrupt.line, file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except MemoryError:  # a table or a tree beyond what this process may take
        print(error_line(out_of_memory()), file=sys.stderr)
        return EXIT_USAGE


def out_of_memory() -> str:
    return _(
        "not enough memory for this process (a limit, ulimit -v or a cgroup); try a smaller"
        " table (--hash MB) or search"
    )
