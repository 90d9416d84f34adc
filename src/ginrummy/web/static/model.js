// Pure view logic over the server's `state` (docs/api.md): phases, legal actions, hand grouping,
// the table model replayed from events, score sheet rows, layoffs. No DOM, no I/O: unit-tested by
// tests/js/model.test.mjs. The server is the authority; nothing here decides a rule.

import { isRun, orderMeld, sameCards, sortByRank, sortBySuit, sumPoints } from "./cards.js";

export const PHASES = ["offer", "draw", "discard", "opponent", "hand-over", "game-over"];

/**
 * The `data-phase` of the status element: the state's phase, or `opponent` while animating;
 * null before there is any game (the attribute is then left off).
 */
export function uiPhase(state, animating = false) {
  if (!state) return null;
  if (animating) return "opponent";
  return PHASES.includes(state.phase) ? state.phase : "opponent";
}

/** The first legal action of `type` (and, when given, for `card`), or null. */
export function findLegal(state, type, card) {
  const legal = (state && state.legal) || [];
  return legal.find((a) => a.type === type && (card === undefined || card === null || a.card === card)) || null;
}

export function legalOfType(state, type) {
  return ((state && state.legal) || []).filter((a) => a.type === type);
}

/**
 * The card the hand shows apart as the extra card of 11: the one held card in no meld and not
 * deadwood of the state's arrangement (the server leaves out the discard of least deadwood,
 * ties: the higher value, then card order; the hint names the same card on a tie), or null.
 */
export function extraCard(state) {
  const arr = state && state.arrangement;
  if (!arr || !Array.isArray(arr.deadwood)) return null;
  const used = new Set([...(arr.melds || []).flat(), ...arr.deadwood]);
  const rest = ((state && state.hand) || []).filter((c) => !used.has(c));
  return rest.length === 1 ? rest[0] : null;
}

/**
 * The knock to preview: the selected card's knock when it has one, else the best knock (least
 * deadwood; ties: the hand's extra card, then the higher discard, then the first listed).
 */
export function chooseKnock(state, selected) {
  const knocks = legalOfType(state, "knock");
  if (!knocks.length) return null;
  const mine = selected ? knocks.find((k) => k.card === selected) : null;
  if (mine) return mine;
  const extra = extraCard(state);
  const key = (k) => [k.deadwood_points ?? 99, k.card === extra ? 0 : 1, -sumPoints([k.card])];
  return [...knocks].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  })[0];
}

/** The gin action for the selected card when it has one, else the hand's extra card's, else the first. */
export function chooseGin(state, selected) {
  const gins = legalOfType(state, "gin");
  const extra = extraCard(state);
  return gins.find((g) => g.card === selected) || gins.find((g) => g.card === extra) || gins[0] || null;
}

/**
 * The hand laid out in groups: each meld of the arrangement (in the order its first card has in
 * the person's order), then the deadwood (person's order), then any card the arrangement leaves
 * out (holding 11: the spare card the best 10 do without).
 * @returns {{kind: "meld"|"deadwood"|"spare", cards: string[], meld?: number, run?: boolean}[]}
 */
export function groupHand(hand, arrangement) {
  const cards = hand || [];
  const held = new Set(cards);
  const melds = ((arrangement && arrangement.melds) || []).filter((m) => m.length && m.every((c) => held.has(c)));
  const inMeld = new Set(melds.flat());
  const first = (m) => Math.min(...m.map((c) => cards.indexOf(c)));
  const ordered = [...melds].sort((a, b) => first(a) - first(b));
  const groups = ordered.map((m, i) => ({ kind: "meld", cards: orderMeld(m, cards), meld: i, run: isRun(m) }));
  const rest = cards.filter((c) => !inMeld.has(c));
  const dw = arrangement && Array.isArray(arrangement.deadwood) ? new Set(arrangement.deadwood) : null;
  const dead = dw ? rest.filter((c) => dw.has(c)) : rest;
  const spare = dw ? rest.filter((c) => !dw.has(c)) : [];
  if (dead.length) groups.push({ kind: "deadwood", cards: dead });
  if (spare.length) groups.push({ kind: "spare", cards: spare });
  return groups;
}

