// The moves list, navigation through the record, copy and paste.

import { resetSearchView } from "./analysis.js";
import { t } from "./i18n.js";
import { readPlayers } from "./setup.js";
import { parsePlayers, playersText } from "./address.js";
import { $, MOVE_ITEM, app, h, isInteger, playerColour, playerName, send, toast } from "./store.js";

/** The review's marks: the symbol on the moves list and the words. */
export const MARKS = {
  inaccuracy: { symbol: "?!", words: () => t("inaccuracy") },
  mistake: { symbol: "?", words: () => t("mistake") },
  blunder: { symbol: "??", words: () => t("blunder") },
  "lost-win": { symbol: "??", words: () => t("threw away a win") },
  "lost-draw": { symbol: "?", words: () => t("threw away a draw") },
};

/** The review's mark of the move played at `ply` of the current line, or null. */
export function reviewMark(ply) {
  const review = currentReview();
  const entry = review ? review.plies.get(ply) : null;
  return entry && typeof entry.class === "string" && MARKS[entry.class] ? entry.class : null;
}

/** The review of the line shown (a review of another line is not shown). */
export function currentReview() {
  const state = app.state;
  const review = app.review;
  if (!state || !review || review.record !== state.record || review.start !== state.start) return null;
  return review;
}

/** The variations that branch off instead of move `index` + 1. */
function variationsAt(state, index) {
  const variations = Array.isArray(state.variations) ? state.variations : [];
  return variations.filter((v) => v && v.ply === index && Array.isArray(v.moves) && v.moves.length);
}

/** Switch to the variation starting with `move` after `ply` moves. */
export function switchLine(ply, move) {
  send({ type: "line", ply, move });
}

/** A variation's moves with the move numbers, and the variations played
 * inside it in brackets after the move they replace; each part switches to
 * its own line (`path`: the [ply, move] switches that lead to it). */
function variationLine(variation, outer) {
  const path = [...outer, [variation.ply, String(variation.moves[0])]];
  const line = h("span", "variation-line");
  line.dataset.path = JSON.stringify(path);
  const inner = Array.isArray(variation.inner) ? variation.inner : [];
  variation.moves.forEach((move, offset) => {
    const at = variation.ply + offset;
    const number = at % 2 === 0 ? `${at / 2 + 1}. ` : offset === 0 ? `${(at - 1) / 2 + 1}… ` : "";
    line.appendChild(h("span", "variation-move", number + move));
    line.appendChild(document.createTextNode(" "));
    for (const nested of inner.filter((v) => v && v.ply === at && Array.isArray(v.moves) && v.moves.length)) {
      line.appendChild(document.createTextNode("("));
      line.appendChild(variationLine(nested, path));
      line.appendChild(document.createTextNode(") "));
    }
  });
  return line;
}

/** Follow the switches of `path` (a variation inside a variation: its outer
 * line first). */
function switchPath(path) {
  for (const [ply, move] of path) switchLine(ply, move);
}

