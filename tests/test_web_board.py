"""The analysis board's server side (issue 12): variations, search ids, who
played the last move, game-over details, input checks, the pause, hints
that agree with the analysis, and the review.

Independent truths: the reference solver (exact values of tic-tac-toe
positions), a plain scan of the drawn board for lines of k (winning cells),
the disc count read off the board (Othello).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from support import run_cli
from web_support import Message, open_session, settled_state, wait_for

import zerosum
from zerosum.registry import entries
from zerosum.search import reference
from zerosum.web.app import create_app
from zerosum.web.review import classify
from zerosum.web.session import Session

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(hosts=("testserver",))) as c:
        yield c


async def settled(session: Session, sent: list[Message]) -> Message:
    """The state once no search runs (the last one sent)."""
    deadline = time.monotonic() + 30
    while session.searching is not None and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    states = [m for m in sent if m["type"] == "state"]
    assert states and states[-1]["searching"] is None, states[-1:]
    return states[-1]


def last_state(sent: list[Message]) -> Message:
    return [m for m in sent if m["type"] == "state"][-1]


# -- defect 1: a refused new game and a change of players change no game -------------
def test_players_never_change_the_game_and_a_refused_new_changes_nothing(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "new", "game": "tictactoe", "moves": "4", "players": HUMANS})
        before = settled_state(ws)
        ws.send_json({"type": "new", "game": "mnk(m=4,n=4,k=5)", "players": HUMANS})
        error = ws.receive_json()
        assert error["type"] == "error" and "k=5" in error["message"]
        # O (a human) is to move: the computer's side has nothing to play yet.
        players = [{"kind": "ai", "level": "easy"}, {"kind": "human"}]
        ws.send_json({"type": "players", "players": players})
        state = settled_state(ws)
        # The refused game did not come in with the players' change.
        assert (state["game"], state["record"]) == (before["game"], before["record"])
        assert state["players"] == players
        ws.send_json({"type": "new", "game": "othello(size=4)"})
        state = settled_state(ws)
    assert state["game"] == "othello(size=4)" and state["name"] == "othello"
    assert state["params"] == {"size": 4}
    assert (state["board"]["rows"], state["board"]["cols"]) == (4, 4)
    assert state["players"] == players


# -- variations -----------------------------------------------------------------------
def test_a_move_at_an_earlier_point_keeps_the_old_line_as_a_variation() -> None:
    async def scenario() -> None:
        session, sent = await open_session(game="tictactoe", moves="0 4 8", players=HUMANS)
        await session.handle(json.dumps({"type": "goto", "ply": 1}))
        await session.handle(json.dumps({"type": "move", "move": "2"}))
        state = last_state(sent)
        assert (state["record"], state["ply"]) == ("0 2", 2)
        assert state["variations"] == [{"ply": 1, "moves": ["4", "8"], "inner": []}]
        # Back to the old line: whole again, the new move now the variation.
        await session.handle(json.dumps({"type": "line", "ply": 1, "move": "4"}))
        state = last_state(sent)
        assert (state["record"], state["ply"]) == ("0 4 8", 2)
        assert state["variations"] == [{"ply": 1, "moves": ["2"], "inner": []}]
        # Replaying the record's own next move follows it (redo still works).
        await session.handle(json.dumps({"type": "goto", "ply": 0}))
        await session.handle(json.dumps({"type": "move", "move": "0"}))
        state = last_state(sent)
        assert (state["record"], state["ply"]) == ("0 4 8", 1)
        await session.handle(json.dumps({"type": "redo"}))
        assert last_state(sent)["ply"] == 2
        # A variation that does not exist is an error that changes nothing.
        mark = len(sent)
        await session.handle(json.dumps({"type": "line", "ply": 1, "move": "7"}))
        assert [m["type"] for m in sent[mark:]] == ["error"]
        assert "no variation starts with 7" in sent[-1]["message"]
        await session.handle(json.dumps({"type": "line", "ply": 9, "move": "7"}))
        assert sent[-1]["type"] == "error" and "ply must be" in sent[-1]["message"]
        await session.close()

    asyncio.run(scenario())


def test_switching_to_a_variation_where_the_computer_moves_waits() -> None:
    async def scenario() -> None:
        players = [{"kind": "human"}, {"kind": "ai", "level": "perfect"}]
        session, sent = await open_session(game="tictactoe", moves="0 4", players=HUMANS)
        await session.handle(json.dumps({"type": "goto", "ply": 0}))
        await session.handle(json.dumps({"type": "move", "move": "8"}))
        await session.handle(json.dumps({"type": "players", "players": players}))
        await wait_for(sent, lambda m: m["type"] == "state" and m["ply"] == 2)
        state = await settled(session, sent)
        assert state["variations"] == [{"ply": 0, "moves": ["0", "4"], "inner": []}]
        mark = len(sent)
        await session.handle(json.dumps({"type": "line", "ply": 0, "move": "0"}))
        state = last_state(sent)
        # O (the computer) is to move after 0: it waits, and says so.
        assert state["ply"] == 1 and state["paused"] and state["searching"] is None
        await asyncio.sleep(0.2)
        assert not [m for m in sent[mark:] if m["type"] in ("progress", "result")]
        await session.close()

    asyncio.run(scenario())


# -- search ids and the last move -----------------------------------------------------
def test_every_search_object_carries_the_id_the_state_announced() -> None:
    async def scenario() -> None:
        session, sent = await open_session(game="connect4", players=HUMANS)
        await session.handle(json.dumps({"type": "settings", "analysis_time": 0.3}))
        await session.handle(json.dumps({"type": "analysis", "on": True}))
        running = last_state(sent)
        assert running["searching"] == "analysis" and isinstance(running["search_id"], int)
        await wait_for(sent, lambda m: m["type"] == "analysis")
        await session.handle(json.dumps({"type": "move", "move": "4"}))
        second = last_state(sent)
        assert second["searching"] == "analysis" and second["search_id"] != running["search_id"]
        await wait_for(
            sent, lambda m: m["type"] == "analysis" and m["position"] == second["position"]
        )
        await session.handle(json.dumps({"type": "hint"}))
        await wait_for(sent, lambda m: m["type"] == "hint")
        await session.close()
        announced = {m["search_id"] for m in sent if m["type"] == "state" and m["searching"]}
        lines = [m for m in sent if m["type"] in ("progress", "analysis", "hint")]
        assert lines and all(m["search_id"] in announced for m in lines)
        # A search's lines are all of one position: ids never mix searches.
        by_id: dict[int, set[str]] = {}
        for m in lines:
            by_id.setdefault(m["search_id"], set()).add(m["position"])
        assert all(len(positions) == 1 for positions in by_id.values())
        assert last_state(sent)["search_id"] is None or last_state(sent)["searching"]

    asyncio.run(scenario())


def test_last_move_says_who_played_it() -> None:
    async def scenario() -> None:
        players = [{"kind": "random"}, {"kind": "ai", "level": "easy"}]
        session, sent = await open_session(game="connect4", players=HUMANS, seed=3)
        assert last_state(sent)["last_move"] is None
        await session.handle(json.dumps({"type": "move", "move": "4"}))
        assert last_state(sent)["last_move"] == {"player": 0, "move": "4", "by": "human"}
        await session.handle(json.dumps({"type": "settings", "delay": 0.05}))
        await session.handle(json.dumps({"type": "players", "players": players}))
        ai = await wait_for(sent, lambda m: m["type"] == "state" and m["ply"] == 2)
        random_move = await wait_for(sent, lambda m: m["type"] == "state" and m["ply"] == 3)
        await session.close()
        assert ai["last_move"]["by"] == "ai" and ai["last_move"]["player"] == 1
        assert random_move["last_move"]["by"] == "random"
        assert random_move["last_move"]["move"] == random_move["record"].split()[2]

    asyncio.run(scenario())


# -- game over ------------------------------------------------------------------------
def lines_of(board: Message, player: int, k: int) -> set[tuple[int, int]]:
    """Every cell of a run of ``k`` of ``player``'s pieces on the drawn board
    (an independent scan of the grid)."""
    rows, cols, cells = board["rows"], board["cols"], board["cells"]
    found: set[tuple[int, int]] = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                run = [(r + dr * i, c + dc * i) for i in range(k)]
                if all(0 <= y < rows and 0 <= x < cols and cells[y * cols + x] == player
                       for y, x in run):
                    found.update(run)
    return found


@pytest.mark.parametrize(
    ("spec", "k"),
    [("tictactoe", 3), ("mnk(m=4,n=5,k=3)", 3), ("connect4", 4),
     ("connect4(width=4,height=4)", 4), ("connect4(width=9,height=9)", 4),
     ("connect4(width=5,height=8)", 4), ("gomoku", 5)],
)
def test_winning_cells_are_the_lines_on_the_board(spec: str, k: int) -> None:
    from zerosum.report import board_object
    from zerosum.web.views import outcome_object

    game = zerosum.load(spec)
    rng = random.Random(spec)
    wins = 0
    for _ in range(60):
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.result(state, rng.choice(list(game.actions(state))))
        outcome = outcome_object(game, state)
        board = board_object(game.board(state))
        assert board is not None
        if outcome["winner"] is None:
            assert outcome["cells"] == [] and outcome["text"] == "Draw"
            continue
        wins += 1
        expected = lines_of(board, outcome["winner"], k)
        assert expected and {tuple(c) for c in outcome["cells"]} == expected
        assert outcome["text"] == f"{game.player_name(outcome['winner'])} wins"
        assert outcome["counts"] is None
    assert wins > 10


def test_othello_names_the_disc_count_and_the_others_say_why() -> None:
    from zerosum.web.views import outcome_object

    othello = zerosum.load("othello(size=4)")
    rng = random.Random(1)
    for _ in range(20):
        state = othello.initial_state()
        while not othello.is_terminal(state):
            state = othello.result(state, rng.choice(list(othello.actions(state))))
        outcome = outcome_object(othello, state)
        board = othello.board(state)
        assert board is not None
        cells = board.cells
        black, white = cells.count(0), cells.count(1)
        assert outcome["counts"] == [black, white] and outcome["cells"] == []
        if black == white:
            assert outcome["winner"] is None and outcome["text"] == f"Draw {black}–{white}"
        else:
            winner = 0 if black > white else 1
            most, least = max(black, white), min(black, white)
            assert outcome["winner"] == winner
            assert outcome["text"] == f"{('Black', 'White')[winner]} wins {most}–{least}"
    domineering = zerosum.load("domineering(rows=2,cols=2)")
    over = domineering.play(["a1"])  # Vertical's tile; Horizontal has no room left
    assert domineering.is_terminal(over)
    outcome = outcome_object(domineering, over)
    assert outcome["text"] == "Horizontal cannot move: Vertical wins" and outcome["winner"] == 0
    nim = zerosum.load("nim(heaps=2)")
    over = nim.play(["1:2"])
    assert outcome_object(nim, over)["text"] == "second cannot move: first wins"


def test_state_outcome_and_banner_in_both_languages() -> None:
    async def scenario() -> tuple[Message, Message]:
        session, sent = await open_session(
            game="connect4", moves="1 2 1 2 1 2 1", players=HUMANS
        )
        english = last_state(sent)
        await session.handle(json.dumps({"type": "lang", "lang": "zh"}))
        chinese = last_state(sent)
        await session.close()
        return english, chinese

    english, chinese = asyncio.run(scenario())
    assert english["over"] and english["outcome"]["winner"] == 0
    assert english["banner"] == english["outcome"]["text"] == "Red wins"
    assert sorted(map(tuple, english["outcome"]["cells"])) == [(2, 0), (3, 0), (4, 0), (5, 0)]
    assert chinese["banner"] == chinese["outcome"]["text"] and "红方" in chinese["banner"]
    assert chinese["player_names"] == ["红方", "黄方"]


# -- input checks in the user's words ---------------------------------------------------
@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"analysis_time": 0}, "Analysis time must be a number of seconds from 0.1 to 600, got 0"),
        ({"analysis_time": -5}, "Analysis time must be a number of seconds from 0.1 to 600, got"),
        ({"analysis_time": 601}, "Analysis time must be a number of seconds from 0.1 to 600"),
        ({"delay": 11}, "Delay must be a number of seconds from 0 to 10, got 11"),
        ({"lines": 0}, "Lines must be a whole number from 1 to 5, got 0"),
        ({"lines": 2.5}, "Lines must be a whole number from 1 to 5, got 2.5"),
        # One bad field: the good one beside it is not taken either.
        ({"delay": 1, "analysis_time": 0}, "Analysis time must be"),
    ],
)
def test_bad_settings_are_refused_in_the_pages_words_and_change_nothing(
    settings: Message, message: str
) -> None:
    async def scenario() -> tuple[Message, Message, Message]:
        session, sent = await open_session(game="tictactoe", players=HUMANS)
        before = last_state(sent)
        await session.handle(json.dumps({"type": "settings", **settings}))
        error = sent[-1]
        await session.handle(json.dumps({"type": "settings"}))
        after = last_state(sent)
        await session.close()
        return before, error, after

    before, error, after = asyncio.run(scenario())
    assert error["type"] == "error" and error["message"].startswith(message), error
    for key in ("delay", "analysis_time", "lines"):
        assert after[key] == before[key]


def test_good_settings_are_echoed_and_errors_come_in_chinese() -> None:
    async def scenario() -> tuple[Message, Message, Message]:
        session, sent = await open_session(lang="zh", game="tictactoe", players=HUMANS)
        await session.handle(json.dumps({"type": "settings", "lines": 5, "analysis_time": 0.5}))
        state = last_state(sent)
        await session.handle(json.dumps({"type": "settings", "analysis_time": 0}))
        error = sent[-1]
        await session.handle(json.dumps({"type": "players", "players": [
            {"kind": "ai", "time": 1000}, {"kind": "human"}]}))
        player_error = sent[-1]
        await session.close()
        return state, error, player_error

    state, error, player_error = asyncio.run(scenario())
    assert state["lines"] == 5 and state["analysis_time"] == 0.5
    assert error["type"] == "error" and "分析时间" in error["message"] and "0.1" in error["message"]
    assert player_error["type"] == "error" and "600" in player_error["message"]


# -- the pause means the computer is held ------------------------------------------------
def test_undo_to_the_humans_turn_is_not_paused_but_the_computers_turn_is() -> None:
    async def scenario() -> None:
        players = [{"kind": "human"}, {"kind": "ai", "level": "perfect"}]
        session, sent = await open_session(game="tictactoe", players=players)
        await session.handle(json.dumps({"type": "move", "move": "4"}))
        await wait_for(sent, lambda m: m["type"] == "state" and m["ply"] == 2)
        await settled(session, sent)
        await session.handle(json.dumps({"type": "undo"}))
        state = last_state(sent)
        assert state["ply"] == 0 and state["to_move"] == 0 and not state["paused"]
        await session.handle(json.dumps({"type": "goto", "ply": 1}))
        state = last_state(sent)
        assert state["ply"] == 1 and state["paused"] and state["searching"] is None
        await session.close()

    asyncio.run(scenario())


# -- the hint agrees with the analysis ------------------------------------------------------
def test_with_analysis_on_the_hint_is_the_analysis_best_line() -> None:
    async def scenario() -> None:
        session, sent = await open_session(game="connect4", moves="4 4", players=HUMANS)
        await session.handle(json.dumps({"type": "settings", "analysis_time": 600}))
        await session.handle(json.dumps({"type": "analysis", "on": True}))
        search_id = last_state(sent)["search_id"]
        await wait_for(sent, lambda m: m["type"] == "progress" and m["depth"] and m["depth"] >= 3)
        mark = len(sent)
        await session.handle(json.dumps({"type": "hint"}))
        hint = sent[-1]
        progress = [m for m in sent[:mark] if m["type"] == "progress"][-1]
        assert hint["type"] == "hint" and hint["search_id"] == search_id
        assert (hint["move"], hint["score"], hint["exact"]) == (
            progress["best_move"], progress["score"], progress["exact"]
        )
        # No second search: the analysis goes on, nothing was cancelled.
        assert session.searching == "analysis" and last_state(sent)["search_id"] == search_id
        assert "(" not in hint["text"] and hint["text"].startswith(f"Hint: {hint['move']}, ")
        await session.close()

    asyncio.run(scenario())


def test_without_analysis_the_hint_searches_and_its_text_reads_well() -> None:
    async def scenario() -> Message:
        session, sent = await open_session(game="tictactoe", moves="0 4 8", players=HUMANS)
        await session.handle(json.dumps({"type": "hint"}))
        hint = await wait_for(sent, lambda m: m["type"] == "hint")
        await session.close()
        return hint

    hint = asyncio.run(scenario())
    game = zerosum.load("tictactoe")
    solved = reference.analyze(game, game.play("0 4 8".split()))
    assert hint["move"] in {game.format_move(m) for m in solved.best_moves}
    assert hint["exact"] and hint["score"] == 0 and hint["text"] == f"Hint: {hint['move']}, draw"


# -- review ----------------------------------------------------------------------------------
def exact_value(game: Any, state: Any) -> int:
    """The solver's value for the side to move: +1, 0, -1."""
    if game.is_terminal(state):
        return int(game.utility(state, game.to_move(state)))
    outcome: int | None = reference.analyze(game, state).score.outcome
    assert outcome is not None
    return outcome


