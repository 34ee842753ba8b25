// The session's messages (docs/messages.md): each kind to its handler; a
// state updates the model and the page, an error answers what was sent.

import { $, app, isInteger, renderAll, toast } from "./store.js";
import { clearSetupRefusal, showSetupRefusal, syncPlayersFromState, syncSetupFromState } from "./setup.js";
import { isRestored, writeAddress } from "./address.js";
import { moveShown, onAnalysis, onHint, onProgress, onResult, onReview, resetSearchView } from "./analysis.js";
import { navigationSeen } from "./record.js";
import { t } from "./i18n.js";

function onState(state) {
  const previous = app.state;
  if (previous && previous.game !== state.game) {
    app.evaluation = null;
    resetSearchView();
  }
  app.state = state;
  navigationSeen(state);
  if (app.restoring && isRestored(state, app.restoring)) {
    app.restoring = null;
    clearTimeout(app.restoreTimer);
  }
  writeAddress(state);
  const pending = app.pendingNew;
  if (pending && (state.seed !== pending.seed || state.game !== pending.game)) {
    // the game asked for has started: the set-up shows it
    app.pendingNew = null;
    if (pending.from === "setup") {
      app.setupDirty = false;
      app.setupGame = null;
      $("#new-game").classList.remove("attention");
      clearSetupRefusal();
    }
  }
  if (previous && isInteger(previous.ply) && state.ply === previous.ply + 1 && state.game === previous.game) {
    moveShown(previous, state);
  }
  // the search whose objects are shown (older searches' are dropped)
  if (typeof state.search_id === "string" || typeof state.search_id === "number") app.searchId = state.search_id;
  // a new search starts: fresh lines
  if (state.searching) {
    const key = state.search_id !== undefined && state.search_id !== null
      ? `id|${state.search_id}`
      : `${state.searching}|${state.position}|${state.ply}`;
    if (key !== app.searchKey) {
      app.searchKey = key;
      app.searchKind = state.searching;
      app.lines = [];
    }
  } else {
    app.searchKey = null;
  }
  if (app.scores.position !== state.position) app.scores = { position: null, map: new Map(), best: null };
  syncSetupFromState(state, false);
  syncPlayersFromState(state);
  renderAll();
  // hooks for tests and tools: which game (each new game has its own seed)
  document.body.dataset.game = String(state.game || "");
  document.body.dataset.seed = String(state.seed ?? "");
  document.body.dataset.ply = String(isInteger(state.ply) ? state.ply : 0);
  document.body.dataset.searching = state.searching || "";
  document.body.dataset.over = state.over ? "1" : "";
  const players = Array.isArray(state.players) ? state.players : [];
  document.body.dataset.players = players.map((player) => (player && player.kind) || "").join(",");
  document.body.dataset.levels = players.map((player) => (player && (player.level || player.time)) || "").join(",");
  document.body.dataset.ready = "1";
}

/** An error: one that ends a search carries its search_id and answers
 * nothing the page sent; any other answers the last request (a New game,
 * the address's game). */
function onError(text, fromSearch) {
  if (fromSearch) {
    toast(text, "error");
    return;
  }
  if (app.restoring) {
    // the address's game could not be set up: the server's game stays
    app.restoring = null;
    clearTimeout(app.restoreTimer);
    if (app.state) writeAddress(app.state);
  }
  const pending = app.pendingNew;
  app.pendingNew = null;
  // the answer to a New game of the set-up: refused, the game goes on
  if (pending && pending.from === "setup") showSetupRefusal(text);
  toast(text, "error");
}

export function onMessage(message) {
  switch (message.type) {
    case "state":
      onState(message);
      break;
    case "progress":
      onProgress(message);
      break;
    case "analysis":
      onAnalysis(message);
      break;
    case "result":
      onResult(message);
      break;
    case "hint":
      onHint(message);
      break;
    case "review":
      onReview(message);
      break;
    case "error":
      onError(
        typeof message.message === "string" && message.message ? message.message : t("Something went wrong"),
        message.search_id !== undefined && message.search_id !== null,
      );
      break;
    default:
      // a message this page does not know: ignored
      break;
  }
}

