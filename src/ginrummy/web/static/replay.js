// The hand replay page (/replay?game=<game_id>&hand=<n>): a finished hand of the person's game,
// every card face up, step by step (GET /api/games/{id}/hands/{n}/replay, docs/api.md), with the
// missed-gin, missed-knock and undercut markers the server found. The game's token is the one the
// game page keeps in localStorage ("ginrummy.current", or for another game the list of games in
// progress and the seats at tables of people); the server answers finished hands only.
// This page holds no rules: it draws what the server sends.
//
// With its review (issue 20; "Review this hand", or ?review=1): a mark on the timeline at each
// graded decision (GET /api/games/{id}/hands/{n}/review, its progress shown while it is made);
// stepping to one shows the position as that seat saw it (the other hand hidden but for the cards
// it took face up, no next stock card) with the better move highlighted, and the decision in
// words; from a decision of yours with a better move, "Try again" offers the position as an exercise
// (review_fetch.js, review_view.js). ?step=<k> opens at step k, ?try=1 its exercise.

import { makeT, cardName, cardShort, resultHeadline, breakdownLabel, presetName } from "./i18n.js";
import { orderMeld, sortByRank } from "./cards.js";
import { $, el, apiRequest, applyLanguage, cardEl, pageLanguage } from "./page.js";
import { playerName, variantHeadline } from "./variants.js";
import { canTry, decisionsByPosition, heldUp, nearestDecision, reviewPage, reviewRatings, timelineMarks, tokenFor } from "./review_model.js";
import { fetchCheckedReview, fetchExercise, tryMove } from "./review_fetch.js";
import { decisionEl, exerciseEl, progressEl } from "./review_view.js";
import { errorAnswerText } from "./i18n.js";

const KEY_CURRENT = "ginrummy.current";
const PILE_SHOWN = 7;
const S = {
  // `table`: the game's state (GET /api/games/{id}): who the asker is at the table and the
  // players' names; null until read (or if it cannot be)
  lang: "en", t: makeT({}), game: null, table: null, data: null, step: 0, number: null,
  // the review of the hand shown: on (asked for), its answer, its progress, its error; the exercise open
  review: { on: false, data: null, wait: null, error: null, asked: 0 }, exercise: null,
};
const t = (...a) => S.t(...a);

// ---------------------------------------------------------------- cards
// Face up as the game page draws them (page.js cardEl), without the bottom-right index.
const backEl = () => el("span", { class: "card back", "aria-hidden": "true" });
const cardsText = (cards) => cards.map((c) => cardShort(c, t)).join(" ");

// ---------------------------------------------------------------- who is who
// The replay's seats are the deal's engine seats 0 and 1 (`S.data.players` names the player at
// each); a review's decisions name players (0 to 3 at a table of three or four).
function namesState() {
  if (S.table) return S.table;
  const d = S.data;
  const asker = d.you !== null && d.you !== undefined ? d.players[d.you] : S.review.data ? S.review.data.you : 0;
  return { you: asker, table: d && d.scoring !== "standard" ? { scoring: d.scoring } : null };
}
const nameOfPlayer = (p) => playerName(namesState(), p, t);
const nameOf = (seat) => nameOfPlayer(S.data.players[seat]);
const isYou = (seat) => seat !== null && seat !== undefined && seat === S.data.you;
const bottomSeat = () => (S.data.you === null || S.data.you === undefined ? 0 : S.data.you);
/** The engine seat at which the player who made review decision `dec` sat in this deal. */
const seatOfDecision = (dec) => S.data.players.indexOf(dec.seat);

function headline(res) {
  const d = S.data;
  const mapped = { ...res, winner: res.winner === null || res.winner === undefined ? null : d.players[res.winner] };
  return d.scoring === "standard" ? resultHeadline(mapped, 0, t) : variantHeadline(mapped, namesState(), t);
}

