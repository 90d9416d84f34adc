// Gin Rummy table: renders the server's state (docs/api.md) and posts back what the person does.
// The server is the authority; this file holds no rules. Pure helpers live in cards.js, i18n.js,
// model.js and seats.js (unit-tested with `node --test tests/js/`); page.js holds what the pages
// share; friends.js the tables of people (docs/tables.md) and live.js their live connection.

import { sortByRank, sortBySuit, mergeOrder, moveCard } from "./cards.js";
import {
  makeT, cardName, reasonText, eventText, rulesSummary, resultHeadline,
  breakdownLabel, levelName, fieldLabel, choiceLabel, presetName, humanize, LANGUAGES,
} from "./i18n.js";
import {
  uiPhase, findLegal, legalOfType, chooseKnock, chooseGin, groupHand, tableFromState, applyEvent,
  newEvents, scoreRows, meldsWithLayoffs, deadwoodOf, promptKey, rulesOverrides, hintText, hintNoneText,
  hintTarget,
} from "./model.js";
import { $, el, apiRequest, cardEl, loadCatalog, markLanguage, toast, translatePage } from "./page.js";
import { playSound } from "./sound.js";
import { createFriends } from "./friends.js";
import { seatsOf, hasPeople, isWaiting, isCreator, supersedes, inviteCode } from "./seats.js";
import {
  isVariant, playerName, opponentOf, variantHeadline, renderVariantBar, renderVariantScore, publicEventText,
  variantResultLines, fillScoring, presetForScoring, applyConstraints, layoffNote, laidByText, rulesParts,
} from "./variants.js";

const KEY_CURRENT = "ginrummy.current";
const KEY_SETTINGS = "ginrummy.settings";
const KEY_NEW = "ginrummy.newgame";
const DEFAULT_SETTINGS = { sound: true, animations: true, fourColour: false, largeCards: false };
const ANIMATED = new Set(["take", "pass", "draw_stock", "draw_discard", "discard", "knock", "gin", "big_gin"]);

const S = {
  lang: "en", t: makeT({}), meta: null, game: null, state: null, order: [], selected: null,
  busy: false, animating: false, table: null, lastSeq: 0, knockChoice: null, drag: null,
  suppressClick: false, settings: { ...DEFAULT_SETTINGS }, pollTimer: null, orderTimer: null,
  hint: null, hinting: false, loading: true, chain: Promise.resolve(),
};

const t = (...a) => S.t(...a);

const store = {
  get(key, fallback = null) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch { return fallback; }
  },
  set(key, value) {
    try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode */ }
  },
};

// ---------------------------------------------------------------- server
/** A request to the JSON API; the game's token goes with requests on the game (or `token`). */
function api(method, path, body, token) {
  const mine = S.game && path.startsWith(`/api/games/${S.game.game_id}`);
  return apiRequest(method, path, body, token || (mine ? S.game.token : null));
}

function detailMessage(data) {
  const d = data && data.detail;
  if (!d) return t("error.generic");
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => x.msg || JSON.stringify(x)).join("; ");
  if (d.code === "stale") return t("error.stale");
  return d.message || t("error.generic");
}

// ---------------------------------------------------------------- language
async function setLanguage(lang, { save = true } = {}) {
  let catalog;
  try { catalog = await loadCatalog(lang); } catch {
    if (lang !== "en") return setLanguage("en", { save });
    catalog = {};
  }
  S.lang = lang;
  S.t = makeT(catalog);
  markLanguage(lang, save);
  applyStaticText();
  friends.translate();
  render();
  if ($("dlg-new").open) buildNewGameForm(false);
  if ($("dlg-knock").open) renderKnockDialog();
}

function applyStaticText() {
  document.title = t("app.title");
  translatePage(t, S.lang, (S.meta && S.meta.languages) || LANGUAGES);
  $("lang-select").setAttribute("aria-label", t("settings.language"));
  renderHelpKeys();
}

// ---------------------------------------------------------------- settings
function applySettings() {
  const s = S.settings;
  document.body.classList.toggle("four-colour", !!s.fourColour);
  document.body.classList.toggle("large-cards", !!s.largeCards);
  document.body.classList.toggle("no-anim", !s.animations);
  $("set-sound").checked = !!s.sound;
  $("set-anim").checked = !!s.animations;
  $("set-four").checked = !!s.fourColour;
  $("set-large").checked = !!s.largeCards;
  requestAnimationFrame(fitHand);
}

