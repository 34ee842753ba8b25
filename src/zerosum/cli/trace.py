"""``zerosum trace``: the search tree, one line per position.

The tree is indented by ply, each line the move that led to the position,
whose turn it is (MAX: the side to move at the root), the alpha-beta window
it was searched with, the value it returned, and marks: a leaf (scored by
the rules, by the evaluation or, with the engine, by the game's hooks), a
cutoff with its reason and the moves it left unsearched, an engine node
settled by its table or by the mate-distance bounds. With ``--algorithm
engine`` the engine's iterative deepening is traced on the Python backend
(each root move's line says its iteration). ``--json`` prints the ``trace`` object of
``docs/messages.md``, ``--dot`` Graphviz. A tree too big to list is refused
with its size and a depth that fits.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from ..game import Game
from ..i18n import _
from ..registry import load
from ..report import trace_object
from ..search.trace import MAX_TRACE_NODES, Trace, TraceNode, trace
from ..search.types import INF, WIN, is_decisive
from .usage import UsageError

#: Most pruned moves a line of text lists (the JSON lists them all).
MAX_LISTED = 12


def add_parser(commands: Any, whole_number: Callable[[str], int]) -> None:
    """Add ``trace`` to the command line's subcommands."""
    p = commands.add_parser(
        "trace", help=_("show the minimax, alpha-beta or engine search tree, node by node")
    )
    p.add_argument("game", metavar="GAME", help=_("game spec, e.g. tictactoe"))
    p.add_argument("--moves", help=_('moves played from the start, e.g. "0 4 1"'))
    p.add_argument("--position", help=_("a position in the game's notation"))
    p.add_argument(
        "--algorithm",
        choices=("minimax", "alphabeta", "engine"),
        default="alphabeta",
        help=_(
            "minimax, alphabeta (default) or engine (its iterative deepening, always"
            " on the Python backend: the native one cannot be traced)"
        ),
    )
    p.add_argument("--depth", type=whole_number, help=_("depth limit in plies"))
    p.add_argument(
        "--evaluate-terminals",
        action="store_true",
        help=_(
            "with --depth: score finished positions with the evaluation too,"
            " as the tutorials' code does"
        ),
    )
    p.add_argument(
        "--every-move",
        action="store_true",
        help=_(
            "search every root move with a full window (as analyze does) instead of"
            " the tutorials' get_best_move (the engine: analyze instead of search)"
        ),
    )
    p.add_argument(
        "--top",
        type=whole_number,
        metavar="PLIES",
        help=_("list only the first PLIES plies (the whole tree is still searched and counted)"),
    )
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help=_("print one JSON object"))
    output.add_argument("--dot", action="store_true", help=_("print the tree for Graphviz"))


