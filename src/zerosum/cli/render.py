"""What the command line prints: scores in words, tables padded for Chinese
characters, the board and moves of a game being played, and live progress."""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Callable
from typing import Any, TextIO

from ..game import Cell, Game, Player
from ..i18n import _
from ..play.agents import Agent, Decision, EngineAgent
from ..report import json_line, plies_of, progress_object
from ..search.engine import Progress
from ..search.types import Score, SearchResult


# -- words a player reads ------------------------------------------------------
def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded to ``width`` terminal columns (a Chinese character
    takes two), so tables line up in both languages."""
    columns = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    space = " " * max(0, width - columns)
    return space + text if right else text + space


def algorithm_name(algorithm: str) -> str:
    return {
        "minimax": _("minimax search"),
        "alphabeta": _("alpha-beta pruning"),
        "engine": _("the engine (iterative deepening, alpha-beta, transposition table)"),
        "solver": _("the solver (null-window probes, transposition table)"),
        "mcts": _("Monte Carlo tree search (UCT, MCTS-Solver)"),
    }.get(algorithm, algorithm)


def describe_value(value: int | None) -> str:
    return {1: _("win"), 0: _("draw"), -1: _("loss")}.get(value if value is not None else 9, "?")


class TerminalObserver:
    """Shows the board after every move and what each side played. Whose
    turn it is is said once: by the human's prompt, or by the AI's move (and
    its live line while it thinks)."""

    def __init__(self, out: Callable[[str], None], sides: tuple[Agent, Agent]) -> None:
        self.out = out
        self.sides = sides
        #: The moves played so far (the record, should the game be interrupted).
        self.moves: list[Any] = []
        #: Who placed the piece on each cell the moves marked.
        self.owners: dict[Cell, Player] = {}
        #: Each move's cells and mover, to rebuild ``owners`` after an undo.
        self.placed: list[tuple[tuple[Cell, ...], Player]] = []

    def position(self, game: Game[Any, Any], state: Any) -> None:
        self.out("")
        self.out(game.render_played(state, self.owners))

    def undone(self, game: Game[Any, Any], plies: int) -> None:
        if not plies:
            self.out(_("Nothing to take back: you have not moved yet."))
            return
        del self.moves[-plies:], self.placed[-plies:]
        self.owners = {cell: who for cells, who in self.placed for cell in cells}
        if plies == 1:
            self.out(_("Took back 1 move."))
        else:
            self.out(_("Took back {plies} moves.").format(plies=plies))

    def moved(self, game: Game[Any, Any], state: Any, player: Player, decision: Decision) -> None:
        self.moves.append(decision.move)
        cells = tuple(game.move_cells(state, decision.move))
        self.placed.append((cells, player))
        for cell in cells:
            self.owners[cell] = player
        name, move = game.player_name(player), game.format_move(decision.move)
        scored = decision.search.moves if decision.search is not None else ()
        if len(scored) > 1 and scored[0].visits is None:
            # The tutorials' list: every candidate with its score, for the mover.
            self.out(
                _("{player}'s moves and scores: {scores}").format(
                    player=name,
                    scores=", ".join(
                        f"{game.format_move(line.move)} {line.score.describe(mark_heuristic=False)}"
                        for line in scored
                    ),
                )
            )
        if decision.from_book:
            self.out(
                _("{player} plays {move} (from the opening table)").format(player=name, move=move)
            )
        elif decision.search is not None and decision.search.moves[:1] and (
            decision.search.moves[0].visits is not None
        ):
            search = decision.search
            best = search.moves[0]
            value = (
                search.score.describe()
                if search.score.exact
                else _("win rate {rate:.1%}").format(rate=best.win_rate or 0.0)
            )
            self.out(
                _("{player} plays {move}: {value}, {iterations} iterations").format(
                    player=name,
                    move=move,
                    value=value,
                    iterations=f"{search.stats.nodes:,}",
                )
            )
        elif decision.search is not None and decision.search.source != "search":
            search = decision.search
            said = _("{player} plays {move}; for {player}: {known}")
            self.out(
                said.format(player=name, move=move, known=source_words(search))
            )
        elif decision.search is not None:
            search = decision.search
            # The score is from the mover's side: say so.
            said = _("{player} plays {move}; for {player}: {score}; {nodes} positions searched")
            self.out(
                said.format(
                    player=name,
                    move=move,
                    score=search.score.describe(),
                    nodes=f"{search.stats.nodes:,}",
                )
            )
        else:
            self.out(_("{player} plays {move}").format(player=name, move=move))


class ThinkingAgent:
    """An AI side that shows, on one line rewritten in place, what its search
    has found so far (depth, best move, positions) while it thinks, and
    clears the line when it moves."""

    def __init__(self, agent: EngineAgent, stream: TextIO) -> None:
        self.agent = agent
        self.label = agent.label
        self.stream = stream

    def choose(self, game: Game[Any, Any], state: Any) -> Decision:
        name = game.player_name(game.to_move(state))
        shown = False

        def show(progress: Progress[Any]) -> None:
            nonlocal shown
            best = "-" if progress.best_move is None else game.format_move(progress.best_move)
            line = _(
                "{player} ({who}) is thinking: depth {depth}, best so far {move}: {score},"
                " {nodes} positions"
            ).format(
                player=name,
                who=self.label,
                depth=progress.depth if progress.depth is not None else "-",
                move=best,
                score=progress.score.describe(),
                nodes=f"{progress.nodes:,}",
            )
            self.stream.write(f"\r\033[K{line}")
            self.stream.flush()
            shown = True

        try:
            return self.agent.choose(game, state, show)
        finally:
            if shown:
                self.stream.write("\r\033[K")
                self.stream.flush()

    def stop(self) -> None:
        self.agent.stop()


class ProgressView:
    """Shows a running search's progress records: as JSON lines (``--json``),
    or as one status line rewritten in place on a terminal."""

    def __init__(
        self, game: Game[Any, Any], state: Any, stream: TextIO, as_json: bool, live: bool
    ) -> None:
        self.game = game
        #: The position searched (for the move entries of analysis progress).
        self.state = state
        self.stream = stream
        self.as_json = as_json
        self.live = live
        self.shown = False

    def __call__(self, progress: Progress[Any]) -> None:
        game = self.game
        if self.as_json:
            record = progress_object(game, self.state, progress)
            print(json_line(record), file=self.stream, flush=True)
            return
        if not self.live:
            return
        if progress.moves and progress.moves[0].visits is not None:
            self._mcts_line(progress)
            return
        self.stream.write(f"\r\033[K{self.text(progress)}")
        self.stream.flush()
        self.shown = True

    def text(self, progress: Progress[Any]) -> str:
        """One progress record in words: the bounds proven (a solve) or the
        depth's score and line, then the counts."""
        game = self.game
        if progress.lower is not None and progress.upper is not None:
            head = _("value between {low} and {high}").format(
                low=Score(progress.lower, exact=True).describe(),
                high=Score(progress.upper, exact=True).describe(),
            )
        else:
            line = " ".join(game.format_move(m) for m in progress.pv[:8])
            head = _("depth {depth}: {score}, {line}").format(
                depth=progress.depth if progress.depth is not None else "∞",
                score=progress.score.describe(),
                line=line,
            )
        tail = _(
            "{nodes} positions, {nps} positions/s, {time:.1f} s, table hits {hits:.0%}"
        ).format(
            nodes=f"{progress.nodes:,}",
            nps=round(progress.nps),
            time=progress.time_s,
            hits=progress.tt_hit_rate,
        )
        return f"{head} | {tail}"

    def note(self, progress: Progress[Any]) -> None:
        """Write one record as a whole line, flushed, even when the stream is
        not a terminal (a solve's first proven bounds: a strong solve may run
        for ever after them)."""
        if self.shown:
            self.stream.write("\r\033[K")
        self.stream.write(self.text(progress) + "\n")
        self.stream.flush()
        self.shown = False

    def _mcts_line(self, progress: Progress[Any]) -> None:
        """Monte Carlo tree search's live line: iterations, playouts per
        second, the best move with its win rate, its line by visits."""
        best = progress.moves[0]
        line = " ".join(self.game.format_move(m) for m in progress.pv[:8])
        rate = best.win_rate if best.win_rate is not None else 0.0
        value = best.score.describe() if best.score.exact else f"{rate:.1%}"
        text = _(
            "{iterations} iterations, {pps} playouts/s, {time:.1f} s"
            " | best {move} ({value}), {line}"
        ).format(
            iterations=f"{progress.nodes:,}",
            pps=round(progress.nps),
            time=progress.time_s,
            move=self.game.format_move(best.move),
            value=value,
            line=line,
        )
        self.stream.write(f"\r\033[K{text}")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        """End the in-place line so that what follows starts on its own."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False



def progress_view(
    game: Game[Any, Any], state: Any, args: argparse.Namespace, stream: TextIO
) -> ProgressView | None:
    """The view of a search's progress that the options ask for, if any:
    none in --batch mode; JSON lines on stdout with --json; else a live line
    on a terminal (or with --progress)."""
    if args.batch:
        return None
    live = args.progress or stream.isatty()
    as_json = args.json and stream is sys.stdout
    return ProgressView(game, state, stream, as_json=as_json, live=live)


def print_analysis(
    game: Game[Any, Any],
    state: Any,
    result: SearchResult[Any],
    args: argparse.Namespace,
    out: Callable[[str], None],
) -> None:
    out(game.render(state))
    out(_("{player} to move.").format(player=game.player_name(game.to_move(state))))
    if result.moves and result.moves[0].visits is not None:
        print_mcts_analysis(game, result, out)
        return
    horizon = (
        _("to the end of the game")
        if result.depth is None
        else _("depth {depth}").format(depth=result.depth)
    )
    out(
        _("Analysis by {algorithm}, {horizon}:").format(
            algorithm=algorithm_name(args.algorithm), horizon=horizon
        )
    )
    head = (_("move"), _("score"), _("positions"), _("principal variation"))
    out(f"  {pad(head[0], 6)} {pad(head[1], 22)} {pad(head[2], 10, right=True)}  {head[3]}")
    for entry in result.moves:
        line = " ".join(game.format_move(m) for m in entry.pv)
        out(
            f"  {pad(game.format_move(entry.move), 6)} {pad(entry.score.describe(), 22)}"
            f" {entry.nodes:>10,}  {line}"
        )
    # Say what the column counts, so that it is not read as a share of the total.
    if sum(entry.nodes for entry in result.moves) + 1 == result.stats.nodes:
        out(_("A move's positions are those its own search visited; the total adds the root."))
    else:
        out(
            _(
                "A move's positions are those its search visited at the final depth; the"
                " total also counts earlier depths, the root and moves not listed."
            )
        )
    print_stats(result, out)


def print_mcts_analysis(
    game: Game[Any, Any], result: SearchResult[Any], out: Callable[[str], None]
) -> None:
    """Monte Carlo tree search's table: every root move with its visits, win
    rate, proven value (if any) and line by most visited children."""
    stats = result.stats
    out(
        _("Analysis by {algorithm}, {iterations} iterations:").format(
            algorithm=algorithm_name("mcts"), iterations=f"{stats.nodes:,}"
        )
    )
    head = (_("move"), _("visits"), _("win rate"), _("proven"), _("principal variation"))
    out(
        f"  {pad(head[0], 6)} {pad(head[1], 9, right=True)} {pad(head[2], 9, right=True)}"
        f"  {pad(head[3], 18)} {head[4]}"
    )
    for entry in result.moves:
        line = " ".join(game.format_move(m) for m in entry.pv)
        rate = f"{entry.win_rate:.1%}" if entry.win_rate is not None else "-"
        proven = entry.score.describe() if entry.score.exact else "-"
        out(
            f"  {pad(game.format_move(entry.move), 6)} {entry.visits or 0:>9} {rate:>9}"
            f"  {pad(proven, 18)} {line}"
        )
    out(
        _(
            "Iterations: {iterations}, playouts: {playouts}, time: {time:.3f} s"
            " ({rate} playouts/s)"
        ).format(
            iterations=f"{stats.nodes:,}",
            playouts=stats.leaves,
            time=stats.time_s,
            rate=round(stats.leaves / stats.time_s) if stats.time_s > 0 else 0,
        )
    )


def source_words(result: SearchResult[Any]) -> str:
    """Where a kept answer came from, with its value: ``from the opening
    book: win in 41 plies``, ``from the store: draw``."""
    if result.source == "book":
        return _("from the opening book: {value}").format(value=result.score.describe())
    return _("from the store: {value}").format(value=result.score.describe())


def print_stats(result: SearchResult[Any], out: Callable[[str], None]) -> None:
    stats = result.stats
    if result.source != "search":
        # Answered from kept results: say where from, instead of search counts.
        words = source_words(result)
        out(_("Answered {words} (no positions searched, {time:.3f} s).").format(
            words=words, time=stats.time_s
        ))
        return
    out(
        _(
            "Positions visited: {nodes}, leaves: {leaves}, cut-offs: {cutoffs}, time: {time:.3f} s"
        ).format(
            nodes=f"{stats.nodes:,}",
            leaves=f"{stats.leaves:,}",
            cutoffs=f"{stats.cutoffs:,}",
            time=stats.time_s,
        )
    )


def print_solution(
    game: Game[Any, Any],
    state: Any,
    result: SearchResult[Any],
    args: argparse.Namespace,
    out: Callable[[str], None],
) -> None:
    out(game.render(state))
    player = game.player_name(game.to_move(state))
    # A weak solve proves the outcome only, not its distance.
    plies = (
        None
        if args.weak or result.margin is not None
        else plies_of(game, state, result.score, result.pv)
    )
    value = (
        describe_value(result.score.outcome)
        if result.score.exact
        else result.score.describe()  # --depth that did not reach the end
    )
    if result.margin is not None:  # the exact margin (its line is not the shortest)
        template = _(
            "{player} to move: {value}, by a final margin of {margin:+d} with perfect play."
        )
        out(template.format(player=player, value=value, margin=result.margin))
    elif plies is None:
        out(_("{player} to move: {value}.").format(player=player, value=value))
    elif plies == 1:
        out(
            _("{player} to move: {value}; the game ends in 1 ply with perfect play.").format(
                player=player, value=value
            )
        )
    else:
        out(
            _(
                "{player} to move: {value}; the game ends in {plies} plies with perfect play."
            ).format(player=player, value=value, plies=plies)
        )
    moves = " ".join(game.format_move(m) for m in result.best_moves)
    if args.weak and not getattr(args, "all_moves", False):
        # One move proven to keep the outcome: proving every other one's can
        # cost many times the solve (Domineering 7x7: 13 times).
        out(_("A move that keeps this outcome: {move} (--all-moves lists every one)").format(
            move=moves
        ))
    elif not result.score.exact:
        # --depth that did not reach the end: the best at that depth, not proven.
        out(
            _("Best moves at depth {depth} (a heuristic score, not a solution): {moves}").format(
                depth=result.depth, moves=moves
            )
        )
    elif args.algorithm == "mcts":
        out(
            _(
                "Optimal moves that Monte Carlo tree search proved (it may not prove every"
                " one): {moves}"
            ).format(moves=moves)
        )
    else:
        out(_("Optimal moves: {moves}").format(moves=moves))
    line = " ".join(game.format_move(m) for m in result.pv)
    if plies is not None and 0 < len(result.pv) < plies:
        # The line is read back from the table, which may not hold it to the end.
        line = _("{line} (the first {shown} of {plies} plies)").format(
            line=line, shown=len(result.pv), plies=plies
        )
    out(_("Principal variation: {line}").format(line=line))
    solved_by = "solver" if args.algorithm == "engine" else args.algorithm
    if result.source == "search" and not result.score.exact:
        out(
            _("Searched by {algorithm} to depth {depth}; not solved.").format(
                algorithm=algorithm_name(args.algorithm), depth=result.depth
            )
        )
    elif result.source == "search":
        out(_("Solved by {algorithm}.").format(algorithm=algorithm_name(solved_by)))
    print_stats(result, out)