/**
 * The hand's groups as drawn: each meld, the deadwood, the spare card of 11 (groupHand of the
 * person's `order` and the state's arrangement); in pro mode (a setting) the person's own order
 * in one group, without meld marks.
 */
export function handGroups(order, state, pro = false) {
  if (pro) return [{ kind: "free", cards: [...order] }];
  return groupHand(order, state && state.arrangement);
}

/** A run as the page marks one: cards of one suit and different ranks. */
export function isRunMeld(cards) {
  return cards.length > 1 && cards.every((c) => c[1] === cards[0][1]) && cards[0][0] !== cards[1][0];
}

/** A meld's cards in the order they are shown: a run by rank, a set by suit. */
export function sortForShow(cards) {
  if (isRunMeld(cards)) return sortByRank(cards);
  return sortBySuit(cards);
}

/** The table as drawn between events: what the animation replays. */
export function tableFromState(state) {
  return {
    stock: state.stock_count ?? 0,
    pile: [...(state.discard_pile || [])],
    oppCount: state.opponent?.card_count ?? 10,
    known: [...(state.opponent?.known || [])],
    myCount: (state.hand || []).length,
  };
}

/**
 * The table after one event. `you` is the person's seat; `state` is the new state (for the
 * upcard of a new deal). Returns a new object; never throws on an unknown event.
 */
export function applyEvent(table, ev, you, state = {}) {
  const t = { ...table, pile: [...table.pile], known: [...table.known] };
  const opp = ev.seat !== you && ev.seat !== null && ev.seat !== undefined;
  const addTo = (n) => { if (opp) t.oppCount += n; else t.myCount += n; };
  switch (ev.type) {
    case "deal":
      t.stock = 31; t.pile = state.initial_upcard ? [state.initial_upcard] : []; t.oppCount = 10; t.myCount = 10; t.known = [];
      break;
    case "take":
    case "draw_discard": {
      const card = ev.card || t.pile[t.pile.length - 1];
      t.pile.pop(); addTo(1);
      if (opp && card) t.known.push(card);
      break;
    }
    case "draw_stock":
      t.stock = Math.max(0, t.stock - 1); addTo(1);
      break;
    case "discard":
      if (ev.card) t.pile.push(ev.card);
      addTo(-1);
      if (opp) t.known = t.known.filter((c) => c !== ev.card);
      break;
    case "knock":
    case "gin":
      addTo(-1);
      break;
    default:
      break;
  }
  return t;
}

