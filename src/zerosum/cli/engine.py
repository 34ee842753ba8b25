"""``zerosum engine GAME``: the Universal Game Interface (UGI), the
UCI-style text protocol that generic game GUIs and match tools speak.

One command per line on standard input, answers on standard output:

* ``ugi`` -> ``id name ...``, ``id author ...``, the ``option`` lines,
  ``ugiok``; ``isready`` -> ``readyok``; ``uginewgame`` forgets what the
  search kept (its table or tree); ``quit``.
* ``position startpos [moves M ...]`` or ``position fen TEXT [moves M ...]``
  -- TEXT a position in the game's own notation (``zerosum analyze
  --position`` reads the same), moves in the game's notation.
* ``go`` with any of ``p1time p2time p1inc p2inc`` (milliseconds; UCI's
  ``wtime btime winc binc`` mean the same: p1 is the player who moves first),
  ``movetime MS``, ``depth N``, ``nodes N`` (MCTS: iterations), ``infinite``
  -- the search runs in the background and prints ``info`` lines (``depth``,
  ``score cp X`` or ``score mate N`` (N moves of the side to move, negative
  when it loses), ``nodes``, ``nps``, ``time`` in ms, ``pv``), then
  ``bestmove MOVE`` (``bestmove (none)`` when the game is over). ``stop``
  ends it at once; after ``go infinite`` the best move waits for ``stop``.
  Without limits a move gets the Level's limits.
* ``query gameover`` -> ``response true|false``, ``query p1turn`` ->
  ``response true|false``, ``query result`` -> ``response
  p1win|p2win|draw|none``.
* ``setoption name NAME value VALUE``: ``Hash`` (MB, the engine's table),
  ``Threads`` (1: searches use one thread), ``Level`` (easy, medium, hard,
  perfect: the limits of a ``go`` without any, and the level's deliberate
  mistakes), ``Algorithm`` (engine or mcts), ``Seed``.

A command that cannot be understood gets ``info string error: ...`` and the
engine keeps running.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TextIO

from ..game import Game, ZerosumError
from ..i18n import _
from ..play.agents import LEVELS
from ..registry import load
from ..search.engine import Progress
from ..search.front import Searcher, SearchOptions
from ..search.tt import check_megabytes
from ..search.types import Limits, Score, SearchResult

NAME = "zerosum"
AUTHOR = "the zerosum authors"
ALGORITHMS = ("engine", "mcts")
#: A share of the time left, and of the increment, spent on one move.
TIME_SHARE = 1 / 20
INCREMENT_SHARE = 3 / 4
#: Kept in hand for the protocol's own delays (seconds).
OVERHEAD = 0.03


class Engine:
    """The UGI engine for one game; :meth:`handle` takes one line.
    ``write`` prints one line (from any thread)."""

    def __init__(self, game: Game[Any, Any], write: Callable[[str], None]) -> None:
        self.game = game
        self._write = write
        self._lock = threading.Lock()
        self.state = game.initial_state()
        self.hash_mb: float | None = None
        self.level = "hard"
        self.algorithm = "engine"
        self.seed = 0
        self.searcher: Searcher | None = None
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()
        #: Set from ``go`` until just before its ``bestmove`` is written, so
        #: that a command answering that ``bestmove`` finds the engine idle.
        self._running = threading.Event()
        self._infinite = False

    def write(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def error(self, message: str) -> None:
        self.write(f"info string error: {message}")

    # -- commands ----------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        handler = self._commands.get(command)
        if handler is None:
            self.error(
                _("unknown command {command!r}; expected one of {commands}").format(
                    command=command[:40], commands=", ".join(self._commands)
                )
            )
            return True
        try:
            return handler(self, rest) is not False
        except ZerosumError as problem:
            self.error(str(problem))
            return True

    def _ugi(self, rest: list[str]) -> None:
        self.write(f"id name {NAME} {self.game.spec()}")
        self.write(f"id author {AUTHOR}")
        self.write("option name Hash type spin default 16 min 1 max 65536")
        self.write("option name Threads type spin default 1 min 1 max 1")
        levels = " ".join(f"var {name}" for name in LEVELS)
        self.write(f"option name Level type combo default hard {levels}")
        algorithms = " ".join(f"var {name}" for name in ALGORITHMS)
        self.write(f"option name Algorithm type combo default engine {algorithms}")
        self.write("option name Seed type spin default 0 min 0 max 2147483647")
        self.write("ugiok")

    def _isready(self, rest: list[str]) -> None:
        # The heavy set-up (the table, loading compiled code) happens here,
        # before readyok, as GUIs expect, not on a move's clock.
        if self.searcher is None and not self._running.is_set():
            self._make_searcher()
        self.write("readyok")

    def _make_searcher(self) -> Searcher:
        options = SearchOptions(algorithm=self.algorithm, hash_mb=self.hash_mb, seed=self.seed)
        self.searcher = Searcher(self.game, options)
        return self.searcher

    def _newgame(self, rest: list[str]) -> None:
        self._busy_check()
        self.searcher = None
        self.state = self.game.initial_state()

    def _position(self, rest: list[str]) -> None:
        self._busy_check()
        game = self.game
        if not rest or rest[0] not in ("startpos", "fen"):
            raise ZerosumError(_("expected 'position startpos' or 'position fen TEXT'"))
        cut = rest.index("moves") if "moves" in rest else len(rest)
        if rest[0] == "startpos":
            if cut != 1:
                raise ZerosumError(_("expected 'moves' after 'position startpos'"))
            state = game.initial_state()
        else:
            text = " ".join(rest[1:cut])
            if not text:
                raise ZerosumError(_("expected a position after 'position fen'"))
            state = game.parse_position(text)
        state = game.play(rest[cut + 1 :], state)
        self.state = state  # only once everything was read

    def _setoption(self, rest: list[str]) -> None:
        self._busy_check()
        text = " ".join(rest)
        if not text.startswith("name ") or " value " not in text:
            raise ZerosumError(_("expected 'setoption name NAME value VALUE'"))
        name, value = text[5:].split(" value ", 1)
        name, value = name.strip().lower(), value.strip()
        if name == "hash":
            self.hash_mb = check_megabytes(_number(value, "Hash"))
            self.searcher = None
        elif name == "threads":
            if value != "1":
                raise ZerosumError(_("Threads must be 1: searches use one thread"))
        elif name == "level":
            if value not in LEVELS:
                raise ZerosumError(
                    _("unknown level {level!r}; expected one of {levels}").format(
                        level=value[:40], levels=", ".join(LEVELS)
                    )
                )
            self.level = value
        elif name == "algorithm":
            if value not in ALGORITHMS:
                raise ZerosumError(
                    _("unknown algorithm {name!r}; expected one of {names}").format(
                        name=value[:40], names=", ".join(ALGORITHMS)
                    )
                )
            self.algorithm = value
            self.searcher = None
        elif name == "seed":
            self.seed = int(_number(value, "Seed"))
            self.searcher = None
        else:
            raise ZerosumError(
                _(
                    "unknown option {name!r}; expected Hash, Threads, Level, Algorithm or Seed"
                ).format(name=name[:40])
            )

    def _query(self, rest: list[str]) -> None:
        game, state = self.game, self.state
        what = rest[0] if rest else ""
        over = game.is_terminal(state)
        if what == "gameover":
            self.write(f"response {'true' if over else 'false'}")
        elif what == "p1turn":
            self.write(f"response {'true' if game.to_move(state) == 0 else 'false'}")
        elif what == "result":
            if not over:
                self.write("response none")
            else:
                utility = game.utility(state, 0)
                self.write("response " + {1: "p1win", -1: "p2win", 0: "draw"}[utility])
        else:
            raise ZerosumError(_("expected 'query gameover', 'query p1turn' or 'query result'"))

    def _go(self, rest: list[str]) -> None:
        self._busy_check()
        limits, infinite = self._limits(rest)
        game, state = self.game, self.state
        if game.is_terminal(state):
            self.error(_("the game is over in this position"))
            self.write("bestmove (none)")
            return
        if self.algorithm == "mcts" and limits.depth is not None:
            raise ZerosumError(_("mcts takes no depth limit; expected nodes or a time"))
        self._stopped.clear()
        self._running.set()
        self._infinite = infinite
        noise = LEVELS[self.level].noise if not rest else 0.0
        rng = random.Random(f"{self.seed}:{game.format_position(state)}")

        def run() -> None:
            try:
                # made here when no isready came first: the reader stays free
                searcher = self.searcher or self._make_searcher()
                if noise and rng.random() < noise:
                    move = rng.choice(list(game.actions(state)))
                else:
                    result = searcher.best_move(state, limits, on_progress=self._info)
                    self._info_result(result)
                    move = result.best_move
            except Exception as problem:  # keep serving: say what went wrong
                self.error(f"{type(problem).__name__}: {problem}")
                move = next(iter(game.actions(state)))
            if infinite:
                self._stopped.wait()
            with self._lock:
                self._running.clear()
                self._write(f"bestmove {game.format_move(move)}")

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def _stop(self, rest: list[str]) -> None:
        thread = self._thread
        if thread is None:
            return
        self._stopped.set()
        # A stop that comes before the search starts is lost: repeat it.
        while thread.is_alive():
            if self.searcher is not None:
                self.searcher.stop()
            thread.join(0.005)
        self._thread = None

    def finish(self) -> None:
        """Wait for a running search with limits; stop an infinite one."""
        thread = self._thread
        if thread is not None and not self._infinite:
            thread.join()
        self._stop([])

    def _quit(self, rest: list[str]) -> bool:
        self._stop([])
        return False

    _commands: ClassVar[dict[str, Callable[[Engine, list[str]], Any]]] = {
        "ugi": _ugi,
        "uci": _ugi,
        "isready": _isready,
        "uginewgame": _newgame,
        "ucinewgame": _newgame,
        "position": _position,
        "setoption": _setoption,
        "query": _query,
        "go": _go,
        "stop": _stop,
        "quit": _quit,
    }

    # -- helpers -----------------------------------------------------------------------------
    def _busy_check(self) -> None:
        if self._running.is_set():
            raise ZerosumError(_("a search is running; send 'stop' first"))
        if self._thread is not None:
            self._thread.join()  # it has answered and is ending
            self._thread = None

    def _limits(self, rest: list[str]) -> tuple[Limits, bool]:
        values: dict[str, int] = {}
        infinite = False
        i = 0
        names = {
            "wtime": "p1time",
            "btime": "p2time",
            "winc": "p1inc",
            "binc": "p2inc",
        }
        known = ("p1time", "p2time", "p1inc", "p2inc", "movetime", "depth", "nodes", "movestogo")
        while i < len(rest):
            word = names.get(rest[i], rest[i])
            if word == "infinite":
                infinite = True
                i += 1
                continue
            if word not in known or i + 1 >= len(rest):
                raise ZerosumError(
                    _("cannot read 'go {args}'; expected e.g. go movetime 1000").format(
                        args=" ".join(rest)[:60]
                    )
                )
            try:
                values[word] = int(rest[i + 1])
            except ValueError:
                raise ZerosumError(
                    _("{name} must be a whole number, got {value!r}").format(
                        name=rest[i], value=rest[i + 1][:20]
                    )
                ) from None
            i += 2
        if infinite:
            return Limits(), True
        depth = values.get("depth")
        nodes = values.get("nodes")
        seconds: float | None = None
        if "movetime" in values:
            seconds = max(values["movetime"] / 1000 - OVERHEAD, 0.001)
        else:
            me = "p1" if self.game.to_move(self.state) == 0 else "p2"
            if f"{me}time" in values:
                left = max(values[f"{me}time"], 0) / 1000
                inc = max(values.get(f"{me}inc", 0), 0) / 1000
                moves_to_go = values.get("movestogo")
                share = 1 / max(moves_to_go, 1) if moves_to_go else TIME_SHARE
                seconds = left * share + inc * INCREMENT_SHARE
                seconds = max(min(seconds, left * 0.5) - OVERHEAD, 0.001)
        if depth is None and nodes is None and seconds is None:
            level = LEVELS[self.level]
            return Limits(depth=level.depth, time=level.time), False
        return Limits(depth=depth, nodes=nodes, time=seconds), False

    def _info(self, progress: Progress[Any]) -> None:
        self._info_line(
            progress.depth,
            progress.score,
            progress.nodes,
            progress.nps,
            progress.time_s,
            progress.pv,
        )

    def _info_result(self, result: SearchResult[Any]) -> None:
        stats = result.stats
        self._info_line(
            result.depth, result.score, stats.nodes, stats.nodes_per_second, stats.time_s, result.pv
        )

    def _info_line(
        self,
        depth: int | None,
        score: Score,
        nodes: int,
        nps: float,
        seconds: float,
        pv: Sequence[Any],
    ) -> None:
        """One ``info`` line: depth, score, nodes, nps, time (ms), pv."""
        parts = ["info"]
        if depth is not None:
            parts += ["depth", str(depth)]
        parts += _score_words(score)
        parts += ["nodes", str(nodes), "nps", str(round(nps)), "time", str(round(seconds * 1000))]
        if pv:
            parts += ["pv", *(self.game.format_move(m) for m in pv)]
        self.write(" ".join(parts))


def _score_words(score: Score) -> list[str]:
    """``score cp X`` (heuristic, or a draw 0), or ``score mate N`` for a
    proven win (N > 0) or loss (N < 0) in N moves of the side to move; a
    proven result whose distance is unknown: ``score cp`` +-100000."""
    plies = score.plies
    if plies is not None:
        moves = (plies + 1) // 2
        return ["score", "mate", str(moves if score.raw > 0 else -moves)]
    if score.exact and score.raw:
        return ["score", "cp", "100000" if score.raw > 0 else "-100000"]
    return ["score", "cp", str(score.raw)]


def _number(text: str, name: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ZerosumError(
            _("{name} must be a number, got {value!r}").format(name=name, value=text[:20])
        ) from None


def serve(game: Game[Any, Any], lines: TextIO, out: TextIO) -> int:
    """Read commands from ``lines`` until ``quit`` or the end of input."""

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    engine = Engine(game, write)
    for line in lines:
        if not engine.handle(line):
            return 0
    # End of input: a search with limits still answers (piped commands).
    engine.finish()
    return 0


def cmd_engine(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    return serve(load(args.game), sys.stdin, sys.stdout)
