// Drawing the table from the page's state: rules bar, the opponent, the piles, the status (its
// data-phase), the hand, the action buttons, the score sheet, the result with its reveal, and
// the hint's mark. Reads `S`; changes nothing but the DOM.

import { sortByRank, sortBySuit } from "./cards.js";
import { cardName, reasonText, rulesSummary, resultHeadline, breakdownLabel, levelName, fieldLabel, choiceLabel, humanize } from "./i18n.js";
import { uiPhase, findLegal, legalOfType, groupHand, tableFromState, scoreRows, meldsWithLayoffs, deadwoodOf, promptKey, hintText, hintNoneText, hintTarget } from "./model.js";
import { $, el, cardEl, toast } from "./page.js";
import { seatsOf, hasPeople, isWaiting, isCreator, creatorName } from "./seats.js";
import { isVariant, playerName, opponentOf, variantHeadline, renderVariantBar, renderVariantScore, variantResultLines, layoffNote, laidByText, rulesParts } from "./variants.js";
import { S, announce, api, detailMessage, t } from "./session.js";
import { onCardClick } from "./controls.js";
import { friends, lostGame } from "./app.js";
import { renderLog, renderPileButton } from "./movelog.js";

// ---------------------------------------------------------------- cards
export const backEl = (cls = "") => el("span", { class: `card back${cls ? " " + cls : ""}`, "aria-hidden": "true" });

// ---------------------------------------------------------------- rendering
export function render() {
  document.body.classList.remove("loading");
  $("table").classList.toggle("no-game", !S.state);
  renderRules();
  renderOpponent();
  renderPiles();
  renderStatus();
  renderHand();
  renderActions();
  renderScore();
  renderResult();
  renderFair();
  renderVariantBar($("vt-bar"), S.state, t);
  renderHint();
  renderLog();
  renderFooter();
  friends.renderSeats();
  friends.renderWaiting();
  friends.syncLive();
}

/** The footer's line: a table of people has no computer to play against (and may have a turn clock). */
function renderFooter() {
  const foot = $("foot-text");
  const key = hasPeople(S.state) ? "app.footer_people" : "app.footer";
  if (foot.dataset.i18n === key) return;
  foot.dataset.i18n = key;
  foot.textContent = t(key);
}

/** A table that names its players (a variant table, or people at it). */
export const named = (st) => !!st && (isVariant(st) || hasPeople(st));

/** The seat the person plays against at this deal (null when they sit out or none is known). */
export function opponentSeat(st) {
  if (!st) return null;
  if (isVariant(st)) return opponentOf(st);
  const seats = seatsOf(st);
  if (seats.length === 2) return 1 - (st.you ?? 0);
  return null;
}

/** The name of the seat whose move the table waits for ("Computer" against the computer). */
export function actorName(st) {
  if (!named(st)) return t("table.computer");
  const turn = st.turn ?? opponentSeat(st);
  return turn === null || turn === undefined ? t("table.computer") : playerName(st, turn, t);
}

function renderRules() {
  const box = $("rules-summary");
  const list = $("rules-list");
  $("rules-more").hidden = !S.state;
  $("rulesbar").hidden = !S.state;  // no game yet: no rules to show (and the phone's opening screen fits)
  if (!S.state) { box.textContent = ""; list.replaceChildren(); return; }
  const parts = rulesParts(rulesSummary(S.state, t), S.state, t);
  const unused = new Set(S.state.rules_inactive || []);
  box.replaceChildren(el("b", { text: parts[0] }), ...parts.slice(1).flatMap((p) => [el("span", { class: "sep", "aria-hidden": "true", text: "·" }), " ", p]));
  const rules = S.state.rules || {};
  list.replaceChildren(...Object.entries(rules).filter(([k]) => k !== "preset").flatMap(([k, v]) => [
    el("dt", { text: fieldLabel(k, t) }), el("dd", { text: unused.has(k) ? t("value.unused") : ruleValue(k, v) }),
  ]));
}

function ruleValue(name, v) {
  if (v === null || v === undefined) return t("value.off");
  if (v === true) return t("value.yes");
  if (v === false) return t("value.no");
  if (typeof v === "string") return choiceLabel(name, v, t);
  return String(v);
}

export function currentTable() {
  return S.table || (S.state ? tableFromState(S.state) : { stock: 0, pile: [], oppCount: 0, known: [] });
}

