// Review my game (issue 20), the views: each draws only from what it is given (a review, an
// exercise, an answer) and returns elements: the progress while a review is made, the summary of
// each seat, the turning points, one graded decision, the "Try again" exercise. The review page
// (review.js) and the replay page (replay.js) place them. Grades show as words and symbols.
//
// `c` (the context): {t, lang, name(card), nameOf(seat), you, gameId}, and at a table of teams
// `teams` ([[0, 2], [1, 3]]) with `teamName(index)`; `chanceNote`: what the chance to win is at
// this table's form (the match, the race, the team's), or none.

import { cardEl, el } from "./page.js";
import { sortByRank } from "./cards.js";
import {
  GRADES, accuracyText, actionParts, canTry, confirmationText, decisionFaceUp, decisionSentence, gradeSymbol, heldUp, moveText, percent,
  points, progressShare, replayAt, seatOrder, seatSummary, signedPercent, signedPoints, teamGroups, triedView,
} from "./review_model.js";

/** A grade as a badge: its symbol and its word (never the colour alone). */
export function gradeBadge(grade, t, extra = {}) {
  return el("span", { class: `rv-grade g-${grade}`, "data-grade": grade, ...extra },
    el("span", { class: "rv-sym", "aria-hidden": "true", text: gradeSymbol(grade) }),
    el("span", { class: "rv-word", text: t(`review.grade.${grade}`) }));
}

/** The progress of a review being made (`data`: the 202's {status, progress}; `busy`: 503). */
export function progressEl(data, t, busy = false) {
  const p = (data && data.progress) || { done: 0, total: 0 };
  const share = progressShare(p);
  const text = busy ? t("review.busy") : data && data.status === "queued" ? t("review.queued")
    : p.total ? t("review.making_n", { done: p.done, total: p.total }) : t("review.making");
  const bar = el("progress", { class: "rv-bar", max: "100", "aria-hidden": "true" });
  if (!busy && p.total) bar.value = Math.round(share * 100);
  return el("div", { class: "rv-progress", "data-testid": "review-progress" }, el("p", { text }), bar);
}

/**
 * The note shown over a review whose mistakes are still being checked by play-outs (`checking`:
 * the 200's `{status, progress}` of the checked review; docs/api.md "Review").
 */
export function checkingEl(checking, t) {
  const p = (checking && checking.progress) || { done: 0, total: 0 };
  const bar = el("progress", { class: "rv-bar", max: "100", "aria-hidden": "true" });
  if (p.total) bar.value = Math.round(progressShare(p) * 100);
  return el("div", { class: "rv-progress", "data-testid": "review-checking" },
    el("p", { text: t("review.checking", { done: p.done, total: p.total }) }), bar);
}

function figureRow(label, cells, cls = "") {
  return el("tr", { class: cls }, el("th", { scope: "row" }, label), ...cells.map((x) => el("td", {}, x)));
}

/**
 * The summary of each seat (the asker's first; at a table of teams the asker's partner next, the
 * team over its players): accuracy, grades, what mistakes cost, luck apart from skill.
 */
