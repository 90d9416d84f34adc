// The game page's shared state and services: the page's state `S`, the translator `t`, localStorage,
// the API call with the seat's token, error words, the live region, sound and motion settings.

import { errorAnswerText, makeT } from "./i18n.js";
import { $, apiRequest } from "./page.js";
import { playSound } from "./sound.js";

export const KEY_CURRENT = "ginrummy.current";
export const KEY_SETTINGS = "ginrummy.settings";
export const KEY_NEW = "ginrummy.newgame";
export const DEFAULT_SETTINGS = { sound: true, animations: true, fourColour: false, largeCards: false, speed: "normal", pro: false };
/** The computer speed: how long the other seats' moves take to show, against "normal" (about 1.4 s a turn). */
export const SPEEDS = { slow: 2, normal: 1, fast: 0.4, instant: 0 };
export const ANIMATED = new Set(["take", "pass", "draw_stock", "draw_discard", "discard", "knock", "gin", "big_gin"]);

export const S = {
  lang: "en", t: makeT({}), meta: null, game: null, state: null, order: [], selected: null,
  busy: false, animating: false, table: null, lastSeq: 0, knockChoice: null, drag: null,
  suppressClick: false, settings: { ...DEFAULT_SETTINGS }, pollTimer: null, orderTimer: null,
  hint: null, hinting: false, loading: true, chain: Promise.resolve(),
  reconnecting: false,  // the server did not answer (503, 5xx, no network): asking again
};

export const t = (...a) => S.t(...a);

export const store = {
  get(key, fallback = null) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch { return fallback; }
  },
  set(key, value) {
    try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode */ }
  },
};

// ---------------------------------------------------------------- server
/** A request to the JSON API; the game's token goes with requests on the game (or `token`). */
export function api(method, path, body, token) {
  const mine = S.game && path.startsWith(`/api/games/${S.game.game_id}`);
  return apiRequest(method, path, body, token || (mine ? S.game.token : null));
}

/** An API error answer in words, in the page's language (i18n.errorAnswerText). */
export function detailMessage(data) {
  const d = data && data.detail;
  if (d && d.code === "stale") return t("error.stale");
  return errorAnswerText(data, S.t, S.lang);
}



export function motionOK() {
  return S.settings.animations && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export const sound = (kind) => playSound(kind, S.settings.sound);

/** `ms` of showing another seat's move at the chosen computer speed (0 at "instant"). */
export function pace(ms) {
  const f = SPEEDS[S.settings.speed];
  return Math.round(ms * (f === undefined ? 1 : f));
}

// ---------------------------------------------------------------- live region
let spoken = null;  // what the live region said last, as a function of the language

/**
 * Say `what` in the live region: a text, or a function giving the text in the page's current
 * language, which `reannounce()` calls again after a language switch (issue 13).
 */
export function announce(what) {
  const text = typeof what === "function" ? what() : what;
  if (!text) return;
  spoken = typeof what === "function" ? what : null;
  const live = $("live");
  live.textContent = "";
  requestAnimationFrame(() => { live.textContent = text; });
}

/** After a language switch: say the last announcement again, in the new language (false when
 * the last one cannot be worded again). */
export function reannounce() {
  if (!spoken) return false;
  announce(spoken);
  return true;
}

export function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }
