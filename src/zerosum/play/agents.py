"""Who chooses a move: a human at the terminal, a random player, or the AI.

Every agent has one method, ``choose(game, state) -> Decision``. A human is
just another agent: front ends and the match loop never ask who is playing.
An agent raises :class:`Quit` when its player wants to stop the game.
"""

from __future__ import annotations

import atexit
import queue
import random
import subprocess
import threading
import time as time_module
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..game import Game, MoveError
from ..i18n import _
from ..search import reference, tactics
from ..search.clock import wait_limit
from ..search.engine import Progress
from ..search.front import DEFAULT_MOVE_SECONDS, Searcher, SearchOptions
from ..search.mcts import MCTSConfig
from ..search.mcts import options as mcts_options
from ..search.types import Limits, SearchResult


class Quit(Exception):
    """The player asked to end the game (``quit``, or end of input)."""


class Undo(Exception):
    """The player asked to take back their last move (``undo``): the game
    loop goes back to the position where that player last moved, with the
    opponent's reply taken back too."""


@dataclass(frozen=True)
class Decision:
    """A chosen move, and the search behind it when there was one (so a
    front end can show why the AI moved)."""

    move: Any
    search: SearchResult[Any] | None = None
    from_book: bool = False


class Agent(Protocol):
    """Anything that picks a move for the side to move."""

    label: str

    def choose(self, game: Game[Any, Any], state: Any) -> Decision: ...


@dataclass(frozen=True)
class Level:
    """A strength a player understands, as search limits and noise: the AI
    searches to ``depth`` plies or for ``time`` seconds (None: no limit of
    that kind; neither: to the end of the game, perfect play) and, with
    probability ``noise``, plays a random legal move instead (a deliberate
    mistake, drawn from the seeded generator)."""

    depth: int | None
    time: float | None
    noise: float


LEVELS: dict[str, Level] = {
    "easy": Level(depth=2, time=None, noise=0.3),
    "medium": Level(depth=4, time=1.0, noise=0.1),
    "hard": Level(depth=None, time=3.0, noise=0.0),
    "perfect": Level(depth=None, time=None, noise=0.0),
}


def _book_move(game: Game[Any, Any], state: Any, rng: random.Random | None) -> Decision | None:
    """The opening table's best move for ``state`` (seeded choice among equal
    scores, else the first), or None when the game has no entry for it."""
    table = game.opening_scores(state)
    if not table:
        return None
    top = max(table.values())
    best = [move for move, score in table.items() if score == top]
    return Decision(rng.choice(best) if rng else best[0], from_book=True)


class HumanAgent:
    """Reads moves typed at the terminal.

    Garbage or an illegal move re-prompts with the game's message, which
    lists the legal moves; ``quit`` (or ``q``, ``exit``, ``退出``) or the end of input raises
    :class:`Quit`. ``read`` and ``write`` default to ``input`` and ``print``
    and are injectable for tests and other front ends.
    """

    QUIT_WORDS = frozenset({"quit", "q", "exit", "退出"})
    HINT_WORDS = frozenset({"hint", "h", "提示"})
    UNDO_WORDS = frozenset({"undo", "u", "悔棋"})
    HELP_WORDS = frozenset({"help", "?", "？", "帮助"})

    def __init__(
        self,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        hint_limits: Limits | None = None,
        hint_options: SearchOptions | None = None,
    ) -> None:
        self.label = _("human")
        self.read = read
        self.write = write
        #: What ``hint`` may spend (None: 1 s), and how it searches.
        self.hint_limits = hint_limits if hint_limits is not None else Limits(time=1.0)
        self.hint_options = hint_options or SearchOptions()
        self._hinter: Searcher | None = None

    def hint(self, game: Game[Any, Any], state: Any) -> str:
        """The engine's suggestion for the side to move, in one line."""
        if self._hinter is None or self._hinter.game is not game:
            self._hinter = Searcher(game, self.hint_options)
        result = self._hinter.best_move(state, self.hint_limits)
        return _("Hint: {move} ({score})").format(
            move=game.format_move(result.best_move), score=result.score.describe()
        )

    def help_text(self, game: Game[Any, Any], state: Any) -> str:
        return _(
            "Type a move ({moves}), hint for the engine's suggestion, undo to take back"
            " your last move, help or ? for this help, quit to stop."
        ).format(moves=game.legal_moves_text(state))

    def choose(self, game: Game[Any, Any], state: Any) -> Decision:
        name = game.player_name(game.to_move(state))
        while True:
            try:
                text = self.read(
                    _("{player}, your move (or hint, undo, help, quit): ").format(player=name)
                )
            except EOFError:
                raise Quit from None
            text = text.strip()
            word = text.lower()
            if word in self.QUIT_WORDS:
                raise Quit
            if word in self.UNDO_WORDS:
                raise Undo
            if word in self.HELP_WORDS:
                self.write(self.help_text(game, state))
                continue
            if word in self.HINT_WORDS:
                self.write(self.hint(game, state))
                continue
            if not text:
                continue
            try:
                return Decision(game.parse_move(state, text))
            except MoveError as error:
                # parse_move's message already lists the legal moves.
                self.write(str(error))


