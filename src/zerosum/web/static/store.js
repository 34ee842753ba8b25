// The page's one model (`app`), the helpers every part uses, sending to the
// session, the toast, and render scheduling (app.js registers the renderer).

import { t } from "./i18n.js";

export const $ = (selector) => document.querySelector(selector);

export const MOVE_ITEM = "li[data-ply]";

export function h(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

export function debounce(fn, ms) {
  let timer = null;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

export function isInteger(value) {
  return typeof value === "number" && Number.isInteger(value);
}

export function pvText(pv) {
  if (Array.isArray(pv)) return pv.map(String).join(" ");
  return pv === null || pv === undefined ? "" : String(pv);
}

/** CSS colour variable for a player's piece token. */
const TOKEN_COLOURS = {
  x: "var(--x-color)",
  o: "var(--o-color)",
  red: "var(--red-disc)",
  yellow: "var(--yellow-disc)",
  black: "var(--black-disc)",
  white: "var(--white-disc)",
  vertical: "var(--vertical-color)",
  horizontal: "var(--horizontal-color)",
};

export function playerColour(state, player) {
  const pieces = state && state.board && Array.isArray(state.board.pieces) ? state.board.pieces : [];
  return TOKEN_COLOURS[pieces[player]] || (player === 0 ? "var(--p0-default)" : "var(--p1-default)");
}

export function playerName(state, index) {
  const names = state && Array.isArray(state.player_names) ? state.player_names : [];
  return names[index] || (index === 0 ? t("First player") : t("Second player"));
}

export const app = {
  state: null,
  games: [],
  connection: null,
  everConnected: false,
  flipped: false,
  // every legal move's score, for one position
  scores: { position: null, map: new Map(), best: null },
  hint: null, // {move, score, exact, position}
  evaluation: null, // {fraction, text, position, game}
  lines: [], // progress objects of the current search
  searchKey: null,
  searchKind: null,
  summary: null, // {text, position}
  setupDirty: false,
  setupGame: null, // the state.game the set-up was last filled from
  sentPlayers: null,
  newGameTimer: null,
  delayEdited: 0, // when the user last moved the speed control
  // a `new` sent and not answered yet: {from: "setup"|"paste", seed, game};
  // the next error answers it (refused), a state of another game or seed
  // starts it
  pendingNew: null,
  navTarget: null, // the ply a goto was sent for, until a state shows it
  navTimer: null,
  searchId: null, // the search whose objects are shown (state.search_id)
  result: null, // {ply}: the ply the AI's last result was searched at
  review: null, // {record, start, searchId, plies: Map(ply -> entry), done}
  plyScores: new Map(), // "start|record prefix" -> {score (first player's view), exact}
  restoring: null, // the address's game, until its state arrives
  restoreTimer: null,
};

/** Longest text a toast shows: a message repeating a long paste is cut. */
const TOAST_LIMIT = 240;

export function send(message) {
  if (app.connection && app.connection.send(message)) return true;
  toast(t("Not connected; trying again…"), "error");
  return false;
}

let toastTimer = null;

export function toast(message, kind = "info") {
  const node = $("#toast");
  if (!node) return;
  const text = String(message);
  node.textContent = text.length > TOAST_LIMIT ? text.slice(0, TOAST_LIMIT - 1) + "…" : text;
  node.dataset.kind = kind;
  node.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    node.classList.remove("show");
    toastTimer = setTimeout(() => {
      node.textContent = "";
    }, 400);
  }, kind === "error" ? 5000 : 3000);
}

let renderPending = false;
let renderer = () => {};

/** Who draws the whole page (app.js wires it once). */
export function setRenderer(fn) {
  renderer = fn;
}

/** Draw the whole page now. */
export function renderAll() {
  renderPending = false;
  renderer();
}

export function scheduleRender() {
  if (renderPending) return;
  renderPending = true;
  const run = () => {
    if (!renderPending) return;
    renderPending = false;
    renderAll();
  };
  requestAnimationFrame(run);
  setTimeout(run, 120); // when frames are not drawn (a hidden tab)
}

