"""The search runner: one session's searches, one at a time, in its own thread.

Contract:

* :meth:`SearchRunner.start` runs a coroutine as *the* running search, of a
  kind (``"ai"``, ``"analysis"``, ``"hint"``, ``"review"``) and with a new
  *search id* (an int, increasing). Every object the search sends goes out
  through :meth:`SearchRunner.send`, which stamps it with that id, so the
  page can drop lines of any other search.
* Every change of the position shown calls :meth:`SearchRunner.cancel`: it
  bumps the *generation*, stops the running search and drops whatever it
  still reports (a line posted from its thread after the change is never
  sent). Its thread winds down in the background; the next search waits for
  it (they may share an engine).
* Blocking work (an engine's search) runs in :meth:`SearchRunner.in_thread`,
  in the session's own worker thread (one per session, so one tab's endless
  search never takes the thread another tab needs), stoppable with the
  ``stop`` callable given; :meth:`SearchRunner.stop` calls it (the ``stop``
  message). :meth:`SearchRunner.reporter` makes a progress callback for that
  thread.
* A search that ends by itself (not cancelled) calls ``on_end(kind)``; an
  error it raises goes out first as an ``error`` object, with its
  ``search_id``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .. import i18n
from ..game import ZerosumError
from ..report import error_object
from .messages import internal_error, too_deep

Emit = Callable[[dict[str, Any]], None]
log = logging.getLogger("zerosum.web")


class SearchRunner:
    """The searches of one session; see the module docstring."""

    def __init__(self, emit: Emit, on_end: Callable[[str | None], None]) -> None:
        self._emit = emit
        self._on_end = on_end
        #: What is running: None, or its kind.
        self.kind: str | None = None
        #: The running search's id (None when none runs).
        self.search_id: int | None = None
        self._last_id = 0
        #: Bumped by every cancel: a search remembers the one it started in.
        self.generation = 0
        #: The language the worker thread translates into.
        self.lang = "en"
        #: What the log names when a search fails (the game's spec).
        self.label = ""
        self._task: asyncio.Task[None] | None = None
        self._stop: Callable[[], None] | None = None
        self.worker: asyncio.Future[Any] | None = None
        self._winding_down: asyncio.Future[Any] | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self._executor: ThreadPoolExecutor | None = None

    def start(self, kind: str, work: Callable[[int], Coroutine[Any, Any, None]]) -> int:
        """Start a search of ``kind`` running ``work(search_id)`` (made only
        once the task runs, so a task cancelled before it starts leaves
        nothing behind); returns its id. Cancel the running one first."""
        self._last_id += 1
        self.kind, self.search_id = kind, self._last_id
        self._task = asyncio.get_running_loop().create_task(self._run(work, self._last_id))
        return self._last_id

    def current(self, generation: int) -> bool:
        """Whether a search started in ``generation`` is still wanted."""
        return generation == self.generation

    def send(self, search_id: int, obj: dict[str, Any]) -> None:
        """Send ``obj`` for the search ``search_id``, stamped with its id."""
        self._emit({**obj, "search_id": search_id})

    async def _run(self, work: Callable[[int], Coroutine[Any, Any, None]], search_id: int) -> None:
        try:
            if self._winding_down is not None:  # one search at a time per engine
                await asyncio.shield(self._winding_down)
            await work(search_id)
        except ZerosumError as error:
            if self._task is asyncio.current_task():
                self.send(search_id, error_object(str(error)))
        except RecursionError:  # a game deeper than Python's recursion allows
            if self._task is asyncio.current_task():
                self.send(search_id, error_object(too_deep()))
        except Exception:  # a bug: say so, keep serving
            log.exception("search failed in %s", self.label)
            if self._task is asyncio.current_task():
                self.send(search_id, error_object(internal_error()))
        finally:
            if self._task is asyncio.current_task():  # ended by itself, not replaced
                kind = self.kind
                self.finish()
                self._on_end(kind)

    def finish(self) -> None:
        """The running search is over (its result is in hand)."""
        self._task, self._stop, self.worker = None, None, None
        self.kind, self.search_id = None, None

    def cancel(self) -> None:
        """Stop the running search and drop what it still reports (a new
        generation); its thread winds down in the background."""
        self.generation += 1
        task, stop, worker = self._task, self._stop, self.worker
        self.finish()
        if task is None or task.done():
            return
        task.cancel()
        if stop is not None and worker is not None:
            self._winding_down = self._spawn(self._wind_down(worker, stop))

    def stop(self) -> bool:
        """Ask the running search to end with what it has (False when no
        search runs)."""
        if self.kind is None:
            return False
        if self._stop is not None:  # else it has not reached its thread yet
            self._stop()
        return True

    @staticmethod
    async def _wind_down(worker: asyncio.Future[Any], stop: Callable[[], None]) -> None:
        # A stop request made before the engine starts searching is lost
        # (the engine clears it at the start), so repeat it until the worker
        # thread has returned.
        while not worker.done():
            stop()
            await asyncio.sleep(0.005)
        await asyncio.gather(worker, return_exceptions=True)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def in_thread(self, stop: Callable[[], None], call: Callable[[], Any]) -> Any:
        """Run ``call`` in the worker thread (in the session's language),
        stoppable with ``stop``."""
        lang = self.lang

        def work() -> Any:
            i18n.activate(lang)
            return call()

        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="zerosum-search")
        self._stop = stop
        loop = asyncio.get_running_loop()
        self.worker = asyncio.ensure_future(loop.run_in_executor(self._executor, work))
        return await asyncio.shield(self.worker)

    def reporter(
        self,
        search_id: int,
        make: Callable[[Any], dict[str, Any]],
        seen: Callable[[Any], None] | None = None,
    ) -> Callable[[Any], None]:
        """A progress callback for the worker thread: ``make(progress)``
        builds the object, posted to the event loop, which drops it once
        stale (another generation); else it is sent and ``seen(progress)``
        is called there (on the event loop's thread)."""
        loop = asyncio.get_running_loop()
        generation = self.generation

        def report(progress: Any) -> None:
            obj = make(progress)
            loop.call_soon_threadsafe(self._post, generation, search_id, obj, progress, seen)

        return report

    def _post(
        self,
        generation: int,
        search_id: int,
        obj: dict[str, Any],
        progress: Any,
        seen: Callable[[Any], None] | None,
    ) -> None:
        if generation == self.generation:
            self.send(search_id, obj)
            if seen is not None:
                seen(progress)

    async def close(self) -> None:
        """Stop the running search and wait for the thread to wind down."""
        self.cancel()
        if self._winding_down is not None:
            await asyncio.gather(self._winding_down, return_exceptions=True)
        if self._executor is not None:
            self._executor.shutdown(wait=False)
            self._executor = None
