// The live region (#live): what a screen reader says as the table moves on. A text is said once;
// a function giving the text in the page's current language is remembered, so that a change of
// language says the last announcement again in the new language (issue 13).

import { $ } from "./page.js";

let spoken = null;  // what the live region said last, as a function of the language

/** Say `what` in the live region: a text, or a function giving the text in the page's current language. */
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
