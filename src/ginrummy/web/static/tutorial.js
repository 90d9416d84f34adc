// The tutorial for first-time players (/tutorial): seven short steps, each with one task done by
// clicking (a set, a run, the deadwood, a turn, knock or gin, layoffs and the undercut, then the
// real table). The hands and their answers come from the server (GET /api/tutorial, worked out by
// the engine); tutorial_model.js compares the person's clicks with them and says why a pick is
// wrong. All text from the catalogs (tutorial.* keys).

import { makeT, cardName, cardShort } from "./i18n.js";
import { $, el, apiRequest, applyLanguage, cardEl, pageLanguage, toast } from "./page.js";
import {
  judgeMeld, judgeDeadwood, judgeDraw, judgeDiscard, judgeKnock, judgeLayoff, valueBreakdown, toggle, byRank,
} from "./tutorial_model.js";

// A card with its index once, top left (as on the replay page): its accessible name ("8 of
// spades") then holds all its visible text, "8" (WCAG 2.5.3; two indices read "8 8").
const card = (c, opts = {}) => cardEl(c, t, { bottomIndex: false, ...opts });

const STEPS = ["set", "run", "deadwood", "turn", "knock", "layoff", "play"];
const S = { lang: "en", t: makeT({}), L: null, i: 0, solved: new Set(), sel: [], turn: null, verdict: null };
const t = (...a) => S.t(...a);

// ---------------------------------------------------------------- cards (drawn like the table's)
const short = (cards) => cards.map((c) => cardShort(c, t)).join(" ");

/** A row of cards; `pick`: the cards are buttons toggling the selection. */
function cardRow(cards, { pick = false, label = null, testid = null } = {}) {
  return el("div", { class: "tu-cards", role: "group", "aria-label": label, "data-testid": testid },
    cards.map((c) => (pick ? card(c, { onclick: () => pickCard(c), pressed: S.sel.includes(c) }) : card(c))));
}

/** Melds (marked, coloured) then deadwood, as groups; `pick`: every card is a button. */
function groupsEl(melds, deadwood, { pick = false, onCard = null, testid = null, laid = [] } = {}) {
  const kids = melds.map((m, n) => el("div", { class: `tu-group meld m${n % 4}`, role: "group", "aria-label": t("tutorial.meld_label") },
    el("div", { class: "tu-cards" }, byRank(m).map((c) => (pick ? card(c, { onclick: () => onCard(c), pressed: S.sel.includes(c) })
      : card(c, { cls: laid.includes(c) ? "tu-laid" : "" })))),
    el("span", { class: "tu-mark", "aria-hidden": "true", text: t("tutorial.meld_label") })));
  if (deadwood.length) {
    kids.push(el("div", { class: "tu-group dead", role: "group", "aria-label": t("tutorial.deadwood_label") },
      el("div", { class: "tu-cards" }, deadwood.map((c) => (pick ? card(c, { onclick: () => onCard(c), pressed: S.sel.includes(c) }) : card(c)))),
      el("span", { class: "tu-mark", "aria-hidden": "true", text: t("tutorial.deadwood_label") })));
  }
  return el("div", { class: "tu-groups", "data-testid": testid }, kids);
}

// ---------------------------------------------------------------- feedback
function say(verdict, key, params = {}) {
  S.verdict = { verdict, key, params };
  showVerdict();
}

function showVerdict() {
  const box = $("tu-feedback");
  const v = S.verdict;
  box.dataset.verdict = v ? v.verdict : "";
  if (!v) { box.textContent = ""; return; }
  const lead = v.verdict === "right" ? t("tutorial.right") : v.verdict === "wrong" ? t("tutorial.try_again") : "";
  box.replaceChildren(lead ? el("b", { text: lead }) : "", lead ? " " : "", t(v.key, v.params));
}