def test_review_marks_a_thrown_away_win_and_a_lost_draw() -> None:
    # 0 1: O's edge answer to a corner loses (a draw thrown away); 0 1 2:
    # X then plays a move after which O holds the draw (a win thrown away).
    game = zerosum.load("tictactoe")
    moves = "0 1 2 4 7 6 3".split()
    states = [game.initial_state()]
    for word in moves:
        states.append(game.result(states[-1], game.parse_move(states[-1], word)))
    expected = []
    for ply in range(len(moves)):
        before = exact_value(game, states[ply])
        after = -exact_value(game, states[ply + 1])
        expected.append(
            "lost-win" if before == 1 and after < 1
            else "lost-draw" if before == 0 and after == -1
            else None
        )
    assert "lost-win" in expected and "lost-draw" in expected

    async def scenario() -> list[Message]:
        session, sent = await open_session(game="tictactoe", moves=" ".join(moves), players=HUMANS)
        await session.handle(json.dumps({"type": "review"}))
        await wait_for(sent, lambda m: m["type"] == "review" and m["done"])
        await session.close()
        return [m for m in sent if m["type"] == "review"]

    reviews = asyncio.run(scenario())
    final = reviews[-1]
    assert len({m["search_id"] for m in reviews}) == 1
    plies = final["plies"]
    assert [p["ply"] for p in plies] == list(range(len(moves) + 1))
    assert [p["move"] for p in plies] == [*moves, None]
    assert all(p["exact"] for p in plies)
    assert [p["class"] for p in plies[:-1]] == expected
    # Scores for the graph are from the first player's view.
    for entry, state in zip(plies, states, strict=True):
        value = exact_value(game, state) * (1 if game.to_move(state) == 0 else -1)
        assert (entry["score"] > 0) - (entry["score"] < 0) == value, entry


