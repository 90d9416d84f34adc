// Helpers shared by the pages' scripts (app.js, keeper.js, replay.js, tutorial.js, sheet.js,
// variants.js): building elements, drawing a face-up card, calling the server's JSON API, putting
// a page in a language. Nothing runs on import (sheet.js and variants.js are also imported by
// `node --test tests/js/`).

import { makeT, cardName, rankLabel, LANGUAGES, LANGUAGE_NAMES } from "./i18n.js";
import { isFace } from "./cards.js";

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/**
 * A new element. `attrs`: `class`, `text` (its text), `on<event>` (a listener), any other
 * attribute (`true`: present and empty; `false`, `null`, `undefined`: left out). `kids` (arrays
 * flattened; `null`, `undefined`, `false` skipped) are appended.
 */
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k);
  return e;
}

let toastTimer = null;
/**
 * Show `text` for four seconds in the page's toast (the element with id `toast`), above the
 * page's footer while the footer is in sight (the toast never covers its links: issue 21).
 */
export function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearOfFooter();
  addEventListener("scroll", clearOfFooter, { passive: true });
  addEventListener("resize", clearOfFooter, { passive: true });
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.hidden = true;
    removeEventListener("scroll", clearOfFooter);
    removeEventListener("resize", clearOfFooter);
  }, 4000);
}

/** The toast's distance from the window's bottom: above the footer's part in sight. */
function clearOfFooter() {
  const box = $("toast");
  const foot = document.querySelector("footer");
  const seen = foot ? innerHeight - foot.getBoundingClientRect().top : 0;  // the footer's height in sight
  box.style.bottom = seen > 0 ? `${Math.round(Math.min(seen, innerHeight / 2)) + 10}px` : "";
}

/**
 * A request to the server's JSON API, `body` sent as JSON and `token` (if any) as the bearer
 * token: `{ status, ok, data }`, `data` null when the answer is not JSON.
 */
export async function apiRequest(method, path, body, token = null) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  // Retry-After (seconds) of a 503 (the server's database is away) or a 429, in ms
  const retryAfter = Math.min(600, Number(res.headers.get("Retry-After")) || 0) * 1000;
  return { status: res.status, ok: res.ok, data, retryAfter };
}

/** The translations of `lang` (/locales/{lang}.json); throws when there are none. */
export async function loadCatalog(lang) {
  const res = await fetch(`/locales/${lang}.json`, { credentials: "same-origin" });
  if (!res.ok) throw new Error(`no catalog ${lang}`);
  return res.json();
}

/** Mark the page as being in `lang`; `save`: remember it in the language cookie for a year. */
export function markLanguage(lang, save) {
  if (save) document.cookie = `lang=${lang}; path=/; max-age=31536000; SameSite=Lax`;
  document.documentElement.lang = lang;
  document.documentElement.dataset.lang = lang;
}

/** The page's language as the server marked it on <html>; English when it is not one we have. */
export function pageLanguage() {
  const html = document.documentElement;
  const lang = html.dataset.lang || html.lang || "en";
  return LANGUAGES.includes(lang) ? lang : "en";
}

/**
 * The page's fixed texts in `lang` (translator `t`): the [data-i18n], [data-i18n-aria] and
 * [data-i18n-title] elements, the links to the other pages (a[data-page]) keeping the language,
 * and the language picker (#lang-select offering `languages`, #lang-code).
 */
export function translatePage(t, lang, languages = LANGUAGES) {
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll("[data-i18n-aria]")) e.setAttribute("aria-label", t(e.dataset.i18nAria));
  for (const e of document.querySelectorAll("[data-i18n-title]")) e.title = t(e.dataset.i18nTitle);
  for (const a of document.querySelectorAll("a[data-page]")) a.href = `/${a.dataset.page}?lang=${lang}`;
  const sel = $("lang-select");
  sel.replaceChildren(...languages.map((l) => el("option", { value: l, lang: l, text: LANGUAGE_NAMES[l] || l })));
  sel.value = lang;
  $("lang-code").textContent = lang.toUpperCase();  // what a phone shows over the (transparent) select
}