export function renderOpponent() {
  const st = S.state;
  const tb = currentTable();
  const you = st ? st.you ?? 0 : 0;
  const oppSeat = opponentSeat(st);
  const oppEntry = oppSeat !== null ? seatsOf(st).find((x) => x.seat === oppSeat) : null;
  const level = oppEntry ? (oppEntry.kind === "computer" ? oppEntry.level : null) : st && st.level;
  const lvl = level ? ` (${levelName(level, t)})` : "";
  $("opp-name").textContent = (oppSeat !== null ? playerName(st, oppSeat, t) : t("table.computer")) + lvl;
  $("opp-count").textContent = st ? t("table.cards", { n: tb.oppCount }) : "";
  $("opp-dealer").hidden = !st || st.dealer === you || (oppSeat !== null && st.dealer !== oppSeat);
  $("me-dealer").hidden = !st || st.dealer !== you;
  const backs = [];
  for (let i = 0; i < tb.oppCount; i++) backs.push(backEl());
  $("opp-hand").replaceChildren(...backs);
  const known = tb.known || [];
  $("opp-known-wrap").hidden = !known.length;
  $("opp-known").replaceChildren(...known.map((c) => cardEl(c, t, { mini: true, attrs: { role: "listitem" } })));
}

export function renderPiles() {
  const st = S.state;
  const tb = currentTable();
  const stock = $("stock");
  $("stock-count").textContent = st ? tb.stock : "";
  $("stock-count").hidden = !st;
  stock.classList.toggle("empty", !tb.stock);
  const canStock = !!findLegal(st, "draw_stock") && !S.busy && !S.animating;
  stock.disabled = !canStock;
  stock.classList.toggle("live", canStock);
  stock.setAttribute("aria-label", t("table.stock_label", { n: tb.stock }) + (canStock ? ". " + t("table.draw_hint") : ""));

  const pile = $("discard-pile");
  const cards = tb.pile || [];
  const kids = [];
  if (!cards.length) kids.push(el("span", { class: "empty-slot", "aria-hidden": "true" }));
  if (cards.length > 2) kids.push(cardEl(cards[cards.length - 3], t, { cls: "under2", textIndex: false, attrs: { "aria-hidden": "true" } }));
  if (cards.length > 1) kids.push(cardEl(cards[cards.length - 2], t, { cls: "under1", textIndex: false, attrs: { "aria-hidden": "true" } }));
  if (cards.length) kids.push(cardEl(cards[cards.length - 1], t, { cls: "top", attrs: { "aria-hidden": "true" } }));
  pile.replaceChildren(...kids);
  const top = cards[cards.length - 1];
  const takeAction = findLegal(st, "draw_discard") || findLegal(st, "take");
  const canPile = !!takeAction && !S.busy && !S.animating;
  pile.disabled = !canPile;
  pile.classList.toggle("live", canPile);
  pile.dataset.top = top || "";
  pile.setAttribute("aria-label", top ? t("table.pile_label", { card: cardName(top, t), n: cards.length }) + (canPile ? ". " + t("table.take_hint") : "") : t("table.pile_empty"));
  renderPileButton();
}

export function renderStatus() {
  const st = S.state;
  const status = $("status");
  const phase = uiPhase(st, S.animating);
  if (phase) status.dataset.phase = phase;
  else delete status.dataset.phase;
  // the server cannot be reached: the table stays as it was, and says it is reconnecting
  status.dataset.reconnecting = S.reconnecting ? "true" : "false";
  status.textContent = S.reconnecting ? t("friends.reconnecting")
    : isWaiting(st) ? t("friends.waiting_title") : t(promptKey(st, S.animating, S.loading), { computer: actorName(st) });
  const offer = $("offer");
  const canTake = findLegal(st, "take");
  const canPass = findLegal(st, "pass");
  // Pass: the first-turn offer, and the choice on the last discard (phase "draw").
  offer.hidden = !(st && (st.phase === "offer" || st.phase === "draw") && (canTake || canPass)) || S.animating;
  $("btn-take").hidden = !canTake && st?.phase !== "offer";
  $("btn-take").disabled = !canTake || S.busy || S.animating;
  $("btn-pass").disabled = !canPass || S.busy || S.animating;
  const meta = [];
  if (st) meta.push(t("table.hand_no", { n: st.hand_number ?? 1 }));
  $("meta-line").textContent = meta.join(" · ");
  $("table").setAttribute("aria-busy", S.busy || S.animating ? "true" : "false");
}