def test_review_can_be_stopped() -> None:
    moves = "4 4 3 5 5 3 4 6 2 6 6 2 7 1 1 7"
    game = zerosum.load("connect4")
    assert not game.is_terminal(game.play_text(moves))

    async def scenario() -> tuple[Message, Message]:
        session, sent = await open_session(game="connect4", moves=moves, players=HUMANS)
        await session.handle(json.dumps({"type": "review"}))
        first = await wait_for(sent, lambda m: m["type"] == "review")
        await session.handle(json.dumps({"type": "stop"}))
        done = await wait_for(sent, lambda m: m["type"] == "review" and m["done"], timeout=10)
        await settled(session, sent)
        await session.close()
        return first, done

    first, done = asyncio.run(scenario())
    assert first["plies"][0]["move"] == "4" and not first["done"]
    # Each position may search 0.5 s: stopped at once, it got nowhere near the end.
    assert 1 <= len(done["plies"]) < 17


def test_heuristic_drops_are_classified_by_the_documented_thresholds() -> None:
    from zerosum.web.review import Thresholds

    # Connect Four's evaluation unit is a threat, 40 points: 40, 120, 300.
    scale = Thresholds.of(zerosum.load("connect4"))
    assert scale == Thresholds(40, 120, 300)
    win, loss = 1_000_000 - 5, -(1_000_000 - 6)
    assert classify(100, False, 100 - 40 + 1, False, scale) is None
    assert classify(100, False, 100 - 40, False, scale) == "inaccuracy"
    assert classify(100, False, 100 - 120, False, scale) == "mistake"
    assert classify(100, False, 100 - 300, False, scale) == "blunder"
    assert classify(100, False, loss, True, scale) == "blunder"
    assert classify(win, True, 0, True, scale) == "lost-win"
    assert classify(win, True, win - 2, True, scale) is None  # a slower win is still a win
    assert classify(win, True, -50, False, scale) is None  # not proven lost: no verdict
    assert classify(0, True, loss, True, scale) == "lost-draw"
    assert classify(loss, True, loss + 2, True, scale) is None  # nothing left to lose


