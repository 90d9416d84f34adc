// Unit tests of what each view of the game page derives from the state it is given: the
// opponent, the piles, the status, the hand, the deadwood counter, the buttons, the hint, the
// result panel, the move log, the pile's view, the knock dialog, the question before leaving and
// the games in progress (render.js, result.js, movelog.js, knock.js, games.js; run: node --test
// tests/js/). English words from the page's own catalog.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { makeT } from "../../src/ginrummy/web/static/i18n.js";
import { initialPage, reduce } from "../../src/ginrummy/web/static/store.js";
import {
  actionsView, actorName, canHint, currentHint, deadwoodView, handView, hintView, opponentSeat, opponentView, pilesView, statusView,
} from "../../src/ginrummy/web/static/render.js";
import { resultView } from "../../src/ginrummy/web/static/result.js";
import { logView, movesSaid, pileView } from "../../src/ginrummy/web/static/movelog.js";
import { fieldKind, statValue } from "../../src/ginrummy/web/static/dialogs.js";
import { knockView } from "../../src/ginrummy/web/static/knock.js";
import { gameLine, leaveView, waitingSeats } from "../../src/ginrummy/web/static/games.js";
import { seatLabel } from "../../src/ginrummy/web/static/friends.js";

const en = JSON.parse(readFileSync(new URL("../../src/ginrummy/web/locales/en.json", import.meta.url), "utf8"));
const t = makeT(en);

/** The page showing `state` (its seat taken), in English, with `over` on top. */
function shown(state, over = {}) {
  let p = reduce(initialPage(), { type: "language", lang: "en", t });
  p = reduce(p, { type: "seat", game: { game_id: state.game_id, token: "tok" }, state });
  return { ...p, ...over };
}

const discardState = {
  game_id: "g1", hand_number: 2, seq: 12, phase: "discard", you: 0, dealer: 1, level: "hard", knock_limit: 10,
  hand: ["3S", "4S", "5S", "7C", "7D", "7H", "KD", "2H", "9C", "QC", "JS"], drawn: "JS",
  arrangement: { melds: [["3S", "4S", "5S"], ["7C", "7D", "7H"]], deadwood: ["2H", "9C", "KD", "QC"], deadwood_points: 31 },
  stock_count: 20, discard_pile: ["AD", "6H", "TC"], opponent: { card_count: 10, known: ["TD"] },
  legal: [
    { action: "discard 3S", type: "discard", card: "3S" }, { action: "discard KD", type: "discard", card: "KD" },
    { action: "discard JS", type: "discard", card: "JS" },
  ],
  knock: { reason: { code: "deadwood_over_limit", deadwood: 21, limit: 10 } }, gin: { reason: { code: "deadwood_not_zero", deadwood: 21 } },
  rules: { preset: "standard" },
  events: [
    { seq: 1, type: "deal", hand: 2 }, { seq: 2, type: "draw_stock", seat: 1, hand: 2 }, { seq: 3, type: "discard", seat: 1, card: "TC", hand: 2 },
    { seq: 4, type: "draw_stock", seat: 0, card: "JS", hand: 2 },
  ],
};

test("the opponent: the computer and its level, its cards, who deals, the cards known to be in its hand", () => {
  const v = opponentView(shown(discardState));
  assert.equal(v.name, "Computer (Hard)");
  assert.equal(v.count, "10 cards");
  assert.equal(v.backs, 10);
  assert.equal(v.oppDeals, true);
  assert.equal(v.youDeal, false);
  assert.deepEqual(v.known, ["TD"]);
  // while another seat's moves are shown, the table between events
  assert.equal(opponentView(shown(discardState, { table: { stock: 21, pile: [], oppCount: 11, known: [] } })).backs, 11);
  assert.equal(opponentView({ ...initialPage(), t }).count, "");
});

