"""The solve by independent jobs (``solve --split K``, issue 19 items 2, 3
and 5): it equals a direct solve, cuts what a weak proof does not need,
resumes from the store after SIGKILL without redoing a finished job,
survives a worker killed in the middle of a job, and two runs of different
games share one store.

Every verdict is about values, moves and job counts, never about time: the
runs that must stop at a known point wait at a gate (``tests/book_gate_game.py``)
until the test has done what it needs there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

import zerosum
from zerosum.distributed import SplitTree, split_solve
from zerosum.search.front import Searcher, SearchOptions
from zerosum.store import Store

GATE_GAME = str(Path(__file__).resolve().parent / "book_gate_game.py")
#: Seconds to wait for a run to reach a gate (a hang guard, not a measure).
PATIENCE = 600.0


def _direct(spec: str, moves: str = "", weak: bool = False) -> Any:
    game = zerosum.load(spec)
    searcher = Searcher(game, SearchOptions(use_store=False, use_book=False))
    return searcher.solve(game.play_text(moves), weak=weak)


CASES = [
    ("tictactoe", 2, "python"),
    ("domineering(rows=4,cols=4)", 2, "python"),
    ("domineering(rows=5,cols=5)", 1, "auto"),
    ("connect4(width=4,height=4)", 3, "python"),
    ("connect4(width=5,height=4)", 2, "auto"),
]


@pytest.mark.parametrize(("spec", "plies", "backend"), CASES)
@pytest.mark.parametrize("weak", [False, True])
def test_a_split_solve_equals_a_direct_solve(
    spec: str, plies: int, backend: str, weak: bool, tmp_path: Path
) -> None:
    game = zerosum.load(spec)
    state = game.initial_state()
    with Store.open(tmp_path / "s.sqlite") as store:
        report = split_solve(game, state, plies, store, weak=weak, workers=2, backend=backend)
    direct = _direct(spec, weak=weak)
    result = report.result
    assert result is not None and not report.stopped
    assert result.score.outcome == direct.score.outcome
    if not weak:
        assert result.score.raw == direct.score.raw  # the distance too
        assert set(result.best_moves) == set(direct.best_moves)
    else:
        # A weak proof names moves that keep the outcome, each checked here
        # by a direct solve of the position it leads to.
        for move in result.best_moves:
            after = _direct(spec, game.format_move(move), weak=True)
            assert after.score.outcome == -direct.score.outcome
    # The principal variation is legal from the position and starts with a best move.
    assert result.pv and result.pv[0] in result.best_moves
    line = state
    for move in result.pv:
        assert move in game.actions(line)
        line = game.result(line, move)
    assert report.progress.solved + report.progress.from_store <= report.progress.leaves


def test_a_weak_split_cuts_the_jobs_a_win_makes_useless(tmp_path: Path) -> None:
    """Domineering 4x4 at 2 plies: 27 jobs; once a first move is proven to
    win, the jobs under the other first moves are not run (one worker, so
    the order is the one alpha-beta would take)."""
    game = zerosum.load("domineering(rows=4,cols=4)")
    with Store.open(tmp_path / "s.sqlite") as store:
        report = split_solve(
            game, game.initial_state(), 2, store, weak=True, workers=1, backend="python"
        )
    progress = report.progress
    assert progress.leaves == len(SplitTree.expand(game, game.initial_state(), 2).leaves) == 27
    assert 0 < progress.solved < progress.leaves
    assert progress.spared == progress.leaves - progress.solved > 0
    assert report.result is not None and report.result.score.outcome == 1


def test_the_same_call_again_answers_from_the_store(tmp_path: Path) -> None:
    game = zerosum.load("connect4(width=4,height=4)")
    state = game.play_text("1")
    with Store.open(tmp_path / "s.sqlite") as store:
        first = split_solve(game, state, 2, store, workers=1, backend="python")
        again = split_solve(game, state, 2, store, workers=1, backend="python")
    assert first.progress.solved == first.progress.leaves > 0
    assert again.progress.solved == 0
    assert first.result is not None and again.result is not None
    assert again.result.score == first.result.score
    assert set(again.result.best_moves) == set(first.result.best_moves)
    # From a position other than the start (the jobs replay from it: a bug
    # replayed their moves from the start and stored wrong answers).
    direct = _direct("connect4(width=4,height=4)", "1")
    assert first.result.score.raw == direct.score.raw
    assert set(first.result.best_moves) == set(direct.best_moves)


def test_the_command_splits_from_the_moves_given(tmp_path: Path) -> None:
    spec = "domineering(rows=4,cols=4)"
    done = run_cli("solve", spec, "--moves", "b2", "--split", "2", "--workers", "1",
                   "--backend", "python", "--store", str(tmp_path / "s.sqlite"), "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    direct = _direct(spec, "b2")
    game = zerosum.load(spec)
    assert answer["score"] == direct.score.raw
    assert set(answer["best_moves"]) == {game.format_move(m) for m in direct.best_moves}


SPEC = "gatedconnect4(width=4,height=4)"
GATE = 6


def _command(store: Path) -> list[str]:
    return ["--import", GATE_GAME, "solve", SPEC, "--split", "3", "--workers", "2",
            "--backend", "python", "--store", str(store), "--json"]


def _rows(path: Path) -> int:
    if not path.exists():
        return 0
    with Store.open(path, readonly=True) as store:
        return store.count()


def test_a_split_solve_killed_with_sigkill_resumes_without_redoing_a_job(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    env = {**os.environ, "ZEROSUM_TEST_GATE_BOOK": str(store), "ZEROSUM_TEST_GATE_AT": str(GATE)}
    process = subprocess.Popen(
        [sys.executable, "-m", "zerosum", *_command(store)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    # Wait at the gate: every job started after GATE rows waits there.
    deadline = time.monotonic() + PATIENCE
    last = -1
    while True:
        assert time.monotonic() < deadline, "the run never reached the gate"
        assert process.poll() is None, process.communicate()
        count = _rows(store)
        if count >= GATE and count == last:
            break
        last = count
        time.sleep(1.0)
    process.send_signal(signal.SIGKILL)  # the driver only: its workers die with it
    process.wait()
    game = zerosum.load("connect4(width=4,height=4)")
    tree = SplitTree.expand(game, game.initial_state(), 3)
    with Store.open(store, readonly=True) as kept:  # the gated game's rows: same keys
        finished = len({record.key for record in kept.entries()} & set(tree.leaves))
    assert 0 < finished < len(tree.leaves)
    resumed = run_cli(*_command(store))
    assert resumed.returncode == 0, resumed.stderr
    answer = json.loads(resumed.stdout)
    split = answer["split"]
    assert split["jobs"] == len(tree.leaves)
    assert split["from_store"] == finished  # every finished job kept ...
    assert split["solved"] == len(tree.leaves) - finished  # ... and none run again
    direct = _direct("connect4(width=4,height=4)")
    assert answer["score"] == direct.score.raw
    assert set(answer["best_moves"]) == {game.format_move(m) for m in direct.best_moves}


def _kill_a_worker_script(cluster: str | None) -> str:
    """A driver (in its own process: the gated game stays out of the test
    process) whose jobs wait at a gate file; once two wait, it kills one
    worker in the middle of its job, opens the gate and prints the answer
    and the pool's counts as JSON."""
    return textwrap.dedent(
        f"""
        import json, os, signal, sys, time
        from pathlib import Path
        import zerosum
        from zerosum.distributed import split_solve
        from zerosum.book.workers import import_module_or_file
        from zerosum.store import Store

        gate_game, folder, store_path = sys.argv[1:4]
        os.environ["ZEROSUM_TEST_GATE_DRIVER"] = str(os.getpid())  # the gate is for workers
        import_module_or_file(gate_game)
        gate = Path(os.environ["ZEROSUM_TEST_GATE_FILE"])
        game = zerosum.load("gatedconnect4(width=4,height=4)")
        state = game.initial_state()
        gate.touch()
        killed = []

        def watch(progress):
            waiting = sorted(os.listdir(folder))
            if not killed and len(waiting) >= 2:
                os.kill(int(waiting[0]), signal.SIGKILL)
                killed.append(int(waiting[0]))
                gate.unlink()

        with Store.open(Path(store_path)) as store:
            report = split_solve(
                game, state, 2, store, workers=2, backend="python",
                imports=(gate_game,), on_progress=watch, cluster={cluster!r},
            )
        print(json.dumps({{
            "killed": killed, "score": report.result.score.raw,
            "best": sorted(game.format_move(m) for m in report.result.best_moves),
            "lost": report.lost_workers, "retried": report.retried,
            "solved": report.progress.solved, "jobs": report.progress.leaves,
        }}))
        """
    )


