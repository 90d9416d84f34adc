// What the person's intents mean at the table shown: the key that names each intent, the legal
// action an intent sends (always one the server listed: the page holds no rule), what a click on
// a card does, and the hand's order after a card or a meld is moved. Pure: no DOM, no I/O
// (unit-tested by tests/js/intents.test.mjs). controls.js turns the DOM's events into intents;
// session.js carries them out.

import { moveCard, moveGroup, swapCards, turnRun } from "./cards.js";
import { chooseGin, findLegal, isRunMeld } from "./model.js";

/** The keyboard's shortcuts (a key, lower case: the intent); `x` and Delete discard the selected card. */
export const KEY_INTENTS = {
  s: { type: "draw_stock" }, d: { type: "draw_pile" }, t: { type: "play", kind: "take" }, p: { type: "play", kind: "pass" },
  x: { type: "discard_selected" }, delete: { type: "discard_selected" },
  k: { type: "knock" }, g: { type: "gin" }, b: { type: "play", kind: "big_gin" }, n: { type: "play", kind: "next_hand" },
  r: { type: "sort", by: "rank" }, u: { type: "sort", by: "suit" }, i: { type: "hint" }, h: { type: "help" }, "?": { type: "help" },
};

/** The intent of a key (`key` as KeyboardEvent.key), or null. */
export function keyIntent(key) {
  return KEY_INTENTS[String(key).toLowerCase()] || null;
}

/** The table takes a move now: a state shown, nothing in flight, no animation. */
export const idle = (page) => !!(page.state && !page.busy && !page.animating);

/**
 * The legal action an intent sends at the state shown, or null: `draw_stock`, `draw_pile` (the
 * pile: a draw, or taking the upcard at the offer), `play` {kind} (take, pass, big gin, next hand),
 * `gin` (the selected card's gin, else the extra card's), `discard` {card}.
 */
export function actionFor(page, intent) {
  const st = page.state;
  switch (intent.type) {
    case "draw_stock": return findLegal(st, "draw_stock");
    case "draw_pile": return findLegal(st, "draw_discard") || findLegal(st, "take");
    case "play": return findLegal(st, intent.kind);
    case "gin": return chooseGin(st, page.selected);
    case "discard": return intent.card ? findLegal(st, "discard", intent.card) : null;
    default: return null;
  }
}

/**
 * Why a card cannot be discarded (a catalog key and its parameters), or null when it can:
 * nothing selected, not the time to discard (draw first), the card just taken from the pile.
 */
export function discardRefusal(page, card) {
  const st = page.state;
  if (!card) return { key: "error.select_first" };
  if (findLegal(st, "discard", card)) return null;
  if (!st || st.phase !== "discard") return { key: "reason.draw_first" };
  if (st.taken_from_discard === card) return { key: "error.taken", card };
  return { key: "error.cannot_discard" };
}

/**
 * A click on a card of the hand: `{discard: card}` (the selected card clicked again while
 * discarding), `{select: card}` (a card selected, or `null`: the selection cleared), or null
 * when the table takes no click now.
 */
export function cardClick(page, card) {
  if (!idle(page)) return null;
  if (page.selected === card) return page.state.phase === "discard" ? { discard: card } : { select: null };
  return { select: card };
}

/** The card of `cards` that comes first in `order` (a meld's place in the hand). */
const firstIn = (order, cards) => cards.reduce((a, c) => (order.indexOf(c) < order.indexOf(a) ? c : a));

/**
 * Shift + arrow on `card` (`dir` -1 left, 1 right), over the hand's `groups` as drawn: inside a
 * group it trades places with its neighbour (a set, the deadwood); a run turns around (it stays a
 * run, high to low or low to high); at the end of a meld the whole meld moves past the next meld.
 * `{order, said}` (`said`: a catalog key to announce, or null), or null when nothing moves.
 */
export function shiftCard(order, groups, card, dir) {
  const group = groups.find((g) => g.cards.includes(card));
  if (!group) return null;
  const inGroup = group.cards;
  const j = inGroup.indexOf(card) + dir;
  const isMeld = group.kind === "meld";
  if (j >= 0 && j < inGroup.length) {
    if (isMeld && isRunMeld(inGroup)) return { order: turnRun(order, inGroup), said: "hand.run_turned" };
    return { order: swapCards(order, card, inGroup[j]), said: null };
  }
  if (!isMeld) return null;
  const melds = groups.filter((g) => g.kind === "meld");
  const other = melds[melds.indexOf(group) + dir];
  if (!other) return null;
  const theirs = other.cards;
  const moved = dir < 0 ? moveGroup(order, inGroup, { before: firstIn(order, theirs) }) : moveGroup(order, inGroup, { after: theirs });
  return { order: moved, said: "hand.meld_moved" };
}

/**
 * The order after `card` is dropped by `target` (the nearest card; `after`: on its right half):
 * a card of a run dropped in its run turns the run around; a meld's card dropped on another meld
 * takes its whole meld there; any other card goes where it is dropped (its group stays the one
 * the server's arrangement gives it).
 */
export function dropCard(order, groups, card, target, after) {
  const group = groups.find((g) => g.cards.includes(card));
  const to = groups.find((g) => g.cards.includes(target));
  if (group && group.kind === "meld") {
    const mine = group.cards;
    if (to === group && isRunMeld(mine)) return turnRun(order, mine);
    if (to !== group && to && to.kind === "meld") {
      return after ? moveGroup(order, mine, { after: to.cards }) : moveGroup(order, mine, { before: firstIn(order, to.cards) });
    }
  }
  const without = order.filter((c) => c !== card);
  return moveCard(order, card, without.indexOf(target) + (after ? 1 : 0));
}