test("the piles: counts, the top card, whether each may be drawn now and its name", () => {
  const v = pilesView(shown(discardState));
  assert.equal(v.stock, 20);
  assert.equal(v.canStock, false);
  assert.equal(v.canPile, false);
  assert.equal(v.top, "TC");
  assert.equal(v.stockLabel, "Stock, 20 cards");
  assert.match(v.pileLabel, /^Discard pile, 3 cards, top card /);
  const draw = { ...discardState, phase: "draw", legal: [{ action: "draw stock", type: "draw_stock" }, { action: "draw discard", type: "draw_discard" }] };
  const d = pilesView(shown(draw));
  assert.equal(d.canStock, true);
  assert.equal(d.canPile, true);
  assert.equal(d.stockLabel, "Stock, 20 cards. Draw the top card");
  assert.equal(pilesView(shown(draw, { busy: true })).canStock, false);
  assert.equal(pilesView(shown(draw, { animating: true })).canPile, false);
});

test("the status: the prompt and its phase, the offer's buttons, the hand's number, busy", () => {
  const v = statusView(shown(discardState));
  assert.equal(v.phase, "discard");
  assert.equal(v.text, "Pick a card to discard");
  assert.equal(v.offerHidden, true);
  assert.equal(v.meta, "Hand 2");
  assert.equal(v.busy, false);
  const anim = statusView(shown(discardState, { animating: true }));
  assert.equal(anim.phase, "opponent");
  assert.equal(anim.text, "Computer is playing…");
  assert.equal(anim.busy, true);
  const offer = { ...discardState, phase: "offer", legal: [{ action: "take", type: "take" }, { action: "pass", type: "pass" }] };
  const o = statusView(shown(offer));
  assert.equal(o.offerHidden, false);
  assert.equal(o.takeHidden, false);
  assert.equal(o.takeDisabled, false);
  assert.equal(statusView(shown(offer, { busy: true })).passDisabled, true);
  const none = statusView({ ...initialPage(), t, loading: false });
  assert.equal(none.phase, null);
  assert.equal(none.meta, "");
});

test("the hand: melds, deadwood and the extra card in groups, the card just drawn tagged, the selection", () => {
  const v = handView(shown(discardState, { selected: "KD" }));
  assert.deepEqual(v.groups.map((g) => [g.kind, g.cards.map((c) => c.card)]), [
    ["meld", ["3S", "4S", "5S"]], ["meld", ["7C", "7D", "7H"]], ["deadwood", ["KD", "2H", "9C", "QC"]], ["spare", ["JS"]]]);
  assert.deepEqual(v.groups.map((g) => g.aria), ["Meld 1, Run", "Meld 2, Set", "Deadwood", v.groups[3].label]);
  const js = v.groups[3].cards[0];
  assert.equal(js.tag, "new");
  assert.equal(js.tagText, "NEW");
  assert.match(js.description, /, just drawn$/);
  assert.equal(v.groups[2].cards[0].selected, true);
  assert.equal(v.disabled, false);
  assert.equal(handView(shown(discardState, { busy: true })).disabled, true);
  // pro mode: the person's own order in one group, no meld marks
  const pro = handView(shown(discardState, { settings: { ...initialPage().settings, pro: true } }));
  assert.deepEqual(pro.groups.map((g) => g.kind), ["free"]);
  assert.deepEqual(handView({ ...initialPage(), t }).groups, []);
});

test("the deadwood counter: the count after the best discard, marked when a knock is allowed; none in pro mode", () => {
  assert.deepEqual(deadwoodView(shown(discardState)), { text: "Deadwood 31 after the best discard", cls: "dw-counter" });
  const low = { ...discardState, hand: discardState.hand.slice(0, 10), arrangement: { ...discardState.arrangement, deadwood_points: 8 } };
  assert.deepEqual(deadwoodView(shown(low)), { text: "Deadwood 8", cls: "dw-counter ok" });
  const gin = { ...low, arrangement: { ...low.arrangement, deadwood_points: 0 } };
  assert.equal(deadwoodView(shown(gin)).cls, "dw-counter gin");
  assert.equal(deadwoodView(shown(discardState, { settings: { ...initialPage().settings, pro: true } })).text, "");
});