export function renderHand() {
  const hand = $("hand");
  const st = S.state;
  const active = document.activeElement;
  const focusCard = active && hand.contains(active) ? active.dataset.card : null;
  const focusIndex = focusCard ? [...hand.querySelectorAll(".slot")].indexOf(active) : -1;
  if (!st) { hand.replaceChildren(); updateDeadwood(); return; }
  if (S.selected && !S.order.includes(S.selected)) S.selected = null;
  // pro mode (a setting): the person's own order in one group, no meld marks, no extra card
  const groups = S.settings.pro ? [{ kind: "free", cards: [...S.order] }] : groupHand(S.order, st.arrangement);
  const frag = [];
  groups.forEach((g, gi) => {
    let label;
    if (g.kind === "meld") label = t(g.run ? "hand.run" : "hand.set");
    else if (g.kind === "deadwood") label = t("hand.deadwood_group");
    else if (g.kind === "free") label = t("hand.pro_group");
    else label = t("hand.spare");
    const div = el("div", {
      class: `group ${g.kind}${g.kind === "meld" ? " m" + (g.meld % 4) : ""}`, role: "group",
      "aria-label": g.kind === "meld" ? t("hand.meld_label", { n: g.meld + 1, kind: label }) : label,
      "data-group": gi,
    });
    for (const c of g.cards) div.append(handCard(c, g, label));
    div.append(el("div", { class: "group-mark", "aria-hidden": "true" }, el("span", { text: label })));
    frag.push(div);
  });
  hand.replaceChildren(...frag);
  fitHand();
  updateDeadwood();
  renderHint();
  if (focusCard) {
    const cards = [...hand.querySelectorAll(".slot")];
    const same = cards.find((c) => c.dataset.card === focusCard);
    const next = same || cards[Math.min(focusIndex, cards.length - 1)];
    if (next) next.focus({ preventScroll: true });
  }
}

/**
 * A card of the hand: a <button class="slot"> exactly as wide as the part of the card that shows
 * (the card face inside overflows under the next card), so a tap or a click on any visible part
 * hits the card it sees, even when the cards overlap on a phone.
 */
function handCard(card, group, groupLabel) {
  const st = S.state;
  let cls = "";
  const visAttrs = { "aria-hidden": "true", role: null, "aria-label": null, "data-card": null };
  if (st.taken_from_discard === card && st.phase === "discard") { cls = "tag-taken"; visAttrs["data-tag"] = t("hand.taken"); }
  else if (st.drawn === card && st.phase === "discard") { cls = "tag-new"; visAttrs["data-tag"] = t("hand.new"); }
  const face = cardEl(card, t, { cls, attrs: visAttrs });
  const extra = cls === "tag-taken" ? `, ${t("hand.taken_long")}` : cls === "tag-new" ? `, ${t("hand.new_long")}` : "";
  const b = el("button", {
    type: "button", class: `slot s-${card[1]}`, "data-card": card, "aria-label": cardName(card, t),
    "aria-pressed": S.selected === card ? "true" : "false", "aria-description": groupLabel + extra,
    "aria-disabled": S.busy || S.animating ? "true" : null,
  }, face);
  b.addEventListener("click", () => onCardClick(card));
  return b;
}

function updateDeadwood() {
  const st = S.state;
  const box = $("deadwood");
  if (!st || !st.arrangement || S.settings.pro) { box.textContent = ""; box.className = "dw-counter"; return; }
  const n = deadwoodOf(st.arrangement);
  const eleven = (st.hand || []).length > 10;
  box.textContent = t(eleven ? "hand.deadwood_after" : "hand.deadwood", { n });
  const limit = st.knock_limit ?? 0;
  box.className = "dw-counter" + (n === 0 ? " gin" : limit > 0 && n <= limit ? " ok" : "");
}

