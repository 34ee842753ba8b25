"""``zerosum match``: two players, many games, Elo (``zerosum replay``, a
recorded game move by move, is :mod:`.replay`)."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from .. import i18n
from ..game import ZerosumError, excerpt
from ..i18n import _
from ..play.elo import SPRT, Tally, sweep_margin
from ..play.players import parse_player
from ..play.records import match_header, match_summary
from ..play.runner import MatchSetup, play_games
from ..registry import load
from .parser import UsageError
from .render import pad

#: Most games played at once (each a process).
MAX_JOBS = 256
#: Most random opening moves (an opening stops early where the game would end).
MAX_OPENING = 1000


def _openings(text: str | None) -> int:
    if text is None:
        return 0
    kind, _sep, count = text.partition(":")
    # ASCII digits only: isdigit() also takes "²", which int() refuses.
    if kind != "random" or not re.fullmatch(r"[0-9]{1,9}", count, re.ASCII):
        raise UsageError(
            _("cannot read --openings {text!r}; expected random:K (K random moves)").format(
                text=text[:40]
            )
        )
    if int(count) > MAX_OPENING:
        raise UsageError(
            _("--openings random:K takes at most {most} moves, got {n}").format(
                most=MAX_OPENING, n=int(count)
            )
        )
    return int(count)


def _open_record(path: Path, force: bool) -> TextIO:
    """The record file, new (an existing one is refused unless ``force``)."""
    try:
        return path.open("w" if force else "x", encoding="utf-8")
    except FileExistsError:
        raise UsageError(
            _("the record {path} exists already; expected a new file (or --force to overwrite)")
            .format(path=path)
        ) from None
    except OSError as error:
        raise ZerosumError(
            _("cannot write the record {path}: {error}").format(
                path=path, error=error.strerror or error
            )
        ) from None


def _write_failed(path: Path, error: OSError) -> ZerosumError:
    return ZerosumError(
        _("cannot write the record {path}: {error}").format(
            path=path, error=error.strerror or error
        )
    )


def _elo_text(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}"


def _play_and_record(
    setup: MatchSetup,
    jobs: int,
    record: TextIO,
    path: Path,
    sprt: SPRT | None,
    show: bool,
    tally: Tally,
    sides: dict[bool, Tally],
    failures: list[str],
    interrupted: list[bool],
) -> tuple[Tally, str | None]:
    """Play the match, writing each game's record as it comes; the tally
    (``sides`` and ``failures`` filled in) and the SPRT's verdict. A write
    that fails (a full disk) is one line. Ctrl+C ends it with the games
    finished so far (``interrupted[0]`` set)."""

    def write(line: str) -> None:
        try:
            record.write(line + "\n")
            record.flush()
        except OSError as error:
            raise _write_failed(path, error) from None

    verdict: str | None = None
    write(json.dumps(match_header(setup)))
    games = play_games(setup, jobs)
    try:
        for entry in games:
            if interrupted[0]:
                break
            write(json.dumps(entry, ensure_ascii=False))
            tally = tally.add(entry["score_a"])
            sides[entry["a_first"]] = sides[entry["a_first"]].add(entry["score_a"])
            if entry["reason"] == "failure":
                failures.append(f"{entry['number']}: {entry['detail']}")
            if show:
                _progress_bar(tally, setup.games, sys.stderr)
            if sprt is not None:
                verdict = sprt.verdict(tally)
                if verdict is not None:
                    break
    except KeyboardInterrupt:
        # Ctrl+C: the games finished so far make the table (the game being
        # played is dropped; the record has every finished one).
        interrupted[0] = True
    finally:
        games.close()
        if show:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
    return tally, verdict


def cmd_match(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    game = load(args.game)
    specs = (parse_player(args.player_a), parse_player(args.player_b))
    if args.games < 1:
        raise UsageError(_("--games must be at least 1, got {n}").format(n=args.games))
    if not 1 <= args.jobs <= MAX_JOBS:
        raise UsageError(
            _("--jobs must be from 1 to {most}, got {n}").format(
                most=MAX_JOBS, n=excerpt(args.jobs)
            )
        )
    if args.max_plies is not None and args.max_plies < 1:
        raise UsageError(
            _("--max-plies must be at least 1, got {n}").format(n=excerpt(args.max_plies))
        )
    sprt = SPRT.parse(args.sprt) if args.sprt else None
    setup = MatchSetup(
        game=game.spec(),
        players=(specs[0].describe(), specs[1].describe()),
        games=args.games,
        seed=args.seed,
        openings=_openings(args.openings),
        max_plies=args.max_plies,
        imports=tuple(args.imports),
        lang=args.lang or i18n.language_from_environment(),
    )
    path = Path(args.record or time.strftime("match-%Y%m%d-%H%M%S.jsonl"))
    show = args.progress or sys.stderr.isatty()
    tally = Tally()
    sides = {True: Tally(), False: Tally()}  # A first / A second
    failures: list[str] = []
    interrupted = [False]
    started = time.perf_counter()
    record = _open_record(path, args.force)
    try:
        tally, verdict = _play_and_record(
            setup, args.jobs, record, path, sprt, show, tally, sides, failures, interrupted
        )
    finally:
        # What was written is flushed; a failed write said so already.
        with contextlib.suppress(OSError):
            record.close()
    elapsed = time.perf_counter() - started
    status = 130 if interrupted[0] else 0
    if interrupted[0]:
        print("", file=sys.stderr)  # end the line the terminal echoed ^C on
        print(
            _("Interrupted after {done} of {games} games; the table of the games played:").format(
                done=tally.games, games=setup.games
            ),
            file=sys.stderr,
        )
    if args.json:
        obj = match_summary(setup, tally, sides, failures, str(path), elapsed, sprt, verdict)
        out(json.dumps(obj, ensure_ascii=False))
        return status
    _print_table(setup, tally, sides, out)
    out(_elo_line(tally))
    if sprt is not None:
        lower, upper = sprt.bounds()
        state = {
            "H1": _("H1 accepted (A is stronger by about elo1)"),
            "H0": _("H0 accepted (A is not stronger by elo1)"),
            None: _("no decision yet"),
        }[verdict]
        out(
            _(
                "SPRT elo0={elo0:g} elo1={elo1:g} alpha={alpha:g} beta={beta:g}:"
                " LLR {llr:.3f} (bounds {lower:.3f}, {upper:.3f}): {state}"
            ).format(
                elo0=sprt.elo0,
                elo1=sprt.elo1,
                alpha=sprt.alpha,
                beta=sprt.beta,
                llr=sprt.llr(tally),
                lower=lower,
                upper=upper,
                state=state,
            )
        )
    for line in failures:
        out(_("Game {line}").format(line=line))
    out(
        _("{games} games in {time:.1f} s, recorded in {path} (zerosum replay {path} --game K)")
        .format(games=tally.games, time=elapsed, path=path)
    )
    return status


def _elo_line(tally: Tally) -> str:
    """The Elo difference and its 95% interval; for a clean sweep (where
    both are infinite) how much weaker the loser is at least."""
    if not tally.games:
        return _("No game was finished: no Elo difference to give.")
    if tally.games in (tally.wins, tally.losses):
        margin = sweep_margin(tally.games)
        if margin <= 0:
            # xgettext reads "95% c" as a printf conversion unless told (and a
            # message it flags so is left fuzzy, which msgfmt drops).
            won = _(
                # xgettext: no-python-format
                "A won every game, too few ({games}) to bound the Elo difference with"
                " 95% confidence"
            )
            lost = _(
                # xgettext: no-python-format
                "A lost every game, too few ({games}) to bound the Elo difference with"
                " 95% confidence"
            )
            short = won if tally.wins else lost
            return short.format(games=tally.games)
        text = (
            # xgettext: no-python-format
            _("A won every game: at least {elo} Elo stronger, with 95% confidence")
            if tally.wins
            # xgettext: no-python-format
            else _("A lost every game: at least {elo} Elo weaker, with 95% confidence")
        )
        return text.format(elo=f"{margin:,.0f}")
    low, high = tally.interval()
    # xgettext: no-python-format
    return _("Elo difference (A - B): {elo} (95% interval {low} to {high})").format(
        elo=_elo_text(tally.elo()), low=_elo_text(low), high=_elo_text(high)
    )


def _progress_bar(tally: Tally, total: int, stream: Any) -> None:
    width = 24
    filled = round(width * tally.games / total)
    text = _(
        "{done}/{total}  A +{wins} ={draws} -{losses}  score {score:.1%}  Elo {elo}"
    ).format(
        done=tally.games,
        total=total,
        wins=tally.wins,
        draws=tally.draws,
        losses=tally.losses,
        score=tally.score,
        elo=_elo_text(tally.elo()),
    )
    stream.write(f"\r\033[K[{'#' * filled}{'.' * (width - filled)}] {text}")
    stream.flush()


def _print_table(
    setup: MatchSetup, tally: Tally, sides: dict[bool, Tally], out: Callable[[str], None]
) -> None:
    out(
        _("Match on {game}: A = {a}, B = {b}").format(
            game=setup.game, a=setup.players[0], b=setup.players[1]
        )
    )
    head = ("", _("games"), _("wins"), _("draws"), _("losses"), _("score"))
    rows = [
        (_("A moving first"), sides[True]),
        (_("A moving second"), sides[False]),
        (_("total"), tally),
    ]
    out(
        f"  {pad(head[0], 18)}"
        + "".join(pad(h, 8, right=True) for h in head[1:])
    )
    for label, t in rows:
        score = f"{t.score:.1%}" if t.games else "-"
        out(
            f"  {pad(label, 18)}{t.games:>8}{t.wins:>8}{t.draws:>8}{t.losses:>8}"
            f"{pad(score, 8, right=True)}"
        )
    out(
        _("Player A scored {points:g} of {games} ({score:.1%}).").format(
            points=tally.points, games=tally.games, score=tally.score
        )
    )
