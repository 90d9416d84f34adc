// Drawing the table from the page's state it is given (`p`, store.js): the rules bar, the
// opponent, the piles, the status (its data-phase), the hand with its deadwood counter, the action
// buttons, the score sheet, the deal's commitment, the footer and the hint's mark. Each part is a
// pure view of `p` (`…View`, unit-tested by tests/js/views.test.mjs) and the draw that puts it in
// the DOM; a draw changes nothing but the DOM. view.js says which part redraws when.

import { cardName, reasonText, rulesSummary, levelName, fieldLabel, choiceLabel, humanize } from "./i18n.js";
import { uiPhase, findLegal, legalOfType, tableFromState, scoreRows, deadwoodOf, promptKey, hintText, hintNoneText, hintTarget, handGroups } from "./model.js";
import { $, el, cardEl } from "./page.js";
import { seatsOf, hasPeople, isWaiting } from "./seats.js";
import { isVariant, playerName, opponentOf, renderVariantScore, rulesParts } from "./variants.js";

// ---------------------------------------------------------------- what the table shows
/** A face-down card. */
export const backEl = (cls = "") => el("span", { class: `card back${cls ? " " + cls : ""}`, "aria-hidden": "true" });

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
export function actorName(st, t) {
  if (!named(st)) return t("table.computer");
  const seat = actorSeat(st);
  return seat === null || seat === undefined ? t("table.computer") : playerName(st, seat, t);
}

/**
 * The seat the table waits for, never the person's own: when the turn has passed to them while
 * another seat's moves are still shown, the last other seat that moved (its state's events).
 */
function actorSeat(st) {
  const you = st.you ?? 0;
  if (st.turn !== null && st.turn !== undefined && st.turn !== you) return st.turn;
  const other = (st.events || []).filter((e) => e.seat !== null && e.seat !== undefined && e.seat !== you && e.type !== "deal").pop();
  return other ? other.seat : opponentSeat(st);
}

/** The status line while another seat is to move: "Ben is playing…", or "Waiting for Ben (away)" while that person is away and no computer plays for them. */
function playingText(st, t, animating) {
  const seat = named(st) && !animating ? actorSeat(st) : null;
  const s = seat === null || seat === undefined ? null : seatsOf(st).find((x) => x.seat === seat);
  if (s && s.kind === "person" && s.away && !s.computer_for_away && !s.left) return t("prompt.waiting_away", { name: playerName(st, seat, t) });
  return t("prompt.opponent", { computer: actorName(st, t) });
}

/** The table as drawn: the one between events while another seat's moves are shown, else the state's. */
export function currentTable(p) {
  return p.table || (p.state ? tableFromState(p.state) : { stock: 0, pile: [], oppCount: 0, known: [] });
}

/** A hint may be asked for: the person is to move (not the next hand), nothing in flight. */
export function canHint(p) {
  const st = p.state;
  return !!(st && p.game && ["offer", "draw", "discard"].includes(st.phase)
    && (st.legal || []).some((a) => a.type !== "next_hand") && !p.busy && !p.animating && !p.hinting);
}

/** The hint answer kept for the state it was asked on (`seq`), or null. */
export function currentHint(p) {
  const h = p.hint;
  return h && p.state && h.seq === p.state.seq && h.gameId === p.state.game_id && !p.animating ? h : null;
}

/** A hint (or why there is none) in words. */
export function hintWords(h, p) {
  const { t } = p;
  return h.hint ? hintText(h.hint, t, (c) => cardName(c, t), p.lang) : hintNoneText(h.reason, t);
}

// ---------------------------------------------------------------- the frame, the rules bar
export function drawFrame(p) {
  document.body.classList.remove("loading");
  $("table").classList.toggle("no-game", !p.state);
}

/** The footer's line: a table of people has no computer to play against (and may have a turn clock). */
export function drawFooter(p) {
  const foot = $("foot-text");
  const key = hasPeople(p.state) || invitedOnly(p) ? "app.footer_people" : "app.footer";
  if (foot.dataset.i18n === key) return;
  foot.dataset.i18n = key;
  foot.textContent = p.t(key);
}

