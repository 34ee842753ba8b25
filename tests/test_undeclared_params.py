"""A user's game whose constructor takes an argument that ``params`` does not
declare (issue 20, item 7): one line saying what is missing and how to
declare it, from ``zerosum.load`` and from the command line (exit 2).

The games are registered in a child process only (a game registered in the
test process would meet the tests that go over every registered game)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import run_cli

GAME_FILE = """
import zerosum
from zerosum import Game, Param


@zerosum.register
class Pile(Game):
    name = "cli20pile"
    params = (Param("size", 5),)

    def __init__(self, size=5, take=3):
        self.size, self.take = size, take

    def initial_state(self):
        return (self.size, 0)

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        return [n for n in range(1, self.take + 1) if n <= state[0]]

    def result(self, state, action):
        return (state[0] - action, 1 - state[1])

    def is_terminal(self, state):
        return state[0] == 0

    def utility(self, state, player):
        return -1 if player == state[1] else 1


@zerosum.register
class Needs(Pile):
    name = "cli20needs"
    params = ()

    def __init__(self, size):  # required, and not declared
        super().__init__(size)
"""

LOADER = """
import json, sys
import zerosum
sys.path.insert(0, sys.argv[1])
import pilegame
answers = {}
for spec in sys.argv[2:]:
    try:
        answers[spec] = repr(zerosum.load(spec).initial_state())
    except zerosum.ZerosumError as error:
        answers[spec] = "error: " + str(error)
print(json.dumps(answers))
"""

SPECS = (
    "cli20pile(take=2)",
    "cli20needs",
    "cli20needs(4)",
    "cli20needs(size=4)",
    "cli20needs(colour=red)",
    "cli20pile(size=7)",
)


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("undeclared")
    (folder / "pilegame.py").write_text(GAME_FILE)
    return folder


@pytest.fixture(scope="module")
def answers(game_dir: Path) -> dict[str, str]:
    env = {**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": ""}
    done = subprocess.run(
        [sys.executable, "-c", LOADER, str(game_dir), *SPECS],
        capture_output=True, text=True, timeout=600, env=env, check=True,
    )  # fmt: skip
    loaded: dict[str, str] = json.loads(done.stdout)
    return loaded


def test_an_undeclared_keyword_says_how_to_declare_it(answers: dict[str, str]) -> None:
    message = answers["cli20pile(take=2)"]
    assert message.startswith("error: ") and "\n" not in message
    assert "'take'" in message and "does not declare it" in message
    assert "params = (Param('take'," in message


def test_a_required_undeclared_argument_says_how_to_declare_it(answers: dict[str, str]) -> None:
    for spec in ("cli20needs", "cli20needs(4)", "cli20needs(size=4)"):
        message = answers[spec]
        assert "'size'" in message and "params = (Param('size'," in message, spec


def test_a_game_without_params_never_says_expected_dash(answers: dict[str, str]) -> None:
    message = answers["cli20needs(colour=red)"]
    assert message.startswith("error: ") and "expected -" not in message


def test_declared_parameters_still_load(answers: dict[str, str]) -> None:
    assert answers["cli20pile(size=7)"] == "(7, 0)"


def test_the_command_line_gives_one_line_and_exit_2(game_dir: Path) -> None:
    result = run_cli("--import", str(game_dir / "pilegame.py"), "solve", "cli20pile(take=2)")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "does not declare it" in lines[0], result.stderr
