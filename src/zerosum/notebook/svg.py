"""A position drawn as a static SVG for notebooks: the browser's board
(``web/static/board.js``) with the same geometry (100 units a cell, the
frame, the labels) and the colours of ``web/static/style.css``, written
out inline because a notebook's output runs no script and loads no style
sheet.

It draws the JSON board of :func:`zerosum.report.board_object` (the one
the browser draws), so a Domineering tile takes its player's colour as on
the page.
"""

from __future__ import annotations

from html import escape
from typing import Any

S = 100  # one cell, as in board.js

#: The look of each theme (board.js's THEMES, style.css's colours).
THEMES = {
    "x": "marks",
    "o": "marks",
    "red": "c4",
    "yellow": "c4",
    "black": "othello",
    "white": "othello",
    "vertical": "domino",
    "horizontal": "domino",
}
FILL = {
    "marks": ("#fffdf7", "#fbf6e9", "#c9c2ae"),
    "c4": ("#1c5fd0", "#1c5fd0", "#1c5fd0"),
    "othello": ("#2f8a4e", "#2c8249", "#1c5c33"),
    "domino": ("#f4f1ea", "#ebe6da", "#c9c2ae"),
    "nim": ("#f5ecd9", "#f5ecd9", "#c9c2ae"),
    "plain": ("#fffdf7", "#fbf6e9", "#c9c2ae"),
}
PIECE = {
    "x": "#1f6feb",
    "o": "#e5484d",
    "red": "#e03131",
    "yellow": "#fcc419",
    "black": "#1e1f24",
    "white": "#f8f9fa",
    "vertical": "#3b82f6",
    "horizontal": "#f59f00",
}
EDGE = {
    "red": "#a61e1e",
    "yellow": "#d99e00",
    "black": "#000000",
    "white": "#adb5bd",
    "vertical": "#1d4ed8",
    "horizontal": "#c77700",
}
DEFAULT = ("#4c6ef5", "#f76707")


def theme_of(board: dict[str, Any]) -> str:
    for token in board.get("pieces", []):
        if token in THEMES:
            return THEMES[token]
    return "nim" if board.get("neutral") == "stone" else "plain"


def board_svg(
    board: dict[str, Any], last: list[tuple[int, int]] | None = None, size: int = 240
) -> str:
    """The SVG of ``board`` (a :func:`~zerosum.report.board_object`), the
    cells of ``last`` (the last move) highlighted; ``size`` is the drawn
    width in pixels of the widest side."""
    rows, cols = int(board["rows"]), int(board["cols"])
    row_labels, col_labels = board.get("row_labels") or [], board.get("col_labels") or []
    left, top = (44 if row_labels else 10), 10
    bottom = 44 if col_labels else 10
    width, height = left + cols * S + 10, top + rows * S + bottom
    theme = theme_of(board)
    light, dark, line = FILL[theme]
    scale = size / max(width, height)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="zerosum-board theme-{theme}"'
        f' viewBox="0 0 {width} {height}" width="{round(width * scale)}"'
        f' height="{round(height * scale)}" role="img">',
        f'<rect x="{left - 6}" y="{top - 6}" width="{cols * S + 12}" height="{rows * S + 12}"'
        f' rx="12" fill="{dark if theme in ("c4", "othello") else "#d8d2c0"}"/>',
    ]
    for r in range(rows):
        for c in range(cols):
            x, y = left + c * S, top + r * S
            fill = dark if (r + c) % 2 else light
            out.append(f'<rect x="{x}" y="{y}" width="{S}" height="{S}" fill="{fill}"/>')
            if theme == "c4":
                out.append(
                    f'<circle cx="{x + S / 2}" cy="{y + S / 2}" r="{S * 0.4}" fill="#eef2fb"/>'
                )
    if theme != "c4":
        for r in range(1, rows):
            y = top + r * S
            out.append(
                f'<line x1="{left}" x2="{left + cols * S}" y1="{y}" y2="{y}"'
                f' stroke="{line}" stroke-width="2"/>'
            )
        for c in range(1, cols):
            x = left + c * S
            out.append(
                f'<line y1="{top}" y2="{top + rows * S}" x1="{x}" x2="{x}"'
                f' stroke="{line}" stroke-width="2"/>'
            )
    text = (
        'font-family="system-ui, sans-serif" font-size="30" fill="#667085"'
        ' text-anchor="middle" dominant-baseline="middle"'
    )
    for r, label in enumerate(row_labels[:rows]):
        out.append(
            f'<text x="{left / 2 - 2}" y="{top + r * S + S / 2}" {text}>'
            f"{escape(str(label))}</text>"
        )
    for c, label in enumerate(col_labels[:cols]):
        out.append(
            f'<text x="{left + c * S + S / 2}" y="{top + rows * S + bottom / 2 + 2}" {text}>'
            f"{escape(str(label))}</text>"
        )
    for r, c in last or []:
        if 0 <= r < rows and 0 <= c < cols:
            out.append(
                f'<rect x="{left + c * S + 5}" y="{top + r * S + 5}"'
                f' width="{S - 10}" height="{S - 10}"'
                ' rx="12" fill="rgba(255,212,59,0.3)" stroke="#f08c00" stroke-width="4"/>'
            )
    pieces = list(board.get("pieces", []))
    cells = board["cells"]
    for r in range(rows):
        for c in range(cols):
            value = cells[r * cols + c]
            if value in (0, 1):
                out.append(_piece(left + c * S + S / 2, top + r * S + S / 2, value, pieces, theme))
            elif value == 2:
                out.append(
                    _neutral(
                        left + c * S + S / 2, top + r * S + S / 2, str(board.get("neutral", ""))
                    )
                )
    out.append("</svg>")
    return "".join(out)


def _piece(cx: float, cy: float, player: int, pieces: list[str], theme: str) -> str:
    token = pieces[player] if player < len(pieces) else ""
    colour = PIECE.get(token, DEFAULT[player])
    if theme == "marks":
        d = S * 0.26
        if token == "x":
            return (
                f'<g stroke="{colour}" stroke-width="12" stroke-linecap="round">'
                f'<line x1="{cx - d}" y1="{cy - d}" x2="{cx + d}" y2="{cy + d}"/>'
                f'<line x1="{cx - d}" y1="{cy + d}" x2="{cx + d}" y2="{cy - d}"/></g>'
            )
        return (
            f'<circle cx="{cx}" cy="{cy}" r="{S * 0.28}" fill="none"'
            f' stroke="{colour}" stroke-width="12"/>'
        )
    if theme == "domino":
        half = S * 0.44
        return (
            f'<rect x="{cx - half}" y="{cy - half}" width="{2 * half}" height="{2 * half}" rx="10"'
            f' fill="{colour}" stroke="{EDGE.get(token, colour)}" stroke-width="4"/>'
        )
    edge = EDGE.get(token, colour)
    return (
        f'<circle cx="{cx}" cy="{cy}" r="{S * 0.4}" fill="{colour}"'
        f' stroke="{edge}" stroke-width="4"/>'
    )


def _neutral(cx: float, cy: float, neutral: str) -> str:
    if neutral == "stone":
        return (
            f'<circle cx="{cx}" cy="{cy}" r="{S * 0.3}" fill="#8d8f98"'
            ' stroke="#5c5f6a" stroke-width="4"/>'
        )
    half = S * 0.44
    return (
        f'<rect x="{cx - half}" y="{cy - half}" width="{2 * half}" height="{2 * half}" rx="10"'
        ' fill="#adb5bd"/>'
    )
