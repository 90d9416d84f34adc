// Unit tests of the hint wording and marking (model.js: hintText, hintNoneText, hintTarget) over
// the four catalogs (run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { hintText, hintNoneText, hintTarget } from "../../src/ginrummy/web/static/model.js";
import { makeT, cardName, LANGUAGES } from "../../src/ginrummy/web/static/i18n.js";

const dir = fileURLToPath(new URL("../../src/ginrummy/web/locales/", import.meta.url));
const cat = Object.fromEntries(LANGUAGES.map((l) => [l, JSON.parse(readFileSync(`${dir}${l}.json`, "utf8"))]));
const en = makeT(cat.en);
const name = (t) => (c) => cardName(c, t);

const base = {
  action: "", kind: "", card: null, reason: "", deadwood: 25, deadwood_after: null, then_discard: null,
  knock_limit: 10, alternative: null, comparison: null, could_knock: null, undercut_risk: null, late_max: null,
};
const H = (o) => ({ ...base, ...o });

const SAMPLES = [
  H({ action: "take", kind: "take", card: "7C", reason: "meld", deadwood_after: 18, then_discard: "KD" }),
  H({ action: "draw discard", kind: "draw_discard", card: "7C", reason: "lower", deadwood_after: 18, then_discard: "KD" }),
  H({ action: "draw discard", kind: "draw_discard", card: "7C", reason: "knock", deadwood_after: 8, then_discard: "KD" }),
  H({ action: "draw discard", kind: "draw_discard", card: "7C", reason: "gin", deadwood_after: 0, then_discard: "KD" }),
  H({ action: "draw stock", kind: "draw_stock", reason: "no_gain", alternative: { kind: "draw_discard", card: "QH", deadwood_after: 27, then_discard: "KD" } }),
  H({ action: "draw stock", kind: "draw_stock", reason: "small_gain", alternative: { kind: "draw_discard", card: "QH", deadwood_after: 23, then_discard: "KD" } }),
  H({ action: "draw stock", kind: "draw_stock", reason: "own_discard", alternative: { kind: "draw_discard", card: "QH", deadwood_after: 20, then_discard: "KD" } }),
  H({ action: "draw stock", kind: "draw_stock", reason: "only" }),
  H({ action: "pass", kind: "pass", card: "QH", reason: "no_gain", deadwood_after: 25, alternative: { kind: "take", card: "QH", deadwood_after: 27, then_discard: "KD" } }),
  H({ action: "discard KD", kind: "discard", card: "KD", reason: "lowest", deadwood: 15, deadwood_after: 15 }),
  H({ action: "discard 9S", kind: "discard", card: "9S", reason: "chances", deadwood: 15, deadwood_after: 18,
    comparison: { card: "4C", deadwood: 15, expected: 12.3, expected_other: 14, danger: 0.1, danger_other: 0.2 } }),
  H({ action: "discard 9S", kind: "discard", card: "9S", reason: "safer", deadwood: 15, deadwood_after: 18,
    comparison: { card: "4C", deadwood: 15, expected: 14.5, expected_other: 14, danger: 0.08, danger_other: 0.35 } }),
  H({ action: "discard 9S", kind: "discard", card: "9S", reason: "wait_risk", deadwood: 8, deadwood_after: 8, could_knock: 8, undercut_risk: 0.41 }),
  H({ action: "discard 9S", kind: "discard", card: "9S", reason: "wait_late", deadwood: 8, deadwood_after: 8, could_knock: 8, late_max: 5 }),
  H({ action: "discard 9S", kind: "discard", card: "9S", reason: "wait_gin", deadwood: 8, deadwood_after: 8, could_knock: 8, late_max: 0 }),
  H({ action: "knock 3D", kind: "knock", card: "3D", reason: "knock", deadwood: 4, deadwood_after: 4 }),
  H({ action: "gin 3D", kind: "gin", card: "3D", reason: "gin", deadwood: 0, deadwood_after: 0 }),
  H({ action: "big gin", kind: "big_gin", reason: "big_gin", deadwood: 0, deadwood_after: 0 }),
];

test("the product's example: take the card, deadwood from 25 to 18", () => {
  const h = SAMPLES[0];
  assert.equal(hintText(h, en, name(en)),
    "Hint: take the 7 of clubs. It completes a meld: after you discard the king of diamonds, your deadwood goes from 25 to 18.");
});