// ---------------------------------------------------------------- words
function actionText(f) {
  const d = S.data;
  if (f.step === 0) {
    return t(isYou(d.dealer) ? "replay.deal.you" : "replay.deal.other", { name: nameOf(d.dealer), card: cardName(d.upcard, t) });
  }
  const who = isYou(f.seat) ? "you" : "other";
  return t(`replay.${who}.${f.type}`, { name: nameOf(f.seat), card: f.card ? cardName(f.card, t) : "" });
}

function markerLabel(m) {
  return t(`replay.marker.${m.kind}`);
}

function markerDetail(m) {
  const name = nameOf(m.seat);
  const you = isYou(m.seat) ? "you" : "other";
  if (m.kind === "missed_gin") {
    return m.cards.length ? t(`replay.detail.missed_gin.${you}`, { name, cards: cardsText(m.cards) }) : t(`replay.detail.missed_big_gin.${you}`, { name });
  }
  if (m.kind === "missed_knock") return t(`replay.detail.missed_knock.${you}`, { name, n: m.deadwood_points, cards: cardsText(m.cards) });
  return t(`replay.detail.undercut.${you}`, { name, n: m.deadwood_points });
}

// ---------------------------------------------------------------- drawing
/** The cards of `seat` that the other seat saw it take face up and that it still holds at `step`. */
function knownCards(seat, step) {
  const known = new Set();
  for (const f of S.data.frames.slice(1, step + 1)) {
    if (f.seat === seat && (f.type === "take" || f.type === "draw_discard") && f.card) known.add(f.card);
  }
  return S.data.frames[step].hands[seat].cards.filter((c) => known.has(c));
}

/** The seat's hand as the other seat saw it: backs, but for the cards it took face up. */
function hiddenSeatEl(f, seat, decider) {
  const sh = f.hands[seat];
  const known = knownCards(seat, S.step);
  const backs = Math.max(0, sh.cards.length - known.length);
  return [
    el("div", { class: "rp-seat-head" },
      el("b", { class: "rp-name", text: nameOf(seat) }),
      S.data.dealer === seat ? el("span", { class: "chip", text: t("table.dealer") }) : null,
      el("span", { class: "rv-seen", text: t(isYou(decider) ? "review.hidden.you" : "review.hidden.other", { who: nameOf(decider) }) })),
    el("div", { class: "rp-hand", "data-testid": `replay-hand-${seat}`, "data-hidden": "true", role: "group", "aria-label": t("review.hidden_cards", { n: backs }) },
      ...known.map((c) => cardEl(c, t, { bottomIndex: false, cls: "rv-known" })),
      ...Array.from({ length: backs }, () => backEl())),
  ];
}

/** The decision whose position is the step shown, with the review on; else null. */
function decisionHere() {
  const r = S.review;
  if (!r.on || !r.data) return null;
  return decisionsByPosition(r.data.review.hands[0]).get(S.step) || null;
}

/** The cards (and the stock or pile) that a decision's best move and its move played are about. */
function moveMarks(dec, f) {
  const top = f.discard_pile.length ? f.discard_pile[f.discard_pile.length - 1] : null;
  const at = (m) => (["take", "draw_discard"].includes(m.kind) ? { card: top } : m.kind === "draw_stock" ? { stock: true } : m.kind === "pass" ? { pass: true } : { card: m.card });
  // the play-outs found the move played at least as good (heldUp): nothing better to ring
  if (heldUp(dec)) return { best: at(dec.played), played: at(dec.played), same: true };
  return { best: at(dec.best), played: at(dec.played), same: dec.best.action === dec.played.action };
}