/** The verdict's own fields as text: cards short ("7♥"), numbers as they are. */
function fmt(v) {
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === "ok" || k === "reason") continue;
    out[k] = Array.isArray(x) ? short(x) : typeof x === "string" && x.length === 2 ? cardShort(x, t) : x;
  }
  return out;
}

function judged(step, v, okKey, extra = {}) {
  const params = { ...extra, ...fmt(v) };
  if (v.ok) {
    S.solved.add(step);
    say("right", okKey, params);
  } else {
    say("wrong", `tutorial.${step === "set" || step === "run" ? "meld" : step}.${v.reason}`, params);
  }
  render(false);
}

function pickCard(c) {
  const id = STEPS[S.i];
  if (S.solved.has(id)) return;
  S.sel = toggle(S.sel, c, handOf(id));
  render(false);
}

function handOf(id) {
  const L = S.L[id];
  if (id === "layoff") return L.defender;
  return L.hand;
}

// ---------------------------------------------------------------- the steps
const VIEWS = {
  set: () => meldView("set"),
  run: () => meldView("run"),

  deadwood() {
    const L = S.L.deadwood;
    const solved = S.solved.has("deadwood");
    const dead = L.hand.filter((c) => !L.melds.flat().includes(c));
    const board = groupsEl(L.melds, dead, { pick: !solved, onCard: pickCard, testid: "tu-hand" });
    const b = valueBreakdown(S.sel);
    const sum = b.items.length
      ? `${b.items.map((x) => `${cardShort(x.card, t)} ${x.points}`).join(" + ")} = ${b.total}`
      : t("tutorial.deadwood.counter_empty");
    const counter = el("p", { class: "tu-counter", "data-testid": "tu-counter" },
      el("b", { text: t("tutorial.deadwood.counter", { points: b.total }) }), " ", el("span", { text: sum }));
    return { board: [board, counter], controls: checkControls(() => judged("deadwood", judgeDeadwood(S.sel, L), "tutorial.deadwood.ok", { points: L.deadwood_points })) };
  },

  turn() {
    const L = S.L.turn;
    const T = S.turn || (S.turn = { drawn: false, discarded: null });
    const hand = T.drawn ? [...L.hand, L.upcard].filter((c) => c !== T.discarded) : L.hand;
    const stock = el("button", {
      type: "button", class: "pile tu-pile", "aria-label": t("tutorial.turn.stock_pile"), "data-testid": "tu-stock",
      disabled: T.drawn, onclick: () => judged("turn", judgeDraw("stock", L), ""),
    }, el("span", { class: "card back", "aria-hidden": "true" }));
    const top = T.discarded || (T.drawn ? null : L.upcard);
    const pile = top && !T.drawn
      ? card(top, { onclick: takeUpcard, cls: "tu-upcard", label: `${cardName(top, t)}, ${t("tutorial.turn.pile")}` })
      : top ? card(top, { label: `${cardName(top, t)}, ${t("tutorial.turn.pile")}` }) : el("span", { class: "tu-empty", "aria-hidden": "true" });
    const piles = el("div", { class: "tu-piles" },
      el("div", { class: "tu-pilebox" }, stock, el("span", { class: "tu-cap", text: t("tutorial.turn.stock_pile") })),
      el("div", { class: "tu-pilebox", "data-testid": "tu-pile" }, pile, el("span", { class: "tu-cap", text: t("tutorial.turn.pile") })));
    const cards = el("div", { class: "tu-cards", role: "group", "aria-label": t("tutorial.your_hand"), "data-testid": "tu-hand" },
      hand.map((c) => card(c, { onclick: T.discarded ? null : () => discard(c), cls: c === L.upcard ? "tu-taken" : "" })));
    return { board: [piles, cards], task: T.drawn ? "tutorial.turn.task_discard" : "tutorial.turn.task" };
  },

  knock() {
    const L = S.L.knock;
    const kept = L.melds.flat().concat(L.deadwood);
    const extra = L.hand.filter((c) => !kept.includes(c));
    const board = groupsEl(L.melds, [...L.deadwood, ...extra], { testid: "tu-hand" });
    const choice = (what, key, cls) => el("button", {
      type: "button", class: `btn big ${cls}`, "data-testid": `tu-${what}`, text: t(key),
      disabled: S.solved.has("knock"),
      onclick: () => judged("knock", judgeKnock(what, L), "tutorial.knock.ok", knockParams()),
    });
    return {
      board: [board],
      controls: [choice("gin", "tutorial.knock.gin", "btn-gin"), choice("knock", "tutorial.knock.knock", "btn-knock"),
        choice("discard", "tutorial.knock.discard", "")],
    };
  },

  layoff() {
    const L = S.L.layoff;
    const k = L.knocker;
    const solved = S.solved.has("layoff");
    // once solved, the laid-off cards move onto the computer's melds (marked), out of the hand
    const melds = k.melds.map((m, n) => (solved ? [...m, ...L.layoffs.filter((_, j) => L.layoffs_onto[j] === n)] : m));
    const theirs = el("div", { class: "tu-seat" }, el("h2", { class: "tu-sub", text: t("tutorial.layoff.knocker", { points: k.deadwood_points }) }),
      groupsEl(melds, k.deadwood, { testid: "tu-knocker", laid: solved ? L.layoffs : [] }));
    const mine = el("div", { class: "tu-seat" }, el("h2", { class: "tu-sub", text: t("tutorial.your_hand") }),
      cardRow(solved ? L.defender.filter((c) => !L.layoffs.includes(c)) : L.defender, { pick: !solved, label: t("tutorial.your_hand"), testid: "tu-hand" }));
    return { board: [theirs, mine], task: "tutorial.layoff.task", taskParams: { points: k.deadwood_points },
      controls: checkControls(() => judged("layoff", judgeLayoff(S.sel, L), "tutorial.layoff.ok", layoffParams())) };
  },

  play() {
    S.solved.add("play");
    const cards = el("div", { class: "tu-cards tu-fan", "aria-hidden": "true" }, ["7C", "7D", "7H", "JS", "QS", "KS"].map((c) => card(c)));
    return {
      board: [cards],
      controls: [el("a", { class: "btn btn-gold big", href: `/?lang=${S.lang}`, "data-testid": "tu-play", text: t("tutorial.play.button") }),
        el("a", { class: "tu-link", href: `/rules?lang=${S.lang}`, text: t("tutorial.play.rules") })],
    };
  },
};

