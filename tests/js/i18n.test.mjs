// Unit tests of the wording helpers and of the four catalogs (run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  makeT, interpolate, humanize, cardName, cardShort, rankLabel, reasonText, eventText, knockLimitText,
  rulesSummary, resultHeadline, breakdownLabel, levelName, LANGUAGES, serverReasonText, errorAnswerText,
} from "../../src/ginrummy/web/static/i18n.js";

const dir = fileURLToPath(new URL("../../src/ginrummy/web/locales/", import.meta.url));
const load = (l) => JSON.parse(readFileSync(`${dir}${l}.json`, "utf8"));
const cat = Object.fromEntries(LANGUAGES.map((l) => [l, load(l)]));
const en = makeT(cat.en);
const id = makeT(cat.id);

test("interpolate and humanize", () => {
  assert.equal(interpolate("Deadwood {deadwood} > {limit}", { deadwood: 14, limit: 10 }), "Deadwood 14 > 10");
  assert.equal(interpolate("keep {missing}", {}), "keep {missing}");
  assert.equal(humanize("big_gin_bonus"), "Big gin bonus");
  assert.equal(humanize(""), "");
});

test("a missing key falls back to the given text, then to the humanized key", () => {
  const t = makeT({ a: "A {x}" });
  assert.equal(t("a", { x: 1 }), "A 1");
  assert.equal(t("nope", null, "fallback {x}"), "fallback {x}");
  assert.equal(t("breakdown.some_new_code"), "Some new code");
  assert.ok(t.has("a") && !t.has("b"));
});

test("a count of one takes the key's _one form when there is one", () => {
  const t = makeT({ won: "won {points} points", won_one: "won {points} point", cards: "{n} cards" });
  assert.equal(t("won", { points: 1 }), "won 1 point");
  assert.equal(t("won", { points: 2 }), "won 2 points");
  assert.equal(t("cards", { n: 1 }), "1 cards");
  assert.equal(en("result.knock.opp", { points: 1 }), "Computer knocked and won 1 point");
});

test("every catalog has exactly the English keys, all non-empty strings", () => {
  const keys = Object.keys(cat.en).sort();
  for (const l of LANGUAGES) {
    assert.deepEqual(Object.keys(cat[l]).sort(), keys, `catalog ${l}`);
    for (const [k, v] of Object.entries(cat[l])) assert.ok(typeof v === "string" && v.trim(), `${l}:${k}`);
  }
});

test("placeholders are kept in every translation", () => {
  const ph = (s) => (s.match(/\{\w+\}/g) || []).sort().join(",");
  for (const l of LANGUAGES) for (const [k, v] of Object.entries(cat.en)) assert.equal(ph(cat[l][k]), ph(v), `${l}:${k}`);
});

test("translations are not left in English", () => {
  for (const l of ["id", "ms", "jv"]) {
    const same = ["prompt.draw", "btn.discard", "btn.new_game", "help.intro", "error.network"].filter((k) => cat[l][k] === cat.en[k]);
    assert.deepEqual(same, [], l);
  }
});

test("spoken card names", () => {
  assert.equal(cardName("7H", en), "7 of hearts");
  assert.equal(cardName("AS", en), "ace of spades");
  assert.equal(cardName("TD", en), "10 of diamonds");
  assert.equal(cardName("QC", en), "queen of clubs");
  assert.equal(cardName("7H", id), "7 hati");
  assert.equal(cardName("AS", id), "As sekop");
  assert.equal(cardName("KC", id), "K keriting");
  assert.equal(cardName("JD", id), "J wajik");
  assert.equal(rankLabel("TS", en), "10");
  assert.equal(cardShort("7D", en), "7\u2666\uFE0E");
});

test("disabled reasons are worded from the catalog", () => {
  assert.equal(reasonText({ code: "deadwood_over_limit", deadwood: 14, limit: 10 }, en), "Deadwood 14 > 10");
  assert.equal(reasonText(null, en), "");
  assert.equal(reasonText({ code: "brand_new" }, en), "Brand new");
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    for (const code of ["not_your_turn", "draw_first", "deadwood_over_limit", "no_knocking", "gin_only", "not_gin", "hand_over"]) {
      assert.ok(t.has(`reason.${code}`), `${l} reason.${code}`);
    }
    assert.match(reasonText({ code: "deadwood_over_limit", deadwood: 14, limit: 10 }, t), /14.*10/);
  }
});