function seatEl(f, seat, marks = null) {
  const sh = f.hands[seat];
  const d = S.data;
  const hot = f.seat === seat && ["take", "draw_stock", "draw_discard"].includes(f.type) ? f.card : null;
  const mark = (c) => {
    let cls = c === hot && !marks ? "rp-hot" : "";
    let label = null;
    if (marks && marks.best.card === c) { cls = "rv-best"; label = `${cardName(c, t)}, ${t("review.best_here")}`; }
    else if (marks && !marks.same && marks.played.card === c) { cls = "rv-played"; label = `${cardName(c, t)}, ${t("review.played_here")}`; }
    return cardEl(c, t, { cls, bottomIndex: false, label });
  };
  const groups = sh.melds.map((m, i) => el("div", { class: `rp-group meld m-${i % 4}`, role: "group", "aria-label": t("replay.meld") },
    ...orderMeld(m).map(mark)));
  if (sh.deadwood.length) {
    groups.push(el("div", { class: "rp-group deadwood", role: "group", "aria-label": t("replay.deadwood_group") }, ...sortByRank(sh.deadwood).map(mark)));
  }
  if (sh.spare) {
    // at a reviewed decision the better move is marked instead of the least-deadwood discard
    const spareLabel = marks ? null : el("span", { class: "rp-spare-label", "aria-hidden": "true", text: t("replay.spare") });
    groups.push(el("div", { class: "rp-group spare", role: "group", "aria-label": t(marks ? "replay.deadwood_group" : "replay.spare") },
      mark(sh.spare), spareLabel));
  }
  const chips = [];
  if (d.dealer === seat) chips.push(el("span", { class: "chip", text: t("table.dealer") }));
  if (f.to_act === seat) chips.push(el("span", { class: "chip rp-turn", text: t("replay.to_play") }));
  return [
    el("div", { class: "rp-seat-head" },
      el("b", { class: "rp-name", text: nameOf(seat) }), ...chips,
      el("span", { class: "rp-dw", "data-testid": "replay-deadwood", text: t("result.deadwood", { n: sh.deadwood_points }) })),
    el("div", { class: "rp-hand", "data-testid": `replay-hand-${seat}` }, ...groups),
  ];
}

function renderFrame() {
  const d = S.data;
  const f = d.frames[S.step];
  const me = bottomSeat();
  const dec = decisionHere();
  // at a decision with the review on: the table as the deciding seat saw it, the better move marked
  const marks = dec ? moveMarks(dec, f) : null;
  const decider = dec ? seatOfDecision(dec) : null;
  const draw = (seat) => (dec && seat !== decider ? hiddenSeatEl(f, seat, decider) : seatEl(f, seat, dec ? marks : null));
  $("rp-top").replaceChildren(...draw(1 - me));
  $("rp-bottom").replaceChildren(...draw(me));
  $("rp-top").classList.toggle("acting", dec ? decider === 1 - me : f.seat === 1 - me);
  $("rp-bottom").classList.toggle("acting", dec ? decider === me : f.seat === me);
  const stockMark = marks && (marks.best.stock ? "rv-best" : !marks.same && marks.played.stock ? "rv-played" : "");
  $("rp-stock").replaceChildren(
    el("span", { class: "rp-label", text: t("table.stock_label", { n: f.stock_count }) }),
    el("div", { class: `rp-stock-cards${stockMark ? ` ${stockMark}` : ""}` }, backEl(),
      f.next_stock && !dec ? el("div", { class: "rp-next" }, cardEl(f.next_stock, t, { cls: "rp-peek", bottomIndex: false }), el("small", { text: t("replay.next_stock") })) : null,
      stockMark ? el("small", { class: "rv-mark-label", text: t(stockMark === "rv-best" ? "review.best_here" : "review.played_here") }) : null),
  );
  const pile = f.discard_pile;
  const shown = pile.slice(-PILE_SHOWN);
  const topHot = !dec && f.type === "discard" && pile.length && pile[pile.length - 1] === f.card;
  const pileMark = (c, i) => {
    if (!marks || i !== shown.length - 1) return i === shown.length - 1 && topHot ? "rp-hot" : "";
    if (marks.best.card === c) return "rv-best";
    return !marks.same && marks.played.card === c ? "rv-played" : "";
  };
  $("rp-pile").replaceChildren(
    el("span", { class: "rp-label", text: pile.length ? t("replay.pile", { n: pile.length }) : t("table.pile_empty") }),
    el("div", { class: "rp-pile-cards" }, ...shown.map((c, i) => {
      const cls = pileMark(c, i);
      const label = cls === "rv-best" ? `${cardName(c, t)}, ${t("review.best_here")}` : cls === "rv-played" ? `${cardName(c, t)}, ${t("review.played_here")}` : null;
      return cardEl(c, t, { cls, bottomIndex: false, label });
    })),
  );
  $("rp-action").textContent = dec ? t(isYou(decider) ? "review.position.you" : "review.position.other", { who: nameOf(decider) }) : actionText(f);
  $("rp-badges").replaceChildren(...f.markers.map((m) => el("div", { class: `rp-badge-row` },
    el("span", { class: `rp-badge rp-${m.kind}`, "data-testid": "replay-badge", "data-kind": m.kind, text: markerLabel(m) }),
    el("span", { class: "rp-badge-detail", text: markerDetail(m) }))));
  const last = d.frames.length - 1;
  if (S.step === last && d.result) {
    const res = el("span", { class: "rp-badge rp-end", "data-testid": "replay-end", text: headline(d.result) });
    $("rp-badges").append(el("div", { class: "rp-badge-row" }, res));
  }
  $("rp-step-label").textContent = t("replay.step", { n: S.step, total: last });
  const slider = $("rp-slider");
  slider.max = String(last);
  slider.value = String(S.step);
  slider.setAttribute("aria-valuetext", `${t("replay.step", { n: S.step, total: last })}: ${actionText(f)}`);
  $("rp-first").disabled = $("rp-prev").disabled = S.step === 0;
  $("rp-last").disabled = $("rp-next").disabled = S.step === last;
  for (const b of document.querySelectorAll(".rp-tick, .rp-marker-list button")) b.classList.toggle("current", Number(b.dataset.step) === S.step);
  renderDecision(dec);
}