def cmd_trace(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    game = load(args.game)
    state = game.initial_state() if args.position is None else game.parse_position(args.position)
    if args.moves:
        state = game.play(game.split_moves(args.moves), state)
    if args.algorithm == "engine" and args.evaluate_terminals:
        raise UsageError(
            _("--evaluate-terminals is for minimax and alphabeta; the engine scores"
              " a finished game by the rules")
        )
    if args.top is not None and args.top < 0:
        raise UsageError(_("--top must be 0 or more, got {n}").format(n=args.top))
    run = trace(
        game,
        state,
        algorithm=args.algorithm,
        depth=args.depth,
        evaluate_terminals=args.evaluate_terminals,
        root_search="every" if args.every_move else "best",
        keep_depth=args.top,
        limit=MAX_TRACE_NODES,
    )
    if args.json:
        out(json.dumps(trace_object(run), ensure_ascii=False))
    elif args.dot:
        out(dot(run))
    else:
        for line in tree_lines(run):
            out(line)
    return 0


# -- text --------------------------------------------------------------------------
def value_text(value: int | None) -> str:
    """A value for MAX: ``W5`` MAX wins with the game ending at ply 5, ``L4``
    MAX loses at ply 4, else the number (0 a draw or an even evaluation)."""
    if value is None:
        return "?"
    if is_decisive(value):
        template = _("W{ply}") if value > 0 else _("L{ply}")
        return template.format(ply=WIN - abs(value))
    return str(value)


def bound_text(value: int | None) -> str:
    if value is None or value <= -INF:
        return "-∞"
    if value >= INF:
        return "+∞"
    return value_text(value)


def cutoff_text(node: TraceNode) -> str:
    """Why a node stopped early: ``β cutoff: 3 ≥ 2`` at MAX (the value
    reached beta: MIN above will never allow this position), ``α cutoff:
    1 ≤ 3`` at MIN (MAX above already has something better). An engine node
    names the bound as its table or mate-distance bounds had narrowed it."""
    bound = node.bound
    entry = node.beta if node.maximizing else node.alpha
    if node.maximizing:
        text = _("β cutoff: {value} ≥ {bound}").format(
            value=value_text(node.value), bound=bound_text(bound)
        )
    else:
        text = _("α cutoff: {value} ≤ {bound}").format(
            value=value_text(node.value), bound=bound_text(bound)
        )
    if bound != entry:  # the engine narrowed its window (table, mate-distance bounds)
        text += " " + _("(the window narrowed from {bound})").format(bound=bound_text(entry))
    return text


def node_line(run: Trace, node: TraceNode) -> str:
    game = run.game
    parent = None if node.parent is None else run.nodes[node.parent]
    mark = "*" if parent is not None and parent.best == node.id else " "
    move = _("(root)") if node.move is None else game.format_move(node.move)
    side = _("MAX") if node.maximizing else _("MIN")
    parts = [f"{'  ' * node.ply}{mark}{move}  {side}"]
    if node.iteration is not None and node.ply == 1:
        parts.append(_("(iteration {depth})").format(depth=node.iteration))
    if run.algorithm != "minimax":
        parts.append(f"[{bound_text(node.alpha)}, {bound_text(node.beta)}]")
    parts.append(f"= {value_text(node.value)}")
    if node.leaf == "terminal":
        parts.append(_("leaf (game over)"))
    elif node.leaf == "evaluation":
        parts.append(_("leaf (evaluation)"))
    elif node.reason == "win":
        move = "-" if node.best_move is None else game.format_move(node.best_move)
        parts.append(_("leaf (hook: {move} wins at once)").format(move=move))
    elif node.reason == "no-safe-move":
        parts.append(_("leaf (hook: every move loses at once)"))
    elif node.reason == "table":
        parts.append(_("settled by the table's stored value"))
    elif node.reason == "table-image":
        parts.append(_("settled by the table's value stored for a symmetric position"))
    elif node.reason == "bound":
        parts.append(_("settled by the mate-distance bounds"))
    if node.visits > 1:
        parts.append(_("(searched {n} times)").format(n=node.visits))
    if node.cut:
        text = cutoff_text(node)
        if node.pruned:
            moves = " ".join(game.format_move(m) for m in node.pruned[:MAX_LISTED])
            if len(node.pruned) > MAX_LISTED:
                moves += " " + _("… and {n} more").format(n=len(node.pruned) - MAX_LISTED)
            text += "; " + _("pruned: {moves}").format(moves=moves)
        parts.append(text)
    if node.children == [] and node.leaf is None and node.nodes > 1:
        parts.append(_("({nodes} positions below, not listed)").format(nodes=f"{node.nodes - 1:,}"))
    return "  ".join(parts)


def tree_lines(run: Trace) -> list[str]:
    """The whole text output: a heading, one line per node in visit order
    (which is also the tree's outline order), then the totals."""
    game = run.game
    mover = game.player_name(game.to_move(run.state))
    name = {
        "minimax": _("minimax"),
        "engine": _("the engine (Python backend, iterative deepening)"),
    }.get(run.algorithm, _("alpha-beta pruning"))
    depth = _("to the end") if run.depth is None else _("depth {n}").format(n=run.depth)
    lines = [
        _("{algorithm}, {depth}: {game}, {player} to move (MAX).").format(
            algorithm=name, depth=depth, game=game.spec(), player=mover
        ),
        _(
            "Values are for {player} (W5: {player} wins at ply 5, L4: loses at ply 4);"
            " * marks each position's best move."
        ).format(player=mover),
        "",
    ]
    lines.extend(node_line(run, node) for node in run.nodes)
    best = "-" if run.best_move is None else game.format_move(run.best_move)
    lines.append("")
    lines.append(
        _("Best move {move}, value {value}.").format(move=best, value=value_text(run.value))
    )
    lines.append(
        _("{nodes} positions, {leaves} leaves, {cutoffs} cut-offs, {shown} listed.").format(
            nodes=f"{run.visited:,}",
            leaves=f"{run.leaves:,}",
            cutoffs=f"{run.cutoffs:,}",
            shown=f"{len(run.nodes):,}",
        )
    )
    return lines


# -- Graphviz ----------------------------------------------------------------------
def _quote(text: str) -> str:
    """A DOT string; the ``\\n`` line breaks of our labels are kept."""
    return '"' + text.replace('"', '\\"') + '"'


def dot(run: Trace) -> str:
    """The tree for Graphviz (``dot -Tsvg``): MAX positions as boxes, MIN as
    ellipses, best moves in bold, leaves shaded, pruned moves dashed and grey."""
    game: Game[Any, Any] = run.game
    lines = [
        "digraph trace {",
        '  node [fontname="Helvetica" fontsize=10];',
        '  edge [fontname="Helvetica" fontsize=9];',
    ]
    for node in run.nodes:
        label = value_text(node.value)
        if run.algorithm != "minimax":
            label += f"\\n[{bound_text(node.alpha)}, {bound_text(node.beta)}]"
        shape = "box" if node.maximizing else "ellipse"
        style = ', style=filled, fillcolor="#eeeeee"' if node.leaf else ""
        lines.append(f"  n{node.id} [label={_quote(label)}, shape={shape}{style}];")
        if node.parent is not None:
            parent = run.nodes[node.parent]
            bold = ", penwidth=2.5" if parent.best == node.id else ""
            label = _quote(game.format_move(node.move))
            lines.append(f"  n{node.parent} -> n{node.id} [label={label}{bold}];")
        for index, move in enumerate(node.pruned):
            name = f"p{node.id}_{index}"
            lines.append(f'  {name} [label="", shape=point, color=grey];')
            lines.append(
                f"  n{node.id} -> {name} [label={_quote(game.format_move(move))},"
                " style=dashed, color=grey, fontcolor=grey];"
            )
    lines.append("}")
    return "\n".join(lines)
