"""The web app behind ``zerosum serve``: a Starlette application.

* ``GET /`` -- the page (``static/index.html``), ``/static/...`` its files;
* ``GET /api/games?lang=`` -- every registered game and its parameters;
* ``GET /api/strings?lang=`` -- the page's texts in that language, from the
  same gettext catalog as the terminal;
* ``GET /api/health`` -- ``{"status": "ok"}``;
* ``GET /api/trace``, ``GET /api/position`` -- the search-tree view
  (:mod:`.tracing`);
* ``WS /ws?lang=`` -- one :class:`~zerosum.web.session.Session` per
  connection (``docs/messages.md``).

Front-end only: the page renders what the session sends; all rules and
search stay in the library.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import i18n
from ..game import ZerosumError
from ..registry import entries
from ..report import error_object
from .session import Session, internal_error
from .strings import PAGE_STRINGS
from .tracing import position_response, trace_response

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger(__name__)


def _language(request: Request | WebSocket) -> str:
    """The ``lang`` query parameter when it is a known language, else English."""
    lang = request.query_params.get("lang", "en")
    return lang if lang in i18n.LANGUAGES else "en"


def short_title(description: str) -> str:
    """A game's name for a menu: its description up to the first colon."""
    for colon in (":", "："):
        description = description.split(colon, 1)[0]
    return description.strip()


def games_list(lang: str) -> list[dict[str, Any]]:
    """The ``/api/games`` list, titles in ``lang``."""
    catalog = i18n.translations(lang)
    listed = []
    for entry in entries():
        description = catalog.gettext(entry.description)
        params = (
            []
            if entry.alias_of
            else [
                {
                    "name": p.name,
                    "default": p.default,
                    "help": catalog.gettext(p.help) if p.help else "",
                    "choices": list(p.choices),
                    "minimum": p.minimum,
                    "maximum": p.maximum,
                }
                for p in entry.cls.params
            ]
        )
        listed.append(
            {
                "name": entry.name,
                "title": short_title(description),
                "description": description,
                "alias_of": entry.alias_of or None,
                "params": params,
            }
        )
    return listed


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def api_games(request: Request) -> Response:
    return JSONResponse(games_list(_language(request)))


async def api_strings(request: Request) -> Response:
    catalog = i18n.translations(_language(request))
    return JSONResponse({text: catalog.gettext(text) for text in PAGE_STRINGS})


async def api_health(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


def _tree_view(answer: Callable[[Mapping[str, str]], dict[str, Any]]) -> Callable[
    [Request], Coroutine[Any, Any, Response]
]:
    """A read-only endpoint of the search-tree view: the answer is computed
    in a worker thread (a trace takes up to a few seconds) in the request's
    language; bad input is a 400 with an ``error`` object."""

    async def endpoint(request: Request) -> Response:
        i18n.activate(_language(request))
        query = dict(request.query_params)
        try:
            return JSONResponse(await asyncio.to_thread(answer, query))
        except ZerosumError as error:
            return JSONResponse(error_object(str(error)), status_code=400)

    return endpoint


async def play(websocket: WebSocket) -> None:
    """One game per connection. Messages are answered in order; what the
    session emits (also from its searches) is sent by one writer task, so
    objects arrive in the order they were made."""
    await websocket.accept()
    outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    session = Session(outbox.put_nowait, _language(websocket))

    async def writer() -> None:
        while (obj := await outbox.get()) is not None:
            await websocket.send_text(json.dumps(obj, ensure_ascii=False))

    sending = asyncio.create_task(writer())
    try:
        await session.start()
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:  # a binary frame
                outbox.put_nowait(error_object(binary_frame()))
                continue
            try:
                await session.handle(text)
            except Exception:  # a bug must not end this or other clients' games
                log.exception("message %r failed", text[:200])
                outbox.put_nowait(error_object(internal_error()))
    except WebSocketDisconnect:
        pass
    finally:
        await session.close()
        outbox.put_nowait(None)
        sending.cancel()
        await asyncio.gather(sending, return_exceptions=True)


def binary_frame() -> str:
    return i18n._("malformed message: expected a text frame holding a JSON object")


def create_app() -> Starlette:
    """The ASGI application."""
    return Starlette(
        routes=[
            Route("/", index),
            Route("/api/games", api_games),
            Route("/api/strings", api_strings),
            Route("/api/health", api_health),
            Route("/api/trace", _tree_view(trace_response)),
            Route("/api/position", _tree_view(position_response)),
            WebSocketRoute("/ws", play),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )


def serve(host: str, port: int, open_browser: bool) -> int:
    """Run the app under uvicorn until interrupted (``zerosum serve``)."""
    import socket

    import uvicorn

    # Bind first, so a port in use is one clear line rather than a log trace.
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        # Listen now: a browser opened at the printed address before uvicorn
        # is up waits in the backlog instead of being refused.
        sock.listen(128)
    except OSError as error:
        raise ZerosumError(
            i18n._("cannot listen on {host}:{port} ({reason}); try another --port").format(
                host=host, port=port, reason=error.strerror or error
            )
        ) from None
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{sock.getsockname()[1]}/"
    print(
        i18n._("zerosum is serving at {address} (open it in a browser; Ctrl+C stops)").format(
            address=address
        ),
        flush=True,
    )
    if open_browser:
        import webbrowser

        webbrowser.open(address)
    config = uvicorn.Config(create_app(), log_level="warning", ws="auto")
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    print(i18n._("stopped"), file=sys.stderr)
    return 0