test("a move a computer played for a person's seat is said as the computer's (issue 21 item 12)", () => {
  const name = (p) => ["Ann", "Bo"][p];
  assert.equal(eventText({ seat: 0, type: "draw_stock", card: "QC", by: "computer" }, 0, en, { name }), "The computer (for you) drew from the stock.");
  assert.equal(eventText({ seat: 0, type: "discard", card: "JC", by: "computer" }, 0, en, { name }), "The computer (for you) discarded the jack of clubs.");
  assert.equal(eventText({ seat: 1, type: "knock", by: "computer" }, 0, en, { name }), "The computer (for Bo) knocked.");
  assert.equal(eventText({ seat: 0, type: "discard", card: "JC" }, 0, en, { name }), "You discarded the jack of clubs.");
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    for (const k of ["ev.computer_for_you", "ev.computer_for", "friends.computer_played"]) assert.ok(t.has(k), `${l} ${k}`);
    assert.match(t("friends.computer_played", { n: 4 }), /4/);
  }
});

test("events in words, from the person's side", () => {
  assert.equal(eventText({ seat: 1, type: "draw_stock" }, 0, en), "Computer drew from the stock.");
  assert.equal(eventText({ seat: 1, type: "discard", card: "7H" }, 0, en), "Computer discarded the 7 of hearts.");
  assert.equal(eventText({ seat: 0, type: "draw_stock", card: "QC" }, 0, en), "You drew the queen of clubs from the stock.");
  assert.equal(eventText({ seat: 0, type: "draw_stock" }, 0, en), "You drew from the stock.");
  assert.equal(eventText({ seat: 1, type: "knock" }, 0, en), "Computer knocked.");
  assert.equal(eventText({ seat: null, type: "dead_hand" }, 0, en), "Dead hand: only two cards are left in the stock.");
  assert.equal(eventText({ seat: null, type: "deal", dealer: 1 }, 0, en, { n: 2 }), "Hand 2: Computer deals.");
  // another seat by its name at the table: the same sentences at every kind of table
  const name = (p) => ["Ann", "Ayu", "Computer 2"][p];
  assert.equal(eventText({ seat: 1, type: "discard", card: "JC" }, 0, en, { name }), "Ayu discarded the jack of clubs.");
  assert.equal(eventText({ seat: 2, type: "draw_discard", card: "7H" }, 0, en, { name }), "Computer 2 took the 7 of hearts from the discard pile.");
  assert.equal(eventText({ seat: 1, type: "draw_stock" }, 0, en, { name }), "Ayu drew from the stock.");
  assert.equal(eventText({ seat: 1, type: "take", card: "9S" }, 0, en, { name }), "Ayu took the 9 of spades.");
  assert.equal(eventText({ seat: 0, type: "discard", card: "JC" }, 1, en, { name }), "Ann discarded the jack of clubs.");
  assert.equal(eventText({ seat: 1, type: "discard", card: "JC" }, 1, en, { name }), "You discarded the jack of clubs.");
  assert.equal(eventText({ seat: null, type: "deal", dealer: 1 }, 0, en, { n: 3, name }), "Hand 3: Ayu deals.");
  assert.equal(eventText({ seat: 1, type: "knock" }, 0, id, { name }), "Ayu mengetuk.");
  assert.equal(eventText({ seat: 1, type: "discard", card: "7H" }, 0, id), "Komputer membuang 7 hati.");
  // seat 1 is the person: seat 0 is then the computer
  assert.equal(eventText({ seat: 0, type: "pass" }, 1, en), "Computer passed.");
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    for (const type of ["take", "pass", "draw_stock", "draw_discard", "discard", "knock", "gin", "big_gin"]) {
      assert.ok(t.has(`ev.you.${type}`) && t.has(`ev.other.${type}`), `${l} ${type}`);
      // every other seat's sentence names it, and names it once
      assert.equal((cat[l][`ev.other.${type}`].match(/\{name\}/g) || []).length, 1, `${l} ${type}`);
      assert.equal(t(`ev.other.${type}`, { name: "Ayu", card: "X" }).startsWith("Ayu"), true, `${l} ${type}`);
    }
    assert.ok(t("ev.deal.other", { n: 1, name: "Ayu" }).includes("Ayu"), l);
  }
});

