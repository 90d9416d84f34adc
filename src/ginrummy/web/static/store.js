// The game page's state: one store with subscribers, and every way that state changes (`reduce`,
// one action at a time). Pure: no DOM, no I/O (unit-tested by tests/js/store.test.mjs). Only
// session.js dispatches; the views are given the state and draw it (view.js). The server is the
// authority: the page's state holds the server's last view of the table and what the person does
// with it (the card order, the selection, the knock previewed), never a rule.

import { mergeOrder } from "./cards.js";
import { makeT } from "./i18n.js";
import { mergeMoveLog } from "./model.js";
import { hasPeople, withPresence } from "./seats.js";

export const DEFAULT_SETTINGS = { sound: true, animations: true, fourColour: false, largeCards: false, speed: "normal", pro: false };

/** The phases in which a selected card stays selected. */
const SELECTING = ["draw", "discard", "offer"];

/**
 * The page before anything is known: no language yet (`lang` null: nothing is drawn until the
 * page has its words), `settings` as saved over the defaults, no game, loading.
 */
export function initialPage(settings = {}) {
  return {
    lang: null, t: makeT({}), meta: null, settings: { ...DEFAULT_SETTINGS, ...(settings || {}) },
    game: null, state: null, lastSeq: 0, loading: true,
    order: [], selected: null, knockChoice: null,
    busy: false, animating: false, table: null, logUpTo: null, log: null,
    hint: null, hinting: false, conn: null, invite: null, reconnecting: false,
    ahead: null, leaving: false,
  };
}

/** Two states of the same deal (same game, same hand number). */
export function sameHand(a, b) {
  return !!(a && b && a.game_id === b.game_id && a.hand_number === b.hand_number);
}

/**
 * The page's own order of the hand differs from the server's (the server places a card it has no
 * saved position for in suit order; the page keeps it where it appeared): then the page saves its
 * order, so that a reload shows the hand exactly as it was.
 */
export function orderDiffers(page) {
  const served = (page.state && page.state.hand) || [];
  return page.order.length > 0 && page.order.some((c, i) => c !== served[i]);
}

/**
 * A state of the next deal that the page keeps aside while the person still looks at a deal's
 * result (issue 21): at a table of people anyone's Next hand starts the next deal for everyone,
 * but each person leaves the result when they choose. Not after their own Next hand (`leaving`).
 */
export function holdsResult(page, state) {
  const st = page.state;
  return !!(st && state && !page.leaving && st.phase === "hand-over" && st.game_id === state.game_id
    && !sameHand(st, state) && hasPeople(st));
}

/** The state shown after `state` came from the server (`lastSeq`: the last event seen, when given). */
function shown(page, state, lastSeq) {
  if (holdsResult(page, state)) return { ...page, ahead: state, lastSeq: lastSeq ?? page.lastSeq };
  const order = sameHand(page.state, state) ? mergeOrder(page.order, state.hand || []) : [...(state.hand || [])];
  const keep = page.selected && order.includes(page.selected) && SELECTING.includes(state.phase);
  return {
    ...page, state, order, selected: keep ? page.selected : null, log: mergeMoveLog(page.log, state),
    lastSeq: lastSeq ?? page.lastSeq, ahead: null, leaving: page.leaving && sameHand(page.state, state),
  };
}

/**
 * The page after one action (a new object; the same object when nothing changes):
 * - `language` {lang, t}, `settings` {settings: the changed ones}, `meta` {meta}, `loading` {loading}
 * - `game` {game}: the seat this page plays (`{game_id, token}`), the state not yet known
 * - `seat` {game, state}: a seat taken with its state: the table starts afresh (no selection, no hint; the invite answered)
 * - `shown` {state, lastSeq?}: a state from the server shown (the order kept within a deal,
 *   the move log merged, a selection dropped when its card left or the phase has none); a state
 *   of the next deal kept aside in `ahead` while the person looks at a result (holdsResult)
 * - `leaving`: the person chose Next hand (the next deal's state is shown when it comes)
 * - `go_ahead`: the person leaves the result kept on screen for the deal kept aside
 * - `forget`: no game any more
 * - `busy`, `hinting`, `reconnecting` (the server did not answer: asking again) {value}; `hint`
 *   {hint}; `select` {card}; `order` {order}; `knock` {choice}
 * - `animation` {table, logUpTo}: another seat's moves being shown (the table between events);
 *   `animation_end`
 * - `presence` {gameId, seats}: who is connected, on the state of that game only
 * - `log` {state}: the whole deal's events, merged into the move log
 * - `conn` {conn}: the live connection's state (connecting, live, reconnecting, closed; null: none)
 * - `invite` {invite}: the invite being answered ({code, data, problem, why: the code of why one cannot sit}), or null
 */
export function reduce(page, a) {
  switch (a.type) {
    case "language": return { ...page, lang: a.lang, t: a.t };
    case "settings": return { ...page, settings: { ...page.settings, ...a.settings } };
    case "meta": return { ...page, meta: a.meta };
    case "loading": return page.loading === a.loading ? page : { ...page, loading: a.loading };
    case "game": return { ...page, game: a.game };
    case "seat":
      return shown({ ...page, game: a.game, state: null, selected: null, hint: null, knockChoice: null, loading: false, ahead: null, leaving: false, invite: null }, a.state, a.state.seq ?? 0);
    case "shown": return shown(page, a.state, a.lastSeq);
    case "leaving": return page.leaving ? page : { ...page, leaving: true };
    case "go_ahead": return page.ahead ? shown({ ...page, leaving: true }, page.ahead) : page;
    case "forget": return { ...page, game: null, state: null, lastSeq: 0, selected: null, hint: null, ahead: null, leaving: false };
    case "busy": return page.busy === a.value ? page : { ...page, busy: a.value };
    case "hinting": return page.hinting === a.value ? page : { ...page, hinting: a.value };
    case "reconnecting": return page.reconnecting === a.value ? page : { ...page, reconnecting: a.value };
    case "hint": return { ...page, hint: a.hint };
    case "select": return page.selected === a.card ? page : { ...page, selected: a.card };
    case "order": return { ...page, order: a.order, selected: a.order.includes(page.selected) ? page.selected : null };
    case "knock": return { ...page, knockChoice: a.choice };
    case "animation": return { ...page, animating: true, table: a.table, logUpTo: a.logUpTo };
    case "animation_end": return { ...page, animating: false, table: null, logUpTo: null };
    case "presence":
      if (!page.state || page.state.game_id !== a.gameId) return page;
      return { ...page, state: withPresence(page.state, a.seats), ahead: page.ahead && withPresence(page.ahead, a.seats) };
    case "log": return { ...page, log: mergeMoveLog(page.log, a.state) };
    case "conn": return page.conn === a.conn ? page : { ...page, conn: a.conn };
    case "invite": return { ...page, invite: a.invite };
    default: throw new Error(`unknown action ${a.type}`);
  }
}

/**
 * One store: `get()` the page now, `dispatch(...actions)` (reduced in turn; the subscribers are
 * told once, with the page and the page before, when it changed), `subscribe(fn)` (returns the
 * unsubscribe).
 */
export function createStore(reducer, initial) {
  let page = initial;
  const subscribers = new Set();
  return {
    get: () => page,
    dispatch(...actions) {
      const prev = page;
      for (const a of actions) page = reducer(page, a);
      if (page !== prev) for (const fn of [...subscribers]) fn(page, prev);
      return page;
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
  };
}