function renderMarkers() {
  const d = S.data;
  const last = Math.max(1, d.frames.length - 1);
  const graded = S.review.on && S.review.data ? timelineMarks(S.review.data.review.hands[0], S.review.data.you) : [];
  $("rp-ticks").replaceChildren(...graded.map((m) => {
    // a mark at each graded decision's position: its grade's symbol (not only its colour); the
    // keyboard reaches the decisions through the panel's previous / next buttons
    const mark = el("span", {
      class: `rv-tick g-${m.grade}${m.mine ? " mine" : ""}`, "data-step": m.step, "data-grade": m.grade, "data-testid": "review-mark",
      title: `${t(`review.grade.${m.grade}`)} · ${nameOfPlayer(m.seat)} · ${t("replay.step", { n: m.step, total: last })}`,
      onclick: () => go(m.step), "aria-hidden": "true", text: m.symbol,
    });
    mark.style.left = `${(100 * m.step) / last}%`;
    return mark;
  }), ...d.markers.map((m) => {
    const tick = el("button", {
      type: "button", class: `rp-tick rp-${m.kind}`, "data-step": m.step,
      title: `${markerLabel(m)} · ${t("replay.step", { n: m.step, total: last })}`, "aria-label": `${markerLabel(m)} · ${t("replay.step", { n: m.step, total: last })}`,
      onclick: () => go(m.step),
    });
    // through the CSSOM, not a style attribute: the CSP allows no inline style
    tick.style.left = `${(100 * m.step) / last}%`;
    return tick;
  }));
  const list = $("rp-markers");
  if (!d.markers.length) {
    list.replaceChildren(el("li", { class: "rp-none", text: t("replay.no_markers") }));
    return;
  }
  list.replaceChildren(...d.markers.map((m) => el("li", {},
    el("button", { type: "button", class: "rp-jump", "data-step": m.step, onclick: () => go(m.step) },
      el("span", { class: `rp-badge rp-${m.kind}`, text: markerLabel(m) }),
      el("span", { text: ` ${t("replay.step", { n: m.step, total: last })}` })),
    el("p", { class: "rp-badge-detail", text: markerDetail(m) }))));
}

