"""Books as JSON lines: one position per line, so that a book can be shared,
read and checked by others, and merged from several machines
(``docs/books.md`` describes the fields).

A store file keeps each position by the key of its symmetry class, not by
how it is reached; :func:`locate` finds the positions again by walking the
game from the start (breadth first, one position per symmetry class), which
is how a book's positions were found in the first place. Export writes each
position as the moves that reach it (and the game's position text when the
game reads one); import replays them by the rules and refuses a line that
does not hold (one message per bad line, the others imported).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..game import Game, ZerosumError, excerpt
from ..i18n import _
from ..registry import load
from ..search.proven import HIGHEST, LOWEST, SOURCES, Entry
from ..search.types import WIN, is_decisive
from ..store import GameIdentity, Record, Store, StoreError, key_text
from .positions import DEFAULT_MAX_POSITIONS, walk

#: Lines imported in one transaction.
BATCH = 500


@dataclass(frozen=True)
class Located:
    """A stored position found again: its ply (the fewest from the start),
    the moves that first reach it, the state."""

    ply: int
    moves: tuple[Any, ...]
    state: Any


def locate(
    game: Game[Any, Any], keys: Iterable[str], max_positions: int = DEFAULT_MAX_POSITIONS
) -> dict[str, Located]:
    """The positions whose symmetry-class keys (as the store writes them)
    are ``keys``, found by walking the game from the start until every one
    is found or ``max_positions`` positions were walked; a key not found
    (a position deeper than that, or one no game reaches) is left out."""
    wanted = set(keys)
    found: dict[str, Located] = {}
    if not wanted:
        return found
    for count, (ply, moves, state) in enumerate(walk(game)):
        if count >= max_positions:
            break
        text = key_text(game.canonical(state)[0]) if game.symmetry_count() > 1 else key_text(
            game.key(state)
        )
        if text in wanted:
            found[text] = Located(ply, moves, state)
            if len(found) == len(wanted):
                break
    return found


def has_position_text(game: Game[Any, Any]) -> bool:
    """Whether the game reads positions in its own notation."""
    return type(game).parse_position is not Game.parse_position


def line_object(
    game: Game[Any, Any], identity: GameIdentity, where: Located, entry: Entry
) -> dict[str, Any]:
    """One position's JSON object (see ``docs/books.md``): best moves in the
    frame of the position the moves reach."""
    obj: dict[str, Any] = {
        "game": identity.spec,
        "rules": identity.rules_version,
        "ply": where.ply,
        "moves": " ".join(game.format_move(m) for m in where.moves),
    }
    if has_position_text(game):
        obj["position"] = game.format_position(where.state)
    obj.update(
        {
            "lower": entry.lower,
            "upper": entry.upper,
            "result": entry.describe(),
            "best": [game.format_move(m) for m in entry.best_moves],
            "every_best": entry.every_best,
            "nodes": entry.nodes,
            "source": entry.source,
            "solved_at": entry.solved_at,
        }
    )
    return obj


@dataclass
class ExportReport:
    """What an export wrote, and the positions it could not place (by game
    spec: how many stored positions were not found from the start, and the
    games that could not be loaded)."""

    written: int = 0
    not_found: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def export_lines(
    store: Store, report: ExportReport, max_positions: int = DEFAULT_MAX_POSITIONS
) -> Iterator[str]:
    """Every position of every game in ``store`` as a JSON line, by game and
    then breadth first from the start. A game that cannot be loaded here
    (a user's game not imported, another rules version) and positions not
    found from the start go to ``report`` instead."""
    for identity in store.games():
        try:
            game = load(identity.spec)
        except ZerosumError as error:
            report.problems.append(
                _("{game}: not exported: {error}").format(game=identity.spec, error=error)
            )
            continue
        if getattr(game, "rules_version", 1) != identity.rules_version:
            report.problems.append(
                _(
                    "{game}: not exported: its positions are for rules version {theirs},"
                    " and this zerosum's rules are version {ours}"
                ).format(
                    game=identity.spec,
                    theirs=identity.rules_version,
                    ours=getattr(game, "rules_version", 1),
                )
            )
            continue
        keys = [record.key for record in store.entries(game)]
        places = locate(game, keys, max_positions)
        missing = len(keys) - len(places)
        if missing:
            report.not_found[identity.spec] = missing
        for where in sorted(places.values(), key=_walk_order(game)):
            entry = store.get(game, where.state)
            if entry is None:
                continue
            report.written += 1
            yield json.dumps(line_object(game, identity, where, entry), ensure_ascii=False)


def _walk_order(game: Game[Any, Any]) -> Any:
    order: dict[Any, int] = {}

    def key(where: Located) -> tuple[int, tuple[int, ...]]:
        index = []
        for m in where.moves:
            if m not in order:
                order[m] = len(order)
            index.append(order[m])
        return where.ply, tuple(index)

    return key


# -- import ---------------------------------------------------------------------
class BadLine(ZerosumError):
    """A line that cannot be imported: what is wrong and what is expected."""


@dataclass
class ImportReport:
    """What an import did: lines read, positions written (a position the
    book already knew as well is not), bad lines (number, reason)."""

    read: int = 0
    accepted: int = 0
    written: int = 0
    bad: list[tuple[int, str]] = field(default_factory=list)
    games: set[str] = field(default_factory=set)


def _whole(obj: dict[str, Any], name: str, default: int | None = None) -> int:
    value = obj.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadLine(
            _("{field} must be a whole number, got {value}").format(
                field=name, value=excerpt(json.dumps(value), 20)
            )
        )
    return value


def read_line(text: str, games: dict[str, Game[Any, Any]]) -> tuple[Game[Any, Any], Any, Entry]:
    """One line checked against the rules: the game (loaded once per spec
    into ``games``), the position (the moves replayed, the position text
    read and compared), the entry. Raises :class:`BadLine` or another
    :class:`ZerosumError` (one line) when it does not hold."""
    try:
        obj = json.loads(text)
    except ValueError:
        raise BadLine(_("not a JSON object; expected one position per line")) from None
    if not isinstance(obj, dict):
        raise BadLine(_("not a JSON object; expected one position per line"))
    spec = obj.get("game")
    if not isinstance(spec, str):
        raise BadLine(_("no game; expected a game spec such as \"connect4\""))
    game = games.get(spec)
    if game is None:
        game = load(spec)
        games[spec] = game
    ours = getattr(game, "rules_version", 1)
    rules = _whole(obj, "rules", 1)
    if rules != ours:
        raise BadLine(
            _(
                "the position is for rules version {theirs} of {game}, and this zerosum's"
                " rules are version {ours}"
            ).format(theirs=rules, game=game.spec(), ours=ours)
        )
    moves, position = obj.get("moves"), obj.get("position")
    if moves is None and position is None:
        raise BadLine(_("no position; expected \"moves\" from the start or a \"position\""))
    if moves is not None and not isinstance(moves, str):
        raise BadLine(_("\"moves\" must be a string of moves, e.g. \"3 3 2\""))
    if position is not None and not isinstance(position, str):
        raise BadLine(_("\"position\" must be a string in the game's notation"))
    if moves is not None:
        state = game.play_text(moves)
        if (
            position is not None
            and has_position_text(game)
            and game.parse_position(position) != state
        ):
            raise BadLine(_("\"position\" is not the position the moves reach"))
    else:
        assert position is not None
        state = game.parse_position(position)
    if game.is_terminal(state):
        raise BadLine(_("the game is over in this position; a book holds positions with a move"))
    lower, upper = _whole(obj, "lower"), _whole(obj, "upper")
    if not LOWEST <= lower <= upper <= HIGHEST:
        raise BadLine(
            _("the bounds must satisfy {low} <= lower <= upper <= {high}").format(
                low=LOWEST, high=HIGHEST
            )
        )
    left = game.plies_left(state)
    if lower == upper and is_decisive(lower) and left is not None and WIN - abs(lower) > left:
        raise BadLine(
            _("a result {plies} plies away, but the game ends within {left} plies").format(
                plies=WIN - abs(lower), left=left
            )
        )
    best = obj.get("best", [])
    if not isinstance(best, list) or not all(isinstance(m, str) for m in best):
        raise BadLine(_("\"best\" must be a list of moves in the game's notation"))
    best_moves = tuple(game.parse_move(state, m) for m in best)
    nodes = _whole(obj, "nodes", 0)
    if nodes < 0:
        raise BadLine(_("nodes must be 0 or more, got {n}").format(n=nodes))
    source = obj.get("source", "book")
    if source not in SOURCES:
        raise BadLine(
            _("source must be one of {names}, got {value}").format(
                names=", ".join(SOURCES), value=excerpt(json.dumps(source), 20)
            )
        )
    when = obj.get("solved_at", time.time())
    if isinstance(when, bool) or not isinstance(when, int | float) or not math.isfinite(when):
        raise BadLine(_("solved_at must be a time in seconds since 1970"))
    every_best = obj.get("every_best", True)
    if not isinstance(every_best, bool):
        raise BadLine(_("every_best must be true or false"))
    # The ply a book gives a position: the moves that reach it (an export
    # writes the fewest); a position given by its text alone has none.
    ply = None if moves is None else len(game.split_moves(moves))
    entry = Entry(lower, upper, best_moves, nodes, float(when), str(source), ply, every_best)
    return game, state, entry


def import_lines(
    lines: Iterable[tuple[int, str | None]], book_for: Callable[[Game[Any, Any]], Store]
) -> ImportReport:
    """Check each numbered line (None: not valid text) and merge the good
    ones into ``book_for(game)`` (the store's rule: never a worse answer
    for a better one), in batches; every bad line -- a book that refuses
    its game included -- is kept in the report with its reason, and the
    import goes on."""
    report = ImportReport()
    games: dict[str, Game[Any, Any]] = {}
    pending: dict[tuple[int, int], tuple[Store, Game[Any, Any], list[tuple[Any, Entry]]]] = {}

    def flush() -> None:
        for store, game, items in pending.values():
            report.written += store.put_many(game, items)
        pending.clear()

    for number, text in lines:
        if text is not None and not text.strip():
            continue
        report.read += 1
        try:
            if text is None:
                raise BadLine(_("the line is not valid UTF-8 text"))
            game, state, entry = read_line(text, games)
            store = book_for(game)
        except StoreError:
            raise  # the book itself cannot be used: no line can be imported
        except ZerosumError as error:
            report.bad.append((number, str(error)))
            continue
        report.accepted += 1
        report.games.add(game.spec())
        slot = pending.setdefault((id(store), id(game)), (store, game, []))
        slot[2].append((state, entry))
        if sum(len(v[2]) for v in pending.values()) >= BATCH:
            flush()
    flush()
    return report


def records_by_ply(
    store: Store, game: Game[Any, Any], max_positions: int = DEFAULT_MAX_POSITIONS
) -> tuple[list[Record], dict[str, Located]]:
    """``game``'s records in ``store`` and where each was found from the start."""
    records = list(store.entries(game))
    return records, locate(game, (r.key for r in records), max_positions)
