// The zerosum page: wires the modules (set-up, board, record, analysis,
// lines, graph, keys, tree panel) to the session's WebSocket
// (messages.js; docs/messages.md is the contract).

import { bindAnalysis, resetSearchView, renderEvaluation, renderLegend, renderLines, renderSummary } from "./analysis.js";
import { currentLanguage, initialLanguage, setLanguage, translatePage } from "./i18n.js";
import { bindKeys } from "./keys.js";
import { bindPlay, boardView, playMove, renderBoard, renderConnection, renderControls, renderStatus } from "./play.js";
import { bindRecord, gotoPly, renderCopy, renderMoves } from "./record.js";
import { bindSetup, loadGames, readPlayers, renderPlayerNames, updatePlayerControls } from "./setup.js";
import { Connection } from "./socket.js";
import { $, app, isInteger, renderAll, setRenderer } from "./store.js";
import { readAddress, restoreMessages } from "./address.js";
import { bindLines, renderEngineLines } from "./lines.js";
import { EvalGraph } from "./graph.js";
import { bindTreePanel, renderTreeExamples, treeView } from "./treepanel.js";
import { onMessage } from "./messages.js";

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
    restoreAddress(readAddress());
  }
  // else the server's own game (its first state) is the landing game: the
  // page never starts one of its own, however late that state comes
  renderAll();
}

/** Set up the game of `address` (a link, a reload, Back after a new game). */
function restoreAddress(address) {
  app.restoring = address;
  for (const message of restoreMessages(address, readPlayers())) app.connection.send(message);
  clearTimeout(app.restoreTimer);
  app.restoreTimer = setTimeout(() => {
    app.restoring = null;
  }, 5000);
}

/** The address changed without a reload (a link pasted into this tab, Back
 * or Forward over a new game): show its game. The page's own rewrites use
 * history.replaceState, which fires no hashchange. */
function onHashChange() {
  const address = readAddress();
  if (!address || !app.connection || !app.connection.connected) return;
  resetSearchView();
  app.evaluation = null;
  app.review = null;
  restoreAddress(address);
}

function onClose() {
  renderAll();
}

const graph = new EvalGraph($("#eval-graph"), (ply) => gotoPly(ply));

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
  bindSetup();
  bindPlay();
  bindAnalysis();
  bindRecord();
  bindTreePanel();
  $("#lang").addEventListener("change", (event) => switchLanguage(event.target.value));
  $("#retry").addEventListener("click", () => app.connection && app.connection.reconnect());
  window.addEventListener("hashchange", onHashChange);

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
