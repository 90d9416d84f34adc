// Unit tests of the game page's state: one store with subscribers, and how each action changes
// the page (store.js; run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import { createStore, initialPage, reduce, sameHand, orderDiffers, DEFAULT_SETTINGS } from "../../src/ginrummy/web/static/store.js";
import { makeT } from "../../src/ginrummy/web/static/i18n.js";

const deal = (over = {}) => ({
  game_id: "g1", hand_number: 1, seq: 3, phase: "discard", you: 0,
  hand: ["2S", "3S", "4S", "9H", "KD", "7C", "7D", "7H", "QC", "AC", "5D"],
  events: [{ seq: 1, type: "deal", hand: 1 }, { seq: 2, type: "draw_stock", seat: 0, hand: 1 }],
  ...over,
});

test("the page starts with no language, the saved settings over the defaults, no game, loading", () => {
  const p = initialPage({ sound: false, speed: "fast" });
  assert.equal(p.lang, null);
  assert.deepEqual(p.settings, { ...DEFAULT_SETTINGS, sound: false, speed: "fast" });
  assert.equal(p.game, null);
  assert.equal(p.state, null);
  assert.equal(p.loading, true);
  assert.deepEqual(initialPage(null).settings, DEFAULT_SETTINGS);
});

test("a store tells its subscribers each change once, with the page before; none when nothing changed", () => {
  const store = createStore(reduce, initialPage());
  const seen = [];
  const stop = store.subscribe((p, prev) => seen.push([p.busy, prev.busy, p.hinting]));
  store.dispatch({ type: "busy", value: true });
  store.dispatch({ type: "busy", value: true });  // the same: no news
  store.dispatch({ type: "busy", value: false }, { type: "hinting", value: true });  // two actions, told once
  assert.deepEqual(seen, [[true, false, false], [false, true, true]]);
  stop();
  store.dispatch({ type: "busy", value: true });
  assert.equal(seen.length, 2);
  assert.equal(store.get().busy, true);
  assert.throws(() => store.dispatch({ type: "no such action" }), /unknown action/);
});

test("taking a seat starts the table afresh: its state, its seq, no selection, no hint, no longer loading", () => {
  let p = { ...initialPage(), selected: "KD", hint: { seq: 1 }, order: ["AS"] };
  const state = deal();
  p = reduce(p, { type: "seat", game: { game_id: "g1", token: "t" }, state });
  assert.deepEqual(p.game, { game_id: "g1", token: "t" });
  assert.equal(p.state, state);
  assert.equal(p.lastSeq, 3);
  assert.deepEqual(p.order, state.hand);
  assert.equal(p.selected, null);
  assert.equal(p.hint, null);
  assert.equal(p.loading, false);
  assert.equal(p.log.complete, true);  // the deal event is there
  assert.deepEqual(p.log.events.map((e) => e.seq), [1, 2]);
});

test("a state of the same deal keeps the person's order; a new deal takes the server's", () => {
  let p = reduce(initialPage(), { type: "seat", game: { game_id: "g1" }, state: deal() });
  const mine = ["KD", "2S", "3S", "4S", "9H", "7C", "7D", "7H", "QC", "AC", "5D"];
  p = reduce(p, { type: "order", order: mine });
  // the person discarded 5D and the opponent moved: 5D leaves, the order of the rest stays
  const next = deal({ seq: 5, phase: "draw", hand: ["2S", "3S", "4S", "9H", "KD", "7C", "7D", "7H", "QC", "AC"] });
  p = reduce(p, { type: "shown", state: next, lastSeq: 5 });
  assert.deepEqual(p.order, ["KD", "2S", "3S", "4S", "9H", "7C", "7D", "7H", "QC", "AC"]);
  assert.equal(p.lastSeq, 5);
  assert.equal(orderDiffers(p), true);  // the page's order is not the server's: it is saved
  const second = deal({ hand_number: 2, seq: 9, hand: ["AS", "2H"], events: [] });
  assert.equal(sameHand(p.state, second), false);
  p = reduce(p, { type: "shown", state: second });
  assert.deepEqual(p.order, ["AS", "2H"]);
  assert.equal(p.lastSeq, 5);  // not given: kept
  assert.equal(orderDiffers(p), false);
});

