"""``zerosum engine GAME``: the Universal Game Interface (UGI), the
UCI-style text protocol that generic game GUIs and match tools speak.

One command per line on standard input, answers on standard output:

* ``ugi`` -> ``id name ...``, ``id author ...``, the ``option`` lines,
  ``ugiok``; ``uci`` gets the same answer ending ``uciok`` (a UCI client
  waits for that), and makes ``score mate`` count moves as UCI does;
  ``isready`` -> ``readyok`` (also during a search); ``uginewgame`` /
  ``ucinewgame`` forget what the search kept (its table or tree) and go back
  to the start; ``quit``, or the end of the input, ends the engine (a
  running search is stopped and answers first).
* ``position startpos [moves M ...]`` or ``position fen TEXT [moves M ...]``
  -- TEXT a position in the game's own notation (``zerosum analyze
  --position`` reads the same), moves in the game's notation. A position
  that cannot be read, or a move that is not legal, is refused with an
  ``info string`` and leaves **no** position: until the next valid
  ``position`` (or ``uginewgame``), ``go`` answers ``info string`` saying why
  and ``bestmove 0000`` (the null move), and ``query`` answers ``response
  none``. So the engine never answers for a position the client did not
  send.
* ``go`` with any of ``p1time p2time p1inc p2inc`` (milliseconds; UCI's
  ``wtime btime winc binc`` mean the same: p1 is the player who moves first),
  ``movestogo N``, ``movetime MS``, ``depth N``, ``nodes N`` (MCTS:
  iterations), ``mate N`` (a search deep enough to see a win in N: N plies
  after ``ugi``, N moves after ``uci``), ``searchmoves M ...`` (choose among
  these moves only), ``ponder``, ``infinite``. The search runs in the
  background and prints ``info`` lines (``depth``, ``score cp X`` or
  ``score mate N``, ``nodes``, ``nps``, ``time`` in ms, ``pv``), then
  ``bestmove MOVE``.

  **Every** ``go`` ends with exactly one ``bestmove``: ``bestmove (none)``
  when the game is over, ``bestmove 0000`` when there is no valid position;
  a limit the engine cannot take (``nodes 0``, a number beyond
  :data:`~zerosum.search.types.MAX_SECONDS` or
  :data:`~zerosum.search.types.MAX_BUDGET`, ``depth`` with MCTS, a word it
  does not know) gets an ``info string error: ...`` and is left out, the
  search runs with what remains (the Level's limits when nothing does).
  ``go depth 0`` (which the newer UGI text allows) searches one ply, the
  least that compares moves, and says so.

  Time: :func:`zerosum.search.clock.move_budget` turns the clock into the
  search's time (a reserve proportional to it, not a fixed 30 ms). Whatever
  the budget, a move not proven has it checked by
  :func:`zerosum.search.tactics.guarded` (as every search's best move): a win
  at once is played and a loss at once avoided when another move avoids it.

  ``stop`` ends the search at once (its best move so far). After ``go
  infinite`` the best move waits for ``stop``; after ``go ponder`` it waits
  for ``ponderhit`` (the search then goes on under the go's time, counted
  from the ``ponderhit``) or ``stop``. A ``position``, ``setoption``,
  ``uginewgame`` or ``go`` during a search stops it first (it answers).
* ``query gameover`` -> ``response true|false``, ``query p1turn`` ->
  ``response true|false``, ``query result`` -> ``response
  p1win|p2win|draw|none``.
* ``setoption name NAME value VALUE`` (names and values in any case, as UCI
  says): ``Hash`` (whole MB from 1 to half this machine's memory: the
  engine's table), ``Threads`` (1 to 256:
  the threads of one native search, sharing its table; default 1), ``Level``
  (easy, medium, hard, perfect), ``Algorithm`` (engine or mcts), ``Seed``
  (0 to 2147483647), ``Ponder`` (true or false: whether ``bestmove`` names
  the expected reply, ``bestmove M ponder R``), ``Store`` and ``Book`` (true
  or false: read and write the store of proven results, ``$ZEROSUM_STORE``
  or the user's default; read opening books; an answer taken from them is
  announced by ``info string from the store: ...`` or ``from the opening
  book: ...``, a store that cannot be used by one ``info string`` naming the
  file and what is wrong). A value out of range is refused with an ``info
  string`` and the option keeps its value.

  **Level** when ``go`` has no limit: the level's own limits (easy 2 plies,
  medium 4 plies or 1 s, hard 3 s, perfect none) and its deliberate mistakes
  (a random move with probability 0.3 easy, 0.1 medium). When ``go`` has
  limits, as under a GUI: the level's depth caps the go's depth (easy 2,
  medium 4; hard and perfect: no cap) and its mistakes stay; the clock is
  the GUI's.

``score mate N``: N counts plies (one player's move) to the end of the game
after ``ugi`` -- the UGI text (cutegames' ``ugi.md``) counts depth in plies
and has no notion of a full move -- and full moves, as the UCI text says
("mate in y moves, not plies"), after ``uci``; negative when the side to
move loses.

A set-up that takes more than :data:`SETUP_NOTICE` seconds (compiling the
native code on first use: up to a minute on a loaded machine; a large
table) is announced once with ``info string`` before its ``readyok``.

A command that cannot be understood gets ``info string error: ...`` and the
engine keeps running.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import re
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TextIO

from ..game import Game, ZerosumError
from ..i18n import _
from ..play.agents import LEVELS
from ..registry import load
from ..search.clock import MoveBudget, move_budget
from ..search.engine import MAX_THREADS, Progress
from ..search.front import Searcher, SearchOptions
from ..search.proven import KnownResults
from ..search.tt import check_megabytes, max_megabytes
from ..search.types import MAX_BUDGET, MAX_PLY, MAX_SECONDS, Limits, Score, SearchResult
from ..store import (
    books_off_by_default,
    default_store_path,
    open_store,
    store_off_by_default,
)
from .render import source_words

NAME = "zerosum"
AUTHOR = "the zerosum authors"
ALGORITHMS = ("engine", "mcts")
HASH_DEFAULT = 16
SEED_MOST = 2**31 - 1
#: Seconds of set-up (compiling, a large table) after which the client is
#: told what is happening.
SETUP_NOTICE = 1.0
#: The time of an MCTS search under a level that has none (easy, perfect).
MCTS_LEVEL_SECONDS = 1.0
#: The words of ``go`` that take a whole number.
_GO_NUMBERS = (
    "p1time", "p2time", "p1inc", "p2inc", "movestogo", "movetime", "depth", "nodes", "mate",
)  # fmt: skip
_GO_ALIASES = {"wtime": "p1time", "btime": "p2time", "winc": "p1inc", "binc": "p2inc"}
_GO_FLAGS = ("infinite", "ponder")
_GO_WORDS = frozenset((*_GO_NUMBERS, *_GO_ALIASES, *_GO_FLAGS, "searchmoves"))
_MILLISECONDS_MOST = int(MAX_SECONDS * 1000)
#: The parts of an info line that change with the clock alone.
_TIMING = re.compile(r" nps \d+ time \d+")


@dataclasses.dataclass
class GoRequest:
    """A ``go`` as read: the limits (None: the Level's), how it waits, the
    moves it may choose from, the clock's budget (what ``ponderhit`` arms),
    and what was refused (one message each)."""

    limits: Limits | None = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: tuple[Any, ...] = ()
    budget: MoveBudget | None = None
    errors: list[str] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)


class Engine:
    """The UGI engine for one game; :meth:`handle` takes one line.
    ``write`` prints one line (from any thread)."""

    def __init__(self, game: Game[Any, Any], write: Callable[[str], None]) -> None:
        self.game = game
        self._write = write
        self._lock = threading.Lock()
        #: The position the client sent; None after a refused ``position``
        #: (``_refused`` says why).
        self.state: Any = game.initial_state()
        self._refused = ""
        self.flavour = "ugi"
        self.hash_mb: float | None = None
        #: The table size and searcher before a ``setoption name Hash``,
        #: kept until the new table is made (and used again if it cannot be).
        self._kept: tuple[float | None, Searcher | None] = (None, None)
        self.level = "hard"
        self.algorithm = "engine"
        self.seed = 0
        self.threads = 1
        self.use_store = not store_off_by_default()
        self.use_book = not books_off_by_default()
        self._store: KnownResults | None = None
        self._store_opened = False
        self.ponder_option = False
        self.searcher: Searcher | None = None
        self._thread: threading.Thread | None = None
        #: Set by stop (and ponderhit): a waiting infinite/ponder search may answer.
        self._release = threading.Event()
        self._stopped = threading.Event()
        #: Set from ``go`` until just before its ``bestmove`` is written.
        self._running = threading.Event()
        #: Set when the running go's search has returned.
        self._searched = threading.Event()
        self._pondering = False
        self._request = GoRequest()
        #: Counts the goes, so that a ponderhit's timer stops no later one.
        self._go_count = 0

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
        except Exception as problem:  # a user's game may raise anything: keep serving
            self.error(f"{type(problem).__name__}: {str(problem)[:200]}")
        return True

    def _hello(self, rest: list[str], flavour: str) -> None:
        self.flavour = flavour
        self.write(f"id name {NAME} {self.game.spec()}")
        self.write(f"id author {AUTHOR}")
        self.write(
            f"option name Hash type spin default {HASH_DEFAULT} min 1 max {max_megabytes()}"
        )
        self.write(f"option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        levels = " ".join(f"var {name}" for name in LEVELS)
        self.write(f"option name Level type combo default hard {levels}")
        algorithms = " ".join(f"var {name}" for name in ALGORITHMS)
        self.write(f"option name Algorithm type combo default engine {algorithms}")
        self.write(f"option name Seed type spin default 0 min 0 max {SEED_MOST}")
        self.write("option name Ponder type check default false")
        self.write(f"option name Store type check default {str(self.use_store).lower()}")
        self.write(f"option name Book type check default {str(self.use_book).lower()}")
        self.write(f"{flavour}ok")

    def _ugi(self, rest: list[str]) -> None:
        self._hello(rest, "ugi")

    def _uci(self, rest: list[str]) -> None:
        self._hello(rest, "uci")

    def _isready(self, rest: list[str]) -> None:
        # The heavy set-up (the table, compiling or loading native code)
        # happens here, before readyok, as GUIs expect, not on a move's clock.
        if self.searcher is None and not self._running.is_set():
            try:
                self._prepare()
                self._kept = (self.hash_mb, None)
            except Exception as problem:  # MemoryError for a table, or a user's game
                # Say so, and go on with the previous table (a setoption Hash
                # asked for one that cannot be made).
                self.hash_mb, self.searcher = self._kept
                if isinstance(problem, ZerosumError):
                    self.error(str(problem))
                else:
                    self.error(f"{type(problem).__name__}: {str(problem)[:200]}")
        self.write("readyok")

    def _prepare(self) -> Searcher:
        """Make the searcher; tell the client when that takes a while."""
        done = threading.Event()

        def notice() -> None:
            if not done.wait(SETUP_NOTICE):
                self.write(
                    "info string "
                    + _(
                        "setting up the search: compiling native code on first use "
                        "(up to a minute) or allocating the table"
                    )
                )

        threading.Thread(target=notice, daemon=True).start()
        try:
            options = SearchOptions(
                algorithm=self.algorithm,
                hash_mb=self.hash_mb,
                threads=self.threads,
                seed=self.seed,
                store=self._the_store(),
                use_store=self.use_store,
                use_book=self.use_book,
            )
            searcher = Searcher(self.game, options)
            searcher.prepare()  # the heavy set-up (the table, compiled code)
            self.searcher = searcher
            return searcher
        finally:
            done.set()

    def _the_store(self) -> KnownResults | None:
        """The default store, opened once (a problem: one ``info string``)."""
        if self.use_store and not self._store_opened:
            self._store_opened = True
            self._store = open_store(
                default_store_path(), warn=lambda m: self.write(f"info string {m}")
            )
        return self._store if self.use_store else None

    def _newgame(self, rest: list[str]) -> None:
        self._halt()
        self.searcher = None
        self.state, self._refused = self.game.initial_state(), ""

    def _position(self, rest: list[str]) -> None:
        self._halt()
        # Whatever happens below, the old position is gone: the client
        # meant another one.
        self.state, self._refused = None, _("the last 'position' was refused")
        try:
            self.state = self._read_position(rest)
        except ZerosumError as problem:
            self._refused = str(problem)
            raise
        self._refused = ""

    def _read_position(self, rest: list[str]) -> Any:
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
        return game.play(rest[cut + 1 :], state)

    def _setoption(self, rest: list[str]) -> None:
        self._halt()
        text = " ".join(rest)
        lowered = text.lower()
        if not lowered.startswith("name ") or " value " not in lowered:
            raise ZerosumError(_("expected 'setoption name NAME value VALUE'"))
        cut = lowered.index(" value ")
        name, value = lowered[5:cut].strip(), text[cut + 7 :].strip()
        word = value.lower()
        if name == "hash":
            most = max_megabytes()
            megabytes = check_megabytes(_whole(value, "Hash", 1, most))
            # The current table is kept until the new one is made (isready).
            self._kept = (self.hash_mb, self.searcher)
            self.hash_mb = megabytes
            self.searcher = None
        elif name == "threads":
            threads = _whole(value, "Threads", 1, MAX_THREADS)
            if threads != self.threads:
                self.threads = threads
                self.searcher = None
        elif name == "level":
            if word not in LEVELS:
                raise ZerosumError(
                    _("unknown level {level!r}; expected one of {levels}").format(
                        level=value[:40], levels=", ".join(LEVELS)
                    )
                )
            self.level = word
        elif name == "algorithm":
            if word not in ALGORITHMS:
                raise ZerosumError(
                    _("unknown algorithm {name!r}; expected one of {names}").format(
                        name=value[:40], names=", ".join(ALGORITHMS)
                    )
                )
            if word != self.algorithm:
                self.algorithm = word
                self.searcher = None
        elif name == "seed":
            seed = _whole(value, "Seed", 0, SEED_MOST)
            if seed != self.seed:
                self.seed = seed
                self.searcher = None
        elif name == "ponder":
            if word not in ("true", "false"):
                raise ZerosumError(
                    _("Ponder must be true or false, got {value!r}").format(value=value[:20])
                )
            self.ponder_option = word == "true"
        elif name in ("store", "book"):
            if word not in ("true", "false"):
                raise ZerosumError(
                    _("{name} must be true or false, got {value!r}").format(
                        name=name.capitalize(), value=value[:20]
                    )
                )
            if name == "store":
                self.use_store = word == "true"
            else:
                self.use_book = word == "true"
            self.searcher = None
        else:
            raise ZerosumError(
                _(
                    "unknown option {name!r}; expected Hash, Threads, Level, Algorithm, "
                    "Seed, Ponder, Store or Book"
                ).format(name=name[:40])
            )

    def _query(self, rest: list[str]) -> None:
        game, state = self.game, self.state
        what = rest[0] if rest else ""
        if what not in ("gameover", "p1turn", "result"):
            raise ZerosumError(_("expected 'query gameover', 'query p1turn' or 'query result'"))
        if state is None:
            self.error(self._no_position())
            self.write("response none")
            return
        over = game.is_terminal(state)
        if what == "gameover":
            self.write(f"response {'true' if over else 'false'}")
        elif what == "p1turn":
            self.write(f"response {'true' if game.to_move(state) == 0 else 'false'}")
        elif not over:
            self.write("response none")
        else:
            utility = game.utility(state, 0)
            self.write("response " + {1: "p1win", -1: "p2win", 0: "draw"}[utility])

    def _no_position(self) -> str:
        return _("no position: {why}; expected a valid 'position' first").format(
            why=self._refused
        )

    def _go(self, rest: list[str]) -> None:
        self._halt()
        game, state = self.game, self.state
        if state is None:
            self.error(self._no_position())
            self.write("bestmove 0000")
            return
        request = self._read_go(rest, state)
        for message in request.errors:
            self.error(message)
        for message in request.notes:
            self.write(f"info string {message}")
        if game.is_terminal(state):
            self.error(_("the game is over in this position"))
            self.write("bestmove (none)")
            return
        self._start(state, request)

    def _start(self, state: Any, request: GoRequest) -> None:
        game = self.game
        self._go_count += 1
        self._request = request
        self._release.clear()
        self._stopped.clear()
        self._searched.clear()
        self._pondering = request.ponder
        self._running.set()
        level = LEVELS[self.level]
        noise = level.noise if not (request.infinite or request.ponder) else 0.0
        limits = request.limits if request.limits is not None else self._level_limits()
        rng = random.Random(f"{self.seed}:{game.format_position(state)}")
        waits = request.infinite or request.ponder

        def run() -> None:
            move: Any = None
            result: SearchResult[Any] | None = None
            try:
                searcher = self.searcher or self._prepare()
                if noise and rng.random() < noise:
                    move = rng.choice(list(request.searchmoves or game.actions(state)))
                else:
                    # Searcher.best_move checks its move with the two-ply
                    # safeguard (tactics.guarded), whatever the budget.
                    result = self._search(searcher, state, limits, request.searchmoves)
                    move = result.best_move
            except Exception as problem:  # keep serving: say what went wrong
                self.error(f"{type(problem).__name__}: {problem}")
            if move is None:
                move = (request.searchmoves or tuple(game.actions(state)))[0]
            self._searched.set()
            if waits:
                self._release.wait()
            ponder = ""
            if self.ponder_option and result is not None and result.pv[:1] == (move,):
                ponder = f" ponder {game.format_move(result.pv[1])}" if len(result.pv) > 1 else ""
            with self._lock:
                self._running.clear()
                self._write(f"bestmove {game.format_move(move)}{ponder}")

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def _search(
        self, searcher: Searcher, state: Any, limits: Limits, searchmoves: tuple[Any, ...]
    ) -> SearchResult[Any]:
        printed: list[str] = []

        def show(line: str) -> None:
            # The result repeats the last completed depth: print it only
            # when it says more than that depth's line (the time aside).
            key = _TIMING.sub("", line)
            if not printed or printed[-1] != key:
                printed.append(key)
                self.write(line)

        if not searchmoves:
            result = searcher.best_move(
                state, limits, on_progress=lambda progress: show(self._progress_line(progress))
            )
            show(self._result_line(result))  # unless the last progress said it all
            return result

        allowed = set(searchmoves)

        def on_progress(progress: Progress[Any]) -> None:
            chosen = [entry for entry in progress.moves if entry.move in allowed]
            if chosen:
                best = chosen[0]
                show(
                    self._info_line(
                        progress.depth, best.score, progress.nodes, progress.nps,
                        progress.time_s, best.pv,
                    )
                )  # fmt: skip

        analysis = searcher.analyze(state, limits, on_progress=on_progress)
        chosen = [entry for entry in analysis.moves if entry.move in allowed]
        if not chosen:  # not even one of them was valued: the first allowed
            return dataclasses.replace(
                analysis, best_move=searchmoves[0], pv=(searchmoves[0],), best_moves=()
            )
        best = chosen[0]
        stats = analysis.stats
        show(
            self._info_line(
                analysis.depth, best.score, stats.nodes, stats.nodes_per_second,
                stats.time_s, best.pv,
            )
        )  # fmt: skip
        return dataclasses.replace(
            analysis, best_move=best.move, score=best.score, pv=best.pv, best_moves=(best.move,)
        )

    def _level_limits(self) -> Limits:
        level = LEVELS[self.level]
        if self.algorithm == "mcts":
            return Limits(time=level.time or MCTS_LEVEL_SECONDS)
        return Limits(depth=level.depth, time=level.time)

    def _ponderhit(self, rest: list[str]) -> None:
        if not self._running.is_set() or not self._pondering:
            return  # nothing is pondered: nothing to do
        self._pondering = False
        request, count = self._request, self._go_count
        limits = request.limits or Limits()
        if not self._searched.is_set() and (
            request.budget is not None or (limits.depth is None and limits.nodes is None)
        ):
            # The search goes on under the go's clock, counted from now (with
            # no clock, and no depth or nodes to end it, it answers now).
            seconds = request.budget.soft if request.budget is not None else 0.0
            timer = threading.Timer(seconds, self._time_up, (count,))
            timer.daemon = True
            timer.start()
        self._release.set()

    def _time_up(self, count: int) -> None:
        """A ponderhit's time is over: stop that search (not a later one)."""
        while count == self._go_count and not self._searched.is_set():
            searcher = self.searcher
            if searcher is not None:
                searcher.stop()
            self._searched.wait(0.005)

    def _halt(self) -> None:
        """Stop the running ``go`` (if any): it writes its ``bestmove``
        before this returns."""
        thread = self._thread
        if thread is None:
            return
        self._stopped.set()
        self._release.set()
        # A stop that comes before the search starts is lost: repeat it.
        while thread.is_alive():
            if not self._searched.is_set() and self.searcher is not None:
                self.searcher.stop()
            thread.join(0.005)
        self._thread = None

    def _stop(self, rest: list[str]) -> None:
        self._halt()

    def _quit(self, rest: list[str]) -> bool:
        self._halt()
        return False

    _commands: ClassVar[dict[str, Callable[[Engine, list[str]], Any]]] = {
        "ugi": _ugi,
        "uci": _uci,
        "isready": _isready,
        "uginewgame": _newgame,
        "ucinewgame": _newgame,
        "position": _position,
        "setoption": _setoption,
        "query": _query,
        "go": _go,
        "ponderhit": _ponderhit,
        "stop": _stop,
        "quit": _quit,
    }

    # -- reading go ----------------------------------------------------------------------
    def _read_go(self, rest: list[str], state: Any) -> GoRequest:
        """The request of ``go REST``; never raises: what cannot be taken is
        listed in ``errors`` and left out."""
        request = GoRequest()
        values: dict[str, int] = {}
        moves_text: list[str] = []
        i = 0
        while i < len(rest):
            word = rest[i].lower()
            word = _GO_ALIASES.get(word, word)
            if word in _GO_FLAGS:
                setattr(request, word, True)
                i += 1
            elif word == "searchmoves":
                i += 1
                while i < len(rest) and rest[i].lower() not in _GO_WORDS:
                    moves_text.append(rest[i])
                    i += 1
            elif word in _GO_NUMBERS and i + 1 < len(rest):
                text = rest[i + 1]
                i += 2
                try:
                    values[word] = int(text)
                except ValueError:
                    request.errors.append(
                        _("{name} must be a whole number, got {value!r}").format(
                            name=word, value=text[:20]
                        )
                    )
            else:
                request.errors.append(
                    _("cannot read {word!r} in 'go'; expected e.g. go movetime 1000").format(
                        word=rest[i][:30]
                    )
                )
                i += 1
        request.searchmoves = self._read_searchmoves(moves_text, state, request)
        self._check_values(values, request)
        request.limits = self._go_limits(values, request, state)
        return request

    def _read_searchmoves(
        self, texts: list[str], state: Any, request: GoRequest
    ) -> tuple[Any, ...]:
        moves: list[Any] = []
        game = self.game
        if game.is_terminal(state):
            return ()
        for text in texts:
            try:
                move = game.parse_move(state, text)
            except ZerosumError as problem:
                request.errors.append(str(problem))
                continue
            if move not in moves:
                moves.append(move)
        if texts and not moves:
            request.errors.append(_("no legal move among 'searchmoves': searching every move"))
        return tuple(moves)

    def _check_values(self, values: dict[str, int], request: GoRequest) -> None:
        """Drop (with an error each) the values no search can take."""

        def refuse(name: str, expected: str) -> None:
            request.errors.append(
                _("{name} {value} refused; expected {expected}").format(
                    name=name, value=str(values.pop(name))[:24], expected=expected
                )
            )

        for name in ("p1time", "p2time", "p1inc", "p2inc"):
            if name in values:
                if values[name] > _MILLISECONDS_MOST:
                    refuse(name, _("at most {most} ms").format(most=_MILLISECONDS_MOST))
                else:  # a clock that ran below zero (a late GUI) has nothing left
                    values[name] = max(values[name], 0)
        if "movetime" in values and not 0 <= values["movetime"] <= _MILLISECONDS_MOST:
            refuse("movetime", _("0 to {most} ms").format(most=_MILLISECONDS_MOST))
        if "movestogo" in values and not 1 <= values["movestogo"] <= 10**6:
            refuse("movestogo", _("a whole number from 1 to 1000000"))
        if "nodes" in values and not 1 <= values["nodes"] <= MAX_BUDGET:
            refuse("nodes", _("a whole number from 1 to {most}").format(most=MAX_BUDGET))
        if "mate" in values and not 1 <= values["mate"] <= MAX_PLY:
            refuse("mate", _("a whole number from 1 to {most}").format(most=MAX_PLY))
        if "depth" in values:
            if values["depth"] < 0:
                refuse("depth", _("a whole number of at least 0"))
            elif values["depth"] == 0:
                values["depth"] = 1
                request.notes.append(_("depth 0: searching 1 ply, the least that compares moves"))
            else:
                values["depth"] = min(values["depth"], MAX_PLY)
        if self.algorithm == "mcts":
            for name in ("depth", "mate"):
                if name in values:
                    refuse(name, _("nodes or a time: mcts takes no depth limit"))

    def _go_limits(self, values: dict[str, int], request: GoRequest, state: Any) -> Limits | None:
        if request.infinite:
            return Limits()
        depth = values.get("depth")
        if "mate" in values:
            plies = values["mate"] * 2 - 1 if self.flavour == "uci" else values["mate"]
            depth = plies if depth is None else min(depth, plies)
        nodes = values.get("nodes")
        budget = None
        if "movetime" in values:
            budget = move_budget(movetime=values["movetime"] / 1000)
        else:
            me = "p1" if self.game.to_move(state) == 0 else "p2"
            if f"{me}time" in values:
                budget = move_budget(
                    remaining=values[f"{me}time"] / 1000,
                    increment=values.get(f"{me}inc", 0) / 1000,
                    moves_to_go=values.get("movestogo"),
                )
        request.budget = budget
        seconds = budget.soft if budget is not None and not request.ponder else None
        if depth is None and nodes is None and budget is None:
            return Limits() if request.ponder else None
        cap = LEVELS[self.level].depth
        if self.algorithm == "engine" and cap is not None:
            depth = cap if depth is None else min(depth, cap)
        return Limits(depth=depth, nodes=nodes, time=seconds)

    # -- info lines ------------------------------------------------------------------------
    def _progress_line(self, progress: Progress[Any]) -> str:
        return self._info_line(
            progress.depth, progress.score, progress.nodes, progress.nps, progress.time_s,
            progress.pv,
        )  # fmt: skip

    def _result_line(self, result: SearchResult[Any]) -> str:
        stats = result.stats
        if result.source != "search":
            self.write(f"info string {source_words(result)}")
        return self._info_line(
            result.depth, result.score, stats.nodes, stats.nodes_per_second, stats.time_s,
            result.pv,
        )  # fmt: skip

    def _info_line(
        self,
        depth: int | None,
        score: Score,
        nodes: int,
        nps: float,
        seconds: float,
        pv: Sequence[Any],
    ) -> str:
        """One ``info`` line: depth, score, nodes, nps, time (ms), pv."""
        parts = ["info"]
        if depth is not None:
            parts += ["depth", str(depth)]
        parts += score_words(score, self.flavour)
        parts += ["nodes", str(nodes), "nps", str(round(nps)), "time", str(round(seconds * 1000))]
        if pv:
            parts += ["pv", *(self.game.format_move(m) for m in pv)]
        return " ".join(parts)

    def finish(self) -> None:
        """The input ended: as ``quit`` (a running search answers first)."""
        self._halt()


def score_words(score: Score, flavour: str = "ugi") -> list[str]:
    """``score cp X`` (heuristic, or a draw 0), or ``score mate N`` for a
    proven win (N > 0) or loss (N < 0): N plies to the end of the game under
    UGI, N full moves of the side to move under UCI (``flavour`` ``uci``);
    a proven result whose distance is unknown: ``score cp`` +-100000."""
    plies = score.plies
    if plies is not None:
        count = (plies + 1) // 2 if flavour == "uci" else plies
        return ["score", "mate", str(count if score.raw > 0 else -count)]
    if score.exact and score.raw:
        return ["score", "cp", "100000" if score.raw > 0 else "-100000"]
    return ["score", "cp", str(score.raw)]


def _whole(text: str, name: str, least: int, most: int) -> int:
    """``text`` as a whole number from ``least`` to ``most``, else a one-line
    error (the option keeps its value)."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not least <= value <= most:
        raise ZerosumError(
            _("{name} must be a whole number from {least} to {most}, got {value!r}").format(
                name=name, least=least, most=most, value=text[:20]
            )
        )
    return value


def serve(game: Game[Any, Any], lines: TextIO, out: TextIO) -> int:
    """Read commands from ``lines`` until ``quit`` or the end of input (the
    same as ``quit``: a running search is stopped, answers, and the engine
    ends)."""

    def write(line: str) -> None:
        try:
            out.write(line + "\n")
            out.flush()
        except (BrokenPipeError, ValueError):
            pass  # the client is gone: nobody reads the answer

    engine = Engine(game, write)
    for line in lines:
        if not engine.handle(line):
            return 0
    engine.finish()
    return 0


def cmd_engine(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    return serve(load(args.game), sys.stdin, sys.stdout)