function meldLine(cards) {
  return el("span", { class: "rp-mini-meld" }, ...cards.map((c) => cardEl(c, t, { mini: true })));
}

function renderResult() {
  const res = S.data.result;
  const box = $("rp-result");
  const kids = [el("p", { class: "rp-headline", "data-testid": "replay-headline", text: headline(res) })];
  for (const h of res.hands) {
    const role = h.role === "knocker" ? (res.kind === "gin" || res.kind === "big_gin" ? `result.role.${res.kind}` : "result.role.knocker") : "result.role.defender";
    kids.push(el("div", { class: "rp-res-hand" },
      el("p", { class: "rp-res-who" }, el("b", { text: nameOf(h.seat) }), ` · ${t(role)} · ${t("result.deadwood", { n: h.deadwood_points })}`),
      el("div", { class: "rp-res-cards" }, ...h.melds.map((m) => meldLine(orderMeld(m))),
        h.deadwood.length ? el("span", { class: "rp-mini-meld deadwood" }, ...sortByRank(h.deadwood).map((c) => cardEl(c, t, { mini: true }))) : null),
      ...h.layoffs.map((lo) => el("p", { class: "rp-layoff" }, t(isYou(h.seat) ? "replay.layoff.you" : "replay.layoff.other",
        { name: nameOf(h.seat), card: cardName(lo.card, t), meld: cardsText(lo.onto) }))),
    ));
  }
  if (res.knock_discard) kids.push(el("p", { class: "rp-small", text: t("replay.knock_discard", { card: cardName(res.knock_discard, t) }) }));
  const rows = res.breakdown.flatMap((b) => [el("dt", { text: breakdownLabel(b, t) }), el("dd", { text: String(b.points) })]);
  if (res.winner !== null && res.winner !== undefined) {
    // the total row, as under the game's own end-of-hand panel: "Points to Computer 22"
    rows.push(el("dt", { class: "rp-total", "data-testid": "replay-total-label", text: t("result.total", { who: nameOf(res.winner) }) }),
      el("dd", { class: "rp-total", "data-testid": "replay-total", text: String(res.points) }));
  }
  if (rows.length) kids.push(el("dl", { class: "rp-breakdown", "data-testid": "replay-breakdown" }, ...rows));
  if (res.doubled) kids.push(el("p", { class: "rp-small", text: t("result.doubled") }));
  box.replaceChildren(...kids);
}

// ---------------------------------------------------------------- the review
function reviewContext() {
  // decisions name players: `you` the asker's player (the review's), names by player
  const you = S.review.data ? S.review.data.you : namesState().you ?? 0;
  // valued with the players' ratings (a two-player game against the computer): each decision
  // also shows the chance counting who was playing, as on the review page
  const rated = reviewRatings(S.review.data && S.review.data.review) !== null;
  return { t: S.t, lang: S.lang, you, gameId: S.game.game_id, name: (c) => cardName(c, S.t), nameOf: nameOfPlayer, rated };
}

function renderDecision(dec) {
  const r = S.review;
  const panel = $("rv-panel");
  panel.hidden = !(r.on && r.data);
  if (panel.hidden) return;
  const hand = r.data.review.hands[0];
  $("rv-prev").disabled = nearestDecision(hand, S.step, -1) === null;
  $("rv-next").disabled = nearestDecision(hand, S.step, 1) === null;
  if (!dec) {
    $("rv-decision").replaceChildren(el("p", { class: "rv-none", text: t(hand && hand.decisions.length ? "review.step_to_decision" : "review.no_decisions") }));
    return;
  }
  $("rv-decision").replaceChildren(decisionEl(dec, reviewContext(), { links: false, onTry: () => openExercise(dec) }),
    el("p", { class: "rv-legend", text: t(dec.best.action === dec.played.action || heldUp(dec) ? "review.legend_same" : "review.legend") }));
}