test("the buttons: discard for the selected legal card only; knock and gin off with their reason (none in pro mode)", () => {
  const v = actionsView(shown(discardState));
  assert.equal(v.discard, true);  // nothing selected
  assert.equal(actionsView(shown(discardState, { selected: "KD" })).discard, false);
  assert.equal(actionsView(shown(discardState, { selected: "9C" })).discard, true);  // not a legal discard
  assert.equal(actionsView(shown(discardState, { selected: "KD", busy: true })).discard, true);
  assert.equal(v.knock, true);
  assert.ok(v.knockWhy.includes("21"), v.knockWhy);
  assert.equal(v.gin, true);
  assert.ok(v.ginWhy);
  assert.equal(v.bigGinHidden, true);
  assert.equal(v.hint, false);
  assert.equal(v.sort, false);
  const pro = actionsView(shown(discardState, { settings: { ...initialPage().settings, pro: true } }));
  assert.equal(pro.knockWhy, "");
  assert.equal(pro.ginWhy, "");
  const knock = { ...discardState, legal: [...discardState.legal, { action: "knock KD", type: "knock", card: "KD", deadwood_points: 9 }] };
  assert.equal(actionsView(shown(knock)).knock, false);
  assert.equal(actionsView(shown(knock)).knockWhy, "");
});

test("a hint: asked only at the person's move with nothing in flight, shown only for the state it was asked on", () => {
  const p = shown(discardState);
  assert.equal(canHint(p), true);
  assert.equal(canHint({ ...p, hinting: true }), false);
  assert.equal(canHint({ ...p, state: { ...discardState, phase: "opponent" } }), false);
  assert.equal(canHint({ ...p, state: { ...discardState, legal: [{ action: "next hand", type: "next_hand" }] } }), false);
  const hint = { seq: 12, gameId: "g1", hint: { kind: "discard", card: "KD", reason: "most_deadwood", deadwood: 31, deadwood_after: 21 } };
  const withHint = { ...p, hint };
  assert.equal(currentHint(withHint), hint);
  const v = hintView(withHint);
  assert.equal(v.shown, true);
  assert.ok(v.text.length > 10, v.text);
  assert.deepEqual(v.target, { where: "hand", card: "KD" });
  assert.equal(hintView({ ...withHint, state: { ...discardState, seq: 13 } }).shown, false);  // the table moved on
  assert.equal(hintView({ ...withHint, animating: true }).shown, false);
});

test("who the table waits for: the computer, or a seat's name at a table of people", () => {
  assert.equal(actorName(discardState, t), "Computer");
  const people = { ...discardState, turn: 1, seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "person", name: "Bo" }] };
  assert.equal(opponentSeat(people), 1);
  assert.equal(actorName(people, t), "Bo");
  assert.equal(opponentView(shown(people)).name, "Bo");
});

const handOver = {
  ...discardState, phase: "hand-over", seq: 30, legal: [{ action: "next hand", type: "next_hand" }],
  result: {
    kind: "knock", knocker: 0, winner: 0, points: 12, breakdown: [{ code: "deadwood_difference", points: 12 }],
    hands: [
      { seat: 0, melds: [["3S", "4S", "5S"], ["7C", "7D", "7H"]], deadwood: ["2H", "AC"], deadwood_points: 3 },
      { seat: 1, melds: [], deadwood: ["KD", "QC"], deadwood_points: 15, layoffs: [{ card: "6S", onto: ["3S", "4S", "5S"] }] },
    ],
  },
  score: { hands: [{ number: 1, kind: "knock", winner: 0, points: 12 }], hand_points: [12, 0], boxes: [1, 0], target: 100 },
  fairness: { revealed: { salt: "ab", deck: ["AS"] } },
};

test("the result panel: the headline, the hands (the person's last) with the cards laid off, the breakdown, the buttons", () => {
  const v = resultView(shown(handOver));
  assert.equal(v.show, true);
  assert.equal(v.title, "You knocked and won 12 points");
  assert.deepEqual(v.hands.map((h) => h.who), ["Computer", "You"]);
  assert.deepEqual(v.hands[1].melds[0], { cards: ["3S", "4S", "5S"], laid: ["6S"] });
  assert.equal(v.hands[0].notes.length, 1);
  assert.equal(v.breakdown.at(-1).total, true);
  assert.equal(v.breakdown.at(-1).label, "Points to You");
  assert.equal(v.nextHidden, false);
  assert.equal(v.nextDisabled, false);
  assert.equal(resultView(shown(handOver, { busy: true })).nextDisabled, true);
  assert.equal(v.rematchHidden, true);
  assert.equal(v.replay, "/replay?game=g1&hand=2");
  assert.equal(v.review, "/review?game=g1&hand=2");
  assert.equal(resultView(shown({ ...handOver, phase: "game-over" })).review, "/review?game=g1");
  // a partnership's hand 2 is its deals 3 and 4: the links open the deal shown, by its number
  const teams = { ...handOver, table: { scoring: "partnership", players: 4, teams: [[0, 2], [1, 3]], hand: 2, deal: 4 } };
  assert.equal(resultView(shown(teams)).replay, "/replay?game=g1&hand=4");
  assert.equal(resultView(shown(teams)).review, "/review?game=g1&hand=4");
  assert.deepEqual(v.fair, { salt: "ab", deck: ["AS"] });
  assert.equal(resultView(shown(handOver, { animating: true })).show, false);
  assert.equal(resultView(shown(discardState)).show, false);
  const resigned = resultView(shown({ ...handOver, phase: "game-over", resigned: { seat: 0 } }));
  assert.deepEqual([resigned.resigned, resigned.title], [true, t("game.resigned")]);
});

