// Unit tests of the variant tables' page logic and the variant score sheet models
// (run: node --test tests/js/). The fixtures are server answers, kept current by
// tests/test_variant_rules.py::test_js_fixtures_are_current.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { makeT, LANGUAGES } from "../../src/ginrummy/web/static/i18n.js";
import {
  constrain, playerName, opponentOf, variantHeadline, isVariant, moveText, layoffNote, laidByText, rulesParts, teamNames, partnershipSheet,
} from "../../src/ginrummy/web/static/variants.js";
import { rulesSummary } from "../../src/ginrummy/web/static/i18n.js";
import {
  hollywoodFromKeeper, hollywoodFromState, threeFromKeeper, columnsFromKeeper, partnershipFromState,
} from "../../src/ginrummy/web/static/sheet.js";

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const meta = JSON.parse(readFileSync(here("./menu_meta.json"), "utf8"));
const fx = JSON.parse(readFileSync(here("./sheet_fixtures.json"), "utf8"));
const dir = fileURLToPath(new URL("../../src/ginrummy/web/locales/", import.meta.url));
const cat = Object.fromEntries(LANGUAGES.map((l) => [l, JSON.parse(readFileSync(`${dir}${l}.json`, "utf8"))]));
const en = makeT(cat.en);

const oklahoma = { knock_limit: 10, gin_bonus: 25, undercut_bonus: 25, undercut_on_tie: true, big_gin_bonus: null, box_bonus: 25,
  game_bonus: 100, shutout: "double_total", target: 150, next_dealer: "winner", boxes_count_toward_target: false, extra_boxes: false,
  dead_hand_rule: "standard", oklahoma: true, oklahoma_ace: "gin_only", oklahoma_spade_double: true };

test("the menu keeps Oklahoma, straight gin and the Oklahoma options coherent", () => {
  let r = constrain({ ...oklahoma, knock_limit: 0 }, "standard", meta);
  assert.equal(r.values.knock_limit, 10);
  assert.ok(r.off.has("knock_limit") && !r.off.has("oklahoma_ace"));
  r = constrain({ ...oklahoma, oklahoma: false, knock_limit: 0, oklahoma_ace: "one", oklahoma_spade_double: false }, "standard", meta);
  assert.equal(r.values.oklahoma_ace, "gin_only");
  assert.equal(r.values.oklahoma_spade_double, true);
  assert.equal(r.values.knock_limit, 0);
  assert.ok(r.off.has("oklahoma") && r.off.has("undercut_bonus") && r.off.has("oklahoma_ace"));
  assert.equal(r.values.undercut_bonus, 25, "a field without effect keeps its value");
  r = constrain({ ...oklahoma, oklahoma: false, knock_limit: 7 }, "standard", meta);
  assert.equal(r.values.oklahoma, false);
  assert.ok(r.off.has("oklahoma") && !r.off.has("knock_limit"));
});

test("a scoring fixes its own fields", () => {
  const r = constrain({ ...oklahoma, next_dealer: "alternate", extra_boxes: true }, "partnership", meta);
  assert.equal(r.values.next_dealer, "winner");
  assert.equal(r.values.extra_boxes, false);
  assert.ok(r.off.has("next_dealer") && r.off.has("extra_boxes"));
  assert.equal(constrain({ ...oklahoma, next_dealer: "loser" }, "hollywood", meta).values.next_dealer, "loser");
});

test("players are named by table", () => {
  const three = { you: 0, table: { scoring: "three_player", seats: [0, 2], players: 3 } };
  const four = { you: 0, table: { scoring: "partnership", seats: [0, 3], players: 4 } };
  assert.ok(isVariant(three) && !isVariant({ you: 0 }));
  assert.equal(playerName(three, 0, en), "You");
  assert.equal(playerName(three, 2, en), "Computer 2");
  assert.equal(playerName(four, 2, en), "Partner C");
  assert.equal(playerName(four, 3, en), "Opponent D");
  assert.equal(opponentOf(three), 2);
  assert.equal(opponentOf({ you: 0, table: { scoring: "three_player", seats: [1, 2] } }), null);
  assert.equal(variantHeadline({ kind: "knock", winner: 3, points: 12 }, four, en), "Opponent D knocked and won 12 points");
  assert.equal(variantHeadline({ kind: "gin", winner: 0, points: 30 }, four, en), en("result.gin.you", { points: 30 }));
  assert.equal(moveText(four, { seat: 2, type: "discard", card: "7H" }, en), "Partner C discarded the 7 of hearts.");
  assert.equal(moveText(three, { seat: 2, type: "draw_stock" }, en), "Computer 2 drew from the stock.");
  assert.equal(moveText(three, { seat: 0, type: "discard", card: "7H" }, en), "You discarded the 7 of hearts.");
  // a table of people before the start: an open seat is named so, never "Computer 2"
  const waiting = { ...three, phase: "waiting", seats: [{ seat: 0, kind: "person", name: "Ayu" }, { seat: 1, kind: "person", name: "Bo" }, { seat: 2, kind: "open" }] };
  assert.equal(playerName(waiting, 1, en), "Bo");
  assert.equal(playerName(waiting, 2, en), "Open seat");
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    for (const k of ["vt.computer_n", "vt.p4.1", "vt.p4.2", "vt.p4.3", "scoring.hollywood", "vt.hw.closed", "keeper.title"]) assert.ok(t.has(k), `${l}:${k}`);
  }
});

