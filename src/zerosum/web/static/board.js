// The board, drawn as SVG from a `state` (docs/messages.md).
//
// Layers, bottom to top: background, grid, labels, last move, pieces, legal
// moves, hint, hover preview, score badges, and on top one transparent
// rect.cell[data-row][data-col] per grid cell that takes clicks and hovers
// (and carries a <title> naming the move a click would play).

import { t } from "./i18n.js";
import { badgeText, classify, scoreWords } from "./scores.js";

const NS = "http://www.w3.org/2000/svg";
const S = 100; // one cell, in SVG units
const CELL_SELECTOR = "rect.cell";
const DOTS_LIMIT = 60; // more legal moves than this: no dots

function el(tag, attrs, parent) {
  const node = document.createElementNS(NS, tag);
  if (attrs) {
    for (const key of Object.keys(attrs)) {
      const value = attrs[key];
      if (value !== null && value !== undefined && value !== false) node.setAttribute(key, String(value));
    }
  }
  if (parent) parent.appendChild(node);
  return node;
}

function isCell(cell) {
  return Array.isArray(cell) && cell.length >= 2 && Number.isInteger(cell[0]) && Number.isInteger(cell[1]);
}

/** The move's cells that are real [row, col] pairs. */
export function cellsOf(move) {
  return move && Array.isArray(move.cells) ? move.cells.filter(isCell) : [];
}

/** The legal move a click on (row, col) selects, or null: the move whose
 * first cell it is, else a move whose cells include it; on a `drop` board
 * the move in that column. */
export function resolveCell(state, row, col) {
  if (!state || !Array.isArray(state.legal)) return null;
  const moves = state.legal.filter((m) => m && cellsOf(m).length > 0);
  const board = state.board || {};
  if (board.drop) {
    return (
      moves.find((m) => cellsOf(m).some(([, c]) => c === col)) || null
    );
  }
  const first = moves.find((m) => {
    const [r, c] = cellsOf(m)[0];
    return r === row && c === col;
  });
  if (first) return first;
  return moves.find((m) => cellsOf(m).some(([r, c]) => r === row && c === col)) || null;
}

/** Rectangles covering `cells`: one when they fill their bounding box (a
 * domino, a run of stones), else one a cell. */
function boxes(cells) {
  if (!cells.length) return [];
  const rs = cells.map(([r]) => r);
  const cs = cells.map(([, c]) => c);
  const box = { r0: Math.min(...rs), r1: Math.max(...rs), c0: Math.min(...cs), c1: Math.max(...cs) };
  const unique = new Set(cells.map(([r, c]) => r + "," + c));
  if ((box.r1 - box.r0 + 1) * (box.c1 - box.c0 + 1) === unique.size) return [box];
  return cells.map(([r, c]) => ({ r0: r, r1: r, c0: c, c1: c }));
}

/** The grid value at (row, col): 0, 1, 2 or null. */
function cellValue(board, row, col) {
  const cells = board.cells;
  if (!Array.isArray(cells)) return null;
  if (Array.isArray(cells[0])) {
    const line = cells[row];
    return line && line[col] !== undefined ? line[col] : null;
  }
  const value = cells[row * board.cols + col];
  return value === undefined ? null : value;
}

const THEMES = {
  x: "marks",
  o: "marks",
  red: "c4",
  yellow: "c4",
  black: "othello",
  white: "othello",
  vertical: "domino",
  horizontal: "domino",
};

function themeOf(board) {
  const pieces = Array.isArray(board.pieces) ? board.pieces : [];
  for (const token of pieces) if (THEMES[token]) return THEMES[token];
  if (board.neutral === "stone") return "nim";
  return "plain";
}

function safeToken(token) {
  return String(token || "").replace(/[^a-z0-9_-]/gi, "") || "none";
}