function renderReviewWait() {
  const r = S.review;
  const box = $("rv-wait");
  box.hidden = !r.on || (!r.wait && !r.error);
  if (r.error) box.replaceChildren(el("p", { class: "rp-error", "data-testid": "review-error", text: r.error }));
  else box.replaceChildren(r.wait ? progressEl(r.wait.data, S.t, r.wait.busy) : "");
  const btn = $("rv-toggle");
  btn.setAttribute("aria-pressed", String(r.on));
  btn.dataset.i18n = r.on ? "review.hide" : "review.this_hand";
  btn.textContent = t(btn.dataset.i18n);
  $("rv-page").href = reviewPage(S.game.game_id, S.number);
}

function renderExercise() {
  const x = S.exercise;
  const box = $("rv-exercise");
  if (!x) { box.replaceChildren(); return; }
  if (!x.ex) {
    box.replaceChildren(el("p", { class: x.error ? "rp-error" : "rv-note", role: x.error ? "alert" : null, text: x.error || t("review.ex.loading") }));
    return;
  }
  box.replaceChildren(exerciseEl(x.ex, reviewContext(), {
    chosen: x.chosen, answer: x.answer, waiting: x.waiting, error: x.error,
    onChoose: (action) => chooseMove(action), onClose: closeExercise,
  }));
}

async function loadReview() {
  const r = S.review;
  const asked = ++r.asked;
  const number = S.number;
  r.on = true;
  r.data = null;
  r.error = null;
  r.wait = { data: { status: "queued", progress: { done: 0, total: 0 } }, busy: false };
  renderReviewWait();
  let got;
  try {
    got = await fetchCheckedReview(S.game.game_id, number, S.game.token, {
      isCurrent: () => asked === r.asked && r.on,
      onWait: (data, status) => { r.wait = { data, busy: status === 503 }; renderReviewWait(); },
      // the search's review while its mistakes are checked by play-outs: shown meanwhile
      onChecking: (answer) => { r.wait = null; r.data = answer.data; renderReviewWait(); renderMarkers(); renderFrame(); },
    });
  } catch {
    got = { status: 0, ok: false, data: null };
  }
  if (got === null) return;
  r.wait = null;
  if (got.ok && got.data && got.data.review) r.data = got.data;
  else if (!r.data) r.error = got.status === 0 ? t("error.network") : errorAnswerText(got.data, S.t, S.lang, "review.error.generic");
  renderReviewWait();
  renderMarkers();
  renderFrame();
}

function toggleReview() {
  if (S.review.on) {
    S.review.on = false;
    S.review.asked += 1;
    S.review.wait = null;
    S.review.error = null;
    closeExercise();
    renderReviewWait();
    renderMarkers();
    renderFrame();
    return Promise.resolve();
  }
  return loadReview();
}

function stepDecision(dir) {
  const hand = S.review.data && S.review.data.review.hands[0];
  const n = nearestDecision(hand, S.step, dir);
  if (n !== null) go(n);
}

async function openExercise(dec) {
  const x = { dec, ex: null, chosen: null, answer: null, waiting: null, error: null };
  S.exercise = x;
  renderExercise();
  let r;
  try { r = await fetchExercise(S.game.game_id, dec.hand, dec.step, S.game.token); } catch { r = { status: 0, ok: false, data: null }; }
  if (S.exercise !== x) return;
  if (r.ok && r.data && r.data.position) x.ex = r.data;
  else x.error = r.status === 0 ? t("error.network") : errorAnswerText(r.data, S.t, S.lang, "review.error.generic");
  renderExercise();
  const sec = $("rv-exercise").querySelector("[data-testid=exercise]");
  if (sec) sec.focus();
}

