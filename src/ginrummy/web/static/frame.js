// The page around the table, drawn from the page's state it is given: its fixed texts in the
// page's language (title, [data-i18n] elements, the language picker), the keyboard help with
// each control's shortcut, and the settings' marks on the page (four colours, large cards, no
// animation, pro mode) with the settings dialog's fields.

import { LANGUAGES } from "./i18n.js";
import { $, el, translatePage } from "./page.js";

/** The speeds the settings offer (the computer's moves shown slower or faster than "normal"). */
export const SPEEDS = { slow: 2, normal: 1, fast: 0.4, instant: 0 };

export function drawStaticText(p) {
  const { t } = p;
  document.title = t("app.title");
  translatePage(t, p.lang, (p.meta && p.meta.languages) || LANGUAGES);
  $("lang-select").setAttribute("aria-label", t("settings.language"));
  drawHelpKeys(t);
}

// ---------------------------------------------------------------- help (keyboard)
const KEYS = [
  ["←  →", "keys.arrows"], ["Enter / Space", "keys.select"], ["Shift + ←  →", "keys.move"],
  ["S", "keys.stock"], ["D", "keys.pile"], ["T", "keys.take"], ["P", "keys.pass"], ["X", "keys.discard"],
  ["K", "keys.knock"], ["G", "keys.gin"], ["B", "keys.big_gin"], ["N", "keys.next"], ["R", "keys.sort_rank"],
  ["U", "keys.sort_suit"], ["I", "keys.hint"], ["H / ?", "keys.help"], ["Esc", "keys.escape"],
];

/** The controls with a shortcut: [element id, key, the catalog's name of what it does]. */
const SHORTCUTS = [
  ["btn-knock", "K", "knock"], ["btn-gin", "G", "gin"], ["btn-big-gin", "B", "big_gin"], ["btn-discard", "X", "discard"],
  ["stock", "S", "stock"], ["discard-pile", "D", "pile"], ["btn-take", "T", "take"], ["btn-pass", "P", "pass"],
  ["btn-next", "N", "next"], ["btn-sort-rank", "R", "sort_rank"], ["btn-sort-suit", "U", "sort_suit"], ["btn-hint", "I", "hint"],
];

function drawHelpKeys(t) {
  $("help-keys").replaceChildren(...KEYS.flatMap(([k, key]) => [el("dt", {}, ...k.split(" ").filter(Boolean).map((x) => (x === "/" || x === "+" ? ` ${x} ` : el("kbd", { text: x })))), el("dd", { text: t(key) })]));
  for (const [id, k, name] of SHORTCUTS) { $(id).setAttribute("aria-keyshortcuts", k); $(id).title = `${t(`keys.${name}`)} (${k})`; }
}

// ---------------------------------------------------------------- settings
export function drawSettings(p) {
  const s = p.settings;
  document.body.classList.toggle("four-colour", !!s.fourColour);
  document.body.classList.toggle("large-cards", !!s.largeCards);
  document.body.classList.toggle("no-anim", !s.animations);
  document.body.classList.toggle("pro", !!s.pro);
  $("set-sound").checked = !!s.sound;
  $("set-anim").checked = !!s.animations;
  $("set-four").checked = !!s.fourColour;
  $("set-large").checked = !!s.largeCards;
  $("set-pro").checked = !!s.pro;
  $("set-speed").value = SPEEDS[s.speed] !== undefined ? s.speed : "normal";
}
