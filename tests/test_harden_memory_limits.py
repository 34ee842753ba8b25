"""Issue 22.7: a table size is checked against what this process may use
(its resource limits, its cgroup), not half the machine's memory; a table
that does not fit is one line (the CLI exits 2; the engine says so in an
``info string`` and keeps answering)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

#: ``ulimit -v 4000000`` (KiB), as in the issue.
LIMIT = 4_000_000 * 1024


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": ""}
    return subprocess.run(
        [sys.executable, "-m", "zerosum", *args], input=stdin, capture_output=True, text=True,
        timeout=600, env=env, preexec_fn=limited,
    )  # fmt: skip


def test_a_table_beyond_the_process_limit_is_one_line() -> None:
    done = run("analyze", "connect4", "--depth", "4", "--hash", "5000")
    assert done.returncode == 2, done.stderr[-500:]
    assert done.stderr.startswith("zerosum: error: ") and len(done.stderr.splitlines()) == 1
    assert "5000 MB" in done.stderr and "this process may use" in done.stderr


def test_the_engine_refuses_such_a_table_and_goes_on() -> None:
    done = run(
        "engine", "tictactoe",
        stdin="ugi\nsetoption name Hash value 5000\nisready\nposition startpos\ngo depth 2\n"
        "isready\nquit\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-500:]
    lines = done.stdout.splitlines()
    assert any(line.startswith("info string") and "5000" in line for line in lines), lines
    assert lines.count("readyok") == 2 and any(line.startswith("bestmove") for line in lines)
    assert "Traceback" not in done.stderr


def test_the_usable_memory_follows_the_limits() -> None:
    from zerosum.search.tt import memory_bytes, usable_bytes

    assert 0 < usable_bytes() <= memory_bytes()
    code = (
        "import resource; from zerosum.search.tt import usable_bytes;"
        f"resource.setrlimit(resource.RLIMIT_AS, ({LIMIT}, {LIMIT}));"
        "print(usable_bytes())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert 0 < int(done.stdout) < LIMIT


if sys.platform != "linux":  # /proc and RLIMIT_AS as Linux has them
    pytest.skip("Linux only", allow_module_level=True)
