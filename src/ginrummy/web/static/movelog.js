// The table's public record of the deal in play: the move log (each seat's draws and discards in
// words, a stock card never named: model.js publicLogEvent), the last move of another seat under
// the status, and the view of the whole discard pile (it is face up, so public: the table shows
// only its top cards). Reads `S`; changes the DOM and `S.log`.

import { cardName } from "./i18n.js";
import { logEntries, mergeMoveLog, pileCards } from "./model.js";
import { $, cardEl, el } from "./page.js";
import { S, api, t } from "./session.js";
import { currentTable, named } from "./render.js";
import { playerName } from "./variants.js";
import { eventWords } from "./app.js";

/** Keep the state's events of the deal in play in the log; ask for the whole deal when the log lacks its start. */
export function updateLog(state) {
  S.log = mergeMoveLog(S.log, state);
  const key = state && `${state.game_id}:${S.log.hand}`;
  if (!S.log.complete && state && S.game && state.phase !== "waiting" && S.logFilled !== key) {
    S.logFilled = key;  // once per deal: the whole deal is asked for at most once
    fillLog();
  }
}

async function fillLog() {
  try {
    const r = await api("GET", `/api/games/${S.game.game_id}`);
    if (r.ok && r.data && S.state && r.data.game_id === S.state.game_id) {
      S.log = mergeMoveLog(S.log, r.data);
      renderLog();
    }
  } catch { /* the log is a nicety: the table itself is right */ }
}

/** The move log's list and the last move of another seat, in the page's language. */
export function renderLog() {
  const st = S.state;
  const box = $("moves");
  const list = $("moves-list");
  if (!box || !list) return;
  box.hidden = !st || st.phase === "waiting";
  const upTo = S.animating && typeof S.logUpTo === "number" ? S.logUpTo : Infinity;
  const entries = st && S.log && S.log.hand === st.hand_number && S.log.game === st.game_id ? logEntries(S.log).filter((e) => e.seq <= upTo) : [];
  const you = st ? st.you ?? 0 : 0;
  const items = entries.map((e) => {
    const mine = e.seat === you;
    const words = eventWords(e, st);
    return words ? el("li", { class: mine ? "mine" : e.seat === null || e.seat === undefined ? "all" : "other", "data-type": e.type, text: words }) : null;
  }).filter(Boolean);
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
  list.replaceChildren(...(items.length ? items : [el("li", { class: "none", text: t("log.empty") })]));
  if (atEnd || items.length <= 1) list.scrollTop = list.scrollHeight;
  const last = [...entries].reverse().find((e) => e.seat !== you && e.seat !== null && e.seat !== undefined && e.type !== "deal");
  const line = $("last-move");
  const show = !!(last && st && !["hand-over", "game-over"].includes(st.phase) && !S.animating);
  line.hidden = !show;
  line.textContent = show ? t("log.last", { text: eventWords(last, st) }) : "";
}

/** The button that opens the whole discard pile: its count, and off while the pile is empty. */
export function renderPileButton() {
  const b = $("btn-pile");
  if (!b) return;
  const n = (currentTable().pile || []).length;
  b.hidden = !S.state || S.state.phase === "waiting";
  b.disabled = !n;
  b.textContent = t("pile.open", { n });
  if ($("dlg-pile").open) renderPileDialog();
}

/** Who put a pile card there, in words: the upcard, you, the computer, or a player's name. */
function byWords(by, st) {
  if (by === null || by === undefined) return "";
  if (by === "upcard") return t("pile.upcard");
  if (by === (st.you ?? 0)) return t("table.you");
  return named(st) ? playerName(st, by, t) : t("table.computer");
}

function renderPileDialog() {
  const st = S.state;
  const log = S.log && st && S.log.hand === st.hand_number && S.log.game === st.game_id && !S.animating ? S.log : null;
  const cards = pileCards(currentTable().pile, log, st && st.initial_upcard);
  $("pile-note").textContent = cards.length ? t("pile.note", { n: cards.length }) : t("pile.empty");
  $("pile-list").replaceChildren(...cards.map(({ card, top, by }, i) => {
    const who = byWords(by, st);
    const label = [cardName(card, t), who, top ? t("pile.top") : ""].filter(Boolean).join(", ");
    return el("li", { class: top ? "top" : "", "data-card": card },
      el("span", { class: "pile-n", "aria-hidden": "true", text: String(i + 1) }),
      cardEl(card, t, { mini: true, label }),
      who ? el("span", { class: "pile-by", "aria-hidden": "true", text: who }) : null,
      top ? el("span", { class: "pile-top", "aria-hidden": "true", text: t("pile.top") }) : null);
  }));
}

/** Open the view of the whole discard pile (bottom first; the top card last, marked). */
export function openPile() {
  if (!S.state) return;
  renderPileDialog();
  $("dlg-pile").showModal();
  const list = $("pile-list");
  list.scrollLeft = list.scrollWidth;
  $("pile-close").focus();
}
