// Unit tests of the browser's list of games in progress and of the knock / gin previews on a tie
// (model.js; run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import {
  rememberGame, forgetGameEntry, gameInPlay, resumable, GAMES_KEPT, chooseKnock, chooseGin, extraCard,
} from "../../src/ginrummy/web/static/model.js";

test("a game remembered goes first, once; bad entries are dropped; at most GAMES_KEPT", () => {
  let list = rememberGame([], { game_id: "a", token: "ta" }, 1);
  list = rememberGame(list, { game_id: "b", token: "tb" }, 2);
  assert.deepEqual(list.map((e) => e.game_id), ["b", "a"]);
  const again = rememberGame(list, { game_id: "a", token: "ta" }, 3);
  assert.deepEqual(again.map((e) => [e.game_id, e.at]), [["a", 3], ["b", 2]]);
  assert.deepEqual(list.map((e) => e.game_id), ["b", "a"]);  // not changed in place
  assert.deepEqual(rememberGame([{ game_id: "x" }, null, "junk"], { game_id: "", token: "t" }, 4), []);
  assert.deepEqual(rememberGame("not a list", { game_id: "c", token: "tc" }, 5).map((e) => e.game_id), ["c"]);
  let many = [];
  for (let i = 0; i < GAMES_KEPT + 5; i++) many = rememberGame(many, { game_id: `g${i}`, token: "t" }, i);
  assert.equal(many.length, GAMES_KEPT);
  assert.equal(many[0].game_id, `g${GAMES_KEPT + 4}`);
});

test("a game is forgotten by id", () => {
  const list = rememberGame(rememberGame([], { game_id: "a", token: "t" }), { game_id: "b", token: "t" });
  assert.deepEqual(forgetGameEntry(list, "a").map((e) => e.game_id), ["b"]);
  assert.deepEqual(forgetGameEntry(undefined, "a"), []);
});

test("leaving asks first while a game is in play, not once it is over or resigned", () => {
  for (const p of ["offer", "draw", "discard", "opponent", "hand-over"]) assert.equal(gameInPlay({ phase: p }), true, p);
  assert.equal(gameInPlay({ phase: "game-over" }), false);
  assert.equal(gameInPlay({ phase: "waiting" }), false);
  assert.equal(gameInPlay({ phase: "game-over", resigned: { seat: 0 } }), false);
  assert.equal(gameInPlay(null), false);
});

test("a table to come back to: a game in play, or a table of people waiting for its start", () => {
  for (const p of ["offer", "draw", "discard", "opponent", "hand-over", "waiting"]) assert.equal(resumable({ phase: p }), true, p);
  assert.equal(resumable({ phase: "opponent", table: { status: "waiting" } }), true);
  assert.equal(resumable({ phase: "game-over" }), false);
  assert.equal(resumable({ phase: "game-over", table: { status: "over" } }), false);
  assert.equal(resumable({ phase: "game-over", resigned: { seat: 0 } }), false);
  assert.equal(resumable(null), false);
});

test("on a tie the knock and gin previews take the hand's extra card, like the hint", () => {
  // 11 cards: 3S4S5S, 7s, 9s; QC and JC leave 10 each; the server left JC out (the extra card)
  const hand = ["3S", "4S", "5S", "7H", "7D", "7C", "9S", "9H", "9D", "QC", "JC"];
  const arrangement = { melds: [["3S", "4S", "5S"], ["7H", "7D", "7C"], ["9S", "9H", "9D"]], deadwood: ["QC"], deadwood_points: 10 };
  const legal = [
    { action: "knock QC", type: "knock", card: "QC", deadwood_points: 10 },
    { action: "knock JC", type: "knock", card: "JC", deadwood_points: 10 },
    { action: "knock 3S", type: "knock", card: "3S", deadwood_points: 10 },
  ];
  const st = { hand, arrangement, legal };
  assert.equal(extraCard(st), "JC");
  assert.equal(chooseKnock(st, null).card, "JC");
  assert.equal(chooseKnock(st, "QC").card, "QC");  // the selected card still wins
  // without an extra card among them: least deadwood, then the higher discard
  assert.equal(chooseKnock({ hand, arrangement: { ...arrangement, deadwood: ["QC", "JC"] }, legal }, null).card, "QC");
  const gins = { hand, arrangement, legal: [{ action: "gin QC", type: "gin", card: "QC" }, { action: "gin JC", type: "gin", card: "JC" }] };
  assert.equal(chooseGin(gins, null).card, "JC");
  assert.equal(extraCard({ hand: ["3S"], arrangement: { melds: [], deadwood: ["3S"] } }), null);
  assert.equal(extraCard(null), null);
});