async function chooseMove(action) {
  const x = S.exercise;
  if (!x || !x.ex || x.waiting) return;
  x.chosen = action;
  x.answer = null;
  x.error = null;
  x.waiting = { status: "queued", progress: { done: 0, total: 0 } };
  renderExercise();
  let r;
  try {
    r = await tryMove(S.game.game_id, x.dec.hand, x.dec.step, action, S.game.token, {
      isCurrent: () => S.exercise === x,
      onWait: (data) => { if (data && data.progress) x.waiting = data; renderExercise(); },
    });
  } catch {
    r = { status: 0, ok: false, data: null };
  }
  if (r === null || S.exercise !== x) return;
  x.waiting = null;
  if (r.ok && r.data && r.data.tried) x.answer = r.data;
  else x.error = r.status === 0 ? t("error.network") : errorAnswerText(r.data, S.t, S.lang, "review.error.generic");
  renderExercise();
  const b = $("rv-exercise").querySelector(`[data-testid=exercise-move][data-action="${CSS.escape(action)}"]`);
  if (b) b.focus();
}

function closeExercise() {
  const had = !!S.exercise;
  S.exercise = null;
  renderExercise();
  if (had) {
    const tryBtn = $("rv-decision").querySelector("[data-testid=try-again]");
    if (tryBtn) tryBtn.focus();
  }
}

function render() {
  document.body.classList.remove("loading");
  if (!S.data) return;
  $("rv-entry").hidden = false;
  renderReviewWait();
  renderExercise();
  const d = S.data;
  $("rp-board").hidden = $("rp-controls").hidden = $("rp-panels").hidden = false;
  const sel = $("rp-hand");
  sel.replaceChildren(...d.finished_hands.map((n) => el("option", { value: String(n), text: t("table.hand_no", { n }) })));
  sel.value = String(d.number);
  $("rp-pick").hidden = false;
  document.title = `${t("replay.title")} · ${t("table.hand_no", { n: d.number })} · ${t("app.title")}`;
  $("rp-board").setAttribute("aria-label", `${t("table.hand_no", { n: d.number })} · ${presetName(d.preset, t)}`);
  renderMarkers();
  renderResult();
  renderFrame();
}

function showError(key) {
  document.body.classList.remove("loading");
  const box = $("rp-error");
  box.textContent = t(key);
  box.dataset.key = key;
  box.hidden = false;
}

// ---------------------------------------------------------------- stepping
function go(step) {
  if (!S.data) return;
  const last = S.data.frames.length - 1;
  const n = Math.max(0, Math.min(last, step));
  if (n === S.step) return;
  S.step = n;
  if (S.exercise && S.exercise.dec.step - 1 !== n) S.exercise = null;
  renderExercise();
  renderFrame();
}

function onKey(e) {
  if (!S.data || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = e.target && e.target.tagName;
  if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && e.target.type !== "range")) return;
  if (tag === "INPUT") return; // the slider steps itself (its "input" event)
  const moves = { ArrowLeft: S.step - 1, ArrowRight: S.step + 1, Home: 0, End: S.data.frames.length - 1 };
  if (!(e.key in moves)) return;
  e.preventDefault();
  go(moves[e.key]);
}

// ---------------------------------------------------------------- loading
function stored(key, fallback) {
  try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch { return fallback; }
}

const savedGame = () => stored(KEY_CURRENT, null);

async function load(number) {
  const g = S.game;
  const r = await apiRequest("GET", `/api/games/${encodeURIComponent(g.game_id)}/hands/${number}/replay`, undefined, g.token);
  if (!r.ok) {
    showError(r.status === 409 ? "replay.error.in_play" : r.status === 404 ? "replay.error.not_found" : "replay.error.generic");
    return;
  }
  $("rp-error").hidden = true;
  S.data = r.data;
  S.number = r.data.number;
  S.step = 0;
  S.exercise = null;
  const wasOn = S.review.on;
  S.review = { on: false, data: null, wait: null, error: null, asked: S.review.asked + 1 };
  const url = new URL(window.location.href);
  url.searchParams.set("game", g.game_id);
  url.searchParams.set("hand", String(S.number));
  for (const k of ["step", "try"]) url.searchParams.delete(k);
  if (wasOn) url.searchParams.set("review", "1");
  history.replaceState(null, "", url.pathname + url.search);
  render();
  if (wasOn) await loadReview();
}