export function summaryEl(review, c) {
  const { t, lang } = c;
  const order = seatOrder(review, c.you, c.teams || null);
  const seats = order.map((s) => seatSummary(review, s));
  const colHead = el("tr", {}, el("td", {}), ...seats.map((s) => el("th", { scope: "col", "data-testid": `review-seat-${s.seat}`, text: c.nameOf(s.seat) })));
  const teamHead = () => el("tr", { class: "rv-teams" }, el("td", {}),
    ...teamGroups(order, c.teams).map((g) => el("th", { scope: "colgroup", colspan: String(g.seats.length), "data-testid": "review-team", text: c.teamName(g.team) })));
  const head = () => (c.teams ? [teamHead(), colHead.cloneNode(true)] : [colHead.cloneNode(true)]);
  // three or four players: the bare figures (their units said once, in a note; in full to a
  // screen reader), so that four columns fit a phone
  const many = seats.length > 2;
  const figure = (tag, key, params, value) => (many
    ? el(tag, {}, el("span", { "aria-hidden": "true", text: value }), el("span", { class: "sr-only", text: t(key, params) }))
    : el(tag, { text: t(key, params) }));
  const pair = (pts, chance) => el("span", { class: "rv-luck" },
    figure("span", "review.luck_points", { points: pts }, pts),
    figure("small", "review.luck_chance", { chance }, chance));
  const luck = (part) => (s) => pair(signedPoints(s.luck[part].points, lang), signedPercent(s.luck[part].win, lang));
  const rows = [
    figureRow(t("review.accuracy"), seats.map((s) => el("b", { class: "rv-acc", "data-testid": `review-accuracy-${s.seat}`, text: accuracyText(s.accuracy, lang) }))),
    figureRow(t("review.decisions"), seats.map((s) => String(s.decisions))),
    ...GRADES.map((g) => figureRow(gradeBadge(g, t), seats.map((s) => el("span", { "data-testid": `review-count-${s.seat}-${g}`, text: String((s.grades || {})[g] || 0) })), `rv-g-row g-${g}`)),
    figureRow(t("review.mistakes_points"), seats.map((s) => points(s.mistakes_points, lang))),
    figureRow(t("review.lost"), seats.map((s) => pair(points(s.lost.points, lang), signedPercent(s.lost.win, lang).replace(/^\+/, "")))),
  ];
  const luckRows = [
    figureRow(t("review.luck.cards"), seats.map(luck("cards"))),
    figureRow(t("review.luck.decisions"), seats.map(luck("decisions"))),
    figureRow(t("review.luck.rest"), seats.map(luck("rest"))),
    figureRow(t("review.luck.result"), seats.map((s) => pair(signedPoints(s.result.points, lang), signedPercent(s.result.win, lang))), "rv-total"),
  ];
  // three or four players: compact columns; a table still too wide for the screen scrolls in its box
  const wrap = (table, label) => el("div", { class: "rv-scroll", role: "region", tabindex: "0", "aria-label": label }, table);
  return el("div", { class: `rv-summary${seats.length > 2 ? " rv-many" : ""}`, "data-seats": String(seats.length) },
    wrap(el("table", { class: "rv-table", "data-testid": "review-summary" },
      el("caption", { text: t("review.skill") }), el("thead", {}, ...head()), el("tbody", {}, rows)), t("review.skill")),
    wrap(el("table", { class: "rv-table", "data-testid": "review-luck" },
      el("caption", { text: t("review.luck") }), el("thead", {}, ...head()), el("tbody", {}, luckRows)), t("review.luck")),
    many ? el("p", { class: "rv-note", "data-testid": "review-units", text: t("review.units_many") }) : null,
    c.chanceNote ? el("p", { class: "rv-note", "data-testid": "review-chance-note", text: c.chanceNote }) : null,
    el("p", { class: "rv-note", text: t("review.luck_note") }));
}

/** The three turning points: the decisions that cost the most, whoever made them. */
export function turningPointsEl(review, c) {
  const { t, lang } = c;
  const tps = (review && review.turning_points) || [];
  if (!tps.length) return el("p", { class: "rv-none", text: t("review.no_turning_points") });
  return el("ol", { class: "rv-turning", "data-testid": "review-turning" }, ...tps.map((tp) => {
    const d = findDecision(review, tp.hand, tp.step);
    const face = decisionFaceUp(d);
    const played = d ? moveText(d.played, t, c.name, face) : tp.played;
    const best = d ? moveText(d.best, t, c.name, face) : tp.best;
    return el("li", {},
      gradeBadge(tp.grade, t),
      el("span", { text: ` ${t("review.turning_line", { hand: tp.hand, who: c.nameOf(tp.seat), move: played, best, drop: signedPercent(tp.drop, lang).replace(/^\+/, "") })} ` }),
      el("a", { href: replayAt(c.gameId, tp.hand, tp.step - 1), class: "rv-link", text: t("review.show_replay") }));
  }));
}