function meldView(id) {
  const L = S.L[id];
  const solved = S.solved.has(id);
  return {
    board: [cardRow(L.hand, { pick: !solved, label: t("tutorial.your_hand"), testid: "tu-hand" })],
    controls: checkControls(() => {
      const v = judgeMeld(S.sel, L, id);
      judged(id, v.ok ? { ...v, cards: byRank(v.cards) } : v, `tutorial.${id}.ok`);
    }),
  };
}

function checkControls(onCheck) {
  const id = STEPS[S.i];
  const solved = S.solved.has(id);
  return [
    el("button", { type: "button", class: "btn btn-gold big", "data-testid": "tu-check", text: t("tutorial.check"), disabled: solved, onclick: onCheck }),
    el("button", { type: "button", class: "btn", "data-testid": "tu-clear", text: t("tutorial.clear"), disabled: solved || !S.sel.length,
      onclick: () => { S.sel = []; S.verdict = null; render(false); } }),
  ];
}

function takeUpcard() {
  const L = S.L.turn;
  S.turn.drawn = true;
  const v = judgeDraw("upcard", L);
  if (v.ok) say("right", "tutorial.turn.take_ok", { cards: short(L.upcard_melds[0] || []), before: L.deadwood_points });
  else say("wrong", `tutorial.turn.${v.reason}`, { card: cardShort(L.upcard, t) });
  render(false);
  const first = document.querySelector("[data-testid=tu-hand] button");
  if (first) first.focus();
}

