// The moves list, navigation through the record, copy and paste.

import { resetSearchView } from "./analysis.js";
import { t } from "./i18n.js";
import { readPlayers } from "./setup.js";
import { $, app, h, isInteger, playerColour, playerName, send, toast } from "./store.js";

export function renderMoves() {
  const list = $("#moves");
  const state = app.state;
  list.replaceChildren();
  list.dataset.empty = t("No moves yet");
  if (!state || !Array.isArray(state.history)) return;
  const ply = isInteger(state.ply) ? state.ply : state.history.length;
  let current = null;
  state.history.forEach((entry, index) => {
    if (!entry) return;
    const li = h("li", "move-entry");
    li.dataset.ply = String(index + 1);
    li.tabIndex = -1;
    li.appendChild(h("span", "move-num", index + 1));
    const who = h("span", "move-who");
    const dot = h("span", "swatch small");
    dot.style.background = playerColour(state, entry.player);
    who.appendChild(dot);
    who.appendChild(document.createTextNode(playerName(state, entry.player)));
    li.appendChild(who);
    li.appendChild(h("span", "move-text", entry.move));
    if (index + 1 === ply) {
      li.classList.add("current");
      li.setAttribute("aria-current", "step");
      current = li;
    } else if (index + 1 > ply) {
      li.classList.add("future");
    }
    li.title = t("Go to the position after move {n}", { n: index + 1 });
    list.appendChild(li);
  });
  list.classList.toggle("at-start", ply === 0);
  if (current) {
    // keep the current move in view without scrolling the page
    const top = current.offsetTop; // the list is the offset parent
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + current.offsetHeight - list.clientHeight;
    }
  } else if (ply === 0) {
    list.scrollTop = 0;
  }
}

export function gotoPly(ply) {
  const state = app.state;
  if (!state || !Array.isArray(state.history)) return;
  navigate(Math.max(0, Math.min(state.history.length, ply)));
}

/** Go to `ply`, remembering it until a state shows it (so quick presses
 * add up instead of each starting from the last state). */
export function navigate(ply) {
  const state = app.state;
  const from = app.navTarget ?? (state ? state.ply : null);
  if (ply === from) return;
  app.navTarget = ply;
  clearTimeout(app.navTimer);
  // an answer that never shows the ply (a refusal) frees the keys again
  app.navTimer = setTimeout(() => {
    app.navTarget = null;
  }, 2000);
  send({ type: "goto", ply });
}

/** A state arrived: the navigation it answers is done. */
export function navigationSeen(state) {
  if (app.navTarget !== null && state && state.ply === app.navTarget) {
    app.navTarget = null;
    clearTimeout(app.navTimer);
  }
}

export function renderCopy() {
  const state = app.state;
  $("#position").value = state && state.position !== undefined && state.position !== null ? String(state.position) : "";
  $("#record").value = state && state.record !== undefined && state.record !== null ? String(state.record) : "";
}

export async function copyField(selector) {
  const field = $(selector);
  const text = field.value;
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      done = true;
    }
  } catch (_err) {
    done = false;
  }
  if (!done) {
    try {
      field.focus();
      field.select();
      done = document.execCommand("copy");
      field.setSelectionRange(0, 0);
      field.blur();
    } catch (_err) {
      done = false;
    }
  }
  toast(done ? t("Copied") : t("Could not copy; select the text and copy it yourself"), done ? "info" : "error");
}

export function loadPasted(kind) {
  const text = $("#paste").value.trim();
  if (!text) {
    toast(t("Paste a position or a record first"));
    return;
  }
  if (!app.state) {
    toast(t("Not connected; trying again…"), "error");
    return;
  }
  const message = { type: "new", game: app.state.game, players: readPlayers() };
  if (kind === "position") message.position = text;
  else message.moves = text;
  resetSearchView();
  app.pendingNew = { from: "paste", seed: app.state.seed, game: app.state.game };
  send(message);
}