/** Events newer than `lastSeq`, in order. */
export function newEvents(state, lastSeq) {
  return ((state && state.events) || []).filter((e) => typeof e.seq !== "number" || e.seq > lastSeq)
    .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

/**
 * Rows of the score sheet from the person's side: columns [you, opponent].
 * Each row: {number, kind, col (0 you, 1 opponent, null dead), points, totals: [you, opp]}.
 */
export function scoreRows(score, you) {
  const other = 1 - you;
  const totals = [0, 0];
  const rows = ((score && score.hands) || []).map((h) => {
    let col = null;
    if (h.winner !== null && h.winner !== undefined) {
      col = h.winner === you ? 0 : 1;
      totals[col] += h.points || 0;
    }
    return { number: h.number, kind: h.kind, col, points: h.points || 0, totals: [...totals] };
  });
  const seat = (arr) => (arr ? [arr[you], arr[other]] : null);
  return {
    rows,
    handPoints: seat(score && score.hand_points) || totals,
    boxes: seat(score && score.boxes) || [0, 0],
    target: score && score.target,
    final: score && score.final ? {
      winner: score.final.winner === you ? 0 : 1,
      totals: seat(score.final.totals),
      handPoints: seat(score.final.hand_points),
      boxes: seat(score.final.boxes),
      boxPoints: seat(score.final.box_points),
      gameBonus: score.final.game_bonus,
      shutout: !!score.final.shutout,
      shutoutRule: score.final.shutout_rule,
      margin: score.final.margin,
    } : null,
  };
}

/**
 * The knocker's melds with the defender's layoffs attached: [{cards, laid: [cards]}], the laid-off
 * cards matched to the meld they extend (a layoff's `onto` is the meld as it was, possibly already
 * extended by earlier layoffs: it contains the original meld).
 */
export function meldsWithLayoffs(melds, layoffs) {
  const out = (melds || []).map((m) => ({ cards: [...m], laid: [] }));
  for (const lo of layoffs || []) {
    const onto = lo.onto || [];
    let target = out.find((m) => sameCards(m.cards, onto) || sameCards([...m.cards, ...m.laid], onto));
    if (!target) target = out.find((m) => m.cards.every((c) => onto.includes(c)));
    if (!target) target = out.find((m) => onto.some((c) => m.cards.includes(c) || m.laid.includes(c)));
    if (target) target.laid.push(lo.card);
  }
  return out;
}

/** Deadwood points of cards (for the live counter when the arrangement lacks a total). */
export function deadwoodOf(arrangement) {
  if (!arrangement) return null;
  if (typeof arrangement.deadwood_points === "number") return arrangement.deadwood_points;
  return sumPoints(arrangement.deadwood || []);
}

/**
 * What the status line should say: a catalog key. No state: "loading" while a saved game is being
 * fetched (`loading`), else the prompt to start one (behind the new-game dialog).
 */
export function promptKey(state, animating, loading = false) {
  if (animating) return "prompt.opponent";
  if (!state) return loading ? "prompt.loading" : "prompt.no_game";
  switch (state.phase) {
    case "offer": return "prompt.offer";
    case "draw":
      if (findLegal(state, "pass")) return findLegal(state, "draw_discard") ? "prompt.last_discard" : "prompt.last_discard_pass";
      return findLegal(state, "draw_discard") ? "prompt.draw" : "prompt.draw_stock_only";
    case "discard": return findLegal(state, "knock") || findLegal(state, "gin") ? "prompt.discard_or_knock" : "prompt.discard";
    case "hand-over": return "prompt.hand_over";
    case "game-over": return "prompt.game_over";
    default: return "prompt.opponent";
  }
}

/** Rules overrides: the fields whose value differs from the preset's. */
export function rulesOverrides(preset, values) {
  const out = {};
  for (const [k, v] of Object.entries(values)) {
    const p = preset ? preset[k] : undefined;
    if (p === undefined || JSON.stringify(p) !== JSON.stringify(v)) out[k] = v;
  }
  return out;
}

// ---------------------------------------------------------------- hints (docs/api.md, "Hints")
const TAKES = new Set(["take", "draw_discard"]);

/**
 * A hint (the `hint` of `GET /api/games/{id}/hint`) in words, from the catalog: the move, then
 * why, in numbers ("Hint: take the 7 of clubs. After you discard the king of diamonds, your
 * deadwood goes from 25 to 18."). `name(card)` names a card; `lang` formats decimals.
 */
export function hintText(hint, t, name, lang = "en") {
  if (!hint) return "";
  let fmt;
  try { fmt = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }); } catch { fmt = new Intl.NumberFormat("en", { maximumFractionDigits: 1 }); }
  const num = (x) => (typeof x === "number" ? fmt.format(x) : "");
  const pct = (x) => (typeof x === "number" ? String(Math.round(x * 100)) : "");
  const alt = hint.alternative || {};
  const cmp = hint.comparison || {};
  const cardOf = hint.card || alt.card;
  const card = cardOf ? name(cardOf) : "";
  const move = t(`hint.move.${hint.kind}`, { card });
  const reason = TAKES.has(hint.kind) ? `take_${hint.reason}` : hint.reason;
  const why = t(`hint.why.${reason}`, {
    card, now: hint.deadwood, after: hint.deadwood_after,
    then: hint.then_discard ? name(hint.then_discard) : "",
    alt: alt.deadwood_after, other: cmp.card ? name(cmp.card) : "", low: cmp.deadwood,
    exp: num(cmp.expected), exp_other: num(cmp.expected_other),
    danger: pct(cmp.danger ?? hint.danger), danger_other: pct(cmp.danger_other),
    k: hint.could_knock, risk: pct(hint.undercut_risk), max: hint.late_max, limit: hint.knock_limit,
  }, "");
  let text = t("hint.text", { move, why }, "{move}. {why}").trim();
  if (hint.overrules && hint.plain) {
    // the search overrules the plain deadwood count: say what counting alone would do
    const plain = plainMove(hint.plain, cardOf);
    const plainText = t(`hint.move.${plain.kind}`, { card: plain.card ? name(plain.card) : "" });
    text += " " + t("hint.overrules", { plain: plainText });
    if (hint.value_kind === "win_chance" && typeof hint.value === "number" && typeof hint.plain_value === "number") {
      text += " " + t("hint.overrules_chance", { value: pct(hint.value), plain_value: pct(hint.plain_value) });
    }
  }
  return text;
}

