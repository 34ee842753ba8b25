// The search-tree view: the reference minimax / alpha-beta search of one
// position, drawn as an SVG tree and replayed step by step.
//
// Everything shown comes from the server's `trace` object (GET /api/trace,
// docs/messages.md): nodes in visit order, each with the window it was
// searched with, the value it returned, its leaf kind, its cutoff and the
// moves that cutoff left unsearched, and two step numbers (`opened`,
// `closed`) that replay the search when sorted. Values are from MAX's point
// of view (MAX: the side to move at the root). No search happens here.

import { t, formatNumber } from "./i18n.js";
import { BoardView } from "./board.js";

const NS = "http://www.w3.org/2000/svg";
const WIN = 1000000;
const DECISIVE = WIN - 10000;
/** Trees up to this many nodes open fully; bigger ones open to OPEN_PLIES. */
const OPEN_ALL = 300;
const OPEN_PLIES = 2;
const SLOT = 58; // horizontal room of one leaf, SVG units
const LEVEL = 96; // vertical distance between plies
const SIZE = 17; // half the size of a node's triangle

function svgEl(tag, attrs, parent) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function h(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** A value for MAX: W5 (MAX wins, the game ending at ply 5), L4, or the number. */
export function valueText(value) {
  if (value === null || value === undefined) return "?";
  if (Math.abs(value) >= DECISIVE) {
    const ply = WIN - Math.abs(value);
    return value > 0 ? t("W{ply}", { ply }) : t("L{ply}", { ply });
  }
  return String(value);
}

function alphaText(value) {
  return value === null || value === undefined ? "−∞" : valueText(value);
}

function betaText(value) {
  return value === null || value === undefined ? "+∞" : valueText(value);
}

/** Read a predicted value: a number, or W5 / L4 (also 胜5 / 负4). */
export function parseValue(text) {
  const clean = String(text || "").trim().replace(/^\+/, "");
  if (/^-?\d+$/.test(clean)) return Number(clean);
  const match = /^([WwLl胜负])\s*(\d+)$/.exec(clean);
  if (!match) return null;
  const ply = Number(match[2]);
  return /[Ww胜]/.test(match[1]) ? WIN - ply : -(WIN - ply);
}

function cutoffText(node) {
  // The bound crossed: the window's, or (the engine) as its table or
  // mate-distance bounds had narrowed it.
  const bound = node.bound ?? (node.max ? node.beta : node.alpha);
  if (node.max) return t("β cutoff: {value} ≥ {bound}", { value: valueText(node.value), bound: betaText(bound) });
  return t("α cutoff: {value} ≤ {bound}", { value: valueText(node.value), bound: alphaText(bound) });
}

function algorithmName(algorithm) {
  if (algorithm === "engine") return t("the engine (iterative deepening)");
  return algorithm === "minimax" ? t("minimax") : t("alpha-beta pruning");
}

/** Whether a trace has alpha-beta windows (alpha-beta and the engine). */
function hasWindows(trace) {
  return trace.algorithm !== "minimax";
}

/** How an engine node ended besides a leaf of the rules or the evaluation. */
function reasonText(node) {
  if (node.reason === "win") return t("the game's hook found a win at once: {move}", { move: node.best_move });
  if (node.reason === "no-safe-move") return t("the game's hook found that every move loses at once");
  if (node.reason === "table") return t("settled by the table's stored value");
  if (node.reason === "table-image") return t("settled by the table's value stored for a symmetric position");
  if (node.reason === "bound") return t("settled by the mate-distance bounds");
  return "";
}

// ---------------------------------------------------------------- one tree

/** One trace drawn in one pane, with its own replay position. */
class TreePane {
  constructor(view, trace) {
    this.view = view;
    this.trace = trace;
    this.nodes = trace.tree;
    this.events = [];
    for (const node of this.nodes) {
      this.events.push({ at: node.opened, kind: "open", id: node.id });
      this.events.push({ at: node.closed, kind: "close", id: node.id });
    }
    this.events.sort((a, b) => a.at - b.at);
    this.step = 0; // events applied
    this.collapsed = new Set();
    if (this.nodes.length > OPEN_ALL) {
      for (const node of this.nodes) {
        if (node.ply >= OPEN_PLIES && node.children.length) this.collapsed.add(node.id);
      }
    }
    this.revealed = new Set(); // practice: nodes whose answer was shown
    this.verdicts = new Map(); // practice: node id -> {result, text} of a right guess
    this.element = h("section", "tree-pane");
    this.element.dataset.algorithm = trace.algorithm;
    this.header = h("div", "tree-pane-head");
    this.scroll = h("div", "tree-scroll");
    this.svg = svgEl("svg", { class: "tree-svg", role: "group" });
    this.scroll.appendChild(this.svg);
    this.element.append(this.header, this.scroll);
    this.svg.addEventListener("click", (event) => {
      const toggle = event.target.closest && event.target.closest(".toggle-mark");
      const group = event.target.closest && event.target.closest("g.node");
      if (!group) return;
      const id = Number(group.dataset.id);
      if (toggle) this.toggle(id);
      else this.view.select(this, id);
    });
  }

  get length() {
    return this.events.length;
  }

  /** The time of the search after `step` events (-1: before it starts). */
  time(step = this.step) {
    return step === 0 ? -1 : this.events[step - 1].at;
  }

  /** The node the search is at after the current step, and how it got there. */
  current() {
    if (this.step === 0) return { id: 0, kind: "start" };
    const event = this.events[this.step - 1];
    if (event.kind === "open") return { id: event.id, kind: "open" };
    const node = this.nodes[event.id];
    // A returned value rises to the parent: the search is back there.
    return { id: node.parent === null ? node.id : node.parent, kind: "close", from: node.id };
  }

  /** A node's window now: its entry window narrowed by the values its
   * finished children returned (alpha rises at MAX, beta falls at MIN). */
  windowNow(node, time) {
    let { alpha, beta } = node;
    // The engine's windows move in ways the trace does not show (null
    // windows, its table's bounds): the window it was called with.
    if (this.trace.algorithm === "engine") return { alpha, beta };
    for (const id of node.children) {
      const child = this.nodes[id];
      if (child.closed > time) break;
      if (node.max) alpha = alpha === null ? child.value : Math.max(alpha, child.value);
      else beta = beta === null ? child.value : Math.min(beta, child.value);
    }
    return { alpha, beta };
  }

  /** The best value so far at an open node (null before its first child returns). */
  soFar(node, time) {
    let best = null;
    for (const id of node.children) {
      const child = this.nodes[id];
      if (child.closed > time) break;
      if (best === null || (node.max ? child.value > best : child.value < best)) best = child.value;
    }
    return best;
  }

  hidden(node) {
    return this.view.practice && !node.leaf && !this.revealed.has(node.id);
  }

  /** Practice hides the windows too: they carry the values found so far. */
  windowHidden(node) {
    return this.view.practice && !this.revealed.has(node.id);
  }

  toggle(id) {
    if (this.collapsed.has(id)) this.collapsed.delete(id);
    else this.collapsed.add(id);
    this.draw();
  }

  // -- layout and drawing ----------------------------------------------------
  layout() {
    const place = new Map();
    const stubs = new Map(); // node id -> x of each pruned move's stub
    let slot = 0;
    const visit = (node) => {
      const open = !this.collapsed.has(node.id);
      const xs = [];
      if (open) {
        for (const id of node.children) xs.push(visit(this.nodes[id]));
        const own = stubLabels(node.pruned).map(() => (slot++ + 0.5) * SLOT);
        if (own.length) stubs.set(node.id, own);
        xs.push(...own);
      }
      const x = xs.length ? (xs[0] + xs[xs.length - 1]) / 2 : (slot++ + 0.5) * SLOT;
      place.set(node.id, { x, y: 40 + node.ply * LEVEL, open });
      return x;
    };
    visit(this.nodes[0]);
    let depth = 0;
    for (const id of place.keys()) depth = Math.max(depth, this.nodes[id].ply);
    return { place, stubs, width: Math.max(slot, 1) * SLOT, depth };
  }

  draw() {
    const { place, stubs: stubXs, width, depth } = this.layout();
    this.place = place;
    const svg = this.svg;
    svg.replaceChildren();
    const height = 40 + depth * LEVEL + 70;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    // Fit the pane, but never shrink much (then it scrolls).
    this.naturalWidth = width;
    svg.style.width = "100%";
    svg.style.minWidth = `${Math.round(width * 0.85)}px`;
    svg.style.maxWidth = `${Math.round(Math.max(width, 240) * 1.4)}px`;
    svg.setAttribute("aria-label", t("Search tree"));
    const edges = svgEl("g", { class: "edges" }, svg);
    const stubs = svgEl("g", { class: "stubs" }, svg);
    const layer = svgEl("g", { class: "nodes" }, svg);
    this.parts = new Map();
    for (const node of this.nodes) {
      const at = place.get(node.id);
      if (!at) continue;
      const parts = {};
      if (node.parent !== null) {
        const from = place.get(node.parent);
        parts.edge = svgEl("line", { class: "edge", x1: from.x, y1: from.y + SIZE, x2: at.x, y2: at.y - SIZE }, edges);
        parts.move = svgEl("text", { class: "edge-move", x: (from.x + at.x) / 2, y: (from.y + at.y) / 2 + 4 }, edges);
        parts.move.textContent = node.move;
      }
      const g = svgEl("g", { class: "node " + (node.max ? "max" : "min"), "data-id": node.id, transform: `translate(${at.x} ${at.y})` }, layer);
      g.setAttribute("tabindex", "0");
      const points = node.max ? `0,${-SIZE} ${SIZE},${SIZE * 0.8} ${-SIZE},${SIZE * 0.8}` : `0,${SIZE} ${SIZE},${-SIZE * 0.8} ${-SIZE},${-SIZE * 0.8}`;
      svgEl("polygon", { class: "shape", points }, g);
      parts.value = svgEl("text", { class: "value", x: 0, y: node.max ? 9 : 2 }, g);
      parts.note = svgEl("text", { class: "note", x: 0, y: SIZE + 15 }, g);
      const folded = !at.open && node.children.length > 0;
      if (node.children.length) {
        const mark = svgEl("g", { class: "toggle-mark", transform: `translate(${SIZE + 6} ${-SIZE + 2})` }, g);
        svgEl("circle", { r: 7 }, mark);
        svgEl("text", { x: 0, y: 4 }, mark).textContent = folded ? "+" : "−";
      }
      if (folded || (!node.children.length && !node.leaf && node.nodes > 1)) {
        // a folded subtree, or one below the plies listed: its size
        const count = svgEl("text", { class: "subtree", x: 0, y: SIZE + 28 }, g);
        count.textContent = formatNumber(node.nodes);
        svgEl("title", {}, count).textContent = t("{nodes} positions", { nodes: formatNumber(node.nodes) });
      }
      parts.group = g;
      const xs = stubXs.get(node.id);
      if (xs) {
        parts.stubs = [];
        const y = at.y + LEVEL;
        stubLabels(node.pruned).forEach((move, index) => {
          const x = xs[index];
          const stub = svgEl("g", { class: "stub" }, stubs);
          svgEl("line", { x1: at.x, y1: at.y + SIZE, x2: x, y2: y - 12 }, stub);
          svgEl("text", { class: "stub-mark", x, y: y - 1 }, stub).textContent = "✂";
          svgEl("text", { class: "edge-move", x: (at.x + x) / 2, y: (at.y + y) / 2 + 4 }, stub).textContent = move;
          parts.stubs.push(stub);
        });
        parts.reason = svgEl("text", { class: "cut-reason", x: xs[0] - 10, y: y + 22 }, stubs);
      } else if (node.cut) {
        parts.reason = svgEl("text", { class: "cut-reason", x: at.x, y: at.y + SIZE + 30 }, stubs);
      }
      this.parts.set(node.id, parts);
    }
    this.paint();
  }

  /** Show every node as it is after the current step. */
  paint() {
    const time = this.time();
    const now = this.current();
    // In a folded subtree, the search is shown at the nearest position drawn.
    let shownId = now.id;
    while (shownId !== null && !this.parts.has(shownId)) shownId = this.nodes[shownId].parent;
    const selected = this.view.selectedPane === this ? this.view.selectedId : null;
    for (const node of this.nodes) {
      const parts = this.parts.get(node.id);
      if (!parts) continue;
      const opened = node.opened <= time;
      const closed = node.closed <= time;
      const g = parts.group;
      g.classList.toggle("future", !opened);
      g.classList.toggle("active", opened && !closed);
      g.classList.toggle("done", closed);
      g.classList.toggle("leaf", Boolean(node.leaf));
      g.classList.toggle("current", shownId === node.id && this.step > 0);
      g.classList.toggle("returned", now.kind === "close" && now.from === node.id);
      g.classList.toggle("selected", selected === node.id);
      g.classList.toggle("hidden-value", this.hidden(node));
      const best = node.parent !== null && closed && this.nodes[node.parent].closed <= time && this.nodes[node.parent].best === node.id;
      g.classList.toggle("best", best && !this.hidden(this.nodes[node.parent]));
      if (parts.edge) {
        parts.edge.classList.toggle("future", !opened);
        parts.edge.classList.toggle("best", best && !this.hidden(this.nodes[node.parent]));
        parts.edge.classList.toggle("rising", now.kind === "close" && now.from === node.id);
        parts.move.classList.toggle("future", !opened);
      }
      let value = "";
      if (closed) value = this.hidden(node) ? "?" : valueText(node.value);
      else if (opened && !this.hidden(node)) {
        const far = this.soFar(node, time);
        if (far !== null) value = (node.max ? "≥" : "≤") + valueText(far);
      }
      parts.value.textContent = value;
      parts.note.textContent = hasWindows(this.trace) && opened && !closed && now.id === node.id && !this.windowHidden(node)
        ? windowText(this.windowNow(node, time))
        : "";
      const showCut = closed && node.cut && !this.hidden(node);
      for (const stub of parts.stubs || []) stub.classList.toggle("shown", closed && !this.hidden(node));
      if (parts.reason) parts.reason.textContent = showCut ? cutoffText(node) : "";
    }
    this.renderHeader();
  }

  renderHeader() {
    const trace = this.trace;
    const time = this.time();
    const visited = this.nodes.filter((n) => n.opened <= time).length;
    this.header.replaceChildren(
      h("strong", "tree-pane-name", algorithmName(trace.algorithm)),
      h(
        "span",
        "tree-pane-counts",
        t("{nodes} positions, {leaves} leaves, {cutoffs} cut-offs", {
          nodes: formatNumber(trace.nodes),
          leaves: formatNumber(trace.leaves),
          cutoffs: formatNumber(trace.cutoffs),
        }),
      ),
    );
    this.element.dataset.step = String(this.step);
    this.element.dataset.visited = String(visited);
  }

  /** Bring the current node into view inside the pane. */
  follow() {
    const now = this.current();
    let id = now.id;
    while (id !== null && !this.place.has(id)) id = this.nodes[id].parent;
    const at = id === null ? null : this.place.get(id);
    if (!at) return;
    const box = this.scroll;
    const scale = this.svg.getBoundingClientRect().width / Math.max(1, this.naturalWidth);
    const x = at.x * scale - box.clientWidth / 2;
    const y = at.y * scale - box.clientHeight / 2;
    box.scrollTo({ left: Math.max(0, x), top: Math.max(0, y) });
  }
}

/** What the pruned branches of a node are drawn as: one stub per move, or
 * one stub for them all when there are many (a wide board's move list). */
const MAX_STUBS = 6;

function stubLabels(pruned) {
  if (pruned.length <= MAX_STUBS) return pruned;
  return [`${pruned[0]}…${pruned[pruned.length - 1]} (${formatNumber(pruned.length)})`];
}

function windowText(window) {
  return `α ${alphaText(window.alpha)}, β ${betaText(window.beta)}`;
}

// ---------------------------------------------------------------- the view

/** The dialog: one or two panes, the replay controls, the node details. */
export class TreeView {
  constructor(root) {
    this.root = root;
    this.panes = [];
    this.request = null; // {game, position, moves, title}
    this.practice = false;
    this.selectedPane = null;
    this.selectedId = null;
    this.timer = null;
    this.loading = 0;
    this.boardView = null;
    const $ = (id) => root.querySelector(id);
    this.$ = $;
    $("#tree-close").addEventListener("click", () => this.close());
    $("#tree-first").addEventListener("click", () => this.goto(0));
    $("#tree-back").addEventListener("click", () => this.goto(this.step - 1));
    $("#tree-forward").addEventListener("click", () => this.goto(this.step + 1));
    $("#tree-last").addEventListener("click", () => this.goto(this.length));
    $("#tree-play").addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    $("#tree-speed").addEventListener("input", () => {
      if (this.timer) {
        this.pause();
        this.play();
      }
    });
    $("#tree-practice").addEventListener("change", (event) => {
      this.practice = Boolean(event.target.checked);
      for (const pane of this.panes) {
        pane.revealed.clear();
        pane.verdicts.clear();
      }
      // Practice at the step shown: the values found so far are hidden
      // (the leaves show theirs), stepping on keeps them hidden until
      // predicted or revealed.
      this.paint();
      this.renderStatus();
      this.renderDetails();
    });
    // The dialog's keys wherever the focus is while it is open: a click on a
    // part that takes no focus (the tree, the details) leaves it on the body.
    document.addEventListener("keydown", (event) => {
      if (this.isOpen()) this.onKey(event);
    });
  }

  onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    // Esc closes the dialog from anywhere in it, a switch or a field too
    if (event.key === "Escape") {
      event.preventDefault();
      this.close();
      return;
    }
    const tag = event.target && event.target.tagName ? event.target.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    // Enter or Space on a button presses it, not the player.
    if (tag === "button" && (event.key === " " || event.key === "Enter")) return;
    const node = event.target.closest && event.target.closest("g.node");
    if (node && event.key === "Enter") {
      const pane = this.panes.find((p) => p.svg.contains(node));
      if (pane) this.select(pane, Number(node.dataset.id));
      event.preventDefault();
      return;
    }
    if (event.key === "ArrowRight") this.goto(this.step + 1);
    else if (event.key === "ArrowLeft") this.goto(this.step - 1);
    else if (event.key === " ") (this.timer ? this.pause() : this.play());
    else return;
    event.preventDefault();
  }

  /** Steps of the longest pane (side by side, the shorter one finishes first). */
  get length() {
    return Math.max(0, ...this.panes.map((p) => p.length));
  }

  get step() {
    return this.panes.length ? Math.max(...this.panes.map((p) => p.step)) : 0;
  }

  isOpen() {
    return !this.root.hidden;
  }

  /** Redraw in the language just chosen. */
  retranslate() {
    if (!this.panes.length) return;
    for (const pane of this.panes) pane.draw();
    this.renderComparison();
    this.renderStatus();
    this.renderDetails();
  }

  close() {
    this.pause();
    this.root.hidden = true;
    document.body.classList.remove("tree-open");
  }

  /**
   * Fetch and show the trace(s) of a position.
   * request: {game, position, moves, title (a function giving the text), algorithm ("minimax"|"alphabeta"|"engine"|"both"),
   *           depth, evaluateTerminals, top}
   */
  async show(request) {
    this.pause();
    this.request = request;
    // the title is a function, so that it follows a change of language
    this.titleOf = typeof request.title === "function" ? request.title : () => request.title || "";
    this.root.hidden = false;
    document.body.classList.add("tree-open");
    this.$("#tree-subject").textContent = this.titleOf();
    this.panes = [];
    this.selectedPane = null;
    this.selectedId = null;
    this.$("#tree-panes").replaceChildren(h("p", "muted", t("Searching…")));
    this.$("#tree-details").replaceChildren();
    this.setStatus("");
    this.root.dataset.ready = "0";
    const ticket = ++this.loading;
    const algorithms = request.algorithm === "both" ? ["minimax", "alphabeta"] : [request.algorithm || "alphabeta"];
    try {
      const settled = await Promise.allSettled(algorithms.map((a) => fetchTrace({ ...request, algorithm: a })));
      if (ticket !== this.loading) return;
      // Side by side, the first refusal in the order minimax, alpha-beta:
      // minimax's tree is the larger, so a depth it advises fits both.
      const refused = settled.find((outcome) => outcome.status === "rejected");
      if (refused) throw refused.reason;
      const traces = settled.map((outcome) => outcome.value);
      this.panes = traces.map((trace) => new TreePane(this, trace));
      const holder = this.$("#tree-panes");
      holder.replaceChildren(...this.panes.map((p) => p.element));
      holder.classList.toggle("two", this.panes.length === 2);
      for (const pane of this.panes) pane.draw();
      this.renderComparison();
      this.renderStatus();
      this.select(this.panes[this.panes.length - 1], 0);
      // the root in view (the search starts there)
      for (const pane of this.panes) pane.follow();
      this.root.dataset.ready = "1";
      this.$("#tree-play").focus();
    } catch (error) {
      if (ticket !== this.loading) return;
      // no tree: nothing of the previous one stays in the toolbar
      this.panes = [];
      this.$("#tree-step").textContent = "";
      this.$("#tree-window").textContent = "";
      this.root.dataset.step = "0";
      this.setStatus("");
      this.$("#tree-panes").replaceChildren(h("p", "tree-error", error.message || String(error)));
      this.root.dataset.ready = "error";
    }
  }

  renderComparison() {
    const note = this.$("#tree-subject");
    let text = this.titleOf();
    if (this.panes.length === 2) {
      const [mm, ab] = this.panes.map((p) => p.trace.nodes);
      const saved = mm > 0 ? Math.round((100 * (mm - ab)) / mm) : 0;
      text += (text ? " · " : "") + t("alpha-beta searched {percent} fewer positions", { percent: `${saved}%` });
    }
    note.textContent = text;
  }

  goto(step) {
    const target = Math.max(0, Math.min(step, this.length));
    for (const pane of this.panes) pane.step = Math.min(target, pane.length);
    if (target >= this.length) this.pause();
    this.paint();
    for (const pane of this.panes) pane.follow();
    this.renderStatus();
  }

  play() {
    if (!this.panes.length) return;
    if (this.step >= this.length) this.goto(0);
    const speed = Number(this.$("#tree-speed").value) || 4;
    const button = this.$("#tree-play");
    button.textContent = "⏸";
    button.setAttribute("aria-label", t("Pause"));
    button.title = t("Pause");
    this.timer = setInterval(() => this.goto(this.step + 1), Math.round(2000 / speed));
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    const button = this.$("#tree-play");
    button.textContent = "▶";
    button.setAttribute("aria-label", t("Play"));
    button.title = t("Play");
  }

  paint() {
    for (const pane of this.panes) pane.paint();
  }

  setStatus(text) {
    this.$("#tree-status").textContent = text;
  }

  /** The step counter, and what the search is doing (for the main pane). */
  renderStatus() {
    this.$("#tree-step").textContent = t("step {step} of {steps}", {
      step: formatNumber(this.step),
      steps: formatNumber(this.length),
    });
    this.root.dataset.step = String(this.step);
    const pane = this.panes[this.panes.length - 1];
    if (!pane) return;
    const now = pane.current();
    const node = pane.nodes[now.id];
    const where = pathText(pane, node);
    const window = pane.windowNow(node, pane.time());
    const side = node.max ? t("MAX") : t("MIN");
    let text;
    if (now.kind === "start") {
      text = t("Press play or step forward to watch the search.");
    } else if (now.kind === "open") {
      text = t("Searching {where} ({side} to move)", { where, side });
      if (node.leaf === "evaluation") text += " · " + t("a leaf node: scored by the evaluation function");
      else if (node.leaf === "terminal") text += " · " + t("a leaf node: the game is over");
      else if (node.reason) text += " · " + reasonText(node);
      if (node.iteration !== null && node.ply === 1) text += " · " + t("iteration {depth}", { depth: node.iteration });
    } else {
      const child = pane.nodes[now.from];
      const shown = pane.hidden(child) ? "?" : valueText(child.value);
      text = child.parent === null
        ? t("The search is over: the value is {value}", { value: shown })
        : t("{move} returns {value} to {where}", { move: child.move, value: shown, where });
      if (child.cut && !pane.hidden(child)) {
        text += " · " + cutoffText(child);
        if (child.pruned.length) text += " · " + t("pruned: {moves}", { moves: child.pruned.join(" ") });
      }
    }
    this.setStatus(text);
    const windowBox = this.root.querySelector("#tree-window");
    const shownWindow = hasWindows(pane.trace) && !pane.windowHidden(node) ? windowText(window) : "";
    this.root.dataset.window = shownWindow;
    this.root.dataset.current = String(now.id);
    if (windowBox) windowBox.textContent = shownWindow;
  }

  // -- a node's details, the small board, practice ----------------------------
  select(pane, id) {
    this.selectedPane = pane;
    this.selectedId = id;
    this.paint();
    this.renderDetails();
  }

  renderDetails() {
    const box = this.$("#tree-details");
    const pane = this.selectedPane;
    if (!pane) {
      box.replaceChildren();
      return;
    }
    const node = pane.nodes[this.selectedId];
    const rows = [];
    const row = (label, value) => {
      const line = h("div", "detail-row");
      line.append(h("span", "detail-label", label), h("span", "detail-value", value));
      rows.push(line);
    };
    row(t("Position"), pathText(pane, node));
    row(t("To move"), node.max ? t("MAX") : t("MIN"));
    if (node.iteration !== null) row(t("Iteration"), String(node.iteration));
    if (hasWindows(pane.trace)) {
      row(t("Window on entry"), pane.windowHidden(node) ? "?" : `α ${alphaText(node.alpha)}, β ${betaText(node.beta)}`);
    }
    // a value the search has not found yet at the step shown is not told
    // (at step 0 the root's value and best move are the question)
    const found = node.closed <= pane.time();
    const hidden = pane.hidden(node) || !found;
    row(t("Value"), hidden ? (found ? "?" : t("not found yet")) : valueText(node.value));
    if (node.leaf === "evaluation") row(t("Leaf node"), t("scored by the evaluation function"));
    else if (node.leaf === "terminal") row(t("Leaf node"), t("the game is over"));
    else if (node.leaf === "hook") row(t("Leaf node"), reasonText(node));
    else if (node.reason && !hidden) row(t("Settled"), reasonText(node));
    else if (!hidden) {
      if (node.best_move) row(t("Best move"), node.best_move);
      if (node.cut) row(t("Cutoff"), cutoffText(node));
      if (node.pruned.length) row(t("Pruned"), node.pruned.join(" "));
    }
    row(t("Positions below"), formatNumber(node.nodes - 1));
    const heading = h("h3", "detail-head", t("The selected position"));
    const board = h("div", "tree-board");
    const parts = [heading, ...rows];
    if (this.practice && !node.leaf) parts.push(this.practiceForm(pane, node));
    parts.push(board);
    box.replaceChildren(...parts);
    box.dataset.node = String(node.id);
    this.drawBoard(board, pane, node);
  }

  async drawBoard(holder, pane, node) {
    const request = this.request;
    const moves = [request.moves || "", ...pathMoves(pane, node)].filter(Boolean).join(" ");
    try {
      const url = "/api/position?" + new URLSearchParams({
        game: request.game,
        position: request.position || "",
        moves,
        lang: document.documentElement.lang.startsWith("zh") ? "zh" : "en",
      });
      const response = await fetch(url);
      const body = await response.json();
      if (!response.ok) throw new Error(body.message || response.statusText);
      if (this.selectedPane !== pane || this.selectedId !== node.id) return;
      if (body.board) {
        const svg = svgEl("svg", { class: "board", viewBox: "0 0 100 100" }, holder);
        const view = new BoardView(svg, {});
        view.render({ state: { board: body.board, legal: [], history: [], ply: 0 }, flipped: false, scores: new Map() });
      } else {
        holder.appendChild(h("pre", "text-board mini-text", body.text));
      }
    } catch (error) {
      holder.appendChild(h("p", "tree-error", error.message || String(error)));
    }
  }

  /** Practice: predict the value (and, with alpha-beta, the pruned moves). */
  practiceForm(pane, node) {
    const form = h("form", "practice");
    form.appendChild(h("h3", "detail-head", t("Your prediction")));
    const label = h("label", "field");
    label.appendChild(h("span", "field-label", t("Value of this position (a number, or W5 / L4)")));
    const input = h("input", "practice-value");
    input.type = "text";
    input.autocomplete = "off";
    label.appendChild(input);
    form.appendChild(label);
    const moves = [...node.children.map((id) => pane.nodes[id].move), ...node.pruned];
    const boxes = [];
    if (hasWindows(pane.trace) && moves.length > 1) {
      const set = h("fieldset", "practice-pruned");
      set.appendChild(h("legend", "", t("Moves that will be pruned")));
      for (const move of moves) {
        const item = h("label", "practice-move");
        const box = h("input");
        box.type = "checkbox";
        box.value = move;
        boxes.push(box);
        item.append(box, h("span", "", move));
        set.appendChild(item);
      }
      form.appendChild(set);
    }
    const check = h("button", "primary", t("Check"));
    check.type = "submit";
    const reveal = h("button", "", t("Reveal"));
    reveal.type = "button";
    const row = h("div", "button-row");
    row.append(check, reveal);
    form.appendChild(row);
    const verdict = h("p", "practice-verdict");
    verdict.setAttribute("role", "status");
    form.appendChild(verdict);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const guess = parseValue(input.value);
      if (guess === null) {
        verdict.dataset.result = "unread";
        verdict.textContent = t("Write a number, or W5 / L4");
        return;
      }
      const valueRight = guess === node.value;
      const said = boxes.filter((b) => b.checked).map((b) => b.value);
      const prunedRight = !boxes.length || sameSet(said, node.pruned);
      const parts = [];
      parts.push(valueRight
        ? t("Right: the value is {value}.", { value: valueText(node.value) })
        : t("Not quite: the value is {value}, not {guess}.", { value: valueText(node.value), guess: valueText(guess) }));
      if (boxes.length) {
        const pruned = node.pruned.length ? node.pruned.join(" ") : t("none");
        parts.push(prunedRight
          ? t("Right: pruned {moves}.", { moves: pruned })
          : t("Not quite: pruned {moves}.", { moves: pruned }));
        if (node.cut) parts.push(cutoffText(node));
      }
      if (!(valueRight && prunedRight)) {
        // a wrong guess: try again (the answer only with Reveal)
        verdict.dataset.result = "wrong";
        verdict.textContent = valueRight
          ? t("The value is right; the pruned moves are not. Try again, or Reveal.")
          : t("Not quite. Try again, or Reveal.");
        return;
      }
      pane.verdicts.set(node.id, { result: "right", text: parts.join(" ") });
      pane.revealed.add(node.id);
      this.paint();
      this.renderDetails(); // the details' "Value ?" filled in
    });
    const said = pane.verdicts.get(node.id);
    if (said) {
      verdict.dataset.result = said.result;
      verdict.textContent = said.text;
    }
    reveal.addEventListener("click", () => {
      pane.revealed.add(node.id);
      this.paint();
      this.renderDetails();
    });
    return form;
  }
}