def test_review_thresholds_follow_the_games_own_evaluation_scale() -> None:
    """The thresholds were 40/120/300 points whatever the game: a game
    whose evaluation counts in thousands had every small wobble marked a
    blunder, one without a scale had its heuristic drops judged on another
    game's."""
    from zerosum.games.tictactoe import TicTacToe
    from zerosum.web.review import Thresholds, classify_line

    class Fine(TicTacToe):
        evaluation_unit = 1000  # a feature is worth 1,000 of its points

    class Unscaled(TicTacToe):
        evaluation_unit = None

    assert Thresholds.of(Fine()) == Thresholds(1000, 3000, 7500)
    assert Thresholds.of(zerosum.load("domineering")) is None
    assert Thresholds.of(zerosum.load("othello")) == Thresholds(40, 120, 300)

    def line(game: Any) -> list[Any]:
        # X's move 0 drops its heuristic score by 350 points.
        entries: list[dict[str, Any]] = [
            {"to_move": 0, "score": 200, "exact": False, "move": "0", "best_move": "4",
             "class": None},
            {"to_move": 1, "score": -150, "exact": False, "move": None, "best_move": "4",
             "class": None},
        ]
        classify_line(entries, Thresholds.of(game))
        return [entry["class"] for entry in entries]

    assert line(zerosum.load("connect4")) == ["blunder", None]
    assert line(Fine()) == [None, None]
    assert line(Unscaled()) == [None, None]


