// The zerosum page: wires the modules (set-up, board, record, analysis,
// keys) to the session's WebSocket (docs/messages.md is the contract).

import { moveShown, onAnalysis, onHint, onProgress, onResult, onReview, renderEvaluation, renderLegend, renderLines, renderSummary, resetSearchView } from "./analysis.js";
import { currentLanguage, initialLanguage, setLanguage, t, translatePage } from "./i18n.js";
import { bindKeys } from "./keys.js";
import { boardView, playMove, renderBoard, renderConnection, renderControls, renderStatus } from "./play.js";
import { copyField, gotoPly, loadPasted, navigationSeen, renderCopy, renderMoves, switchLine } from "./record.js";
import { SECONDS, buildParams, buildSpec, checkPlayerTime, clearSetupRefusal, loadGames, markSetupDirty, readPlayers, renderPlayerNames, secondsIn, sendPlayers, sendPlayersSoon, shortTitle, showSetupRefusal, syncPlayersFromState, syncSetupFromState, updatePlayerControls } from "./setup.js";
import { Connection } from "./socket.js";
import { $, MOVE_ITEM, app, debounce, h, isInteger, playerName, renderAll, setRenderer, send, toast } from "./store.js";
import { EXAMPLES, TreeView } from "./tree.js";
import { isRestored, readAddress, restoreMessages, writeAddress } from "./address.js";
import { bindLines, renderEngineLines } from "./lines.js";
import { EvalGraph } from "./graph.js";

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

function onError(text) {
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

function onMessage(message) {
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
      onError(typeof message.message === "string" && message.message ? message.message : t("Something went wrong"));
      break;
    default:
      // a message this page does not know: ignored
      break;
  }
}

function renderParts() {
  const parts = [
    renderConnection,
    renderPlayerNames,
    renderStatus,
    renderBoard,
    renderControls,
    renderMoves,
    renderCopy,
    renderEvaluation,
    () => renderEngineLines(boardView, playMove),
    () => graph.render(app.state),
    renderLines,
    renderSummary,
  ];
  for (const part of parts) {
    try {
      part();
    } catch (err) {
      console.warn("zerosum: render", err);
    }
  }
}

