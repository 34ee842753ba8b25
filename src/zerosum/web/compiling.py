"""The server never waits on compilation: the native search of a game is
compiled (or loaded from numba's disk cache) in a child process, and the
server's games search on the Python backend until it is ready.

Why a process and not a thread: compiling a game family's kernels takes
seconds to minutes of CPU, almost all of it Python code (numba's type
inference) holding the interpreter lock. In a thread of the server, on a
loaded machine, the event loop then waited for the lock at every step of
every request: ``/api/health`` went unanswered for minutes. A child process
shares no lock with the server; what it compiles lands in numba's disk cache
(``NUMBA_CACHE_DIR``, or beside the sources), from which the server's own
first native search then loads the code in a fraction of a second.

Contract (:class:`NativeWarmer`, one per server):

* :meth:`NativeWarmer.status` says, for a game spec, ``"ready"`` (its native
  code is in the cache, or it has none: search as usual), ``"compiling"``
  (asked for, not done: search on the Python backend) or ``"failed"`` (the
  child could not compile it: the Python backend, for good);
* :meth:`NativeWarmer.request` asks for a spec (first in the queue); the
  child process starts at the first request (or at :meth:`NativeWarmer.start`
  with a list of specs to compile ahead, which ``zerosum serve`` passes);
* listeners (:meth:`NativeWarmer.subscribe`) are called on the event loop's
  thread with each spec whose status changed.

The child is this module run as a program: it reads one spec a line and
answers ``ready``, ``none`` (no native code: as good as ready) or ``failed``
with the spec, tab-separated.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from typing import IO

log = logging.getLogger("zerosum.web")

#: What :meth:`NativeWarmer.status` answers.
READY, COMPILING, FAILED = "ready", "compiling", "failed"

Listener = Callable[[str], None]


class NativeWarmer:
    """Compiles games' native search in a child process; see the module
    docstring. ``command`` is the child's command line (a test may give
    another); ``enabled`` False makes every spec ready at once (no native
    backend here: nothing to compile)."""

    def __init__(self, command: list[str] | None = None, enabled: bool | None = None) -> None:
        self.command = command or [sys.executable, "-m", "zerosum.web.compiling"]
        if enabled is None:
            from ..search.front import available_backends

            enabled = available_backends().get("native") == "yes"
        self.enabled = enabled
        self._lock = threading.Lock()
        #: Specs answered, with their status (``ready`` or ``failed``).
        self._done: dict[str, str] = {}
        #: Specs asked for, in the order the child will take them.
        self._queue: list[str] = []
        #: The spec the child is compiling now.
        self._current: str | None = None
        self._process: subprocess.Popen[str] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listeners: set[Listener] = set()
        self._closed = False
        #: The child could not start or ended: every spec fails at once.
        self._dead = False
        #: Set when a spec is queued (or the warmer closes): wakes the reader.
        self._wake = threading.Event()

    # -- what the sessions ask --------------------------------------------------
    def status(self, spec: str) -> str:
        """``ready``, ``compiling`` or ``failed`` (see the module docstring);
        a spec never asked for is ``compiling`` (ask for it)."""
        if not self.enabled:
            return READY
        with self._lock:
            return self._done.get(spec, COMPILING)

    def request(self, spec: str) -> None:
        """Compile ``spec``'s native search next (nothing when it is done or
        compiling now). Call on the event loop's thread."""
        if not self.enabled:
            return
        with self._lock:
            if spec in self._done or spec == self._current:
                return
            if self._dead:
                self._done[spec] = FAILED
            else:
                if spec in self._queue:
                    self._queue.remove(spec)
                self._queue.insert(0, spec)
        if self._dead:
            self._notify(spec)
            return
        self._ensure_running()

    def start(self, specs: Iterable[str] = (), delay: float = 0.0) -> None:
        """Compile ``specs`` ahead, in the background, in this order after
        any asked for, from ``delay`` seconds on (the first page's game
        comes first). Call on the event loop's thread."""
        if not self.enabled or self._dead:
            return
        if delay > 0:
            specs = list(specs)
            asyncio.get_running_loop().call_later(delay, self.start, specs)
            return
        with self._lock:
            for spec in specs:
                if spec not in self._done and spec != self._current and spec not in self._queue:
                    self._queue.append(spec)
        self._ensure_running()

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(spec)`` (on the event loop's thread) when a spec's
        status changes."""
        self._listeners.add(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners.discard(listener)

    def close(self) -> None:
        """End the child process (the server stops)."""
        self._closed = True
        self._wake.set()
        process = self._process
        if process is not None and process.poll() is None:
            with contextlib.suppress(OSError):
                assert process.stdin is not None
                process.stdin.close()
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)

    # -- the child process -----------------------------------------------------
    def _ensure_running(self) -> None:
        self._wake.set()
        if self._closed:
            return
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        if self._process is None:
            try:
                self._process = subprocess.Popen(
                    self.command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    encoding="utf-8",
                    errors="replace",
                    bufsize=1,
                )
            except OSError as error:
                log.warning("zerosum: cannot start the compiling process: %s", error)
                self._fail_all()
                return
            threading.Thread(
                target=self._talk, args=(self._process,), name="zerosum-compile", daemon=True
            ).start()

    def _next(self) -> str | None:
        with self._lock:
            self._current = self._queue.pop(0) if self._queue else None
            return self._current

    def _talk(self, process: subprocess.Popen[str]) -> None:
        """The reader thread: hands the child one spec at a time (so a spec
        asked for later still goes first) and records its answers."""
        stdin, stdout = process.stdin, process.stdout
        assert stdin is not None and stdout is not None
        try:
            while not self._closed:
                spec = self._next()
                if spec is None:
                    if not self._wait_for_work():
                        break
                    continue
                stdin.write(spec + "\n")
                stdin.flush()
                answer = _read_answer(stdout, spec)
                if answer is None:
                    break  # the child died
                self._finish(spec, answer)
        except OSError:
            pass
        if not self._closed:
            log.warning("zerosum: the compiling process ended; the Python backend searches")
            self._fail_all()

    def _wait_for_work(self) -> bool:
        """Sleep until a spec is queued (False: closed)."""
        while not self._closed:
            with self._lock:
                if self._queue:
                    return True
                self._wake.clear()
            self._wake.wait()
        return False

    def _finish(self, spec: str, status: str) -> None:
        with self._lock:
            self._done[spec] = status
            self._current = None
        self._notify(spec)

    def _fail_all(self) -> None:
        with self._lock:
            specs = [*self._queue, *([self._current] if self._current else [])]
            for spec in specs:
                self._done[spec] = FAILED
            self._queue.clear()
            self._current = None
            self._dead = True  # any spec asked for later fails at once too
        for spec in specs:
            self._notify(spec)

    def _notify(self, spec: str) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        for listener in list(self._listeners):
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(listener, spec)


def _read_answer(stdout: IO[str], spec: str) -> str | None:
    """The child's answer for ``spec``: ``ready`` or ``failed``; None when
    it closed its output."""
    while True:
        line = stdout.readline()
        if not line:
            return None
        parts = line.rstrip("\n").split("\t")
        if len(parts) >= 2 and parts[1] == spec:
            return FAILED if parts[0] == "failed" else READY


def compile_game(spec: str) -> str:
    """Compile (or load from the disk cache) ``spec``'s native search: the
    engine's kernels and Monte Carlo tree search's. ``ready``, ``none`` (no
    native code) or ``failed`` and why."""
    from ..game import ZerosumError
    from ..registry import load
    from ..search.front import Searcher, SearchOptions

    try:
        game = load(spec)
    except ZerosumError as error:
        return f"failed\t{spec}\t{error}"
    for algorithm in ("engine", "mcts"):
        options = SearchOptions(
            algorithm=algorithm, backend="native", seed=1, use_store=False, use_book=False
        )
        try:
            searcher = Searcher(game, options)
            searcher.prepare()
        except ZerosumError:
            if algorithm == "engine":
                return f"none\t{spec}"
            continue  # no compiled MCTS for it: the engine's is enough
        searcher.close()
    return f"ready\t{spec}"


def main() -> int:
    """The child: one spec a line in, one answer a line out."""
    with contextlib.suppress(OSError):
        os.nice(5)  # the server's requests come first
    for line in sys.stdin:
        spec = line.strip()
        if not spec:
            continue
        try:
            answer = compile_game(spec)
        except Exception as error:  # a bug or an LLVM failure: the Python backend serves
            answer = f"failed\t{spec}\t{type(error).__name__}: {error}"
        print(answer, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