# -- game parameters and names from the server ------------------------------------------------
def test_state_has_the_games_name_and_parameters() -> None:
    async def scenario(spec: str) -> Message:
        session, sent = await open_session(game=spec, players=HUMANS)
        await session.close()
        return last_state(sent)

    assert asyncio.run(scenario("connect4(width=5,height=4)"))["params"] == {
        "width": 5, "height": 4}
    gomoku = asyncio.run(scenario("gomoku"))
    assert (gomoku["name"], gomoku["params"]) == ("mnk", {"m": 15, "n": 15, "k": 5})
    tictactoe = asyncio.run(scenario("tictactoe"))
    assert (tictactoe["name"], tictactoe["params"]) == ("tictactoe", {})
    nim = asyncio.run(scenario("nim(heaps=1-2)"))
    assert nim["params"] == {"heaps": "1-2"}


def test_games_list_has_translated_labels(client: TestClient) -> None:
    english = {g["name"]: g for g in client.get("/api/games").json()}
    chinese = {g["name"]: g for g in client.get("/api/games?lang=zh").json()}
    assert [p["label"] for p in english["connect4"]["params"]] == ["Width", "Height"]
    assert [p["label"] for p in chinese["connect4"]["params"]] == ["宽度", "高度"]
    assert chinese["domineering"]["params"][0]["label"] == "行数"
    assert chinese["domineering"]["params"][2]["choice_labels"] == ["竖方", "横方"]
    # The games the project ships (a test may have registered a user's
    # game, such as the Countdown example, whose texts are its own).
    shipped = {e.name for e in entries() if e.cls.__module__.startswith("zerosum.")}
    for name, game in chinese.items():
        if name not in shipped:
            continue
        for param in game["params"]:
            assert any("\u4e00" <= ch <= "\u9fff" for ch in param["label"]), (name, param)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in game["description"]), name


