// The one place where the game page's DOM events become the person's intents (intents.js names
// them; session.js carries them out): clicks and keys on cards, piles and buttons, dragging a
// card to reorder the hand, the dialogs' buttons and fields, the settings, the language. What
// only moves the focus or opens a dialog that shows what is already known (help, settings, the
// whole discard pile) is done here; the new-game form's own fields follow each other here too.

import { keyIntent } from "./intents.js";
import { $ } from "./page.js";
import { fitHand } from "./render.js";
import { openPileDialog } from "./movelog.js";
import { onFieldChange, onPresetChange, onScoringChange, updatePresetNote } from "./dialogs.js";
import { buildSeatChoices, copyInvite, onKindChange, shareInvite } from "./friends.js";
import { remembered } from "./storage.js";
import { focusAfterDialog, focusLost } from "./focus.js";

/**
 * Listen to the page: `send(intent)` carries an intent out (a promise of its end); `get()` is the
 * page's state now (read only: to know what a key means, to draw a dialog).
 */
export function wireControls({ send, get }) {
  const on = (id, type, fn) => $(id).addEventListener(type, fn);
  const click = (id, intent) => on(id, "click", () => send(intent));
  let drag = null;            // a card being dragged: {card, el, x0, y0, moved, id}
  let suppressClick = false;  // the click that ends a drag is not a selection

  // ---------------------------------------------------------------- the table
  click("stock", { type: "draw_stock" });
  click("discard-pile", { type: "draw_pile" });
  click("btn-take", { type: "play", kind: "take" });
  click("btn-pass", { type: "play", kind: "pass" });
  click("btn-big-gin", { type: "play", kind: "big_gin", sound: "gin" });
  click("btn-next", { type: "play", kind: "next_hand" });
  click("btn-go-next", { type: "play", kind: "next_hand" });
  on("btn-discard", "click", () => send({ type: "discard_selected" }));
  click("btn-knock", { type: "knock" });
  click("btn-gin", { type: "gin" });
  click("btn-sort-rank", { type: "sort", by: "rank" });
  click("btn-sort-suit", { type: "sort", by: "suit" });
  // the button is disabled while the hint is asked: focus comes back to it after
  on("btn-hint", "click", async () => { await send({ type: "hint" }); if (focusLost() && !$("btn-hint").disabled) $("btn-hint").focus(); });
  on("btn-pile", "click", () => openPileDialog(get()));
  on("hand", "click", (e) => {
    const slot = e.target.closest && e.target.closest(".slot");
    if (slot && !suppressClick) send({ type: "select", card: slot.dataset.card });
  });

  // ---------------------------------------------------------------- the knock dialog
  on("knock-choices", "click", (e) => {
    const b = e.target.closest && e.target.closest("[data-card]");
    if (b) send({ type: "knock_choose", card: b.dataset.card });
  });
  on("form-knock", "submit", (e) => { e.preventDefault(); send({ type: "knock_confirm" }); });
  on("knock-cancel", "click", () => $("dlg-knock").close());

  // ---------------------------------------------------------------- new game, leaving, games in progress
  click("btn-again", { type: "new_game_dialog" });
  click("btn-first-deal", { type: "new_game_dialog" });
  click("btn-new", { type: "new_game" });
  on("leave-keep", "click", () => $("dlg-leave").close());
  on("leave-later", "click", () => { $("dlg-leave").close(); send({ type: "new_game_dialog" }); });
  click("leave-resign", { type: "resign_shown" });
  on("resume-list", "click", (e) => {
    const b = e.target.closest && e.target.closest("button");
    const li = b && b.closest("li[data-game]");
    if (!li) return;
    if (b.dataset.testid === "resume-game") send({ type: "resume", gameId: li.dataset.game });
    else if (b.dataset.testid === "resign-game") send({ type: "resign_listed", gameId: li.dataset.game });
  });
  on("form-new", "submit", (e) => { e.preventDefault(); send({ type: "start_game" }); });
  on("new-cancel", "click", () => $("dlg-new").close());
  on("new-preset", "change", () => onPresetChange(get()));
  on("new-scoring", "change", () => onScoringChange(get()));
  on("new-kind", "change", () => updatePresetNote(get()));
  on("new-fields", "change", (e) => onFieldChange(get(), e.target));
  on("new-fields", "input", (e) => { if (e.target.id === "f-target") updatePresetNote(get()); });

  // ---------------------------------------------------------------- tables of people (docs/tables.md)
  on("new-kind", "change", () => onKindChange(get(), remembered()));
  on("new-scoring", "change", () => { if ($("new-kind").value === "friends") buildSeatChoices(get(), remembered().newGame); });
  click("btn-start-table", { type: "start_table" });
  on("btn-copy", "click", () => copyInvite(get().t));
  on("btn-copy-rejoin", "click", () => copyInvite(get().t, "rejoin-link"));
  on("btn-share", "click", () => shareInvite(get().t));
  click("btn-take-back", { type: "take_back" });
  click("btn-leave", { type: "leave_table" });
  click("btn-rematch", { type: "rematch" });
  on("waiting-seats", "change", (e) => {
    const row = e.target.matches("select[data-testid^=seat-kind-]") && e.target.closest("li[data-seat]");
    if (row) send({ type: "set_seat", seat: Number(row.dataset.seat), choice: e.target.value });
  });
  on("seat-chips", "click", (e) => {
    const b = e.target.closest && e.target.closest("[data-testid=hand-to-computer]");
    if (b) send({ type: "hand_to_computer", seat: Number(b.dataset.seat) });
  });
  on("quick-list", "click", (e) => {
    const b = e.target.closest && e.target.closest("button[data-testid^=quick-]");
    if (!b) return;
    $("quick").open = false;
    send({ type: "quick", code: b.dataset.testid.slice("quick-".length) });
  });
  on("form-join", "submit", (e) => { e.preventDefault(); send({ type: "join" }); });
  on("join-name", "input", () => $("join-name").removeAttribute("aria-invalid"));
  click("join-new", { type: "leave_invite" });
  on("dlg-join", "cancel", (e) => { if (!get().state) e.preventDefault(); });
  // the browser knows first when the network goes and comes back
  window.addEventListener("offline", () => send({ type: "offline" }));
  window.addEventListener("online", () => send({ type: "online" }));

  // ---------------------------------------------------------------- the header, settings, language
  click("btn-stats", { type: "stats" });
  on("btn-settings", "click", () => $("dlg-settings").showModal());
  on("btn-help", "click", () => $("dlg-help").showModal());
  on("lang-select", "change", (e) => send({ type: "language", lang: e.target.value }));
  for (const [id, key] of [["set-sound", "sound"], ["set-anim", "animations"], ["set-four", "fourColour"], ["set-large", "largeCards"], ["set-pro", "pro"]]) {
    on(id, "change", (e) => send({ type: "setting", key, value: e.target.checked }));
  }
  on("set-speed", "change", (e) => send({ type: "setting", key: "speed", value: e.target.value }));

  // ---------------------------------------------------------------- focus when a dialog closes
  let before = null;
  document.addEventListener("focusin", (e) => {
    if (!e.target.closest || !e.target.closest("dialog")) before = e.target;
  });
  for (const dlg of document.querySelectorAll("dialog")) dlg.addEventListener("close", () => focusAfterDialog(dlg, before, get()));

  // ---------------------------------------------------------------- keys
  document.addEventListener("keydown", (e) => onKey(e, send, get));

  // ---------------------------------------------------------------- drag to reorder (optional)
  const hand = $("hand");
  hand.addEventListener("pointerdown", (e) => {
    const c = e.target.closest(".slot");
    if (!c || e.button !== 0 || !hand.contains(c)) return;
    drag = { card: c.dataset.card, el: c, x0: e.clientX, y0: e.clientY, moved: false, id: e.pointerId };
  });
  window.addEventListener("pointermove", (e) => {
    const d = drag;
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
    for (const c of hand.querySelectorAll(".drop-before")) c.classList.remove("drop-before");
    const tgt = dropTarget(e.clientX, d.card);
    if (tgt && !tgt.after) tgt.c.classList.add("drop-before");
  });
  window.addEventListener("pointerup", (e) => {
    const d = drag;
    drag = null;
    if (!d || !d.moved) return;
    d.el.style.transform = "";
    d.el.classList.remove("dragging");
    for (const c of hand.querySelectorAll(".drop-before")) c.classList.remove("drop-before");
    const tgt = dropTarget(e.clientX, d.card);
    if (tgt) send({ type: "drop", card: d.card, target: tgt.c.dataset.card, after: tgt.after });
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
  });
  window.addEventListener("pointercancel", () => { if (drag) { drag.el.style.transform = ""; drag.el.classList.remove("dragging"); drag = null; } });

  // ---------------------------------------------------------------- the hand's width
  window.addEventListener("resize", () => requestAnimationFrame(fitHand));
  // The hand may be laid out while hidden (a table of people waiting for its start): fit it
  // again whenever its width changes, including when it first shows.
  if (typeof ResizeObserver === "function") {
    let width = -1;
    new ResizeObserver(() => {
      if (hand.clientWidth !== width) { width = hand.clientWidth; requestAnimationFrame(fitHand); }
    }).observe(hand);
  }
}

