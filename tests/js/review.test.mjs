// Unit tests of the review's pure part (review_model.js, issue 20): grades as symbols and words
// in every catalog, the figures, the addresses, the waiting, the token kept for a game, the
// decisions by replay position, the sentences and the answer of a move tried (run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  GRADES, GRADE_SYMBOL, accuracyText, actionParts, canTry, confirmationText, decisionFaceUp, decisionSentence, decisionsByPosition, heldUp,
  exercisePath, gradeSymbol, isFlawed, listedDecisions, moveText, nearestDecision, noteText, percent, pollDelay,
  progressShare, replayAt, reviewPage, reviewPath, reviewRatings, seatOrder, seatSummary, signedPercent, signedPoints,
  timelineMarks, tokenFor, triedView, teamOf, teamGroups, finishedDeals,
} from "../../src/ginrummy/web/static/review_model.js";
import { makeT, cardName, LANGUAGES } from "../../src/ginrummy/web/static/i18n.js";

const dir = fileURLToPath(new URL("../../src/ginrummy/web/locales/", import.meta.url));
const cat = Object.fromEntries(LANGUAGES.map((l) => [l, JSON.parse(readFileSync(`${dir}${l}.json`, "utf8"))]));
const en = makeT(cat.en);
const name = (t) => (c) => cardName(c, t);

const move = (action, kind, card, win, points) => ({ action, kind, card, win, points });
const hint = (o) => ({
  action: "", kind: "", card: null, reason: "", deadwood: 30, deadwood_after: 22, then_discard: null, knock_limit: 10,
  alternative: null, comparison: null, could_knock: null, undercut_risk: null, late_max: null, danger: null,
  plain: null, overrules: false, value: null, plain_value: null, value_kind: null, ...o,
});
const mistake = {
  hand: 1, index: 5, step: 6, seat: 0, kind: "discard",
  played: move("discard 9C", "discard", "9C", 0.41, -6), best: move("discard KD", "discard", "KD", 0.45, -2),
  moves: [], drop: 0.04, drop_points: 4, z: 3, grade: "mistake", accuracy: 60, deadwood: 30,
  notes: [{ code: "breaks_meld", params: { card: "9C", meld: ["7C", "8C", "9C"] } }],
  played_hint: hint({ action: "discard 9C", kind: "discard", card: "9C", reason: "lowest" }),
  best_hint: hint({ action: "discard KD", kind: "discard", card: "KD", reason: "lowest" }),
};
const offer = {
  ...mistake, index: 0, step: 1, seat: 1, kind: "offer", grade: "best", drop: 0, drop_points: 0, notes: [],
  played: move("pass", "pass", null, 0.5, 0), best: move("pass", "pass", null, 0.5, 0),
  played_hint: hint({ action: "pass", kind: "pass", card: "QH", reason: "no_gain" }), best_hint: null,
};
const hand = { hand: 1, decisions: [offer, { ...mistake, step: 4, seat: 1, grade: "good" }, mistake] };

test("every grade has a symbol and a word in every catalog; the flawed ones are tried again", () => {
  assert.deepEqual(GRADES, ["best", "good", "inaccuracy", "mistake", "blunder"]);
  assert.deepEqual([GRADE_SYMBOL.inaccuracy, GRADE_SYMBOL.mistake, GRADE_SYMBOL.blunder], ["?!", "?", "??"]);
  assert.equal(new Set(GRADES.map(gradeSymbol)).size, 5);
  for (const l of LANGUAGES) for (const g of GRADES) assert.ok(cat[l][`review.grade.${g}`], `${l} ${g}`);
  assert.deepEqual(GRADES.filter(isFlawed), ["inaccuracy", "mistake", "blunder"]);
  assert.equal(gradeSymbol("nonsense"), "");
});

test("Try again: the asker's decisions with a better move, whatever their grade", () => {
  assert.equal(canTry(mistake, 0), true);
  assert.equal(canTry(mistake, 1), false);  // not the asker's
  assert.equal(canTry({ ...mistake, grade: "good" }, 0), true);  // a better move, not sure of it
  assert.equal(canTry({ ...offer, seat: 0 }, 0), false);  // the best move played
  assert.equal(canTry(null, 0), false);
});