/**
 * The kind and card of a move posted as an action text ("discard 8H", "draw stock", "knock 3D:
 * ...", "pass"); `faceUp` is the face-up card that take / pass / draw discard are about.
 */
export function plainMove(text, faceUp) {
  const w = String(text).trim().toLowerCase().split(/[\s:]+/);
  if (w[0] === "draw") return { kind: w[1] === "stock" ? "draw_stock" : "draw_discard", card: w[1] === "stock" ? null : faceUp };
  if (w[0] === "big") return { kind: "big_gin", card: null };
  if (w[0] === "take" || w[0] === "pass") return { kind: w[0], card: faceUp };
  return { kind: w[0], card: (w[1] || "").toUpperCase() || null };
}

/** Why there is no hint (`reason` of a `hint: null` answer), from the catalog. */
export function hintNoneText(reason, t) {
  return t(`hint.none.${reason}`, null, t("hint.none.not_your_turn"));
}

/**
 * What the page marks for a hint: a card of the hand (`{where: "hand", card}`: a discard, a
 * knock or gin discard), the discard pile (taking the face-up card), the stock, or a button
 * (`pass`, `big_gin`).
 */
export function hintTarget(hint) {
  if (!hint) return null;
  switch (hint.kind) {
    case "discard": case "knock": case "gin": return { where: "hand", card: hint.card };
    case "take": case "draw_discard": return { where: "pile", card: hint.card };
    case "draw_stock": return { where: "stock" };
    case "pass": return { where: "pass" };
    case "big_gin": return { where: "big_gin" };
    default: return null;
  }
}

// ---------------------------------------------------------------- move log (public moves only)
/**
 * The move log of the deal in play, kept across answers that carry only the newest events
 * (docs/api.md `events`): `log` is the previous `{hand, events, complete}` (or null) and `state`
 * the new state. Events of the state's deal (`hand` = `state.hand_number`) are added once each,
 * in `seq` order; a new deal (or another game) starts a new log. `complete` is true once the log holds the deal's
 * `deal` event (else the page asks for the whole deal: `GET /api/games/{id}` without `since`).
 */
