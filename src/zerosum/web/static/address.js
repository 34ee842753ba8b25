// The game in the page's address: #game=SPEC&start=POSITION&moves=RECORD
// (URL-encoded; `moves` is the record's movetext with its variations,
// docs/records.md; `ply` when an earlier position is shown, `players` who
// plays each side; `analysis=1`, `time` and `lines` the analysis settings;
// `review=1` when the line was reviewed). Rewritten with
// history.replaceState after every state, read when the page opens and when
// the address changes (a link pasted into the tab, Back after a new game):
// a link reproduces the game and a reload keeps it.

import { app } from "./store.js";

const PLAYER_KINDS = ["human", "ai", "random", "mcts"];
const LEVELS = ["easy", "medium", "hard", "perfect"];

/** The players as a short text: human,ai:hard,ai:2.5s,mcts:1s,random. */
export function playersText(players) {
  return players
    .map((player) => {
      if (!player || !PLAYER_KINDS.includes(player.kind)) return "human";
      if (typeof player.time === "number") return `${player.kind}:${player.time}s`;
      if (player.kind === "ai" && LEVELS.includes(player.level)) return `ai:${player.level}`;
      return player.kind;
    })
    .join(",");
}

/** The players of playersText, or null when the text is not two of them. */
export function parsePlayers(text) {
  const parts = String(text || "").split(",");
  if (parts.length !== 2) return null;
  const players = [];
  for (const part of parts) {
    const [kind, detail] = part.split(":");
    if (!PLAYER_KINDS.includes(kind)) return null;
    const player = { kind };
    if (detail && /^\d+(\.\d+)?s$/.test(detail)) player.time = Number(detail.slice(0, -1));
    else if (detail && kind === "ai" && LEVELS.includes(detail)) player.level = detail;
    players.push(player);
  }
  return players;
}

const DEFAULT_TIME = 10;
const DEFAULT_LINES = 3;

/** The address (its hash) of `state`; `reviewed` when its line's review is shown. */
export function addressOf(state, reviewed = false) {
  const params = new URLSearchParams();
  params.set("game", String(state.game));
  if (typeof state.start === "string" && state.start) params.set("start", state.start);
  // the movetext only when it says more than the plain record (variations)
  const branched = Array.isArray(state.variations) && state.variations.length > 0;
  const moves = branched && typeof state.movetext === "string" ? state.movetext : state.record;
  params.set("moves", typeof moves === "string" ? moves.trim() : "");
  const length = Array.isArray(state.history) ? state.history.length : 0;
  if (Number.isInteger(state.ply) && state.ply < length) params.set("ply", String(state.ply));
  if (Array.isArray(state.players) && state.players.length === 2) params.set("players", playersText(state.players));
  if (state.analysis) params.set("analysis", "1");
  if (typeof state.analysis_time === "number" && state.analysis_time !== DEFAULT_TIME) {
    params.set("time", String(state.analysis_time));
  }
  if (Number.isInteger(state.lines) && state.lines !== DEFAULT_LINES) params.set("lines", String(state.lines));
  if (reviewed) params.set("review", "1");
  return "#" + params.toString();
}

/** Show `state` in the address bar (not while a link's game is being set up:
 * the server's first game would overwrite it). */
export function writeAddress(state) {
  if (app.restoring || !state || typeof state.game !== "string") return;
  // the review of the line shown (record.js's currentReview)
  const review = app.review;
  const reviewed = Boolean(review && review.record === state.record && review.start === state.start);
  const hash = addressOf(state, reviewed);
  if (window.location.hash === hash) return;
  try {
    window.history.replaceState(null, "", hash);
  } catch (_err) {
    // an address the browser refuses (too long): the game is not in it
  }
}

/** The game in the address when the page opened: {game, start, moves, ply,
 * players} or null. */
export function readAddress() {
  const hash = window.location.hash.replace(/^#/, "");
  if (!hash) return null;
  const params = new URLSearchParams(hash);
  const game = params.get("game");
  if (!game || !game.trim()) return null;
  const ply = params.get("ply");
  const time = Number(params.get("time"));
  const lines = params.get("lines");
  return {
    game: game.trim(),
    start: params.get("start") || null,
    moves: (params.get("moves") || "").trim(),
    ply: ply !== null && /^\d+$/.test(ply) ? Number(ply) : null,
    players: parsePlayers(params.get("players")),
    analysis: params.get("analysis") === "1",
    time: params.has("time") && Number.isFinite(time) && time > 0 ? time : null,
    lines: lines !== null && /^\d+$/.test(lines) ? Number(lines) : null,
    review: params.get("review") === "1",
  };
}

/** The `new` message (and a `goto`) that bring back the game of `address`. */
export function restoreMessages(address, players) {
  const message = { type: "new", game: address.game, players: address.players || players };
  if (address.start) message.position = address.start;
  if (address.moves) message.moves = address.moves;
  const messages = [message];
  if (address.ply !== null) messages.push({ type: "goto", ply: address.ply });
  const settings = {};
  if (address.time !== null) settings.analysis_time = address.time;
  if (address.lines !== null) settings.lines = address.lines;
  if (Object.keys(settings).length) messages.push({ type: "settings", ...settings });
  // a review is dropped by any change of the position shown: it comes last
  if (address.review) messages.push({ type: "review" });
  else if (address.analysis) messages.push({ type: "analysis", on: true });
  return messages;
}

/** Whether `state` is the game `address` asked for. */
export function isRestored(state, address) {
  const squash = (text) => String(text || "").replace(/\s+/g, " ").trim();
  const same = squash(state.record) === squash(address.moves) || squash(state.movetext) === squash(address.moves);
  return same && (!address.start || state.start === address.start);
}
