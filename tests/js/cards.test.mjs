// Unit tests of the pure card helpers (run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import {
  rankOf, points, isRed, isCard, sortByRank, sortBySuit, isRun, orderMeld, sameCards, mergeOrder, moveCard, parseCards, sumPoints,
  swapCards, turnRun, moveGroup,
} from "../../src/ginrummy/web/static/cards.js";

test("ranks are ace low and deadwood values follow R-1.2", () => {
  assert.equal(rankOf("AS"), 0);
  assert.equal(rankOf("KD"), 12);
  assert.deepEqual(["AS", "2C", "9D", "TH", "JS", "QC", "KD"].map(points), [1, 2, 9, 10, 10, 10, 10]);
  assert.equal(sumPoints(parseCards("AS 2C 9D TH JS QC KD")), 52); // T-1
});

test("card texts", () => {
  assert.ok(isCard("7H") && isCard("TS") && isCard("AC"));
  assert.ok(!isCard("10S") && !isCard("7X") && !isCard("") && !isCard(null));
  assert.ok(isRed("7H") && isRed("QD") && !isRed("7S") && !isRed("2C"));
  assert.deepEqual(parseCards("3S4S5S"), ["3S", "4S", "5S"]);
  assert.deepEqual(parseCards("3s 4s  5s"), ["3S", "4S", "5S"]);
  assert.throws(() => parseCards("3S 1X"));
});

test("sort by rank keeps suits in alternating colour order", () => {
  assert.deepEqual(sortByRank(["KD", "AS", "7H", "7S", "7D", "7C"]), ["AS", "7S", "7H", "7C", "7D", "KD"]);
});

test("sort by suit: spades, hearts, clubs, diamonds, each ace to king", () => {
  assert.deepEqual(sortBySuit(["KD", "2D", "AS", "TC", "7H", "QS"]), ["AS", "QS", "7H", "TC", "2D", "KD"]);
});

test("sorting returns a new array", () => {
  const hand = ["KD", "AS"];
  sortByRank(hand);
  sortBySuit(hand);
  assert.deepEqual(hand, ["KD", "AS"]);
});

test("runs and sets are laid out as players expect", () => {
  assert.ok(isRun(["9H", "7H", "8H"]));
  assert.ok(!isRun(["9H", "9D", "9C"]));
  assert.deepEqual(orderMeld(["9H", "7H", "8H"]), ["7H", "8H", "9H"]);
  assert.deepEqual(orderMeld(["AS", "3S", "2S"]), ["AS", "2S", "3S"]);
  // a set follows the person's order
  assert.deepEqual(orderMeld(["9H", "9D", "9C"], ["9C", "2S", "9H", "9D"]), ["9C", "9H", "9D"]);
});

test("a run lays out high to low when the person put its highest card first", () => {
  assert.deepEqual(orderMeld(["7H", "8H", "9H"], ["9H", "2S", "8H", "7H"]), ["9H", "8H", "7H"]);
  assert.deepEqual(orderMeld(["7H", "8H", "9H"], ["8H", "7H", "9H"]), ["7H", "8H", "9H"]);
  // the 6 just drawn (at the end of the hand) does not turn 7-8 around
  assert.deepEqual(orderMeld(["6H", "7H", "8H"], ["7H", "8H", "KD", "6H"]), ["6H", "7H", "8H"]);
  // turned around, and back
  const order = ["2S", "7H", "8H", "9H", "KD"];
  const turned = turnRun(order, ["7H", "8H", "9H"]);
  assert.deepEqual(turned, ["2S", "9H", "8H", "7H", "KD"]);
  assert.deepEqual(orderMeld(["7H", "8H", "9H"], turned), ["9H", "8H", "7H"]);
  assert.deepEqual(turnRun(turned, ["9H", "8H", "7H"]), order);
  assert.deepEqual(turnRun(order, ["7H", "XX"]), order);
});

test("swapCards and moveGroup rearrange without losing or adding a card", () => {
  assert.deepEqual(swapCards(["9C", "9H", "9D"], "9C", "9H"), ["9H", "9C", "9D"]);
  assert.deepEqual(swapCards(["9C"], "9C", "2S"), ["9C"]);
  const order = ["AS", "2S", "3S", "9C", "9H", "9D", "KD"];
  assert.deepEqual(moveGroup(order, ["9C", "9H", "9D"], { before: "AS" }), ["9C", "9H", "9D", "AS", "2S", "3S", "KD"]);
  assert.deepEqual(moveGroup(order, ["AS", "2S", "3S"], { after: ["9C", "9H", "9D"] }), ["9C", "9H", "9D", "AS", "2S", "3S", "KD"]);
  for (const out of [moveGroup(order, ["2S", "3S"], { before: "KD" }), moveGroup(order, ["9H"], {})]) {
    assert.equal(out.length, order.length);
    assert.ok(sameCards(out, order));
  }
});

test("sameCards ignores order", () => {
  assert.ok(sameCards(["3S", "4S", "5S"], ["5S", "3S", "4S"]));
  assert.ok(!sameCards(["3S", "4S", "5S"], ["3S", "4S"]));
  assert.ok(!sameCards(["3S", "4S", "5S"], ["3S", "4S", "6S"]));
  assert.ok(!sameCards(null, []));
});

test("mergeOrder keeps the person's order, drops cards gone, appends new ones", () => {
  assert.deepEqual(mergeOrder(["KD", "AS", "7H"], ["7H", "AS", "2C"]), ["AS", "7H", "2C"]);
  assert.deepEqual(mergeOrder(null, ["7H", "AS"]), ["7H", "AS"]);
});

test("moveCard moves one card and clamps the index", () => {
  assert.deepEqual(moveCard(["A", "B", "C", "D"], "D", 0), ["D", "A", "B", "C"]);
  assert.deepEqual(moveCard(["A", "B", "C", "D"], "A", 99), ["B", "C", "D", "A"]);
  assert.deepEqual(moveCard(["A", "B", "C"], "B", 1), ["A", "B", "C"]);
  assert.deepEqual(moveCard(["A", "B"], "Z", 0), ["A", "B"]);
});
