"""``zerosum play`` in a real terminal (a pseudo-terminal): the AI's list of
every move with its score (on by default at the learner levels), ``hint``,
``undo`` and ``help`` (issue 20, item 5). The waits are hang guards."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time

import pytest
from support import HANG_GUARD

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


class Terminal:
    """A ``zerosum`` process on a pseudo-terminal: type lines, wait for text."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "zerosum", "--lang", "en", *args],
            stdin=slave, stdout=slave, stderr=slave, close_fds=True,
            env={**os.environ, "LANGUAGE": "en", "TERM": "dumb"},
        )  # fmt: skip
        os.close(slave)
        self.seen = ""

    def expect(self, text: str) -> str:
        """Read until ``text`` appears; what was read up to and including it."""
        deadline = time.monotonic() + HANG_GUARD
        while text not in self.seen:
            assert time.monotonic() < deadline, self.seen[-2000:]
            ready, _w, _x = select.select([self.master], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the process ended
                    chunk = b""
                assert chunk, self.seen[-2000:]
                self.seen += chunk.decode(errors="replace").replace("\r\n", "\n")
        index = self.seen.index(text) + len(text)
        read, self.seen = self.seen[:index], self.seen[index:]
        return read

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        code = self.process.wait(timeout=HANG_GUARD)
        os.close(self.master)
        return code


PROMPT = "X, your move (or hint, undo, help, quit): "


def test_scores_hint_undo_and_help_in_a_terminal() -> None:
    term = Terminal("play", "tictactoe", "--level", "medium", "--seed", "3", "--no-store")
    try:
        term.expect(PROMPT)
        term.type("?")
        assert "hint for the engine's suggestion, undo to take back" in term.expect(PROMPT)
        term.type("hint")
        hint = term.expect(PROMPT)
        assert "Hint: " in hint and "(draw)" in hint  # every first move draws
        term.type("0")
        reply = term.expect(PROMPT)
        # The learner level lists every one of O's eight moves with its score.
        listed = next(line for line in reply.splitlines() if "O's moves and scores: " in line)
        scores = listed.split("O's moves and scores: ")[1].split(", ")
        assert sorted(item.split()[0] for item in scores) == list("12345678")
        assert "O plays " in reply
        term.type("undo")
        undone = term.expect(PROMPT)
        assert "Took back 2 moves." in undone
        assert " 0 | 1 | 2" in undone  # the empty board again
        term.type("undo")
        assert "Nothing to take back" in term.expect(PROMPT)
        term.type("quit")
        assert "Record of the moves:" in term.expect("Record of the moves:")
    finally:
        code = term.close()
    assert code == 0


def test_no_scores_turns_the_list_off() -> None:
    term = Terminal(
        "play", "tictactoe", "--level", "medium", "--seed", "3", "--no-store", "--no-scores"
    )
    try:
        term.expect(PROMPT)
        term.type("0")
        reply = term.expect(PROMPT)
        assert "O plays " in reply and "moves and scores" not in reply
        term.type("quit")
    finally:
        assert term.close() == 0
