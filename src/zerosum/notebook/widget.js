// The widgets' own code: the tree view (tree.js's TreeView, as the page
// shows it) and a game to play (board.js's BoardView), fed by Python.

function __trace(model, el) {
  const key = "w" + ++__nextKey;
  const root = document.createElement("div");
  root.className = "zerosum-widget zerosum-tree";
  root.innerHTML = TREE_MARKUP;
  el.appendChild(root);
  const holder = root.querySelector("#tree-view");
  const pending = new Map();
  let ticket = 0;
  __widgets.set(key, {
    traces: model.get("traces"),
    // the small board of a selected node: sent with the trace for small
    // trees, else asked of the kernel
    position(moves) {
      const boards = model.get("boards") || {};
      if (Object.prototype.hasOwnProperty.call(boards, moves)) return Promise.resolve(boards[moves]);
      return new Promise((resolve) => {
        const id = ++ticket;
        pending.set(id, resolve);
        model.send({ type: "position", id, moves });
      });
    },
  });
  const onMessage = (message) => {
    if (message && message.type === "position" && pending.has(message.id)) {
      pending.get(message.id)(message.body);
      pending.delete(message.id);
    }
  };
  model.on("msg:custom", onMessage);
  const { setLanguage, translatePage } = __zs["i18n.js"];
  const { TreeView } = __zs["tree.js"];
  const view = new TreeView(holder);
  __catalog = model.get("catalog") || {};
  setLanguage(model.get("lang")).then(() => {
    translatePage(holder);
    const title = model.get("title");
    view.show({ game: key, algorithm: model.get("algorithm"), title: () => title });
  });
  return () => {
    view.pause();
    model.off("msg:custom", onMessage);
    __widgets.delete(key);
  };
}

function __play(model, el) {
  const { BoardView, resolveCell } = __zs["board.js"];
  const root = document.createElement("div");
  root.className = "zerosum-widget zerosum-play";
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  const status = document.createElement("p");
  status.className = "play-status";
  status.setAttribute("role", "status");
  const again = document.createElement("button");
  again.type = "button";
  again.className = "small";
  root.append(svg, status, again);
  el.appendChild(root);
  const view = new BoardView(svg, {
    onCell(row, col) {
      const state = model.get("state");
      if (!state.can_play) return;
      const move = resolveCell(state, row, col);
      if (move) model.send({ type: "play", move: move.move });
    },
  });
  again.addEventListener("click", () => model.send({ type: "new" }));
  const draw = () => {
    const state = model.get("state");
    if (state.board) view.render({ state, flipped: false, scores: new Map(), canPlay: state.can_play });
    status.textContent = state.status;
    again.textContent = state.new_game;
    root.dataset.ply = String(state.ply);
  };
  model.on("change:state", draw);
  draw();
  return () => model.off("change:state", draw);
}

export default {
  render({ model, el }) {
    return model.get("kind") === "play" ? __play(model, el) : __trace(model, el);
  },
};
