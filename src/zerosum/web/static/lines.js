// The engine lines (multi-PV): the best `lines` moves of the position shown,
// each with its score and its line. Hovering one shows it on the board as
// numbered ghost pieces; clicking plays its first move. The best move (and,
// when asked, the second) gets an arrow on the board.

import { t } from "./i18n.js";
import { badgeText, classify, scoreWords } from "./scores.js";
import { $, app, h, pvText, send } from "./store.js";

export const LINE_COUNTS = [1, 2, 3, 4, 5];

/** The scored moves of the position shown, best first ([] when none). */
export function scoredMoves(state) {
  if (!state || app.scores.position !== state.position || !Array.isArray(app.scores.entries)) return [];
  return app.scores.entries.filter((entry) => entry && entry.move !== undefined && typeof entry.score === "number");
}

/** How many lines to show: the server's setting (state.lines), else 3. */
export function lineCount(state) {
  const count = state && Number.isInteger(state.lines) ? state.lines : 3;
  return Math.max(1, Math.min(5, count));
}

/** The arrows the board draws: the best move, and the second when the
 * "second arrow" switch is on. */
export function arrowsFor(state) {
  const moves = scoredMoves(state);
  const arrows = [];
  if (moves[0]) arrows.push({ move: String(moves[0].move), rank: 1 });
  if (moves[1] && $("#second-arrow").checked) arrows.push({ move: String(moves[1].move), rank: 2 });
  return arrows;
}

/** Draw the engine lines. `board` previews a line; `play` plays a move. */
export function renderEngineLines(board, play) {
  const list = $("#engine-lines");
  const state = app.state;
  const select = $("#lines-count");
  if (state && document.activeElement !== select) select.value = String(lineCount(state));
  const moves = scoredMoves(state).slice(0, lineCount(state));
  const key = moves.map((m) => `${m.move}|${m.score}|${m.exact}|${pvText(m.pv)}`).join("/");
  if (list.dataset.key === key) return; // unchanged: keep the hover
  list.dataset.key = key;
  list.replaceChildren();
  list.dataset.empty = t("no evaluation yet");
  moves.forEach((entry, index) => {
    const item = h("li", "engine-line");
    item.dataset.move = String(entry.move);
    item.tabIndex = 0;
    const pv = Array.isArray(entry.pv) && entry.pv.length ? entry.pv.map(String) : [String(entry.move)];
    item.dataset.pv = pv.join(" ");
    const kind = classify(entry.score, entry.exact, entry.plies).kind;
    item.appendChild(h("span", "engine-rank", index + 1));
    item.appendChild(h("span", `score-chip ${entry.exact ? "exact" : "heuristic"} ${kind}`, badgeText(entry.score, entry.exact, entry)));
    item.appendChild(h("span", "engine-pv", pv.join(" ")));
    item.title = `${scoreWords(entry)} · ${t("Click to play {move}", { move: entry.move })}`;
    item.addEventListener("pointerenter", () => board.previewLine(pv));
    item.addEventListener("pointerleave", () => board.previewLine(null));
    item.addEventListener("focus", () => board.previewLine(pv));
    item.addEventListener("blur", () => board.previewLine(null));
    item.addEventListener("click", () => {
      board.previewLine(null);
      play(String(entry.move));
    });
    item.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        board.previewLine(null);
        play(String(entry.move));
      }
    });
    list.appendChild(item);
  });
  // a line previewed from a list that changed under the pointer goes
  if (!list.querySelector(":hover")) board.previewLine(null);
}

/** Wire the line-count menu and the second-arrow switch. */
export function bindLines(rerender) {
  const select = $("#lines-count");
  select.replaceChildren(...LINE_COUNTS.map((n) => {
    const option = h("option", null, n);
    option.value = String(n);
    return option;
  }));
  select.value = "3";
  select.addEventListener("change", () => {
    const lines = Number(select.value);
    if (LINE_COUNTS.includes(lines)) send({ type: "settings", lines });
  });
  $("#second-arrow").addEventListener("change", () => {
    rerender();
    // a switch keeps no keys: the arrows go on stepping through the record
    $("#second-arrow").blur();
  });
}