function findDecision(review, hand, step) {
  const h = ((review && review.hands) || []).find((x) => x.hand === hand);
  return h ? (h.decisions || []).find((d) => d.step === step) || null : null;
}

function moveLine(label, move, c, face, cls) {
  const { t, lang } = c;
  return el("div", { class: `rv-move ${cls}` },
    el("dt", { text: label }),
    el("dd", {}, el("b", { text: moveText(move, t, c.name, face) }),
      el("small", { text: ` · ${t("review.chance_after", { chance: percent(move.win, lang) })} · ${t("review.points_after", { points: signedPoints(move.points, lang) })}` })));
}

/**
 * One graded decision: whose, the grade, the move played and the best with the chance of
 * winning after each and the hand points, the drop, the sentence; links to its position on the
 * replay and, for the asker's decisions with a better move, to "Try again". `opts.links` false: no links
 * (on the replay page, which is there already); `opts.onTry`: the Try again button's action.
 */
export function decisionEl(d, c, opts = {}) {
  const { t, lang } = c;
  const mine = d.seat === c.you;
  const face = decisionFaceUp(d);
  const same = d.played.action === d.best.action;
  const held = heldUp(d); // the play-outs found the move played at least as good
  const kids = [
    el("p", { class: "rv-dec-head" }, gradeBadge(d.grade, t, { "data-testid": "decision-grade" }),
      el("span", { class: "rv-who", text: ` ${t("review.decision_of", { who: c.nameOf(d.seat), hand: d.hand, step: d.step - 1 })}` })),
    el("dl", { class: "rv-moves" },
      moveLine(t("review.played"), d.played, c, face, "played"),
      same ? null : moveLine(t(held ? "review.first_choice" : "review.best"), d.best, c, face, held ? "first" : "best"),
      same || held ? null : el("div", { class: "rv-move drop" }, el("dt", { text: t("review.drop") }),
        el("dd", { text: t("review.drop_text", { drop: signedPercent(d.drop, lang).replace(/^\+/, ""), points: points(Math.max(0, d.drop_points), lang) }) }))),
    d.confirmation
      ? el("p", { class: "rv-confirmed", "data-testid": "decision-confirmed", text: confirmationText(d, t) })
      : null,
    c.rated && typeof d.played.chance === "number"
      ? el("p", { class: "rv-rated", "data-testid": "decision-chance-rated", text: t("review.chance_rated", { chance: percent(d.played.chance, lang) }) })
      : null,
    el("p", { class: "rv-sentence", "data-testid": "decision-sentence", text: decisionSentence(d, t, c.name, { lang, mine, who: c.nameOf(d.seat) }) }),
  ];
  const actions = [];
  if (opts.links !== false) actions.push(el("a", { class: "btn small", href: replayAt(c.gameId, d.hand, d.step - 1), "data-testid": "decision-replay", text: t("review.show_replay") }));
  if (canTry(d, c.you)) {
    if (opts.onTry) actions.push(el("button", { type: "button", class: "btn btn-gold small", "data-testid": "try-again", onclick: opts.onTry, text: t("review.try_again") }));
    else if (opts.links !== false) actions.push(el("a", { class: "btn btn-gold small", href: replayAt(c.gameId, d.hand, d.step - 1, true), "data-testid": "try-again", text: t("review.try_again") }));
  }
  if (actions.length) kids.push(el("p", { class: "rv-actions" }, ...actions));
  return el("article", { class: `rv-decision g-${d.grade}${mine ? " mine" : ""}`, "data-testid": "review-decision", "data-step": String(d.step), "data-hand": String(d.hand), "data-grade": d.grade }, ...kids);
}

/**
 * The "Try again" exercise: the position as the seat saw it (`ex.position`), its moves to choose
 * from (`onChoose(action)`), and once a move is tried (`answer`, or `waiting` its progress, or
 * `error` words) how it compares. `chosen`: the action tried last.
 */
