// Unit tests of the view logic over the server's state (run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import {
  uiPhase, findLegal, chooseKnock, chooseGin, groupHand, tableFromState, applyEvent, newEvents, scoreRows,
  meldsWithLayoffs, deadwoodOf, promptKey, rulesOverrides,
} from "../../src/ginrummy/web/static/model.js";

const legal = [
  { action: "discard 7C", type: "discard", card: "7C" },
  { action: "discard 4H", type: "discard", card: "4H" },
  { action: "knock 7C", type: "knock", card: "7C", melds: [["3S", "4S", "5S"]], deadwood: ["4H"], deadwood_points: 4 },
  { action: "knock 4H", type: "knock", card: "4H", melds: [["3S", "4S", "5S"]], deadwood: ["7C"], deadwood_points: 7 },
];

test("data-phase follows the state, and is `opponent` while animating", () => {
  for (const p of ["offer", "draw", "discard", "opponent", "hand-over", "game-over"]) assert.equal(uiPhase({ phase: p }), p);
  assert.equal(uiPhase({ phase: "draw" }, true), "opponent");
  assert.equal(uiPhase(null), null);
  assert.equal(uiPhase({ phase: "weird" }), "opponent");
});

test("legal actions are looked up by type and card", () => {
  const st = { legal };
  assert.equal(findLegal(st, "discard", "4H").action, "discard 4H");
  assert.equal(findLegal(st, "discard").action, "discard 7C");
  assert.equal(findLegal(st, "discard", "KD"), null);
  assert.equal(findLegal(null, "discard"), null);
});

test("knock: the selected card when it can knock, else the least deadwood", () => {
  const st = { legal };
  assert.equal(chooseKnock(st, "4H").action, "knock 4H");
  assert.equal(chooseKnock(st, null).action, "knock 7C");
  assert.equal(chooseKnock(st, "3S").action, "knock 7C");
  assert.equal(chooseKnock({ legal: [] }, "4H"), null);
  const gins = { legal: [{ action: "gin 2C", type: "gin", card: "2C" }, { action: "gin 9D", type: "gin", card: "9D" }] };
  assert.equal(chooseGin(gins, "9D").action, "gin 9D");
  assert.equal(chooseGin(gins, null).action, "gin 2C");
});

test("groupHand: melds in the person's order, then deadwood, then the spare 11th card", () => {
  const hand = ["KC", "9H", "7H", "3D", "8H", "3S", "3C", "2D", "QC"];
  const arr = { melds: [["7H", "8H", "9H"], ["3S", "3D", "3C"]], deadwood: ["KC", "2D"], deadwood_points: 12 };
  const g = groupHand(hand, arr);
  assert.deepEqual(g.map((x) => x.kind), ["meld", "meld", "deadwood", "spare"]);
  assert.deepEqual(g[0].cards, ["7H", "8H", "9H"]);
  assert.equal(g[0].run, true);
  assert.deepEqual(g[1].cards, ["3D", "3S", "3C"]);
  assert.equal(g[1].run, false);
  assert.deepEqual(g[2].cards, ["KC", "2D"]);
  assert.deepEqual(g[3].cards, ["QC"]);
});

test("groupHand without an arrangement, or with stale melds, shows all cards as deadwood", () => {
  assert.deepEqual(groupHand(["AS", "2C"], null), [{ kind: "deadwood", cards: ["AS", "2C"] }]);
  const g = groupHand(["AS", "2C"], { melds: [["7H", "8H", "9H"]], deadwood: ["AS", "2C"] });
  assert.deepEqual(g, [{ kind: "deadwood", cards: ["AS", "2C"] }]);
  assert.deepEqual(groupHand([], null), []);
});

test("the table replays events: draws, discards and the opponent's known cards", () => {
  const st = { stock_count: 21, discard_pile: ["2C", "9D"], opponent: { card_count: 10, known: [] }, hand: new Array(10).fill("AS") };
  let tb = tableFromState(st);
  tb = applyEvent(tb, { seat: 1, type: "draw_discard", card: "9D" }, 0);
  assert.deepEqual(tb.pile, ["2C"]);
  assert.equal(tb.oppCount, 11);
  assert.deepEqual(tb.known, ["9D"]);
  tb = applyEvent(tb, { seat: 1, type: "discard", card: "QS" }, 0);
  assert.deepEqual(tb.pile, ["2C", "QS"]);
  assert.equal(tb.oppCount, 10);
  tb = applyEvent(tb, { seat: 1, type: "draw_stock" }, 0);
  assert.equal(tb.stock, 20);
  tb = applyEvent(tb, { seat: 0, type: "draw_stock", card: "KD" }, 0);
  assert.equal(tb.stock, 19);
  assert.equal(tb.myCount, 11);
  tb = applyEvent(tb, { seat: 1, type: "discard", card: "9D" }, 0);
  assert.deepEqual(tb.known, []);
  const dealt = applyEvent(tb, { seat: null, type: "deal", dealer: 0 }, 0, { initial_upcard: "5H" });
  assert.deepEqual([dealt.stock, dealt.pile, dealt.oppCount, dealt.known], [31, ["5H"], 10, []]);
  assert.deepEqual(applyEvent(tb, { seat: 1, type: "whatever" }, 0), tb);
  assert.equal(st.discard_pile.length, 2, "the state is not changed");
});