test("the players' ratings of a review: both numbers, or none (valued as even)", () => {
  assert.deepEqual(reviewRatings({ ratings: [1500, 1224.5] }), [1500, 1224.5]);
  assert.equal(reviewRatings({ ratings: null }), null);
  assert.equal(reviewRatings({}), null);
  assert.equal(reviewRatings(null), null);
  assert.equal(reviewRatings({ ratings: [1500] }), null);
  assert.equal(reviewRatings({ ratings: [1500, null] }), null);
  assert.equal(reviewRatings({ ratings: [1500, 1600, 1700] }), null);
});

test("every review key is in the four catalogs with the same placeholders", () => {
  const keys = Object.keys(cat.en).filter((k) => k.startsWith("review."));
  assert.ok(keys.length > 50);
  const holes = (s) => (s.match(/\{\w+\}/g) || []).sort().join();
  for (const l of LANGUAGES) {
    for (const k of keys) {
      assert.ok(cat[l][k], `${l} lacks ${k}`);
      assert.equal(holes(cat[l][k]), holes(cat.en[k]), `${l} ${k}`);
    }
  }
});

test("figures in the page's language", () => {
  assert.equal(percent(0.3594), "36%");
  assert.equal(percent(null), "");
  assert.equal(signedPercent(0.1067), "+10.7");
  assert.equal(signedPercent(-1.518), "\u2212151.8");
  assert.equal(signedPercent(0), "0");
  assert.equal(signedPoints(-49), "\u221249");
  assert.equal(signedPoints(36.44), "+36.4");
  assert.equal(signedPoints(1234.5, "id"), "+1.234,5");
  assert.equal(accuracyText(38.6), "39");
  assert.equal(accuracyText(null), "\u2013");
});

test("addresses of the API and the pages", () => {
  assert.equal(reviewPath("a/b", null), "/api/games/a%2Fb/review");
  assert.equal(reviewPath("g", 3), "/api/games/g/hands/3/review");
  assert.equal(exercisePath("g", 3, 12), "/api/games/g/hands/3/exercises/12");
  assert.equal(reviewPage("g"), "/review?game=g");
  assert.equal(reviewPage("g", 2), "/review?game=g&hand=2");
  assert.equal(replayAt("g", 2, 5), "/replay?game=g&hand=2&review=1&step=5");
  assert.equal(replayAt("g", 2, 5, true), "/replay?game=g&hand=2&review=1&step=5&try=1");
  assert.equal(replayAt("g", 2), "/replay?game=g&hand=2&review=1");
});

test("waiting for a review honours Retry-After within bounds; its progress as a share", () => {
  assert.equal(pollDelay(1000), 1000);
  assert.equal(pollDelay(0), 1000);
  assert.equal(pollDelay(undefined), 1000);
  assert.equal(pollDelay(100), 500);
  assert.equal(pollDelay(120_000), 10_000);
  assert.equal(progressShare({ done: 6, total: 24 }), 0.25);
  assert.equal(progressShare({ done: 0, total: 0 }), 0);
  assert.equal(progressShare(null), 0);
  assert.equal(progressShare({ done: 30, total: 24 }), 1);
});

test("the token of a game: the game shown, a game in progress, a seat at a table", () => {
  const cur = { game_id: "a", token: "ta" };
  assert.equal(tokenFor("a", cur, [], {}), "ta");
  assert.equal(tokenFor("b", cur, [{ game_id: "b", token: "tb" }], {}), "tb");
  assert.equal(tokenFor("c", cur, [{ game_id: "b", token: "tb" }], { c: { game_id: "c", token: "tc", seat: 1 } }), "tc");
  assert.equal(tokenFor("d", cur, null, null), null);
  // a finished game (no longer in progress): its review stays reachable
  assert.equal(tokenFor("e", cur, [{ game_id: "b", token: "tb" }], {}, [{ game_id: "e", token: "te" }]), "te");
  assert.equal(tokenFor("e", cur, [], {}, null), null);
  assert.equal(tokenFor(null, cur, [], {}), null);
});