def test_the_command_line_names_players_in_chinese_and_english_is_unchanged() -> None:
    chinese = run_cli("--lang", "zh", "analyze", "connect4", "--moves", "44", "--depth", "2")
    english = run_cli("analyze", "connect4", "--moves", "44", "--depth", "2")
    assert "轮到红方走棋" in chinese.stdout and "Red" not in chinese.stdout
    assert "Red to move." in english.stdout
    # --json is for programs: the English name whatever the language.
    data = json.loads(run_cli(
        "--lang", "zh", "analyze", "connect4", "--moves", "44", "--depth", "2", "--json"
    ).stdout.splitlines()[-1])
    assert data["to_move"] == "Red"


def test_an_easy_ais_random_move_is_reported_as_random() -> None:
    from zerosum.play.agents import Decision, EngineAgent
    from zerosum.search.front import Searcher
    from zerosum.search.types import Limits
    from zerosum.web.session import played_by

    game = zerosum.load("tictactoe")
    noisy = EngineAgent(Limits(depth=1), seed=1, noise=1.0)
    decision = noisy.choose(game, game.initial_state())
    assert decision.search is None and played_by("ai", decision) == "random"
    searched = Searcher(game).best_move(game.initial_state(), Limits(depth=1))
    assert played_by("ai", Decision(searched.best_move, search=searched)) == "ai"
    assert played_by("ai", Decision(4, from_book=True)) == "ai"
    assert played_by("mcts", Decision(4)) == "mcts"
