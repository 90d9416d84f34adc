// The result panel of a deal or a game, drawn from the page's state it is given: the headline and
// the line under it, each hand laid out (melds with the cards laid off on them, deadwood), the
// points' breakdown, the buttons (next hand, rematch, new game, the hand's replay) and the deal's
// reveal. `resultView` is the pure view (tests/js/views.test.mjs); the draws change only the DOM.

import { cardName, resultHeadline, breakdownLabel, humanize } from "./i18n.js";
import { findLegal, meldsWithLayoffs, isRunMeld, sortForShow } from "./model.js";
import { $, el, cardEl } from "./page.js";
import { hasPeople, isCreator, creatorName } from "./seats.js";
import { isVariant, playerName, variantHeadline, variantResultLines, layoffNote, laidByText } from "./variants.js";
import { named } from "./render.js";
import { reviewPage } from "./review_model.js";

/**
 * What the result panel shows, or `{show: false}`: `title`, `sub` (the line under it), `hands`
 * (the person's last: who, role, deadwood, melds with their laid-off cards, the deadwood cards,
 * the layoff notes), `breakdown` rows, and the buttons.
 */
export function resultView(p) {
  const { t, state: st } = p;
  const resigned = !!(st && st.resigned && st.phase === "game-over");
  const show = !!(st && (st.result || resigned) && (st.phase === "hand-over" || st.phase === "game-over") && !p.animating);
  if (!show) return { show: false };
  if (resigned) return { show: true, resigned: true, title: t("game.resigned") };
  const res = st.result;
  const you = st.you ?? 0;
  const over = st.phase === "game-over";
  const final = st.score && st.score.final;
  const headline = named(st) ? variantHeadline(res, st, t) : resultHeadline(res, you, t);
  const several = isVariant(st) && st.table.scoring !== "hollywood";  // more than one other player
  const teams = isVariant(st) && st.table.scoring === "partnership";
  const mine = teams ? you % 2 : you;  // the final's winner is a team at a partnership table
  let overText = t(final && final.winner === mine ? "game.won.you" : several ? "vt.game_lost" : "game.won.opp");
  if (hasPeople(st) && final && final.winner !== mine) {
    overText = teams ? t("friends.team_lost") : t("vt.winner", { name: playerName(st, final.winner, t) });
  }
  const sub = [];
  if (over) sub.push(headline);
  if (over && final && final.totals && !isVariant(st)) {
    // the final totals here too: on a phone the score sheet is below the table
    const scores = { you: final.totals[you], opp: final.totals[1 - you] };
    sub.push(named(st) ? t("game.final_name", { ...scores, name: playerName(st, 1 - you, t) }) : t("game.final", scores));
  }
  sub.push(...variantResultLines(st, t));
  if (res.doubled) sub.push(t("result.doubled"));

  const other = (seat) => (res.hands || []).find((h) => h.seat !== seat);
  const hands = [...(res.hands || [])].sort((a, b) => (a.seat === you) - (b.seat === you)).map((h) => {
    const me = h.seat === you;
    let role = "";
    if (res.kind !== "dead" && res.knocker !== null && res.knocker !== undefined) {
      if (h.seat === res.knocker) role = t(res.kind === "gin" ? "result.role.gin" : res.kind === "big_gin" ? "result.role.big_gin" : "result.role.knocker");
      else role = t("result.role.defender");
    }
    const laidOnMe = h.seat === res.knocker ? (other(h.seat) || {}).layoffs || [] : [];
    return {
      who: me ? t("table.you") : named(st) ? playerName(st, h.seat, t) : t("table.computer"),
      role,
      deadwoodText: t("result.deadwood", { n: h.deadwood_points ?? 0 }),
      melds: meldsWithLayoffs(h.melds, laidOnMe),
      laidBy: laidByText(st, (other(h.seat) || {}).seat, t),  // who laid off onto this hand's melds
      deadwood: h.deadwood || [],
      notes: (h.layoffs || []).map((lo) => layoffNote(st, h.seat, lo, t)),
    };
  });

  const breakdown = (res.breakdown || []).map((b) => ({ label: breakdownLabel(b, t), points: b.points, total: false }));
  if (res.winner !== null && res.winner !== undefined) {
    const winner = res.winner === you ? t("table.you") : named(st) ? playerName(st, res.winner, t) : t("table.computer");
    breakdown.push({ label: t("result.total", { who: winner }), points: res.points, total: true });
  }
  // a person who joined cannot start the rematch: say who can (docs/tables.md)
  const host = over && hasPeople(st) && !isCreator(st) ? creatorName(st) : null;
  return {
    show: true, resigned: false, title: over && final ? overText : headline, sub: sub.join(" · "), hands, breakdown,
    nextHidden: over,
    // someone else started the next deal: this result stays until the person goes on (issue 21)
    ahead: !over && !!p.ahead,
    aheadText: p.ahead ? t(["offer", "draw", "discard"].includes(p.ahead.phase) ? "friends.next_started_turn" : "friends.next_started") : "",
    nextDisabled: !(p.ahead || findLegal(st, "next_hand")) || p.busy,
    rematchHidden: !(over && hasPeople(st) && isCreator(st)),
    waiting: host ? t("friends.rematch_wait", { name: host }) : "",
    againHidden: !over,
    // step through this hand face up (the replay page reads the game's token from this browser);
    // the deal shown, by its number (a partnership hand's two deals are numbered apart)
    replay: `/replay?game=${encodeURIComponent(st.game_id)}&hand=${dealNumber(st)}`,
    // the review (issue 20): the whole game once it is over, else the hand just finished
    review: over ? reviewPage(st.game_id) : reviewPage(st.game_id, dealNumber(st)),
    fair: st.fairness && st.fairness.revealed,
  };
}