/** The card nearest to `x` other than the one dragged, and whether `x` is on its right half. */
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

/** A key: the arrows move among the hand's cards (Shift: the card or its meld moves), a letter is its intent. */
function onKey(e, send, get) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const hand = $("hand");
  const cardBtn = e.target.closest && e.target.closest("#hand .slot");
  if (cardBtn && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) {
    e.preventDefault();
    if (e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) { send({ type: "shift", card: cardBtn.dataset.card, dir: e.key === "ArrowLeft" ? -1 : 1 }); return; }
    const cards = [...hand.querySelectorAll(".slot")];
    const i = cards.indexOf(cardBtn);
    const j = e.key === "Home" ? 0 : e.key === "End" ? cards.length - 1 : i + (e.key === "ArrowLeft" ? -1 : 1);
    if (cards[j]) cards[j].focus();
    return;
  }
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    if (e.target === document.body || e.target === hand) { const c = hand.querySelector(".slot"); if (c) { e.preventDefault(); c.focus(); } }
    return;
  }
  if (e.shiftKey && e.key !== "?") return;
  const intent = keyIntent(e.key);
  if (!intent) return;
  if (intent.type === "discard_selected" && !get().selected) return;
  e.preventDefault();
  // a shortcut for a button does what the button does, only when the button may be used
  if (intent.type === "knock" && $("btn-knock").disabled) return;
  if (intent.type === "gin" && $("btn-gin").disabled) return;
  if (intent.type === "play" && intent.kind === "big_gin" && $("btn-big-gin").disabled) return;
  if (intent.type === "help") { $("dlg-help").showModal(); return; }
  send(intent);
}
