// The zerosum page: wires the modules (set-up, board, record, analysis,
// keys) to the session's WebSocket (docs/messages.md is the contract).

import { onAnalysis, onHint, onProgress, onResult, renderEvaluation, renderLegend, renderLines, renderSummary, resetSearchView } from "./analysis.js";
import { currentLanguage, initialLanguage, setLanguage, t, translatePage } from "./i18n.js";
import { onKey } from "./keys.js";
import { renderBoard, renderConnection, renderControls, renderStatus } from "./play.js";
import { copyField, gotoPly, loadPasted, renderCopy, renderMoves } from "./record.js";
import { buildParams, buildSpec, loadGames, markSetupDirty, readPlayers, renderPlayerNames, sendPlayers, sendPlayersSoon, shortTitle, syncPlayersFromState, syncSetupFromState, updatePlayerControls } from "./setup.js";
import { Connection } from "./socket.js";
import { $, MOVE_ITEM, app, debounce, h, isInteger, playerName, renderAll, setRenderer, send, toast } from "./store.js";
import { EXAMPLES, TreeView } from "./tree.js";

function onState(state) {
  const previous = app.state;
  if (previous && previous.game !== state.game) {
    app.evaluation = null;
    resetSearchView();
  }
  app.state = state;
  // a new search starts: fresh lines
  if (state.searching) {
    const key = `${state.searching}|${state.position}|${state.ply}`;
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
  document.body.dataset.ready = "1";
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
    case "error":
      toast(typeof message.message === "string" && message.message ? message.message : t("Something went wrong"), "error");
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
    app.setupDirty = false;
    app.setupGame = null;
    $("#new-game").classList.remove("attention");
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
      sendPlayersSoon();
    });
    time.addEventListener("change", () => {
      toTime();
      sendPlayers();
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
    const seconds = parseFloat(analysisTime.value);
    if (Number.isFinite(seconds) && seconds > 0) send({ type: "settings", analysis_time: seconds });
  });

  $("#undo").addEventListener("click", () => send({ type: "undo" }));
  $("#redo").addEventListener("click", () => send({ type: "redo" }));
  $("#flip").addEventListener("click", () => {
    app.flipped = !app.flipped;
    renderBoard();
    renderControls();
  });
  $("#hint").addEventListener("click", () => send({ type: "hint" }));
  $("#stop").addEventListener("click", () => send({ type: "stop" }));
  $("#resume").addEventListener("click", () => send({ type: "resume" }));
  $("#analysis-toggle").addEventListener("change", (event) => {
    send({ type: "analysis", on: Boolean(event.target.checked) });
  });

  $("#moves").addEventListener("click", (event) => {
    const item = event.target.closest ? event.target.closest(MOVE_ITEM) : null;
    if (item) gotoPly(Number(item.dataset.ply));
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

  document.addEventListener("keydown", onKey);
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
