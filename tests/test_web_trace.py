"""The search-tree view's endpoints: ``/api/trace`` and ``/api/position``."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from zerosum.web.app import create_app

DOMINEERING = "domineering(rows=3,cols=3)"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # The test client names its host "testserver" (the app accepts only its own names).
    with TestClient(create_app(hosts=("testserver",))) as c:
        yield c


def test_trace_of_the_tutorials_example(client: TestClient) -> None:
    answer = client.get("/api/trace", params={"game": DOMINEERING, "depth": "2"})
    assert answer.status_code == 200
    obj = answer.json()
    assert obj["type"] == "trace"
    assert (obj["best_move"], obj["value"], obj["leaves"], obj["nodes"]) == ("b1", 3, 10, 17)
    assert len(obj["tree"]) == 17
    reply = client.get(
        "/api/trace",
        params={"game": DOMINEERING, "moves": "b1", "depth": "2", "evaluate_terminals": "1"},
    ).json()
    assert (reply["best_move"], reply["value"], reply["leaves"]) == ("a3", -2, 5)


def test_trace_from_a_pasted_position_and_moves(client: TestClient) -> None:
    obj = client.get(
        "/api/trace", params={"game": "tictactoe", "moves": "0 4 1", "algorithm": "minimax"}
    ).json()
    assert obj["best_move"] == "2" and obj["value"] == 0 and obj["to_move"] == "O"
    top = client.get(
        "/api/trace", params={"game": "tictactoe", "algorithm": "minimax", "top": "2"}
    ).json()
    assert top["nodes"] == 549_946 and len(top["tree"]) == 82


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"game": "tictactoe", "algorithm": "minimax"}, "549,946"),
        ({"game": "tictactoe", "algorithm": "solver"}, "cannot trace 'solver'"),
        ({"game": "tictactoe", "depth": "0"}, "depth must be 1 or more"),
        ({"game": "tictactoe", "depth": "two"}, "depth must be a whole number"),
        ({"game": "tictactoe", "top": "9"}, "top must be a whole number from 0 to 4"),
        ({"game": "tictactoe", "moves": "0 0"}, "0"),
        ({"game": "chess"}, "chess"),
        ({}, "game is missing"),
        ({"game": "tictactoe", "root": "all"}, "root must be best or every"),
    ],
)
def test_bad_requests_are_400_with_one_line(
    client: TestClient, params: dict[str, str], message: str
) -> None:
    answer = client.get("/api/trace", params=params)
    assert answer.status_code == 400
    obj = answer.json()
    assert obj["type"] == "error" and message in obj["message"] and "\n" not in obj["message"]


def test_errors_come_in_the_clients_language(client: TestClient) -> None:
    for params in ({"depth": "0"}, {"moves": "0 3 1 4 2"}, {"algorithm": "minimax"}):
        answer = client.get("/api/trace", params={"game": "tictactoe", "lang": "zh", **params})
        assert answer.status_code == 400
        message = answer.json()["message"]
        assert not re.search("[A-Za-z]{4,}", message), message


def test_position_of_a_node_colours_the_tiles_along_its_path(client: TestClient) -> None:
    obj = client.get("/api/position", params={"game": DOMINEERING, "moves": "b1 a3"}).json()
    assert obj["type"] == "position" and obj["to_move"] == 0
    board = obj["board"]
    assert (board["rows"], board["cols"]) == (3, 3)
    cells = board["cells"]
    assert cells[0 * 3 + 1] == cells[1 * 3 + 1] == 0  # Vertical's tile on b1-b2
    assert cells[2 * 3 + 0] == cells[2 * 3 + 1] == 1  # Horizontal's on a3-b3
    nim = client.get("/api/position", params={"game": "nim", "moves": "1:1"}).json()
    assert nim["text"]


def test_trace_of_the_engine(client: TestClient) -> None:
    obj = client.get(
        "/api/trace",
        params={"game": "tictactoe", "moves": "0 4 8", "algorithm": "engine", "depth": "2"},
    ).json()
    assert obj["type"] == "trace" and obj["algorithm"] == "engine"
    # the root is searched once per iteration and listed once
    assert (obj["best_move"], obj["value"], obj["nodes"], len(obj["tree"])) == ("1", -50, 25, 24)
    assert obj["tree"][0]["visits"] == 2
    refused = client.get(
        "/api/trace",
        params={"game": "tictactoe", "algorithm": "engine", "evaluate_terminals": "1"},
    )
    assert refused.status_code == 400 and "evaluate_terminals" in refused.json()["message"]
