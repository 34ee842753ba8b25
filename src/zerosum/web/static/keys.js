// Keyboard shortcuts.

import { treeView } from "./app.js";
import { navigate } from "./record.js";
import { app } from "./store.js";

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
  if (ownsKeys(event.target)) return;
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
