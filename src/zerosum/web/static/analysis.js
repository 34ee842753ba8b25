// The analysis panel: the search lines, the evaluation bar, the summary and
// the handlers of the search objects (progress, analysis, result, hint).

import { writeAddress } from "./address.js";
import { formatNumber, t } from "./i18n.js";
import { badgeText, barFraction, classify, compact, evalWords, scoreWords } from "./scores.js";
import { $, app, h, isInteger, playerName, pvText, scheduleRender, send, toast } from "./store.js";
import { notePositionScore } from "./graph.js";
import { SECONDS, secondsIn } from "./setup.js";

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

export function renderEvaluation() {
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
  if (kind === "review") return t("Review");
  return "";
}

export function renderLines() {
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
    const best = Array.isArray(progress.moves) && progress.moves.length ? progress.moves[0] : null;
    const isMcts = Boolean(best && typeof best.visits === "number");
    const depth = isMcts ? t("MCTS") : progress.depth === null || progress.depth === undefined ? t("end") : String(progress.depth);
    line.appendChild(h("span", "line-depth", depth));
    const exact = Boolean(progress.exact);
    const extra = isMcts ? best : progress;
    const kind = classify(progress.score, exact, extra.plies).kind;
    const score = h("span", `line-score ${kind}`, typeof progress.score === "number" ? badgeText(progress.score, exact, extra) : "–");
    line.appendChild(score);
    line.appendChild(h("span", "line-nodes", formatNumber(progress.nodes)));
    line.appendChild(h("span", "line-nps", t("{count}/s", { count: compact(progress.nps) })));
    line.appendChild(h("span", "line-pv", pvText(progress.pv) || String(progress.best_move || "")));
    const details = [];
    if (typeof progress.score === "number") details.push(scoreWords(extra));
    if (isMcts) details.push(t("{count} iterations", { count: formatNumber(progress.nodes) }));
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
  // the analysis ended: a last row says when and with what
  const end = app.analysisEnd;
  if (end && end.lines === app.lines && app.searchKind === "analysis") {
    const row = h("div", "line end");
    const seconds = formatNumber(end.seconds, { maximumFractionDigits: 2 });
    row.appendChild(h("span", "line-end", t("Analysis ended after {seconds} s: {nodes} positions", {
      seconds, nodes: formatNumber(end.nodes),
    })));
    container.appendChild(row);
  }
  container.scrollTop = container.scrollHeight;
}

export function renderSummary() {
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
  // An answer kept from an earlier proof: a badge saying where it came from.
  if (summary.source === "store" || summary.source === "book") {
    const badge = h("span", "source-badge " + summary.source, summary.source === "book" ? t("opening book") : t("store"));
    badge.title = summary.source === "book" ? t("from the opening book: no search needed") : t("from the store: no search needed");
    node.prepend(badge, " ");
  }
  const stale = summary.kind !== "result" && summary.position !== undefined && summary.position !== state.position;
  node.classList.toggle("stale", stale);
}