export class BoardView {
  /**
   * @param {SVGSVGElement} svg
   * @param {{onCell: (row:number, col:number) => void}} handlers
   */
  constructor(svg, handlers) {
    this.svg = svg;
    this.handlers = handlers || {};
    this.view = null; // what was last drawn
    this.hover = null; // [row, col] under the pointer
    // The board is redrawn whenever a message arrives (analysis streams
    // many), which can replace the cell under a press between its pointerdown
    // and its pointerup; Chromium then fires no click at all. So a move is
    // made on pointerup (the cell under the pointer, else the pressed one),
    // never on click.
    this.pressed = null; // [row, col] of the current press
    const cellOf = (target) => {
      const cell = target && target.closest ? target.closest(CELL_SELECTOR) : null;
      return cell ? [Number(cell.dataset.row), Number(cell.dataset.col)] : null;
    };
    svg.addEventListener("pointerdown", (event) => {
      this.pressed = event.button === 0 ? cellOf(event.target) : null;
    });
    svg.addEventListener("pointerup", (event) => {
      const pressed = this.pressed;
      this.pressed = null;
      if (!pressed || event.button !== 0) return;
      const cell = cellOf(event.target) || pressed;
      if (this.handlers.onCell) this.handlers.onCell(cell[0], cell[1]);
    });
    svg.addEventListener("pointerover", (event) => {
      const cell = event.target.closest && event.target.closest(CELL_SELECTOR);
      if (!cell) return;
      this.setHover([Number(cell.dataset.row), Number(cell.dataset.col)]);
    });
    svg.addEventListener("pointerleave", () => this.setHover(null));
  }

  setHover(cell) {
    const same =
      (cell === null && this.hover === null) ||
      (cell && this.hover && cell[0] === this.hover[0] && cell[1] === this.hover[1]);
    if (same) return;
    this.hover = cell;
    this.drawPreview();
  }

  clear() {
    this.svg.replaceChildren();
    this.view = null;
  }

