"""Issue 22.5: ``zerosum replay`` on hostile record files: one clear line
(exit 2) for each bad record, never a traceback, a read bounded in memory
and time, the result checked against the moves, the record's own words
printed escaped; and a seeded fuzz of a few hundred mutated records."""

from __future__ import annotations

import copy
import json
import os
import random
import resource
from pathlib import Path
from typing import Any

import pytest

from zerosum.cli import main
from zerosum.cli.replay import REASON_WORDS
from zerosum.play.runner import MatchSetup, play_game


def replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    done = capsys.readouterr()
    return code, done.out, done.err


def refused(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert err.startswith("zerosum: error: ") and len(err.splitlines()) == 1, err
    assert "\x1b" not in err
    for word in words:
        assert word in err, err


@pytest.fixture(scope="module")
def games() -> list[dict[str, Any]]:
    setup = MatchSetup(game="tictactoe", players=("random", "random"), games=2, openings=2)
    played = [play_game(setup, n) for n in range(2)]
    setup = MatchSetup(
        game="connect4(width=4,height=4)", players=("random", "random"), games=1, max_plies=5
    )
    played.append({**play_game(setup, 0), "number": 3})
    return played


def write(path: Path, records: list[Any]) -> str:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return str(path)


def test_the_records_written_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    path = write(tmp_path / "r.jsonl", [{"type": "match"}, *games])
    for game in games:
        code, out, err = replay(capsys, path, "--game", str(game["number"]), "--final")
        assert code == 0, err
        # The reason in words (replay.REASON_WORDS), English in the tests.
        words = REASON_WORDS.get(game["reason"], game["reason"])
        assert f"Result: {game['result']} ({words}" in out


def test_invalid_utf8_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"\xff\n")
    refused(*replay(capsys, str(path))[::2], "line 1", "UTF-8")


def test_nested_json_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    refused(*replay(capsys, str(path))[::2], "line 1", "JSON")


@pytest.mark.parametrize(
    ("key", "value", "word"),
    [
        ("players", 5, "players"),
        ("players", ["a"], "players"),
        ("players", [1, 2], "players"),
        ("opening", "0 1", "opening"),
        ("opening", [0], "opening"),
        ("moves", None, "moves"),
        ("moves", ["9", "9"], "moves"),
        ("game", ["tictactoe"], "game"),
        ("start", 3, "start"),
        ("reason", "magic", "reason"),
        ("detail", {"x": 1}, "detail"),
    ],
)
def test_fields_of_the_wrong_type_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: list[dict[str, Any]],
    key: str, value: Any, word: str,
) -> None:
    path = write(tmp_path / "r.jsonl", [{**games[0], key: value}])
    refused(*replay(capsys, path)[::2], word, "game 1")


def test_a_tampered_result_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    game = games[0]
    other = next(r for r in ("1-0", "0-1", "1/2-1/2") if r != game["result"])
    path = write(tmp_path / "r.jsonl", [{**game, "result": other}])
    refused(*replay(capsys, path)[::2], "does not follow from its moves", game["result"])
    # A game cut at the ply limit is a draw, whatever the record claims.
    cut = games[2]
    assert cut["reason"] == "max_plies"
    path = write(tmp_path / "c.jsonl", [{**cut, "number": 1, "result": "1-0"}])
    refused(*replay(capsys, path)[::2], "1/2-1/2")


def test_escape_codes_are_printed_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    game = {**games[0], "detail": "\x1b[2J\x1b]0;owned\x07", "players": ["\x1b[31mred", "b\rc"]}
    code, out, err = replay(capsys, write(tmp_path / "r.jsonl", [game]))
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out
    assert "\\x1b[2J" in out


def test_special_files_are_refused_at_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if Path("/dev/zero").exists():
        refused(*replay(capsys, "/dev/zero")[::2], "not a regular file")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # no writer: opening it for reading would wait forever
    refused(*replay(capsys, str(fifo))[::2], "not a regular file")
    refused(*replay(capsys, str(tmp_path))[::2])


def test_a_line_without_end_is_read_with_a_bound(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"0" * (3 << 20))
    refused(*replay(capsys, str(path))[::2], "line 1", "longer than")


def _mutate(rng: random.Random, record: dict[str, Any]) -> Any:
    """One hostile change to a good record (or to its text)."""
    values: list[Any] = [None, 0, -1, 2**70, 1.5, "", "x", "\x1b[2J", [], {}, [[["deep"]]],
                         ["0", "0"], ["99"], "tictactoe", "connect4", "nim(3,4)", True,
                         "1-0", "0-1", "1/2-1/2", "end", "failure", "max_plies", ["?"] * 3]
    record = copy.deepcopy(record)
    kind = rng.randrange(6)
    keys = list(record)
    if kind == 0:
        record[rng.choice(keys)] = rng.choice(values)
    elif kind == 1:
        del record[rng.choice(keys)]
    elif kind == 2 and record["moves"]:
        moves = record["moves"]
        moves[rng.randrange(len(moves))] = rng.choice(["0", "8", "9", "a1", "", "-1", "٣"])
    elif kind == 3:
        record["moves"] = record["moves"] + rng.choice([["0"], ["4"], ["1", "2"]])
    elif kind == 4:
        return rng.choice([b"\xff\xfe", b"{", b"[" * 5000, b'{"type": "game"', b"\x00" * 10,
                           b'"game"', b"1e999999", b"-" * 100])
    else:
        record["result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "2-0"])
    return record


def test_fuzzed_record_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    # The process's peak so far: the whole suite may have run in it before.
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rng = random.Random(22_5)
    passed = refused_count = 0
    for number in range(300):
        base = rng.choice(games)
        mutated = _mutate(rng, {**base, "number": 1})
        path = tmp_path / f"r{number}.jsonl"
        if isinstance(mutated, bytes):
            path.write_bytes(mutated + b"\n")
        else:
            path.write_text(json.dumps(mutated, ensure_ascii=False) + "\n")
        code, out, err = replay(capsys, str(path), "--final")
        assert code in (0, 2), (mutated, err)
        if code == 2:
            refused(code, err)
            refused_count += 1
        else:
            passed += 1
            assert "\x1b" not in out
    # Most mutations break the record; a few leave it valid (a detail changed).
    assert refused_count > 200 and passed > 0
    # Bounded memory: the fuzz raised the peak by less than 1 GB.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before < 1024 * 1024