test("the move log: each move in words by whose it is, the stock card never named; the last move of another seat", () => {
  const v = logView(shown(discardState));
  assert.deepEqual(v.items.map((i) => [i.cls, i.type]), [["all", "deal"], ["other", "draw_stock"], ["other", "discard"], ["mine", "draw_stock"]]);
  assert.ok(!v.items[3].text.includes("jack"), v.items[3].text);  // the person's own stock card: not named
  assert.equal(v.lastShown, true);
  assert.match(v.last, /^Last move: /);
  assert.equal(v.hidden, false);
  // while another seat's moves are shown, the log follows them
  assert.equal(logView(shown(discardState, { animating: true, logUpTo: 2 })).count, 2);
  const empty = logView({ ...initialPage(), t });
  assert.deepEqual([empty.hidden, empty.items], [true, [{ cls: "none", type: null, text: "No moves yet." }]]);
});

test("the whole discard pile: bottom first, who put each card there, the top marked", () => {
  const st = { ...discardState, initial_upcard: "6H", discard_pile: ["6H", "TC"],
    events: [{ seq: 1, type: "deal", hand: 2 }, { seq: 3, type: "discard", seat: 1, card: "TC", hand: 2 }] };
  const v = pileView(shown(st));
  assert.deepEqual(v.cards.map((c) => [c.card, c.who, c.top]), [["6H", "Upcard", false], ["TC", "Computer", true]].map(([c, w, top]) => [c, c === "6H" ? t("pile.upcard") : w, top]));
  assert.match(v.note, /^2 cards/);
});

test("the knock dialog: the knock previewed, the cards to choose from, its melds and deadwood", () => {
  const knocks = [
    { action: "knock 9C", type: "knock", card: "9C", deadwood_points: 4, melds: [["3S", "4S", "5S"], ["7C", "7D", "7H"]], deadwood: ["2H", "AC"] },
    { action: "knock KD", type: "knock", card: "KD", deadwood_points: 8, melds: [["3S", "4S", "5S"]], deadwood: ["2H"] },
  ];
  const p = shown({ ...discardState, legal: knocks }, { knockChoice: knocks[0] });
  const v = knockView(p);
  assert.equal(v.choose, true);
  assert.deepEqual(v.choices.map((c) => [c.card, c.checked]), [["9C", true], ["KD", false]]);
  assert.deepEqual(v.melds.map((m) => m.kind), ["Run", "Set"]);
  assert.deepEqual(v.deadwood, ["2H", "AC"]);
  assert.match(v.text, /deadwood 4 \(limit 10\)/);
  assert.equal(knockView({ ...p, knockChoice: null }), null);
});

test("before leaving: a game in play, a waiting table (who sits there), other people told", () => {
  const label = (st, n) => `Seat ${n + 1}`;
  const v = leaveView(discardState, t, label);
  assert.deepEqual([v.title, v.keep, v.resign], ["leave.title", "leave.keep", true]);
  assert.equal(v.text, "Hand 2 of this game is in play.");
  const people = { ...discardState, seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "person", name: "Bo" }] };
  const pv = leaveView(people, t, label);
  assert.equal(pv.resign, false);
  assert.ok(pv.text.includes("Bo will see you as away"), pv.text);
  const waiting = { ...people, phase: "waiting", table: { status: "waiting" }, seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "open" }] };
  assert.equal(waitingSeats(waiting, t, label), "You · 1 seat open");
  assert.equal(leaveView(waiting, t, label).title, "leave.title_table");
});