/** The game's state, for who the asker is and the players' names; null if it cannot be read. */
async function tableState(g) {
  try {
    const r = await apiRequest("GET", `/api/games/${encodeURIComponent(g.game_id)}`, undefined, g.token);
    return r.ok && r.data && typeof r.data === "object" ? r.data : null;
  } catch {
    return null;
  }
}

async function lastFinished() {
  const g = S.game;
  const r = await apiRequest("GET", `/api/games/${encodeURIComponent(g.game_id)}/record`, undefined, g.token);
  if (!r.ok || !r.data) return null;
  const numbers = (r.data.hands || []).map((h) => h.number);
  return numbers.length ? numbers[numbers.length - 1] : 0;
}

async function setLanguage(lang, save = true) {
  ({ lang: S.lang, t: S.t } = await applyLanguage(lang, { save, titleKey: "replay.title" }));
  const err = $("rp-error");
  if (!err.hidden && err.dataset.key) err.textContent = t(err.dataset.key);
  render();
}

async function boot() {
  await setLanguage(pageLanguage(), false);
  $("lang-select").addEventListener("change", (e) => setLanguage(e.target.value));
  $("rp-first").addEventListener("click", () => go(0));
  $("rp-prev").addEventListener("click", () => go(S.step - 1));
  $("rp-next").addEventListener("click", () => go(S.step + 1));
  $("rp-last").addEventListener("click", () => go(Infinity));
  $("rp-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("rp-hand").addEventListener("change", (e) => load(Number(e.target.value)));
  $("rv-toggle").addEventListener("click", () => toggleReview());
  $("rv-prev").addEventListener("click", () => stepDecision(-1));
  $("rv-next").addEventListener("click", () => stepDecision(1));
  document.addEventListener("keydown", onKey);
  const params = new URLSearchParams(window.location.search);
  const saved = savedGame();
  const wanted = params.get("game");
  // another game than the one shown: its token if this browser keeps one (a game in progress, a
  // seat at a table of people: the review page links here for those too)
  const other = wanted && (!saved || wanted !== saved.game_id)
    ? tokenFor(wanted, saved, stored("ginrummy.games", []), stored("ginrummy.tables", {}),
      stored("ginrummy.finished", [])) : null;
  if (!other && (!saved || !saved.game_id || !saved.token)) {
    showError("replay.error.no_game");
    return;
  }
  if (wanted && wanted !== (saved && saved.game_id) && !other) {  // no token kept for that game
    showError("replay.error.other_game");
    return;
  }
  S.game = other ? { game_id: wanted, token: other } : saved;
  S.table = await tableState(S.game);
  const asked = params.get("hand") || null;  // "hand=" (empty): as if not asked
  if (asked !== null && !/^[1-9][0-9]{0,5}$/.test(asked)) {
    showError("replay.error.not_found");
    return;
  }
  let number = asked === null ? 0 : Number(asked);
  try {
    if (!(number > 0)) {
      number = await lastFinished();
      if (number === null) { showError("replay.error.not_found"); return; }
      if (number === 0) { showError("replay.error.none_finished"); return; }
    }
    await load(number);
    await openAsked(params);
  } catch {
    showError("replay.error.generic");
  }
}

/** What the address asked for beyond the hand: its review (?review=1), a step, its exercise (?try=1). */
async function openAsked(params) {
  if (!S.data) return;
  const step = params.get("step");
  const wanted = step !== null && /^[0-9]{1,4}$/.test(step) ? Number(step) : null;
  if (params.get("review") === "1" || params.get("try") === "1") await loadReview();
  if (wanted !== null) go(wanted);
  const dec = decisionHere();
  if (params.get("try") === "1" && canTry(dec, S.review.data && S.review.data.you)) await openExercise(dec);
}

boot();
