// The evaluation graph over the game (SVG): one point a position of the line
// shown, from the review (scores from the first player's side) or else from
// the analysis of that position; the review's marks as coloured dots on the
// position after the marked move; the position shown as a vertical rule. A
// click goes to the nearest position.

import { t } from "./i18n.js";
import { classify } from "./scores.js";
import { app } from "./store.js";
import { currentReview, MARKS } from "./record.js";

const NS = "http://www.w3.org/2000/svg";
const W = 300; // the graph's width in SVG units
const H = 100;
const PAD = 6;

function el(tag, attrs, parent) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

/** The key of the position after `ply` moves of the line shown. */
export function positionKey(state, ply) {
  const moves = (Array.isArray(state.history) ? state.history : []).slice(0, ply).map((entry) => entry.move);
  return `${state.start}|${moves.join(" ")}`;
}

/** Remember the score of the position shown (`score` from the side to move). */
export function notePositionScore(state, score, exact) {
  if (!state || typeof score !== "number" || !Number.isInteger(state.ply)) return;
  const first = state.to_move === 1 ? -score : score;
  app.plyScores.set(positionKey(state, state.ply), { score: first, exact: Boolean(exact) });
}

/** -1..1: the first player's side of a score from the first player's view. */
export function graphValue(score, exact) {
  const c = classify(score, exact);
  if (c.kind === "win") return 1;
  if (c.kind === "loss") return -1;
  if (c.kind === "draw") return 0;
  return Math.tanh(c.score / 200);
}

/** The points of the line shown: [{ply, value}] for the positions known. */
export function graphPoints(state) {
  const length = Array.isArray(state.history) ? state.history.length : 0;
  const review = currentReview();
  const points = [];
  for (let ply = 0; ply <= length; ply++) {
    const reviewed = review ? review.plies.get(ply) : null;
    const known = reviewed && typeof reviewed.score === "number" ? reviewed : app.plyScores.get(positionKey(state, ply));
    if (known && typeof known.score === "number") points.push({ ply, value: graphValue(known.score, known.exact) });
  }
  return points;
}

export class EvalGraph {
  /** @param {SVGSVGElement} svg  @param {(ply:number) => void} onPly */
  constructor(svg, onPly) {
    this.svg = svg;
    this.length = 0;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.addEventListener("click", (event) => {
      const box = svg.getBoundingClientRect();
      if (!box.width) return;
      const x = ((event.clientX - box.left) / box.width) * W;
      const ply = Math.round(((x - PAD) / (W - 2 * PAD)) * Math.max(1, this.length));
      onPly(Math.max(0, Math.min(this.length, ply)));
    });
  }

  render(state) {
    const svg = this.svg;
    svg.replaceChildren();
    if (!state) return;
    const length = Array.isArray(state.history) ? state.history.length : 0;
    this.length = length;
    const x = (ply) => PAD + (ply / Math.max(1, length)) * (W - 2 * PAD);
    const y = (value) => H / 2 - value * (H / 2 - PAD);
    el("rect", { class: "graph-bg", x: 0, y: 0, width: W, height: H }, svg);
    el("line", { class: "graph-mid", x1: 0, x2: W, y1: H / 2, y2: H / 2 }, svg);
    const points = graphPoints(state);
    svg.dataset.points = String(points.length);
    if (points.length) {
      // the first player's side filled from the middle
      const line = points.map((p) => `${x(p.ply).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
      const first = points[0];
      const last = points[points.length - 1];
      el("polygon", { class: "graph-area", points: `${x(first.ply)},${H / 2} ${line} ${x(last.ply)},${H / 2}` }, svg);
      el("polyline", { class: "graph-line", points: line }, svg);
      for (const p of points) {
        el("circle", { class: "graph-point", cx: x(p.ply), cy: y(p.value), r: 2.2, "data-ply": p.ply }, svg);
      }
    }
    // the review's marks, on the position after the marked move
    const review = currentReview();
    if (review) {
      for (const [ply, entry] of review.plies) {
        if (!entry || !MARKS[entry.class]) continue;
        const after = review.plies.get(ply + 1);
        const value = after && typeof after.score === "number" ? graphValue(after.score, after.exact) : 0;
        const dot = el("circle", { class: `graph-mark mark-${entry.class}`, cx: x(ply + 1), cy: y(value), r: 4.5, "data-ply": ply + 1 }, svg);
        const title = el("title", {}, dot);
        title.textContent = `${ply + 1}. ${entry.move}: ${MARKS[entry.class].words()}`;
      }
    }
    const ply = Number.isInteger(state.ply) ? state.ply : length;
    el("line", { class: "graph-now", x1: x(ply), x2: x(ply), y1: 0, y2: H, "data-ply": ply }, svg);
    svg.setAttribute("aria-label", t("Evaluation graph"));
  }
}