/** Overlap the hand's cards just enough that they fit the width (no horizontal scroll on a phone). */
export function fitHand() {
  const hand = $("hand");
  const slots = hand.querySelectorAll(".slot");
  const n = slots.length;
  if (!n) return;
  const cs = getComputedStyle(hand);
  const gap = parseFloat(cs.getPropertyValue("--group-gap")) || 0;
  const groups = hand.querySelectorAll(".group").length;
  const cw = slots[0].firstElementChild.offsetWidth;
  if (!cw || !hand.clientWidth) return; // hidden: fitted when it shows (app.js's observer)
  const avail = hand.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 4;
  const natural = n * cw + (groups - 1) * gap;
  let ov = n > 1 ? Math.ceil((natural - avail) / (n - 1)) : 0;
  ov = Math.max(-4, Math.min(ov, cw - 14));
  hand.style.setProperty("--slot", `${cw - ov}px`);
}

export function renderActions() {
  const st = S.state;
  const idle = !S.busy && !S.animating;
  const sel = S.selected;
  const canDiscard = !!(st && st.phase === "discard" && sel && findLegal(st, "discard", sel));
  $("btn-discard").disabled = !canDiscard || !idle;
  const knocks = legalOfType(st, "knock");
  const kb = $("btn-knock");
  kb.disabled = !knocks.length || !idle;
  const explain = !!(st && (st.phase === "draw" || st.phase === "discard") && !S.animating);
  // pro mode counts nothing for the person: no reason that names the deadwood count
  const why = (r) => (S.settings.pro && r && r.deadwood !== undefined ? "" : reasonText(r, t));
  $("knock-why").textContent = explain && !knocks.length && st.knock ? why(st.knock.reason) : "";
  const gins = legalOfType(st, "gin");
  $("btn-gin").disabled = !gins.length || !idle;
  $("gin-why").textContent = explain && !gins.length && st.gin ? why(st.gin.reason) : "";
  const big = findLegal(st, "big_gin");
  $("big-gin-wrap").hidden = !(big || (st && st.rules && st.rules.big_gin_bonus));
  $("btn-big-gin").disabled = !big || !idle;
  $("btn-hint").disabled = !canHint();
  const hasHand = !!(st && S.order.length);
  $("btn-sort-rank").disabled = !hasHand;
  $("btn-sort-suit").disabled = !hasHand;
}

function renderScore() {
  const body = $("score-body");
  const st = S.state;
  if (!st || !st.score) { body.replaceChildren(el("p", { class: "target", text: t("score.empty") })); return; }
  if (isVariant(st)) { renderVariantScore(body, st, t); return; }
  const you = st.you ?? 0;
  const sc = scoreRows(st.score, you);
  const head = el("thead", {}, el("tr", {},
    el("th", { scope: "col", text: t("score.hand") }),
    el("th", { scope: "col", text: t("table.you") }), el("th", { scope: "col", text: named(st) ? playerName(st, 1 - you, t) : t("table.computer") })));
  const rows = [];
  for (const r of sc.rows) {
    if (r.col === null) {
      rows.push(el("tr", { class: "dead" }, el("td", {}, `${r.number} `, el("span", { class: "kind", text: t(`kind.${r.kind || "dead"}`, null, humanize(r.kind)) })), el("td", { text: "—" }), el("td", { text: "—" })));
      continue;
    }
    const cell = (c) => (c === r.col
      ? el("td", { class: "win" }, el("span", { class: "plus", text: `+${r.points}` }), String(r.totals[c]))
      : el("td", { text: "" }));
    rows.push(el("tr", {}, el("td", {}, `${r.number} `, el("span", { class: "kind", text: t(`kind.${r.kind}`, null, humanize(r.kind)) })), cell(0), cell(1)));
  }
  const sumRow = (label, a, b, cls = "sum") => el("tr", { class: cls }, el("th", { scope: "row", text: label }), el("td", { text: a }), el("td", { text: b }));
  rows.push(sumRow(t("score.hand_points"), sc.handPoints[0], sc.handPoints[1]));
  rows.push(sumRow(t("score.boxes"), sc.boxes[0], sc.boxes[1], "boxes"));
  const f = sc.final;
  if (f) {
    const w = f.winner;
    const bonus = (c) => (c === w ? f.gameBonus : "");
    if (f.boxPoints) rows.push(sumRow(t("score.box_bonus"), f.boxPoints[0], f.boxPoints[1], "bonus"));
    rows.push(sumRow(t("score.game_bonus"), bonus(0), bonus(1), "bonus"));
    if (f.shutout) {
      rows.push(sumRow(`${t("score.shutout")}: ${choiceLabel("shutout", f.shutoutRule, t)}`, w === 0 ? "×2" : "", w === 1 ? "×2" : "", "bonus"));
    }
    rows.push(sumRow(t("score.total"), f.totals[0], f.totals[1], "final"));
  }
  const table = el("table", {}, el("caption", { class: "sr-only", text: t("score.title") }), head, el("tbody", {}, rows));
  const foot = el("p", { class: "target", text: f ? (w0(f) ? t("game.won.you") : named(st) ? t("vt.winner", { name: playerName(st, 1 - you, t) }) : t("game.won.opp")) + (f.margin !== undefined ? ` · ${t("score.margin", { n: f.margin })}` : "") : t("score.target", { n: sc.target }) });
  body.replaceChildren(table, foot);
}
const w0 = (f) => f.winner === 0;

