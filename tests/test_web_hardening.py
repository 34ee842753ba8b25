"""The web server against a hostile client (issue 13, items 8-11): every
malformed message gets a clear ``error`` object and leaves no traceback in
the log; only the server's own page (its host names, its origin) can drive
it; no tab can take the search threads from the others; the number of open
games is bounded."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from zerosum.web.app import allowed_hosts, create_app, host_name, origin_allowed
from zerosum.web.session import MAX_MESSAGE, Session

Message = dict[str, Any]


@pytest.fixture()
def client() -> Iterator[TestClient]:
    # The test client's requests name the host "testserver".
    with TestClient(create_app(hosts=("testserver",), max_sessions=3)) as c:
        yield c


def first_error(ws: Any, limit: int = 50) -> Message:
    for _ in range(limit):
        message: Message = ws.receive_json()
        if message["type"] == "error":
            return message
    raise AssertionError("no error object")


# -- item 8: malformed messages ------------------------------------------------------
MALFORMED = [
    ("[" * 20000 + "]" * 20000, "nested too deeply"),
    ('{"type": "new", "x": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply"),
    (json.dumps({"type": "players", "players": [{"kind": "ai", "level": []}, {}]}), "level"),
    (json.dumps({"type": "players", "players": [{"kind": "ai", "level": {}}, {}]}), "level"),
    (json.dumps({"type": "players", "players": [{"kind": ["ai"]}, {}]}), "kind"),
    (json.dumps({"type": "new", "game": "connect4", "moves": "((((", "players": []}), "players"),
    (json.dumps({"type": "new", "game": "connect4", "moves": "(((("}), "bracket"),
    (json.dumps({"type": "new", "game": "connect4", "moves": "²"}), "cannot read move"),
    (json.dumps({"type": "new", "game": "connect4(width=٧)"}), "whole number"),
    (json.dumps({"type": "new", "game": ["connect4"]}), "game must be a string"),
    (json.dumps({"type": "move", "move": 4}), "move must be a string"),
    (json.dumps({"type": "move", "move": "x" * 50_000}), "characters long"),
    (json.dumps({"type": "goto", "ply": [1] * 10_000}), "ply must be"),
    (json.dumps({"type": "settings", "delay": "x" * 50_000}), "Delay must be"),
    (json.dumps({"type": "x" * 50_000}), "unknown message type"),
    (json.dumps({"type": "stop"}), "nothing to stop"),
    ("x" * (MAX_MESSAGE + 1), "message too long"),
]


@pytest.mark.parametrize(("text", "needle"), MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_message_gets_a_short_clear_error_and_no_traceback(
    text: str, needle: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> list[Message]:
        sent: list[Message] = []
        session = Session(sent.append)
        await session.start()
        await session.handle(
            json.dumps({"type": "new", "players": [{"kind": "human"}, {"kind": "human"}]})
        )
        del sent[:]
        with caplog.at_level(logging.DEBUG):
            await session.handle(text)
        await session.close()
        return sent

    sent = asyncio.run(scenario())
    errors = [m for m in sent if m["type"] == "error"]
    assert len(errors) == 1, sent
    assert needle in errors[0]["message"]
    assert len(errors[0]["message"]) <= 200, errors[0]["message"]
    assert "internal error" not in errors[0]["message"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_a_deeply_nested_message_over_the_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_text("[" * 20000 + "]" * 20000)
        assert "nested too deeply" in first_error(ws)["message"]
        ws.send_text(json.dumps({"type": "stop"}))
        assert "nothing to stop" in first_error(ws)["message"]


# -- item 10: only the server's own page -------------------------------------------------
def test_host_names_a_request_may_use() -> None:
    assert host_name("[::1]:8000") == "::1" and host_name("Localhost:80") == "localhost"
    assert allowed_hosts("127.0.0.1", ()) == ("localhost", "127.0.0.1", "::1")
    assert "192.168.1.5" in allowed_hosts("192.168.1.5", ())
    assert allowed_hosts("0.0.0.0", ("box.lan",)) == (
        "localhost",
        "127.0.0.1",
        "::1",
        "0.0.0.0",
        "box.lan",
    )


def test_a_foreign_host_name_is_refused() -> None:
    # DNS rebinding: attacker.example resolves to 127.0.0.1, but the request
    # still names attacker.example.
    with TestClient(create_app(), base_url="http://attacker.example:8000") as evil:
        refused_page = evil.get("/api/health")
        assert refused_page.status_code == 400 and "--allow-host" in refused_page.text
        assert evil.get("/").status_code == 400
        with pytest.raises(WebSocketDisconnect) as refused, evil.websocket_connect("/ws"):
            pass
        assert refused.value.code == 1008
    with TestClient(create_app(), base_url="http://127.0.0.1:8000") as local:
        assert local.get("/api/health").status_code == 200
    with TestClient(create_app(), base_url="http://localhost:8000") as local:
        assert local.get("/api/health").status_code == 200


def test_a_page_of_another_origin_cannot_open_a_game(client: TestClient) -> None:
    for origin in ("https://evil.example.com", "http://testserver.evil.com", "null"):
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
            "/ws", headers={"origin": origin}
        ):
            pass
        assert refused.value.code == 1008, origin
    # The page's own origin (and a client that is not a web page) may.
    for headers in ({"origin": "http://testserver"}, {}):
        with client.websocket_connect("/ws", headers=headers) as ws:
            assert ws.receive_json()["type"] == "state"


def test_origins_allowed_explicitly() -> None:
    assert origin_allowed(None, "localhost:8000", ())
    assert origin_allowed("http://localhost:8000", "localhost:8000", ())
    assert not origin_allowed("http://localhost:3000", "localhost:8000", ())
    assert not origin_allowed("https://evil.example.com", "localhost:8000", ())
    assert origin_allowed("https://app.example.com", "box:8000", ("https://app.example.com",))
    assert origin_allowed("https://anything", "box:8000", ("*",))


# -- item 9: bounded sessions and threads ------------------------------------------------
def test_the_number_of_open_games_is_bounded(client: TestClient) -> None:
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        with client.websocket_connect("/ws") as c:
            for ws in (a, b, c):
                assert ws.receive_json()["type"] == "state"
            with client.websocket_connect("/ws") as refused:
                error = refused.receive_json()
                assert error["type"] == "error" and "too many games" in error["message"]
                with pytest.raises(WebSocketDisconnect):
                    refused.receive_json()
        # One closed: a new tab gets its game.
        with client.websocket_connect("/ws") as d:
            assert d.receive_json()["type"] == "state"


def test_endless_searches_in_other_tabs_do_not_starve_a_new_one() -> None:
    """More tabs than the default thread pool has threads each run a perfect
    AI on Connect Four (hours of search); a new tab's easy move still comes
    at once, because each session searches in its own thread."""

    async def scenario() -> float:
        perfect = [{"kind": "ai", "level": "perfect"}, {"kind": "human"}]
        sessions: list[Session] = []
        try:
            for _ in range(8):
                busy = Session(lambda message: None)
                sessions.append(busy)
                await busy.handle(
                    json.dumps({"type": "new", "game": "connect4", "players": perfect})
                )
            await asyncio.sleep(0.3)
            assert all(s.searching == "ai" for s in sessions)
            sent: list[Message] = []
            tab = Session(sent.append)
            sessions.append(tab)
            started = time.monotonic()
            await tab.handle(
                json.dumps(
                    {
                        "type": "new",
                        "game": "tictactoe",
                        "moves": "0",
                        "players": [{"kind": "human"}, {"kind": "ai", "level": "easy"}],
                    }
                )
            )
            while not any(m["type"] == "state" and m["ply"] == 2 for m in sent):
                await asyncio.sleep(0.01)
                if time.monotonic() - started > 10:
                    break
            return time.monotonic() - started
        finally:
            for session in sessions:  # stops every search, so the loop can end
                await session.close()

    # Starved, it would wait for an endless search to end; it waits
    # nowhere near that (the bound allows for a loaded machine).
    assert asyncio.run(scenario()) < 10


# -- items 10 and 11 on the real server (uvicorn) -----------------------------------------
@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """``host:port`` of a ``zerosum serve`` on a free port."""
    import os
    import re
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "--lang", "en", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "LANGUAGE": "en"},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"http://(\S+)/", line)
    try:
        assert match, line
        yield match.group(1)
    finally:
        process.terminate()
        _out, err = process.communicate(timeout=10)
        assert "Traceback" not in err, err


def test_the_real_server_checks_host_and_origin(served: str) -> None:
    import http.client

    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    from websockets.typing import Origin

    host, port = served.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.request("GET", "/api/health", headers={"Host": f"attacker.example:{port}"})
    assert conn.getresponse().status == 400
    conn.close()
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://{served}/ws", origin=Origin("https://evil.example.com"), open_timeout=10)
    assert refused.value.response.status_code == 403
    with connect(f"ws://{served}/ws", origin=Origin(f"http://{served}"), open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"


def test_the_real_server_bounds_frames(served: str) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from zerosum.web.app import MAX_FRAME

    with connect(f"ws://{served}/ws", open_timeout=10, max_size=None) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        # Longer than a message may be, within a frame: an error object.
        ws.send("x" * (MAX_MESSAGE + 10))
        reply = json.loads(ws.recv(timeout=10))
        assert reply["type"] == "error" and "message too long" in reply["message"]
        # Far beyond: closed at once (1009), never buffered whole.
        ws.send("x" * (17 * 2**20))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        # The close frame says why (the only word a frame this size can get).
        assert "exceeds limit" in closed.value.rcvd.reason
    assert MAX_FRAME < 2**20


def test_a_search_too_deep_for_python_is_an_error_object(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Item 3 in the browser: a RecursionError in a search (a game longer
    than Python's recursion) is one clear error, not "internal error"."""
    from zerosum.search.engine import Engine

    def too_deep(*args: Any, **kwargs: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(Engine, "analyze", too_deep)

    async def scenario() -> list[Message]:
        sent: list[Message] = []
        session = Session(sent.append)
        await session.start()
        await session.handle(json.dumps({"type": "new", "players": [{"kind": "human"}] * 2}))
        await session.handle(json.dumps({"type": "hint"}))
        for _ in range(500):
            if any(m["type"] == "error" for m in sent):
                break
            await asyncio.sleep(0.01)
        await session.close()
        return sent

    with caplog.at_level(logging.DEBUG):
        sent = asyncio.run(scenario())
    errors = [m["message"] for m in sent if m["type"] == "error"]
    assert errors and "too long for the Python search" in errors[0]
    assert not [r for r in caplog.records if r.exc_info]