/**
 * The number of the deal the page shows, as the replay and the review number deals: the hand's
 * number at a two-player table or three players (one deal a hand), the table's deal at a
 * partnership (`table.deal`: its hand's two deals are two numbers).
 */
export function dealNumber(st) {
  const deal = st && st.table && st.table.deal;
  return Number.isInteger(deal) && deal > 0 ? deal : st.hand_number;
}

export function drawResult(p) {
  const { t } = p;
  const v = resultView(p);
  const panel = $("result");
  const wasHidden = panel.hidden;
  panel.hidden = !v.show;
  $("table").classList.toggle("has-result", v.show);
  if (!v.show) return;
  if (v.resigned) { drawResigned(v, wasHidden, t); return; }
  $("result-h").textContent = v.title;
  $("result-sub").textContent = v.sub;
  $("result-hands").replaceChildren(...v.hands.map((h) => {
    const groups = h.melds.map((m, i) => {
      const g = el("div", { class: `group meld m${i % 4}`, role: "group", "aria-label": t("hand.meld_label", { n: i + 1, kind: t(isRunMeld(m.cards) ? "hand.run" : "hand.set") }) });
      // a run shows its laid-off cards where they extend it; a set, after its own cards
      const all = isRunMeld(m.cards) ? sortForShow(m.cards.concat(m.laid)) : sortForShow(m.cards).concat(m.laid);
      for (const c of all) {
        const laid = m.laid.includes(c);
        g.append(cardEl(c, t, { mini: true, cls: laid ? "tag-laid" : "", attrs: laid ? { "data-tag": "+", "aria-label": `${cardName(c, t)}, ${h.laidBy}` } : {} }));
      }
      g.append(el("div", { class: "group-mark", "aria-hidden": "true" }, el("span", { text: t(isRunMeld(m.cards) ? "hand.run" : "hand.set") })));
      return g;
    });
    if (h.deadwood.length) {
      const g = el("div", { class: "group deadwood", role: "group", "aria-label": t("hand.deadwood_group") });
      for (const c of h.deadwood) g.append(cardEl(c, t, { mini: true }));
      g.append(el("div", { class: "group-mark", "aria-hidden": "true" }, el("span", { text: t("hand.deadwood_group") })));
      groups.push(g);
    }
    const notes = h.notes.map((text) => el("li", { text }));
    return el("div", { class: "rhand" },
      el("h3", {}, el("span", { text: h.who }), h.role ? el("span", { class: "role", text: `(${h.role})` }) : null, el("span", { class: "dw", text: h.deadwoodText })),
      el("div", { class: "rgroups" }, groups),
      notes.length ? el("ul", { class: "layoff-notes" }, notes) : null);
  }));
  const bd = v.breakdown.map((b) => (b.total
    ? el("tr", { class: "total" }, el("td", { text: b.label }), el("td", { class: "n", text: b.points }))
    : el("tr", {}, el("td", { text: b.label }), el("td", { class: "n", text: b.points }))));
  $("breakdown").replaceChildren(el("tbody", {}, bd));
  $("breakdown").hidden = !bd.length;
  $("btn-next").hidden = v.nextHidden;
  $("btn-next").disabled = v.nextDisabled;
  $("result-ahead").hidden = !v.ahead;
  $("result-ahead-text").textContent = v.aheadText;
  $("btn-rematch").hidden = v.rematchHidden;
  $("rematch-wait").hidden = !v.waiting;
  $("rematch-wait").textContent = v.waiting;
  $("btn-again").hidden = v.againHidden;
  $("btn-replay").hidden = false;
  $("btn-replay").href = v.replay;
  $("btn-review").hidden = false;
  $("btn-review").href = v.review;
  drawReveal(v.fair, t);
  if (wasHidden) requestAnimationFrame(() => panel.focus({ preventScroll: false }));
}

