// What the person does with the table: clicks and keys on cards and piles, the knock dialog, the
// keyboard help, dragging cards to reorder. Each action goes to app.js's `act`.

import { sortByRank, sortBySuit, moveCard, moveGroup, swapCards, turnRun } from "./cards.js";
import { cardName } from "./i18n.js";
import { findLegal, legalOfType, chooseKnock, chooseGin } from "./model.js";
import { $, el, cardEl, toast } from "./page.js";
import { S, announce, sound, t } from "./session.js";
import { askHint, isRunMeld, renderActions, renderHand, sortForShow } from "./render.js";
import { act, saveOrder } from "./app.js";

// ---------------------------------------------------------------- person's actions
export function onCardClick(card) {
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

export function tryDiscard(card) {
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

export function clickStock() {
  const a = findLegal(S.state, "draw_stock");
  if (a) act(a.action);
}

export function clickPile() {
  const a = findLegal(S.state, "draw_discard") || findLegal(S.state, "take");
  if (a) act(a.action);
}

export function clickType(type) {
  const a = findLegal(S.state, type);
  if (a) act(a.action);
}

export function clickGin() {
  const a = chooseGin(S.state, S.selected);
  if (a && !S.busy && !S.animating) { sound("gin"); act(a.action); }
}

export function sortHand(by) {
  if (!S.state || !S.order.length) return;
  S.order = by === "rank" ? sortByRank(S.order) : sortBySuit(S.order);
  renderHand();
  saveOrder();
  announce(() => t(by === "rank" ? "hand.sorted_rank" : "hand.sorted_suit"));
}

/**
 * Shift + arrow on a card of the hand: inside a group it trades places with its neighbour (a set,
 * the deadwood); a run turns around (it stays a run, high to low or low to high); at the end of a
 * meld the whole meld moves past the next meld. Only the order is kept (PUT .../order).
 */
/** The card of `cards` that comes first in the person's order (a meld's place in the hand). */
const firstInOrder = (cards) => cards.reduce((a, c) => (S.order.indexOf(c) < S.order.indexOf(a) ? c : a));

function shiftCard(card, dir) {
  const slot = $("hand").querySelector(`.slot[data-card="${card}"]`);
  const group = slot && slot.closest(".group");
  if (!group) return;
  const inGroup = [...group.querySelectorAll(".slot")].map((c) => c.dataset.card);
  const j = inGroup.indexOf(card) + dir;
  const isMeld = group.classList.contains("meld");
  if (j >= 0 && j < inGroup.length) {
    if (isMeld && isRunMeld(inGroup)) {
      S.order = turnRun(S.order, inGroup);
      announce(t("hand.run_turned"));
    } else {
      S.order = swapCards(S.order, card, inGroup[j]);
    }
  } else if (isMeld) {
    const melds = [...$("hand").querySelectorAll(".group.meld")];
    const other = melds[melds.indexOf(group) + dir];
    if (!other) return;
    const theirs = [...other.querySelectorAll(".slot")].map((c) => c.dataset.card);
    S.order = dir < 0 ? moveGroup(S.order, inGroup, { before: firstInOrder(theirs) }) : moveGroup(S.order, inGroup, { after: theirs });
    announce(t("hand.meld_moved"));
  } else {
    return;
  }
  renderHand();
  saveOrder();
  const b = $("hand").querySelector(`.slot[data-card="${card}"]`);
  if (b) b.focus();
}

// ---------------------------------------------------------------- knock dialog
export function openKnock() {
  if (S.busy || S.animating) return;
  const k = chooseKnock(S.state, S.selected);
  if (!k) return;
  S.knockChoice = k;
  renderKnockDialog();
  $("dlg-knock").showModal();
  $("knock-confirm").focus();
}

export function renderKnockDialog() {
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

// ---------------------------------------------------------------- help (keyboard)
const KEYS = [
  ["←  →", "keys.arrows"], ["Enter / Space", "keys.select"], ["Shift + ←  →", "keys.move"],
  ["S", "keys.stock"], ["D", "keys.pile"], ["T", "keys.take"], ["P", "keys.pass"], ["X", "keys.discard"],
  ["K", "keys.knock"], ["G", "keys.gin"], ["B", "keys.big_gin"], ["N", "keys.next"], ["R", "keys.sort_rank"],
  ["U", "keys.sort_suit"], ["I", "keys.hint"], ["H / ?", "keys.help"], ["Esc", "keys.escape"],
];

export function renderHelpKeys() {
  $("help-keys").replaceChildren(...KEYS.flatMap(([k, key]) => [el("dt", {}, ...k.split(" ").filter(Boolean).map((p, i) => (p === "/" || p === "+" ? ` ${p} ` : el("kbd", { text: p })))), el("dd", { text: t(key) })]));
  const shortcuts = { "btn-knock": "K", "btn-gin": "G", "btn-big-gin": "B", "btn-discard": "X", stock: "S", "discard-pile": "D", "btn-take": "T", "btn-pass": "P", "btn-next": "N", "btn-sort-rank": "R", "btn-sort-suit": "U", "btn-hint": "I" };
  for (const [id, k] of Object.entries(shortcuts)) { $(id).setAttribute("aria-keyshortcuts", k); $(id).title = `${t(`keys.${keyName(id)}`)} (${k})`; }
}
function keyName(id) {
  return { "btn-knock": "knock", "btn-gin": "gin", "btn-big-gin": "big_gin", "btn-discard": "discard", stock: "stock", "discard-pile": "pile", "btn-take": "take", "btn-pass": "pass", "btn-next": "next", "btn-sort-rank": "sort_rank", "btn-sort-suit": "sort_suit", "btn-hint": "hint" }[id];
}

export function onKey(e) {
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
export function onPointerDown(e) {
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

export function onPointerMove(e) {
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

/**
 * The order after a card is dropped by `tgt` (the nearest card, before or after it): a card of a
 * run dropped in its run turns the run around; a meld's card dropped on another meld takes its
 * whole meld there; any other card goes where it is dropped (its group stays the one the
 * server's arrangement gives it).
 */
function dropOrder(group, card, tgt) {
  const cards = (g) => [...g.querySelectorAll(".slot")].map((c) => c.dataset.card);
  const to = tgt.c.closest(".group");
  if (group && group.classList.contains("meld")) {
    const mine = cards(group);
    if (to === group && isRunMeld(mine)) return turnRun(S.order, mine);
    if (to !== group && to && to.classList.contains("meld")) {
      const theirs = cards(to);
      return tgt.after ? moveGroup(S.order, mine, { after: theirs }) : moveGroup(S.order, mine, { before: firstInOrder(theirs) });
    }
  }
  const without = S.order.filter((c) => c !== card);
  return moveCard(S.order, card, without.indexOf(tgt.c.dataset.card) + (tgt.after ? 1 : 0));
}

export function onPointerUp(e) {
  const d = S.drag;
  S.drag = null;
  if (!d || !d.moved) return;
  d.el.style.transform = "";
  d.el.classList.remove("dragging");
  const tgt = dropTarget(e.clientX, d.card);
  if (tgt) {
    S.order = dropOrder(d.el.closest(".group"), d.card, tgt);
    saveOrder();
  }
  S.suppressClick = true;
  setTimeout(() => { S.suppressClick = false; }, 0);
  renderHand();
}