function sameSet(a, b) {
  const left = new Set(a);
  return left.size === new Set(b).size && [...b].every((x) => left.has(x));
}

function pathMoves(pane, node) {
  const moves = [];
  let at = node;
  while (at.parent !== null) {
    moves.push(at.move);
    at = pane.nodes[at.parent];
  }
  return moves.reverse();
}

function pathText(pane, node) {
  const moves = pathMoves(pane, node);
  return moves.length ? moves.join(" ") : t("the root");
}

async function fetchTrace(request) {
  const params = {
    game: request.game,
    algorithm: request.algorithm,
    lang: document.documentElement.lang.startsWith("zh") ? "zh" : "en",
  };
  if (request.position) params.position = request.position;
  if (request.moves) params.moves = request.moves;
  // depth 0 too: the server refuses it with its reason (never "to the end")
  if (request.depth !== null && request.depth !== undefined) params.depth = String(request.depth);
  if (request.evaluateTerminals) params.evaluate_terminals = "1";
  if (request.top !== undefined && request.top !== null) params.top = String(request.top);
  const response = await fetch("/api/trace?" + new URLSearchParams(params));
  let body = null;
  try {
    body = await response.json();
  } catch (_err) {
    body = null;
  }
  if (!response.ok || !body || body.type !== "trace") {
    throw new Error((body && body.message) || t("Something went wrong"));
  }
  return body;
}