test("seats in order, yours first; decisions by their replay position; marks on the timeline", () => {
  const review = { seats: [{ seat: 0, accuracy: 50 }, { seat: 1, accuracy: 70 }] };
  assert.deepEqual(seatOrder(review, 1), [1, 0]);
  // three players: yours first, the others in order; a partnership: your partner next
  const four = { seats: [0, 1, 2, 3].map((seat) => ({ seat })) };
  assert.deepEqual(seatOrder({ seats: [0, 1, 2].map((seat) => ({ seat })) }, 2), [2, 0, 1]);
  assert.deepEqual(seatOrder(four, 0, [[0, 2], [1, 3]]), [0, 2, 1, 3]);
  assert.deepEqual(seatOrder(four, 3, [[0, 2], [1, 3]]), [3, 1, 0, 2]);
  assert.deepEqual(seatOrder({ seats: [{ seat: 1 }, { seat: 2 }] }, 0, [[0, 2], [1, 3]]), [2, 1]);
  assert.equal(teamOf([[0, 2], [1, 3]], 3), 1);
  assert.equal(teamOf(null, 3), null);
  assert.deepEqual(teamGroups([0, 2, 1, 3], [[0, 2], [1, 3]]), [{ team: 0, seats: [0, 2] }, { team: 1, seats: [1, 3] }]);
  assert.deepEqual(teamGroups([1, 2], [[0, 2], [1, 3]]), [{ team: 1, seats: [1] }, { team: 0, seats: [2] }]);
  assert.deepEqual(teamGroups([0, 1], null), [{ team: null, seats: [0, 1] }]);
  // the finished deals of a record: a partnership's two tables numbered apart
  assert.deepEqual(finishedDeals({ hands: [{ number: 1, hand: 1, table: 0, players: [0, 1] }, { number: 2, hand: 1, table: 1, players: [2, 3] }] }),
    [{ number: 1, hand: 1, table: 0, players: [0, 1] }, { number: 2, hand: 1, table: 1, players: [2, 3] }]);
  assert.deepEqual(finishedDeals({ hands: [{ number: 4, dealer: 1 }] }), [{ number: 4, hand: 4, table: 0, players: [0, 1] }]);
  assert.deepEqual(finishedDeals(null), []);
  assert.equal(seatSummary(review, 1).accuracy, 70);
  assert.equal(seatSummary(review, 2), null);
  const by = decisionsByPosition(hand);
  assert.deepEqual([...by.keys()], [0, 3, 5]);
  assert.equal(by.get(5), mistake);
  assert.deepEqual(timelineMarks(hand, 0), [
    { step: 0, grade: "best", symbol: "!", seat: 1, mine: false },
    { step: 3, grade: "good", symbol: "\u2713", seat: 1, mine: false },
    { step: 5, grade: "mistake", symbol: "?", seat: 0, mine: true },
  ]);
  assert.deepEqual(timelineMarks(hand, 0, 0).map((m) => m.step), [5]);
  assert.deepEqual(listedDecisions(hand, true), [mistake]);
  assert.equal(listedDecisions(hand).length, 3);
  assert.equal(nearestDecision(hand, 0, 1), 3);
  assert.equal(nearestDecision(hand, 4, 1), 5);
  assert.equal(nearestDecision(hand, 5, 1), null);
  assert.equal(nearestDecision(hand, 5, -1), 3);
  assert.equal(nearestDecision(hand, 0, -1), null);
  assert.equal(nearestDecision(null, 0, 1), null);
});

test("moves in the hints' words, the face-up card from the hints", () => {
  const n = name(en);
  assert.equal(moveText(mistake.played, en, n), "discard the 9 of clubs");
  assert.equal(moveText({ action: "draw stock", type: "draw_stock", card: null }, en, n), "draw from the stock");
  assert.equal(decisionFaceUp(offer), "QH");
  assert.equal(moveText(offer.played, en, n, "QH"), "pass on the queen of hearts");
  assert.deepEqual(actionParts("knock 3D: 3C 3H 3S"), { kind: "knock", card: "3D" });
  assert.deepEqual(actionParts("draw discard"), { kind: "draw_discard", card: null });
  assert.deepEqual(actionParts("big gin"), { kind: "big_gin", card: null });
  assert.deepEqual(actionParts("take"), { kind: "take", card: null });
});

test("a decision's sentence: its grade, the better move and why, its notes, in every language", () => {
  const s = decisionSentence(mistake, en, name(en), { mine: true, who: "You" });
  assert.match(s, /^A mistake: you chose to discard the 9 of clubs, but it was better to discard the king of diamonds\. It cost 4 percentage points/);
  assert.match(s, /Why discard the king of diamonds\? That leaves 22 points of deadwood/);
  assert.match(s, /breaks up a meld \(7 of clubs, 8 of clubs, 9 of clubs\)/);
  const other = decisionSentence({ ...mistake, seat: 1 }, en, name(en), { mine: false, who: "Computer" });
  assert.match(other, /^A mistake: Computer chose to/);
  assert.doesNotMatch(other, /Why/);  // the hints speak to "you": not for the other seat
  assert.equal(decisionSentence(offer, en, name(en), { mine: false, who: "Computer" }), "Computer played the best move: pass on the queen of hearts.");
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    const text = decisionSentence(mistake, t, name(t), { lang: l, mine: true, who: "X" });
    assert.doesNotMatch(text, /\{|\}|undefined|review\./, `${l}: ${text}`);
  }
  assert.equal(noteText({ code: "undercut_risk", params: { k: 7, risk: 0.31 } }, en, name(en)), "A knock with 7 deadwood risked an undercut: a chance of about 31%.");
  assert.equal(noteText({ code: "unknown" }, en, name(en)), "");
});