test("a game in progress in one line: the rules, the level, the hand and the score", () => {
  const st = { ...discardState, score: { hands: [], hand_points: [12, 30], boxes: [0, 0], target: 100 } };
  assert.equal(gameLine(st, t, () => ""), "Standard · Hard — Hand 2 · you 12, Computer 30");
});

test("a seat in words: an open seat, a computer by the table's name for it and its level, a person's name", () => {
  const two = { you: 0, table: { players: 2 }, seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "computer", level: "easy" }] };
  assert.equal(seatLabel(two, 1, t), "Computer (Easy)");
  assert.equal(seatLabel(two, 0, t), "Ann");
  const three = { you: 0, table: { players: 3 }, seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "open" }, { seat: 2, kind: "computer", level: "hard" }] };
  assert.equal(seatLabel(three, 1, t), t("friends.open_seat"));
  assert.equal(seatLabel(three, 2, t), `${t("vt.computer_n", { n: 2 })} (Hard)`);
  assert.equal(seatLabel({ ...three, seats: [{ seat: 1, kind: "person" }] }, 1, t), t("friends.seat_n", { n: 2 }));
  assert.equal(seatLabel(three, 5, t), "");
});

test("the live region: each new move in words, then what to do now, or the hand's result", () => {
  const evs = discardState.events.slice(2, 3);  // the computer's discard
  const said = movesSaid(evs, discardState, t);
  assert.ok(said.endsWith("Pick a card to discard"), said);
  assert.ok(said.startsWith("Computer"), said);
  assert.equal(movesSaid([], discardState, t), "");
  const over = movesSaid([{ seq: 29, type: "knock", seat: 0, card: "9C", hand: 2 }], handOver, t);
  assert.ok(over.endsWith("You knocked and won 12 points"), over);
});

test("a rules field is asked for as its kind: a choice, a box, a number that may be off, a number, a text", () => {
  assert.equal(fieldKind({ name: "shutout", type: "str", choices: ["box", "double"] }, "box"), "choice");
  assert.equal(fieldKind({ name: "big_gin", type: "bool" }, true), "bool");
  assert.equal(fieldKind({ name: "knock_limit", type: "int" }, 10), "int");
  assert.equal(fieldKind({ name: "target", type: "int | None" }, 100), "onoff");
  assert.equal(fieldKind({ name: "cap", type: "int", min: 1 }, null), "onoff");
  assert.equal(fieldKind({ name: "name", type: "str" }, "x"), "text");
});

test("a statistic in words: rates in per cent, streaks, yes / no, counts, none", () => {
  assert.equal(statValue("win_rate", 0.25, t), "25%");
  assert.equal(statValue("win_rate", 62.4, t), "62%");
  assert.equal(statValue("games_played", 7, t), "7");
  assert.equal(statValue("average", 2.456, t), "2.46");
  assert.equal(statValue("x", null, t), "—");
  assert.equal(statValue("x", true, t), t("value.yes"));
  assert.equal(statValue("streak", { length: 0, kind: null }, t), "—");
  assert.ok(statValue("streak", { length: 3, kind: "won" }, t).includes("3"));
  assert.equal(statValue("list", [1, 2], t), "2");
});

test("the status while another person plays: never 'You is playing', and an away person waited for (issue 21 item 16)", () => {
  const seats = [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "person", name: "Ben", away: false }];
  const mine = { ...discardState, seats, turn: 0, events: [{ seq: 11, seat: 1, type: "discard", card: "TC" }] };
  // Ben's moves being shown while the turn has passed to Ann: Ben plays, not "You"
  const anim = statusView(shown(mine, { animating: true }));
  assert.equal(anim.text, "Ben is playing…");
  // Ben to move, away from the table: waited for, not "playing"
  const his = { ...discardState, seats: [seats[0], { ...seats[1], away: true }], turn: 1, phase: "opponent", legal: [] };
  assert.equal(statusView(shown(his)).text, "Waiting for Ben (away)");
  const handed = { ...his, seats: [seats[0], { ...seats[1], away: true, computer_for_away: true }] };
  assert.equal(statusView(shown(handed)).text, "Ben is playing…");
  assert.equal(statusView(shown({ ...his, seats })).text, "Ben is playing…");
});