test("newEvents: only those after the last seen sequence, in order", () => {
  const st = { events: [{ seq: 17, type: "discard" }, { seq: 16, type: "draw_stock" }, { seq: 15, type: "x" }] };
  assert.deepEqual(newEvents(st, 15).map((e) => e.seq), [16, 17]);
  assert.deepEqual(newEvents({}, 0), []);
});

test("score sheet rows from the person's side, like the paper sheet", () => {
  const score = {
    hand_points: [34, 12], boxes: [2, 1], target: 100,
    hands: [
      { number: 1, winner: 0, points: 22, kind: "knock" },
      { number: 2, winner: null, points: 0, kind: "dead" },
      { number: 3, winner: 1, points: 12, kind: "gin" },
      { number: 4, winner: 0, points: 12, kind: "undercut" },
    ],
    final: null,
  };
  const me0 = scoreRows(score, 0);
  assert.deepEqual(me0.rows.map((r) => [r.number, r.col, r.totals]), [[1, 0, [22, 0]], [2, null, [22, 0]], [3, 1, [22, 12]], [4, 0, [34, 12]]]);
  assert.deepEqual(me0.handPoints, [34, 12]);
  assert.deepEqual(me0.boxes, [2, 1]);
  const me1 = scoreRows(score, 1);
  assert.deepEqual(me1.handPoints, [12, 34]);
  assert.equal(me1.rows[0].col, 1);
  const fin = scoreRows({ ...score, final: { winner: 0, totals: [334, 37], hand_points: [134, 12], boxes: [4, 1], box_points: [100, 25], game_bonus: 100, shutout: false, shutout_rule: "double_total", margin: 297 } }, 1);
  assert.deepEqual([fin.final.winner, fin.final.totals, fin.final.boxPoints, fin.final.margin], [1, [37, 334], [25, 100], 297]);
});

test("layoffs are attached to the knocker's meld they extend, chains included", () => {
  const melds = [["3S", "4S", "5S"], ["QC", "QH", "QS"]];
  const layoffs = [{ card: "6S", onto: ["3S", "4S", "5S"] }, { card: "7S", onto: ["3S", "4S", "5S", "6S"] }, { card: "QD", onto: ["QS", "QH", "QC"] }];
  const out = meldsWithLayoffs(melds, layoffs);
  assert.deepEqual(out[0].laid, ["6S", "7S"]);
  assert.deepEqual(out[1].laid, ["QD"]);
  assert.deepEqual(meldsWithLayoffs(melds, []).map((m) => m.laid), [[], []]);
  assert.deepEqual(meldsWithLayoffs(null, null), []);
});

test("deadwood counter and prompts", () => {
  assert.equal(deadwoodOf({ deadwood: ["KC", "2D"], deadwood_points: 12 }), 12);
  assert.equal(deadwoodOf({ deadwood: ["KC", "2D"] }), 12);
  assert.equal(deadwoodOf(null), null);
  assert.equal(promptKey({ phase: "draw", legal: [{ type: "draw_stock" }] }), "prompt.draw_stock_only");
  assert.equal(promptKey({ phase: "draw", legal: [{ type: "draw_stock" }, { type: "draw_discard" }] }), "prompt.draw");
  assert.equal(promptKey({ phase: "discard", legal }), "prompt.discard_or_knock");
  assert.equal(promptKey({ phase: "discard", legal: [] }), "prompt.discard");
  assert.equal(promptKey({ phase: "offer" }, true), "prompt.opponent");
  assert.equal(promptKey(null, false, true), "prompt.loading", "a saved game is being fetched");
  assert.equal(promptKey(null), "prompt.no_game", "no game: the prompt behind the new-game dialog");
  // the last discard may be taken only to knock or gin; Pass is the other choice
  assert.equal(promptKey({ phase: "draw", legal: [{ type: "draw_discard" }, { type: "pass" }] }), "prompt.last_discard");
  assert.equal(promptKey({ phase: "draw", legal: [{ type: "pass" }] }), "prompt.last_discard_pass");
});

test("rules overrides are only the fields that differ from the preset", () => {
  const preset = { target: 100, gin_bonus: 25, big_gin_bonus: null, oklahoma: false };
  assert.deepEqual(rulesOverrides(preset, { target: 100, gin_bonus: 20, big_gin_bonus: null, oklahoma: false }), { gin_bonus: 20 });
  assert.deepEqual(rulesOverrides(preset, { big_gin_bonus: 31, oklahoma: true }), { big_gin_bonus: 31, oklahoma: true });
  assert.deepEqual(rulesOverrides(undefined, { target: 150 }), { target: 150 });
});
