"""A scripted client that trusts the engine, as cutegames does (issue 26:
"every command sequence of a small grammar (including rejected ones) ends
with the client holding the position it sent and a bestmove for every go").

The grammar has seventeen kinds of command (handshakes, isready, options
valid and invalid, positions valid, illegal and unreadable, goes with
limits, refused limits, searchmoves, infinite + stop, ponder + ponderhit or
stop, queries, a stray stop). Every ordered pair of kinds is run (289
sequences), each followed by a probe, plus seeded random sequences of eight
commands; a concrete command of each kind is drawn from a seeded generator.
The client keeps its own model, computed from the rules: the position it
last sent validly, or none after a refused one. It checks that:

* every ``go`` gets exactly one ``bestmove``, legal in the client's
  position (within ``searchmoves`` when it gave legal ones), ``(none)``
  when the game is over, ``0000`` when it holds no position;
* every ``query`` is answered for the client's position;
* no traceback ever, and the engine ends on ``quit`` and at the end of its
  input.

Limits are small (tic-tac-toe, depth <= 4, nodes <= 200, movetime <= 30
ms): the verdicts depend on the protocol, not on the machine's speed."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from test_ugi import Driver

import zerosum

GAME = zerosum.load("tictactoe")
#: Sequences per engine process (separated by ``uginewgame``).
PER_PROCESS = 40
RANDOM_SEQUENCES = 60
RANDOM_LENGTH = 8


@dataclass
class Client:
    """The client's model of the conversation."""

    held: Any  # the state it last sent validly, or None after a refused position
    gos: int = 0
    ponder: bool = False


def _random_line(rng: random.Random, plies: int | None = None) -> tuple[list[str], Any]:
    """A legal line from the start (moves as text) and its final state."""
    state = GAME.initial_state()
    moves: list[str] = []
    length = rng.randint(0, 9) if plies is None else plies
    for _ in range(length):
        if GAME.is_terminal(state):
            break
        move = rng.choice(list(GAME.actions(state)))
        moves.append(GAME.format_move(move))
        state = GAME.result(state, move)
    return moves, state


# Each kind: rng, client -> (command lines, what the client expects of the
# engine's answer). "go" kinds return the searchmoves they gave.
Kind = Callable[[random.Random, Client], tuple[list[str], str, tuple[Any, ...]]]


