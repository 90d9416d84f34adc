// Unit tests of the move log and the discard pile's view (model.js; run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import { mergeMoveLog, publicLogEvent, logEntries, pileCards } from "../../src/ginrummy/web/static/model.js";

const deal = (seq, hand = 1) => ({ seq, hand, seat: 1, type: "deal", dealer: 1, text: "deal" });
const ev = (seq, type, seat, card, hand = 1) => ({ seq, hand, seat, type, ...(card ? { card } : {}), text: type });
const state = (events, hand = 1, game = "g1") => ({ game_id: game, hand_number: hand, events });

test("the log keeps the deal's events across answers that carry only the newest", () => {
  let log = mergeMoveLog(null, state([deal(1), ev(2, "pass", 0)]));
  assert.equal(log.complete, true);
  log = mergeMoveLog(log, state([ev(3, "pass", 1), ev(4, "draw_stock", 0, "7H")]));
  log = mergeMoveLog(log, state([ev(5, "discard", 0, "KD"), ev(6, "draw_stock", 1), ev(7, "discard", 1, "2C")]));
  assert.deepEqual(log.events.map((e) => e.seq), [1, 2, 3, 4, 5, 6, 7]);
  // an answer repeating events (a stale answer, a duplicate) adds nothing twice, and order is by seq
  log = mergeMoveLog(log, state([ev(7, "discard", 1, "2C"), ev(5, "discard", 0, "KD")]));
  assert.deepEqual(log.events.map((e) => e.seq), [1, 2, 3, 4, 5, 6, 7]);
});

test("a new deal or another game starts a new log; a log without its deal event is incomplete", () => {
  let log = mergeMoveLog(null, state([deal(1), ev(2, "pass", 0)]));
  // the next hand's answer carries the end of hand 1 and the start of hand 2
  log = mergeMoveLog(log, state([ev(3, "hand_over", null, null, 1), deal(4, 2), ev(5, "take", 0, "9S", 2)], 2));
  assert.equal(log.hand, 2);
  assert.deepEqual(log.events.map((e) => e.seq), [4, 5]);
  assert.equal(log.complete, true);
  const other = mergeMoveLog(log, state([ev(9, "discard", 1, "3C", 2)], 2, "g2"));
  assert.deepEqual(other.events.map((e) => e.seq), [9]);
  assert.equal(other.complete, false);
  assert.equal(mergeMoveLog(null, null).complete, false);
});

test("the log is public: a stock draw never names its card, face-up cards are kept", () => {
  const mine = ev(4, "draw_stock", 0, "7H");
  assert.equal(publicLogEvent(mine).card, undefined);
  assert.equal(mine.card, "7H");  // the state's event is not changed
  assert.equal(publicLogEvent(ev(5, "draw_discard", 1, "9S")).card, "9S");
  assert.equal(publicLogEvent(ev(6, "discard", 1, "2C")).card, "2C");
  const log = mergeMoveLog(null, state([deal(1), mine, ev(5, "discard", 0, "KD"), ev(6, "game_over", null)]));
  const entries = logEntries(log);
  assert.deepEqual(entries.map((e) => e.type), ["deal", "draw_stock", "discard"]);
  assert.equal(entries.some((e) => e.card === "7H"), false);
});

test("the pile's view lists every card bottom first, the last one marked as the top", () => {
  assert.deepEqual(pileCards(["2C", "9D", "QS"]), [
    { card: "2C", top: false, by: null }, { card: "9D", top: false, by: null }, { card: "QS", top: true, by: null }]);
  assert.deepEqual(pileCards([]), []);
  assert.deepEqual(pileCards(undefined), []);
});

test("the pile's view says who put each card there, from a complete log only", () => {
  const log = mergeMoveLog(null, state([deal(1), ev(2, "pass", 0), ev(3, "take", 1, "9D"), ev(4, "discard", 1, "2C"),
    ev(5, "draw_stock", 0, "7H"), ev(6, "discard", 0, "KD"), ev(7, "draw_discard", 1, "KD"), ev(8, "discard", 1, "QS")]));
  // upcard 9D taken; pile: 2C (computer), KD taken back by the computer, QS (computer)
  assert.deepEqual(pileCards(["2C", "QS"], log, "9D"), [
    { card: "2C", top: false, by: 1 }, { card: "QS", top: true, by: 1 }]);
  const start = mergeMoveLog(null, state([deal(1), ev(2, "pass", 0), ev(3, "pass", 1), ev(4, "draw_stock", 0), ev(5, "discard", 0, "KD")]));
  assert.deepEqual(pileCards(["9D", "KD"], start, "9D").map((x) => x.by), ["upcard", 0]);
  // a log that does not match the pile (or is incomplete) tells nothing
  assert.deepEqual(pileCards(["9D", "5C"], start, "9D").map((x) => x.by), [null, null]);
  const partial = mergeMoveLog(null, state([ev(5, "discard", 0, "KD")]));
  assert.deepEqual(pileCards(["9D", "KD"], partial, "9D").map((x) => x.by), [null, null]);
});