function renderResult() {
  const st = S.state;
  const panel = $("result");
  const resigned = !!(st && st.resigned && st.phase === "game-over");
  const show = !!(st && (st.result || resigned) && (st.phase === "hand-over" || st.phase === "game-over") && !S.animating);
  const wasHidden = panel.hidden;
  panel.hidden = !show;
  $("table").classList.toggle("has-result", show);
  if (!show) return;
  if (resigned) { renderResigned(wasHidden); return; }
  const res = st.result;
  const you = st.you ?? 0;
  const over = st.phase === "game-over";
  const final = st.score && st.score.final;
  const headline = named(st) ? variantHeadline(res, st, t) : resultHeadline(res, you, t);
  const several = isVariant(st) && st.table.scoring !== "hollywood";  // more than one other player
  const teams = isVariant(st) && st.table.scoring === "partnership";
  const mine = teams ? you % 2 : you;  // the final's winner is a team at a partnership table
  let overText = t(final && final.winner === mine ? "game.won.you" : several ? "vt.game_lost" : "game.won.opp");
  if (hasPeople(st) && final && final.winner !== mine) {
    overText = teams ? t("friends.team_lost") : t("vt.winner", { name: playerName(st, final.winner, t) });
  }
  $("result-h").textContent = over && final ? overText : headline;
  const sub = [];
  if (over) sub.push(headline);
  if (over && final && final.totals && !isVariant(st)) {
    // the final totals here too: on a phone the score sheet is below the table
    const scores = { you: final.totals[you], opp: final.totals[1 - you] };
    sub.push(named(st) ? t("game.final_name", { ...scores, name: playerName(st, 1 - you, t) }) : t("game.final", scores));
  }
  sub.push(...variantResultLines(st, t));
  if (res.doubled) sub.push(t("result.doubled"));
  $("result-sub").textContent = sub.join(" · ");

  const hands = [...(res.hands || [])].sort((a, b) => (a.seat === you) - (b.seat === you));
  const other = (seat) => (res.hands || []).find((h) => h.seat !== seat);
  $("result-hands").replaceChildren(...hands.map((h) => {
    const me = h.seat === you;
    const who = me ? t("table.you") : named(st) ? playerName(st, h.seat, t) : t("table.computer");
    let role = "";
    if (res.kind !== "dead" && res.knocker !== null && res.knocker !== undefined) {
      if (h.seat === res.knocker) role = t(res.kind === "gin" ? "result.role.gin" : res.kind === "big_gin" ? "result.role.big_gin" : "result.role.knocker");
      else role = t("result.role.defender");
    }
    const laidOnMe = h.seat === res.knocker ? (other(h.seat) || {}).layoffs || [] : [];
    const melds = meldsWithLayoffs(h.melds, laidOnMe);
    const laidBy = laidByText(st, (other(h.seat) || {}).seat, t);  // who laid off onto this hand's melds
    const groups = melds.map((m, i) => {
      const g = el("div", { class: `group meld m${i % 4}`, role: "group", "aria-label": t("hand.meld_label", { n: i + 1, kind: t(isRunMeld(m.cards) ? "hand.run" : "hand.set") }) });
      // a run shows its laid-off cards where they extend it; a set, after its own cards
      const all = isRunMeld(m.cards) ? sortForShow(m.cards.concat(m.laid)) : sortForShow(m.cards).concat(m.laid);
      for (const c of all) {
        const laid = m.laid.includes(c);
        g.append(cardEl(c, t, { mini: true, cls: laid ? "tag-laid" : "", attrs: laid ? { "data-tag": "+", "aria-label": `${cardName(c, t)}, ${laidBy}` } : {} }));
      }
      g.append(el("div", { class: "group-mark", "aria-hidden": "true" }, el("span", { text: t(isRunMeld(m.cards) ? "hand.run" : "hand.set") })));
      return g;
    });
    if ((h.deadwood || []).length) {
      const g = el("div", { class: "group deadwood", role: "group", "aria-label": t("hand.deadwood_group") });
      for (const c of h.deadwood) g.append(cardEl(c, t, { mini: true }));
      g.append(el("div", { class: "group-mark", "aria-hidden": "true" }, el("span", { text: t("hand.deadwood_group") })));
      groups.push(g);
    }
    const notes = (h.layoffs || []).map((lo) => el("li", { text: layoffNote(st, h.seat, lo, t) }));
    return el("div", { class: "rhand" },
      el("h3", {}, el("span", { text: who }), role ? el("span", { class: "role", text: `(${role})` }) : null, el("span", { class: "dw", text: t("result.deadwood", { n: h.deadwood_points ?? 0 }) })),
      el("div", { class: "rgroups" }, groups),
      notes.length ? el("ul", { class: "layoff-notes" }, notes) : null);
  }));

  const bd = (res.breakdown || []).map((b) => el("tr", {}, el("td", { text: breakdownLabel(b, t) }), el("td", { class: "n", text: b.points })));
  if (res.winner !== null && res.winner !== undefined) {
    const winner = res.winner === you ? t("table.you") : named(st) ? playerName(st, res.winner, t) : t("table.computer");
    bd.push(el("tr", { class: "total" }, el("td", { text: t("result.total", { who: winner }) }), el("td", { class: "n", text: res.points })));
  }
  $("breakdown").replaceChildren(el("tbody", {}, bd));
  $("breakdown").hidden = !bd.length;
  const next = findLegal(st, "next_hand");
  $("btn-next").hidden = over;
  $("btn-next").disabled = !next || S.busy;
  const rematchable = over && hasPeople(st) && isCreator(st);
  $("btn-rematch").hidden = !rematchable;
  // a person who joined cannot start the rematch: say who can (docs/tables.md)
  const host = over && hasPeople(st) && !isCreator(st) ? creatorName(st) : null;
  $("rematch-wait").hidden = !host;
  $("rematch-wait").textContent = host ? t("friends.rematch_wait", { name: host }) : "";
  $("btn-again").hidden = !over;
  // step through this hand face up (the replay page reads the game's token from this browser)
  $("btn-replay").hidden = false;
  $("btn-replay").href = `/replay?game=${encodeURIComponent(st.game_id)}&hand=${st.hand_number}`;
  renderReveal(st.fairness && st.fairness.revealed);
  if (wasHidden) requestAnimationFrame(() => panel.focus({ preventScroll: false }));
}

