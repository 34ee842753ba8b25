"""``zerosum match`` (two players, many games, Elo) and ``zerosum replay``
(a recorded game, move by move)."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import i18n
from ..game import ZerosumError
from ..i18n import _
from ..play.elo import SPRT, Tally
from ..play.players import parse_player
from ..play.runner import MatchSetup, play_games
from ..registry import load
from .parser import UsageError
from .render import pad


def _openings(text: str | None) -> int:
    if text is None:
        return 0
    kind, _sep, count = text.partition(":")
    if kind != "random" or not count.isdigit():
        raise UsageError(
            _("cannot read --openings {text!r}; expected random:K (K random moves)").format(
                text=text[:40]
            )
        )
    return int(count)


def _elo_text(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}"


def _json_number(value: float) -> float | None:
    return None if math.isinf(value) or math.isnan(value) else round(value, 2)


def cmd_match(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    game = load(args.game)
    specs = (parse_player(args.player_a), parse_player(args.player_b))
    if args.games < 1:
        raise UsageError(_("--games must be at least 1, got {n}").format(n=args.games))
    if args.jobs < 1:
        raise UsageError(_("--jobs must be at least 1, got {n}").format(n=args.jobs))
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
    verdict: str | None = None
    started = time.perf_counter()
    try:
        record = path.open("w", encoding="utf-8")
    except OSError as error:
        raise ZerosumError(
            _("cannot write the record {path}: {error}").format(path=path, error=error.strerror)
        ) from None
    with record:
        header = {
            "type": "match",
            "game": setup.game,
            "a": setup.players[0],
            "b": setup.players[1],
            "games": setup.games,
            "seed": setup.seed,
            "openings": setup.openings,
            "max_plies": setup.max_plies,
        }
        record.write(json.dumps(header) + "\n")
        games = play_games(setup, args.jobs)
        try:
            for entry in games:
                record.write(json.dumps(entry, ensure_ascii=False) + "\n")
                record.flush()
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
        finally:
            games.close()
            if show:
                sys.stderr.write("\r\033[K")
                sys.stderr.flush()
    elapsed = time.perf_counter() - started
    low, high = tally.interval()
    if args.json:
        obj: dict[str, Any] = {
            "type": "match",
            "game": setup.game,
            "a": setup.players[0],
            "b": setup.players[1],
            "games": tally.games,
            "wins": tally.wins,
            "draws": tally.draws,
            "losses": tally.losses,
            "a_first": _tally_json(sides[True]),
            "a_second": _tally_json(sides[False]),
            "score": round(tally.score, 4),
            "elo": _json_number(tally.elo()),
            "elo_low": _json_number(low),
            "elo_high": _json_number(high),
            "failures": failures,
            "record": str(path),
            "seed": setup.seed,
            "time_s": round(elapsed, 3),
        }
        if sprt is not None:
            obj["sprt"] = {
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "alpha": sprt.alpha,
                "beta": sprt.beta,
                "llr": round(sprt.llr(tally), 4),
                "bounds": [round(b, 4) for b in sprt.bounds()],
                "verdict": verdict,
            }
        out(json.dumps(obj, ensure_ascii=False))
        return 0
    _print_table(setup, tally, sides, out)
    out(
        # xgettext: no-python-format
        _("Elo difference (A - B): {elo} (95% interval {low} to {high})").format(
            elo=_elo_text(tally.elo()), low=_elo_text(low), high=_elo_text(high)
        )
    )
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
    return 0


def _tally_json(tally: Tally) -> dict[str, int]:
    return {"wins": tally.wins, "draws": tally.draws, "losses": tally.losses}


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


# -- replay ---------------------------------------------------------------------------
def read_records(path: str) -> list[dict[str, Any]]:
    """The ``game`` records of a match file (one JSON object per line)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ZerosumError(
            _("cannot read {path}: {error}").format(path=path, error=error.strerror)
        ) from None
    games = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            raise ZerosumError(
                _("{path} line {number} is not a JSON record").format(path=path, number=number)
            ) from None
        if isinstance(obj, dict) and obj.get("type") == "game":
            games.append(obj)
    return games


def cmd_replay(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    games = read_records(args.file)
    if not games:
        raise ZerosumError(_("{path} holds no game records").format(path=args.file))
    chosen = [g for g in games if g.get("number") == args.game]
    if not chosen:
        raise UsageError(
            _("no game {k} in {path}; expected a number from 1 to {n}").format(
                k=args.game, path=args.file, n=len(games)
            )
        )
    entry = chosen[0]
    try:
        game = load(str(entry["game"]))
        state = game.parse_position(str(entry["start"]))
        moves = [str(m) for m in entry["moves"]]
    except (KeyError, TypeError):
        raise ZerosumError(
            _("game {k} of {path} is not a complete record").format(k=args.game, path=args.file)
        ) from None
    first, second = entry.get("players", ["?", "?"])
    out(
        _("Game {k}: {first_name} {first} against {second_name} {second}").format(
            k=args.game,
            first_name=game.player_name(0),
            first=first,
            second_name=game.player_name(1),
            second=second,
        )
    )
    opening = " ".join(entry.get("opening", []))
    if opening:
        out(_("Opening: {moves}").format(moves=opening))
    if not args.final:
        out(game.render(state))
    for ply, text in enumerate(moves, 1):
        player = game.player_name(game.to_move(state))
        state = game.play([text], state)
        if not args.final:
            out("")
            out(_("{ply}. {player} plays {move}").format(ply=ply, player=player, move=text))
            out(game.render(state))
    if args.final:
        out(game.render(state))
    out("")
    out(
        _("Result: {result} ({reason}{detail})").format(
            result=entry.get("result", "?"),
            reason=entry.get("reason", "?"),
            detail=f": {entry['detail']}" if entry.get("detail") else "",
        )
    )
    record = " ".join([*entry.get("opening", []), *moves])
    out(_("Record (paste into the browser): {record}").format(record=record))
    return 0
