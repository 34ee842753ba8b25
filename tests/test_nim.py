"""Nim: the search agrees with Bouton's nim-sum rule on every small position;
the hooks agree with brute force; notation and parameters are checked."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

import zerosum
from zerosum.game import MoveError, PositionError, ZerosumError
from zerosum.games.nim import Nim, State, nim_sum
from zerosum.search import reference
from zerosum.search.types import WIN


def nim(heaps: str = "3-4-5") -> Nim:
    game = zerosum.load(f"nim(heaps={heaps})")
    assert isinstance(game, Nim)
    return game


def exact_values(game: Nim) -> dict[State, int]:
    """Every position's exact negamax value (the reference's convention: a
    win p plies on scores WIN - p), computed with a cache through the
    protocol alone -- the plain reference search is too slow for 7-7-7."""

    @cache
    def value(state: State) -> int:
        if game.is_terminal(state):
            return WIN * game.utility(state, game.to_move(state))
        best = -WIN - 1
        for move in game.actions(state):
            child = value(game.result(state, move))
            # One ply further from the end, seen from the other side.
            best = max(best, -child + (child > 0) - (child < 0))
        return best

    sizes = [range(s + 1) for s in game.start]
    return {
        (heaps, player): value((heaps, player))
        for heaps in itertools.product(*sizes)
        for player in (0, 1)
    }


@pytest.mark.parametrize("heaps", ["7", "7-7", "7-7-7"])
def test_every_small_position_obeys_the_nim_sum_rule(heaps: str) -> None:
    game = nim(heaps)
    values = exact_values(game)
    assert len(values) == 2 * 8 ** len(game.start)
    for (sizes, _player), value in values.items():
        assert value != 0  # Nim has no draws
        assert (value > 0) == (nim_sum(sizes) != 0), sizes


@pytest.mark.parametrize(("heaps", "most"), [("7", 7), ("7-7", 14), ("7-7-7", 10)])
def test_reference_search_agrees(heaps: str, most: int) -> None:
    """reference.value on every position with at most ``most`` objects (all
    of them for one and two heaps; plain alpha-beta is exponential)."""
    game = nim(heaps)
    values = exact_values(game)
    checked = 0
    for (sizes, player), value in values.items():
        if sum(sizes) <= most and player == 0:
            raw, _ = reference.value(game, (sizes, player))
            assert raw == value, sizes
            assert (raw > 0) == (nim_sum(sizes) != 0)
            checked += 1
    assert checked == sum(1 for sizes, p in values if p == 0 and sum(sizes) <= most)


def test_solve_finds_the_one_winning_move() -> None:
    game = nim("2-3-4")  # nim-sum 5: only taking 3 from the 4-heap wins
    solved = reference.solve(game, game.initial_state())
    assert solved.best_moves == ((2, 3),)
    assert solved.score.outcome == 1
    assert game.ordered_actions(game.initial_state())[0] == (2, 3)


def test_rules() -> None:
    game = nim("1-2")
    start = game.initial_state()
    assert start == ((1, 2), 0) and game.to_move(start) == 0
    assert game.actions(start) == [(0, 1), (1, 1), (1, 2)]
    after = game.result(start, (1, 2))
    assert after == ((1, 0), 1) and not game.is_terminal(after)
    end = game.result(after, (0, 1))
    assert game.is_terminal(end) and game.actions(end) == []
    # Player 1 took the last object: player 0, to move, has lost.
    assert game.utility(end, 0) == -1 and game.utility(end, 1) == 1
    assert game.utility(start, 0) == 0


def test_hooks_match_brute_force() -> None:
    game = nim("3-0-2-4")
    for sizes in itertools.product(*(range(s + 1) for s in game.start)):
        state: State = (sizes, 0)
        moves = list(game.actions(state))
        wins = [m for m in moves if game.is_terminal(game.result(state, m))]
        assert game.winning_action(state) == (wins[0] if wins else None)

        def loses_at_once(after: State) -> bool:
            return not game.is_terminal(after) and any(
                game.is_terminal(game.result(after, reply)) for reply in game.actions(after)
            )

        safe = list(game.non_losing_actions(state))
        assert sorted(safe) == sorted(m for m in moves if not loses_at_once(game.result(state, m)))
        ordered = list(game.ordered_actions(state))
        assert sorted(ordered) == sorted(moves) and len(set(ordered)) == len(moves)
        zeroing = [m for m in moves if nim_sum(game.result(state, m)[0]) == 0]
        assert set(ordered[: len(zeroing)]) == set(zeroing)
        if not game.is_terminal(state):
            value = game.evaluate(state, 0)
            assert value == -game.evaluate(state, 1)
            assert (value > 0) == (nim_sum(sizes) != 0)


def test_move_notation() -> None:
    game = nim("3-0-5")
    start = game.initial_state()
    assert game.format_move((2, 4)) == "3:4"
    assert game.parse_move(start, " 3:4 ") == (2, 4)
    assert game.legal_moves_text(start).split()[:3] == ["1:1", "1:2", "1:3"]
    for bad, message in [
        ("", "cannot read move"),
        ("x", "cannot read move"),
        ("1", "expected HEAP:COUNT"),
        ("1:", "expected HEAP:COUNT"),
        (":1", "expected HEAP:COUNT"),
        ("1:-1", "expected HEAP:COUNT"),
        ("0:1", "there is no heap 0; expected a heap 1-3"),
        ("4:1", "there is no heap 4"),
        ("2:1", "heap 2 is empty"),
        ("1:0", "cannot take 0 from heap 1; expected a count 1-3"),
        ("1:4", "cannot take 4 from heap 1; expected a count 1-3"),
    ]:
        with pytest.raises(MoveError, match=message) as info:
            game.parse_move(start, bad)
        assert "\n" not in str(info.value) and "3-0-5" in str(info.value)
    over = nim("1").result(nim("1").initial_state(), (0, 1))
    with pytest.raises(MoveError, match="game is over"):
        nim("1").parse_move(over, "1:1")


def test_position_notation() -> None:
    game = nim()
    start = game.initial_state()
    assert game.format_position(start) == "3-4-5 first"
    assert game.parse_position("3-4-5") == start
    assert game.parse_position(" 1-4-5  Second ") == ((1, 4, 5), 1)
    assert game.parse_position("1-4-5 first") == ((1, 4, 5), 0)  # 2 moves or 1
    assert game.parse_position("2-4-5 second") == ((2, 4, 5), 1)
    assert game.parse_position("2-3-5 first") == ((2, 3, 5), 0)
    assert "second to move" in game.render(((0, 4, 5), 1))
    for bad, message in [
        ("", "cannot read position"),
        ("3-4", "expected 3 heap sizes"),
        ("3-4-5-6", "expected 3 heap sizes"),
        ("3-x-5", "expected 3 heap sizes"),
        ("3-4-5 third", "expected 3 heap sizes"),
        ("3-4-5 first now", "expected 3 heap sizes"),
        ("3-4-6", "larger than at the start"),
        ("3-4-5 second", "cannot be reached with second to move; expected first"),
        ("2-4-5 first", "cannot be reached with first to move; expected second"),
        ("2-3-5 second", "expected first"),
    ]:
        with pytest.raises(PositionError, match=message):
            game.parse_position(bad)


def test_heaps_parameter_is_checked() -> None:
    assert nim().spec() == "nim(heaps=3-4-5)"
    assert zerosum.load("nim(heaps=03-0-7)").spec() == "nim(heaps=3-0-7)"
    assert zerosum.load("nim").spec() == "nim(heaps=3-4-5)"
    for spec, message in [
        ("nim(heaps=)", "cannot read heaps"),
        ("nim(heaps=3--4)", "cannot read heaps"),
        ("nim(heaps=3-x)", "cannot read heaps"),
        ("nim(heaps=101)", "out of range"),
        ("nim(heaps=" + "-".join(["1"] * 17) + ")", "out of range"),
        ("nim(heaps=0-0)", "no objects"),
    ]:
        with pytest.raises(ZerosumError, match=message):
            zerosum.load(spec)
    with pytest.raises(ZerosumError, match="cannot read heaps"):
        Nim("3,4")


def test_static_bound_is_the_nim_sum_rule_and_holds() -> None:
    """Every position of up to three heaps of up to four objects: the static
    decision's side equals the reference search's, and the game ends within
    the plies it claims; and a weak solve of a game far too deep to search
    (ten heaps of a hundred) is decided at once."""
    from zerosum.search.solver import solve

    for heaps in itertools.product(range(5), repeat=3):
        if not sum(heaps):
            continue
        game = Nim("-".join(str(h) for h in heaps))
        state = game.initial_state()
        claim = game.static_bound(state)
        raw, _ = reference.value(game, state)
        assert (claim > 0) == (raw > 0) and claim != 0
        assert WIN - abs(raw) <= abs(claim)
    big = zerosum.load("nim(heaps=100-100-100-100-100-100-100-100-100-100)")
    result = solve(big, big.initial_state(), weak=True, all_moves=False)
    assert result.score.outcome == -1  # nim-sum 0: the side to move loses


@pytest.mark.parametrize("heaps", ["3-4-5", "2-2", "1-2-3", "4-4-4-4"])
def test_a_strong_solve_shows_the_nim_sum_outcome_before_its_first_probe(heaps: str) -> None:
    """The solver's first report carries the root's static decision: the
    nim-sum's outcome, within as many plies as there are objects; the
    distance it then proves lies within those bounds."""
    from zerosum.search.solver import solve

    game = zerosum.load(f"nim(heaps={heaps})")
    state = game.initial_state()
    sizes = [int(h) for h in heaps.split("-")]
    reports: list[tuple[int | None, int | None]] = []
    result = solve(game, state, on_progress=lambda p: reports.append((p.lower, p.upper)))
    lower, upper = reports[0]
    assert lower is not None and upper is not None
    if nim_sum(tuple(sizes)):
        assert lower >= WIN - sum(sizes)
    else:
        assert upper <= -(WIN - sum(sizes))
    assert lower <= result.score.raw <= upper