export function renderMoves() {
  const list = $("#moves");
  const state = app.state;
  list.replaceChildren();
  list.dataset.empty = t("No moves yet");
  if (!state || !Array.isArray(state.history)) return;
  const ply = isInteger(state.ply) ? state.ply : state.history.length;
  let current = null;
  state.history.forEach((entry, index) => {
    if (!entry) return;
    const li = h("li", "move-entry");
    li.dataset.ply = String(index + 1);
    // each player's moves in a column of their own, as a score sheet has
    // them: a row of variations between does not shift the columns
    li.dataset.player = String(entry.player === 1 ? 1 : 0);
    li.tabIndex = -1;
    li.appendChild(h("span", "move-num", index + 1));
    const who = h("span", "move-who");
    const dot = h("span", "swatch small");
    dot.style.background = playerColour(state, entry.player);
    who.appendChild(dot);
    who.appendChild(document.createTextNode(playerName(state, entry.player)));
    li.appendChild(who);
    li.appendChild(h("span", "move-text", entry.move));
    // the review's mark of this move (played at ply `index`)
    const mark = reviewMark(index);
    if (mark) {
      // "threw away a win" in words: a symbol would hide what happened
      const badge = h("span", `move-mark mark-${mark}`, mark.startsWith("lost-") ? MARKS[mark].words() : MARKS[mark].symbol);
      badge.title = MARKS[mark].words();
      li.appendChild(badge);
      li.dataset.mark = mark;
    }
    if (index + 1 === ply) {
      li.classList.add("current");
      li.setAttribute("aria-current", "step");
      current = li;
    } else if (index + 1 > ply) {
      li.classList.add("future");
    }
    li.title = t("Go to the position after move {n}", { n: index + 1 });
    list.appendChild(li);
    // the lines played instead of this move, kept as variations (with
    // the variations played inside them), each on a row of its own
    for (const variation of variationsAt(state, index)) {
      const item = h("li", "variation");
      item.dataset.variationPly = String(index);
      item.dataset.variationMove = String(variation.moves[0]);
      item.tabIndex = 0;
      item.appendChild(variationLine(variation, []));
      item.title = t("Switch to this variation");
      // make it the line played (the line left stays a variation), or delete it
      const tools = h("span", "variation-tools");
      const promote = h("button", "small variation-promote", "⤒");
      promote.type = "button";
      promote.title = t("Make this the main line");
      promote.setAttribute("aria-label", promote.title);
      const drop = h("button", "small variation-drop", "✕");
      drop.type = "button";
      drop.title = t("Delete this variation");
      drop.setAttribute("aria-label", drop.title);
      tools.append(promote, drop);
      item.appendChild(tools);
      list.appendChild(item);
    }
  });
  list.classList.toggle("at-start", ply === 0);
  if (current) {
    // keep the current move in view without scrolling the page
    const top = current.offsetTop; // the list is the offset parent
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + current.offsetHeight - list.clientHeight;
    }
  } else if (ply === 0) {
    list.scrollTop = 0;
  }
}

export function gotoPly(ply) {
  const state = app.state;
  if (!state || !Array.isArray(state.history)) return;
  navigate(Math.max(0, Math.min(state.history.length, ply)));
}

/** Go to `ply`, remembering it until a state shows it (so quick presses
 * add up instead of each starting from the last state). */
export function navigate(ply) {
  const state = app.state;
  const from = app.navTarget ?? (state ? state.ply : null);
  if (ply === from) return;
  app.navTarget = ply;
  clearTimeout(app.navTimer);
  // an answer that never shows the ply (a refusal) frees the keys again
  app.navTimer = setTimeout(() => {
    app.navTarget = null;
  }, 2000);
  send({ type: "goto", ply });
}

/** A state arrived: the navigation it answers is done. */
export function navigationSeen(state) {
  if (app.navTarget !== null && state && state.ply === app.navTarget) {
    app.navTarget = null;
    clearTimeout(app.navTimer);
  }
}

export function renderCopy() {
  const state = app.state;
  $("#position").value = state && state.position !== undefined && state.position !== null ? String(state.position) : "";
  $("#record").value = state && state.record !== undefined && state.record !== null ? String(state.record) : "";
  $("#pgn").value = state ? exportRecord(state) : "";
}

const RESULTS = { 0: "1-0", 1: "0-1" };

