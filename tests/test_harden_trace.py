"""Issue 22.6: ``/api/trace`` and ``/api/position`` answer bad numbers with
400 (never 500) and refuse another site's page (the WebSocket's Origin rule);
a seeded fuzz of their query strings gives no 500."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from zerosum.web.app import create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # raise_server_exceptions off: a traceback must show up as a 500 here.
    with TestClient(create_app(hosts=("testserver",)), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("value", ["²", "③", "--1", "-", "+1", "1" * 5000, "٣", "1_0", " "])
@pytest.mark.parametrize("key", ["depth", "top"])
def test_odd_numbers_are_a_400(client: TestClient, key: str, value: str) -> None:
    answer = client.get("/api/trace", params={"game": "tictactoe", key: value})
    assert answer.status_code == 400, answer.text
    assert key in answer.json()["message"]


def test_another_sites_page_cannot_run_a_trace(client: TestClient) -> None:
    for path in ("/api/trace", "/api/position"):
        for origin in ("https://evil.example.com", "http://testserver.evil.com", "null"):
            answer = client.get(path, params={"game": "tictactoe"}, headers={"origin": origin})
            assert answer.status_code == 403, (path, origin)
            assert "origin" in answer.json()["message"].lower()
        # The page's own origin, and a client that is not a web page, may.
        for headers in ({"origin": "http://testserver"}, {}):
            answer = client.get(path, params={"game": "tictactoe", "depth": "1"}, headers=headers)
            assert answer.status_code == 200, (path, headers)


def test_allowed_origin_may_run_a_trace() -> None:
    app = create_app(hosts=("testserver",), origins=("https://friend.example",))
    with TestClient(app) as c:
        answer = c.get(
            "/api/position", params={"game": "tictactoe"},
            headers={"origin": "https://friend.example"},
        )
        assert answer.status_code == 200


PIECES = ["", "0", "1", "2", "-1", "²", "③", "--1", "9" * 300, "1e3", "0x1", "١", " 2 ",
          "\x00", "\ud7ff", "best", "every", "minimax", "alphabeta", "nope", "tictactoe",
          "connect4", "nim(3,4)", "0 4 1", "zz", "%", "\n", "true"]
KEYS = ["game", "position", "moves", "algorithm", "depth", "evaluate_terminals", "root", "top"]


def test_fuzzed_queries_never_give_a_500(client: TestClient) -> None:
    rng = random.Random(22_6)
    for _round in range(300):
        params = {"game": rng.choice(["tictactoe", "nim(3,4)", "domineering(rows=2,cols=3)"])}
        for key in rng.sample(KEYS, rng.randint(1, 4)):
            params[key] = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3)))
        if "depth" not in params:
            params["depth"] = "2"  # keep each trace small
        path = rng.choice(["/api/trace", "/api/position"])
        answer = client.get(path, params=params)
        assert answer.status_code in (200, 400), (path, params, answer.text[:200])
        assert answer.json()["type"] in ("trace", "position", "error")