/** The result panel of a game the person resigned (docs/api.md, resign): lost, nothing to show but a new game. */
function renderResigned(wasHidden) {
  $("result-h").textContent = t("game.resigned");
  $("result-sub").textContent = "";
  $("result-hands").replaceChildren();
  $("breakdown").replaceChildren();
  $("breakdown").hidden = true;
  for (const id of ["btn-next", "btn-rematch", "rematch-wait", "btn-replay"]) $(id).hidden = true;
  $("btn-again").hidden = false;
  renderReveal(null);
  if (wasHidden) requestAnimationFrame(() => $("result").focus({ preventScroll: false }));
}

const REVEAL_ORDER = ["hand", "deal", "table", "deck", "salt", "commitment"];

/**
 * The deal's reveal (docs/fairness.md) under the result, folded: each field labelled in the
 * page's language, how to check it, and the check as a command to copy (the commitment is the
 * SHA-256 of "<salt>:<deck>"). Stays open across re-renders of the same deal.
 */
function renderReveal(fair) {
  const box = $("fair-reveal");
  const was = box.querySelector("details");
  const key = fair ? JSON.stringify(fair) : "";
  const open = !!(was && was.open && was.dataset.key === key);
  if (!fair) { box.replaceChildren(); return; }
  const text = (v) => (Array.isArray(v) ? v.join(" ") : String(v));
  const body = [];
  if (typeof fair === "string") body.push(el("pre", { class: "fair-cmd", text: fair }));
  else {
    const keys = [...REVEAL_ORDER.filter((k) => k in fair), ...Object.keys(fair).filter((k) => !REVEAL_ORDER.includes(k))];
    body.push(el("dl", { class: "fair-list" }, keys.flatMap((k) => [
      el("dt", { text: t(`fair.label.${k}`, null, humanize(k)) }), el("dd", { "data-key": k }, el("code", { text: text(fair[k]) })),
    ])));
    if (fair.salt && fair.deck) {
      body.push(el("p", { class: "fair-how", text: t("fair.how") }),
        el("code", { class: "fair-cmd", "data-testid": "fair-command", text: `printf '%s' '${fair.salt}:${text(fair.deck)}' | sha256sum` }));
    }
  }
  box.replaceChildren(el("details", { class: "fair-details", "data-key": key, open }, el("summary", { text: t("fair.revealed_title") }), ...body));
}

