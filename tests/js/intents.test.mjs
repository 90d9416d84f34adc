// Unit tests of what the person's intents mean at the table shown: keys, the legal action each
// sends, a click on a card, the hand's order after a card or a meld moves (intents.js; run:
// node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import { keyIntent, actionFor, discardRefusal, cardClick, shiftCard, dropCard, idle } from "../../src/ginrummy/web/static/intents.js";
import { handGroups } from "../../src/ginrummy/web/static/model.js";
import { initialPage } from "../../src/ginrummy/web/static/store.js";

const legal = [
  { action: "discard 7C", type: "discard", card: "7C" },
  { action: "discard KD", type: "discard", card: "KD" },
  { action: "gin 7C", type: "gin", card: "7C" },
  { action: "gin KD", type: "gin", card: "KD" },
];
const page = (state, over = {}) => ({ ...initialPage(), state, ...over });

test("each shortcut names one intent, in either case; other keys none", () => {
  assert.deepEqual(keyIntent("s"), { type: "draw_stock" });
  assert.deepEqual(keyIntent("S"), { type: "draw_stock" });
  assert.deepEqual(keyIntent("d"), { type: "draw_pile" });
  assert.deepEqual(keyIntent("t"), { type: "play", kind: "take" });
  assert.deepEqual(keyIntent("p"), { type: "play", kind: "pass" });
  assert.deepEqual(keyIntent("n"), { type: "play", kind: "next_hand" });
  assert.deepEqual(keyIntent("b"), { type: "play", kind: "big_gin" });
  assert.deepEqual(keyIntent("Delete"), { type: "discard_selected" });
  assert.deepEqual(keyIntent("x"), { type: "discard_selected" });
  assert.deepEqual(keyIntent("r"), { type: "sort", by: "rank" });
  assert.deepEqual(keyIntent("u"), { type: "sort", by: "suit" });
  assert.deepEqual(keyIntent("?"), { type: "help" });
  assert.equal(keyIntent("z"), null);
  assert.equal(keyIntent("Enter"), null);
});

test("an intent sends only an action the server listed", () => {
  const draw = { phase: "draw", legal: [{ action: "draw stock", type: "draw_stock" }, { action: "draw discard", type: "draw_discard" }] };
  assert.equal(actionFor(page(draw), { type: "draw_stock" }).action, "draw stock");
  assert.equal(actionFor(page(draw), { type: "draw_pile" }).action, "draw discard");
  const offer = { phase: "offer", legal: [{ action: "take", type: "take" }, { action: "pass", type: "pass" }] };
  assert.equal(actionFor(page(offer), { type: "draw_pile" }).action, "take");  // the pile at the offer: take the upcard
  assert.equal(actionFor(page(offer), { type: "play", kind: "pass" }).action, "pass");
  assert.equal(actionFor(page(offer), { type: "draw_stock" }), null);
  const discard = { phase: "discard", legal };
  assert.equal(actionFor(page(discard), { type: "discard", card: "KD" }).action, "discard KD");
  assert.equal(actionFor(page(discard), { type: "discard", card: "2H" }), null);
  assert.equal(actionFor(page(discard), { type: "discard", card: null }), null);
  assert.equal(actionFor(page(discard, { selected: "KD" }), { type: "gin" }).action, "gin KD");
  assert.equal(actionFor(page(null), { type: "draw_stock" }), null);
  assert.equal(actionFor(page(discard), { type: "knock" }), null);
});

test("why a card cannot be discarded: none selected, draw first, just taken, or not allowed", () => {
  const discard = { phase: "discard", legal, taken_from_discard: "9S" };
  assert.deepEqual(discardRefusal(page(discard), null), { key: "error.select_first" });
  assert.equal(discardRefusal(page(discard), "KD"), null);
  assert.deepEqual(discardRefusal(page(discard), "9S"), { key: "error.taken", card: "9S" });
  assert.deepEqual(discardRefusal(page(discard), "2H"), { key: "error.cannot_discard" });
  assert.deepEqual(discardRefusal(page({ phase: "draw", legal: [] }), "KD"), { key: "reason.draw_first" });
});