test("a selection is dropped when its card leaves the hand or the phase has none", () => {
  let p = reduce(initialPage(), { type: "seat", game: { game_id: "g1" }, state: deal() });
  p = reduce(p, { type: "select", card: "KD" });
  assert.equal(p.selected, "KD");
  assert.equal(reduce(p, { type: "shown", state: deal({ seq: 4 }) }).selected, "KD");
  assert.equal(reduce(p, { type: "shown", state: deal({ seq: 4, phase: "opponent" }) }).selected, null);
  assert.equal(reduce(p, { type: "shown", state: deal({ seq: 4, hand: ["2S"] }) }).selected, null);
  assert.equal(reduce(p, { type: "order", order: ["2S", "3S"] }).selected, null);
  assert.equal(reduce(p, { type: "order", order: ["KD", "2S"] }).selected, "KD");
});

test("another seat's moves: the table between events, then the state's own again", () => {
  let p = reduce(initialPage(), { type: "animation", table: { stock: 20 }, logUpTo: 4 });
  assert.equal(p.animating, true);
  assert.deepEqual(p.table, { stock: 20 });
  assert.equal(p.logUpTo, 4);
  p = reduce(p, { type: "animation_end" });
  assert.equal(p.animating, false);
  assert.equal(p.table, null);
  assert.equal(p.logUpTo, null);
});

test("presence changes the seats of the table shown only; the hand's inputs stay the same objects", () => {
  const state = deal({ seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "person", name: "Bo", connected: false }] });
  const p = reduce(initialPage(), { type: "seat", game: { game_id: "g1" }, state });
  const q = reduce(p, { type: "presence", gameId: "g1", seats: [{ seat: 1, connected: true }] });
  assert.equal(q.state.seats[1].connected, true);
  assert.equal(q.state.hand, p.state.hand);
  assert.equal(reduce(p, { type: "presence", gameId: "other", seats: [{ seat: 1, connected: true }] }), p);
  assert.equal(reduce(initialPage(), { type: "presence", gameId: "g1", seats: [] }).state, null);
});

test("the whole deal's log is merged in; forgetting the game leaves no state", () => {
  let p = reduce(initialPage(), { type: "seat", game: { game_id: "g1" }, state: deal({ events: [{ seq: 2, type: "draw_stock", seat: 0, hand: 1 }] }) });
  assert.equal(p.log.complete, false);
  p = reduce(p, { type: "log", state: deal() });
  assert.equal(p.log.complete, true);
  p = reduce(p, { type: "forget" });
  assert.equal(p.game, null);
  assert.equal(p.state, null);
  assert.equal(p.lastSeq, 0);
});

test("language, settings, meta, knock preview and hint are kept as given", () => {
  const t = makeT({ "app.title": "Gin" });
  let p = reduce(initialPage(), { type: "language", lang: "id", t });
  assert.equal(p.lang, "id");
  assert.equal(p.t, t);
  const before = p.settings;
  p = reduce(p, { type: "settings", settings: { pro: true } });
  assert.equal(p.settings.pro, true);
  assert.equal(p.settings.sound, true);
  assert.notEqual(p.settings, before);  // a new object: the views see the change
  p = reduce(p, { type: "meta", meta: { levels: ["easy"] } });
  assert.deepEqual(p.meta, { levels: ["easy"] });
  p = reduce(p, { type: "knock", choice: { card: "KD" } });
  assert.deepEqual(p.knockChoice, { card: "KD" });
  p = reduce(p, { type: "hint", hint: { seq: 3 } });
  assert.deepEqual(p.hint, { seq: 3 });
  assert.equal(reduce(p, { type: "loading", loading: p.loading }), p);
});

test("the live connection's state and the invite answered are kept; the same state is no news", () => {
  let p = reduce(initialPage(), { type: "conn", conn: "reconnecting" });
  assert.equal(p.conn, "reconnecting");
  assert.equal(reduce(p, { type: "conn", conn: "reconnecting" }), p);
  p = reduce(p, { type: "invite", invite: { code: "abcd", data: null, problem: "No such table" } });
  assert.deepEqual(p.invite, { code: "abcd", data: null, problem: "No such table" });
});

