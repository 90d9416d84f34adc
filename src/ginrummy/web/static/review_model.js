// Review my game (issue 20), the pure part: the grades in words and symbols, the figures in the
// page's language, where a review is asked for and how long to wait for it, the decisions of a
// hand by replay step, the moves' words. No DOM, no I/O: unit-tested by tests/js/review.test.mjs.
// The review itself is the server's (docs/api.md "Review"); this module decides nothing of it.

import { hintText } from "./model.js";

/** The grades, best first (docs/review.md "Grades and accuracy"). */
export const GRADES = ["best", "good", "inaccuracy", "mistake", "blunder"];

/** Each grade's symbol, as chess annotates moves: never only a colour. */
export const GRADE_SYMBOL = { best: "!", good: "\u2713", inaccuracy: "?!", mistake: "?", blunder: "??" };

/** The grades worth trying again: a decision that lost something the search is sure of. */
export const FLAWED = new Set(["inaccuracy", "mistake", "blunder"]);

/** The symbol of `grade` ("" for an unknown one). */
export const gradeSymbol = (grade) => GRADE_SYMBOL[grade] || "";

/** Whether a decision of this grade is a flaw: an inaccuracy, a mistake or a blunder. */
export const isFlawed = (grade) => FLAWED.has(grade);

/**
 * Whether a decision is offered as a "Try again" exercise to the asker (`you`): one of theirs
 * where the search found a better move (a flaw, or a "good" one the search rates below the best
 * without being sure of it).
 */
export const canTry = (d, you) => !!d && d.seat === you && !!d.played && !!d.best && d.played.action !== d.best.action
  && !heldUp(d); // the play-outs found the move played at least as good: nothing to practise

/**
 * The two players' ratings a review's chances were valued with (a two-player game against the
 * computer), by seat; null when it valued them as even (its `ratings` absent or incomplete).
 */
export function reviewRatings(review) {
  const r = review && review.ratings;
  return Array.isArray(r) && r.length === 2 && r.every((x) => typeof x === "number") ? r : null;
}

function numberFormat(lang, digits) {
  try { return new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: 0 }); } catch {
    return new Intl.NumberFormat("en", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  }
}

/** A chance (0..1) as a whole percentage in the page's language: "36%". */
export function percent(x, lang = "en") {
  if (typeof x !== "number" || !Number.isFinite(x)) return "";
  return `${numberFormat(lang, 0).format(Math.round(x * 100))}%`;
}

/** A signed change of chance (0..1) in points of percentage, one decimal: "+4.2", "\u22121.5", "0". */
export function signedPercent(x, lang = "en") {
  if (typeof x !== "number" || !Number.isFinite(x)) return "";
  const v = Math.round(x * 1000) / 10;
  const text = numberFormat(lang, 1).format(Math.abs(v));
  return v > 0 ? `+${text}` : v < 0 ? `\u2212${text}` : text;
}

/** Signed points, one decimal at most: "+12.5", "\u22123", "0". */
export function signedPoints(x, lang = "en") {
  if (typeof x !== "number" || !Number.isFinite(x)) return "";
  const v = Math.round(x * 10) / 10;
  const text = numberFormat(lang, 1).format(Math.abs(v));
  return v > 0 ? `+${text}` : v < 0 ? `\u2212${text}` : text;
}

/** Points without a sign, one decimal at most ("12.5"). */
export function points(x, lang = "en") {
  if (typeof x !== "number" || !Number.isFinite(x)) return "";
  return numberFormat(lang, 1).format(Math.round(x * 10) / 10);
}

/** An accuracy (0..100) as a whole number in the page's language. */
export function accuracyText(x, lang = "en") {
  if (typeof x !== "number" || !Number.isFinite(x)) return "\u2013";
  return numberFormat(lang, 0).format(Math.round(x));
}

/** The API path of a game's review (`hand` null) or of one hand's. */
export function reviewPath(gameId, hand = null) {
  const g = `/api/games/${encodeURIComponent(gameId)}`;
  return hand === null || hand === undefined ? `${g}/review` : `${g}/hands/${hand}/review`;
}

