"""The web app behind ``zerosum serve``: a Starlette application.

* ``GET /`` -- the page (``static/index.html``), ``/static/...`` its files;
* ``GET /api/games?lang=`` -- every registered game and its parameters;
* ``GET /api/strings?lang=`` -- the page's texts in that language, from the
  same gettext catalog as the terminal;
* ``GET /api/health`` -- ``{"status": "ok"}``;
* ``GET /api/trace``, ``GET /api/position`` -- the search-tree view
  (:mod:`.tracing`); a request from another origin's page is refused (403);
* ``WS /ws?lang=`` -- one :class:`~zerosum.web.session.Session` per
  connection (``docs/messages.md``).

Only the server's own page can drive it: every request must name an allowed
host (``Host``: by default ``localhost``, ``127.0.0.1``, ``::1`` and the
address listened on; a DNS-rebinding page names its own domain and gets 400),
and a WebSocket handshake that comes from a web page (``Origin``) must come
from the very address it connects to, or from an origin allowed explicitly.
At most :data:`MAX_SESSIONS` games are open at once; each searches in its own
thread, so no tab can take every search thread from the others.

Front-end only: the page renders what the session sends; all rules and
search stay in the library.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import i18n
from ..game import ZerosumError
from ..registry import entries, load
from ..report import error_object
from .compiling import NativeWarmer
from .messages import MAX_MESSAGE, internal_error
from .session import Session
from .strings import PAGE_STRINGS
from .tracing import position_response, trace_response

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger(__name__)

#: Host names a request may use by default: this computer only.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: Games (WebSocket connections) open at once; one more is refused.
MAX_SESSIONS = 32
#: The largest WebSocket frame the server reads (bytes): a message up to
#: MAX_MESSAGE characters always fits (4 bytes a character at most); a larger
#: one that fits gets an ``error`` object, a frame beyond this closes the
#: connection (1009) without being buffered.
MAX_FRAME = 4 * MAX_MESSAGE + 1024
#: Seconds after start before ``zerosum serve`` compiles every game ahead
#: (so the first page's game, asked for meanwhile, comes first).
AHEAD_DELAY = 3.0


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
                    "label": catalog.gettext(p.label) if p.label else p.name,
                    "help": catalog.gettext(p.help) if p.help else "",
                    "choices": list(p.choices),
                    # A choice that names a player ("vertical") as that
                    # player's name, in the language asked for.
                    "choice_labels": [catalog.gettext(c.capitalize()) for c in p.choices],
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


def origin_allowed(origin: str | None, host: str, allowed: Sequence[str]) -> bool:
    """Whether a WebSocket handshake with ``Origin: origin`` to ``Host:
    host`` may open: no Origin (not a web page: a script or a test), the
    page's own origin (same host and port), or one listed in ``allowed``
    (``*`` allows every origin)."""
    if origin is None:
        return True
    if "*" in allowed or origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def _tree_view(answer: Callable[[Mapping[str, str]], dict[str, Any]]) -> Callable[
    [Request], Coroutine[Any, Any, Response]
]:
    """A read-only endpoint of the search-tree view: the answer is computed
    in a worker thread (a trace takes up to a few seconds) in the request's
    language; bad input is a 400 with an ``error`` object."""

    async def endpoint(request: Request) -> Response:
        i18n.activate(_language(request))
        origin = request.headers.get("origin")
        if not origin_allowed(origin, request.headers.get("host", ""), request.app.state.origins):
            # Another site's page must not make a visitor's browser run
            # traces (CPU for seconds each): the WebSocket's Origin rule.
            return JSONResponse(error_object(foreign_origin(origin or "")), status_code=403)
        query = dict(request.query_params)
        try:
            return JSONResponse(await asyncio.to_thread(answer, query))
        except ZerosumError as error:
            return JSONResponse(error_object(str(error)), status_code=400)

    return endpoint


def foreign_origin(origin: str) -> str:
    return i18n._(
        "requests from the page of another origin ({origin}) are refused;"
        " expected this server's own page (zerosum serve --allow-origin adds one)"
    ).format(origin=origin[:80])


async def play(websocket: WebSocket) -> None:
    """One game per connection. Messages are answered in order; what the
    session emits (also from its searches) is sent by one writer task, so
    objects arrive in the order they were made."""
    state = websocket.app.state
    if not origin_allowed(
        websocket.headers.get("origin"), websocket.headers.get("host", ""), state.origins
    ):
        # Another site's page (a browser names it in Origin): refuse the
        # handshake (HTTP 403), so it can neither drive nor read a game.
        await websocket.close(code=1008)
        return
    await websocket.accept()
    i18n.activate(_language(websocket))
    if state.sessions >= state.max_sessions:
        await websocket.send_text(json.dumps(error_object(too_many_sessions(state.max_sessions))))
        await websocket.close(code=1013)  # try again later
        return
    state.sessions += 1
    try:
        await _serve_session(websocket)
    finally:
        state.sessions -= 1


def too_many_sessions(most: int) -> str:
    return i18n._(
        "too many games are open ({most}); close another tab and reload this page"
    ).format(most=most)


async def _serve_session(websocket: WebSocket) -> None:
    outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    session = Session(outbox.put_nowait, _language(websocket), websocket.app.state.warmer)

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


def create_app(
    hosts: Sequence[str] = LOCAL_HOSTS,
    origins: Sequence[str] = (),
    max_sessions: int = MAX_SESSIONS,
    warmer: NativeWarmer | None = None,
    compile_ahead: Sequence[str] = (),
) -> Starlette:
    """The ASGI application. ``hosts``: the host names a request may use
    (``*`` any; a DNS-rebinding page is refused with 400); ``origins``:
    origins besides the page's own whose pages may open a game (``*`` any);
    ``max_sessions``: games open at once; ``warmer``: compiles games'
    native code in a child process while their games search in Python
    (:mod:`.compiling`; ``zerosum serve`` gives one; None: a search compiles
    what it needs itself, as in a library use); ``compile_ahead``: the game
    specs the warmer compiles at start, in the background."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if warmer is None:
            yield
            return
        # A moment later, so the first page's game is compiled first.
        warmer.start(compile_ahead, delay=AHEAD_DELAY)
        try:
            yield
        finally:
            warmer.close()

    app = Starlette(
        lifespan=lifespan,
        middleware=[Middleware(HostCheck, hosts=hosts)],
        routes=[
            Route("/", index),
            Route("/api/games", api_games),
            Route("/api/strings", api_strings),
            Route("/api/health", api_health),
            Route("/api/trace", _tree_view(trace_response)),
            Route("/api/position", _tree_view(position_response)),
            WebSocketRoute("/ws", play),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
    )
    app.state.origins = tuple(origins)
    app.state.max_sessions = max_sessions
    app.state.warmer = warmer
    app.state.sessions = 0
    return app


def host_name(header: str) -> str:
    """The host name of a ``Host`` header, without its port, lower case
    (an IPv6 address without its brackets)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class HostCheck:
    """ASGI middleware: a request (HTTP or WebSocket) whose ``Host`` is not
    one of ``hosts`` (``*``: any) is refused, HTTP with 400, a WebSocket
    handshake with 403, before any route sees it (DNS rebinding)."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]) -> None:
        self.app = app
        self.any = "*" in hosts
        self.hosts = {host.strip("[]").lower() for host in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.any or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        if host_name(header) in self.hosts:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await receive()  # websocket.connect; closing now refuses the handshake
            await send({"type": "websocket.close", "code": 1008})
        else:
            await PlainTextResponse(
                i18n._(
                    "unknown host {host!r}; this server answers to {hosts}"
                    " (zerosum serve --allow-host NAME adds a name)"
                ).format(host=header[:60], hosts=", ".join(sorted(self.hosts))),
                status_code=400,
            )(scope, receive, send)


def allowed_hosts(listen: str, extra: Sequence[str]) -> tuple[str, ...]:
    """The host names ``zerosum serve --host listen`` accepts: this
    computer's, the address listened on (0.0.0.0 too: it is the address the
    server prints, and no other site's page can name it), and ``extra``
    (``--allow-host``)."""
    names = list(LOCAL_HOSTS)
    if listen:
        names.append(listen)
    names.extend(extra)
    return tuple(dict.fromkeys(names))


def serve(
    host: str,
    port: int,
    open_browser: bool,
    allow_hosts: Sequence[str] = (),
    allow_origins: Sequence[str] = (),
) -> int:
    """Run the app under uvicorn until interrupted (``zerosum serve``);
    ``allow_hosts`` and ``allow_origins`` add to the names and origins
    accepted (see :func:`create_app`)."""
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
    # Every built-in game's native code, compiled (or loaded from the
    # cache) in the background while the first pages load.
    # The page's first games (tic-tac-toe, Connect Four) first.
    first = {"tictactoe": 0, "connect4": 1}
    names = sorted((e.name for e in entries()), key=lambda name: first.get(name, 2))
    ahead = list(dict.fromkeys(load(name).spec() for name in names))
    app = create_app(
        allowed_hosts(host, allow_hosts), allow_origins, warmer=NativeWarmer(), compile_ahead=ahead
    )
    config = uvicorn.Config(app, log_level="warning", ws="auto", ws_max_size=MAX_FRAME)
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    print(i18n._("stopped"), file=sys.stderr)
    return 0
