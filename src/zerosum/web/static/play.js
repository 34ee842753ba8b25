// The board, the status line and banner, the connection badge and the
// toolbar under the board.

import { BoardView, cellsOf, resolveCell } from "./board.js";
import { formatNumber, t } from "./i18n.js";
import { badgeText, classify, scoreWords } from "./scores.js";
import { $, app, h, isInteger, playerColour, playerName, send, toast } from "./store.js";
import { arrowsFor } from "./lines.js";

export const boardView = new BoardView($("#board"), { onCell: onCellClick });

/** The computer is to move and waits (the record is being stepped
 * through): only then is the game "paused". */
function isHeld(state) {
  return Boolean(state && state.paused && !state.over && !isHumanTurn(state));
}

function isHumanTurn(state) {
  if (!state || state.over) return false;
  const players = Array.isArray(state.players) ? state.players : [];
  const player = players[state.to_move];
  return !player || player.kind === "human";
}

/** Why the side to move cannot be played by a click, or null. */
function refusal(state) {
  // first the connection: a click while it is down reaches no one, whoever's turn it is
  if (!state || !(app.connection && app.connection.connected)) return t("Disconnected; reconnecting…");
  if (state.over) return t("The game is over");
  if (!isHumanTurn(state)) {
    if (state.paused) return t("The AI is to move: press Resume to let it play");
    return t("Not your turn: the AI is to move");
  }
  return null;
}

function onCellClick(row, col) {
  const state = app.state;
  const why = refusal(state);
  if (why) {
    toast(why);
    return;
  }
  const move = resolveCell(state, row, col);
  if (!move) {
    toast(t("Not a legal move here"));
    return;
  }
  playMove(move.move);
}

export function playMove(move) {
  const why = refusal(app.state);
  if (why) {
    toast(why);
    return;
  }
  send({ type: "move", move });
}

function currentScores(state) {
  if (state && app.scores.position === state.position) return app.scores;
  return { map: new Map(), best: null };
}

function currentHint(state) {
  return state && app.hint && app.hint.position === state.position ? app.hint : null;
}

export function renderBoard() {
  const state = app.state;
  const svg = $("#board");
  const pre = $("#text-board");
  if (!state) {
    boardView.clear();
    return;
  }
  const scores = currentScores(state);
  const hint = currentHint(state);
  if (state.board && typeof state.board === "object") {
    svg.hidden = false;
    svg.style.display = "";
    pre.hidden = true;
    boardView.render({
      state,
      flipped: app.flipped,
      scores: scores.map,
      best: scores.best,
      hint: hint ? hint.move : null,
      canPlay: isHumanTurn(state),
      arrows: arrowsFor(state),
    });
  } else {
    boardView.clear();
    svg.style.display = "none";
    pre.hidden = false;
    pre.textContent = typeof state.text === "string" ? state.text : "";
  }
  // moves without cells (and every move of a game without a board) as buttons
  const container = $("#move-buttons");
  container.replaceChildren();
  const legal = Array.isArray(state.legal) ? state.legal : [];
  const buttonMoves = state.board ? legal.filter((m) => m && cellsOf(m).length === 0) : legal;
  for (const move of buttonMoves) {
    if (!move || move.move === undefined) continue;
    const button = h("button", "move-button");
    button.type = "button";
    button.dataset.move = String(move.move);
    button.appendChild(h("span", "move-name", move.move));
    const entry = scores.map.get(move.move);
    if (entry) {
      const kind = classify(entry.score, entry.exact, entry.plies).kind;
      const badge = h("span", `score-chip ${entry.exact ? "exact" : "heuristic"} ${kind}`, badgeText(entry.score, entry.exact, entry));
      button.appendChild(badge);
      button.title = `${move.move}: ${scoreWords(entry)}`;
    } else {
      button.title = t("Play {move}", { move: move.move });
    }
    if (hint && hint.move === move.move) button.classList.add("hinted");
    if (scores.best === move.move) button.classList.add("best");
    button.addEventListener("click", () => playMove(move.move));
    container.appendChild(button);
  }
  container.hidden = buttonMoves.length === 0;
}