test("the move log keeps the quick messages of the deal after the move they followed (issue 21 item 16)", () => {
  const st = {
    ...discardState,
    seats: [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "person", name: "Bo" }],
    messages: [
      { seq_at: 0, seat: 1, message: "hello", at: 1 },        // before this deal: not in its log
      { seq_at: 2, seat: 1, message: "good_luck", at: 5 },
      { seq_at: 2, seat: 0, message: "thanks", at: 6 },
      { seq_at: 4, seat: 0, message: "oops", at: 9 },
    ],
    events: [{ seq: 1, type: "deal", hand: 2 }, { seq: 2, type: "draw_stock", seat: 1, hand: 2 },
      { seq: 3, type: "discard", seat: 1, card: "TC", hand: 2 }, { seq: 4, type: "draw_stock", seat: 0, hand: 2 }],
  };
  const v = logView(shown(st));
  assert.deepEqual(v.items.map((i) => [i.cls, i.type]), [["all", "deal"], ["other", "draw_stock"], ["other", "message"],
    ["mine", "message"], ["other", "discard"], ["mine", "draw_stock"], ["mine", "message"]]);
  assert.equal(v.items[2].text, "Bo: “Good luck!”");
  assert.equal(v.items[3].text, `You: “${t("quick.thanks")}”`);
  assert.equal(v.count, 7);
  // while another seat's moves are replayed, the messages after them wait too
  assert.deepEqual(logView(shown(st, { animating: true, logUpTo: 2 })).items.map((i) => i.type), ["deal", "draw_stock", "message", "message"]);
  // the first hand's log also has those sent before its deal
  assert.equal(logView(shown({ ...st, hand_number: 1, events: st.events.map((e) => ({ ...e, hand: 1 })) })).items.filter((i) => i.type === "message").length, 4);
});

test("a result kept on screen after someone else's Next hand: the prompt, and Next hand goes to the hand kept aside (issue 21 item 9)", () => {
  const p = shown(handOver);
  assert.deepEqual([resultView(p).ahead, resultView(p).aheadText], [false, ""]);
  const waiting = resultView({ ...p, ahead: { ...handOver, hand_number: 3, phase: "opponent" } });
  assert.deepEqual([waiting.show, waiting.ahead, waiting.aheadText, waiting.nextDisabled], [true, true, "The next hand has started.", false]);
  const yours = resultView({ ...p, ahead: { ...handOver, hand_number: 3, phase: "draw" }, state: { ...handOver, legal: [] } });
  assert.deepEqual([yours.aheadText, yours.nextDisabled], ["The next hand has started, and it is your turn.", false]);
});

test("opened from an invite, the table behind the join dialog describes no game against the computer", () => {
  const home = { ...initialPage(), t, loading: false };
  assert.equal(opponentView(home).name, "Computer");  // the ordinary page: the computer's table
  assert.equal(statusView(home).text, en["prompt.no_game"]);
  const invited = { ...home, invite: { code: "c", data: null, problem: null } };
  assert.equal(opponentView(invited).name, "");
  assert.equal(statusView(invited).text, en["prompt.invite"]);
  assert.ok(!/computer/i.test(en["prompt.invite"]));
});

test("a partnership in progress in one line: the teams seen from the person's own, their names and score", () => {
  const seats = [{ seat: 0, kind: "person", name: "Ann" }, { seat: 1, kind: "person", name: "Bo" }, { seat: 2, kind: "computer", level: "easy" }, { seat: 3, kind: "person", name: "Di" }];
  const st = { you: 1, phase: "draw", hand_number: 3, rules: { preset: "partnership" }, table: { scoring: "partnership", players: 4 }, seats,
    score: { scoring: "partnership", hands: [], hand_points: [40, 25], boxes: [1, 1], target: 125 } };
  assert.equal(gameLine(st, t, () => ""), "Partnership — Hand 3 · Us (You, Di) 25, Them (Ann, Opponent C) 40");
  const a = gameLine({ ...st, you: 0, seats: [] }, t, () => "");  // against the computers, from seat A
  assert.equal(a, "Partnership — Hand 3 · Us (You, Partner C) 40, Them (Opponent B, Opponent D) 25");
});
