// Where the keyboard's focus goes (WCAG 2.4.3), from the page's state it is given: the next
// thing the person can do after the table moved on, and back where it was when a dialog closes.

import { $ } from "./page.js";

/** A control the person can use now: in the page, shown, enabled. */
function usable(e) {
  return !!(e && e.isConnected && !e.disabled && e.getAttribute("aria-disabled") !== "true"
    && !e.closest("[hidden]") && e.getClientRects().length);
}

/**
 * The next thing the person can do, focused: Take (or Pass) at the offer, the stock (or the
 * pile) to draw, the card just drawn (or taken) to discard, Next hand after a hand; the hand while
 * another seat moves. Returns the element focused, or null.
 */
export function focusPlay(p) {
  const st = p.state;
  if (!st) return focusFirst([$("btn-first-deal"), $("btn-new")]);
  const card = (c) => (c ? $("hand").querySelector(`.slot[data-card="${c}"]`) : null);
  const cards = () => [...$("hand").querySelectorAll(".slot")];
  const resultShown = !$("result").hidden;
  switch (st.phase) {
    case "offer": return focusFirst([$("btn-take"), $("btn-pass"), ...cards()]);
    case "draw": return focusFirst([$("stock"), $("discard-pile"), $("btn-pass"), ...cards()]);
    case "discard": return focusFirst([card(p.selected), card(st.drawn), card(st.taken_from_discard), ...cards()]);
    case "hand-over":
    case "game-over":
      return focusFirst(resultShown ? [$("btn-next"), $("btn-rematch"), $("btn-again"), $("result")] : cards());
    default: return focusFirst([...cards(), $("hand")]);
  }
}

function focusFirst(list) {
  const e = list.find((x) => x && (usable(x) || (x.tabIndex === -1 && x.isConnected && !x.closest("[hidden]"))));
  if (e) e.focus({ preventScroll: !e.closest("#result") });
  return e || null;
}

/** Focus is lost: on nothing, or on a control that is gone, hidden or disabled. */
export function focusLost() {
  const a = document.activeElement;
  return !a || a === document.body || a === document.documentElement || (!usable(a) && a.tabIndex !== -1);
}

/**
 * Where the table moved on (`prevPhase` to the state shown now): the person's focus follows to
 * the next thing to do when it was at the table or lost, never taken from the header, the score
 * sheet, a link or an open dialog.
 */
export function focusAfterMove(prevPhase, p) {
  const st = p.state;
  if (!st || document.querySelector("dialog[open]")) return;
  const a = document.activeElement;
  // the cards, the piles and the play's buttons; not the seats' strip (messages, leave), nor the result
  const atPlay = !!(a && a.closest && a.closest("#me, #opp, .center"));
  if (focusLost() || (atPlay && prevPhase !== st.phase)) focusPlay(p);
}

/**
 * When a dialog closes, focus goes back where it was before it opened (`before`: the control
 * that opened it), or, when that control is gone or disabled (the knock after knocking), to the
 * next thing to do.
 */
export function focusAfterDialog(dlg, before, p) {
  if (document.querySelector("dialog[open]")) return;
  const a = document.activeElement;
  if (a && a !== document.body && !dlg.contains(a) && usable(a)) return;  // placed already (a deal)
  if (usable(before) && before !== document.body) before.focus();
  else focusPlay(p);
}