/**
 * Put the page in `lang` (English when /locales has no catalog for it): marked on <html> (`save`:
 * remembered in the cookie), titled "<t(titleKey)> · <app title>", its fixed texts translated
 * (translatePage). Answers `{ lang, t }`: the language the page is now in and its translator.
 */
export async function applyLanguage(lang, { save = true, titleKey } = {}) {
  let catalog = {};
  try { catalog = await loadCatalog(lang); } catch { if (lang !== "en") return applyLanguage("en", { save, titleKey }); }
  const t = makeT(catalog);
  markLanguage(lang, save);
  document.title = `${t(titleKey)} · ${t("app.title")}`;
  translatePage(t, lang);
  return { lang, t };
}

// ---------------------------------------------------------------- cards
function suitSvg(suit) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(ns, "use");
  use.setAttribute("href", `#suit-${suit}`);
  svg.append(use);
  return svg;
}

/**
 * A face-up card, named with translator `t` (the suits are the page's <symbol id="suit-S"> etc.):
 * a <button> (`button`, or an `onclick` listener given) or a <span role="img"> (display).
 * `mini`: the small card (a pip in place of a court card's face, no bottom-right index);
 * `bottomIndex: false`: no bottom-right index on a full-size card either (the replay's cards);
 * `cls`: more classes; `label`: the accessible name in place of the card's name; `pressed`:
 * aria-pressed (a toggle button); `attrs`: more attributes (these win).
 */
export function cardEl(card, t, {
  button = false, onclick = null, mini = false, bottomIndex = true, cls = "", label = null, pressed = null, attrs = {},
  textIndex = true,
} = {}) {
  const r = rankLabel(card, t);
  // The rank shows as text once (the top corner): a control's name ("9 of spades") then holds
  // what the eye reads ("9"), WCAG 2.5.3. The other corner, and both corners of a card drawn
  // under another (`textIndex: false`), show it from CSS (`data-r`), as a picture does.
  const rank = (asText) => (asText ? el("b", { text: r }) : el("b", { "data-r": r }));
  const asButton = button || !!onclick;
  const e = el(asButton ? "button" : "span", {
    class: `card s-${card[1]}${mini ? " mini" : ""}${cls ? " " + cls : ""}`,
    "data-card": card, "aria-label": label || cardName(card, t), role: asButton ? null : "img", type: asButton ? "button" : null,
    onclick, "aria-pressed": pressed === null ? null : String(pressed), ...attrs,
  });
  e.append(el("span", { class: "idx tl", "aria-hidden": "true" }, rank(textIndex), suitSvg(card[1])));
  if (isFace(card) && !mini) {
    e.append(el("span", { class: "face", "aria-hidden": "true" }, el("b", { text: r }), suitSvg(card[1])));
  } else {
    e.append(el("span", { class: "pip", "aria-hidden": "true" }, suitSvg(card[1])));
  }
  if (!mini && bottomIndex) e.append(el("span", { class: "idx br", "aria-hidden": "true" }, rank(false), suitSvg(card[1])));
  return e;
}

/**
 * Ask before a step that cannot be undone, in the page's own dialog (#dlg-confirm, the house
 * style, never the browser's `confirm`): `{title, text, ok, cancel}` are its words. Resolves
 * true for `ok`; false for `cancel`, Escape or a closed dialog. The safe answer has the focus;
 * the focus goes back where it was when the dialog closes.
 */
export function askConfirm({ title, text, ok, cancel }) {
  const dlg = $("confirm-h").closest("dialog");
  $("confirm-h").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-ok").textContent = ok;
  $("confirm-cancel").textContent = cancel;
  const before = document.activeElement;
  return new Promise((resolve) => {
    let answer = false;
    const yes = () => { answer = true; dlg.close(); };
    const no = () => dlg.close();
    const closed = () => {
      $("confirm-ok").removeEventListener("click", yes);
      $("confirm-cancel").removeEventListener("click", no);
      if (before && before.isConnected && typeof before.focus === "function") before.focus();
      resolve(answer);
    };
    $("confirm-ok").addEventListener("click", yes);
    $("confirm-cancel").addEventListener("click", no);
    dlg.addEventListener("close", closed, { once: true });
    if (!dlg.open) dlg.showModal();
    $("confirm-cancel").focus();
  });
}