test("the knock limit of the hand and why", () => {
  const st = (o) => ({ rules: { preset: "standard", target: 100, knock_limit: 10, gin_bonus: 25, undercut_bonus: 25 }, knock_limit: 10, knock_limit_reason: "rules", ...o });
  assert.equal(knockLimitText(st(), en), "knock ≤ 10");
  assert.equal(knockLimitText(st({ knock_limit: 7, knock_limit_reason: "upcard", initial_upcard: "7D" }), en), "knock ≤ 7 (Oklahoma: upcard 7\u2666\uFE0E)");
  assert.equal(knockLimitText(st({ knock_limit: 0, knock_limit_reason: "upcard", initial_upcard: "AC" }), en), "gin only (Oklahoma: upcard A\u2663\uFE0E)");
  assert.equal(knockLimitText(st({ knock_limit: 0 }), en), "no knocking");
  assert.deepEqual(rulesSummary(st(), en), ["Standard", "to 100", "knock ≤ 10", "gin 25", "undercut 25"]);
});

test("result headlines and breakdown labels", () => {
  assert.equal(resultHeadline({ kind: "knock", winner: 0, points: 12 }, 0, en), "You knocked and won 12 points");
  assert.equal(resultHeadline({ kind: "undercut", winner: 1, points: 26 }, 0, en), "Computer undercut you: 26 points");
  assert.equal(resultHeadline({ kind: "dead", winner: null, points: 0 }, 0, en), "Dead hand: no score");
  assert.equal(resultHeadline(null, 0, en), "");
  assert.equal(breakdownLabel({ code: "undercut_bonus", points: 25 }, en), "Undercut bonus");
  assert.equal(breakdownLabel({ code: "mystery_points", points: 1 }, en), "Mystery points");
  assert.equal(levelName("hard", en), "Hard");
  assert.equal(levelName({ name: "grandmaster", label: "GM" }, en), "GM");
});

test("a server reason is worded from the catalog, placed on its hand, in plain words", () => {
  const over = { code: "over_knock_limit", params: { hand: 1, deadwood: 15, limit: 10 } };
  assert.equal(serverReasonText(over, id, "id"), "Ronde 1: Kartu mati pengetuk 15, melebihi batas ketuk 10.");
  assert.equal(serverReasonText(over, en, "en"), "Hand 1: The knocker's deadwood is 15, over the knock limit of 10.");
  const num = { code: "sheet_number", params: { field: "knocker_deadwood", max: 100000, value: "-3" } };
  assert.equal(serverReasonText(num, id, "id"), "kartu mati pengetuk: berikan bilangan bulat dari 0 sampai 100.000 (bukan -3).");
  assert.equal(serverReasonText({ code: "not_in_hand", params: { card: "QS" } }, en, "en"), "The queen of spades is not in your hand.");
  assert.equal(serverReasonText({ code: "no_such_code", params: {} }, en, "en"), null);
  assert.equal(serverReasonText(null, en, "en"), null);
});

test("an error answer: the reason's words, else the server's message, else the generic text", () => {
  const withReason = { detail: { code: "sheet", message: "English", reason: { code: "sheet_full", params: { max: 500 } } } };
  assert.equal(errorAnswerText(withReason, id, "id"), "Satu lembar memuat paling banyak 500 ronde.");
  assert.equal(errorAnswerText({ detail: { code: "x", message: "Server words", reason: { code: "new_code", params: {} } } }, id, "id"), "Server words");
  assert.equal(errorAnswerText({ detail: [{ msg: "bad" }], message: "Body words", reason: { code: "body_invalid", params: { fields: ["seq"] } } }, en, "en"),
    "The request has wrong or missing parts: seq.");
  assert.equal(errorAnswerText(null, en, "en"), en("error.generic"));
});