test("the Hollywood sheet from the keeper: H-5 running totals per game", () => {
  const m = hollywoodFromKeeper(fx.hollywood_h5);
  assert.deepEqual(m.names, ["A", "B"]);
  const rows = m.rows.filter((r) => !r.dead);
  assert.equal(rows.length, 9);
  assert.deepEqual(rows[2].cells, [[43, null], [25, null], [null, null]]);  // A25 into games 1 and 2
  assert.deepEqual(rows[7].cells, [[105, null], [87, null], [62, null]]);  // game 1 closes (H-5)
  assert.deepEqual(rows[7].closes, [true, false, false]);
  assert.deepEqual(rows[8].cells, [[null, null], [null, 90], [null, 60]]);  // B40 skips the closed game
  assert.equal(m.games[0].closedAfter, 8);
  assert.deepEqual(m.games[0].final.totals, [305, 122]);
  assert.equal(m.games[1].final, null);
  assert.ok(m.rows[9].dead);
});

test("the Hollywood sheet from a game's score uses the server's entries", () => {
  const score = { hands: [{ number: 1, winner: 1, points: 20, kind: "gin", games: [1] }, { number: 2, winner: null, points: 0, kind: "dead", games: [] },
    { number: 3, winner: 1, points: 10, kind: "knock", games: [1, 2] }],
  games: [{ closed_after: null, winner: null, final: null }, { closed_after: null, winner: null, final: null }, { closed_after: null, winner: null, final: null }],
  totals: [0, 0], final: null };
  const m = hollywoodFromState(score, ["You", "Computer"]);
  assert.deepEqual(m.rows[2].cells, [[null, 30], [null, 10], [null, null]]);
  assert.ok(m.rows[1].dead && !m.over);
});

test("three players and partnership models", () => {
  const th = threeFromKeeper(fx.three);
  assert.deepEqual(th.rows.map((r) => r.dealer), [2, 1, 1, 0]);
  assert.deepEqual(th.rows[3].totals, [20, 0, 55]);
  assert.equal(th.winner, 2);
  assert.equal(th.net.reduce((a, b) => a + b, 0), 0);
  const p = columnsFromKeeper(fx.partnership);
  assert.deepEqual(p.names, ["A+C", "B+D"]);
  assert.deepEqual(p.rows.map((r) => [r.col, r.points]), [[0, 20], [1, 25]]);
  assert.deepEqual(p.rows[1].detail[1], { players: ["C", "B"], winner: null, points: 0 });
  const st = partnershipFromState({ hands: [{ number: 1, team: 1, net: 5, running: [0, 5], tables: [{ players: [0, 1], winner: 1, points: 15, kind: "knock" }, { players: [2, 3], winner: 2, points: 10, kind: "knock" }] }],
    hand_points: [0, 5], boxes: [0, 1], target: 125, final: null }, ["You", "Opponent B", "Partner C", "Opponent D"], ["Us", "Them"]);
  assert.deepEqual(st.rows[0].detail[0], { players: ["You", "Opponent B"], winner: "Opponent B", points: 15, kind: "knock" });
});

test("a layoff in the result panel names the seat that made it", () => {
  const lo = { card: "TH", onto: ["JH", "QH", "KH"] };
  const four = { you: 0, table: { scoring: "partnership" } };
  assert.match(layoffNote(four, 3, lo, en), /^Opponent D laid off the 10 of hearts onto J\S* Q\S* K\S*$/);
  assert.match(layoffNote(four, 0, lo, en), /^You laid off the 10 of hearts/);
  assert.equal(laidByText(four, 1, en), "laid off by Opponent B");
  assert.equal(laidByText(four, 0, en), "laid off by you");
  const three = { you: 0, table: { scoring: "three_player" } };
  assert.match(layoffNote(three, 2, lo, en), /^Computer 2 laid off/);
  assert.equal(laidByText(three, 1, en), "laid off by Computer 1");
  const two = { you: 0 };  // the two-player table: "the computer", as before
  assert.match(layoffNote(two, 1, lo, en), /^Computer laid off the 10 of hearts/);
  assert.equal(laidByText(two, 1, en), "laid off by the computer");
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    const line = layoffNote(four, 3, lo, t);
    assert.ok(line.startsWith(t("vt.p4.3")), `${l}: ${line}`);
    assert.ok(!line.includes(t("table.computer")), `${l}: ${line}`);
    assert.ok(laidByText(four, 1, t).includes(t("vt.p4.1")), l);
  }
});