class RandomAgent:
    """Plays a uniformly random legal move from a seedable generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.label = _("random")
        self.rng = random.Random(seed)

    def choose(self, game: Game[Any, Any], state: Any) -> Decision:
        return Decision(self.rng.choice(list(game.actions(state))))


class EngineAgent:
    """The AI: asks the search front door for the move to play.

    ``options`` says which algorithm (the engine by default, on the best
    backend available; the reference minimax or alpha-beta; any registered
    one); ``limits`` what it may spend (None: the algorithm's default for a
    move, 3 s for the engine; ``Limits()``: no limit, perfect play). With
    ``seed`` it chooses at random, reproducibly, among equally valued moves
    (without one, the first best move in the game's order); with probability
    ``noise`` it plays a random move instead (a deliberate mistake); with
    ``book`` it uses the game's opening table where it has one (tic-tac-toe:
    centre first). The searcher, and so the engine's table, is kept from move
    to move of one game.
    """

    def __init__(
        self,
        limits: Limits | None = None,
        seed: int | None = None,
        noise: float = 0.0,
        book: bool = True,
        options: SearchOptions | None = None,
    ) -> None:
        if limits is not None and not isinstance(limits, Limits):
            raise TypeError(
                _("limits must be a Limits value or None, got {type}").format(
                    type=type(limits).__name__
                )
            )
        self.label = _("AI")
        self.limits = limits
        self.options = options or SearchOptions()
        self.rng = random.Random(seed) if seed is not None else None
        self.noise_rng = random.Random(seed)
        self.noise = noise
        self.book = book
        #: Score every move, not just find the best (an analysis at the same
        #: limits: slower), so that a front end can show the list, as the
        #: tutorials print each candidate's score.
        self.scores = False
        self._searcher: Searcher | None = None

    @classmethod
    def at_level(cls, level: str, seed: int | None = None) -> EngineAgent:
        """The AI at a named level: easy, medium, hard or perfect."""
        chosen = LEVELS[level]
        return cls(Limits(depth=chosen.depth, time=chosen.time), seed, chosen.noise)

    def choose(
        self,
        game: Game[Any, Any],
        state: Any,
        on_progress: Callable[[Progress[Any]], None] | None = None,
    ) -> Decision:
        """The AI's move; ``on_progress`` receives the search's report after
        each completed depth (for a front end that shows the AI thinking)."""
        if self.noise and self.noise_rng.random() < self.noise:
            return Decision(self.noise_rng.choice(list(game.actions(state))))
        book = _book_move(game, state, self.rng) if self.book else None
        if book is not None:
            return book
        if self._searcher is None or self._searcher.game is not game:
            self._searcher = Searcher(game, self.options)
        if self.scores and self.options.algorithm != "mcts":
            return self._scored(game, state, on_progress)
        result = self._searcher.best_move(
            state, self.limits, rng=self.rng, on_progress=on_progress
        )
        return Decision(result.best_move, search=result)

    def _scored(
        self,
        game: Game[Any, Any],
        state: Any,
        on_progress: Callable[[Progress[Any]], None] | None,
    ) -> Decision:
        """The move from an analysis of every move (``scores``): the best,
        a seeded draw among equals, checked by the two-ply safeguard as
        every chosen move is."""
        assert self._searcher is not None
        limits = self.limits if self.limits is not None else Limits(time=DEFAULT_MOVE_SECONDS)
        result = self._searcher.analyze(state, limits, on_progress=on_progress)
        if self.rng is not None and len(result.best_moves) > 1:
            move = self.rng.choice(list(result.best_moves))
            line = next(line for line in result.moves if line.move == move)
            result = replace(result, best_move=move, score=line.score, pv=line.pv)
        # The checked move is the one played, and the search shown is its.
        checked = tactics.guarded(game, state, result)
        return Decision(checked.best_move, search=checked)

    def stop(self) -> None:
        """From another thread: make a running :meth:`choose` return now with
        the best move of its last completed depth. A request that comes before
        the search has started is lost (see :meth:`Engine.stop`), so a caller
        that must stop it repeats the request until ``choose`` returns."""
        if self._searcher is not None:
            self._searcher.stop()

    def close(self) -> None:
        """The game is over: release the searcher and its table now (a
        later :meth:`choose` starts a new one)."""
        searcher, self._searcher = self._searcher, None
        if searcher is not None:
            searcher.close()


class MCTSAgent(EngineAgent):
    """The AI played by Monte Carlo tree search (with the MCTS-Solver):
    ``limits`` a time and/or an iteration budget (None: 3 s a move),
    ``seed`` for its random playouts (the same seed, the same games),
    ``config`` its settings (exploration constant, playout policy,
    backend); no opening table. Its tree is kept from move to move of one
    game."""

    def __init__(
        self,
        limits: Limits | None = None,
        seed: int | None = None,
        backend: str = "auto",
        config: MCTSConfig | None = None,
    ) -> None:
        self.config = config or MCTSConfig(backend=backend)
        super().__init__(limits, seed, book=False, options=mcts_options(self.config, seed))
        self.label = "MCTS"


class AgentFailure(Exception):
    """An agent that could not produce a legal move (an external program
    that crashed, timed out or answered an illegal move): its side loses the
    game, and ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class _Ended:
    """The last item of a program's output queue: its output ended, or was
    cut (``reason``: a line too long), after which nothing is read."""

    reason: str | None = None