// ---------------------------------------------------------------- examples

/** The tutorials' examples, each one click away. */
export const EXAMPLES = [
  {
    id: "ttt-block",
    title: () => t("Tic-tac-toe: X on 0 and 1, O on 4; O to move (the block at 2)"),
    request: { game: "tictactoe", moves: "0 4 1", algorithm: "both" },
  },
  {
    id: "dom-1",
    title: () => t("Domineering 3×3, Vertical first: alpha-beta, depth 1"),
    request: { game: "domineering(rows=3,cols=3)", algorithm: "alphabeta", depth: 1 },
  },
  {
    id: "dom-2",
    title: () => t("Domineering 3×3, Vertical first: alpha-beta, depth 2"),
    request: { game: "domineering(rows=3,cols=3)", algorithm: "alphabeta", depth: 2 },
  },
  {
    id: "dom-reply",
    title: () => t("Domineering 3×3: Horizontal's reply to b1, depth 2"),
    request: { game: "domineering(rows=3,cols=3)", moves: "b1", algorithm: "alphabeta", depth: 2, evaluateTerminals: true },
  },
  {
    id: "ttt-full",
    title: () => t("Tic-tac-toe: the whole minimax tree (549,946 positions), its first two plies"),
    request: { game: "tictactoe", algorithm: "minimax", top: 2 },
  },
];
