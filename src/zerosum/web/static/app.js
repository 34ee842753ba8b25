// The zerosum page: wires the set-up, the board, the controls and the side
// panel to the session's WebSocket (docs/messages.md is the contract).

import { t, currentLanguage, initialLanguage, setLanguage, translatePage, formatNumber } from "./i18n.js";
import { Connection } from "./socket.js";
import { BoardView, cellsOf, resolveCell } from "./board.js";
import { badgeText, barFraction, classify, compact, evalWords, scoreWords } from "./scores.js";
import { TreeView, EXAMPLES } from "./tree.js";

// ---------------------------------------------------------------- helpers

const $ = (selector) => document.querySelector(selector);
const MOVE_ITEM = "li[data-ply]";

function h(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function debounce(fn, ms) {
  let timer = null;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

function isInteger(value) {
  return typeof value === "number" && Number.isInteger(value);
}

function pvText(pv) {
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

function playerColour(state, player) {
  const pieces = state && state.board && Array.isArray(state.board.pieces) ? state.board.pieces : [];
  return TOKEN_COLOURS[pieces[player]] || (player === 0 ? "var(--p0-default)" : "var(--p1-default)");
}

// ---------------------------------------------------------------- the model

const app = {
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
};

function send(message) {
  if (app.connection && app.connection.send(message)) return true;
  toast(t("Not connected; trying again…"), "error");
  return false;
}

// ---------------------------------------------------------------- toast

let toastTimer = null;

function toast(message, kind = "info") {
  const node = $("#toast");
  if (!node) return;
  node.textContent = String(message);
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

// ---------------------------------------------------------------- games and set-up

function shortTitle(title) {
  const text = String(title || "");
  const cut = text.search(/[:：]/);
  return cut > 0 ? text.slice(0, cut).trim() : text;
}

async function loadGames() {
  try {
    const response = await fetch("/api/games?lang=" + encodeURIComponent(currentLanguage()));
    if (!response.ok) throw new Error(String(response.status));
    const games = await response.json();
    if (Array.isArray(games)) app.games = games.filter((g) => g && typeof g.name === "string");
  } catch (_err) {
    toast(t("Could not load the list of games"), "error");
  }
  fillGameSelect();
}

function gameInfo(name) {
  return app.games.find((g) => g.name === name) || null;
}

function fillGameSelect() {
  const select = $("#game-select");
  const keep = select.value || (app.state ? parseSpec(app.state.game).name : "");
  select.replaceChildren();
  for (const game of app.games) {
    const option = h("option", null, shortTitle(game.title) || game.name);
    option.value = game.name;
    option.title = game.title || game.name;
    select.appendChild(option);
  }
  if (keep && gameInfo(keep)) select.value = keep;
  const values = readParamValues();
  buildParams(values);
  if (app.state && !app.setupDirty) syncSetupFromState(app.state, true);
}

/** {name, args: {param: value}} from a spec such as mnk(m=4,n=4,k=3) or mnk(4,4,3). */
function parseSpec(spec) {
  const match = /^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$/s.exec(String(spec || ""));
  if (!match) return { name: String(spec || ""), args: {} };
  const name = match[1].toLowerCase();
  const args = {};
  const body = (match[2] || "").trim();
  if (body) {
    const info = gameInfo(name);
    const params = info && Array.isArray(info.params) ? info.params : [];
    body.split(/,/).forEach((item, index) => {
      const eq = item.indexOf("=");
      if (eq >= 0) args[item.slice(0, eq).trim().toLowerCase()] = item.slice(eq + 1).trim();
      else if (params[index]) args[params[index].name] = item.trim();
    });
  }
  return { name, args };
}

function sameSpec(a, b) {
  const strip = (spec) => String(spec || "").replace(/\s+/g, "").toLowerCase();
  return strip(a) === strip(b);
}

function readParamValues() {
  const values = {};
  for (const input of $("#params").querySelectorAll("[name^='param-']")) {
    values[input.name.slice(6)] = input.value;
  }
  return values;
}

function buildParams(values) {
  const container = $("#params");
  container.replaceChildren();
  const info = gameInfo($("#game-select").value);
  $("#game-description").textContent = info ? info.description || info.title || "" : "";
  if (!info || !Array.isArray(info.params)) return;
  for (const param of info.params) {
    if (!param || typeof param.name !== "string") continue;
    const label = h("label", "field param");
    const head = h("span", "field-label");
    head.appendChild(h("code", "param-name", param.name));
    if (param.help) head.appendChild(h("span", "param-help", param.help));
    label.appendChild(head);
    let input;
    const choices = Array.isArray(param.choices) ? param.choices : [];
    if (choices.length) {
      input = h("select");
      for (const choice of choices) {
        const option = h("option", null, choice);
        option.value = String(choice);
        input.appendChild(option);
      }
    } else if (typeof param.default === "number") {
      input = h("input");
      input.type = "number";
      input.step = "1";
      if (isInteger(param.minimum)) input.min = String(param.minimum);
      if (isInteger(param.maximum)) input.max = String(param.maximum);
      input.inputMode = "numeric";
    } else {
      input = h("input");
      input.type = "text";
      input.spellcheck = false;
    }
    input.name = "param-" + param.name;
    input.dataset.default = param.default === null || param.default === undefined ? "" : String(param.default);
    const value = values && values[param.name] !== undefined ? values[param.name] : input.dataset.default;
    input.value = value;
    if (choices.length && !choices.map(String).includes(String(value))) input.value = input.dataset.default;
    if (param.help) input.title = param.help;
    input.addEventListener("input", markSetupDirty);
    input.addEventListener("change", markSetupDirty);
    label.appendChild(input);
    container.appendChild(label);
  }
}

/** The spec of the set-up: name, or name(p=v,...) with the parameters that
 * differ from their defaults. */
function buildSpec() {
  const name = $("#game-select").value || (app.state ? parseSpec(app.state.game).name : "tictactoe");
  const parts = [];
  for (const input of $("#params").querySelectorAll("[name^='param-']")) {
    const value = String(input.value).trim();
    if (value === "" || value === input.dataset.default) continue;
    parts.push(`${input.name.slice(6)}=${value}`);
  }
  return parts.length ? `${name}(${parts.join(",")})` : name;
}

function markSetupDirty() {
  app.setupDirty = true;
  $("#new-game").classList.add("attention");
}

/** Show the game being played in the set-up (when it changed). */
function syncSetupFromState(state, force) {
  if (!state || typeof state.game !== "string") return;
  if (!force && state.game === app.setupGame) return;
  app.setupGame = state.game;
  const { name, args } = parseSpec(state.game);
  const select = $("#game-select");
  // an alias chosen in the menu (gomoku) stays chosen when the game is its spec
  const chosen = gameInfo(select.value);
  if (chosen && chosen.alias_of && sameSpec(chosen.alias_of, state.game)) {
    buildParams({});
  } else {
    if (!gameInfo(name)) return;
    select.value = name;
    buildParams(args);
  }
  app.setupDirty = false;
  $("#new-game").classList.remove("attention");
}

// ---------------------------------------------------------------- players

function readPlayer(index) {
  const kind = $(`#player-${index}-kind`).value;
  if (kind !== "ai") return { kind: kind === "random" ? "random" : "human" };
  const level = $(`#player-${index}-level`).value;
  if (level === "time") {
    let seconds = parseFloat($(`#player-${index}-time`).value);
    if (!Number.isFinite(seconds) || seconds <= 0) seconds = 1;
    return { kind: "ai", time: seconds };
  }
  return { kind: "ai", level };
}

function readPlayers() {
  return [readPlayer(0), readPlayer(1)];
}

function updatePlayerControls() {
  for (const index of [0, 1]) {
    const row = document.querySelector(`.player[data-player="${index}"]`);
    const kind = $(`#player-${index}-kind`).value;
    row.classList.toggle("is-ai", kind === "ai");
    row.classList.toggle("is-timed", kind === "ai" && $(`#player-${index}-level`).value === "time");
  }
}

function sendPlayers() {
  updatePlayerControls();
  const players = readPlayers();
  const text = JSON.stringify(players);
  if (text === app.sentPlayers) return;
  app.sentPlayers = text;
  send({ type: "players", players });
}

const sendPlayersSoon = debounce(sendPlayers, 400);

function syncPlayersFromState(state) {
  if (!Array.isArray(state.players)) return;
  const active = document.activeElement;
  state.players.slice(0, 2).forEach((player, index) => {
    if (!player || typeof player !== "object") return;
    const kindSelect = $(`#player-${index}-kind`);
    const levelSelect = $(`#player-${index}-level`);
    const timeInput = $(`#player-${index}-time`);
    const kind = ["human", "ai", "random"].includes(player.kind) ? player.kind : "human";
    if (active !== kindSelect) kindSelect.value = kind;
    if (kind === "ai") {
      if (typeof player.time === "number") {
        if (active !== levelSelect) levelSelect.value = "time";
        if (active !== timeInput) timeInput.value = String(player.time);
      } else if (active !== levelSelect && ["easy", "medium", "hard", "perfect"].includes(player.level)) {
        levelSelect.value = player.level;
      }
    }
  });
  app.sentPlayers = JSON.stringify(readPlayers());
  updatePlayerControls();
}

function renderPlayerNames() {
  const state = app.state;
  const names = state && Array.isArray(state.player_names) ? state.player_names : [];
  const fallback = [t("First player"), t("Second player")];
  for (const index of [0, 1]) {
    $(`#player-${index}-name`).textContent = names[index] || fallback[index];
    $(`#player-${index}-swatch`).style.background = playerColour(state, index);
    $(`#eval-name-${index}`).textContent = names[index] || fallback[index];
  }
  const bar = $("#eval-bar");
  bar.style.setProperty("--p0-color", playerColour(state, 0));
  bar.style.setProperty("--p1-color", playerColour(state, 1));
}

// ---------------------------------------------------------------- the board

const boardView = new BoardView($("#board"), { onCell: onCellClick });

function isHumanTurn(state) {
  if (!state || state.over) return false;
  const players = Array.isArray(state.players) ? state.players : [];
  const player = players[state.to_move];
  return !player || player.kind === "human";
}

/** Why the side to move cannot be played by a click, or null. */
function refusal(state) {
  if (!state) return t("Not connected; trying again…");
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

function playMove(move) {
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

function renderBoard() {
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
      const kind = classify(entry.score, entry.exact).kind;
      const badge = h("span", `score-chip ${entry.exact ? "exact" : "heuristic"} ${kind}`, badgeText(entry.score, entry.exact));
      button.appendChild(badge);
      button.title = `${move.move}: ${scoreWords(entry.score, entry.exact)}`;
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

// ---------------------------------------------------------------- status, banner, controls

function playerName(state, index) {
  const names = state && Array.isArray(state.player_names) ? state.player_names : [];
  return names[index] || (index === 0 ? t("First player") : t("Second player"));
}

function renderStatus() {
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
    if (state.paused) text += " · " + t("paused");
  }
  status.textContent = text;
  status.classList.toggle("thinking", Boolean(state && state.searching === "ai"));
  const showSwatch = Boolean(state && !state.over);
  swatch.hidden = !showSwatch;
  if (showSwatch) swatch.style.background = playerColour(state, state.to_move);

  const banner = $("#banner");
  if (state && state.over) {
    banner.hidden = false;
    banner.textContent = state.banner || t("Game over");
    banner.dataset.winner = state.winner === 0 || state.winner === 1 ? String(state.winner) : "draw";
  } else {
    banner.hidden = true;
    banner.textContent = "";
  }
}

function renderConnection() {
  const node = $("#connection");
  const connected = app.connection && app.connection.connected;
  const stateName = connected ? "connected" : app.everConnected ? "disconnected" : "connecting";
  node.dataset.state = stateName;
  $("#connection-text").textContent =
    stateName === "connected" ? t("Connected") : stateName === "disconnected" ? t("Disconnected") : t("Connecting…");
  $("#retry").hidden = stateName !== "disconnected";
  document.body.dataset.connected = connected ? "1" : "";
}

function renderControls() {
  const state = app.state;
  const has = Boolean(state);
  const ply = has && isInteger(state.ply) ? state.ply : 0;
  const length = has && Array.isArray(state.history) ? state.history.length : 0;
  $("#undo").disabled = !has || ply === 0;
  $("#redo").disabled = !has || ply >= length;
  $("#hint").disabled = !has || Boolean(state.over);
  $("#stop").disabled = !has || !state.searching;
  $("#resume").hidden = !(has && state.paused);
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
}

// ---------------------------------------------------------------- move list

function renderMoves() {
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
    li.tabIndex = -1;
    li.appendChild(h("span", "move-num", index + 1));
    const who = h("span", "move-who");
    const dot = h("span", "swatch small");
    dot.style.background = playerColour(state, entry.player);
    who.appendChild(dot);
    who.appendChild(document.createTextNode(playerName(state, entry.player)));
    li.appendChild(who);
    li.appendChild(h("span", "move-text", entry.move));
    if (index + 1 === ply) {
      li.classList.add("current");
      li.setAttribute("aria-current", "step");
      current = li;
    } else if (index + 1 > ply) {
      li.classList.add("future");
    }
    li.title = t("Go to the position after move {n}", { n: index + 1 });
    list.appendChild(li);
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

function gotoPly(ply) {
  const state = app.state;
  if (!state || !Array.isArray(state.history)) return;
  const target = Math.max(0, Math.min(state.history.length, ply));
  if (target === state.ply) return;
  send({ type: "goto", ply: target });
}

// ---------------------------------------------------------------- copy and paste

function renderCopy() {
  const state = app.state;
  $("#position").value = state && state.position !== undefined && state.position !== null ? String(state.position) : "";
  $("#record").value = state && state.record !== undefined && state.record !== null ? String(state.record) : "";
}

async function copyField(selector) {
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

function loadPasted(kind) {
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
  else message.moves = text;
  resetSearchView();
  send(message);
}

// ---------------------------------------------------------------- analysis panel

function moverIndex(object) {
  const state = app.state;
  if (object && (object.player === 0 || object.player === 1)) return object.player;
  if (object && typeof object.to_move === "string" && state && Array.isArray(state.player_names)) {
    const index = state.player_names.indexOf(object.to_move);
    if (index === 0 || index === 1) return index;
  }
  if (object && (object.to_move === 0 || object.to_move === 1)) return object.to_move;
  return state && state.to_move === 1 ? 1 : 0;
}

function setEvaluation(score, exact, mover, position) {
  const state = app.state;
  if (typeof score !== "number" || !Number.isFinite(score)) return;
  app.evaluation = {
    fraction: barFraction(score, exact, mover),
    text: evalWords(score, exact, mover, state ? state.player_names : null),
    position,
    game: state ? state.game : null,
  };
}

function renderEvaluation() {
  const state = app.state;
  const bar = $("#eval-bar");
  const textNode = $("#eval-text");
  let fraction = 0.5;
  let text = "";
  let stale = false;
  if (state && state.over) {
    fraction = state.winner === 0 ? 1 : state.winner === 1 ? 0 : 0.5;
    text = state.banner || t("Game over");
  } else if (app.evaluation && state && app.evaluation.game === state.game) {
    fraction = app.evaluation.fraction;
    text = app.evaluation.text;
    stale = app.evaluation.position !== state.position;
  } else {
    text = t("no evaluation yet");
    stale = true;
  }
  const percent = Math.round(Math.max(0, Math.min(1, fraction)) * 1000) / 10;
  bar.style.setProperty("--share", percent + "%");
  bar.setAttribute("aria-valuenow", String(percent));
  bar.setAttribute("aria-valuetext", text);
  bar.dataset.value = String(fraction);
  bar.classList.toggle("stale", stale);
  textNode.textContent = text;
}

function searchKindText(kind) {
  if (kind === "ai") return t("The AI's search");
  if (kind === "analysis") return t("Analysis");
  if (kind === "hint") return t("Hint");
  return "";
}

function renderLines() {
  const container = $("#analysis-lines");
  container.replaceChildren();
  $("#search-kind").textContent = searchKindText(app.searchKind);
  if (!app.lines.length) {
    container.dataset.empty = "1";
    return;
  }
  container.dataset.empty = "";
  for (const progress of app.lines) {
    const line = h("div", "line");
    const depth = progress.depth === null || progress.depth === undefined ? t("end") : String(progress.depth);
    line.appendChild(h("span", "line-depth", depth));
    const exact = Boolean(progress.exact);
    const kind = classify(progress.score, exact).kind;
    const score = h("span", `line-score ${kind}`, typeof progress.score === "number" ? badgeText(progress.score, exact) : "–");
    line.appendChild(score);
    line.appendChild(h("span", "line-nodes", formatNumber(progress.nodes)));
    line.appendChild(h("span", "line-nps", t("{count}/s", { count: compact(progress.nps) })));
    line.appendChild(h("span", "line-pv", pvText(progress.pv) || String(progress.best_move || "")));
    const details = [];
    if (typeof progress.score === "number") details.push(scoreWords(progress.score, exact));
    if (typeof progress.time_s === "number") {
      const seconds = formatNumber(progress.time_s, { maximumFractionDigits: 2 });
      details.push(t("{seconds} s", { seconds }));
    }
    if (typeof progress.tt_hit_rate === "number") {
      const percent = formatNumber(progress.tt_hit_rate * 100, { maximumFractionDigits: 0 });
      details.push(t("table hits {percent}%", { percent }));
    }
    if (typeof progress.lower === "number" && typeof progress.upper === "number") {
      const lower = badgeText(progress.lower, true);
      const upper = badgeText(progress.upper, true);
      details.push(t("proven between {lower} and {upper}", { lower, upper }));
    }
    const pv = pvText(progress.pv);
    if (pv) details.push(t("line: {moves}", { moves: pv }));
    line.title = details.join(" · ");
    container.appendChild(line);
  }
  container.scrollTop = container.scrollHeight;
}

function renderSummary() {
  const node = $("#search-result");
  const state = app.state;
  const summary = app.summary;
  if (!summary || !state) {
    node.textContent = "";
    node.hidden = true;
    return;
  }
  node.hidden = false;
  node.textContent = summary.text;
  const stale = summary.kind !== "result" && summary.position !== undefined && summary.position !== state.position;
  node.classList.toggle("stale", stale);
}

function renderLegend() {
  const legend = $("#score-legend");
  legend.replaceChildren();
  const items = [
    ["exact win", "W7", t("win in {n} plies", { n: 7 })],
    ["exact draw", "D", t("draw")],
    ["exact loss", "L4", t("loss in {n} plies", { n: 4 })],
    ["heuristic", "+35", t("heuristic score")],
  ];
  for (const [cls, sample, words] of items) {
    const item = h("span", "legend-item");
    item.appendChild(h("span", "score-chip " + cls, sample));
    item.appendChild(h("span", null, words));
    legend.appendChild(item);
  }
  legend.appendChild(h("span", "legend-note muted", t("Scores on the board are for the side to move.")));
}

function resetSearchView() {
  app.lines = [];
  app.searchKey = null;
  app.searchKind = null;
  app.summary = null;
  app.scores = { position: null, map: new Map(), best: null };
  app.hint = null;
}

function scoreMap(moves) {
  const map = new Map();
  if (!Array.isArray(moves)) return map;
  for (const entry of moves) {
    if (!entry || entry.move === undefined || typeof entry.score !== "number") continue;
    const key = String(entry.move);
    if (!map.has(key)) map.set(key, { score: entry.score, exact: Boolean(entry.exact) });
  }
  return map;
}

// ---------------------------------------------------------------- messages

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

function onProgress(progress) {
  const state = app.state;
  // a line of a search of a position no longer shown
  if (state && typeof progress.position === "string" && progress.position !== state.position) return;
  app.lines.push(progress);
  if (app.lines.length > 300) app.lines.splice(0, app.lines.length - 300);
  if (!app.searchKind && state && state.searching) app.searchKind = state.searching;
  if (state && Array.isArray(progress.moves) && progress.moves.length) {
    const map = scoreMap(progress.moves);
    app.scores = { position: state.position, map, best: progress.moves[0] ? String(progress.moves[0].move) : null };
  }
  if (state && typeof progress.score === "number") {
    setEvaluation(progress.score, Boolean(progress.exact), moverIndex(null), state.position);
  }
  scheduleRender();
}

function onAnalysis(analysis) {
  const state = app.state;
  if (!state) return;
  const position = typeof analysis.position === "string" ? analysis.position : state.position;
  if (position !== state.position) return; // an analysis of a position no longer shown
  const moves = Array.isArray(analysis.moves) ? analysis.moves : [];
  app.scores = { position, map: scoreMap(moves), best: analysis.best_move !== undefined ? String(analysis.best_move) : null };
  if (typeof analysis.score === "number") {
    setEvaluation(analysis.score, Boolean(analysis.exact), moverIndex(analysis), position);
    app.summary = {
      kind: "analysis",
      position,
      text: t("Best move {move}: {value} ({nodes} positions, {seconds} s)", {
        move: analysis.best_move === undefined || analysis.best_move === null ? "–" : analysis.best_move,
        value: scoreWords(analysis.score, Boolean(analysis.exact)),
        nodes: formatNumber(analysis.nodes),
        seconds: formatNumber(typeof analysis.time_s === "number" ? analysis.time_s : 0, { maximumFractionDigits: 2 }),
      }),
    };
  }
  scheduleRender();
}

function onResult(result) {
  const state = app.state;
  const player = moverIndex(result);
  if (typeof result.score === "number") {
    const position = typeof result.position === "string" ? result.position : state ? state.position : null;
    setEvaluation(result.score, Boolean(result.exact), player, position);
    app.summary = {
      kind: "result",
      text: t("{player} plays {move}: {value}, {nodes} positions", {
        player: playerName(state, player),
        move: result.best_move === undefined || result.best_move === null ? "–" : result.best_move,
        value: scoreWords(result.score, Boolean(result.exact)),
        nodes: formatNumber(result.nodes),
      }),
    };
  }
  scheduleRender();
}

function onHint(hint) {
  const state = app.state;
  if (!state || hint.move === undefined || hint.move === null) return;
  if (typeof hint.position === "string" && hint.position !== state.position) return;
  app.hint = { move: String(hint.move), score: hint.score, exact: Boolean(hint.exact), position: state.position };
  const value = typeof hint.score === "number" ? scoreWords(hint.score, Boolean(hint.exact)) : "";
  const text = value ? t("Hint: {move} ({value})", { move: hint.move, value }) : t("Hint: {move}", { move: hint.move });
  app.summary = { kind: "hint", position: state.position, text };
  if (typeof hint.score === "number") setEvaluation(hint.score, Boolean(hint.exact), moverIndex(null), state.position);
  toast(text);
  scheduleRender();
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

// ---------------------------------------------------------------- rendering

let renderPending = false;

function scheduleRender() {
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

function renderAll() {
  renderPending = false;
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

// ---------------------------------------------------------------- connection

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

// ---------------------------------------------------------------- language

// ---------------------------------------------------------------- the search tree

const treeView = new TreeView($("#tree-view"));

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

// ---------------------------------------------------------------- events

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

function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (treeView.isOpen()) return; // the tree view has keys of its own
  const target = event.target;
  const tag = target && target.tagName ? target.tagName.toLowerCase() : "";
  if (tag === "input" || tag === "select" || tag === "textarea" || (target && target.isContentEditable)) return;
  const state = app.state;
  if (!state) return;
  const length = Array.isArray(state.history) ? state.history.length : 0;
  let ply = null;
  if (event.key === "ArrowLeft") ply = state.ply - 1;
  else if (event.key === "ArrowRight") ply = state.ply + 1;
  else if (event.key === "Home") ply = 0;
  else if (event.key === "End") ply = length;
  if (ply === null) return;
  event.preventDefault();
  if (ply >= 0 && ply <= length && ply !== state.ply) send({ type: "goto", ply });
}

// ---------------------------------------------------------------- start

async function start() {
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
