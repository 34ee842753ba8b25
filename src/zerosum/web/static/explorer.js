// The opening explorer: the moves of the position shown whose results a
// book or the store proves (the state's `explorer`, docs/messages.md), with
// those results as the server words them, best first; a click plays one.
// Drawn under the engine lines, only when the server sent any.

import { t } from "./i18n.js";
import { $, app, h } from "./store.js";

export function renderExplorer(playMove) {
  const state = app.state;
  const entries = state && Array.isArray(state.explorer) ? state.explorer : [];
  let box = $("#explorer");
  if (!box) {
    if (!entries.length) return;
    const lines = $("#engine-lines");
    if (!lines) return;
    box = h("section", "explorer");
    box.id = "explorer";
    lines.insertAdjacentElement("afterend", box);
  }
  box.replaceChildren();
  box.hidden = entries.length === 0;
  if (!entries.length) return;
  box.appendChild(h("h3", "explorer-title", t("Proven moves")));
  const list = h("ol", "explorer-moves");
  for (const entry of entries) {
    if (!entry || typeof entry.move !== "string") continue;
    const item = h("li", `explorer-move ${entry.kind || ""}`);
    item.dataset.move = entry.move;
    const button = h("button", "explorer-play", entry.move);
    button.type = "button";
    button.title = t("Click to play {move}", { move: entry.move });
    button.addEventListener("click", () => playMove(entry.move));
    item.appendChild(button);
    item.appendChild(h("span", "explorer-words", typeof entry.words === "string" ? entry.words : "–"));
    const source = entry.source === "book" ? t("opening book") : entry.source === "store" ? t("store") : "";
    if (source) item.appendChild(h("span", "explorer-source", source));
    list.appendChild(item);
  }
  box.appendChild(list);
}