export function renderStatus() {
  const state = app.state;
  const status = $("#status");
  const swatch = $("#status-swatch");
  const connected = app.connection && app.connection.connected;
  let text;
  if (!connected && app.everConnected) text = t("Disconnected; reconnecting…");
  else if (!state) text = t("Connecting…");
  else if (state.over) text = t("Game over");
  else {
    const player = playerName(state, state.to_move);
    if (state.searching === "ai") text = t("{player} is thinking…", { player });
    else text = t("{player} to move", { player });
    if (state.searching === "analysis") text += " · " + t("analysing…");
    else if (state.searching === "hint") text += " · " + t("looking for a hint…");
    else if (state.searching === "review") text += " · " + t("reviewing the game…");
    if (isHeld(state)) text += " · " + t("paused");
  }
  status.textContent = text;
  status.classList.toggle("thinking", Boolean(state && state.searching === "ai"));
  const showSwatch = Boolean(state && !state.over);
  swatch.hidden = !showSwatch;
  if (showSwatch) swatch.style.background = playerColour(state, state.to_move);

  const banner = $("#banner");
  if (state && state.over) {
    banner.hidden = false;
    // the result with its detail (Black wins 40–24) when the server gives it
    const outcome = state.outcome && typeof state.outcome.text === "string" ? state.outcome.text : null;
    banner.textContent = outcome || state.banner || t("Game over");
    banner.dataset.winner = state.winner === 0 || state.winner === 1 ? String(state.winner) : "draw";
  } else {
    banner.hidden = true;
    banner.textContent = "";
  }
}

export function renderConnection() {
  const node = $("#connection");
  const connected = app.connection && app.connection.connected;
  const stateName = connected ? "connected" : app.everConnected ? "disconnected" : "connecting";
  node.dataset.state = stateName;
  $("#connection-text").textContent =
    stateName === "connected" ? t("Connected") : stateName === "disconnected" ? t("Disconnected") : t("Connecting…");
  $("#retry").hidden = stateName !== "disconnected";
  document.body.dataset.connected = connected ? "1" : "";
}

export function renderControls() {
  const state = app.state;
  const has = Boolean(state);
  const ply = has && isInteger(state.ply) ? state.ply : 0;
  const length = has && Array.isArray(state.history) ? state.history.length : 0;
  $("#undo").disabled = !has || ply === 0;
  $("#redo").disabled = !has || ply >= length;
  $("#hint").disabled = !has || Boolean(state.over);
  $("#review").disabled = !has || length === 0 || state.searching === "review";
  $("#stop").disabled = !has || !state.searching;
  // Resume keeps its place in the toolbar when not wanted (nothing moves)
  const resume = $("#resume");
  const held = has && isHeld(state);
  resume.classList.toggle("unneeded", !held);
  // Stop and Resume share one place: the one that is wanted shows
  $("#stop").classList.toggle("unneeded", held);
  resume.disabled = !held;
  resume.setAttribute("aria-hidden", held ? "false" : "true");
  $("#goto-first").disabled = !has || ply === 0;
  $("#goto-prev").disabled = !has || ply === 0;
  $("#goto-next").disabled = !has || ply >= length;
  $("#goto-last").disabled = !has || ply >= length;
  const flip = $("#flip");
  flip.disabled = !has || !state.board;
  flip.setAttribute("aria-pressed", app.flipped ? "true" : "false");
  flip.classList.toggle("active", app.flipped);
  const toggle = $("#analysis-toggle");
  if (has && document.activeElement !== toggle) toggle.checked = Boolean(state.analysis);
  const delay = $("#delay");
  if (has && typeof state.delay === "number" && document.activeElement !== delay && Date.now() > app.delayEdited + 1500) {
    delay.value = String(state.delay);
  }
  const seconds = formatNumber(parseFloat(delay.value) || 0, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  $("#delay-value").textContent = t("{seconds} s", { seconds });
  const analysisTime = $("#analysis-time");
  if (has && typeof state.analysis_time === "number" && document.activeElement !== analysisTime) {
    analysisTime.value = String(state.analysis_time);
  }
  for (const name of ["store", "book"]) {
    const box = $("#use-" + name);
    if (has && typeof state[name] === "boolean" && document.activeElement !== box) box.checked = state[name];
  }
}

/** Wire the toolbar under the board: Undo, Redo, Flip, Resume. */
export function bindPlay() {
  $("#undo").addEventListener("click", () => send({ type: "undo" }));
  $("#redo").addEventListener("click", () => send({ type: "redo" }));
  $("#flip").addEventListener("click", () => {
    app.flipped = !app.flipped;
    renderBoard();
    renderControls();
  });
  $("#resume").addEventListener("click", () => send({ type: "resume" }));
}