function quoted(value) {
  return `"${String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** The game as a PGN-like record (docs/records.md): headers (the game, the
 * start position when it is not the game's own, the players, the result),
 * then the moves with their variations. */
export function exportRecord(state) {
  const headers = [["Game", state.game]];
  if (state.custom_start && typeof state.start === "string") headers.push(["Start", state.start]);
  const names = Array.isArray(state.player_names) ? state.player_names : [];
  if (names.length === 2) headers.push(["Sides", names.join(",")]);
  if (Array.isArray(state.players) && state.players.length === 2) headers.push(["Players", playersText(state.players)]);
  const result = state.over ? RESULTS[state.winner] || "1/2-1/2" : "*";
  headers.push(["Result", result]);
  const moves = typeof state.movetext === "string" ? state.movetext : String(state.record || "");
  return headers.map(([key, value]) => `[${key} ${quoted(value)}]`).join("\n") + "\n\n" + (moves ? moves + " " : "") + result;
}

/** A pasted record: {game, position, moves, players, note} for a `new`, or
 * {error}. Reads the PGN-like record (headers, then movetext), the JSON
 * lines of `zerosum match` (its first game; a note says which), and a plain
 * list of moves (the game being played). */
export function readPasted(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) return readMatchLines(trimmed);
  const headers = {};
  const body = trimmed.replace(/^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$/gm, (_whole, key, value) => {
    headers[key.toLowerCase()] = value.replace(/\\(.)/g, "$1");
    return "";
  });
  return {
    game: headers.game || null,
    position: headers.start || null,
    moves: body.trim(),
    players: headers.players ? parsePlayers(headers.players) : null,
  };
}

function readMatchLines(text) {
  const games = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    let record;
    try {
      record = JSON.parse(line);
    } catch (_err) {
      return { error: t("Not a record: a line of JSON lines is not JSON") };
    }
    if (record && record.type === "game" && typeof record.game === "string" && Array.isArray(record.moves)) games.push(record);
  }
  if (!games.length) return { error: t("No game record in these lines (a zerosum match file has one a game)") };
  const first = games[0];
  return {
    game: first.game,
    position: typeof first.start === "string" ? first.start : null,
    moves: first.moves.map(String).join(" "),
    players: null,
    note: games.length > 1 ? t("Loaded game {n} of {count}; paste its line alone to load another", { n: first.number || 1, count: games.length }) : null,
  };
}

export async function copyField(selector) {
  const field = $(selector);
  const text = field.value;
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      done = true;
    }
  } catch (_err) {
    done = false;
  }
  if (!done) {
    try {
      field.focus();
      field.select();
      done = document.execCommand("copy");
      field.setSelectionRange(0, 0);
      field.blur();
    } catch (_err) {
      done = false;
    }
  }
  toast(done ? t("Copied") : t("Could not copy; select the text and copy it yourself"), done ? "info" : "error");
}

export function loadPasted(kind) {
  const text = $("#paste").value.trim();
  if (!text) {
    toast(t("Paste a position or a record first"));
    return;
  }
  if (!app.state) {
    toast(t("Not connected; trying again…"), "error");
    return;
  }
  const message = { type: "new", game: app.state.game, players: readPlayers() };
  if (kind === "position") message.position = text;
  else {
    const pasted = readPasted(text);
    if (pasted.error) {
      toast(pasted.error, "error");
      return;
    }
    if (pasted.game) message.game = pasted.game;
    if (pasted.position) message.position = pasted.position;
    if (pasted.players) message.players = pasted.players;
    message.moves = pasted.moves;
    if (pasted.note) toast(pasted.note);
  }
  resetSearchView();
  app.pendingNew = { from: "paste", seed: app.state.seed, game: app.state.game };
  send(message);
}

/** Wire the moves list, its navigation buttons, copy and paste. */
export function bindRecord() {
  $("#moves").addEventListener("click", (event) => {
    const tool = event.target.closest ? event.target.closest(".variation-tools button") : null;
    if (tool) {
      const item = tool.closest("li.variation");
      const ply = Number(item.dataset.variationPly);
      const move = item.dataset.variationMove;
      if (tool.classList.contains("variation-drop")) send({ type: "drop", ply, move });
      else switchLine(ply, move); // the line played now; the line left stays a variation
      return;
    }
    const line = event.target.closest ? event.target.closest(".variation-line") : null;
    if (line) {
      switchPath(JSON.parse(line.dataset.path));
      return;
    }
    const variation = event.target.closest ? event.target.closest("li.variation") : null;
    if (variation) {
      switchLine(Number(variation.dataset.variationPly), variation.dataset.variationMove);
      return;
    }
    const item = event.target.closest ? event.target.closest(MOVE_ITEM) : null;
    if (item) gotoPly(Number(item.dataset.ply));
  });
  $("#moves").addEventListener("keydown", (event) => {
    const variation = event.target.closest ? event.target.closest("li.variation") : null;
    if (variation && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      switchLine(Number(variation.dataset.variationPly), variation.dataset.variationMove);
    }
  });
  $("#goto-first").addEventListener("click", () => gotoPly(0));
  $("#goto-prev").addEventListener("click", () => app.state && gotoPly(app.state.ply - 1));
  $("#goto-next").addEventListener("click", () => app.state && gotoPly(app.state.ply + 1));
  $("#goto-last").addEventListener("click", () => app.state && gotoPly((app.state.history || []).length));

  $("#copy-position").addEventListener("click", () => copyField("#position"));
  $("#copy-record").addEventListener("click", () => copyField("#record"));
  $("#copy-pgn").addEventListener("click", () => copyField("#pgn"));
  $("#load-position").addEventListener("click", () => loadPasted("position"));
  $("#load-record").addEventListener("click", () => loadPasted("record"));

}
