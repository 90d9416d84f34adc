// Pure card helpers: canonical two-character cards ("7H", "TS", "AC"), ace low (RULES.md ).
// No DOM, no I/O: unit-tested by tests/js/cards.test.mjs.

export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
/** Suit order used by "sort by suit": colours alternate (black, red, black, red). */
export const SUIT_SORT = "SHCD";

export const rankOf = (card) => RANKS.indexOf(card[0]);
export const suitOf = (card) => card[1];
/** Deadwood value: A = 1, 2..10 pip value, J Q K = 10. */
export const points = (card) => Math.min(rankOf(card) + 1, 10);
export const isRed = (card) => card[1] === "H" || card[1] === "D";
export const isFace = (card) => rankOf(card) >= 10;

export function isCard(text) {
  return typeof text === "string" && text.length === 2 && RANKS.includes(text[0]) && SUITS.includes(text[1]);
}

export function sumPoints(cards) {
  return cards.reduce((n, c) => n + points(c), 0);
}

/** Cards by rank (A..K), then by suit in SUIT_SORT order. Returns a new array. */
export function sortByRank(cards) {
  return [...cards].sort((a, b) => rankOf(a) - rankOf(b) || SUIT_SORT.indexOf(a[1]) - SUIT_SORT.indexOf(b[1]));
}

/** Cards by suit (S H C D), then by rank. Returns a new array. */
export function sortBySuit(cards) {
  return [...cards].sort((a, b) => SUIT_SORT.indexOf(a[1]) - SUIT_SORT.indexOf(b[1]) || rankOf(a) - rankOf(b));
}

/** True when the cards form a run shape (one suit, more than one rank). */
export function isRun(meld) {
  return meld.length > 1 && meld.every((c) => c[1] === meld[0][1]) && new Set(meld.map((c) => c[0])).size === meld.length;
}

/**
 * A meld as it is laid out: a set in the person's order (`order`); a run ascending, or
 * descending when the person turned it around (`turnRun`: its cards all stand high to low in
 * `order`; a card drawn to a run, placed at the end of the hand, never turns it).
 */
export function orderMeld(meld, order = []) {
  if (isRun(meld)) {
    const up = [...meld].sort((a, b) => rankOf(a) - rankOf(b));
    const at = up.map((c) => order.indexOf(c));
    const down = at.every((i, k) => i >= 0 && (k === 0 || i < at[k - 1]));
    return down ? up.reverse() : up;
  }
  const pos = (c) => { const i = order.indexOf(c); return i < 0 ? 99 + SUIT_SORT.indexOf(c[1]) : i; };
  return [...meld].sort((a, b) => pos(a) - pos(b));
}

/** Same cards, any order. */
export function sameCards(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((c) => s.has(c));
}

/** The person's order kept for the cards still held; new cards appended in `hand` order. */
export function mergeOrder(order, hand) {
  const held = new Set(hand);
  const kept = (order || []).filter((c) => held.has(c));
  const seen = new Set(kept);
  return kept.concat(hand.filter((c) => !seen.has(c)));
}

/** A new order with `card` moved to index `to` (clamped). */
export function moveCard(order, card, to) {
  const from = order.indexOf(card);
  if (from < 0) return [...order];
  const out = order.filter((c) => c !== card);
  const i = Math.max(0, Math.min(out.length, to));
  out.splice(i, 0, card);
  return out;
}

/** A new order where the cards `a` and `b` have traded places. */
export function swapCards(order, a, b) {
  const out = [...order];
  const i = out.indexOf(a);
  const j = out.indexOf(b);
  if (i < 0 || j < 0) return out;
  out[i] = b;
  out[j] = a;
  return out;
}

/** A new order with the run `shown` (as laid out) turned around: it then lays out the other way. */
export function turnRun(order, shown) {
  const slots = shown.map((c) => order.indexOf(c)).filter((i) => i >= 0).sort((x, y) => x - y);
  if (slots.length !== shown.length) return [...order];
  const out = [...order];
  const back = [...shown].reverse();
  slots.forEach((at, k) => { out[at] = back[k]; });
  return out;
}

/**
 * A new order with the group `cards` (a meld, as laid out) moved as one block just before the
 * card `before`, or after the last card of the group `after` (one of the two given).
 */
export function moveGroup(order, cards, { before = null, after = null } = {}) {
  const mine = new Set(cards);
  const rest = order.filter((c) => !mine.has(c));
  const block = order.filter((c) => mine.has(c));
  let at = rest.length;
  if (before !== null && rest.includes(before)) at = rest.indexOf(before);
  else if (after !== null && after.length) at = Math.max(...after.map((c) => rest.indexOf(c))) + 1;
  return [...rest.slice(0, at), ...block, ...rest.slice(at)];
}

/** Parse "3S 4S 5S" or "3S4S5S" into cards. */
export function parseCards(text) {
  const out = [];
  const t = String(text).toUpperCase().replace(/\s+/g, "");
  for (let i = 0; i + 1 < t.length; i += 2) {
    const c = t.slice(i, i + 2);
    if (!isCard(c)) throw new Error(`not a card: ${c}`);
    out.push(c);
  }
  return out;
}
