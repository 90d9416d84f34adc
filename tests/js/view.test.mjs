// Unit tests of which parts of the game page redraw when its state changes (view.js partsToDraw;
// run: node --test tests/js/): each part is drawn from its own inputs, so a change leaves the
// others alone (the hand keeps its focus while the seats show who is connected).
import test from "node:test";
import assert from "node:assert/strict";
import { partsToDraw } from "../../src/ginrummy/web/static/view.js";
import { initialPage, reduce } from "../../src/ginrummy/web/static/store.js";
import { makeT } from "../../src/ginrummy/web/static/i18n.js";

const state = {
  game_id: "g1", hand_number: 1, seq: 4, phase: "discard", you: 0,
  hand: ["2S", "3S", "4S", "9H", "KD", "7C", "7D", "7H", "QC", "AC", "5D"],
  arrangement: { melds: [["2S", "3S", "4S"], ["7C", "7D", "7H"]], deadwood: ["9H", "KD", "QC", "AC"] },
  seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "person", name: "Bo", connected: false }],
  events: [{ seq: 1, type: "deal", hand: 1 }],
};
const t = makeT({});
const start = reduce(reduce(initialPage(), { type: "language", lang: "en", t }), { type: "seat", game: { game_id: "g1", token: "x" }, state });
const after = (...actions) => actions.reduce(reduce, start);

test("nothing is drawn before the page has its words; everything at first and after a change of language", () => {
  assert.deepEqual(partsToDraw(initialPage(), null), []);
  const all = partsToDraw(start, null);
  assert.ok(all.length > 20 && all[0] === "frame", all);
  assert.deepEqual(partsToDraw(start, initialPage()), all);  // the page got its words
  assert.deepEqual(partsToDraw(reduce(start, { type: "language", lang: "id", t: makeT({}) }), start), all);
  assert.deepEqual(partsToDraw(reduce(start, { type: "meta", meta: { languages: ["en", "id"] } }), start), all);
  assert.deepEqual(partsToDraw(reduce(start, { type: "meta", meta: { levels: ["easy"] } }), start), ["seats"]);
});

test("selecting a card redraws the hand, its buttons and the hint's mark, nothing else", () => {
  assert.deepEqual(partsToDraw(after({ type: "select", card: "KD" }), start), ["hand", "actions", "hint"]);
});

test("who is connected redraws what shows the state, never the hand nor the hint's mark", () => {
  const parts = partsToDraw(after({ type: "presence", gameId: "g1", seats: [{ seat: 1, connected: true }] }), start);
  assert.ok(parts.includes("seats"), parts);
  assert.ok(!parts.includes("hand") && !parts.includes("hint") && !parts.includes("hand-usable"), parts);
});

test("an action in flight redraws the piles, the status, the buttons and the seats; its end makes the hand usable", () => {
  const busy = after({ type: "busy", value: true });
  assert.deepEqual(partsToDraw(busy, start), ["piles", "status", "hand-usable", "actions", "next-hand", "seats"]);
  assert.deepEqual(partsToDraw(reduce(busy, { type: "busy", value: false }), busy), ["piles", "status", "hand-usable", "actions", "next-hand", "seats"]);
});

test("another seat's moves shown one by one redraw the table between events, the log following", () => {
  const a = after({ type: "animation", table: { stock: 20, pile: [], oppCount: 10, known: [] }, logUpTo: 1 });
  const b = reduce(a, { type: "animation", table: { stock: 19, pile: [], oppCount: 11, known: [] }, logUpTo: 2 });
  assert.deepEqual(partsToDraw(b, a), ["opponent", "piles", "pile-button", "log"]);
});

test("a new order of the hand, the live connection's state, a hint and a knock previewed each redraw their own parts", () => {
  assert.deepEqual(partsToDraw(after({ type: "order", order: [...state.hand].reverse() }), start), ["hand", "actions", "hint"]);
  assert.deepEqual(partsToDraw(after({ type: "conn", conn: "reconnecting" }), start), ["connection"]);
  assert.deepEqual(partsToDraw(after({ type: "hint", hint: { seq: 4 } }), start), ["hint"]);
  assert.deepEqual(partsToDraw(after({ type: "knock", choice: { card: "KD" } }), start), ["knock"]);
  // an invite with no table of the person's: the table and footer behind the dialog change (invitedOnly)
  assert.deepEqual(partsToDraw(after({ type: "invite", invite: { code: "c" } }), start), ["opponent", "status", "footer", "join"]);
  assert.deepEqual(partsToDraw(after({ type: "settings", settings: { pro: true } }), start), ["hand", "actions", "hint"]);
});
