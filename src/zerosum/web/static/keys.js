// Keyboard shortcuts and their help overlay: ←/→/Home/End step through the
// record, f flips the board, h asks for a hint, a switches the analysis,
// n starts a new game, ? shows the help (Escape closes it).

import { t } from "./i18n.js";
import { treeView } from "./treepanel.js";
import { navigate } from "./record.js";
import { $, app, h } from "./store.js";

/** The shortcuts as the help lists them: [keys, what they do]. */
export function shortcutList() {
  return [
    ["← →", t("One move back / forward")],
    ["Home End", t("To the start / to the end")],
    ["f", t("Flip the board")],
    ["h", t("Hint")],
    ["a", t("Analysis on or off")],
    ["n", t("New game")],
    ["?", t("This help")],
    ["Esc", t("Close")],
  ];
}

let actions = {};

/** Wire the shortcuts: actions {flip, hint, analysis, newGame}. */
export function bindKeys(given) {
  actions = given;
  document.addEventListener("keydown", onKey);
  $("#help-open").addEventListener("click", () => showHelp(true));
  $("#help-close").addEventListener("click", () => showHelp(false));
  $("#help").addEventListener("click", (event) => {
    if (event.target === $("#help")) showHelp(false);
  });
}

export function renderHelp() {
  const list = $("#help-list");
  list.replaceChildren();
  for (const [keys, words] of shortcutList()) {
    const row = h("div", "help-row");
    const cell = h("dt");
    for (const key of keys.split(" ")) cell.appendChild(h("kbd", null, key));
    row.appendChild(cell);
    row.appendChild(h("dd", null, words));
    list.appendChild(row);
  }
}

function showHelp(open) {
  const help = $("#help");
  if (open) {
    renderHelp();
    help.hidden = false;
    $("#help-close").focus();
  } else {
    help.hidden = true;
  }
}

/** Whether a key pressed in `target` is the field's own (typing, a menu). */
function ownsKeys(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName.toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  // a switch or a check box has no use for the arrows
  return tag === "input" && !["checkbox", "radio", "button"].includes(target.type);
}

export function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (treeView.isOpen()) return; // the tree view has keys of its own
  const help = $("#help");
  if (!help.hidden) {
    if (event.key === "Escape" || event.key === "?") {
      event.preventDefault();
      showHelp(false);
    }
    return;
  }
  if (ownsKeys(event.target)) return;
  const command = { f: actions.flip, h: actions.hint, a: actions.analysis, n: actions.newGame }[event.key];
  if (command) {
    event.preventDefault();
    command();
    return;
  }
  if (event.key === "?") {
    event.preventDefault();
    showHelp(true);
    return;
  }
  const state = app.state;
  if (!state) return;
  const length = Array.isArray(state.history) ? state.history.length : 0;
  // from where the last key press went, not from the last state: a press
  // before the server's answer still counts
  const from = app.navTarget ?? state.ply;
  let ply = null;
  if (event.key === "ArrowLeft") ply = from - 1;
  else if (event.key === "ArrowRight") ply = from + 1;
  else if (event.key === "Home") ply = 0;
  else if (event.key === "End") ply = length;
  if (ply === null) return;
  event.preventDefault();
  if (ply >= 0 && ply <= length) navigate(ply);
}