export function drawRules(p) {
  const { t, state: st } = p;
  const box = $("rules-summary");
  const list = $("rules-list");
  $("rules-more").hidden = !st;
  $("rulesbar").hidden = !st;  // no game yet: no rules to show (and the phone's opening screen fits)
  if (!st) { box.textContent = ""; list.replaceChildren(); return; }
  const parts = rulesParts(rulesSummary(st, t), st, t);
  const unused = new Set(st.rules_inactive || []);
  box.replaceChildren(el("b", { text: parts[0] }), ...parts.slice(1).flatMap((x) => [el("span", { class: "sep", "aria-hidden": "true", text: "·" }), " ", x]));
  const rules = st.rules || {};
  list.replaceChildren(...Object.entries(rules).filter(([k]) => k !== "preset").flatMap(([k, v]) => [
    el("dt", { text: fieldLabel(k, t) }), el("dd", { text: unused.has(k) ? t("value.unused") : ruleValue(k, v, t) }),
  ]));
}

function ruleValue(name, v, t) {
  if (v === null || v === undefined) return t("value.off");
  if (v === true) return t("value.yes");
  if (v === false) return t("value.no");
  if (typeof v === "string") return choiceLabel(name, v, t);
  return String(v);
}

// ---------------------------------------------------------------- the opponent, the piles
/** The opponent's seat: its name (and level), its card count, who deals, the cards known to be in its hand. */
/**
 * The page opened from an invite, no table of the person's yet (the join dialog over it): no
 * game against the computer is described behind the dialog (issue 21 item 16).
 */
export const invitedOnly = (p) => !p.state && !!p.invite && !p.loading;

export function opponentView(p) {
  const { t, state: st } = p;
  const tb = currentTable(p);
  const you = st ? st.you ?? 0 : 0;
  const oppSeat = opponentSeat(st);
  const oppEntry = oppSeat !== null ? seatsOf(st).find((x) => x.seat === oppSeat) : null;
  const level = oppEntry ? (oppEntry.kind === "computer" ? oppEntry.level : null) : st && st.level;
  const lvl = level ? ` (${levelName(level, t)})` : "";
  return {
    name: (oppSeat !== null ? playerName(st, oppSeat, t) : invitedOnly(p) ? "" : t("table.computer")) + lvl,
    count: st ? t("table.cards", { n: tb.oppCount }) : "",
    backs: tb.oppCount,
    oppDeals: !(!st || st.dealer === you || (oppSeat !== null && st.dealer !== oppSeat)),
    youDeal: !!st && st.dealer === you,
    known: tb.known || [],
  };
}

export function drawOpponent(p) {
  const v = opponentView(p);
  $("opp-name").textContent = v.name;
  $("opp-count").textContent = v.count;
  $("opp-dealer").hidden = !v.oppDeals;
  $("me-dealer").hidden = !v.youDeal;
  const backs = [];
  for (let i = 0; i < v.backs; i++) backs.push(backEl());
  $("opp-hand").replaceChildren(...backs);
  $("opp-known-wrap").hidden = !v.known.length;
  $("opp-known").replaceChildren(...v.known.map((c) => cardEl(c, p.t, { mini: true, attrs: { role: "listitem" } })));
}

/** The stock and the discard pile: counts, the pile's top cards, whether each may be drawn now, their names. */
export function pilesView(p) {
  const { t, state: st } = p;
  const tb = currentTable(p);
  const idle = !p.busy && !p.animating;
  const canStock = !!findLegal(st, "draw_stock") && idle;
  const cards = tb.pile || [];
  const top = cards[cards.length - 1];
  const canPile = !!(findLegal(st, "draw_discard") || findLegal(st, "take")) && idle;
  return {
    stock: tb.stock, shown: !!st, canStock,
    stockLabel: t("table.stock_label", { n: tb.stock }) + (canStock ? ". " + t("table.draw_hint") : ""),
    pile: cards, top: top || "", canPile,
    pileLabel: top ? t("table.pile_label", { card: cardName(top, t), n: cards.length }) + (canPile ? ". " + t("table.take_hint") : "") : t("table.pile_empty"),
  };
}