test("the rules bar names the table once (the partnership preset has the table's name)", () => {
  for (const l of LANGUAGES) {
    const t = makeT(cat[l]);
    const four = { you: 0, table: { scoring: "partnership" }, rules: { preset: "partnership", target: 125 } };
    const parts = rulesParts(rulesSummary(four, t), four, t);
    assert.equal(parts.filter((p) => p === t("scoring.partnership")).length, 1, `${l}: ${parts.join(" · ")}`);
    const hw = { you: 0, table: { scoring: "hollywood" }, rules: { preset: "standard", target: 100 } };
    assert.deepEqual(rulesParts(rulesSummary(hw, t), hw, t).slice(0, 2), [t("scoring.hollywood"), t("preset.standard")], l);
    const two = { you: 0, rules: { preset: "standard", target: 100 } };
    assert.equal(rulesParts(rulesSummary(two, t), two, t)[0], t("preset.standard"), l);
  }
});

test("at a table of people, a person is named by their display name; a standard table is no variant", () => {
  const st = { you: 1, table: { scoring: "partnership", players: 4, seats: [1, 0] },
    seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "person", name: "Bo" }, { seat: 2, kind: "computer", level: "hard" }, { seat: 3, kind: "open" }] };
  assert.equal(playerName(st, 0, en), "Ann");
  assert.equal(playerName(st, 1, en), "You");
  assert.equal(playerName(st, 2, en), "Opponent C");  // seen from seat B
  assert.equal(isVariant({ you: 0, table: { scoring: "standard", players: 2 } }), false);
  assert.equal(isVariant({ you: 0, table: { scoring: "hollywood", players: 2 } }), true);
});

test("partnership names and teams are seen from the person's own seat", () => {
  const b = { you: 1, table: { scoring: "partnership", players: 4, seats: [1, 0] }, seats: [] };
  assert.equal(playerName(b, 3, en), "Partner D");
  assert.equal(playerName(b, 0, en), "Opponent A");
  assert.equal(playerName(b, 2, en), "Opponent C");
  assert.equal(playerName({ ...b, you: 0 }, 2, en), "Partner C");
  assert.deepEqual(teamNames(en, 1), ["Them", "Us"]);
  assert.deepEqual(teamNames(en, 2), ["Us", "Them"]);
});

test("layoffs at a table of people name the person", () => {
  const st = { you: 0, seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "person", name: "Bo" }] };
  assert.equal(layoffNote(st, 1, { card: "AS", onto: ["AH", "AD", "AC"] }, en).startsWith("Bo laid off"), true);
  assert.equal(laidByText(st, 1, en), "laid off by Bo");
  assert.equal(layoffNote({ you: 0 }, 1, { card: "AS", onto: ["AH", "AD", "AC"] }, en).startsWith("Computer laid off"), true);
});

test("the partnership score sheet is seen from the person's team at every seat: Us | Them", () => {
  const score = { scoring: "partnership", hands: [{ number: 1, team: 1, net: 5, running: [0, 5], tables: [] }, { number: 2, team: null, net: 0, running: [0, 5], tables: [] }],
    hand_points: [0, 5], boxes: [0, 1], target: 125, final: { winner: 1, hand_points: [0, 130], boxes: [0, 2], box_points: [0, 40], game_bonus: 100, totals: [0, 270], margin: 270 } };
  for (const you of [0, 1, 2, 3]) {
    const st = { you, table: { scoring: "partnership", players: 4 }, seats: [], score };
    const m = partnershipSheet(st, en);
    assert.deepEqual(m.names, ["Us", "Them"], `seat ${you}`);
    const mine = you % 2;  // team 1 (B and D) won hand 1 and the game
    assert.deepEqual(m.handPoints, mine ? [5, 0] : [0, 5], `seat ${you}`);
    assert.deepEqual(m.boxes, mine ? [1, 0] : [0, 1], `seat ${you}`);
    assert.equal(m.rows[0].col, mine ? 0 : 1, `seat ${you}`);
    assert.deepEqual(m.rows[0].totals, mine ? [5, 0] : [0, 5], `seat ${you}`);
    assert.equal(m.rows[1].col, null);
    assert.equal(m.final.winner, mine ? 0 : 1, `seat ${you}`);
    assert.deepEqual(m.final.totals, mine ? [270, 0] : [0, 270], `seat ${you}`);
    assert.equal(m.names[m.final.winner], mine ? "Us" : "Them");
  }
});
