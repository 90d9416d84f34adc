// Unit tests of the tutorial's checks (tutorial_model.js) against the lessons the server serves
// (tutorial_lessons.json = GET /api/tutorial; tests/web/test_tutorial_page.py keeps them equal),
// and of its catalog keys (run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  meldProblem, judgeMeld, valueBreakdown, judgeDeadwood, judgeDraw, judgeDiscard, judgeKnock, judgeLayoff, toggle, byRank,
} from "../../src/ginrummy/web/static/tutorial_model.js";
import { LANGUAGES } from "../../src/ginrummy/web/static/i18n.js";

const L = JSON.parse(readFileSync(new URL("./tutorial_lessons.json", import.meta.url), "utf8"));
const dir = fileURLToPath(new URL("../../src/ginrummy/web/locales/", import.meta.url));
const cat = Object.fromEntries(LANGUAGES.map((l) => [l, JSON.parse(readFileSync(`${dir}${l}.json`, "utf8"))]));

test("why a pick is not a meld (R-1.3: no wrap, one rank or one suit in a row)", () => {
  assert.equal(meldProblem(["8S", "8H"]), "few");
  assert.equal(meldProblem(["8S", "5C", "KD"]), "mixed");
  assert.equal(meldProblem(["8S", "8H", "5C"]), "mixed");
  assert.equal(meldProblem(["QH", "KH", "AH"]), "wrap");
  assert.equal(meldProblem(["KH", "AH", "2H"]), "wrap");
  assert.equal(meldProblem(["AH", "3H", "QH"]), "gap");
});

test("the set lesson: only the set is right; the run is a meld of the other kind", () => {
  assert.deepEqual(judgeMeld(["8D", "8S", "8H"], L.set, "set"), { ok: true, cards: ["8S", "8H", "8D"] });
  assert.deepEqual(judgeMeld(["5C", "6C", "7C"], L.set, "set"), { ok: false, reason: "other_set" });
  assert.equal(judgeMeld(["8S", "8H", "KD"], L.set, "set").reason, "mixed");
  assert.equal(judgeMeld(["8S", "8H"], L.set, "set").reason, "few");
  assert.equal(judgeMeld(["8S", "8H", "8D", "7C"], L.set, "set").reason, "mixed");
});

test("the run lesson: A-2-3 is a run, Q-K-A is not", () => {
  assert.equal(judgeMeld(["AH", "2H", "3H"], L.run, "run").ok, true);
  assert.equal(judgeMeld(["QH", "KH", "AH"], L.run, "run").reason, "wrap");
  assert.equal(judgeMeld(["AH", "2H", "QH"], L.run, "run").reason, "gap");
  assert.equal(judgeMeld(["9S", "9C", "AH"], L.run, "run").reason, "mixed");
});

test("deadwood values: A = 1, pips, faces 10 (R-1.2)", () => {
  assert.deepEqual(valueBreakdown(["KH", "AD", "6C", "2C", "TS", "JC"]).items.map((x) => x.points), [10, 1, 6, 2, 10, 10]);
  assert.equal(valueBreakdown(["KH", "AD", "6C", "2C"]).total, L.deadwood.deadwood_points);
  assert.equal(valueBreakdown([]).total, 0);
});

test("the deadwood lesson: the unmelded cards of the best arrangement", () => {
  assert.deepEqual(judgeDeadwood(["KH", "AD", "6C", "2C"], L.deadwood), { ok: true, points: 19 });
  assert.deepEqual(judgeDeadwood(["KH", "AD", "8C"], L.deadwood), { ok: false, reason: "melded", card: "8C" });
  assert.deepEqual(judgeDeadwood(["KH", "AD"], L.deadwood), { ok: false, reason: "missing" });
  assert.equal(judgeDeadwood([], L.deadwood).reason, "missing");
});

test("the turn lesson: take the upcard that melds, never discard it, discard the best", () => {
  assert.equal(judgeDraw("upcard", L.turn).ok, true);
  assert.deepEqual(judgeDraw("stock", L.turn), { ok: false, reason: "stock", card: "7H", meld: ["5H", "6H", "7H"] });
  assert.equal(judgeDraw("stock", { ...L.turn, upcard_melds: [] }).ok, true);
  assert.equal(judgeDiscard("7H", L.turn).reason, "taken");
  assert.deepEqual(judgeDiscard("KC", L.turn), { ok: true, card: "KC", after: 19 });
  assert.equal(judgeDiscard("QS", L.turn).ok, true);
  assert.deepEqual(judgeDiscard("4C", L.turn), { ok: false, reason: "higher", card: "4C", after: 25, best: 19 });
  assert.equal(judgeDiscard("9S", L.turn).after, 47);
});

test("the knock lesson: deadwood exactly at the limit may knock, not gin", () => {
  assert.equal(L.knock.answer, "knock");
  assert.equal(judgeKnock("knock", L.knock).ok, true);
  assert.equal(judgeKnock("gin", L.knock).reason, "not_gin");
  assert.equal(judgeKnock("discard", L.knock).reason, "may_knock");
  const gin = { ...L.knock, answer: "gin" };
  assert.equal(judgeKnock("knock", gin).reason, "take_gin");
  assert.equal(judgeKnock("discard", gin).reason, "take_gin");
  const high = { ...L.knock, answer: "discard" };
  assert.equal(judgeKnock("knock", high).reason, "too_high");
  assert.equal(judgeKnock("gin", high).reason, "too_high");
});

test("the layoff lesson: 6S then 7S (a chain), nothing on the knocker's deadwood", () => {
  assert.equal(judgeLayoff(["6S", "7S"], L.layoff).ok, true);
  assert.deepEqual(judgeLayoff(["6S", "4C"], L.layoff), { ok: false, reason: "no_fit", card: "4C" });
  assert.equal(judgeLayoff(["6S"], L.layoff).reason, "chain");
  assert.equal(judgeLayoff(["7S"], L.layoff).reason, "missing");
  assert.equal(judgeLayoff([], L.layoff).reason, "missing");
  assert.equal(L.layoff.kind, "undercut");
  assert.equal(L.layoff.points, 26);
});

test("toggle keeps the hand's order; byRank sorts ascending", () => {
  const hand = ["8S", "8H", "8D", "5C"];
  assert.deepEqual(toggle(["8D"], "8S", hand), ["8S", "8D"]);
  assert.deepEqual(toggle(["8S", "8D"], "8S", hand), ["8D"]);
  assert.deepEqual(byRank(["3H", "AH", "2H"]), ["AH", "2H", "3H"]);
});

test("every reason the model gives is worded in every catalog", () => {
  const reasons = {
    meld: ["few", "mixed", "wrap", "gap", "other_set", "other_run"],
    deadwood: ["melded", "missing"],
    turn: ["stock", "taken", "higher"],
    knock: ["not_gin", "may_knock", "take_gin", "too_high"],
    layoff: ["no_fit", "chain", "missing"],
  };
  for (const l of LANGUAGES) {
    for (const [step, list] of Object.entries(reasons)) {
      for (const r of list) assert.ok(cat[l][`tutorial.${step}.${r}`], `${l}: tutorial.${step}.${r}`);
    }
  }
});