function socketUrl() {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}/ws?lang=${encodeURIComponent(currentLanguage())}`;
}

function onOpen(reconnected) {
  app.everConnected = true;
  clearTimeout(app.newGameTimer);
  const previous = app.state;
  if (reconnected && previous && typeof previous.game === "string") {
    // a new session on the server: bring back the game being played
    const message = { type: "new", game: previous.game, players: readPlayers() };
    if (typeof previous.start === "string" && previous.start) message.position = previous.start;
    if (typeof previous.record === "string" && previous.record.trim()) message.moves = previous.record;
    app.connection.send(message);
    if (isInteger(previous.ply) && Array.isArray(previous.history) && previous.ply < previous.history.length) {
      app.connection.send({ type: "goto", ply: previous.ply });
    }
    if (typeof previous.delay === "number") app.connection.send({ type: "settings", delay: previous.delay });
    if (previous.analysis) app.connection.send({ type: "analysis", on: true });
  } else if (readAddress()) {
    // a link or a reload: the game in the address
    const address = readAddress();
    app.restoring = address;
    for (const message of restoreMessages(address, readPlayers())) app.connection.send(message);
    clearTimeout(app.restoreTimer);
    app.restoreTimer = setTimeout(() => {
      app.restoring = null;
    }, 5000);
  } else {
    // the server starts a game of its own; if it does not, start one
    app.newGameTimer = setTimeout(() => {
      if (!app.state && app.connection.connected) {
        app.connection.send({ type: "new", game: buildSpec(), players: readPlayers() });
      }
    }, 2000);
  }
  renderAll();
}

function onClose() {
  renderAll();
}

export const treeView = new TreeView($("#tree-view"));
const graph = new EvalGraph($("#eval-graph"), (ply) => gotoPly(ply));

function renderTreeExamples() {
  const buttons = EXAMPLES.map((example) => {
    const button = h("button", "tree-example", example.title());
    button.type = "button";
    button.dataset.example = example.id;
    button.addEventListener("click", () => treeView.show({ ...example.request, title: example.title }));
    return button;
  });
  $("#tree-examples").replaceChildren(...buttons);
}

/** The tree of the position shown on the board. */
function showTreeOfPosition() {
  const state = app.state;
  if (!state) return;
  if (state.over) {
    toast(t("The game is over"), "error");
    return;
  }
  const depth = parseInt($("#tree-depth").value, 10);
  treeView.show({
    game: state.game,
    position: state.start,
    moves: (state.history || []).slice(0, state.ply).map((entry) => entry.move).join(" "),
    title: () => shortTitle(state.title) + " · " + t("{player} to move", { player: playerName(state, state.to_move) }),
    algorithm: $("#tree-algorithm").value,
    depth: Number.isFinite(depth) ? depth : null,
    evaluateTerminals: $("#tree-evaluate-terminals").checked,
  });
}

async function switchLanguage(lang) {
  const chosen = await setLanguage(lang);
  $("#lang").value = chosen;
  translatePage();
  renderTreeExamples();
  treeView.retranslate();
  renderLegend();
  renderAll();
  if (app.connection) app.connection.send({ type: "lang", lang: chosen });
  await loadGames();
}

function bindEvents() {
  $("#game-select").addEventListener("change", () => {
    buildParams({});
    markSetupDirty();
  });
  $("#new-game").addEventListener("click", () => {
    resetSearchView();
    app.evaluation = null;
    clearSetupRefusal();
    // the set-up stays as chosen until the new game's state (or its refusal)
    app.pendingNew = { from: "setup", seed: app.state ? app.state.seed : null, game: app.state ? app.state.game : null };
    // the new game carries the players: a pending players message would only
    // arrive later and restart its first search
    sendPlayersSoon.cancel();
    const players = readPlayers();
    app.sentPlayers = JSON.stringify(players);
    send({ type: "new", game: buildSpec(), players });
  });
  for (const index of [0, 1]) {
    $(`#player-${index}-kind`).addEventListener("change", sendPlayers);
    $(`#player-${index}-level`).addEventListener("change", () => {
      if ($(`#player-${index}-level`).value === "time") {
        const input = $(`#player-${index}-time`);
        updatePlayerControls();
        input.focus();
      }
      sendPlayers();
    });
    const time = $(`#player-${index}-time`);
    const toTime = () => {
      $(`#player-${index}-level`).value = "time";
      updatePlayerControls();
    };
    time.addEventListener("input", () => {
      toTime();
      if (secondsIn(time) !== null) sendPlayersSoon();
      else sendPlayersSoon.cancel();
    });
    time.addEventListener("change", () => {
      toTime();
      if (checkPlayerTime(index)) sendPlayers();
    });
  }
  const delay = $("#delay");
  const sendDelay = debounce(() => send({ type: "settings", delay: parseFloat(delay.value) || 0 }), 150);
  const delayEdited = () => {
    app.delayEdited = Date.now();
    renderControls();
    sendDelay();
  };
  delay.addEventListener("input", delayEdited);
  delay.addEventListener("change", delayEdited);
  const analysisTime = $("#analysis-time");
  analysisTime.addEventListener("change", () => {
    const seconds = secondsIn(analysisTime);
    if (seconds !== null) {
      send({ type: "settings", analysis_time: seconds });
      return;
    }
    toast(t("Analysis time must be between {min} and {max} s", { min: SECONDS.min, max: SECONDS.max }), "error");
    analysisTime.value = String(app.state && typeof app.state.analysis_time === "number" ? app.state.analysis_time : 10);
  });

  $("#undo").addEventListener("click", () => send({ type: "undo" }));
  $("#redo").addEventListener("click", () => send({ type: "redo" }));
  $("#flip").addEventListener("click", () => {
    app.flipped = !app.flipped;
    renderBoard();
    renderControls();
  });
  $("#hint").addEventListener("click", () => send({ type: "hint" }));
  $("#review").addEventListener("click", () => send({ type: "review" }));
  $("#stop").addEventListener("click", () => send({ type: "stop" }));
  $("#resume").addEventListener("click", () => send({ type: "resume" }));
  $("#analysis-toggle").addEventListener("change", (event) => {
    send({ type: "analysis", on: Boolean(event.target.checked) });
  });

  $("#moves").addEventListener("click", (event) => {
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
  $("#load-position").addEventListener("click", () => loadPasted("position"));
  $("#load-record").addEventListener("click", () => loadPasted("record"));

  $("#lang").addEventListener("change", (event) => switchLanguage(event.target.value));
  $("#retry").addEventListener("click", () => app.connection && app.connection.reconnect());

  for (const tab of document.querySelectorAll(".tabs [data-tab]")) {
    tab.addEventListener("click", () => selectTab(tab.dataset.tab));
  }
  $("#tree-show").addEventListener("click", showTreeOfPosition);

  bindKeys({
    flip: () => $("#flip").click(),
    hint: () => $("#hint").disabled || $("#hint").click(),
    analysis: () => {
      const toggle = $("#analysis-toggle");
      toggle.checked = !toggle.checked;
      toggle.dispatchEvent(new Event("change"));
    },
    newGame: () => $("#new-game").click(),
  });
}

function selectTab(name) {
  for (const tab of document.querySelectorAll(".tabs [data-tab]")) {
    tab.setAttribute("aria-selected", tab.dataset.tab === name ? "true" : "false");
  }
  for (const panel of document.querySelectorAll(".tab-panel[data-panel]")) {
    panel.hidden = panel.dataset.panel !== name;
  }
}

async function start() {
  setRenderer(renderParts);
  bindEvents();
  bindLines(renderAll);
  updatePlayerControls();
  const lang = await setLanguage(initialLanguage());
  $("#lang").value = lang;
  translatePage();
  renderTreeExamples();
  renderLegend();
  renderAll();
  app.connection = new Connection({ url: socketUrl, onMessage, onOpen, onClose });
  await loadGames();
  renderAll();
}


start().catch((err) => console.warn("zerosum: start", err));
