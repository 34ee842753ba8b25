"""Fuzzing with hypothesis (issue 13, item 18): the parsers, the command
line's commands and the WebSocket messages take arbitrary input and answer
every bad one with one short line -- a ZerosumError (or TypeError), exit
status 2, an ``error`` object -- never a traceback. Bounded: a fixed number
of examples each, cheap searches only, so the suite stays quick."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import zerosum
from zerosum.cli import main
from zerosum.game import ZerosumError

#: The longest message accepted (see test_hardening.LONGEST).
LONGEST = 240
#: ZEROSUM_FUZZ_EXAMPLES=2000 (and ZEROSUM_FUZZ_RANDOM=1 for fresh examples)
#: searches harder locally; CI runs the fixed, quick default.
FUZZ = settings(
    max_examples=int(os.environ.get("ZEROSUM_FUZZ_EXAMPLES", "60")),
    deadline=None,
    derandomize=not os.environ.get("ZEROSUM_FUZZ_RANDOM"),  # no flaky CI
    database=None,  # and no .hypothesis folder
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SPECS = [
    "tictactoe",
    "connect4",
    "gomoku",
    "nim",
    "othello",
    "othello(size=4)",
    "domineering(rows=4,cols=5)",
    "mnk(4,4,3)",
]

#: Text a hostile user types: any characters, with digits of every script,
#: brackets, separators and the game's own letters over-represented.
TRICKY = st.sampled_from(
    [*"0123456789²₃①٧١٨٠abcdhoxy:/-() ,.#\t\n\r\x00\ufeff", "pass", "first", "V:", "1:2"]
)
TEXT = st.one_of(
    st.text(max_size=40),
    st.lists(TRICKY, max_size=20).map("".join),
    st.text(min_size=60, max_size=200),
)


def short_line(message: str) -> None:
    assert message, "an empty message"
    assert "\n" not in message, message
    assert len(message) <= LONGEST, message
    assert "Traceback" not in message


# -- the parsers ------------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
@FUZZ
@given(text=TEXT)
def test_parse_move_and_position_answer_in_one_line(spec: str, text: str) -> None:
    game = zerosum.load(spec)
    state = game.initial_state()
    try:
        move = game.parse_move(state, text)
    except ZerosumError as error:
        short_line(str(error))
    else:
        assert move in game.actions(state)
    try:
        position = game.parse_position(text)
    except ZerosumError as error:
        short_line(str(error))
    else:
        assert game.parse_position(game.format_position(position)) == position
    try:
        game.play_text(text)
    except ZerosumError as error:
        short_line(str(error))


@FUZZ
@given(spec=st.one_of(TEXT, st.sampled_from(SPECS).map(lambda s: s + "(")),
       value=st.one_of(TEXT, st.integers().map(str)))
def test_game_specs_answer_in_one_line(spec: str, value: str) -> None:
    for candidate in (spec, f"connect4(width={value})", f"nim(heaps={value})", f"mnk({value})"):
        try:
            zerosum.load(candidate)
        except ZerosumError as error:
            short_line(str(error))


# -- the command line ---------------------------------------------------------------------
def run_main(capsys: pytest.CaptureFixture[str], args: list[str], stdin: bytes) -> tuple[int, str]:
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        code = main(["--lang", "en", *args])
    finally:
        sys.stdin = saved
    _out, err = capsys.readouterr()
    return code, err


COMMANDS = st.sampled_from(
    [
        ["solve", "tictactoe", "--moves"],
        ["solve", "nim(heaps=1-2-3)", "--moves"],
        ["analyze", "connect4", "--depth", "1", "--moves"],
        ["analyze", "domineering(rows=3,cols=4)", "--depth", "1", "--moves"],
        ["analyze", "othello(size=4)", "--depth", "1", "--position"],
        ["perft", "gomoku", "1", "--moves"],
        ["solve", "tictactoe", "--depth"],
        ["analyze", "tictactoe", "--multipv"],
        ["analyze", "tictactoe", "--nodes"],
        ["solve", "tictactoe", "--hash"],
        ["serve", "--port"],
        ["perft"],
        ["--import"],
    ]
)


@FUZZ
@given(command=COMMANDS, text=TEXT, stdin=st.binary(max_size=60))
def test_commands_exit_0_or_2_with_one_line(
    capsys: pytest.CaptureFixture[str], command: list[str], text: str, stdin: bytes
) -> None:
    if command == ["serve", "--port"] and text.strip().isascii() and text.strip().isdigit():
        return  # a valid port would start the server
    if command == ["--import"]:
        args = ["--import", text, "games"]
    elif command == ["perft"]:
        args = ["perft", text, "0"]
    else:
        args = [*command, text]
    if "\x00" in text:
        return  # a command line cannot hold a NUL
    code, err = run_main(capsys, args, stdin)
    assert code in (0, 2), (args, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        short_line(lines[0])


@FUZZ
@given(lines=st.lists(st.one_of(TEXT, st.binary(max_size=20).map(repr)), max_size=4),
       raw=st.binary(max_size=40))
def test_batch_lines_each_get_an_answer(
    capsys: pytest.CaptureFixture[str], lines: list[str], raw: bytes
) -> None:
    stdin = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines).encode()
    stdin += b"\n" + raw.replace(b"\n", b" ").replace(b"\r", b" ") + b"\n"
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        code = main(["--lang", "en", "solve", "tictactoe", "--batch", "--depth", "1"])
    finally:
        sys.stdin = saved
    out, _err = capsys.readouterr()
    assert code in (0, 2)
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == stdin.count(b"\n")
    for answer in answers:
        assert answer["type"] in ("result", "error")
        if answer["type"] == "error":
            short_line(answer["message"])


# -- the WebSocket messages -------------------------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
KINDS = st.sampled_from(
    ["new", "move", "undo", "redo", "goto", "resume", "players", "settings", "analysis",
     "hint", "stop", "lang", "line", "review", "nope"]
)
KEYS = st.sampled_from(
    ["game", "moves", "position", "players", "seed", "move", "ply", "delay",
     "analysis_time", "on", "lang", "kind", "level", "time", "lines"]
)
PLAYER = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"kind": st.one_of(st.sampled_from(["ai", "human", "random"]), JSON)},
        optional={"level": st.one_of(st.sampled_from(["easy", "perfect"]), JSON),
                  "time": JSON},
    ),
)
MESSAGE = st.one_of(
    st.builds(
        lambda kind, fields: json.dumps({"type": kind, **fields}),
        KINDS,
        st.dictionaries(KEYS, JSON, max_size=3),
    ),
    st.builds(
        lambda kind, players: json.dumps({"type": kind, "players": players}),
        st.sampled_from(["players", "new"]),
        st.lists(PLAYER, min_size=2, max_size=2),
    ),
    st.integers(1, 30_000).map(lambda depth: "[" * depth + "]" * depth),
    TEXT,
    JSON.map(json.dumps),
)


@FUZZ
@given(messages=st.lists(MESSAGE, min_size=1, max_size=4))
def test_websocket_messages_get_answers_never_tracebacks(
    messages: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    from zerosum.web.session import Session

    async def scenario() -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []
        session = Session(sent.append)
        await session.start()
        # Human players and no analysis: the fuzz exercises the messages,
        # not long searches (a message may still start one; close stops it).
        await session.handle(json.dumps({"type": "new", "players": [{"kind": "human"}] * 2}))
        try:
            for message in messages:
                await session.handle(message)
        finally:
            await session.close()
        return sent

    with caplog.at_level(logging.WARNING):
        sent = asyncio.run(scenario())
    for obj in sent:
        assert obj["type"] in (
            "state", "error", "progress", "analysis", "result", "hint", "review"
        )
        if obj["type"] == "error":
            short_line(obj["message"])
            assert "internal error" not in obj["message"]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
