// The page's texts in the chosen language.
//
// Every English text the page shows goes through t() called with a plain
// string literal (src/zerosum/web/strings.py lists them all, and a test
// checks the two agree). Translations come from GET /api/strings?lang=zh as
// {english: translated}; a missing entry falls back to the English text.
// Placeholders are written {name} and filled from the second argument.

const STORAGE_KEY = "zerosum.lang";
export const LANGUAGES = ["en", "zh"];

let language = "en";
let catalog = {};

/** `text` (English) in the current language, placeholders filled. */
export function t(text, values) {
  let out = text;
  if (language !== "en" && catalog && typeof catalog[text] === "string" && catalog[text]) {
    out = catalog[text];
  }
  if (values) {
    out = out.replace(/\{(\w+)\}/g, (whole, key) =>
      Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole,
    );
  }
  return out;
}

export function currentLanguage() {
  return language;
}

/** The language to start in: the remembered choice, else the browser's. */
export function initialLanguage() {
  try {
    const saved = window.localStorage.getItem(STORAGE_KEY);
    if (LANGUAGES.includes(saved)) return saved;
  } catch (_err) {
    // storage may be unavailable (private mode); fall through
  }
  const wanted = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return String(wanted).toLowerCase().startsWith("zh") ? "zh" : "en";
}

/** Switch to `lang`, fetching its catalog; resolves to the language in use.
 * Never rejects: without a catalog the page stays readable in English. */
export async function setLanguage(lang) {
  const wanted = LANGUAGES.includes(lang) ? lang : "en";
  let newCatalog = {};
  if (wanted !== "en") {
    try {
      const response = await fetch("/api/strings?lang=" + encodeURIComponent(wanted));
      if (response.ok) {
        const body = await response.json();
        if (body && typeof body === "object") newCatalog = body;
      }
    } catch (_err) {
      newCatalog = {};
    }
  }
  language = wanted;
  catalog = newCatalog;
  try {
    window.localStorage.setItem(STORAGE_KEY, wanted);
  } catch (_err) {
    // not remembered; harmless
  }
  document.documentElement.lang = wanted === "zh" ? "zh-CN" : "en";
  return wanted;
}

/** Translate the static page: data-t (text), data-t-title (tooltip) and
 * data-t-label (aria-label) attributes hold the English texts. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-t]")) {
    node.textContent = t(node.dataset.t);
  }
  for (const node of root.querySelectorAll("[data-t-title]")) {
    node.title = t(node.dataset.tTitle);
  }
  for (const node of root.querySelectorAll("[data-t-label]")) {
    node.setAttribute("aria-label", t(node.dataset.tLabel));
  }
  for (const node of root.querySelectorAll("[data-t-placeholder]")) {
    node.placeholder = t(node.dataset.tPlaceholder);
  }
}

/** A number written for the current language (thousands separators). */
export function formatNumber(value, options) {
  if (typeof value !== "number" || !Number.isFinite(value)) return "–";
  try {
    return new Intl.NumberFormat(language === "zh" ? "zh-CN" : "en-US", options).format(value);
  } catch (_err) {
    return String(value);
  }
}