// issue 21 item 9: at a table of people anyone's Next hand starts the next deal for everyone;
// each person leaves the result when they choose
const people = (over = {}) => deal({
  seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "person", name: "Bo" }], ...over,
});

test("someone else's Next hand: the result stays shown, the next deal is kept aside until the person goes on", () => {
  const over = people({ phase: "hand-over", seq: 30, result: { kind: "knock" } });
  let p = reduce(initialPage(), { type: "seat", game: { game_id: "g1", token: "t" }, state: over });
  const next = people({ hand_number: 2, seq: 32, phase: "opponent", hand: ["AS"], events: [{ seq: 31, type: "deal", hand: 2 }] });
  p = reduce(p, { type: "shown", state: next, lastSeq: 32 });
  assert.equal(p.state, over);        // the result stays on screen
  assert.equal(p.ahead, next);        // the next deal is known
  assert.equal(p.lastSeq, 32);        // and its events are not asked for again
  const later = people({ ...next, seq: 34, phase: "draw" });
  p = reduce(p, { type: "shown", state: later, lastSeq: 34 });
  assert.equal(p.state, over);
  assert.equal(p.ahead, later);       // the newest of it
  p = reduce(p, { type: "presence", gameId: "g1", seats: [{ seat: 1, connected: false }] });
  assert.equal(p.ahead.seats[1].connected, false);
  p = reduce(p, { type: "go_ahead" });
  assert.equal(p.state.hand_number, 2);
  assert.equal(p.state.phase, "draw");
  assert.equal(p.ahead, null);
  assert.equal(p.log.hand, 2);
  assert.deepEqual(p.order, ["AS"]);
  assert.equal(reduce(p, { type: "go_ahead" }), p);  // nothing kept aside: no news
});

test("the person's own Next hand shows the next deal at once; so does a table against the computer", () => {
  const over = people({ phase: "hand-over", seq: 30 });
  const next = people({ hand_number: 2, seq: 32, phase: "draw" });
  let p = reduce(initialPage(), { type: "seat", game: { game_id: "g1", token: "t" }, state: over });
  p = reduce(p, { type: "leaving" });
  p = reduce(p, { type: "shown", state: people({ ...over, seq: 31 }) });  // the same deal meanwhile
  assert.equal(p.leaving, true);
  p = reduce(p, { type: "shown", state: next, lastSeq: 32 });
  assert.equal(p.state, next);
  assert.equal(p.ahead, null);
  assert.equal(p.leaving, false);     // the next result is kept again
  const solo = (o) => deal({ seats: [{ seat: 0, kind: "person" }, { seat: 1, kind: "computer" }], ...o });
  p = reduce(initialPage(), { type: "seat", game: { game_id: "g1", token: "t" }, state: solo({ phase: "hand-over" }) });
  p = reduce(p, { type: "shown", state: solo({ hand_number: 2, seq: 9 }) });
  assert.equal(p.state.hand_number, 2);
  assert.equal(p.ahead, null);
  // a deal in play is never held; a new table (another game) is never held
  p = reduce(initialPage(), { type: "seat", game: { game_id: "g1", token: "t" }, state: people({ phase: "opponent" }) });
  assert.equal(reduce(p, { type: "shown", state: next }).state, next);
  p = reduce(initialPage(), { type: "seat", game: { game_id: "g1", token: "t" }, state: over });
  const other = people({ game_id: "g2", hand_number: 1, seq: 1 });
  assert.equal(reduce(p, { type: "shown", state: other }).state, other);
});

test("taking a seat answers the invite: the page is no longer one opened from an invite", () => {
  const st = { game_id: "g", seq: 1, phase: "draw", you: 1, hand: [], legal: [] };
  let p = reduce(initialPage(), { type: "invite", invite: { code: "c", data: null, problem: null } });
  p = reduce(p, { type: "seat", game: { game_id: "g", token: "x" }, state: st });
  assert.equal(p.invite, null);
});