/** Next hand: off while an action is in flight (the result panel shown). */
export function drawNextButton(p) {
  const v = resultView(p);
  if (v.show && !v.resigned) $("btn-next").disabled = v.nextDisabled;
}

/** The result panel of a game the person resigned (docs/api.md, resign): lost, nothing to show but a new game. */
function drawResigned(v, wasHidden, t) {
  $("result-h").textContent = v.title;
  $("result-sub").textContent = "";
  $("result-hands").replaceChildren();
  $("breakdown").replaceChildren();
  $("breakdown").hidden = true;
  for (const id of ["btn-next", "result-ahead", "btn-rematch", "rematch-wait", "btn-replay", "btn-review"]) $(id).hidden = true;
  $("btn-again").hidden = false;
  drawReveal(null, t);
  if (wasHidden) requestAnimationFrame(() => $("result").focus({ preventScroll: false }));
}

const REVEAL_ORDER = ["hand", "deal", "table", "deck", "salt", "commitment"];

/**
 * The deal's reveal (docs/fairness.md) under the result, folded: each field labelled in the
 * page's language, how to check it, and the check as a command to copy (the commitment is the
 * SHA-256 of "<salt>:<deck>"). Stays open across re-renders of the same deal.
 */
function drawReveal(fair, t) {
  const box = $("fair-reveal");
  const was = box.querySelector("details");
  const key = fair ? JSON.stringify(fair) : "";
  const open = !!(was && was.open && was.dataset.key === key);
  if (!fair) { box.replaceChildren(); return; }
  const text = (v) => (Array.isArray(v) ? v.join(" ") : String(v));
  const body = [];
  if (typeof fair === "string") body.push(el("pre", { class: "fair-cmd", text: fair }));
  else {
    const keys = [...REVEAL_ORDER.filter((k) => k in fair), ...Object.keys(fair).filter((k) => !REVEAL_ORDER.includes(k))];
    body.push(el("dl", { class: "fair-list" }, keys.flatMap((k) => [
      el("dt", { text: t(`fair.label.${k}`, null, humanize(k)) }), el("dd", { "data-key": k }, el("code", { text: text(fair[k]) })),
    ])));
    if (fair.salt && fair.deck) {
      body.push(el("p", { class: "fair-how", text: t("fair.how") }),
        el("code", { class: "fair-cmd", "data-testid": "fair-command", text: `printf '%s' '${fair.salt}:${text(fair.deck)}' | sha256sum` }));
    }
  }
  box.replaceChildren(el("details", { class: "fair-details", "data-key": key, open }, el("summary", { text: t("fair.revealed_title") }), ...body));
}
