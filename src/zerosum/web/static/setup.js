// The set-up panel: the game menu, its parameters (from GET /api/games) and
// the two players.

import { currentLanguage, t } from "./i18n.js";
import { $, app, debounce, h, isInteger, playerColour, send, toast } from "./store.js";
import { renderControls } from "./play.js";
import { resetSearchView } from "./analysis.js";

export function shortTitle(title) {
  const text = String(title || "");
  const cut = text.search(/[:：]/);
  return cut > 0 ? text.slice(0, cut).trim() : text;
}

export async function loadGames() {
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
  const keep = select.value || (app.state ? menuName(app.state) : "");
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

/** The menu entry of the game `state` plays: an alias (gomoku) when the
 * game is its spec, else the registry name the server sends. */
function menuName(state) {
  const alias = app.games.find((g) => g.alias_of && (g.name === state.game || sameSpec(g.alias_of, state.game)));
  if (alias) return alias.name;
  return typeof state.name === "string" ? state.name : String(state.game || "");
}

/** state.params as the form's texts. */
function paramValues(state) {
  const values = {};
  const params = state && state.params && typeof state.params === "object" ? state.params : {};
  for (const [key, value] of Object.entries(params)) values[key] = String(value);
  return values;
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

export function buildParams(values) {
  const container = $("#params");
  container.replaceChildren();
  const info = gameInfo($("#game-select").value);
  $("#game-description").textContent = info ? info.description || info.title || "" : "";
  if (!info || !Array.isArray(info.params)) return;
  for (const param of info.params) {
    if (!param || typeof param.name !== "string") continue;
    const label = h("label", "field param");
    const head = h("span", "field-label");
    // the server's translated label (Rows, 行数); the spec's name as a tooltip
    const name = h("span", "param-name", typeof param.label === "string" && param.label ? param.label : param.name);
    // the tooltip in the page's language (the spec's key is English)
    name.title = typeof param.help === "string" && param.help ? param.help : name.textContent;
    head.appendChild(name);
    if (param.help) head.appendChild(h("span", "param-help", param.help));
    label.appendChild(head);
    let input;
    const choices = Array.isArray(param.choices) ? param.choices : [];
    if (choices.length) {
      input = h("select");
      const labels = Array.isArray(param.choice_labels) ? param.choice_labels : [];
      choices.forEach((choice, index) => {
        const option = h("option", null, labels[index] || choice);
        option.value = String(choice);
        input.appendChild(option);
      });
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
export function buildSpec() {
  const name = $("#game-select").value || (app.state ? menuName(app.state) : "tictactoe");
  const parts = [];
  for (const input of $("#params").querySelectorAll("[name^='param-']")) {
    const value = String(input.value).trim();
    if (value === "" || value === input.dataset.default) continue;
    parts.push(`${input.name.slice(6)}=${value}`);
  }
  return parts.length ? `${name}(${parts.join(",")})` : name;
}

/** A refused New game: the set-up goes back to the game played and says
 * what was refused (the server's words). */
export function showSetupRefusal(message) {
  const node = $("#setup-error");
  node.textContent = message;
  node.hidden = false;
  app.setupDirty = false;
  syncSetupFromState(app.state, true);
}

export function clearSetupRefusal() {
  const node = $("#setup-error");
  node.hidden = true;
  node.textContent = "";
}

export function markSetupDirty() {
  app.setupDirty = true;
  $("#new-game").classList.add("attention");
}

/** Show the game being played in the set-up (when it changed). */
export function syncSetupFromState(state, force) {
  if (!state || typeof state.game !== "string") return;
  // the user's choice in progress is never overwritten by a reply
  if (!force && (app.setupDirty || state.game === app.setupGame)) return;
  app.setupGame = state.game;
  const select = $("#game-select");
  const name = menuName(state);
  if (!gameInfo(name)) return;
  select.value = name;
  // the server's values of every parameter (docs/messages.md: params)
  const info = gameInfo(name);
  buildParams(info && info.alias_of ? {} : paramValues(state));
  app.setupDirty = false;
  $("#new-game").classList.remove("attention");
}

/** Seconds a move or an analysis may take: what the server accepts. */
export const SECONDS = { min: 0.1, max: 600 };

/** The number in a seconds field, or null when it is not within SECONDS. */
export function secondsIn(input) {
  const text = String(input.value).trim();
  const seconds = Number(text);
  if (!text || !Number.isFinite(seconds) || seconds < SECONDS.min || seconds > SECONDS.max) return null;
  return seconds;
}

/** The seconds of player `index` as last sent (or 1). */
function sentSeconds(index) {
  try {
    const sent = JSON.parse(app.sentPlayers || "[]")[index];
    if (sent && typeof sent.time === "number") return sent.time;
  } catch (_err) {
    // nothing sent yet
  }
  return 1;
}

/** Whether player `index`'s seconds are acceptable; when not, says so and
 * puts back the value in force. */
export function checkPlayerTime(index) {
  const input = $(`#player-${index}-time`);
  if (secondsIn(input) !== null) return true;
  toast(t("Seconds per move must be between {min} and {max}", { min: SECONDS.min, max: SECONDS.max }), "error");
  input.value = String(sentSeconds(index));
  return false;
}

function readPlayer(index) {
  const kind = $(`#player-${index}-kind`).value;
  if (kind === "mcts") {
    // Monte Carlo tree search: seconds per move from the time field
    const seconds = secondsIn($(`#player-${index}-time`)) ?? sentSeconds(index);
    return { kind: "mcts", time: seconds };
  }
  if (kind !== "ai") return { kind: kind === "random" ? "random" : "human" };
  const level = $(`#player-${index}-level`).value;
  if (level === "time") {
    const seconds = secondsIn($(`#player-${index}-time`)) ?? sentSeconds(index);
    return { kind: "ai", time: seconds };
  }
  return { kind: "ai", level };
}

export function readPlayers() {
  return [readPlayer(0), readPlayer(1)];
}

export function updatePlayerControls() {
  for (const index of [0, 1]) {
    const row = document.querySelector(`.player[data-player="${index}"]`);
    const kind = $(`#player-${index}-kind`).value;
    row.classList.toggle("is-ai", kind === "ai" || kind === "mcts");
    row.classList.toggle("is-timed", kind === "mcts" || (kind === "ai" && $(`#player-${index}-level`).value === "time"));
  }
}

export function sendPlayers() {
  updatePlayerControls();
  const players = readPlayers();
  const text = JSON.stringify(players);
  if (text === app.sentPlayers) return;
  app.sentPlayers = text;
  send({ type: "players", players });
}

export const sendPlayersSoon = debounce(sendPlayers, 400);

export function syncPlayersFromState(state) {
  if (!Array.isArray(state.players)) return;
  const active = document.activeElement;
  state.players.slice(0, 2).forEach((player, index) => {
    if (!player || typeof player !== "object") return;
    const kindSelect = $(`#player-${index}-kind`);
    const levelSelect = $(`#player-${index}-level`);
    const timeInput = $(`#player-${index}-time`);
    const kind = ["human", "ai", "random", "mcts"].includes(player.kind) ? player.kind : "human";
    if (active !== kindSelect) kindSelect.value = kind;
    if (kind === "mcts" && typeof player.time === "number" && active !== timeInput) timeInput.value = String(player.time);
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

export function renderPlayerNames() {
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

/** Wire the set-up panel: the game menu, New game, the players, the speed. */
export function bindSetup() {
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
    // the game being left keeps its own history entry: Back brings it back
    // (the new game's state rewrites the new entry's address)
    if (app.state && window.location.hash) window.history.pushState(null, "", window.location.hash);
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
}