test("a click on a card selects it, again on it discards it (or unselects it before the draw); none while busy", () => {
  const discard = { phase: "discard", legal };
  assert.deepEqual(cardClick(page(discard), "KD"), { select: "KD" });
  assert.deepEqual(cardClick(page(discard, { selected: "7C" }), "KD"), { select: "KD" });
  assert.deepEqual(cardClick(page(discard, { selected: "KD" }), "KD"), { discard: "KD" });
  assert.deepEqual(cardClick(page({ phase: "draw", legal: [] }, { selected: "KD" }), "KD"), { select: null });
  assert.equal(cardClick(page(discard, { busy: true }), "KD"), null);
  assert.equal(cardClick(page(discard, { animating: true }), "KD"), null);
  assert.equal(cardClick(page(null), "KD"), null);
  assert.equal(idle(page(discard)), true);
});

// a hand as drawn: a run 3S4S5S, a set of sevens, deadwood KD 2H
const arrangement = { melds: [["3S", "4S", "5S"], ["7C", "7D", "7H"]], deadwood: ["KD", "2H"] };
const order = ["7C", "7D", "7H", "KD", "3S", "4S", "5S", "2H"];
const st = { hand: order, arrangement };
const groups = handGroups(order, st);

test("the hand's groups as drawn: melds in the order of their first card, then the deadwood; pro mode one group", () => {
  assert.deepEqual(groups.map((g) => [g.kind, g.cards]), [
    ["meld", ["7C", "7D", "7H"]], ["meld", ["3S", "4S", "5S"]], ["deadwood", ["KD", "2H"]]]);
  assert.deepEqual(handGroups(order, st, true), [{ kind: "free", cards: order }]);
});

test("Shift + arrow: a card trades places in its set or the deadwood; a run turns; a meld's end moves the meld", () => {
  assert.deepEqual(shiftCard(order, groups, "7D", 1), { order: ["7C", "7H", "7D", "KD", "3S", "4S", "5S", "2H"], said: null });
  assert.deepEqual(shiftCard(order, groups, "KD", 1), { order: ["7C", "7D", "7H", "2H", "3S", "4S", "5S", "KD"], said: null });
  assert.deepEqual(shiftCard(order, groups, "4S", 1), { order: ["7C", "7D", "7H", "KD", "5S", "4S", "3S", "2H"], said: "hand.run_turned" });
  // the set's last card to the right: the set moves past the run
  assert.deepEqual(shiftCard(order, groups, "7H", 1), { order: ["KD", "3S", "4S", "5S", "7C", "7D", "7H", "2H"], said: "hand.meld_moved" });
  assert.deepEqual(shiftCard(order, groups, "3S", -1), { order: ["3S", "4S", "5S", "7C", "7D", "7H", "KD", "2H"], said: "hand.meld_moved" });
  assert.equal(shiftCard(order, groups, "7C", -1), null);  // the first meld has none before it
  assert.equal(shiftCard(order, groups, "2H", 1), null);   // the deadwood's end does not move
  assert.equal(shiftCard(order, groups, "AS", 1), null);   // not in the hand
});

test("a dropped card goes where it is dropped; a run's card in its run turns it; a meld's card on another meld takes the meld", () => {
  assert.deepEqual(dropCard(order, groups, "KD", "7C", false), ["KD", "7C", "7D", "7H", "3S", "4S", "5S", "2H"]);
  assert.deepEqual(dropCard(order, groups, "KD", "2H", true), ["7C", "7D", "7H", "3S", "4S", "5S", "2H", "KD"]);
  assert.deepEqual(dropCard(order, groups, "3S", "5S", true), ["7C", "7D", "7H", "KD", "5S", "4S", "3S", "2H"]);
  assert.deepEqual(dropCard(order, groups, "7D", "5S", true), ["KD", "3S", "4S", "5S", "7C", "7D", "7H", "2H"]);
  assert.deepEqual(dropCard(order, groups, "4S", "7C", false), ["3S", "4S", "5S", "7C", "7D", "7H", "KD", "2H"]);
  // a set's card dropped in its own set: it moves within the set
  assert.deepEqual(dropCard(order, groups, "7C", "7H", true), ["7D", "7H", "7C", "KD", "3S", "4S", "5S", "2H"]);
});
