"""One player factory and one game loop (issue 26, item 8): the terminal,
the browser and the match runner build the same agent from the same spec,
with one set of defaults, and a seeded game played in the browser is the
game the terminal and the loop play."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from support import run_cli
from web_support import open_session, wait_for

import zerosum
from zerosum.cli.commands import player_spec
from zerosum.cli.parser import build_parser
from zerosum.play.agents import Agent, EngineAgent, MCTSAgent, RandomAgent
from zerosum.play.match import play_match
from zerosum.play.players import (
    DEFAULT_MOVE_SECONDS,
    make_agent,
    parse_player,
    side_seeds,
)
from zerosum.search import front
from zerosum.web import messages


def shape(agent: Agent) -> tuple[Any, ...]:
    """What makes an agent play as it does (its class, limits, mistakes,
    book, algorithm and Monte Carlo settings), not its identity."""
    if isinstance(agent, MCTSAgent):
        config = agent.config
        return ("mcts", agent.limits, config.exploration, config.playout, config.backend)
    if isinstance(agent, EngineAgent):
        return (type(agent).__name__, agent.limits, agent.noise, agent.book,
                agent.options.algorithm)
    return (type(agent).__name__,)


def cli_agent(*options: str, side: int = 1) -> Agent:
    """The agent ``zerosum play`` builds for the second player (``--o``)."""
    args = build_parser().parse_args(["play", "tictactoe", *options])
    kind = args.second if side == 1 else args.first
    return make_agent(player_spec(kind, args), 5)


# (terminal options, the browser's player, the match runner's text)
SAME = [
    (["--o", "ai", "--level", "hard"], {"kind": "ai", "level": "hard"}, "engine:level=hard"),
    (["--o", "ai", "--level", "easy"], {"kind": "ai", "level": "easy"}, "engine:level=easy"),
    (["--o", "ai", "--time", "2.5"], {"kind": "ai", "time": 2.5}, "engine:time=2.5"),
    (["--o", "mcts", "--time", "0.5"], {"kind": "mcts", "time": 0.5}, "mcts:time=0.5"),
    # No time given: one default for a move, the search's own (the browser
    # gave Monte Carlo tree search 1 s, the terminal and matches 3 s).
    (["--o", "mcts"], {"kind": "mcts"}, "mcts"),
    (["--o", "random"], {"kind": "random"}, "random"),
]


@pytest.mark.parametrize(("cli", "page", "text"), SAME, ids=[t for _c, _p, t in SAME])
def test_the_three_front_ends_build_the_same_agent_from_the_same_spec(
    cli: list[str], page: dict[str, Any], text: str
) -> None:
    from_cli = cli_agent(*cli)
    from_page = make_agent(messages.player(page), 5)
    from_match = parse_player(text).agent(5)
    assert shape(from_cli) == shape(from_page) == shape(from_match)


def test_a_player_given_no_limit_searches_for_the_search_defaults_move_time() -> None:
    assert DEFAULT_MOVE_SECONDS == front.DEFAULT_MOVE_SECONDS == 3.0
    agent = make_agent(messages.player({"kind": "mcts"}), 1)
    assert isinstance(agent, MCTSAgent)
    assert agent.limits == zerosum.Limits(time=DEFAULT_MOVE_SECONDS)
    assert messages.player_json(messages.player({"kind": "mcts"})) == {
        "kind": "mcts",
        "time": DEFAULT_MOVE_SECONDS,
    }


def test_the_browsers_players_round_trip_through_the_one_spec() -> None:
    for page in ({"kind": "human"}, {"kind": "random"}, {"kind": "ai", "level": "medium"},
                 {"kind": "ai", "time": 1.5}, {"kind": "mcts", "time": 2.0}):
        assert messages.player_json(messages.player(page)) == page


def record_of(output: str) -> list[str]:
    """The moves of ``zerosum play``'s record line (``1. X 4  2. O 0 ...``)."""
    line = output.split("Record of the moves:")[1].strip().splitlines()[0]
    return re.findall(r"\d+\. \S+ (\S+)", line)


def browser_record(game: str, players: list[dict[str, Any]], seed: int) -> list[str]:
    """The record of a game the browser plays to its end by itself."""

    async def play() -> list[str]:
        session, sent = await open_session(game=game, players=players, seed=seed)
        try:
            over = await wait_for(
                sent, lambda m: m["type"] == "state" and m["over"] and m["searching"] is None,
                timeout=600.0,
            )
        finally:
            await session.close()
        return str(over["record"]).split()

    return asyncio.run(play())


@pytest.mark.parametrize(
    ("game", "cli", "page"),
    [
        ("connect4", ["--x", "random", "--o", "random"], [{"kind": "random"}] * 2),
        (
            "tictactoe",
            ["--x", "ai", "--o", "random", "--level", "easy"],
            [{"kind": "ai", "level": "easy"}, {"kind": "random"}],
        ),
    ],
    ids=["connect4-random", "tictactoe-easy"],
)
def test_the_same_seeded_game_gives_the_same_record_in_the_browser_and_the_terminal(
    game: str, cli: list[str], page: list[dict[str, Any]]
) -> None:
    seed = 11
    done = run_cli("play", game, *cli, "--seed", str(seed))
    assert done.returncode == 0, done.stderr
    terminal = record_of(done.stdout)
    browser = browser_record(game, page, seed)
    # And the loop itself, from the same specs and seeds.
    rules = zerosum.load(game)
    seeds = side_seeds(seed)
    agents = (
        make_agent(messages.player(page[0]), seeds[0]),
        make_agent(messages.player(page[1]), seeds[1]),
    )
    loop = [rules.format_move(m) for m in play_match(rules, agents).moves]
    assert terminal == browser == loop
    assert len(loop) >= 5  # a real game, not an empty record agreeing with itself


def test_the_loop_makes_a_failing_player_lose_when_told_to_contain_failures() -> None:
    class Broken:
        label = "broken"

        def choose(self, game: Any, state: Any) -> Any:
            raise RuntimeError("out of order")

    game = zerosum.load("tictactoe")
    result = play_match(game, (RandomAgent(1), Broken()), contain=(Exception,))
    assert (result.reason, result.failed_by, result.outcome) == ("failure", 1, 1)
    assert result.detail == "RuntimeError: out of order"
    assert len(result.moves) == 1
    with pytest.raises(RuntimeError):
        play_match(game, (RandomAgent(1), Broken()))
