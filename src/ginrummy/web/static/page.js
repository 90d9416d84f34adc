// Helpers shared by the scripts of the game page and the score keeper (app.js, keeper.js,
// sheet.js, variants.js): building elements, calling the server's JSON API, loading a language.
// Nothing runs on import (sheet.js and variants.js are also imported by `node --test tests/js/`).

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
/** Show `text` for four seconds in the page's toast (the element with id `toast`). */
export function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
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
  return { status: res.status, ok: res.ok, data };
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