test("a move tried: its grade, whether best, whether as played", () => {
  const tried = { ...mistake, played: mistake.best, grade: "best", drop: 0 };
  const v = triedView({ played: "discard 9C", tried });
  assert.deepEqual([v.grade, v.symbol, v.best, v.asPlayed, v.win, v.bestWin], ["best", "!", true, false, 0.45, 0.45]);
  const same = triedView({ played: "discard 9C", tried: mistake });
  assert.deepEqual([same.best, same.asPlayed, same.symbol], [false, true, "?"]);
  assert.equal(triedView(null), null);
});

test("a checked decision the play-outs found at least as good: the other move is only the first look's choice", () => {
  const base = { seat: 0, hand: 1, step: 6, kind: "draw", grade: "good", drop: 0, drop_points: 0,
    played: { action: "draw stock", kind: "draw_stock", card: null, win: 0.49, points: -2.4 },
    best: { action: "draw discard", kind: "draw_discard", card: "7H", win: 0.48, points: -3.8 },
    notes: [], best_hint: null, moves: [] };
  const held = { ...base, confirmation: { playouts: 32, judge: "expert-light", drop: -0.01, drop_points: -1.4, z: -0.8, search_drop: 0.03, search_grade: "mistake" } };
  assert.equal(heldUp(held), true);
  assert.equal(canTry(held, 0), false); // nothing to practise
  const text = decisionSentence(held, en, name(en), { lang: "en", mine: true });
  assert.match(text, /at least as well as/);
  assert.doesNotMatch(text, /higher by/);
  const lost = { ...held, grade: "inaccuracy", confirmation: { ...held.confirmation, drop: 0.012 } };
  assert.equal(heldUp(lost), false);
  assert.equal(canTry(lost, 0), true);
  assert.equal(heldUp(base), false); // not checked
  assert.equal(heldUp({ ...held, best: held.played }), false); // the same move
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    for (const mine of [true, false]) {
      const s = decisionSentence(held, t, name(t), { lang: l, mine, who: "X" });
      assert.doesNotMatch(s, /\{|\}|undefined|review\./, `${l}: ${s}`);
    }
    assert.doesNotMatch(t("review.first_choice"), /review\./, l);
  }
});

test("a decision checked by play-outs says so, and the first look's grade when they changed it", () => {
  const d = { grade: "mistake", confirmation: { playouts: 32, judge: "expert-light", drop: 0.04, drop_points: 6, z: 2.5, search_drop: 0.06, search_grade: "blunder" } };
  assert.equal(confirmationText(d, en), "Checked: both moves played on to the end of the hand 32 times, from what could be seen then (the first look said: Blunder).");
  const kept = { ...d, confirmation: { ...d.confirmation, search_grade: "mistake" } };
  assert.equal(confirmationText(kept, en), "Checked: both moves played on to the end of the hand 32 times, from what could be seen then.");
  // not sure, leaning against the move: an inaccuracy, and why it is not called a blunder
  const unsure = { grade: "inaccuracy", confirmation: { ...d.confirmation, drop: 0.06, z: 1.4 } };
  assert.equal(confirmationText(unsure, en), "Checked: both moves played on to the end of the hand 32 times, from what could be seen then; this move did worse, but the results varied too much to say by how much (the first look said: Blunder).");
  const sureInaccuracy = { grade: "inaccuracy", confirmation: { ...d.confirmation, drop: 0.015, z: 3.1 } };
  assert.equal(confirmationText(sureInaccuracy, en), "Checked: both moves played on to the end of the hand 32 times, from what could be seen then (the first look said: Blunder).");
  assert.equal(confirmationText({ grade: "mistake", confirmation: null }, en), null);
  assert.equal(confirmationText({ grade: "best" }, en), null);
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    for (const x of [d, kept, unsure]) {
      const text = confirmationText(x, t);
      assert.match(text, /32/, l);
      assert.doesNotMatch(text, /\{|\}|undefined|review\./, `${l}: ${text}`);
    }
  }
});