  /**
   * Draw `view.state` (whose board is not null).
   * view: {state, flipped, scores: Map(move -> {score, exact}), best, hint, canPlay}
   */
  render(view) {
    const state = view.state;
    const board = state.board;
    const rows = Math.max(0, board.rows | 0);
    const cols = Math.max(0, board.cols | 0);
    const rowLabels = Array.isArray(board.row_labels) && board.row_labels.length ? board.row_labels : null;
    const colLabels = Array.isArray(board.col_labels) && board.col_labels.length ? board.col_labels : null;
    const left = rowLabels ? 44 : 10;
    const top = 10;
    const right = 10;
    const bottom = colLabels ? 44 : 10;
    const width = left + cols * S + right;
    const height = top + rows * S + bottom;
    const flipped = Boolean(view.flipped);
    const theme = themeOf(board);
    const pieces = Array.isArray(board.pieces) ? board.pieces : [];

    const geo = {
      rows,
      cols,
      left,
      top,
      flipped,
      x: (col) => left + (flipped ? cols - 1 - col : col) * S,
      // a board whose stones fall (Connect Four) mirrors left-right: its
      // stones must still lie at the bottom
      y: (row) => top + (flipped && !board.drop ? rows - 1 - row : row) * S,
    };
    geo.cx = (col) => geo.x(col) + S / 2;
    geo.cy = (row) => geo.y(row) + S / 2;
    this.geo = geo;
    this.view = view;

    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    // the page sizes the board by its shape (the bar beside it stays close)
    svg.style.setProperty("--ratio", String(width / height));
    svg.setAttribute("class", `board theme-${theme}` + (flipped ? " flipped" : "") + (board.drop ? " drop" : ""));
    svg.dataset.rows = String(rows);
    svg.dataset.cols = String(cols);
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", t("Board"));

    // background and grid
    const bg = el("g", { class: "layer-bg" }, svg);
    el("rect", { class: "frame", x: left - 6, y: top - 6, width: cols * S + 12, height: rows * S + 12, rx: 12 }, bg);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const dark = (r + c) % 2 === 1;
        el("rect", { class: "sq" + (dark ? " sq-dark" : ""), x: geo.x(c), y: geo.y(r), width: S, height: S }, bg);
        if (theme === "c4") el("circle", { class: "hole", cx: geo.cx(c), cy: geo.cy(r), r: S * 0.4 }, bg);
      }
    }
    if (theme !== "c4") {
      const grid = el("g", { class: "grid" }, svg);
      for (let r = 1; r < rows; r++) {
        el("line", { class: "h", x1: left, x2: left + cols * S, y1: top + r * S, y2: top + r * S }, grid);
      }
      for (let c = 1; c < cols; c++) {
        el("line", { class: "v", y1: top, y2: top + rows * S, x1: left + c * S, x2: left + c * S }, grid);
      }
    }

    // labels
    if (rowLabels || colLabels) {
      const labels = el("g", { class: "labels" }, svg);
      if (rowLabels) {
        for (let r = 0; r < rows && r < rowLabels.length; r++) {
          const text = el("text", { x: left / 2 - 2, y: geo.cy(r), class: "label" }, labels);
          text.textContent = String(rowLabels[r]);
        }
      }
      if (colLabels) {
        for (let c = 0; c < cols && c < colLabels.length; c++) {
          const text = el("text", { x: geo.cx(c), y: top + rows * S + bottom / 2 + 2, class: "label" }, labels);
          text.textContent = String(colLabels[c]);
        }
      }
    }

    // the last move
    const history = Array.isArray(state.history) ? state.history : [];
    const ply = Number.isInteger(state.ply) ? state.ply : history.length;
    const last = ply > 0 ? history[ply - 1] : null;
    if (last && cellsOf(last).length) {
      const layer = el("g", { class: "layer-last" }, svg);
      const cells = cellsOf(last).filter(([r, c]) => r >= 0 && r < rows && c >= 0 && c < cols);
      for (const box of boxes(cells)) {
        const x = Math.min(geo.x(box.c0), geo.x(box.c1));
        const y = Math.min(geo.y(box.r0), geo.y(box.r1));
        const w = (box.c1 - box.c0 + 1) * S;
        const hgt = (box.r1 - box.r0 + 1) * S;
        el("rect", { class: "last", x: x + 5, y: y + 5, width: w - 10, height: hgt - 10, rx: 12 }, layer);
      }
    }

    // what changed since the last drawing, to animate: the stone just
    // played (it drops on a Connect Four board) and the discs it turned
    const motion = this.motion(state, rows, cols, last);

    // pieces
    const piecesLayer = el("g", { class: "layer-pieces" }, svg);
    const drawn = new Set();
    if (theme === "domino") this.drawDominoes(piecesLayer, board, history.slice(0, ply), pieces, drawn);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (drawn.has(r * cols + c)) continue;
        const value = cellValue(board, r, c);
        if (value === 0 || value === 1) {
          const key = r * cols + c;
          const cls = "piece" + (motion.fresh.has(key) ? " fresh" : "") + (motion.turned.has(key) ? " turned" : "");
          const piece = this.drawPiece(piecesLayer, r, c, value, pieces[value], theme, cls);
          // a dropped stone falls from above the board to its row
          if (motion.fresh.has(key) && board.drop) piece.style.setProperty("--fall", `${-(geo.y(r) - top + S)}px`);
        } else if (value === 2) {
          this.drawNeutral(piecesLayer, r, c, board.neutral);
        }
      }
    }

    // legal moves (a dot on each move's first cell, hidden under a score badge)
    const legal = Array.isArray(state.legal) ? state.legal : [];
    const scores = view.scores instanceof Map ? view.scores : new Map();
    const legalLayer = el("g", { class: "layer-legal" }, svg);
    const marked = new Set();
    // on a board where most cells are moves (gomoku's 225) the dots are
    // noise: the hover preview shows a move instead
    const dotted = legal.length <= DOTS_LIMIT ? legal : [];
    for (const move of dotted) {
      const cells = cellsOf(move);
      if (!cells.length) continue;
      const [r, c] = cells[0];
      const key = r * cols + c;
      if (marked.has(key) || r < 0 || r >= rows || c < 0 || c >= cols) continue;
      marked.add(key);
      const occupied = cellValue(board, r, c) !== null;
      const cls = "legal" + (occupied ? " legal-occupied" : "") + (scores.has(move.move) ? " under-score" : "");
      el("circle", { class: cls, cx: geo.cx(c), cy: geo.cy(r), r: occupied ? S * 0.42 : S * 0.07 }, legalLayer);
    }

    // the winning line(s) of a finished game (state.outcome.cells)
    const outcome = state.outcome && typeof state.outcome === "object" ? state.outcome : null;
    const winCells = outcome && Array.isArray(outcome.cells) ? outcome.cells.filter(isCell) : [];
    if (winCells.length) {
      const layer = el("g", { class: "layer-win" }, svg);
      for (const [r, c] of winCells) {
        if (r < 0 || r >= rows || c < 0 || c >= cols) continue;
        el("rect", { class: "win", x: geo.x(c) + 4, y: geo.y(r) + 4, width: S - 8, height: S - 8, rx: 16, "data-row": r, "data-col": c }, layer);
      }
    }

    // hint
    this.hintLayer = el("g", { class: "layer-hint" }, svg);
    const hintMove = view.hint ? legal.find((m) => m.move === view.hint) : null;
    if (hintMove && cellsOf(hintMove).length) {
      const cells = cellsOf(hintMove).filter(([r, c]) => r >= 0 && r < rows && c >= 0 && c < cols);
      for (const box of boxes(cells)) {
        const x = Math.min(geo.x(box.c0), geo.x(box.c1));
        const y = Math.min(geo.y(box.r0), geo.y(box.r1));
        const w = (box.c1 - box.c0 + 1) * S;
        const hgt = (box.r1 - box.r0 + 1) * S;
        el("rect", { class: "hint", x: x + 6, y: y + 6, width: w - 12, height: hgt - 12, rx: 14 }, this.hintLayer);
      }
    }

    // hover preview (filled by drawPreview)
    this.previewLayer = el("g", { class: "layer-preview" }, svg);

    // score badges
    const scoreLayer = el("g", { class: "layer-scores" }, svg);
    const badged = new Set();
    for (const move of legal) {
      const entry = scores.get(move.move);
      const cells = cellsOf(move);
      if (!entry || !cells.length) continue;
      const [r, c] = cells[0];
      const key = r * cols + c;
      if (badged.has(key) || r < 0 || r >= rows || c < 0 || c >= cols) continue;
      badged.add(key);
      this.drawBadge(scoreLayer, move.move, r, c, entry, view.best === move.move);
    }

    // the hit layer
    const hits = el("g", { class: "layer-hits" }, svg);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const rect = el(
          "rect",
          { class: "cell", x: geo.x(c), y: geo.y(r), width: S, height: S, "data-row": r, "data-col": c },
          hits,
        );
        const move = resolveCell(state, r, c);
        if (move) {
          rect.classList.add("playable");
          const title = el("title", null, rect);
          const entry = scores.get(move.move);
          title.textContent = entry ? `${move.move}: ${scoreWords(entry)}` : String(move.move);
        }
      }
    }
    if (!view.canPlay) svg.classList.add("locked");
    // arrows and a previewed line lie over the pieces, under the hit layer
    this.arrowLayer = el("g", { class: "layer-arrows" }, svg);
    this.lineLayer = el("g", { class: "layer-line" }, svg);
    svg.insertBefore(this.arrowLayer, hits);
    svg.insertBefore(this.lineLayer, hits);
    this.drawArrows(Array.isArray(view.arrows) ? view.arrows : []);
    this.drawLine();
    this.drawPreview();
  }

  /** {fresh, turned}: the cells (row * cols + col) of the move just played
   * and of the pieces that changed owner since the last drawing; empty
   * unless the position is the one after the last drawn (one ply on). */
  motion(state, rows, cols, last) {
    const board = state.board;
    const snapshot = [];
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) snapshot.push(cellValue(board, r, c));
    const key = `${state.game}|${rows}x${cols}`;
    const before = this.snapshot;
    this.snapshot = { key, cells: snapshot, ply: state.ply, position: state.position };
    const fresh = new Set();
    const turned = new Set();
    if (!before || before.key !== key || before.position === state.position || state.ply !== before.ply + 1) return { fresh, turned };
    for (const [r, c] of last ? cellsOf(last) : []) {
      if (r >= 0 && r < rows && c >= 0 && c < cols && before.cells[r * cols + c] === null) fresh.add(r * cols + c);
    }
    snapshot.forEach((value, index) => {
      const old = before.cells[index];
      if ((value === 0 || value === 1) && (old === 0 || old === 1) && old !== value) turned.add(index);
    });
    return { fresh, turned };
  }

  drawDominoes(layer, board, history, pieces, drawn) {
    const { rows, cols } = this.geo;
    const inside = ([r, c]) => r >= 0 && r < rows && c >= 0 && c < cols;
    for (const entry of history) {
      const cells = cellsOf(entry).filter(inside);
      if (!cells.length) continue;
      // only cells the board still shows covered by that player
      if (!cells.every(([r, c]) => cellValue(board, r, c) === entry.player || cellValue(board, r, c) === 2)) continue;
      const player = entry.player === 1 ? 1 : 0;
      this.drawTile(layer, cells, player, pieces[player], "piece domino");
      for (const [r, c] of cells) drawn.add(r * cols + c);
    }
    // covered cells the record does not explain (a pasted position): pair
    // them up along each player's orientation
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const key = r * cols + c;
        if (drawn.has(key)) continue;
        const value = cellValue(board, r, c);
        if (value !== 0 && value !== 1) continue;
        const token = pieces[value];
        const next = token === "vertical" ? [r + 1, c] : token === "horizontal" ? [r, c + 1] : null;
        if (next && next[0] < rows && next[1] < cols && !drawn.has(next[0] * cols + next[1]) && cellValue(board, next[0], next[1]) === value) {
          this.drawTile(layer, [[r, c], next], value, token, "piece domino");
          drawn.add(key);
          drawn.add(next[0] * cols + next[1]);
        }
      }
    }
  }

  /** A tile over the bounding box of `cells`. */
  drawTile(layer, cells, player, token, cls) {
    const geo = this.geo;
    const xs = cells.map(([, c]) => geo.x(c));
    const ys = cells.map(([r]) => geo.y(r));
    const x0 = Math.min(...xs);
    const y0 = Math.min(...ys);
    const x1 = Math.max(...xs) + S;
    const y1 = Math.max(...ys) + S;
    const pad = S * 0.09;
    const g = el("g", { class: `${cls} p${player} tok-${safeToken(token)}` }, layer);
    el("rect", { class: "tile", x: x0 + pad, y: y0 + pad, width: x1 - x0 - 2 * pad, height: y1 - y0 - 2 * pad, rx: S * 0.14 }, g);
    if (cells.length === 2) {
      // the domino's middle line
      const vertical = x1 - x0 < y1 - y0;
      if (vertical) {
        const ym = (y0 + y1) / 2;
        el("line", { class: "tile-line", x1: x0 + S * 0.25, x2: x1 - S * 0.25, y1: ym, y2: ym }, g);
      } else {
        const xm = (x0 + x1) / 2;
        el("line", { class: "tile-line", y1: y0 + S * 0.25, y2: y1 - S * 0.25, x1: xm, x2: xm }, g);
      }
    }
    return g;
  }

  drawPiece(layer, r, c, player, token, theme, cls) {
    const geo = this.geo;
    const cx = geo.cx(c);
    const cy = geo.cy(r);
    const tok = safeToken(token);
    if (token === "vertical" || token === "horizontal") {
      const tile = this.drawTile(layer, [[r, c]], player, token, cls);
      tile.classList.add("single");
      return tile;
    }
    const g = el("g", { class: `${cls} p${player} tok-${tok}` }, layer);
    if (token === "x") {
      const d = S * 0.26;
      el("line", { class: "mark", x1: cx - d, y1: cy - d, x2: cx + d, y2: cy + d }, g);
      el("line", { class: "mark", x1: cx - d, y1: cy + d, x2: cx + d, y2: cy - d }, g);
    } else if (token === "o") {
      el("circle", { class: "mark", cx, cy, r: S * 0.28 }, g);
    } else {
      el("circle", { class: "disc", cx, cy, r: S * (theme === "c4" ? 0.4 : 0.41) }, g);
      el("circle", { class: "disc-shine", cx: cx - S * 0.1, cy: cy - S * 0.12, r: S * 0.16 }, g);
    }
    return g;
  }

  drawNeutral(layer, r, c, neutral) {
    const geo = this.geo;
    const kind = safeToken(neutral || "neutral");
    const g = el("g", { class: `piece neutral neutral-${kind}` }, layer);
    if (neutral === "stone") {
      el("ellipse", { class: "stone", cx: geo.cx(c), cy: geo.cy(r) + S * 0.03, rx: S * 0.33, ry: S * 0.29 }, g);
      el("ellipse", { class: "stone-shine", cx: geo.cx(c) - S * 0.1, cy: geo.cy(r) - S * 0.08, rx: S * 0.1, ry: S * 0.07 }, g);
    } else {
      el("rect", { class: "covered", x: geo.x(c) + S * 0.09, y: geo.y(r) + S * 0.09, width: S * 0.82, height: S * 0.82, rx: S * 0.12 }, g);
    }
  }

  drawBadge(layer, move, r, c, entry, best) {
    const geo = this.geo;
    const score = classify(entry.score, entry.exact, entry.plies);
    const exact = Boolean(entry.exact);
    const text = badgeText(entry.score, entry.exact, entry);
    const g = el(
      "g",
      {
        class: `score ${exact ? "exact" : "heuristic"} ${score.kind}` + (best ? " best" : ""),
        "data-move": move,
      },
      layer,
    );
    const title = el("title", null, g);
    title.textContent = `${move}: ${scoreWords(entry)}`;
    const cx = geo.cx(c);
    const cy = geo.cy(r);
    if (score.kind !== "heuristic") {
      // a solid badge when proven; outlined for a decisive score whose
      // distance is only a bound
      const w = Math.max(S * 0.46, S * 0.15 * text.length + S * 0.18);
      el("rect", { class: "badge", x: cx - w / 2, y: cy - S * 0.18, width: w, height: S * 0.36, rx: S * 0.18 }, g);
      const label = el("text", { class: "badge-text", x: cx, y: cy + 1 }, g);
      label.textContent = text;
    } else {
      const label = el("text", { class: "heuristic-text", x: cx, y: cy + 1 }, g);
      label.textContent = text;
    }
  }

  /** An arrow onto the first cell of each of `arrows` ([{move, rank}], rank
   * 1 the best move): placement games have no "from" square, so the arrow
   * comes in from the edge of the board the side to move faces. */
  drawArrows(arrows) {
    const layer = this.arrowLayer;
    const view = this.view;
    if (!layer || !view) return;
    layer.replaceChildren();
    const state = view.state;
    const legal = Array.isArray(state.legal) ? state.legal : [];
    const geo = this.geo;
    for (const arrow of arrows) {
      const move = legal.find((m) => String(m.move) === String(arrow.move));
      const cells = move ? cellsOf(move) : [];
      if (!cells.length) continue;
      const [r, c] = cells[0];
      if (r < 0 || r >= geo.rows || c < 0 || c >= geo.cols) continue;
      const x = geo.cx(c);
      const y = geo.cy(r);
      // from above the cell, one and a half cells long (shorter near the top)
      const up = Math.min(S * 1.5, y - geo.top + S * 0.35);
      const head = S * 0.28;
      const g = el("g", { class: `arrow rank-${arrow.rank}`, "data-move": arrow.move }, layer);
      el("line", { class: "arrow-shaft", x1: x, y1: y - up, x2: x, y2: y - head * 0.9 }, g);
      el("path", { class: "arrow-head", d: `M ${x - head * 0.7} ${y - head} L ${x + head * 0.7} ${y - head} L ${x} ${y - S * 0.05} Z` }, g);
    }
  }

  /** Show `moves` (a line from the position drawn) as numbered ghost pieces;
   * null clears it. Moves whose cells the page cannot know (a move not
   * legal in the position drawn, as an Othello reply may be) end it. */
  previewLine(moves) {
    this.line = Array.isArray(moves) && moves.length ? moves.map(String) : null;
    this.drawLine();
  }

  drawLine() {
    const layer = this.lineLayer;
    const view = this.view;
    if (!layer || !view || !layer.isConnected) return;
    layer.replaceChildren();
    if (!this.line) return;
    const state = view.state;
    const board = state.board;
    const geo = this.geo;
    const pieces = Array.isArray(board.pieces) ? board.pieces : [];
    const theme = themeOf(board);
    const legal = Array.isArray(state.legal) ? state.legal : [];
    const taken = new Set();
    const height = new Map(); // drop boards: stones added to each column
    let player = state.to_move === 1 ? 1 : 0;
    layer.dataset.line = this.line.join(" ");
    let shown = 0;
    for (const name of this.line.slice(0, 12)) {
      const move = legal.find((m) => String(m.move) === name);
      let cells = move ? cellsOf(move) : [];
      if (board.drop && cells.length) {
        // the stone lands above the ones the line has already dropped there
        const c = cells[0][1];
        const above = height.get(c) || 0;
        cells = [[cells[0][0] - above, c]];
        height.set(c, above + 1);
      }
      if (!cells.length || cells.some(([r, c]) => taken.has(r * geo.cols + c) || r < 0 || r >= geo.rows || c < 0 || c >= geo.cols)) break;
      // the two sides' moves differ (Domineering): only the first is known
      if (shown > 0 && (pieces.includes("vertical") || pieces.includes("horizontal"))) break;
      shown += 1;
      const g = el("g", { class: `line-step p${player}`, "data-step": shown }, layer);
      const token = pieces[player];
      if (token === "vertical" || token === "horizontal") this.drawTile(g, cells, player, token, "piece domino ghost");
      else {
        for (const [r, c] of cells) {
          if (cellValue(board, r, c) !== null) {
            // taking something away (Nim): mark what goes
            el("rect", { class: "take", x: geo.x(c) + S * 0.08, y: geo.y(r) + S * 0.08, width: S * 0.84, height: S * 0.84, rx: S * 0.2 }, g);
          } else this.drawPiece(g, r, c, player, token, theme, "piece ghost");
        }
      }
      const [r, c] = cells[0];
      for (const [rr, cc] of cells) taken.add(rr * geo.cols + cc);
      const label = el("text", { class: "line-number", x: geo.cx(c), y: geo.cy(r) + 1 }, g);
      label.textContent = String(shown);
      player = 1 - player;
    }
    layer.dataset.shown = String(shown);
  }

  /** The translucent picture of the move under the pointer. */
  drawPreview() {
    const layer = this.previewLayer;
    const view = this.view;
    if (!layer || !view || !layer.isConnected) return;
    layer.replaceChildren();
    if (!this.hover || !view.canPlay) return;
    const state = view.state;
    const board = state.board;
    const [row, col] = this.hover;
    const move = resolveCell(state, row, col);
    if (!move) return;
    const geo = this.geo;
    const player = state.to_move === 1 ? 1 : 0;
    const pieces = Array.isArray(board.pieces) ? board.pieces : [];
    const token = pieces[player];
    const theme = themeOf(board);
    const cells = cellsOf(move).filter(([r, c]) => r >= 0 && r < geo.rows && c >= 0 && c < geo.cols);
    if (!cells.length) return;
    if (board.drop) {
      const c = cells[0][1];
      el("rect", { class: "column-hover", x: geo.x(c) + 3, y: geo.y(0) + 3, width: S - 6, height: geo.rows * S - 6, rx: 14 }, layer);
    }
    const g = el("g", { class: "preview", "data-move": null }, layer);
    g.dataset.previewMove = move.move;
    if (token === "vertical" || token === "horizontal") {
      this.drawTile(g, cells, player, token, "piece domino ghost");
      return;
    }
    for (const [r, c] of cells) {
      if (cellValue(board, r, c) !== null) {
        // taking something away (a Nim heap): mark what goes
        el("rect", { class: "take", x: geo.x(c) + S * 0.08, y: geo.y(r) + S * 0.08, width: S * 0.84, height: S * 0.84, rx: S * 0.2 }, g);
      } else {
        this.drawPiece(g, r, c, player, token, theme, "piece ghost");
      }
    }
  }
}
