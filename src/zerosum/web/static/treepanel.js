// The search-tree tab: the tutorials' examples and the tree of the position
// shown (the view itself is tree.js).

import { $, app, h, playerName, toast } from "./store.js";
import { EXAMPLES, TreeView } from "./tree.js";
import { shortTitle } from "./setup.js";
import { t } from "./i18n.js";

export const treeView = new TreeView($("#tree-view"));

export function renderTreeExamples() {
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
export function showTreeOfPosition() {
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

function selectTab(name) {
  for (const tab of document.querySelectorAll(".tabs [data-tab]")) {
    tab.setAttribute("aria-selected", tab.dataset.tab === name ? "true" : "false");
  }
  for (const panel of document.querySelectorAll(".tab-panel[data-panel]")) {
    panel.hidden = panel.dataset.panel !== name;
  }
}

export function bindTreePanel() {
  for (const tab of document.querySelectorAll(".tabs [data-tab]")) {
    tab.addEventListener("click", () => selectTab(tab.dataset.tab));
  }
  $("#tree-show").addEventListener("click", showTreeOfPosition);

}