function motionOK() {
  return S.settings.animations && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

const sound = (kind) => playSound(kind, S.settings.sound);

// ---------------------------------------------------------------- cards
const backEl = (cls = "") => el("span", { class: `card back${cls ? " " + cls : ""}`, "aria-hidden": "true" });

// ---------------------------------------------------------------- rendering
function render() {
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
  friends.renderSeats();
  friends.renderWaiting();
  friends.syncLive();
}

/** A table that names its players (a variant table, or people at it). */
const named = (st) => !!st && (isVariant(st) || hasPeople(st));

/** The seat the person plays against at this deal (null when they sit out or none is known). */
function opponentSeat(st) {
  if (!st) return null;
  if (isVariant(st)) return opponentOf(st);
  const seats = seatsOf(st);
  if (seats.length === 2) return 1 - (st.you ?? 0);
  return null;
}

/** The name of the seat whose move the table waits for ("Computer" against the computer). */
function actorName(st) {
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

function currentTable() {
  return S.table || (S.state ? tableFromState(S.state) : { stock: 0, pile: [], oppCount: 0, known: [] });
}

function renderOpponent() {
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

function renderPiles() {
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
  if (cards.length > 2) kids.push(cardEl(cards[cards.length - 3], t, { cls: "under2", attrs: { "aria-hidden": "true" } }));
  if (cards.length > 1) kids.push(cardEl(cards[cards.length - 2], t, { cls: "under1", attrs: { "aria-hidden": "true" } }));
  if (cards.length) kids.push(cardEl(cards[cards.length - 1], t, { cls: "top", attrs: { "aria-hidden": "true" } }));
  pile.replaceChildren(...kids);
  const top = cards[cards.length - 1];
  const takeAction = findLegal(st, "draw_discard") || findLegal(st, "take");
  const canPile = !!takeAction && !S.busy && !S.animating;
  pile.disabled = !canPile;
  pile.classList.toggle("live", canPile);
  pile.dataset.top = top || "";
  pile.setAttribute("aria-label", top ? t("table.pile_label", { card: cardName(top, t), n: cards.length }) + (canPile ? ". " + t("table.take_hint") : "") : t("table.pile_empty"));
}

function renderStatus() {
  const st = S.state;
  const status = $("status");
  const phase = uiPhase(st, S.animating);
  if (phase) status.dataset.phase = phase;
  else delete status.dataset.phase;
  status.textContent = isWaiting(st) ? t("friends.waiting_title") : t(promptKey(st, S.animating, S.loading), { computer: actorName(st) });
  const offer = $("offer");
  const canTake = findLegal(st, "take");
  const canPass = findLegal(st, "pass");
  // Pass: the first-turn offer, and the R-8.2 choice on the last discard (phase "draw").
  offer.hidden = !(st && (st.phase === "offer" || st.phase === "draw") && (canTake || canPass)) || S.animating;
  $("btn-take").hidden = !canTake && st?.phase !== "offer";
  $("btn-take").disabled = !canTake || S.busy || S.animating;
  $("btn-pass").disabled = !canPass || S.busy || S.animating;
  const meta = [];
  if (st) meta.push(t("table.hand_no", { n: st.hand_number ?? 1 }));
  $("meta-line").textContent = meta.join(" · ");
  $("table").setAttribute("aria-busy", S.busy || S.animating ? "true" : "false");
}

function renderHand() {
  const hand = $("hand");
  const st = S.state;
  const active = document.activeElement;
  const focusCard = active && hand.contains(active) ? active.dataset.card : null;
  const focusIndex = focusCard ? [...hand.querySelectorAll(".slot")].indexOf(active) : -1;
  if (!st) { hand.replaceChildren(); updateDeadwood(); return; }
  if (S.selected && !S.order.includes(S.selected)) S.selected = null;
  const groups = groupHand(S.order, st.arrangement);
  const frag = [];
  groups.forEach((g, gi) => {
    let label;
    if (g.kind === "meld") label = t(g.run ? "hand.run" : "hand.set");
    else if (g.kind === "deadwood") label = t("hand.deadwood_group");
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
  if (!st || !st.arrangement) { box.textContent = ""; box.className = "dw-counter"; return; }
  const n = deadwoodOf(st.arrangement);
  const eleven = (st.hand || []).length > 10;
  box.textContent = t(eleven ? "hand.deadwood_after" : "hand.deadwood", { n });
  const limit = st.knock_limit ?? 0;
  box.className = "dw-counter" + (n === 0 ? " gin" : limit > 0 && n <= limit ? " ok" : "");
}

/** Overlap the hand's cards just enough that they fit the width (no horizontal scroll on a phone). */
function fitHand() {
  const hand = $("hand");
  const slots = hand.querySelectorAll(".slot");
  const n = slots.length;
  if (!n) return;
  const cs = getComputedStyle(hand);
  const gap = parseFloat(cs.getPropertyValue("--group-gap")) || 0;
  const groups = hand.querySelectorAll(".group").length;
  const cw = slots[0].firstElementChild.offsetWidth;
  const avail = hand.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 4;
  const natural = n * cw + (groups - 1) * gap;
  let ov = n > 1 ? Math.ceil((natural - avail) / (n - 1)) : 0;
  ov = Math.max(-4, Math.min(ov, cw - 14));
  hand.style.setProperty("--slot", `${cw - ov}px`);
}

function renderActions() {
  const st = S.state;
  const idle = !S.busy && !S.animating;
  const sel = S.selected;
  const canDiscard = !!(st && st.phase === "discard" && sel && findLegal(st, "discard", sel));
  $("btn-discard").disabled = !canDiscard || !idle;
  const knocks = legalOfType(st, "knock");
  const kb = $("btn-knock");
  kb.disabled = !knocks.length || !idle;
  const explain = !!(st && (st.phase === "draw" || st.phase === "discard") && !S.animating);
  $("knock-why").textContent = explain && !knocks.length && st.knock ? reasonText(st.knock.reason, t) : "";
  const gins = legalOfType(st, "gin");
  $("btn-gin").disabled = !gins.length || !idle;
  $("gin-why").textContent = explain && !gins.length && st.gin ? reasonText(st.gin.reason, t) : "";
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
  const show = !!(st && st.result && (st.phase === "hand-over" || st.phase === "game-over") && !S.animating);
  const wasHidden = panel.hidden;
  panel.hidden = !show;
  $("table").classList.toggle("has-result", show);
  if (!show) return;
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
    sub.push(t("game.final", { you: final.totals[you], opp: final.totals[1 - you] }));
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
  $("btn-again").hidden = !over;
  // step through this hand face up (the replay page reads the game's token from this browser)
  $("btn-replay").href = `/replay?game=${encodeURIComponent(st.game_id)}&hand=${st.hand_number}`;
  renderReveal(st.fairness && st.fairness.revealed);
  if (wasHidden) requestAnimationFrame(() => panel.focus({ preventScroll: false }));
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

function isRunMeld(cards) {
  return cards.length > 1 && cards.every((c) => c[1] === cards[0][1]) && cards[0][0] !== cards[1][0];
}

function sortForShow(cards) {
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
async function askHint() {
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
    announce(hintWords(S.hint));
  } catch {
    toast(t("error.network"));
  } finally {
    S.hinting = false;
    renderActions();
  }
}

// ---------------------------------------------------------------- live region
function announce(text) {
  if (!text) return;
  const live = $("live");
  live.textContent = "";
  requestAnimationFrame(() => { live.textContent = text; });
}

// ---------------------------------------------------------------- state flow
function adoptState(state) {
  const prev = S.state;
  const sameHand = prev && prev.game_id === state.game_id && prev.hand_number === state.hand_number;
  S.order = sameHand ? mergeOrder(S.order, state.hand || []) : [...(state.hand || [])];
  S.state = state;
  if (S.selected && (!S.order.includes(S.selected) || !["draw", "discard", "offer"].includes(state.phase))) S.selected = null;
  // The server places a card it has no saved position for in suit order; the page keeps it where
  // it appeared. Save the page's order then, so that a reload shows the hand exactly as it was.
  const served = state.hand || [];
  if (sameHand && S.order.length && S.order.some((c, i) => c !== served[i])) saveOrder();
}

/** One move in words: another seat's move by its name at a table of people. */
function eventWords(e, state) {
  const you = state.you ?? 0;
  const other = e.seat !== null && e.seat !== undefined && e.seat !== you;
  if (other && hasPeople(state) && e.type !== "deal" && !["dead_hand", "hand_over", "game_over"].includes(e.type)) {
    return publicEventText(state, e, t);
  }
  return eventText(e, you, t, { n: state.hand_number });
}

/** Words for the live region: each move, then the result or what to do next. */
function announcement(evs, state) {
  const you = state.you ?? 0;
  const words = evs.filter((e) => !["hand_over", "game_over"].includes(e.type)).map((e) => eventWords(e, state)).filter(Boolean);
  if (!words.length && !evs.length) return "";
  let tail = t(promptKey(state, false), { computer: actorName(state) });
  if (state.result && (state.phase === "hand-over" || state.phase === "game-over")) {
    tail = named(state) ? variantHeadline(state.result, state, t) : resultHeadline(state.result, you, t);
    const f = state.score && state.score.final;
    if (state.phase === "game-over" && f && !isVariant(state)) tail += `. ${f.winner === you ? t("game.won.you") : named(state) ? t("vt.winner", { name: playerName(state, f.winner, t) }) : t("game.won.opp")}`;
  }
  return `${words.join(" ")} ${tail}`.trim();
}

/**
 * Show a state from the server (an action's answer, a poll, a live message), in the order they
 * come and never one older than the state shown (seats.supersedes).
 */
function deliver(state, opts = {}) {
  S.chain = S.chain.then(() => (supersedes(S.state, state) ? receive(state, opts) : null)).catch(() => {});
  return S.chain;
}

/** Take a state from the server: replay its new events (animated when another seat moved), then show it. */
async function receive(state, { animate = true } = {}) {
  const you = state.you ?? 0;
  const prev = S.state;
  const evs = prev ? newEvents(state, S.lastSeq) : [];
  S.lastSeq = Math.max(state.seq ?? 0, ...evs.map((e) => e.seq ?? 0));
  const oppMoves = evs.filter((e) => e.seat !== you && e.seat !== null && e.seat !== undefined && ANIMATED.has(e.type));
  const watching = isVariant(state) && state.table.spectating;
  if (animate && !watching && prev && oppMoves.length && prev.game_id === state.game_id) {
    await animateEvents(prev, state, evs);
  } else {
    adoptState(state);
    render();
  }
  announce(announcement(evs, state));
  if (state.phase === "hand-over" || state.phase === "game-over") {
    if (state.result && prev && prev.phase !== state.phase) sound(["gin", "big_gin"].includes(state.result.kind) ? "gin" : "knock");
  }
  friends.afterState(prev, S.state);
  schedulePoll();
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

async function animateEvents(prev, state, evs) {
  const you = state.you ?? 0;
  const move = motionOK();
  S.animating = true;
  S.table = tableFromState(prev);
  adoptState(state);
  render();
  for (const ev of evs) {
    const opp = ev.seat !== you && ev.seat !== null && ev.seat !== undefined;
    if (!opp || !ANIMATED.has(ev.type)) {
      S.table = applyEvent(S.table, ev, you, state);
      continue;
    }
    if (move) await animateOne(ev);
    else await sleep(ev.type === "pass" || ev.type === "knock" || ev.type === "gin" ? 350 : 180);
    S.table = applyEvent(S.table, ev, you, state);
    renderOpponent();
    renderPiles();
    if (ev.type === "discard") sound("discard");
    else if (ev.type.startsWith("draw") || ev.type === "take") sound("draw");
  }
  if (move) await sleep(150);
  S.table = null;
  S.animating = false;
  render();
}

async function animateOne(ev) {
  const card = ev.card;
  switch (ev.type) {
    case "pass": return bubble(t("bubble.pass"), 700);
    case "knock": sound("knock"); return bubble(t("bubble.knock"), 900);
    case "gin": sound("gin"); return bubble(t("bubble.gin"), 900);
    case "big_gin": sound("gin"); return bubble(t("bubble.big_gin"), 900);
    case "draw_stock": return fly(backEl(), $("stock"), $("opp-hand"));
    case "take":
    case "draw_discard": return fly(card ? cardEl(card, t) : backEl(), $("discard-pile"), $("opp-hand"));
    case "discard": return fly(cardEl(card, t), $("opp-hand"), $("discard-pile"));
    default: return sleep(100);
  }
}

async function bubble(text, ms) {
  const b = $("opp-bubble");
  b.textContent = text;
  b.classList.add("show");
  await sleep(ms);
  b.classList.remove("show");
}

async function fly(node, from, to) {
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  const layer = $("flyers");
  node.style.left = `${a.left + 5}px`;
  node.style.top = `${a.top + 5}px`;
  layer.append(node);
  const w = node.offsetWidth || 60;
  const dx = b.left + b.width / 2 - w / 2 - a.left - 5;
  const dy = b.top + 5 - a.top - 5;
  try {
    await node.animate([
      { transform: "translate(0, 0) rotate(0deg)" },
      { transform: `translate(${dx}px, ${dy}px) rotate(${dx > 0 ? 8 : -8}deg)` },
    ], { duration: 420, easing: "cubic-bezier(.3,.7,.3,1)" }).finished;
  } catch { /* ignore */ }
  node.remove();
  await sleep(90);
}

/** While another seat is to act: ask again in 0.8 s (not at a table whose live connection runs). */
function schedulePoll() {
  clearTimeout(S.pollTimer);
  if (S.state && (S.state.phase === "opponent" || isWaiting(S.state)) && S.game && !friends.liveActive()) {
    S.pollTimer = setTimeout(async () => {
      if (S.busy) return schedulePoll();
      try {
        const r = await api("GET", `/api/games/${S.game.game_id}?since=${S.lastSeq}`);
        if (r.ok) await deliver(r.data, { animate: true });
        else schedulePoll();
      } catch { schedulePoll(); }
    }, 800);
  }
}

function setBusy(b) {
  S.busy = b;
  renderPiles();
  renderStatus();
  renderActions();
  if (!$("result").hidden) $("btn-next").disabled = b || !findLegal(S.state, "next_hand");
}

/** Post one action (`seq` always sent); a second call while one is in flight is ignored. */
async function act(action) {
  if (S.busy || S.animating || !S.state || !S.game) return;
  setBusy(true);
  const seq = S.state.seq;
  try {
    const r = await api("POST", `/api/games/${S.game.game_id}/actions`, { action, seq });
    if (r.ok) {
      if (/^(discard|draw|take)/.test(action)) sound(action.startsWith("discard") ? "discard" : "draw");
      S.busy = false;
      if (action.startsWith("discard")) S.selected = null;
      await deliver(r.data, { animate: true });
    } else if (r.status === 404) {
      lostGame();
    } else {
      sound("error");
      toast(r.status === 409 ? t("error.stale") : detailMessage(r.data));
      S.busy = false;
      if (r.data && r.data.state) await deliver(r.data.state, { animate: false });
      else await refresh();
    }
  } catch {
    toast(t("error.network"));
  } finally {
    S.busy = false;
    render();
  }
}

async function refresh() {
  if (!S.game) return;
  try {
    const r = await api("GET", `/api/games/${S.game.game_id}?since=${S.lastSeq}`);
    if (r.ok) await deliver(r.data, { animate: false });
    else if (r.status === 404) lostGame();
  } catch { toast(t("error.network")); }
}

function lostGame() {
  if (S.game) friends.dropSeat(S.game.game_id);
  forgetGame();
  toast(t("error.lost"));
}

/** The page holds no game any more (lost, or the person left the table): the new-game dialog. */
function forgetGame() {
  friends.stopLive();
  store.set(KEY_CURRENT, null);
  S.game = null;
  S.state = null;
  S.lastSeq = 0;
  history.replaceState(null, "", "/");
  render();
  openNewGame();
}

/**
 * Show the table of seat `game` ({game_id, token, seat}) from its `state`: the page's current
 * game from now on (ginrummy.current, which the replay page reads too).
 */
function takeSeat(game, state) {
  clearTimeout(S.pollTimer);
  S.game = { game_id: game.game_id, token: game.token };
  store.set(KEY_CURRENT, S.game);
  S.state = null;
  S.selected = null;
  S.hint = null;
  S.lastSeq = 0;
  for (const id of ["dlg-new", "dlg-join"]) if ($(id).open) $(id).close();
  const evs = newEvents(state, 0);
  adoptState(state);
  S.lastSeq = state.seq ?? 0;
  render();
  announce(isWaiting(state) ? t("friends.waiting_title") : announcement(evs, state) || t(promptKey(state, false), { computer: actorName(state) }));
  schedulePoll();
  focusPlay();
}

function saveOrder() {
  clearTimeout(S.orderTimer);
  S.orderTimer = setTimeout(async () => {
    if (!S.game || !S.order.length) return;
    try { await api("PUT", `/api/games/${S.game.game_id}/order`, { cards: S.order }); } catch { /* order is a nicety */ }
  }, 250);
}

// ---------------------------------------------------------------- person's actions
function onCardClick(card) {
  if (S.suppressClick) return;
  if (S.busy || S.animating || !S.state) return;
  const st = S.state;
  if (S.selected === card) {
    if (st.phase === "discard") { tryDiscard(card); return; }
    S.selected = null;
  } else {
    S.selected = card;
  }
  sound("select");
  renderHand();
  renderActions();
}

function tryDiscard(card) {
  const st = S.state;
  if (!card) { toast(t("error.select_first")); return; }
  const a = findLegal(st, "discard", card);
  if (!a) {
    if (st.phase !== "discard") toast(t("reason.draw_first"));
    else if (st.taken_from_discard === card) toast(t("error.taken", { card: cardName(card, t) }));
    else toast(t("error.cannot_discard"));
    sound("error");
    return;
  }
  act(a.action);
}

function clickStock() {
  const a = findLegal(S.state, "draw_stock");
  if (a) act(a.action);
}

function clickPile() {
  const a = findLegal(S.state, "draw_discard") || findLegal(S.state, "take");
  if (a) act(a.action);
}

function clickType(type) {
  const a = findLegal(S.state, type);
  if (a) act(a.action);
}

function clickGin() {
  const a = chooseGin(S.state, S.selected);
  if (a && !S.busy && !S.animating) { sound("gin"); act(a.action); }
}

function sortHand(by) {
  if (!S.state || !S.order.length) return;
  S.order = by === "rank" ? sortByRank(S.order) : sortBySuit(S.order);
  renderHand();
  saveOrder();
  announce(t(by === "rank" ? "hand.sorted_rank" : "hand.sorted_suit"));
}

function shiftCard(card, dir) {
  const shown = [...$("hand").querySelectorAll(".slot")].map((c) => c.dataset.card);
  const i = shown.indexOf(card);
  const j = i + dir;
  if (i < 0 || j < 0 || j >= shown.length) return;
  const target = shown[j];
  const to = S.order.indexOf(target);
  S.order = moveCard(S.order, card, to);
  renderHand();
  saveOrder();
  const b = $("hand").querySelector(`.slot[data-card="${card}"]`);
  if (b) b.focus();
}

// ---------------------------------------------------------------- knock dialog
function openKnock() {
  if (S.busy || S.animating) return;
  const k = chooseKnock(S.state, S.selected);
  if (!k) return;
  S.knockChoice = k;
  renderKnockDialog();
  $("dlg-knock").showModal();
  $("knock-confirm").focus();
}

function renderKnockDialog() {
  const k = S.knockChoice;
  if (!k || !S.state) return;
  $("knock-text").textContent = t("knock.text", { card: cardName(k.card, t), n: k.deadwood_points ?? 0, limit: S.state.knock_limit ?? "" });
  const knocks = legalOfType(S.state, "knock");
  $("knock-choose-wrap").hidden = knocks.length < 2;
  $("knock-choices").replaceChildren(...knocks.map((a) => {
    const b = cardEl(a.card, t, { button: true, mini: true, attrs: { role: "radio", "aria-checked": a.card === k.card ? "true" : "false", title: t("result.deadwood", { n: a.deadwood_points }) } });
    b.addEventListener("click", () => { S.knockChoice = a; renderKnockDialog(); const again = $("knock-choices").querySelector(`[data-card="${a.card}"]`); if (again) again.focus(); });
    return b;
  }));
  const groups = (k.melds || []).map((m, i) => {
    const g = el("div", { class: `group meld m${i % 4}`, role: "group", "aria-label": t("hand.meld_label", { n: i + 1, kind: t(isRunMeld(m) ? "hand.run" : "hand.set") }) });
    for (const c of sortForShow(m)) g.append(cardEl(c, t, { mini: true }));
    g.append(el("div", { class: "group-mark", "aria-hidden": "true" }, el("span", { text: t(isRunMeld(m) ? "hand.run" : "hand.set") })));
    return g;
  });
  if ((k.deadwood || []).length) {
    const g = el("div", { class: "group deadwood", role: "group", "aria-label": t("hand.deadwood_group") });
    for (const c of k.deadwood) g.append(cardEl(c, t, { mini: true }));
    g.append(el("div", { class: "group-mark", "aria-hidden": "true" }, el("span", { text: t("result.deadwood", { n: k.deadwood_points ?? 0 }) })));
    groups.push(g);
  }
  $("knock-spread").replaceChildren(...groups);
}

// ---------------------------------------------------------------- new game dialog
async function ensureMeta() {
  if (S.meta) return S.meta;
  const r = await api("GET", "/api/meta");
  if (!r.ok) throw new Error("meta");
  S.meta = r.data;
  return S.meta;
}

async function openNewGame() {
  try { await ensureMeta(); } catch { toast(t("error.network")); return; }
  buildNewGameForm(true);
  $("new-cancel").hidden = !S.state;
  $("new-error").hidden = true;
  const dlg = $("dlg-new");
  if (!dlg.open) dlg.showModal();
  $("new-start").focus({ preventScroll: true });  // the form opens at its top; the button is in sight
}

function levelId(l) { return typeof l === "object" && l ? l.name ?? l.id : l; }

function metaFields() {
  const m = S.meta || {};
  if (Array.isArray(m.fields) && m.fields.length) return m.fields;
  const p = Object.values(m.presets || {})[0] || {};
  return Object.entries(p).filter(([k]) => k !== "preset").map(([name, v]) => ({ name, type: typeof v === "boolean" ? "bool" : typeof v === "number" ? "int" : "str" }));
}

function buildNewGameForm(reset) {
  const m = S.meta || {};
  const saved = store.get(KEY_NEW, {}) || {};
  const lvSel = $("new-level");
  const lvPrev = reset ? saved.level : lvSel.value;
  const levels = m.levels || [];
  lvSel.replaceChildren(...levels.map((l) => el("option", { value: levelId(l), text: levelName(l, t) })));
  lvSel.value = levels.map(levelId).includes(lvPrev) ? lvPrev : m.default_level ?? levelId(levels[0]);
  const prSel = $("new-preset");
  const prPrev = reset ? saved.preset : prSel.value;
  const presets = Object.keys(m.presets || {});
  prSel.replaceChildren(...presets.map((p) => el("option", { value: p, text: presetName(p, t) })));
  prSel.value = presets.includes(prPrev) ? prPrev : presets.includes("standard") ? "standard" : presets[0];
  fillScoring($("new-scoring"), m, t, reset ? saved.scoring : $("new-scoring").value);
  const current = reset ? { ...(m.presets || {})[prSel.value], ...(saved.preset === prSel.value ? saved.rules || {} : {}) } : readFields();
  buildFields(current);
  updatePresetNote();
  friends.buildForm(reset);
}

function updatePresetNote() {
  const name = $("new-preset").value;
  const scoring = $("new-scoring").value || "standard";
  $("new-preset-note").textContent = [t(`preset_note.${name}`, null, ""), scoring === "standard" ? "" : t(`scoring_note.${scoring}`, null, "")].filter(Boolean).join(" ");
}

/** The table choice: a scoring with its own preset (partnership) selects it; fields follow. */
function onScoringChange() {
  const preset = presetForScoring(S.meta, $("new-scoring").value);
  if (preset && $("new-preset").value !== preset) {
    $("new-preset").value = preset;
    buildFields({ ...(S.meta.presets || {})[preset] });
  }
  applyConstraints($("new-fields"), $("new-scoring").value, S.meta, t);
  updatePresetNote();
}

function fieldKind(f, presetValue) {
  const type = String(f.type || "").toLowerCase();
  if (Array.isArray(f.choices) && f.choices.length) return "choice";
  if (type.startsWith("bool")) return "bool";
  const num = /int|float|number/.test(type);
  if ((num && (f.nullable || /null|none|optional|\?/.test(type))) || (presetValue === null && (num || f.min !== undefined))) return "onoff";
  if (num || typeof presetValue === "number") return "int";
  return "text";
}

function buildFields(values) {
  const preset = (S.meta.presets || {})[$("new-preset").value] || {};
  const box = $("new-fields");
  box.replaceChildren(...metaFields().filter((f) => f.name !== "preset").map((f) => {
    const v = values[f.name] !== undefined ? values[f.name] : preset[f.name];
    const kind = fieldKind(f, preset[f.name] !== undefined ? preset[f.name] : v);
    const id = `f-${f.name}`;
    const label = fieldLabel(f.name, t);
    if (kind === "bool") {
      return el("label", { class: "check" }, el("input", { type: "checkbox", id, "data-field": f.name, "data-kind": kind, checked: !!v }), el("span", { text: label }));
    }
    if (kind === "choice") {
      const s = el("select", { id, "data-field": f.name, "data-kind": kind },
        f.choices.map((c) => el("option", { value: String(c), text: choiceLabel(f.name, c, t) })));
      s.value = String(v);
      return el("label", {}, el("span", { text: label }), s);
    }
    if (kind === "onoff") {
      const on = v !== null && v !== undefined && v !== false;
      const num = el("input", { type: "number", id, "data-field": f.name, "data-kind": kind, min: f.min, max: f.max, step: 1, value: on ? v : f.default ?? 31, disabled: !on, "aria-label": label });
      const cb = el("input", { type: "checkbox", id: `${id}-on`, checked: on, "aria-label": `${label}: ${t("value.on")}` });
      cb.addEventListener("change", () => { num.disabled = !cb.checked; });
      return el("label", {}, el("span", { text: label }), el("span", { class: "onoff" }, cb, num));
    }
    if (kind === "int") {
      return el("label", {}, el("span", { text: label }), el("input", { type: "number", id, "data-field": f.name, "data-kind": kind, min: f.min, max: f.max, step: f.type === "float" ? "any" : 1, value: v ?? "" }));
    }
    return el("label", {}, el("span", { text: label }), el("input", { type: "text", id, "data-field": f.name, "data-kind": kind, value: v ?? "" }));
  }));
  applyConstraints(box, $("new-scoring").value || "standard", S.meta, t);
}

function readFields() {
  const out = {};
  for (const e of $("new-fields").querySelectorAll("[data-field]")) {
    const name = e.dataset.field;
    switch (e.dataset.kind) {
      case "bool": out[name] = e.checked; break;
      case "onoff": out[name] = $(`${e.id}-on`).checked ? Number(e.value) : null; break;
      case "int": out[name] = e.value === "" ? null : Number(e.value); break;
      case "choice": {
        const f = metaFields().find((x) => x.name === name);
        const orig = f && f.choices.find((c) => String(c) === e.value);
        out[name] = orig !== undefined ? orig : e.value;
        break;
      }
      default: out[name] = e.value;
    }
  }
  return out;
}

async function startGame(ev) {
  ev.preventDefault();
  const btn = $("new-start");
  if (btn.disabled) return;
  const level = $("new-level").value;
  const preset = $("new-preset").value;
  const rules = rulesOverrides((S.meta.presets || {})[preset], readFields());
  let table;
  try { table = friends.request(); } catch (e) {
    $("new-error").textContent = e.message;
    $("new-error").hidden = false;
    return;
  }
  btn.disabled = true;
  $("new-error").hidden = true;
  try {
    const scoring = $("new-scoring").value || "standard";
    const body = { level, preset, rules, scoring };
    if (table) Object.assign(body, { seats: table.seats, name: table.name, turn_clock: table.turn_clock });
    const r = await api("POST", "/api/games", body);
    if (!r.ok) {
      $("new-error").textContent = detailMessage(r.data);
      $("new-error").hidden = false;
      return;
    }
    store.set(KEY_NEW, { level, preset, rules, scoring, kind: table ? "friends" : "computer", seatChoices: table ? table._choices : (store.get(KEY_NEW, {}) || {}).seatChoices });
    const game = { game_id: r.data.game_id, token: r.data.token, seat: r.data.seat ?? 0 };
    if (table) friends.keepSeat({ ...game, name: table.name });
    history.replaceState(null, "", "/");
    takeSeat(game, r.data.state);
  } catch {
    $("new-error").textContent = t("error.network");
    $("new-error").hidden = false;
  } finally {
    btn.disabled = false;
  }
}

function focusPlay() {
  const st = S.state;
  if (!st) return;
  if (st.phase === "offer" && !$("btn-take").disabled) $("btn-take").focus();
  else if (st.phase === "draw" && !$("stock").disabled) $("stock").focus();
  else { const c = $("hand").querySelector(".slot"); if (c) c.focus(); }
}

// ---------------------------------------------------------------- stats
async function openStats() {
  const body = $("stats-body");
  body.replaceChildren(el("p", { text: t("prompt.loading") }));
  $("dlg-stats").showModal();
  try {
    const r = await api("GET", "/api/stats");
    if (!r.ok) throw new Error();
    body.replaceChildren(statsTable(r.data));
  } catch {
    body.replaceChildren(el("p", { text: t("error.network") }));
  }
}

function statValue(key, v) {
  if (v === null || v === undefined) return "—";
  if (typeof v === "object" && !Array.isArray(v) && "length" in v) {
    return v.length && v.kind ? t(`stats.streak_${v.kind}`, { n: v.length }, `${v.length} ${v.kind}`) : "—";
  }
  if (typeof v === "boolean") return t(v ? "value.yes" : "value.no");
  if (typeof v === "number" && /rate|ratio|pct|percent/.test(key)) return v <= 1 ? `${Math.round(v * 100)}%` : `${Math.round(v)}%`;
  if (typeof v === "number") return String(Math.round(v * 100) / 100);
  if (Array.isArray(v)) return String(v.length);
  return String(v);
}

function statsTable(data) {
  if (!data || typeof data !== "object") return el("p", { text: String(data ?? "") });
  const rows = [];
  const nested = [];
  for (const [k, v] of Object.entries(data)) {
    if (v && typeof v === "object" && !Array.isArray(v) && !("length" in v)) nested.push([k, v]);
    else rows.push(el("tr", {}, el("th", { scope: "row", text: t(`stats.${k}`, null, humanize(k)) }), el("td", { class: "n", text: statValue(k, v) })));
  }
  const frag = el("div", {});
  if (rows.length) frag.append(el("table", { class: "stats-table" }, el("tbody", {}, rows)));
  else if (!nested.length) frag.append(el("p", { text: t("stats.none") }));
  for (const [k, v] of nested) {
    const title = t(`stats.${k}`, null, t(`level.${k}`, null, humanize(k)));
    frag.append(el("h3", { text: title }), statsTable(v));
  }
  return frag;
}

// ---------------------------------------------------------------- help (keyboard)
const KEYS = [
  ["←  →", "keys.arrows"], ["Enter / Space", "keys.select"], ["Shift + ←  →", "keys.move"],
  ["S", "keys.stock"], ["D", "keys.pile"], ["T", "keys.take"], ["P", "keys.pass"], ["X", "keys.discard"],
  ["K", "keys.knock"], ["G", "keys.gin"], ["B", "keys.big_gin"], ["N", "keys.next"], ["R", "keys.sort_rank"],
  ["U", "keys.sort_suit"], ["I", "keys.hint"], ["H / ?", "keys.help"], ["Esc", "keys.escape"],
];

function renderHelpKeys() {
  $("help-keys").replaceChildren(...KEYS.flatMap(([k, key]) => [el("dt", {}, ...k.split(" ").filter(Boolean).map((p, i) => (p === "/" || p === "+" ? ` ${p} ` : el("kbd", { text: p })))), el("dd", { text: t(key) })]));
  const shortcuts = { "btn-knock": "K", "btn-gin": "G", "btn-big-gin": "B", "btn-discard": "X", stock: "S", "discard-pile": "D", "btn-take": "T", "btn-pass": "P", "btn-next": "N", "btn-sort-rank": "R", "btn-sort-suit": "U", "btn-hint": "I" };
  for (const [id, k] of Object.entries(shortcuts)) { $(id).setAttribute("aria-keyshortcuts", k); $(id).title = `${t(`keys.${keyName(id)}`)} (${k})`; }
}
function keyName(id) {
  return { "btn-knock": "knock", "btn-gin": "gin", "btn-big-gin": "big_gin", "btn-discard": "discard", stock: "stock", "discard-pile": "pile", "btn-take": "take", "btn-pass": "pass", "btn-next": "next", "btn-sort-rank": "sort_rank", "btn-sort-suit": "sort_suit", "btn-hint": "hint" }[id];
}

function onKey(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const cardBtn = e.target.closest && e.target.closest("#hand .slot");
  if (cardBtn && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) {
    e.preventDefault();
    if (e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) { shiftCard(cardBtn.dataset.card, e.key === "ArrowLeft" ? -1 : 1); return; }
    const cards = [...$("hand").querySelectorAll(".slot")];
    const i = cards.indexOf(cardBtn);
    const j = e.key === "Home" ? 0 : e.key === "End" ? cards.length - 1 : i + (e.key === "ArrowLeft" ? -1 : 1);
    if (cards[j]) cards[j].focus();
    return;
  }
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    if (e.target === document.body || e.target === $("hand")) { const c = $("hand").querySelector(".slot"); if (c) { e.preventDefault(); c.focus(); } }
    return;
  }
  if (e.shiftKey && e.key !== "?") return;
  const k = e.key.toLowerCase();
  const map = {
    s: clickStock, d: clickPile, t: () => clickType("take"), p: () => clickType("pass"),
    x: () => tryDiscard(S.selected), delete: () => tryDiscard(S.selected),
    k: () => { if (!$("btn-knock").disabled) openKnock(); }, g: () => { if (!$("btn-gin").disabled) clickGin(); },
    b: () => { if (!$("btn-big-gin").disabled) clickType("big_gin"); }, n: () => clickType("next_hand"),
    r: () => sortHand("rank"), u: () => sortHand("suit"), i: askHint, h: () => $("dlg-help").showModal(), "?": () => $("dlg-help").showModal(),
  };
  if (map[k]) {
    if ((k === "x" || k === "delete") && !S.selected) return;
    e.preventDefault();
    map[k]();
  }
}

// ---------------------------------------------------------------- drag to reorder (optional)
function onPointerDown(e) {
  const c = e.target.closest(".slot");
  if (!c || e.button !== 0 || !$("hand").contains(c)) return;
  S.drag = { card: c.dataset.card, el: c, x0: e.clientX, y0: e.clientY, moved: false, id: e.pointerId };
}

function dropTarget(x, card) {
  let best = null;
  for (const c of $("hand").querySelectorAll(".slot")) {
    if (c.dataset.card === card) continue;
    const r = c.getBoundingClientRect();
    const d = Math.abs(x - (r.left + r.width / 2));
    if (!best || d < best.d) best = { c, d, after: x > r.left + r.width / 2 };
  }
  return best;
}

function onPointerMove(e) {
  const d = S.drag;
  if (!d || e.pointerId !== d.id) return;
  const dx = e.clientX - d.x0;
  const dy = e.clientY - d.y0;
  if (!d.moved) {
    if (Math.abs(dx) < 12 || Math.abs(dx) < Math.abs(dy)) return;
    d.moved = true;
    d.el.classList.add("dragging");
    try { d.el.setPointerCapture(e.pointerId); } catch { /* ignore */ }
  }
  d.el.style.transform = `translate(${dx}px, -14px)`;
  for (const c of $("hand").querySelectorAll(".drop-before")) c.classList.remove("drop-before");
  const tgt = dropTarget(e.clientX, d.card);
  if (tgt && !tgt.after) tgt.c.classList.add("drop-before");
}

function onPointerUp(e) {
  const d = S.drag;
  S.drag = null;
  if (!d || !d.moved) return;
  d.el.style.transform = "";
  d.el.classList.remove("dragging");
  const tgt = dropTarget(e.clientX, d.card);
  if (tgt) {
    const without = S.order.filter((c) => c !== d.card);
    const at = without.indexOf(tgt.c.dataset.card) + (tgt.after ? 1 : 0);
    S.order = moveCard(S.order, d.card, at);
    saveOrder();
  }
  S.suppressClick = true;
  setTimeout(() => { S.suppressClick = false; }, 0);
  renderHand();
}

// ---------------------------------------------------------------- wiring
function wire() {
  $("stock").addEventListener("click", clickStock);
  $("discard-pile").addEventListener("click", clickPile);
  $("btn-take").addEventListener("click", () => clickType("take"));
  $("btn-pass").addEventListener("click", () => clickType("pass"));
  $("btn-discard").addEventListener("click", () => tryDiscard(S.selected));
  $("btn-knock").addEventListener("click", openKnock);
  $("btn-gin").addEventListener("click", clickGin);
  $("btn-big-gin").addEventListener("click", () => { sound("gin"); clickType("big_gin"); });
  $("btn-next").addEventListener("click", () => clickType("next_hand"));
  $("btn-again").addEventListener("click", openNewGame);
  $("btn-new").addEventListener("click", openNewGame);
  $("btn-sort-rank").addEventListener("click", () => sortHand("rank"));
  $("btn-sort-suit").addEventListener("click", () => sortHand("suit"));
  $("btn-hint").addEventListener("click", askHint);
  $("btn-stats").addEventListener("click", openStats);
  $("btn-settings").addEventListener("click", () => $("dlg-settings").showModal());
  $("btn-help").addEventListener("click", () => $("dlg-help").showModal());
  $("lang-select").addEventListener("change", (e) => setLanguage(e.target.value));
  $("form-new").addEventListener("submit", startGame);
  $("new-cancel").addEventListener("click", () => $("dlg-new").close());
  $("dlg-new").addEventListener("cancel", (e) => { if (!S.state) e.preventDefault(); });
  $("new-preset").addEventListener("change", () => { buildFields({ ...(S.meta.presets || {})[$("new-preset").value] }); updatePresetNote(); });
  $("new-scoring").addEventListener("change", onScoringChange);
  $("new-fields").addEventListener("change", () => applyConstraints($("new-fields"), $("new-scoring").value, S.meta, t));
  $("form-knock").addEventListener("submit", (e) => {
    e.preventDefault();
    $("dlg-knock").close();
    const k = S.knockChoice;
    if (k) { sound("knock"); act(k.action); }
  });
  $("knock-cancel").addEventListener("click", () => $("dlg-knock").close());
  for (const [id, key] of [["set-sound", "sound"], ["set-anim", "animations"], ["set-four", "fourColour"], ["set-large", "largeCards"]]) {
    $(id).addEventListener("change", (e) => { S.settings[key] = e.target.checked; store.set(KEY_SETTINGS, S.settings); applySettings(); });
  }
  document.addEventListener("keydown", onKey);
  const hand = $("hand");
  hand.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", () => { if (S.drag) { S.drag.el.style.transform = ""; S.drag.el.classList.remove("dragging"); S.drag = null; } });
  window.addEventListener("resize", () => requestAnimationFrame(fitHand));
}

const friends = createFriends({
  S, store, api, deliver, takeSeat, forgetGame, render, announce, detailMessage, schedulePoll, opponentSeat,
  t: (...a) => S.t(...a),
  openNewGame: () => openNewGame(),
  oppCount: () => currentTable().oppCount,
  levels: () => ((S.meta && S.meta.levels) || []).map(levelId),
  levelDefault: () => (S.meta && S.meta.default_level) || "hard",
});

async function boot() {
  S.settings = { ...DEFAULT_SETTINGS, ...(store.get(KEY_SETTINGS, {}) || {}) };
  wire();
  friends.wire();
  applySettings();
  const html = document.documentElement;
  const cookie = (document.cookie.match(/(?:^|;\s*)lang=([a-z]{2})/) || [])[1];
  let lang = html.dataset.lang || html.lang || cookie || "en";
  if (!LANGUAGES.includes(lang)) lang = "en";
  const metaP = ensureMeta().catch(() => null);
  await setLanguage(lang, { save: false });
  await metaP;
  applyStaticText();
  friends.translate();
  const code = inviteCode(location.pathname, location.search);
  if (code && await friends.openInvite(code)) { S.loading = false; render(); return; }
  const saved = store.get(KEY_CURRENT);
  S.loading = !!(saved && saved.game_id && saved.token);
  if (S.loading) {
    S.game = saved;
    try {
      const r = await api("GET", `/api/games/${saved.game_id}`);
      S.loading = false;
      if (r.ok) {
        adoptState(r.data);
        S.lastSeq = r.data.seq ?? 0;
        render();
        schedulePoll();
        return;
      }
      if ([401, 403, 404].includes(r.status)) { friends.dropSeat(saved.game_id); store.set(KEY_CURRENT, null); S.game = null; }
    } catch {
      S.loading = false;
      toast(t("error.network"));
      render();
      return;
    }
  }
  render();
  openNewGame();
}

boot();
