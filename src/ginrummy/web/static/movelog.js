// The table's public record of the deal in play, drawn from the page's state it is given: the
// move log (each seat's draws and discards in words, a stock card never named: model.js
// publicLogEvent), the last move of another seat under the status, the view of the whole
// discard pile (it is face up, so public: the table shows only its top cards), and the words the
// live region says of new moves. `logView`, `pileView` and `movesSaid` are pure
// (tests/js/views.test.mjs); the draws change only the DOM.

import { cardName, resultHeadline } from "./i18n.js";
import { logEntries, pileCards, promptKey } from "./model.js";
import { $, cardEl, el } from "./page.js";
import { isVariant, playerName, moveText, variantHeadline } from "./variants.js";
import { actorName, currentTable, named } from "./render.js";

/** Words for the live region: each new move (`evs`) of the table of `state`, then the result or what to do next. */
export function movesSaid(evs, state, t) {
  const you = state.you ?? 0;
  const words = evs.filter((e) => !["hand_over", "game_over"].includes(e.type)).map((e) => moveText(state, e, t)).filter(Boolean);
  if (!words.length && !evs.length) return "";
  let tail = t(promptKey(state, false), { computer: actorName(state, t) });
  if (state.result && (state.phase === "hand-over" || state.phase === "game-over")) {
    tail = named(state) ? variantHeadline(state.result, state, t) : resultHeadline(state.result, you, t);
    const f = state.score && state.score.final;
    if (state.phase === "game-over" && f && !isVariant(state)) tail += `. ${f.winner === you ? t("game.won.you") : named(state) ? t("vt.winner", { name: playerName(state, f.winner, t) }) : t("game.won.opp")}`;
  }
  return `${words.join(" ")} ${tail}`.trim();
}

/** The log of the deal shown (the events shown so far while another seat's moves are replayed), or none. */
function shownLog(p) {
  const st = p.state;
  return p.log && st && p.log.hand === st.hand_number && p.log.game === st.game_id ? p.log : null;
}

/**
 * The move log: `hidden`, its `items` ({cls: mine / other / all, type, text}; one "none" item
 * when empty) and the `last` move of another seat (its line, or "" when not shown).
 */
export function logView(p) {
  const { t, state: st } = p;
  const upTo = p.animating && typeof p.logUpTo === "number" ? p.logUpTo : Infinity;
  const log = shownLog(p);
  const entries = log ? logEntries(log).filter((e) => e.seq <= upTo) : [];
  const you = st ? st.you ?? 0 : 0;
  const moves = entries.map((e) => {
    const words = moveText(st, e, t);
    const cls = e.seat === you ? "mine" : e.seat === null || e.seat === undefined ? "all" : "other";
    return words ? { cls, type: e.type, text: words, seq: e.seq, kind: 0 } : null;
  }).filter(Boolean);
  const said = log ? messagesOfDeal(st, log, upTo).map((m) => ({
    cls: m.seat === you ? "mine" : "other", type: "message", seq: m.seq_at, kind: 1, at: m.at ?? 0,
    text: t("log.message", { name: playerName(st, m.seat, t), text: t(`quick.${m.message}`, null, m.message) }),
  })) : [];
  // a quick message after the move it followed (its bubble lasts 4 s; the log keeps it)
  const items = [...moves, ...said].sort((a, b) => a.seq - b.seq || a.kind - b.kind || (a.at ?? 0) - (b.at ?? 0))
    .map(({ cls, type, text }) => ({ cls, type, text }));
  const last = [...entries].reverse().find((e) => e.seat !== you && e.seat !== null && e.seat !== undefined && e.type !== "deal");
  const show = !!(last && st && !["hand-over", "game-over"].includes(st.phase) && !p.animating);
  return {
    hidden: !st || st.phase === "waiting",
    items: items.length ? items : [{ cls: "none", type: null, text: t("log.empty") }],
    count: items.length,
    last: show ? t("log.last", { text: moveText(st, last, t) }) : "",
    lastShown: show,
  };
}

/**
 * The quick messages of the table of `st` sent during the deal of `log` (from its first event
 * on; at the first hand also those sent before the deal), up to the event `upTo`.
 */
function messagesOfDeal(st, log, upTo) {
  const first = (log.events[0] || {}).seq;
  if (typeof first !== "number") return [];
  const from = st.hand_number === 1 ? -Infinity : first;
  return ((st && st.messages) || []).filter((m) => typeof m.seq_at === "number" && m.seq_at >= from && m.seq_at <= upTo);
}

/** The move log's list and the last move of another seat, in the page's language. */
export function drawLog(p) {
  const box = $("moves");
  const list = $("moves-list");
  if (!box || !list) return;
  const v = logView(p);
  box.hidden = v.hidden;
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
  list.replaceChildren(...v.items.map((i) => el("li", { class: i.cls, "data-type": i.type, text: i.text })));
  if (atEnd || v.count <= 1) list.scrollTop = list.scrollHeight;
  const line = $("last-move");
  line.hidden = !v.lastShown;
  line.textContent = v.last;
}

/** The button that opens the whole discard pile: its count, and off while the pile is empty; the pile's view when open. */
export function drawPileButton(p) {
  const b = $("btn-pile");
  if (!b) return;
  const n = (currentTable(p).pile || []).length;
  b.hidden = !p.state || p.state.phase === "waiting";
  b.disabled = !n;
  b.textContent = p.t("pile.open", { n });
  if ($("dlg-pile").open) drawPileDialog(p);
}

/** Who put a pile card there, in words: the upcard, you, the computer, or a player's name. */
function byWords(by, st, t) {
  if (by === null || by === undefined) return "";
  if (by === "upcard") return t("pile.upcard");
  if (by === (st.you ?? 0)) return t("table.you");
  return named(st) ? playerName(st, by, t) : t("table.computer");
}

/** The whole discard pile, bottom first: `note`, and each card with who put it there and whether it is the top. */
export function pileView(p) {
  const { t, state: st } = p;
  const log = !p.animating ? shownLog(p) : null;
  const cards = pileCards(currentTable(p).pile, log, st && st.initial_upcard);
  return {
    note: cards.length ? t("pile.note", { n: cards.length }) : t("pile.empty"),
    cards: cards.map(({ card, top, by }) => {
      const who = byWords(by, st, t);
      return { card, top, who, label: [cardName(card, t), who, top ? t("pile.top") : ""].filter(Boolean).join(", ") };
    }),
  };
}

/** The view of the whole discard pile (the dialog's content). */
export function drawPileDialog(p) {
  const { t } = p;
  const v = pileView(p);
  $("pile-note").textContent = v.note;
  $("pile-list").replaceChildren(...v.cards.map(({ card, top, who, label }, i) => el("li", { class: top ? "top" : "", "data-card": card },
    el("span", { class: "pile-n", "aria-hidden": "true", text: String(i + 1) }),
    cardEl(card, t, { mini: true, label }),
    who ? el("span", { class: "pile-by", "aria-hidden": "true", text: who }) : null,
    top ? el("span", { class: "pile-top", "aria-hidden": "true", text: t("pile.top") }) : null)));
}

/** Open the view of the whole discard pile (bottom first; the top card last, marked). */
export function openPileDialog(p) {
  if (!p.state) return;
  drawPileDialog(p);
  $("dlg-pile").showModal();
  const list = $("pile-list");
  list.scrollLeft = list.scrollWidth;
  $("pile-close").focus();
}