export function drawPiles(p) {
  const { t } = p;
  const v = pilesView(p);
  const stock = $("stock");
  $("stock-count").textContent = v.shown ? v.stock : "";
  $("stock-count").hidden = !v.shown;
  stock.classList.toggle("empty", !v.stock);
  stock.disabled = !v.canStock;
  stock.classList.toggle("live", v.canStock);
  stock.setAttribute("aria-label", v.stockLabel);

  const pile = $("discard-pile");
  const cards = v.pile;
  const kids = [];
  if (!cards.length) kids.push(el("span", { class: "empty-slot", "aria-hidden": "true" }));
  if (cards.length > 2) kids.push(cardEl(cards[cards.length - 3], t, { cls: "under2", textIndex: false, attrs: { "aria-hidden": "true" } }));
  if (cards.length > 1) kids.push(cardEl(cards[cards.length - 2], t, { cls: "under1", textIndex: false, attrs: { "aria-hidden": "true" } }));
  if (cards.length) kids.push(cardEl(cards[cards.length - 1], t, { cls: "top", attrs: { "aria-hidden": "true" } }));
  pile.replaceChildren(...kids);
  pile.disabled = !v.canPile;
  pile.classList.toggle("live", v.canPile);
  pile.dataset.top = v.top;
  pile.setAttribute("aria-label", v.pileLabel);
}

// ---------------------------------------------------------------- the status
/** The status line (and its data-phase; reconnecting), the offer's buttons, the hand's number, whether the table is busy. */
export function statusView(p) {
  const { t, state: st } = p;
  const canTake = findLegal(st, "take");
  const canPass = findLegal(st, "pass");
  return {
    phase: uiPhase(st, p.animating),
    // the server cannot be reached: the table stays as it was, and says it is reconnecting
    reconnecting: !!p.reconnecting,
    text: p.reconnecting ? t("friends.reconnecting")
      : invitedOnly(p) ? t("prompt.invite")
      : isWaiting(st) ? t("friends.waiting_title")
        : promptKey(st, p.animating, p.loading) === "prompt.opponent" ? playingText(st, t, p.animating)
          : t(promptKey(st, p.animating, p.loading), { computer: actorName(st, t) }),
    // Pass: the first-turn offer, and the R-8.2 choice on the last discard (phase "draw").
    offerHidden: !(st && (st.phase === "offer" || st.phase === "draw") && (canTake || canPass)) || p.animating,
    takeHidden: !canTake && st?.phase !== "offer",
    takeDisabled: !canTake || p.busy || p.animating,
    passDisabled: !canPass || p.busy || p.animating,
    meta: st ? t("table.hand_no", { n: st.hand_number ?? 1 }) : "",
    busy: !!(p.busy || p.animating),
  };
}

export function drawStatus(p) {
  const v = statusView(p);
  const status = $("status");
  if (v.phase) status.dataset.phase = v.phase;
  else delete status.dataset.phase;
  status.dataset.reconnecting = v.reconnecting ? "true" : "false";
  status.textContent = v.text;
  $("offer").hidden = v.offerHidden;
  $("btn-take").hidden = v.takeHidden;
  $("btn-take").disabled = v.takeDisabled;
  $("btn-pass").disabled = v.passDisabled;
  $("meta-line").textContent = v.meta;
  $("table").setAttribute("aria-busy", v.busy ? "true" : "false");
}

// ---------------------------------------------------------------- the hand
/**
 * The hand as drawn: its groups (melds, deadwood, the spare card; in pro mode one group in the
 * person's order), each with its label, and each card with its tag (the card just drawn or
 * taken), its spoken description and whether it is selected. `{groups, disabled}`; no groups
 * without a state.
 */