def _hello(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    return [rng.choice(["ugi", "uci"])], "hello", ()


def _isready(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    return ["isready"], "ready", ()


def _option(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    name, value = rng.choice(
        [
            ("Level", rng.choice(["easy", "medium", "hard", "perfect", "HARD", "Easy"])),
            ("Hash", str(rng.randint(1, 16))),
            ("Seed", str(rng.randint(0, 99))),
            ("Ponder", rng.choice(["true", "false"])),
            ("Threads", "1"),
            ("Algorithm", "engine"),
        ]
    )
    return [f"setoption name {name} value {value}"], "quiet", ()


def _bad_option(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    line = rng.choice(
        [
            "setoption name Seed value nan",
            "setoption name Seed value -1",
            "setoption name Hash value 0",
            "setoption name Hash value 1e99",
            "setoption name Level value godlike",
            "setoption name Colour value red",
            "setoption name Threads value 300",
            "setoption Hash 8",
        ]
    )
    return [line], "error", ()


def _position(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    moves, state = _random_line(rng)
    if rng.random() < 0.5:
        line = "position startpos" + (" moves " + " ".join(moves) if moves else "")
    else:  # the same position as text, with its last moves after it
        cut = rng.randint(0, len(moves))
        base = GAME.play(moves[:cut])
        line = f"position fen {GAME.format_position(base)}"
        if moves[cut:]:
            line += " moves " + " ".join(moves[cut:])
    client.held = state
    return [line], "quiet", ()


def _illegal(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    moves, state = _random_line(rng, rng.randint(1, 9))
    if GAME.is_terminal(state):
        bad = "4"  # a move after the game is over
    else:
        taken = sorted(set(range(9)) - {int(GAME.format_move(m)) for m in GAME.actions(state)})
        bad = str(rng.choice(taken)) if taken else "9"
    client.held = None
    return [f"position startpos moves {' '.join(moves)} {bad}"], "error", ()


def _unreadable(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    line = rng.choice(
        [
            "position fen nonsense",
            "position",
            "position startpos moves x",
            "position somewhere",
            "position fen",
            "position startpos 4",
            "position fen xxx/ooo/xxx/ooo",
        ]
    )
    client.held = None
    return [line], "error", ()


def _go(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    limit = rng.choice(
        [
            f"depth {rng.randint(1, 4)}",
            f"nodes {rng.randint(1, 200)}",
            f"movetime {rng.randint(0, 30)}",
            f"p1time {rng.randint(0, 300)} p2time {rng.randint(0, 300)}",
            f"wtime {rng.randint(0, 300)} btime {rng.randint(0, 300)} winc 5 binc 5",
            f"mate {rng.randint(1, 3)}",
            f"depth {rng.randint(1, 4)} movestogo 3 p1time 100 p2time 100",
        ]
    )
    client.gos += 1
    return [f"go {limit}"], "go", ()


def _refused_go(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    line = rng.choice(
        [
            "go depth 0",
            "go nodes 0",
            "go depth -1",
            "go movetime 99999999999999999999",
            "go nodes 99999999999999999999999",
            "go sideways 3",
            "go depth many",
            "go mate 0 depth 2",
        ]
    )
    client.gos += 1
    return [line], "go", ()


def _searchmoves(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    chosen: tuple[Any, ...] = ()
    words = [str(rng.randint(0, 9)) for _ in range(rng.randint(1, 3))]
    if client.held is not None and not GAME.is_terminal(client.held):
        legal = {GAME.format_move(m): m for m in GAME.actions(client.held)}
        chosen = tuple(dict.fromkeys(legal[w] for w in words if w in legal))
    client.gos += 1
    return [f"go depth {rng.randint(1, 3)} searchmoves {' '.join(words)}"], "go", chosen


def _infinite(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    client.gos += 1
    return ["go infinite", "stop"], "go", ()


def _ponder(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    client.gos += 1
    limits = rng.choice(["", " movetime 10", " depth 2", " p1time 100 p2time 100"])
    return [f"go ponder{limits}", rng.choice(["ponderhit", "stop"])], "go", ()


def _query(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    return [f"query {rng.choice(['gameover', 'p1turn', 'result'])}"], "query", ()


def _stray_stop(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    return [rng.choice(["stop", "ponderhit"])], "quiet", ()


def _newgame(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    client.held = GAME.initial_state()
    return [rng.choice(["uginewgame", "ucinewgame"])], "quiet", ()


def _unknown(rng: random.Random, client: Client) -> tuple[list[str], str, tuple[Any, ...]]:
    return [rng.choice(["fly me to the moon", "debug on", "register later"])], "error", ()


KINDS: tuple[Kind, ...] = (
    _hello, _isready, _option, _bad_option, _position, _illegal, _unreadable, _go,
    _refused_go, _searchmoves, _infinite, _ponder, _query, _stray_stop, _newgame, _unknown,
    _go,  # goes twice as often: the heart of the matter
)  # fmt: skip


def _expected_query(client: Client, what: str) -> str:
    state = client.held
    if state is None:
        return "response none"
    over = GAME.is_terminal(state)
    if what == "gameover":
        return f"response {'true' if over else 'false'}"
    if what == "p1turn":
        return f"response {'true' if GAME.to_move(state) == 0 else 'false'}"
    if not over:
        return "response none"
    return "response " + {1: "p1win", -1: "p2win", 0: "draw"}[GAME.utility(state, 0)]


def _check_bestmove(client: Client, line: str, searchmoves: tuple[Any, ...], context: str) -> None:
    words = line.split()
    assert words[0] == "bestmove" and len(words) in (2, 4), context
    state = client.held
    if state is None:
        assert words[1] == "0000", context
        return
    if GAME.is_terminal(state):
        assert words[1] == "(none)", context
        return
    move = GAME.parse_move(state, words[1])  # raises if illegal
    if searchmoves:
        assert move in searchmoves, context


def _run(driver: Driver, client: Client, steps: list[Kind], rng: random.Random) -> list[str]:
    """Run one sequence; return the commands sent (for messages)."""
    sent: list[str] = []
    for kind in steps:
        lines, expect, searchmoves = kind(rng, client)
        for line in lines:
            driver.send(line)
        sent += lines
        context = " | ".join(sent)
        if expect == "go":
            answer = driver.until("bestmove", timeout=120)
            assert not any(a.startswith("Traceback") for a in answer), context
            bestmoves = [a for a in answer if a.startswith("bestmove")]
            assert len(bestmoves) == 1, context
            _check_bestmove(client, bestmoves[0], searchmoves, context)
        elif expect == "query":
            answer = driver.until("response", timeout=60)
            assert answer[-1] == _expected_query(client, lines[0].split()[1]), (context, answer)
        elif expect == "hello":
            driver.until(lines[0] + "ok", timeout=60)
        elif expect in ("ready", "error", "quiet"):
            # isready flushes: whatever came before its readyok belongs to
            # the commands before (errors, notices; never a bestmove)
            if expect != "ready":
                driver.send("isready")
            answer = driver.until("readyok", timeout=300)
            assert not any(a.startswith("bestmove") for a in answer), (context, answer)
            errors = [a for a in answer if a.startswith("info string error:")]
            if expect == "error":
                assert len(errors) == 1, (context, answer)
            else:
                assert not errors, (context, answer)
            others = [
                a for a in answer[:-1] if not a.startswith("info string") and a != "readyok"
            ]
            assert not others, (context, answer)
    return sent


def _sequences() -> list[list[Kind]]:
    pairs = [[a, b] for a in KINDS for b in KINDS]
    rng = random.Random(26)
    randoms = [[rng.choice(KINDS) for _ in range(RANDOM_LENGTH)] for _ in range(RANDOM_SEQUENCES)]
    return pairs + randoms


SEQUENCES = _sequences()
GROUPS = [SEQUENCES[i : i + PER_PROCESS] for i in range(0, len(SEQUENCES), PER_PROCESS)]


@pytest.mark.parametrize("group", range(len(GROUPS)))
def test_a_trusting_client_always_holds_its_position(group: int) -> None:
    driver = Driver("tictactoe")
    rng = random.Random(group)
    try:
        driver.send("ugi")
        driver.until("ugiok", timeout=60)
        for steps in GROUPS[group]:
            driver.send("uginewgame")
            driver.send("setoption name Ponder value false")
            client = Client(GAME.initial_state())
            _run(driver, client, [*steps, _query, _go], rng)  # then a probe
        assert driver.process.stdin is not None
        if group % 2:
            driver.send("quit")
        else:  # the end of the input is the same as quit
            driver.process.stdin.close()
        assert driver.process.wait(timeout=60) == 0
    finally:
        if driver.process.poll() is None:
            driver.process.kill()
    leftover = list(driver.lines.queue)
    assert not any(line.startswith("bestmove") for line in leftover), leftover
    assert not any("Traceback" in line for line in leftover + driver.errors), driver.errors