def run_kill_a_worker(tmp_path: Path, cluster: str | None = None) -> dict[str, Any]:
    folder = tmp_path / "waiting"
    folder.mkdir()
    env = {
        **os.environ,
        "ZEROSUM_TEST_GATE_FILE": str(tmp_path / "gate"),
        "ZEROSUM_TEST_GATE_PIDS": str(folder),
    }
    done = subprocess.run(
        [sys.executable, "-c", _kill_a_worker_script(cluster), GATE_GAME, str(folder),
         str(tmp_path / "s.sqlite")],
        env=env, capture_output=True, text=True, timeout=PATIENCE,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    direct = _direct("connect4(width=4,height=4)")
    game = zerosum.load("connect4(width=4,height=4)")
    assert answer["killed"]
    assert answer["score"] == direct.score.raw
    assert answer["best"] == sorted(game.format_move(m) for m in direct.best_moves)
    return answer


def test_a_worker_killed_in_the_middle_of_a_job_has_its_job_run_again(tmp_path: Path) -> None:
    answer = run_kill_a_worker(tmp_path)
    assert answer["lost"] == 1 and answer["retried"] == 1
    assert answer["solved"] == answer["jobs"]  # each job's result counted once


def test_two_runs_of_different_games_share_one_store(tmp_path: Path) -> None:
    store = tmp_path / "shared.sqlite"
    specs = ["connect4(width=4,height=4)", "domineering(rows=4,cols=4)"]
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "zerosum", "solve", spec, "--split", "2", "--workers", "1",
             "--backend", "python", "--store", str(store), "--json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for spec in specs
    ]
    for spec, run in zip(specs, runs, strict=True):
        out, err = run.communicate(timeout=PATIENCE)
        assert run.returncode == 0, err
        answer = json.loads(out)
        direct = _direct(spec)
        assert answer["score"] == direct.score.raw
        game = zerosum.load(spec)
        assert set(answer["best_moves"]) == {game.format_move(m) for m in direct.best_moves}
        again = json.loads(run_cli("solve", spec, "--split", "2", "--store", str(store),
                                   "--backend", "python", "--json").stdout)
        assert again["split"]["solved"] == 0 and again["score"] == direct.score.raw


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--no-store"], "expected a usable store"),
        (["--depth", "3"], "expected no --depth"),
        (["--batch"], "expected no --batch"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--cluster", "not an address"], "cannot read the cluster address"),
    ],
)
def test_bad_split_options_are_one_line(extra: list[str], expected: str, tmp_path: Path) -> None:
    done = run_cli("solve", "tictactoe", "--split", "1", "--store", str(tmp_path / "s.sqlite"),
                   *extra)
    assert done.returncode == 2
    assert expected in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_workers_without_split_is_one_line() -> None:
    done = run_cli("solve", "tictactoe", "--workers", "2")
    assert done.returncode == 2 and "--workers goes with --split" in done.stderr