export function handView(p) {
  const { t, state: st } = p;
  if (!st) return { groups: [], disabled: false };
  const groups = handGroups(p.order, st, p.settings.pro).map((g, gi) => {
    let label;
    if (g.kind === "meld") label = t(g.run ? "hand.run" : "hand.set");
    else if (g.kind === "deadwood") label = t("hand.deadwood_group");
    else if (g.kind === "free") label = t("hand.pro_group");
    else label = t("hand.spare");
    const cards = g.cards.map((card) => {
      let tag = null;
      if (st.taken_from_discard === card && st.phase === "discard") tag = "taken";
      else if (st.drawn === card && st.phase === "discard") tag = "new";
      const extra = tag ? `, ${t(`hand.${tag}_long`)}` : "";
      return { card, tag, tagText: tag ? t(`hand.${tag}`) : null, description: label + extra, selected: p.selected === card };
    });
    return {
      index: gi, kind: g.kind, meld: g.meld, label, cards,
      aria: g.kind === "meld" ? t("hand.meld_label", { n: g.meld + 1, kind: label }) : label,
    };
  });
  return { groups, disabled: !!(p.busy || p.animating) };
}

export function drawHand(p) {
  const { t } = p;
  const hand = $("hand");
  const active = document.activeElement;
  const focusCard = active && hand.contains(active) ? active.dataset.card : null;
  const focusIndex = focusCard ? [...hand.querySelectorAll(".slot")].indexOf(active) : -1;
  const v = handView(p);
  if (!p.state) { hand.replaceChildren(); drawDeadwood(p); return; }
  hand.replaceChildren(...v.groups.map((g) => {
    const div = el("div", {
      class: `group ${g.kind}${g.kind === "meld" ? " m" + (g.meld % 4) : ""}`, role: "group",
      "aria-label": g.aria, "data-group": g.index,
    });
    for (const c of g.cards) div.append(handCard(c, v.disabled, t));
    div.append(el("div", { class: "group-mark", "aria-hidden": "true" }, el("span", { text: g.label })));
    return div;
  }));
  fitHand();
  drawDeadwood(p);
  drawHint(p);  // the hint's mark on the new cards, before the focus comes back to one
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
function handCard(c, disabled, t) {
  const visAttrs = { "aria-hidden": "true", role: null, "aria-label": null, "data-card": null };
  if (c.tag) visAttrs["data-tag"] = c.tagText;
  const face = cardEl(c.card, t, { cls: c.tag ? `tag-${c.tag}` : "", attrs: visAttrs });
  return el("button", {
    type: "button", class: `slot s-${c.card[1]}`, "data-card": c.card, "aria-label": cardName(c.card, t),
    "aria-pressed": c.selected ? "true" : "false", "aria-description": c.description,
    "aria-disabled": disabled ? "true" : null,
  }, face);
}

/**
 * The hand's cards usable again once nothing is in flight: a hand drawn while an action was in
 * flight (the person sorted it meanwhile) or while another seat's moves were shown loses its
 * aria-disabled marks.
 */
export function drawHandUsable(p) {
  if (p.busy || p.animating) return;
  for (const b of $("hand").querySelectorAll(".slot[aria-disabled]")) b.removeAttribute("aria-disabled");
}

/** The deadwood counter: its words and its mark (gin, a knock allowed), or nothing (pro mode, no arrangement). */
export function deadwoodView(p) {
  const st = p.state;
  if (!st || !st.arrangement || p.settings.pro) return { text: "", cls: "dw-counter" };
  const n = deadwoodOf(st.arrangement);
  const eleven = (st.hand || []).length > 10;
  const limit = st.knock_limit ?? 0;
  return {
    text: p.t(eleven ? "hand.deadwood_after" : "hand.deadwood", { n }),
    cls: "dw-counter" + (n === 0 ? " gin" : limit > 0 && n <= limit ? " ok" : ""),
  };
}

function drawDeadwood(p) {
  const v = deadwoodView(p);
  const box = $("deadwood");
  box.textContent = v.text;
  box.className = v.cls;
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
  if (!cw || !hand.clientWidth) return; // hidden: fitted when it shows (controls.js's observer)
  const avail = hand.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 4;
  const natural = n * cw + (groups - 1) * gap;
  let ov = n > 1 ? Math.ceil((natural - avail) / (n - 1)) : 0;
  ov = Math.max(-4, Math.min(ov, cw - 14));
  hand.style.setProperty("--slot", `${cw - ov}px`);
}

// ---------------------------------------------------------------- the action buttons
/**
 * The buttons under the hand: each one's `disabled` (and big gin's `hidden`), and the reason a
 * knock or gin is not possible now, in words (none in pro mode when the reason names the count).
 */
export function actionsView(p) {
  const { t, state: st } = p;
  const idle = !p.busy && !p.animating;
  const sel = p.selected;
  const canDiscard = !!(st && st.phase === "discard" && sel && findLegal(st, "discard", sel));
  const knocks = legalOfType(st, "knock");
  const gins = legalOfType(st, "gin");
  const explain = !!(st && (st.phase === "draw" || st.phase === "discard") && !p.animating);
  // pro mode counts nothing for the person: no reason that names the deadwood count
  const why = (r) => (p.settings.pro && r && r.deadwood !== undefined ? "" : reasonText(r, t));
  const big = findLegal(st, "big_gin");
  const hasHand = !!(st && p.order.length);
  return {
    discard: !canDiscard || !idle,
    knock: !knocks.length || !idle,
    knockWhy: explain && !knocks.length && st.knock ? why(st.knock.reason) : "",
    gin: !gins.length || !idle,
    ginWhy: explain && !gins.length && st.gin ? why(st.gin.reason) : "",
    bigGinHidden: !(big || (st && st.rules && st.rules.big_gin_bonus)),
    bigGin: !big || !idle,
    hint: !canHint(p),
    sort: !hasHand,
  };
}

export function drawActions(p) {
  const v = actionsView(p);
  $("btn-discard").disabled = v.discard;
  $("btn-knock").disabled = v.knock;
  $("knock-why").textContent = v.knockWhy;
  $("btn-gin").disabled = v.gin;
  $("gin-why").textContent = v.ginWhy;
  $("big-gin-wrap").hidden = v.bigGinHidden;
  $("btn-big-gin").disabled = v.bigGin;
  $("btn-hint").disabled = v.hint;
  $("btn-sort-rank").disabled = v.sort;
  $("btn-sort-suit").disabled = v.sort;
}

// ---------------------------------------------------------------- the score sheet, the commitment
export function drawScore(p) {
  const { t, state: st } = p;
  const body = $("score-body");
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
  const foot = el("p", { class: "target", text: f ? (f.winner === 0 ? t("game.won.you") : named(st) ? t("vt.winner", { name: playerName(st, 1 - you, t) }) : t("game.won.opp")) + (f.margin !== undefined ? ` · ${t("score.margin", { n: f.margin })}` : "") : t("score.target", { n: sc.target }) });
  body.replaceChildren(table, foot);
}

export function drawFair(p) {
  const st = p.state;
  const c = st && st.fairness && st.fairness.commitment;
  const box = $("fair");
  box.textContent = c ? p.t("fair.commitment", { hash: `${c.slice(0, 16)}…` }) : "";
  box.title = c || "";
}

// ---------------------------------------------------------------- the hint
/** The hint shown under the status (its words) and what it marks (model.hintTarget), or nothing. */
export function hintView(p) {
  const h = currentHint(p);
  return { shown: !!h, text: h ? hintWords(h, p) : "", target: h ? hintTarget(h.hint) : null };
}

/** The hint's text under the status, and its mark (an outline and a tag) on what it suggests. */
export function drawHint(p) {
  const { t } = p;
  const v = hintView(p);
  const box = $("hint-text");
  box.hidden = !v.shown;
  box.textContent = v.text;
  for (const e of document.querySelectorAll(".hinted")) {
    e.classList.remove("hinted");
    e.removeAttribute("data-hint");
    if (e.dataset.description !== undefined) { e.setAttribute("aria-description", e.dataset.description); delete e.dataset.description; }
  }
  const target = v.target;
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
