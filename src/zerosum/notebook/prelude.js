// zerosum notebook widgets: what the browser modules below see as the page.
//
// The tree view (tree.js) asks the server for traces (/api/trace), boards
// (/api/position) and texts (/api/strings). In a notebook there is no
// server: each widget registers what Python sent it under a key, the tree
// view's requests name that key as their "game", and __fetch answers from it.
// Its use of document.body and document.documentElement (a dialog's page
// state, the page's language) is kept to the widget.

const __zs = {};
const __widgets = new Map();
let __catalog = {};
let __nextKey = 0;

function __reply(body, ok = true) {
  return { ok, status: ok ? 200 : 400, statusText: ok ? "OK" : "Bad Request", json: async () => body };
}

async function __fetch(url) {
  const address = new URL(String(url), "http://zerosum.invalid/");
  const query = address.searchParams;
  if (address.pathname === "/api/strings") return __reply(__catalog);
  const widget = __widgets.get(query.get("game") || "");
  if (!widget) return __reply({ type: "error", message: "this widget is closed" }, false);
  if (address.pathname === "/api/trace") {
    const trace = widget.traces[query.get("algorithm") || ""];
    return trace ? __reply(trace) : __reply({ type: "error", message: "no trace" }, false);
  }
  if (address.pathname === "/api/position") {
    const body = await widget.position(query.get("moves") || "");
    return __reply(body, body.type !== "error");
  }
  return __reply({ type: "error", message: "unknown request " + address.pathname }, false);
}

const __documentElement = { lang: "en" };
const __body = { classList: { add() {}, remove() {}, toggle() {}, contains: () => false } };
const __document = new Proxy(document, {
  get(target, key) {
    if (key === "body") return __body;
    if (key === "documentElement") return __documentElement;
    const value = Reflect.get(target, key);
    return typeof value === "function" ? value.bind(target) : value;
  },
});
const __window = { localStorage: { getItem: () => null, setItem() {} } };