export function mergeMoveLog(log, state) {
  const hand = state ? state.hand_number ?? null : null;
  const game = state ? state.game_id ?? null : null;
  const same = log && log.hand === hand && log.game === game;
  const bySeq = new Map((same ? log.events : []).map((e) => [e.seq, e]));
  for (const e of (state && state.events) || []) {
    if (typeof e.seq !== "number") continue;
    if ((e.hand ?? hand) !== hand) continue;
    bySeq.set(e.seq, e);
  }
  const events = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  return { game, hand, events, complete: events.length > 0 && events[0].type === "deal" };
}

/**
 * An event as the move log shows it: public information only. A stock draw never names its card
 * (not even the person's own: the log reads like the table, where a stock card is face down);
 * every other card an event names was face up (docs/api.md: events never name a hidden card).
 */
export function publicLogEvent(ev) {
  if (ev && ev.type === "draw_stock" && ev.card) {
    const { card: _hidden, ...rest } = ev;
    return rest;
  }
  return ev;
}

/** The log's entries worth a line: every move and the deal's end; `game_over` is said elsewhere. */
export function logEntries(log) {
  return ((log && log.events) || []).filter((e) => e.type !== "game_over").map(publicLogEvent);
}

/**
 * The whole discard pile, bottom (oldest) first, for the pile's view: `[{card, top, by}]`; only
 * the last is the top card (the one a draw takes). `by` is who put the card there, read from a
 * complete move `log` of the deal (`"upcard"` for the deal's face-up card, else the seat that
 * discarded it), or null when the log cannot tell (public information only: discards are face up).
 */
export function pileCards(pile, log = null, upcard = null) {
  const cards = pile || [];
  const owners = new Map();
  if (log && log.complete) {
    const stack = upcard ? [[upcard, "upcard"]] : [];
    for (const e of log.events) {
      if (e.type === "take" || e.type === "draw_discard") stack.pop();
      else if (e.type === "discard" && e.card) stack.push([e.card, e.seat]);
    }
    if (stack.length === cards.length && stack.every(([c], i) => c === cards[i])) for (const [c, by] of stack) owners.set(c, by);
  }
  return cards.map((card, i) => ({ card, top: i === cards.length - 1, by: owners.has(card) ? owners.get(card) : null }));
}

/** A computer level's name in /api/meta's list (a name, or an object with its name). */
export function levelId(l) { return typeof l === "object" && l ? l.name ?? l.id : l; }

// ---------------------------------------------------------------- the browser's games in progress
/** How many games in progress a browser remembers (the oldest are forgotten first). */
export const GAMES_KEPT = 20;

/**
 * The list of the browser's games (`[{game_id, token, at}]`, newest first) with `entry`
 * ({game_id, token}) remembered at time `now` (ms): moved to the front if known, at most
 * `GAMES_KEPT` kept. Entries without an id or token are dropped; the list given is not changed.
 */
export function rememberGame(list, entry, now = Date.now(), max = GAMES_KEPT) {
  const ok = (e) => e && typeof e.game_id === "string" && e.game_id && typeof e.token === "string" && e.token;
  const rest = (Array.isArray(list) ? list : []).filter((e) => ok(e) && e.game_id !== entry.game_id);
  if (!ok(entry)) return rest.slice(0, max);
  return [{ game_id: entry.game_id, token: entry.token, at: now }, ...rest].slice(0, max);
}

/** The list without game `gameId`. */
export function forgetGameEntry(list, gameId) {
  return (Array.isArray(list) ? list : []).filter((e) => e && e.game_id !== gameId);
}

/** Whether leaving the game of `state` for a new one needs asking: a deal or a game still in play. */
export function gameInPlay(state) {
  return !!state && !["game-over", "waiting"].includes(state.phase) && !state.resigned;
}

/**
 * Whether the table of `state` is one to come back to: a game in play, or a table of people
 * waiting for its start (docs/tables.md). "New game" asks first, and the new-game dialog lists it
 * under the games in progress.
 */
export function resumable(state) {
  if (!state || state.resigned) return false;
  return gameInPlay(state) || state.phase === "waiting" || !!(state.table && state.table.status === "waiting");
}