export function isRunMeld(cards) {
  return cards.length > 1 && cards.every((c) => c[1] === cards[0][1]) && cards[0][0] !== cards[1][0];
}

export function sortForShow(cards) {
  if (isRunMeld(cards)) return sortByRank(cards);
  return sortBySuit(cards);
}

function renderFair() {
  const st = S.state;
  const c = st && st.fairness && st.fairness.commitment;
  const box = $("fair");
  box.textContent = c ? t("fair.commitment", { hash: `${c.slice(0, 16)}…` }) : "";
  box.title = c || "";
}

// ---------------------------------------------------------------- hints
/** A hint may be asked for: the person is to move (not the next hand), nothing in flight. */
function canHint() {
  const st = S.state;
  return !!(st && S.game && ["offer", "draw", "discard"].includes(st.phase)
    && (st.legal || []).some((a) => a.type !== "next_hand") && !S.busy && !S.animating && !S.hinting);
}

/** The hint answer kept for the state it was asked on (`seq`), or null. */
function currentHint() {
  const h = S.hint;
  return h && S.state && h.seq === S.state.seq && h.gameId === S.state.game_id && !S.animating ? h : null;
}

function hintWords(h) {
  return h.hint ? hintText(h.hint, t, (c) => cardName(c, t), S.lang) : hintNoneText(h.reason, t);
}

/** The hint's text under the status, and its mark (an outline and a tag) on what it suggests. */
function renderHint() {
  const h = currentHint();
  const box = $("hint-text");
  box.hidden = !h;
  box.textContent = h ? hintWords(h) : "";
  for (const e of document.querySelectorAll(".hinted")) {
    e.classList.remove("hinted");
    e.removeAttribute("data-hint");
    if (e.dataset.description !== undefined) { e.setAttribute("aria-description", e.dataset.description); delete e.dataset.description; }
  }
  const target = h && hintTarget(h.hint);
  if (!target) return;
  const node = target.where === "hand" ? $("hand").querySelector(`.slot[data-card="${target.card}"]`)
    : { pile: $("discard-pile"), stock: $("stock"), pass: $("btn-pass"), big_gin: $("btn-big-gin") }[target.where];
  if (!node) return;
  node.classList.add("hinted");
  node.dataset.hint = t("hint.mark");
  if (target.where === "hand") {
    const d = node.getAttribute("aria-description") || "";
    node.dataset.description = d;
    node.setAttribute("aria-description", `${d}, ${t("hint.marked")}`);
  }
}

/** Ask the server for a hint on the state shown; show it, mark it, announce it. */
export async function askHint() {
  if (!canHint()) return;
  const st = S.state;
  S.hinting = true;
  renderActions();
  try {
    const r = await api("GET", `/api/games/${S.game.game_id}/hint`);
    if (r.status === 404) { lostGame(); return; }
    if (!r.ok) { toast(detailMessage(r.data)); return; }
    if (S.state !== st || r.data.seq !== st.seq) return;  // the table moved on meanwhile
    S.hint = { seq: r.data.seq, gameId: st.game_id, hint: r.data.hint, reason: r.data.reason };
    renderHint();
    const hint = S.hint;
    announce(() => hintWords(hint));
  } catch {
    toast(t("error.network"));
  } finally {
    S.hinting = false;
    renderActions();
  }
}