export function renderLegend() {
  const legend = $("#score-legend");
  legend.replaceChildren();
  const items = [
    // the badges as the board writes them (胜7 / 和 / 负4 in Chinese)
    ["exact win", t("W{ply}", { ply: 7 }), t("win in {n} plies", { n: 7 })],
    ["exact draw", t("D"), t("draw")],
    ["exact loss", t("L{ply}", { ply: 4 }), t("loss in {n} plies", { n: 4 })],
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

export function resetSearchView() {
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
    if (map.has(key)) continue;
    const value = { score: entry.score, exact: Boolean(entry.exact) };
    // Monte Carlo tree search's visits and win rate (docs/messages.md)
    if (typeof entry.visits === "number") Object.assign(value, { visits: entry.visits, win_rate: entry.win_rate, plies: entry.plies });
    map.set(key, value);
  }
  return map;
}

/** Whether `object` (progress, analysis) belongs to another search than
 * the one shown: the server numbers its searches (search_id). */
function otherSearch(object) {
  const id = object ? object.search_id : undefined;
  return id !== undefined && id !== null && app.searchId !== null && id !== app.searchId;
}

/** A move was played (`state` one ply after `previous`): a move the AI's
 * last result did not lead to (a random move, an easy level's random
 * choice) leaves no result or evaluation of an older position on show. */
export function moveShown(previous, state) {
  const last = state.last_move;
  const searched = app.result && app.result.ply === previous.ply && !(last && last.by === "random");
  const byHuman = last ? last.by === "human" : isHumanMover(previous);
  if (searched || byHuman) return;
  if (app.summary && app.summary.kind === "result") app.summary = null;
  app.evaluation = null;
}

function isHumanMover(state) {
  const players = Array.isArray(state.players) ? state.players : [];
  const player = players[state.to_move];
  return !player || player.kind === "human";
}

export function onProgress(progress) {
  const state = app.state;
  if (otherSearch(progress)) return;
  // a line of a search of a position no longer shown
  if (state && typeof progress.position === "string" && progress.position !== state.position) return;
  app.lines.push(progress);
  if (app.lines.length > 300) app.lines.splice(0, app.lines.length - 300);
  if (!app.searchKind && state && state.searching) app.searchKind = state.searching;
  if (state && Array.isArray(progress.moves) && progress.moves.length) {
    const map = scoreMap(progress.moves);
    app.scores = { position: state.position, map, best: progress.moves[0] ? String(progress.moves[0].move) : null, entries: progress.moves };
  }
  if (state && typeof progress.score === "number") {
    setEvaluation(progress.score, Boolean(progress.exact), moverIndex(null), state.position);
  }
  scheduleRender();
}

export function onAnalysis(analysis) {
  const state = app.state;
  if (!state || otherSearch(analysis)) return;
  const position = typeof analysis.position === "string" ? analysis.position : state.position;
  if (position !== state.position) return; // an analysis of a position no longer shown
  const moves = Array.isArray(analysis.moves) ? analysis.moves : [];
  app.scores = { position, map: scoreMap(moves), best: analysis.best_move !== undefined ? String(analysis.best_move) : null, entries: moves };
  if (typeof analysis.score === "number") notePositionScore(state, analysis.score, analysis.exact);
  // the end of the lines shown (a new search starts a new list of lines)
  app.analysisEnd = {
    lines: app.lines,
    seconds: typeof analysis.time_s === "number" ? analysis.time_s : 0,
    nodes: typeof analysis.nodes === "number" ? analysis.nodes : 0,
  };
  if (typeof analysis.score === "number") {
    setEvaluation(analysis.score, Boolean(analysis.exact), moverIndex(analysis), position);
    app.summary = {
      kind: "analysis",
      position,
      source: analysis.source,
      text: t("Best move {move}: {value} · {nodes} positions in {seconds} s", {
        move: analysis.best_move === undefined || analysis.best_move === null ? "–" : analysis.best_move,
        value: scoreWords(analysis),
        nodes: formatNumber(analysis.nodes),
        seconds: formatNumber(typeof analysis.time_s === "number" ? analysis.time_s : 0, { maximumFractionDigits: 2 }),
      }),
    };
  }
  scheduleRender();
}

/** A review streams every position's score and the moves' marks. */
export function onReview(review) {
  const state = app.state;
  if (!state || !Array.isArray(review.plies)) return;
  const plies = new Map();
  for (const entry of review.plies) {
    if (entry && Number.isInteger(entry.ply)) plies.set(entry.ply, entry);
  }
  app.review = { record: state.record, start: state.start, searchId: review.search_id, plies, done: Boolean(review.done) };
  writeAddress(state); // a reload or a link brings the review back
  scheduleRender();
}

export function onResult(result) {
  const state = app.state;
  const player = moverIndex(result);
  // the result comes just before the state showing its move
  app.result = { ply: state && isInteger(state.ply) ? state.ply : null };
  if (state && typeof result.score === "number" && (result.player === undefined || result.player === state.to_move)) {
    notePositionScore(state, result.score, result.exact);
  }
  if (typeof result.score === "number") {
    const position = typeof result.position === "string" ? result.position : state ? state.position : null;
    setEvaluation(result.score, Boolean(result.exact), player, position);
    app.summary = {
      kind: "result",
      source: result.source,
      text: t("{player} plays {move}: {value}, {nodes} positions", {
        player: playerName(state, player),
        move: result.best_move === undefined || result.best_move === null ? "–" : result.best_move,
        value: scoreWords(result),
        nodes: formatNumber(result.nodes),
      }),
    };
  }
  scheduleRender();
}

export function onHint(hint) {
  const state = app.state;
  if (!state || hint.move === undefined || hint.move === null) return;
  if (typeof hint.position === "string" && hint.position !== state.position) return;
  app.hint = { move: String(hint.move), score: hint.score, exact: Boolean(hint.exact), position: state.position };
  const value = typeof hint.words === "string" ? scoreWords(hint) : "";
  // the server's sentence when it sends one, else the page's
  let text = typeof hint.text === "string" && hint.text ? hint.text : null;
  if (!text) text = value ? t("Hint: {move} · {value}", { move: hint.move, value }) : t("Hint: {move}", { move: hint.move });
  app.summary = { kind: "hint", position: state.position, text };
  if (typeof hint.score === "number") setEvaluation(hint.score, Boolean(hint.exact), moverIndex(null), state.position);
  toast(text);
  scheduleRender();
}

/** Wire the analysis controls: its switch and time, Hint, Review, Stop. */
export function bindAnalysis() {
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

  $("#hint").addEventListener("click", () => send({ type: "hint" }));
  $("#review").addEventListener("click", () => send({ type: "review" }));
  $("#stop").addEventListener("click", () => send({ type: "stop" }));
  $("#analysis-toggle").addEventListener("change", (event) => {
    send({ type: "analysis", on: Boolean(event.target.checked) });
  });
  for (const name of ["store", "book"]) {
    $("#use-" + name).addEventListener("change", (event) => {
      send({ type: "settings", [name]: Boolean(event.target.checked) });
    });
  }

}