/** The API path of the "Try again" exercise of a hand's decision at `step`. */
export function exercisePath(gameId, hand, step) {
  return `/api/games/${encodeURIComponent(gameId)}/hands/${hand}/exercises/${step}`;
}

/** The API path of the browser's mistakes to practise (GET), or of one of them as an exercise. */
export function practicePath(gameId = null, hand = null, step = null) {
  if (gameId === null) return "/api/practice";
  return `/api/practice/${encodeURIComponent(gameId)}/hands/${hand}/exercises/${step}`;
}

/** The review page's address: a game's review, or one hand's. */
export function reviewPage(gameId, hand = null) {
  const q = `game=${encodeURIComponent(gameId)}`;
  return hand === null || hand === undefined ? `/review?${q}` : `/review?${q}&hand=${hand}`;
}

/**
 * The replay page at a decision, with its review shown: `step` the decision's position (the step
 * before the action), `exercise` to open its "Try again" at once.
 */
export function replayAt(gameId, hand, step = null, exercise = false) {
  let q = `/replay?game=${encodeURIComponent(gameId)}&hand=${hand}&review=1`;
  if (step !== null && step !== undefined) q += `&step=${step}`;
  if (exercise) q += "&try=1";
  return q;
}

/**
 * How long to wait before asking again for a review being made (ms): the answer's Retry-After
 * (`retryAfterMs`), at least half a second, at most ten; a second when there is none.
 */
export function pollDelay(retryAfterMs) {
  const ms = Number(retryAfterMs);
  if (!Number.isFinite(ms) || ms <= 0) return 1000;
  return Math.min(10_000, Math.max(500, ms));
}

/** The share (0..1) of a review made so far from its `{done, total}`; 0 when unknown. */
export function progressShare(progress) {
  if (!progress || !(progress.total > 0)) return 0;
  return Math.max(0, Math.min(1, progress.done / progress.total));
}

/**
 * The token of `gameId` kept in this browser: the game shown (`current`), a game in progress
 * (`games`, [{game_id, token}]), a seat at a table of people (`tables`, {game_id: {token}}) or a
 * finished game (`finished`, like `games`: its review stays reachable after a new game).
 */
export function tokenFor(gameId, current, games, tables, finished = []) {
  if (!gameId) return null;
  if (current && current.game_id === gameId && current.token) return current.token;
  for (const list of [games, finished]) {
    for (const g of Array.isArray(list) ? list : []) if (g && g.game_id === gameId && g.token) return g.token;
  }
  const seat = tables && typeof tables === "object" ? tables[gameId] : null;
  return seat && seat.token ? seat.token : null;
}

/** The summary of `seat` in a review ({seat, grades, accuracy, ...}) or null. */
export function seatSummary(review, seat) {
  return (review && Array.isArray(review.seats) ? review.seats : []).find((s) => s.seat === seat) || null;
}

/**
 * The seats of a review in the order shown: the asker's (`you`) first; with `teams` (a
 * partnership's [[0, 2], [1, 3]]) the asker's partner next, then the other team.
 */