export function exerciseEl(ex, c, { onChoose, onClose, chosen = null, answer = null, waiting = null, error = null } = {}) {
  const { t, lang } = c;
  const pos = ex.position;
  const face = pos.phase === "offer" ? pos.upcard : pos.discard_pile.length ? pos.discard_pile[pos.discard_pile.length - 1] : null;
  const hand = (pos.hand && pos.hand.cards) || [];
  const hot = new Set([pos.drawn_card, pos.taken_card].filter(Boolean));
  const facts = [
    face ? t("review.ex.pile", { card: c.name(face) }) : t("table.pile_empty"),
    t("review.ex.stock", { n: pos.stock_count }),
    t("review.ex.deadwood", { n: pos.hand.deadwood_points }),
  ];
  if (pos.opponent && pos.opponent.known && pos.opponent.known.length) {
    facts.push(t("review.ex.known", { cards: pos.opponent.known.map(c.name).join(", ") }));
  }
  if (pos.taken_card) facts.push(t("review.ex.taken", { card: c.name(pos.taken_card) }));
  else if (pos.drawn_card) facts.push(t("review.ex.drawn", { card: c.name(pos.drawn_card) }));
  const tried = triedView(answer);
  const moves = pos.moves.map((m) => {
    const words = moveText(m, t, c.name, face);
    const isChosen = chosen === m.action;
    const b = el("button", {
      type: "button", class: `btn small rv-choice${isChosen ? " chosen" : ""}`, "data-action": m.action, "data-testid": "exercise-move",
      "aria-pressed": String(isChosen), disabled: waiting ? true : null, onclick: () => onChoose(m.action), text: words,
    });
    return el("li", {}, b);
  });
  let result = null;
  if (waiting) result = progressEl(waiting, t);
  else if (error) result = el("p", { class: "rv-error", role: "alert", text: error });
  else if (tried) {
    const lines = [
      el("p", { class: "rv-tried-head" }, gradeBadge(tried.grade, t, { "data-testid": "exercise-grade" }),
        el("span", { text: ` ${t("review.ex.your_move", { move: moveText(tried.tried, t, c.name, face) })}` })),
      el("p", { text: t(tried.best ? "review.ex.is_best" : "review.ex.not_best", {
        best: moveText(tried.bestMove, t, c.name, face), chance: percent(tried.win, lang), best_chance: percent(tried.bestWin, lang),
        drop: signedPercent(tried.drop, lang).replace(/^\+/, ""),
      }) }),
      el("p", { text: t(tried.asPlayed ? "review.ex.as_played" : "review.ex.vs_played", { played: moveText({ action: answer.played, ...actionParts(answer.played) }, t, c.name, face) }) }),
    ];
    result = el("div", { class: `rv-tried g-${tried.grade}`, "data-testid": "exercise-result" }, ...lines);
  }
  return el("section", { class: "rv-exercise", "data-testid": "exercise", "aria-labelledby": "rv-ex-h", tabindex: "-1" },
    el("h2", { id: "rv-ex-h", text: t("review.try_again") }),
    el("p", { class: "rv-ex-intro", text: t("review.ex.intro", { hand: ex.hand }) }),
    el("div", { class: "rv-ex-hand", role: "group", "aria-label": t("review.ex.your_cards") },
      ...sortByRank(hand).map((card) => cardEl(card, t, { mini: true, cls: hot.has(card) ? "rv-new" : "" }))),
    el("ul", { class: "rv-facts" }, ...facts.map((f) => el("li", { text: f }))),
    el("h3", { text: t("review.ex.choose") }),
    el("ul", { class: "rv-choices" }, ...moves),
    el("div", { class: "rv-ex-result", "aria-live": "polite" }, result),
    onClose ? el("p", {}, el("button", { type: "button", class: "btn small", "data-testid": "exercise-close", onclick: onClose, text: t("review.ex.close") })) : null);
}
