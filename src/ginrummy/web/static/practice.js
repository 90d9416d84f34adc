// The practice page (/practice), issue 20 "a list of a person's own past mistakes to practise":
// this browser's mistakes and blunders in the reviews made of its games, newest first (GET
// /api/practice, docs/api.md "Practice"), each offered again as the "Try again" exercise of the
// review (the position as the person saw it; a move chosen is graded against the best). The
// server finds the games by this browser's own cookie, so a game over, whose token the page has
// forgotten, is still here; nobody else's positions ever are. It draws what the server sends.

import { makeT, cardName, errorAnswerText, presetName } from "./i18n.js";
import { $, el, applyLanguage, pageLanguage } from "./page.js";
import { scoringName } from "./variants.js";
import { moveText } from "./review_model.js";
import { fetchPractice, fetchPracticeExercise, tryPracticeMove } from "./review_fetch.js";
import { exerciseEl, gradeBadge } from "./review_view.js";

const S = { lang: "en", t: makeT({}), data: null, error: null, open: null };
const t = (...a) => S.t(...a);
const keyOf = (p) => `${p.game_id}/${p.hand}/${p.step}`;

function context(ex) {
  return { t: S.t, lang: S.lang, you: ex ? ex.you : 0, gameId: ex ? ex.game_id : null, name: (c) => cardName(c, S.t), nameOf: () => "" };
}

/** When and what a position's game was: "Oklahoma · 3 Dec 2026 · Hand 4". */
function whereText(p) {
  let date = "";
  try { date = new Intl.DateTimeFormat(S.lang, { dateStyle: "medium" }).format(new Date(p.at * 1000)); } catch { date = ""; }
  const form = p.scoring && p.scoring !== "standard" ? scoringName(p.scoring, S.t) : presetName(p.preset, S.t);
  return [form, date, t("table.hand_no", { n: p.hand })].filter(Boolean).join(" · ");
}

// ---------------------------------------------------------------- drawing
function exerciseBox(p) {
  const x = S.open;
  if (!x || x.key !== keyOf(p)) return null;
  if (!x.ex) {
    return el("div", { class: "pr-exercise" },
      el("p", { class: x.error ? "rp-error" : "rv-note", role: x.error ? "alert" : null, text: x.error || t("review.ex.loading") }));
  }
  return el("div", { class: "pr-exercise" }, exerciseEl(x.ex, context(x.ex), {
    chosen: x.chosen, answer: x.answer, waiting: x.waiting, error: x.error,
    onChoose: (action) => choose(action), onClose: () => close(p),
  }));
}

function itemEl(p) {
  const name = (c) => cardName(c, S.t);
  const open = S.open && S.open.key === keyOf(p);
  return el("li", {
    class: `pr-item g-${p.grade}`, "data-testid": "practice-item", "data-game": p.game_id, "data-hand": String(p.hand),
    "data-step": String(p.step), "data-grade": p.grade,
  },
  el("p", { class: "pr-head" }, gradeBadge(p.grade, S.t), el("span", { class: "pr-where", text: ` ${whereText(p)}` })),
  el("p", { class: "pr-played", text: t("review.ex.vs_played", { played: moveText(p.played, S.t, name, p.face_up) }) }),
  el("p", {}, el("button", {
    type: "button", class: `btn small${open ? "" : " btn-gold"}`, "data-testid": "practice-try", "aria-expanded": String(open),
    onclick: () => (open ? close(p) : openExercise(p)), text: t(open ? "review.ex.close" : "review.try_again"),
  })),
  exerciseBox(p));
}

function render() {
  document.body.classList.remove("loading");
  const err = $("pr-error");
  err.hidden = !S.error;
  if (S.error) err.textContent = S.error;
  if (!S.data) { $("pr-list").replaceChildren(); $("pr-count").textContent = S.error ? "" : t("prompt.loading"); return; }
  const { positions, total } = S.data;
  $("pr-count").textContent = total ? t("practice.count", { shown: positions.length, total }) : t("practice.none");
  $("pr-list").replaceChildren(...positions.map(itemEl));
}

function focusIn(p, selector) {
  const item = document.querySelector(`[data-testid=practice-item][data-game="${CSS.escape(p.game_id)}"][data-hand="${p.hand}"][data-step="${p.step}"]`);
  const target = item && item.querySelector(selector);
  if (target) target.focus();
}

// ---------------------------------------------------------------- the exercise
async function openExercise(p) {
  const x = { key: keyOf(p), p, ex: null, chosen: null, answer: null, waiting: null, error: null };
  S.open = x;
  render();
  let r;
  try { r = await fetchPracticeExercise(p.game_id, p.hand, p.step); } catch { r = { status: 0, ok: false, data: null }; }
  if (S.open !== x) return;
  if (r.ok && r.data && r.data.position) x.ex = r.data;
  else x.error = r.status === 0 ? t("error.network") : errorAnswerText(r.data, S.t, S.lang, "review.error.generic");
  render();
  focusIn(p, "[data-testid=exercise]");
}

async function choose(action) {
  const x = S.open;
  if (!x || !x.ex || x.waiting) return;
  x.chosen = action;
  x.answer = null;
  x.error = null;
  x.waiting = { status: "queued", progress: { done: 0, total: 0 } };
  render();
  let r;
  try {
    r = await tryPracticeMove(x.p.game_id, x.p.hand, x.p.step, action, {
      isCurrent: () => S.open === x,
      onWait: (data) => { if (data && data.progress) x.waiting = data; render(); },
    });
  } catch {
    r = { status: 0, ok: false, data: null };
  }
  if (r === null || S.open !== x) return;
  x.waiting = null;
  if (r.ok && r.data && r.data.tried) x.answer = r.data;
  else x.error = r.status === 0 ? t("error.network") : errorAnswerText(r.data, S.t, S.lang, "review.error.generic");
  render();
  focusIn(x.p, `[data-testid=exercise-move][data-action="${CSS.escape(action)}"]`);
}

function close(p) {
  S.open = null;
  render();
  focusIn(p, "[data-testid=practice-try]");
}

// ---------------------------------------------------------------- loading
async function setLanguage(lang, save = true) {
  ({ lang: S.lang, t: S.t } = await applyLanguage(lang, { save, titleKey: "practice.title" }));
  render();
}

async function boot() {
  await setLanguage(pageLanguage(), false);
  $("lang-select").addEventListener("change", (e) => setLanguage(e.target.value));
  let r;
  try { r = await fetchPractice(); } catch { r = { status: 0, ok: false, data: null }; }
  if (r.ok && r.data && Array.isArray(r.data.positions)) S.data = r.data;
  else S.error = r.status === 0 ? t("error.network") : errorAnswerText(r.data, S.t, S.lang, "review.error.generic");
  render();
}

boot();