export function seatOrder(review, you, teams = null) {
  const seats = (review && Array.isArray(review.seats) ? review.seats : []).map((s) => s.seat);
  const mine = teamOf(teams, you);
  const rank = (s) => (s === you ? 0 : mine !== null && teamOf(teams, s) === mine ? 1 : 2);
  return seats.map((s, i) => [rank(s), i, s]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
}

/** The index of the team of `seat` in `teams` ([[0, 2], [1, 3]]), or null (no teams). */
export function teamOf(teams, seat) {
  if (!Array.isArray(teams)) return null;
  const i = teams.findIndex((team) => Array.isArray(team) && team.includes(seat));
  return i < 0 ? null : i;
}

/**
 * The seats in the order shown grouped by team, for a header over them: [{team, seats}], one
 * group per run of seats of the same team (`team` null without teams: one group of all).
 */
export function teamGroups(order, teams) {
  const groups = [];
  for (const s of order) {
    const team = teamOf(teams, s);
    const last = groups[groups.length - 1];
    if (last && last.team === team) last.seats.push(s);
    else groups.push({ team, seats: [s] });
  }
  return groups;
}

/**
 * The finished deals of a game's record (`GET /api/games/{id}/record`) to review, in order:
 * [{number, hand, table, players}] (a partnership hand's two deals are two numbers; `hand` the
 * table's hand, `table` 0 or 1, `players` the players at the deal's seats).
 */
export function finishedDeals(record) {
  return ((record && Array.isArray(record.hands)) ? record.hands : [])
    .filter((h) => h && Number.isInteger(h.number))
    .map((h) => ({ number: h.number, hand: h.hand ?? h.number, table: h.table ?? 0, players: Array.isArray(h.players) ? h.players : [0, 1] }));
}

/**
 * The decisions of a hand's review (`hand`: one of `review.hands`) keyed by the replay step of
 * their position (the step before the action: the table as the seat saw it when choosing).
 */
export function decisionsByPosition(hand) {
  const out = new Map();
  for (const d of (hand && hand.decisions) || []) out.set(d.step - 1, d);
  return out;
}

/**
 * The marks of a hand's decisions on the replay's timeline: `{step, grade, symbol, seat, mine}`
 * at each decision's position, in order; `onlySeat` keeps one seat's.
 */
export function timelineMarks(hand, you, onlySeat = null) {
  return ((hand && hand.decisions) || [])
    .filter((d) => onlySeat === null || d.seat === onlySeat)
    .map((d) => ({ step: d.step - 1, grade: d.grade, symbol: gradeSymbol(d.grade), seat: d.seat, mine: d.seat === you }));
}

/** The decisions of a review's hands as shown in its list, `flawedOnly` keeping the flawed ones. */
export function listedDecisions(hand, flawedOnly = false) {
  return ((hand && hand.decisions) || []).filter((d) => !flawedOnly || isFlawed(d.grade));
}

/** The step of the next (`dir` 1) or previous (-1) decision position from `step`, or null. */
export function nearestDecision(hand, step, dir) {
  const steps = ((hand && hand.decisions) || []).map((d) => d.step - 1).sort((a, b) => a - b);
  if (dir > 0) return steps.find((s) => s > step) ?? null;
  const before = steps.filter((s) => s < step);
  return before.length ? before[before.length - 1] : null;
}

/**
 * A move in words ("discard the 7\u2665", "draw from the stock"): `move` {kind|type, card, action};
 * `faceUp` the card that take / pass / draw discard are about; `name(card)` names a card.
 */
export function moveText(move, t, name, faceUp = null) {
  if (!move) return "";
  const kind = move.kind || move.type;
  const card = move.card || (["take", "pass", "draw_discard"].includes(kind) ? faceUp : null);
  return t(`hint.move.${kind}`, { card: card ? name(card) : "" }, move.action || kind);
}

/** The face-up card a decision's take / pass / draw discard is about (its hints know it). */
export function decisionFaceUp(d) {
  return (d && ((d.played_hint && d.played_hint.card) || (d.best_hint && d.best_hint.card))) || null;
}

/** A translator that words a hint without its "Hint:" frame (the review's "why"). */
function whyOnly(t) {
  const w = (key, params, fallback) => (key === "hint.text" ? t("review.why", params, "{move}: {why}") : t(key, params, fallback));
  w.has = t.has;
  w.catalog = t.catalog;
  return w;
}

/** A note of a decision ({code, params}) in words; "" when the catalog has none. */
export function noteText(note, t, name, lang = "en") {
  if (!note || !note.code) return "";
  const p = note.params || {};
  const params = {
    card: p.card ? name(p.card) : "", taken: p.taken ? name(p.taken) : "",
    meld: Array.isArray(p.meld) ? p.meld.map(name).join(", ") : "", k: p.k,
    risk: typeof p.risk === "number" ? percent(p.risk, lang) : "",
  };
  return t(`review.note.${note.code}`, params, "");
}

/**
 * The sentence of a decision: what it was worth (its grade, the chance it lost), then why the
 * best move is best in the hints' words (the asker's own decisions: the hints speak to "you"),
 * then the notes. `who`: the seat's name; `mine`: the asker's decision.
 */
export function decisionSentence(d, t, name, { lang = "en", mine = true, who = "" } = {}) {
  const faceUp = decisionFaceUp(d);
  const played = moveText(d.played, t, name, faceUp);
  const best = moveText(d.best, t, name, faceUp);
  const same = d.played && d.best && d.played.action === d.best.action;
  const parts = [];
  const whose = mine ? "you" : "other";
  if (same) parts.push(t(`review.sentence.best.${whose}`, { who, move: played }));
  else if (heldUp(d)) parts.push(t(`review.sentence.held_up.${whose}`, { who, move: played, best }));
  else {
    parts.push(t(`review.sentence.${d.grade}.${whose}`, { who, move: played, best, drop: signedPercent(d.drop, lang).replace(/^\+/, "") }));
    if (mine && d.best_hint) parts.push(hintText(d.best_hint, whyOnly(t), name, lang));
  }
  for (const n of d.notes || []) {
    const text = noteText(n, t, name, lang);
    if (text) parts.push(text);
  }
  return parts.filter(Boolean).join(" ");
}

/**
 * Whether the play-outs that checked a decision found the move played at least as good as the
 * search's best (`d.confirmation.drop` at most 0): then the other move is only the first look's
 * choice, not a better move, and no drop or hint for it is shown.
 */
export function heldUp(d) {
  return Boolean(d && d.confirmation && typeof d.confirmation.drop === "number" && d.confirmation.drop <= 0
    && d.played && d.best && d.played.action !== d.best.action);
}

/**
 * What the play-outs that checked a decision the search called a mistake or a blunder say
 * (`d.confirmation`, docs/review.md): how many times both moves were played on, and the first
 * look's grade when the play-outs changed it; null for a decision not checked.
 */
export function confirmationText(d, t) {
  const c = d && d.confirmation;
  if (!c) return null;
  if (c.search_grade === d.grade) return t("review.confirmed", { n: c.playouts });
  const grade = t(`review.grade.${c.search_grade}`);
  // not sure (z below 2, docs/review.md "Checked by play-outs") yet leaning against the move: an
  // inaccuracy whose drop may look like a blunder's; say why it is not called one
  if (d.grade === "inaccuracy" && c.z < 2) return t("review.confirmed_unsure", { n: c.playouts, grade });
  return t("review.confirmed_changed", { n: c.playouts, grade });
}

/**
 * How a move tried in the exercise compares (`answer`: the POST's answer): its grade, symbol,
 * the chance of winning after it and after the best, and whether it is the move played in the game.
 */
export function triedView(answer) {
  const d = answer && answer.tried;
  if (!d) return null;
  return {
    grade: d.grade, symbol: gradeSymbol(d.grade), best: d.played.action === d.best.action,
    asPlayed: d.played.action === answer.played, win: d.played.win, bestWin: d.best.win,
    points: d.played.points, bestPoints: d.best.points, drop: d.drop, bestMove: d.best, tried: d.played,
  };
}

/** The kind and card of an action text ("discard 7H", "knock 3D: ...", "draw stock", "gin KC"). */
export function actionParts(text) {
  const w = String(text || "").trim().split(/[\s:]+/);
  const head = (w[0] || "").toLowerCase();
  if (head === "draw") return { kind: w[1] === "stock" ? "draw_stock" : "draw_discard", card: null };
  if (head === "big") return { kind: "big_gin", card: null };
  return { kind: head, card: w[1] && /^[A2-9TJQK][SHDC]$/i.test(w[1]) ? w[1].toUpperCase() : null };
}
