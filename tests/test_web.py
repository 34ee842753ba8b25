"""The web app over HTTP and WebSocket, with Starlette's test client, and
the session's search handling driven directly on an event loop.

Checked against the reference solver's verdicts and the game's own rules
(independent truths), and for consistency with the command line's ``--json``
objects (same keys, same values; both come from ``zerosum.report``, so that
test guards the wiring, not the values).
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from support import run_cli
from web_support import Message, open_session, settled_state, wait_for

import zerosum
from zerosum import i18n
from zerosum.registry import entries
from zerosum.web.app import create_app
from zerosum.web.session import Session
from zerosum.web.strings import PAGE_STRINGS


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # The test client names its host "testserver".
    with TestClient(create_app(hosts=("testserver",))) as c:
        yield c




def receive_until(ws: Any, kind: str, limit: int = 10_000) -> tuple[Message, list[Message]]:
    """Messages up to and including the first of type ``kind``."""
    seen: list[dict[str, Any]] = []
    for _ in range(limit):
        message = ws.receive_json()
        seen.append(message)
        if message["type"] == kind:
            return message, seen
    raise AssertionError(f"no {kind} message in {limit}")


# -- HTTP ---------------------------------------------------------------------------
def test_health_page_and_static_files(client: TestClient) -> None:
    assert client.get("/api/health").json() == {"status": "ok"}
    page = client.get("/")
    assert page.status_code == 200 and 'id="board"' in page.text
    scripts = [part.split('"')[0] for part in page.text.split('src="')[1:]]
    assert scripts, "the page loads its script"
    for src in scripts:
        response = client.get(src)
        assert response.status_code == 200, src
        assert "javascript" in response.headers["content-type"]
    assert client.get("/static/no-such-file.js").status_code == 404


def test_games_lists_every_registered_game_with_its_parameters(client: TestClient) -> None:
    listed = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(listed) == {e.name for e in entries()}
    domineering = listed["domineering"]
    assert [p["name"] for p in domineering["params"]] == ["rows", "cols", "first"]
    assert domineering["params"][2]["choices"] == ["vertical", "horizontal"]
    assert listed["connect4"]["title"] == "Connect Four"
    assert listed["gomoku"]["alias_of"] == "mnk(m=15,n=15,k=5)"
    chinese = {g["name"]: g for g in client.get("/api/games?lang=zh").json()}
    assert chinese["connect4"]["title"] != "Connect Four"
    assert any("\u4e00" <= ch <= "\u9fff" for ch in chinese["connect4"]["title"])
    help_zh = chinese["domineering"]["params"][0]["help"]
    assert help_zh != domineering["params"][0]["help"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in help_zh)


def test_page_strings_are_all_translated_into_chinese(client: TestClient) -> None:
    english = client.get("/api/strings?lang=en").json()
    chinese = client.get("/api/strings?lang=zh").json()
    assert set(english) == set(chinese) == set(PAGE_STRINGS)
    assert all(english[s] == s for s in english)
    # A text may stay the same in Chinese ("AI") but must have a catalog entry.
    catalog: dict[str, str] = getattr(i18n.translations("zh"), "_catalog", {})
    untranslated = [s for s in chinese if not catalog.get(s)]
    assert not untranslated, untranslated
    assert sum(chinese[s] != s for s in chinese) > 0.9 * len(chinese)


# -- the session over a WebSocket ---------------------------------------------------
def test_connect_shows_the_starting_position(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        state = ws.receive_json()
    assert state["type"] == "state" and state["game"] == "tictactoe"
    assert state["ply"] == 0 and state["to_move"] == 0 and not state["over"]
    assert [m["move"] for m in state["legal"]] == [str(i) for i in range(9)]
    assert state["board"]["cells"] == [None] * 9
    assert state["players"] == [{"kind": "human"}, {"kind": "ai", "level": "hard"}]


def test_a_whole_game_against_the_ai_which_never_loses(client: TestClient) -> None:
    rng = random.Random(5)
    for _game in range(3):
        with client.websocket_connect("/ws") as ws:
            ws.receive_json()
            ws.send_json({"type": "new", "game": "tictactoe"})
            state = settled_state(ws)
            while not state["over"]:
                assert state["to_move"] == 0
                ply = state["ply"]
                ws.send_json({"type": "move", "move": rng.choice(state["legal"])["move"]})
                state = settled_state(ws)
                # The AI has answered (unless the human's move ended the game).
                assert state["ply"] == ply + 2 or (state["over"] and state["ply"] == ply + 1)
            assert state["winner"] != 0, "the perfect AI lost"
            assert state["banner"] in ("O wins", "Draw")
            assert state["legal"] == []


def test_objects_match_the_command_lines_json(client: TestClient) -> None:
    """The browser receives the same objects as ``--json`` prints."""
    cli_result = json.loads(run_cli("solve", "tictactoe", "--moves", "0 4", "--json").stdout)
    cli_lines = [
        json.loads(line)
        for line in run_cli("analyze", "tictactoe", "--moves", "0 4", "--json").stdout.splitlines()
    ]
    cli_progress, cli_analysis = cli_lines[0], cli_lines[-1]
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json(
            {"type": "new", "game": "tictactoe", "moves": "0 4",
             "players": [{"kind": "human"}, {"kind": "human"}]}
        )
        settled_state(ws)
        ws.send_json({"type": "analysis", "on": True})
        analysis, seen = receive_until(ws, "analysis")
        progress = [m for m in seen if m["type"] == "progress"]
        # The AI's result: let O (the AI) answer a move.
        ws.send_json({"type": "analysis", "on": False})
        ws.send_json({"type": "players", "players": [{"kind": "human"}, {"kind": "ai"}]})
        ws.send_json({"type": "move", "move": "8"})
        result, _seen = receive_until(ws, "result")
    # The browser's copies add the search's id (the page drops other searches' lines).
    assert progress and set(progress[0]) == set(cli_progress) | {"search_id"}
    assert progress[-1]["moves"], "analysis progress carries every move's score"
    assert set(analysis) == set(cli_analysis) | {"search_id"}
    assert len({m["search_id"] for m in [*progress, analysis]}) == 1
    for key in ("game", "position", "to_move", "value", "score", "exact", "plies", "best_move"):
        assert analysis[key] == cli_analysis[key], key
    assert {(m["move"], m["value"]) for m in analysis["moves"]} == {
        (m["move"], m["value"]) for m in cli_analysis["moves"]
    }
    assert set(result) == (set(cli_result) - {"weak"}) | {"player", "search_id"}
    assert result["search_id"] != analysis["search_id"]
    assert result["player"] == 1 and result["exact"]


def test_undo_redo_and_stepping_through_the_record(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "new", "game": "tictactoe"})
        settled_state(ws)
        ws.send_json({"type": "move", "move": "4"})
        state = settled_state(ws)
        while state["ply"] < 2:  # the AI's reply
            state = settled_state(ws)
        record = state["record"]
        ws.send_json({"type": "undo"})
        state = settled_state(ws)
        assert state["ply"] == 0 and state["to_move"] == 0, "undo takes back the AI's reply too"
        # The human is to move: nothing is paused (defect 14).
        assert state["record"] == record and not state["paused"]
        ws.send_json({"type": "redo"})
        state = settled_state(ws)
        assert state["ply"] == 2 and not state["paused"]
        ws.send_json({"type": "goto", "ply": 1})
        state = settled_state(ws)
        assert state["ply"] == 1 and state["paused"] and state["to_move"] == 1
        # Paused: the AI does not overwrite the record; a human move there
        # starts a variation, the old line kept beside it.
        ws.send_json({"type": "goto", "ply": 0})
        state = settled_state(ws)
        ws.send_json({"type": "move", "move": "0"})
        state = settled_state(ws)
        while state["ply"] < 2:
            state = settled_state(ws)
        assert state["record"].split()[0] == "0" and len(state["record"].split()) == 2
        assert state["variations"] == [{"ply": 0, "moves": record.split(), "inner": []}]


@pytest.mark.parametrize(
    ("message", "needle"),
    [
        ("not json", "malformed message"),
        ("[1, 2]", "malformed message"),
        ('{"type": "dance"}', "unknown message type"),
        ('{"type": "new", "game": "chess"}', "unknown game"),
        ('{"type": "new", "game": "mnk(m=99)"}', "between"),
        ('{"type": "new", "game": "connect4", "position": "rrrr"}', "rrrr"),
        ('{"type": "new", "game": "tictactoe", "moves": "4 4"}', "4"),
        ('{"type": "move", "move": "9"}', "0-8"),
        ('{"type": "move"}', "move must be a string"),
        ('{"type": "goto", "ply": 5}', "ply must be"),
        ('{"type": "players", "players": [{"kind": "wizard"}, {"kind": "human"}]}', "wizard"),
        ('{"type": "players", "players": [{"kind": "ai", "level": "god"}, {"kind": "human"}]}',
         "god"),
        ('{"type": "players", "players": [{"kind": "ai", "time": 0}, {"kind": "human"}]}',
         "Player time must be a number of seconds from 0.1"),
        ('{"type": "settings", "delay": -1}', "Delay must be a number of seconds from 0 to 10"),
        ('{"type": "analysis", "on": "yes"}', "true or false"),
        ('{"type": "lang", "lang": "fr"}', "fr"),
        ('{"type": "redo"}', "nothing to redo"),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(
    client: TestClient, message: str, needle: str
) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "new", "game": "tictactoe", "moves": "4"})
        before = settled_state(ws)
        ws.send_text(message)
        error = ws.receive_json()
        assert error["type"] == "error" and needle in error["message"], error
        assert "\n" not in error["message"] and "Traceback" not in error["message"]
        # Still serving, and the game is as it was.
        ws.send_json({"type": "goto", "ply": before["ply"]})
        after = settled_state(ws)
        assert (after["game"], after["record"], after["ply"]) == (
            before["game"], before["record"], before["ply"]
        )


def test_errors_come_in_the_clients_language(client: TestClient) -> None:
    with client.websocket_connect("/ws?lang=zh") as ws:
        ws.receive_json()
        ws.send_json({"type": "new", "game": "chess"})
        error = ws.receive_json()
        assert any("\u4e00" <= ch <= "\u9fff" for ch in error["message"]), error
        ws.send_json({"type": "lang", "lang": "en"})
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "new", "game": "chess"})
        assert "unknown game" in ws.receive_json()["message"]


def test_binary_frames_and_abrupt_closes_do_not_stop_the_server(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_bytes(b"\x00\x01")
        assert "text frame" in ws.receive_json()["message"]
        ws.send_json({"type": "move", "move": "4"})
        assert settled_state(ws)["ply"] == 2
        ws.close()
    with client.websocket_connect("/ws") as ws:
        assert ws.receive_json()["type"] == "state"


def test_two_tabs_play_independent_games(client: TestClient) -> None:
    with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
        one.receive_json()
        two.receive_json()
        one.send_json({"type": "new", "game": "connect4",
                       "players": [{"kind": "human"}, {"kind": "human"}]})
        two.send_json({"type": "new", "game": "nim(heaps=1-2)",
                       "players": [{"kind": "human"}, {"kind": "human"}]})
        settled_state(one)
        settled_state(two)
        one.send_json({"type": "move", "move": "4"})
        two.send_json({"type": "move", "move": "2:2"})
        a, b = settled_state(one), settled_state(two)
    assert (a["game"], a["record"]) == ("connect4(width=7,height=6)", "4")
    assert (b["game"], b["record"]) == ("nim(heaps=1-2)", "2:2")


def test_domineering_tiles_follow_the_player_and_the_record(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "new", "game": "domineering(rows=4,cols=4,first=horizontal)",
                      "players": [{"kind": "human"}, {"kind": "human"}]})
        state = settled_state(ws)
        board = state["board"]
        assert board["pieces"] == ["horizontal", "vertical"]
        assert state["player_names"][0] == "Horizontal"
        # Horizontal's tiles lie across: both cells in one row.
        assert all(m["cells"][0][0] == m["cells"][1][0] for m in state["legal"])
        ws.send_json({"type": "move", "move": "a1"})
        state = settled_state(ws)
        assert all(m["cells"][0][1] == m["cells"][1][1] for m in state["legal"])
        cells = state["board"]["cells"]
        assert cells[0] == cells[1] == 0 and cells.count(None) == 14
        assert state["history"] == [{"move": "a1", "player": 0, "cells": [[0, 0], [0, 1]]}]


def test_ai_against_ai_plays_to_the_end_with_a_delay(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "settings", "delay": 0.01})
        ws.receive_json()
        ws.send_json({"type": "new", "game": "nim(heaps=2-3)",
                      "players": [{"kind": "ai", "level": "perfect"}, {"kind": "random"}]})
        state = settled_state(ws)
        while not state["over"]:
            state = settled_state(ws)
    # 2-3 has a non-zero nim-sum: the perfect first player wins.
    assert state["winner"] == 0 and state["delay"] == 0.01


def test_new_game_from_a_pasted_position_and_record(client: TestClient) -> None:
    game = zerosum.load("connect4")
    position = game.format_position(game.play(["4", "4", "3"]))
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "new", "game": "connect4", "position": position, "moves": "5",
                      "players": [{"kind": "human"}, {"kind": "human"}]})
        state = settled_state(ws)
    assert state["start"] == position and state["record"] == "5" and state["ply"] == 1
    assert state["position"] == game.format_position(game.play(["4", "4", "3", "5"]))


# -- searches: cancelled, stopped, never blocking -------------------------------------
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _search_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith("asyncio"))


def test_closing_the_connection_stops_a_search_that_would_never_end() -> None:
    async def scenario() -> None:
        # The perfect AI on Connect Four from the start would run for hours.
        session, sent = await open_session(
            game="connect4", players=[{"kind": "ai", "level": "perfect"}, {"kind": "human"}]
        )
        await wait_for(sent, lambda m: m["type"] == "progress")
        # A hang guard, not a verdict on speed: the search would run for hours.
        await asyncio.wait_for(session.close(), timeout=300)
        assert session.runner.worker is None and session.searching is None

    asyncio.run(scenario())


def test_a_new_game_cancels_the_search_and_drops_its_lines() -> None:
    async def scenario() -> None:
        session, sent = await open_session(game="connect4", players=HUMANS)
        await session.handle(json.dumps({"type": "settings", "analysis_time": 600}))
        await session.handle(json.dumps({"type": "analysis", "on": True}))
        await wait_for(sent, lambda m: m["type"] == "progress")
        await session.handle(json.dumps({"type": "new", "game": "tictactoe", "players": HUMANS}))
        mark = len(sent)
        # Analysis restarts on the new game and solves it; nothing of Connect
        # Four arrives after the new game.
        done = await wait_for(sent, lambda m: m["type"] == "analysis")
        assert done["game"] == "tictactoe" and done["value"] == 0
        later = [m for m in sent[mark:] if m["type"] in ("progress", "analysis")]
        assert all(len(m.get("pv") or []) <= 9 for m in later)
        assert all(m.get("game", "tictactoe") == "tictactoe" for m in later)
        # Every line names its position: tic-tac-toe's start, none of Connect Four's.
        start = zerosum.load("tictactoe").format_position(zerosum.load("tictactoe").initial_state())
        assert later and all(m["position"] == start for m in later)
        await session.close()

    asyncio.run(scenario())


def test_stop_makes_a_thinking_ai_move_at_once_and_the_loop_stays_responsive() -> None:
    async def scenario() -> None:
        session, sent = await open_session(
            game="connect4", players=[{"kind": "ai", "time": 600}, {"kind": "human"}]
        )
        await wait_for(sent, lambda m: m["type"] == "progress")
        # Messages are still handled while the engine searches.
        mark = len(sent)
        await session.handle(json.dumps({"type": "settings", "delay": 1}))
        reply = await wait_for(sent[mark:], lambda m: m["type"] == "state")
        assert reply["delay"] == 1 and reply["searching"] == "ai"
        await session.handle(json.dumps({"type": "stop"}))
        result = await wait_for(sent, lambda m: m["type"] == "result")
        assert result["player"] == 0 and result["best_move"] in "1234567"
        state = await wait_for(sent, lambda m: m["type"] == "state" and m["ply"] == 1)
        assert state["to_move"] == 1 and state["searching"] is None
        await session.close()

    asyncio.run(scenario())


def test_a_hint_names_an_optimal_move() -> None:
    async def scenario() -> None:
        session, sent = await open_session(game="tictactoe", moves="0 4 8", players=HUMANS)
        await session.handle(json.dumps({"type": "hint"}))
        hint = await wait_for(sent, lambda m: m["type"] == "hint")
        # With analysis on and nothing analysed yet (the hint comes before
        # the analysis has run at all), a hint interrupts it, then it goes on.
        mark = len(sent)
        await session.handle(json.dumps({"type": "analysis", "on": True}))
        await session.handle(json.dumps({"type": "hint"}))
        for _ in range(2000):
            kinds = [m["type"] for m in sent[mark:]]
            if "hint" in kinds and "analysis" in kinds[kinds.index("hint") + 1 :]:
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError(f"analysis did not resume after the hint: {kinds}")
        # Once the analysis has an answer, a hint is that answer, at once.
        second = next(m for m in sent[mark:] if m["type"] == "hint")
        done = await wait_for(
            sent, lambda m: m["type"] == "analysis" and m["search_id"] > second["search_id"]
        )
        await session.handle(json.dumps({"type": "hint"}))
        again = sent[-1]
        assert again["type"] == "hint" and again["search_id"] == done["search_id"]
        assert (again["move"], again["score"]) == (done["best_move"], done["score"])
        await session.close()
        game = zerosum.load("tictactoe")
        solved = zerosum.search.reference.analyze(game, game.play("0 4 8".split()))
        optimal = {game.format_move(m) for m in solved.best_moves}
        assert hint["move"] in optimal and hint["exact"]

    asyncio.run(scenario())


def test_every_text_of_the_page_is_listed_for_translation() -> None:
    """Each ``t("...")`` in the page's scripts and each ``data-t*="..."`` in
    its HTML is in PAGE_STRINGS (so the catalog, and the test above, cover it)."""
    import re
    from pathlib import Path

    static = Path(zerosum.__file__).resolve().parent / "web" / "static"
    used: set[str] = set()
    for script in static.glob("*.js"):
        source = script.read_text(encoding="utf-8")
        used |= {m.group(2) for m in re.finditer(r"\bt\((['\"])((?:\\.|(?!\1).)*)\1", source)}
        # A translation call must name its text literally, or the scan misses it.
        dynamic = re.findall(r"\bt\(\s*`", source)
        assert not dynamic, f"{script.name}: t() with a template literal"
    html = (static / "index.html").read_text(encoding="utf-8")
    used |= set(re.findall(r'data-t(?:-[a-z]+)?="([^"]*)"', html))
    assert used, "the scan found no texts"
    missing = sorted(used - set(PAGE_STRINGS))
    assert not missing, missing
    unused = sorted(set(PAGE_STRINGS) - used)
    assert not unused, unused


def test_serve_on_a_port_in_use_is_one_clear_error() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_cli("serve", "--port", str(port))
    assert done.returncode == 2
    assert f"127.0.0.1:{port}" in done.stderr and "--port" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    bad = run_cli("serve", "--port", "http")
    assert bad.returncode == 2 and "port number" in bad.stderr


def test_a_bug_in_handling_a_message_is_reported_and_the_game_goes_on(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: Session, data: dict[str, Any]) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setitem(Session._handlers, "resume", broken)
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "resume"})
        error = ws.receive_json()
        assert error["type"] == "error" and "internal error" in error["message"]
        assert "simulated" not in error["message"]
        ws.send_json({"type": "move", "move": "4"})
        assert settled_state(ws)["ply"] == 2
