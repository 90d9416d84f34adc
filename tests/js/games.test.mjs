// Unit tests of the browser's list of games in progress (model.js; run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import { rememberGame, forgetGameEntry, gameInPlay, GAMES_KEPT } from "../../src/ginrummy/web/static/model.js";

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