test("a stock draw says what the face-up card would have left", () => {
  assert.equal(hintText(SAMPLES[4], en, name(en)),
    "Hint: draw from the stock. With the queen of hearts your deadwood would be 27 at best, no better than your 25 now.");
  assert.match(hintText(SAMPLES[5], en, name(en)), /from 25 to 23/);
});

test("discards compare in numbers: expected deadwood and danger in percent", () => {
  assert.match(hintText(SAMPLES[10], en, name(en)), /about 12\.3 points expected after your next draw instead of 14/);
  assert.match(hintText(SAMPLES[11], en, name(en)), /about 8%, the 4 of clubs about 35%/);
  assert.match(hintText(SAMPLES[12], en, name(en)), /knock with 8 points.*about 41%/);
  assert.match(hintText(SAMPLES[13], en, name(en)), /only with 5 or less/);
  // decimals in the reader's language: Indonesian writes 12,3
  const id = makeT(cat.id);
  assert.match(hintText(SAMPLES[10], id, name(id), "id"), /12,3/);
});

test("every hint is fully worded in every language: no placeholder or key left", () => {
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    for (const h of SAMPLES) {
      const text = hintText(h, t, name(t), l);
      assert.ok(text.length > 20, `${l} ${h.kind}/${h.reason}`);
      assert.doesNotMatch(text, /\{\w+\}|undefined|null|NaN|hint\.|\. \.$/, `${l} ${h.kind}/${h.reason}: ${text}`);
      if (h.card) assert.ok(text.includes(cardName(h.card, t)), `${l}: the card is named`);
      if (h.kind !== "big_gin") assert.ok(text.includes(String(h.deadwood_after ?? h.deadwood)), `${l}: the numbers are there`);
    }
    for (const r of ["not_your_turn", "hand_over", "game_over", "sitting_out"]) {
      assert.ok(t.has(`hint.none.${r}`), `${l} hint.none.${r}`);
      assert.equal(hintNoneText(r, t), cat[l][`hint.none.${r}`]);
    }
  }
  assert.equal(hintText(null, en, name(en)), "");
});

test("what a hint marks", () => {
  assert.deepEqual(hintTarget(SAMPLES[0]), { where: "pile", card: "7C" });
  assert.deepEqual(hintTarget(SAMPLES[4]), { where: "stock" });
  assert.deepEqual(hintTarget(SAMPLES[8]), { where: "pass" });
  assert.deepEqual(hintTarget(SAMPLES[9]), { where: "hand", card: "KD" });
  assert.deepEqual(hintTarget(SAMPLES[14]), { where: "hand", card: "9S" });
  assert.deepEqual(hintTarget(SAMPLES[15]), { where: "hand", card: "3D" });
  assert.deepEqual(hintTarget(SAMPLES[16]), { where: "hand", card: "3D" });
  assert.deepEqual(hintTarget(SAMPLES[17]), { where: "big_gin" });
  assert.equal(hintTarget(null), null);
});

test("a hint that overrules the plain deadwood count says so, with both win chances, in every language", () => {
  const h = H({ action: "discard 9S", kind: "discard", card: "9S", reason: "chances", deadwood: 15, deadwood_after: 18,
    comparison: { card: "4C", deadwood: 15, expected: 12.3, expected_other: 14, danger: 0.1, danger_other: 0.2 },
    plain: "discard 4C", overrules: true, value: 0.612, plain_value: 0.55, value_kind: "win_chance" });
  assert.match(hintText(h, en, name(en)), /Counting deadwood alone, you would discard the 4 of clubs;.*61% this way, 55% the other way/);
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    const text = hintText(h, t, name(t), l);
    assert.match(text, /61/);
    assert.ok(!text.includes("{"), `${l}: ${text}`);
  }
  // not overruled: no such sentence
  assert.doesNotMatch(hintText({ ...h, overrules: false }, en, name(en)), /Counting deadwood alone/);
  // a take overruled into a stock draw names the face-up card
  const d = H({ action: "draw stock", kind: "draw_stock", reason: "no_gain", plain: "draw discard", overrules: true,
    alternative: { kind: "draw_discard", card: "QH", deadwood_after: 20, then_discard: "KD" } });
  assert.match(hintText(d, en, name(en)), /you would take the queen of hearts from the discard pile/);
});