function discard(c) {
  const L = S.L.turn;
  if (!S.turn.drawn) { say("wrong", "tutorial.turn.draw_first"); return; }
  const v = judgeDiscard(c, L);
  if (v.ok) S.turn.discarded = c;
  judged("turn", v, "tutorial.turn.ok");
}

function knockParams() {
  const L = S.L.knock;
  return { card: cardShort(L.discard, t), points: L.deadwood_points, limit: S.L.rules.knock_limit, left: short(L.deadwood) };
}

function layoffParams() {
  const L = S.L.layoff;
  return { cards: short(L.layoffs), before: L.defender_deadwood_before, after: L.defender_deadwood, knock: L.knocker.deadwood_points,
    points: L.points, bonus: S.L.rules.undercut_bonus };
}

// ---------------------------------------------------------------- the page
function render(moveFocus) {
  document.body.classList.remove("loading");
  const id = STEPS[S.i];
  $("tu-step").dataset.step = id;
  $("tu-count").textContent = t("tutorial.progress", { n: S.i + 1, total: STEPS.length });
  $("tu-title").textContent = t(`tutorial.${id}.title`);
  const params = { limit: S.L.rules.knock_limit, bonus: S.L.rules.gin_bonus, undercut: S.L.rules.undercut_bonus };
  $("tu-text").textContent = t(`tutorial.${id}.text`, params);
  const view = VIEWS[id]();
  $("tu-board").replaceChildren(...view.board);
  $("tu-task").textContent = t(view.task || `tutorial.${id}.task`, view.taskParams || params);
  $("tu-controls").replaceChildren(...(view.controls || []));
  showVerdict();
  $("tu-dots").replaceChildren(...STEPS.map((s, n) => el("li", {
    class: `${n === S.i ? "current" : ""}${S.solved.has(s) ? " done" : ""}`, "aria-current": n === S.i ? "step" : null,
  }, el("span", { class: "sr-only", text: `${t("tutorial.progress", { n: n + 1, total: STEPS.length })}: ${t(`tutorial.${s}.title`)}${S.solved.has(s) ? ` (${t("tutorial.done")})` : ""}` }))));
  $("tu-back").disabled = S.i === 0;
  const next = $("tu-next");
  next.hidden = S.i === STEPS.length - 1;
  next.disabled = !S.solved.has(id);
  next.title = next.disabled ? t("tutorial.next_locked") : "";
  if (moveFocus) $("tu-title").focus();
}

function go(i) {
  S.i = Math.max(0, Math.min(STEPS.length - 1, i));
  S.sel = [];
  S.verdict = null;
  const id = STEPS[S.i];
  if (id === "turn" && !S.solved.has("turn")) S.turn = null;
  if (S.solved.has(id)) restoreSolved(id);
  render(true);
}

/** Coming back to a solved step: show its answer again. */
function restoreSolved(id) {
  const L = S.L[id];
  if (id === "set" || id === "run") S.sel = L.melds.find((m) => m.kind === id).cards;
  else if (id === "deadwood") S.sel = L.deadwood_options[0];
  else if (id === "layoff") S.sel = L.layoffs;
}

async function setLanguage(lang, save = true) {
  ({ lang: S.lang, t: S.t } = await applyLanguage(lang, { save, titleKey: "tutorial.title" }));
  if (S.L) render(false);
}

async function boot() {
  $("lang-select").addEventListener("change", (e) => setLanguage(e.target.value, true));
  $("tu-back").addEventListener("click", () => go(S.i - 1));
  $("tu-next").addEventListener("click", () => go(S.i + 1));
  await setLanguage(pageLanguage(), false);
  const res = await apiRequest("GET", "/api/tutorial").catch(() => ({ ok: false }));
  if (!res.ok || !res.data) {
    document.body.classList.remove("loading");
    toast(t("tutorial.error"));
    $("tu-text").textContent = t("tutorial.error");
    return;
  }
  S.L = res.data;
  render(false);
}

boot();
