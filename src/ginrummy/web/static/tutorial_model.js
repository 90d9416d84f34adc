// Pure checks of the tutorial (/tutorial): the person's clicks against the answers the server
// worked out with the engine (GET /api/tutorial, ginrummy.web.api.tutorial). The rules live
// there; here only the comparison, and the shape of a wrong pick to say why it is wrong.
// No DOM, no I/O: unit-tested by tests/js/tutorial.test.mjs.

import { rankOf, points, sameCards } from "./cards.js";

/** A verdict: `{ ok: true, ...params }` or `{ ok: false, reason, ...params }` (reason: a catalog key suffix). */
const right = (params = {}) => ({ ok: true, ...params });
const wrong = (reason, params = {}) => ({ ok: false, reason, ...params });

/** Why these cards (not a meld of the lesson's hand) are not a meld: few, mixed, wrap or gap. */
export function meldProblem(cards) {
  if (cards.length < 3) return "few";
  const oneSuit = cards.every((c) => c[1] === cards[0][1]);
  const oneRank = cards.every((c) => c[0] === cards[0][0]);
  if (!oneSuit && !oneRank) return "mixed";
  if (oneSuit && cards.some((c) => c[0] === "A") && cards.some((c) => c[0] === "K")) return "wrap";
  if (oneSuit) return "gap";
  return "mixed";
}

/**
 * The pick of a meld of kind `want` ("set" | "run") from `lesson` ({ melds: [{cards, kind}] }, every
 * meld of the hand): right when it is one of them and of that kind.
 */
export function judgeMeld(selection, lesson, want) {
  const found = lesson.melds.find((m) => sameCards(m.cards, selection));
  if (found) return found.kind === want ? right({ cards: found.cards }) : wrong(`other_${want}`);
  return wrong(meldProblem(selection));
}

/** Each card with its deadwood value, and the total. */
export function valueBreakdown(cards) {
  const items = cards.map((card) => ({ card, points: points(card) }));
  return { items, total: items.reduce((n, x) => n + x.points, 0) };
}

/**
 * The deadwood cards tapped: right when they are the deadwood of a minimum arrangement
 * (lesson.deadwood_options); else the first melded card tapped, or "missing".
 */
export function judgeDeadwood(selection, lesson) {
  if (lesson.deadwood_options.some((o) => sameCards(o, selection))) return right({ points: lesson.deadwood_points });
  const dead = new Set(lesson.deadwood_options.flat());
  const melded = selection.find((c) => !dead.has(c));
  if (melded) return wrong("melded", { card: melded });
  return wrong("missing");
}

/** The draw of the turn lesson: "upcard" is right when the upcard makes a meld with the hand. */
export function judgeDraw(choice, lesson) {
  const takes = lesson.upcard_melds.length > 0;
  if ((choice === "upcard") === takes) return right();
  return wrong(takes ? "stock" : "upcard", { card: lesson.upcard, meld: lesson.upcard_melds[0] || [] });
}

/** The discard after taking the upcard: not the card just taken, and one of the lowest deadwood after. */
export function judgeDiscard(card, lesson) {
  if (card === lesson.forbidden) return wrong("taken", { card });
  const after = lesson.discards[card];
  if (after === lesson.best_after) return right({ card, after });
  return wrong("higher", { card, after, best: lesson.best_after });
}

/** "gin" | "knock" | "discard" against the lesson's answer. */
export function judgeKnock(choice, lesson) {
  if (choice === lesson.answer) return right();
  if (choice === "gin") return wrong(lesson.answer === "knock" ? "not_gin" : "too_high");
  if (choice === "knock") return wrong(lesson.answer === "gin" ? "take_gin" : "too_high");
  return wrong(lesson.answer === "gin" ? "take_gin" : "may_knock");
}

/**
 * The cards to lay off (R-6.x): right when they are the engine's layoffs; else the first card that
 * fits nowhere, or a missing one ("chain" when it fits only after another layoff).
 */
export function judgeLayoff(selection, lesson) {
  if (sameCards(selection, lesson.layoffs)) return right();
  const extra = selection.find((c) => !lesson.layoffs.includes(c));
  if (extra) return wrong("no_fit", { card: extra });
  const missing = lesson.layoffs.filter((c) => !selection.includes(c));
  return wrong(missing.some((c) => !lesson.fits_directly.includes(c)) && selection.length ? "chain" : "missing");
}

/** Toggle `card` in the selection (a new array, in hand order `hand`). */
export function toggle(selection, card, hand) {
  const s = new Set(selection);
  if (s.has(card)) s.delete(card); else s.add(card);
  return hand.filter((c) => s.has(c));
}

/** Cards ascending by rank (a run reads left to right). */
export const byRank = (cards) => [...cards].sort((a, b) => rankOf(a) - rankOf(b));
