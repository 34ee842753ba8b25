"""Monte Carlo tree search in the browser's session: a player kind whose
thinking streams visits and win rates."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from zerosum.web.app import create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # The test client names its host "testserver" (the app accepts only its own names).
    with TestClient(create_app(hosts=("testserver",))) as c:
        yield c


def settled_state(ws: Any, seen: list[dict[str, Any]]) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        seen.append(message)
        if message["type"] == "state" and message["searching"] is None:
            return message


def test_mcts_player_moves_and_its_progress_has_visits_and_win_rates(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        players = [{"kind": "human"}, {"kind": "mcts", "time": 0.3}]
        ws.send_json({"type": "new", "game": "connect4", "players": players, "seed": 4})
        seen: list[dict[str, Any]] = []
        state = settled_state(ws, seen)
        assert state["players"] == players
        ws.send_json({"type": "move", "move": "4"})
        state = settled_state(ws, seen)
        assert state["ply"] == 2  # MCTS answered
        progress = [m for m in seen if m["type"] == "progress"]
        assert progress, "no progress while MCTS thought"
        entries = progress[-1]["moves"]
        assert entries and all("visits" in e and 0 <= e["win_rate"] <= 1 for e in entries)
        result = next(m for m in seen if m["type"] == "result")
        assert result["player"] == 1 and result["best_move"] == state["history"][1]["move"]


def test_mcts_player_with_a_bad_time_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        players = [{"kind": "mcts", "time": -1}, {"kind": "human"}]
        ws.send_json({"type": "players", "players": players})
        message = ws.receive_json()
        assert message["type"] == "error" and "time" in message["message"]


def test_a_match_record_loads_in_the_browser(client: TestClient) -> None:
    """What `zerosum replay` prints as the record (the opening, then the
    moves) is what the page's "Load record" sends: the whole game."""
    from zerosum.play.runner import MatchSetup, play_games

    setup = MatchSetup(game="connect4", players=("random", "random"), games=1, openings=3)
    record = next(iter(play_games(setup)))
    moves = " ".join([*record["opening"], *record["moves"]])
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        players = [{"kind": "human"}, {"kind": "human"}]
        ws.send_json({"type": "new", "game": record["game"], "players": players, "moves": moves})
        state = settled_state(ws, [])
        assert state["over"] and state["record"] == moves
        assert state["winner"] == {1: 0, -1: 1, 0: None}[record["outcome"]]