#: What a program's reader thread hands over: a line, or the end.
Lines = queue.Queue[str | _Ended]
#: Programs that finished a game in good order, by command line, kept for
#: the next game in this process (their process and their output's queue).
_IDLE: dict[tuple[str, ...], list[tuple[subprocess.Popen[bytes], Lines]]] = {}


def _quit_idle() -> None:
    for programs in _IDLE.values():
        for process, _lines in programs:
            _end(process)
    _IDLE.clear()


def _end(process: subprocess.Popen[bytes]) -> None:
    """End a program: ``quit``, then by force."""
    try:
        if process.stdin is not None:
            process.stdin.write(b"quit\n")
            process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


atexit.register(_quit_idle)


class ProgramAgent:
    """An external program speaking the engine protocol (UGI, as
    ``zerosum engine`` does), started on its first move and kept for the
    game; :meth:`close` ends it, or keeps it for the next game with the same
    command line in this process when it finished the game in good order
    (the next game starts with ``uginewgame`` and ``isready``).

    Each move it is sent the position in the game's notation
    (``position fen ...``) and ``go movetime MS`` (``time`` seconds, 1 by
    default), or ``go depth N`` / ``go nodes N``; it must answer
    ``bestmove MOVE`` in time (plus a grace of :attr:`GRACE` seconds; for
    ``go depth``/``go nodes``, which have no time, within :attr:`UNTIMED`
    seconds). A crash, a timeout, an illegal move or a line longer than
    :attr:`MAX_LINE` bytes raises :class:`AgentFailure` with the reason; its
    output is decoded leniently (bytes that are not UTF-8 are replaced), so
    garbage on a line is just a line that is not understood.
    """

    GRACE = 5.0
    STARTUP = 20.0
    UNTIMED = 60.0
    MAX_LINE = 64 * 1024
    #: How long a program that said it is setting up (an ``info string``
    #: before its ``readyok``: ``zerosum engine`` compiling its native code)
    #: is waited for: first compiles took 37-79 s on a loaded machine, so
    #: about four times the slowest.
    SETTING_UP = 300.0

    def __init__(
        self,
        command: Sequence[str],
        time: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        label: str | None = None,
    ) -> None:
        self.command = list(command)
        self.time = time if time is not None or depth or nodes else 1.0
        self.depth = depth
        self.nodes = nodes
        self.label = label or " ".join(self.command)
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: Lines = queue.Queue()
        #: False once it failed: it is then ended, never kept.
        self._healthy = True

    # -- the conversation --------------------------------------------------------
    def _send(self, line: str) -> None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(line.encode("utf-8") + b"\n")
            self._process.stdin.flush()
        except OSError:
            raise AgentFailure(self._died()) from None

    def _died(self) -> str:
        code = None
        if self._process is not None:
            try:  # its output ended: it is exiting, or has exited
                code = self._process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = None
        if code is None:
            return _("the program stopped answering")
        return _("the program exited with status {code}").format(code=code)

    def _expect(self, prefix: str, seconds: float, setting_up: float | None = None) -> str:
        """The next line starting with ``prefix`` (others, such as ``info``,
        are skipped), within ``seconds`` (or ``setting_up`` seconds from the
        first ``info string`` that comes before it)."""
        deadline = time_module.monotonic() + seconds
        while True:
            left = deadline - time_module.monotonic()
            if left <= 0:
                raise AgentFailure(
                    _("no {word!r} from the program within {seconds:.1f} s").format(
                        word=prefix, seconds=seconds
                    )
                )
            try:
                line = self._lines.get(timeout=min(left, 3600.0))
            except queue.Empty:
                continue
            if isinstance(line, _Ended):
                raise AgentFailure(line.reason or self._died())
            if line.split()[:1] == [prefix]:
                return line
            if setting_up is not None and line.split()[:2] == ["info", "string"]:
                seconds, setting_up = setting_up, None
                deadline = time_module.monotonic() + seconds

    def _start(self) -> None:
        idle = _IDLE.get(tuple(self.command))
        while idle:
            process, lines = idle.pop()
            if process.poll() is not None:
                continue
            self._process, self._lines = process, lines
            while not lines.empty():  # nothing of the last game is left over
                lines.get_nowait()
            try:
                self._send("uginewgame")
                self._send("isready")
                self._expect("readyok", self.STARTUP, self.SETTING_UP)
                return
            except AgentFailure:
                _end(process)
                self._process, self._lines = None, queue.Queue()
        self._healthy = True
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as error:
            raise AgentFailure(
                _("cannot start {program}: {error}").format(
                    program=self.command[0], error=error.strerror or error
                )
            ) from None
        stdout = self._process.stdout
        assert stdout is not None
        lines = self._lines
        most = self.MAX_LINE

        def read() -> None:
            # At most ``most`` bytes a line: a program that writes without
            # a newline must not fill this process's memory.
            reason = None
            try:
                while raw := stdout.readline(most + 1):
                    if len(raw) > most and not raw.endswith(b"\n"):
                        reason = _("the program wrote a line longer than {most} bytes").format(
                            most=most
                        )
                        break
                    text = raw.decode("utf-8", errors="replace").strip()
                    if text:
                        lines.put(text)
            except (OSError, ValueError):  # the pipe closed under us
                pass
            lines.put(_Ended(reason))

        threading.Thread(target=read, daemon=True).start()
        self._send("ugi")
        self._expect("ugiok", self.STARTUP)
        self._send("uginewgame")
        self._send("isready")
        self._expect("readyok", self.STARTUP, self.SETTING_UP)

    def choose(self, game: Game[Any, Any], state: Any) -> Decision:
        try:
            return self._choose(game, state)
        except AgentFailure:
            self._healthy = False
            raise

    def _choose(self, game: Game[Any, Any], state: Any) -> Decision:
        if self._process is None:
            self._start()
        self._send(f"position fen {game.format_position(state)}")
        if self.depth is not None:
            go, wait = f"go depth {self.depth}", self.UNTIMED
        elif self.nodes is not None:
            go, wait = f"go nodes {self.nodes}", self.UNTIMED
        else:
            assert self.time is not None
            go, wait = f"go movetime {max(1, round(self.time * 1000))}", self.time
        self._send(go)
        words = self._expect("bestmove", wait_limit(wait, self.GRACE)).split()
        if len(words) < 2:
            raise AgentFailure(_("the program sent 'bestmove' without a move"))
        try:
            return Decision(game.parse_move(state, words[1]))
        except MoveError:
            raise AgentFailure(
                _("the program played an illegal move {move!r}").format(move=words[1][:40])
            ) from None

    def close(self) -> None:
        """The game is over: keep the program for the next game when it
        played in good order, else end it (politely, then by force)."""
        process, self._process = self._process, None
        if process is None:
            return
        if self._healthy and process.poll() is None:
            _IDLE.setdefault(tuple(self.command), []).append((process, self._lines))
            self._lines = queue.Queue()
            return
        _end(process)


class SearchAgent(EngineAgent):
    """The AI played by a reference algorithm, as the tutorials write it:
    ``algorithm`` ``minimax`` or ``alphabeta``, ``depth`` plies (None: to
    the end of the game, so play is perfect), ``seed`` for a reproducible
    choice among equally good moves, ``book`` for the opening table."""

    def __init__(
        self,
        algorithm: reference.Algorithm = "alphabeta",
        depth: int | None = None,
        seed: int | None = None,
        book: bool = True,
    ) -> None:
        super().__init__(
            Limits(depth=depth), seed, book=book, options=SearchOptions(algorithm=algorithm)
        )
        self.algorithm = algorithm
        self.depth = depth
