// Keyboard shortcuts.

import { treeView } from "./app.js";
import { app, send } from "./store.js";

export function onKey(event) {
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

