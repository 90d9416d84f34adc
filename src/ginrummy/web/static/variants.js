// The variant tables on the game page (docs/variants.md): Hollywood, three players, partnership.
// Names of the players, the strip above the table (who deals and sits out, the other table's
// progress, the team score), the variant score sheets, and the new-game menu's table choice with
// the field dependencies the server publishes in /api/meta (`requires`, `scorings`). The server
// is the authority: `constrain` only keeps the menu from offering what the server would refuse.
// Pure helpers (constrain, playerName, ...) are unit-tested by tests/js/variants.test.mjs.

import { cardName, cardShort, eventText, resultHeadline } from "./i18n.js";
import { el } from "./page.js";
import { hollywoodFromState, partnershipFromState, threeFromState, renderModel } from "./sheet.js";

/** A variant table (Hollywood, three players, partnership); every state has `table` at a table of seats. */
export const isVariant = (st) => !!(st && st.table && st.table.scoring && st.table.scoring !== "standard");

/** A table whose players are named: a variant table, or one with another person at it. */
const namesPlayers = (st) => isVariant(st) || (Array.isArray(st.seats) && st.seats.some((s) => s.kind === "person" && s.seat !== (st.you ?? 0)));

// ------------------------------------------------------------------------------ names
/** The player at seat `p`: "You", a person's display name (docs/tables.md), else the table's name for the seat. */
export function playerName(st, p, t) {
  if (p === null || p === undefined) return "";
  if (p === (st.you ?? 0)) return t("table.you");
  const person = Array.isArray(st.seats) ? st.seats.find((s) => s.seat === p && s.kind === "person" && s.name) : null;
  if (person) return person.name;
  if (Array.isArray(st.seats) && st.seats.some((s) => s.seat === p && s.kind === "open")) return t("friends.open_seat");  // before the start
  const sc = st.table && st.table.scoring;
  if (sc === "three_player") return t("vt.computer_n", { n: p });
  if (sc === "partnership") {
    const you = st.you ?? 0;
    if (you === 0) return t(`vt.p4.${p}`);
    return t((p - you) % 2 === 0 ? "vt.p4.partner" : "vt.p4.opponent", { l: "ABCD"[p] });  // seen from seat B, C or D
  }
  return t("table.computer");
}

/**
 * The result panel's line for a layoff by `seat` (`lo`: {card, onto}): "You laid off …", the
 * computer's at a two-player table, else the seat's own name ("Opponent D laid off …").
 */
export function layoffNote(st, seat, lo, t) {
  const params = { card: cardName(lo.card, t), meld: (lo.onto || []).map((c) => cardShort(c, t)).join(" ") };
  if (seat === (st.you ?? 0)) return t("result.layoff.you", params);
  if (!namesPlayers(st)) return t("result.layoff.opp", params);
  return t("result.layoff.other", { ...params, name: playerName(st, seat, t) });
}

/** "laid off by …" for a card `seat` laid off (the spoken name of the card on the knocker's meld). */
export function laidByText(st, seat, t) {
  if (seat === (st.you ?? 0)) return t("result.laid_by_you");
  if (!namesPlayers(st) || seat === null || seat === undefined) return t("result.laid_by_opp");
  return t("result.laid_by_name", { name: playerName(st, seat, t) });
}

/**
 * The rules bar's parts (i18n.rulesSummary, the preset's name first) with the table's name in
 * front at a variant table, once: the partnership table's preset has the table's name.
 */
export function rulesParts(parts, st, t) {
  if (!isVariant(st)) return parts;
  const name = scoringName(st.table.scoring, t);
  return parts[0] === name ? parts : [name, ...parts];
}

/** The teams' names, team 0 (seats 0 and 2) first: "Us" is the person's team. */
export function teamNames(t, you = 0) {
  const us = t("vt.team.us");
  const them = t("vt.team.them");
  return (you ?? 0) % 2 === 0 ? [us, them] : [them, us];
}

/** A person's display name at seat `p` (docs/tables.md), or null. */
function personName(st, p) {
  const s = Array.isArray(st.seats) ? st.seats.find((x) => x.seat === p && x.kind === "person" && x.name) : null;
  return s ? s.name : null;
}

/** The partnership legend: each team's seats by letter and name (the person's own first). */
function partnershipLegend(st, t) {
  const you = st.you ?? 0;
  const names = teamNames(t, you);
  const teams = you % 2 === 0 ? [0, 1] : [1, 0];
  return teams.map((team) => `${names[team]}: ${[team, team + 2].map((p) => `${"ABCD"[p]} ${playerName(st, p, t)}`).join(", ")}`).join(" · ");
}

/** The person's opponent at the deal shown (null when the person sits out). */
export function opponentOf(st) {
  const you = st.you ?? 0;
  const seats = (st.table && st.table.seats) || [];
  return seats.includes(you) ? seats.find((p) => p !== you) ?? null : null;
}

export function scoringName(name, t) {
  return t(`scoring.${name}`, null, name);
}

/** Headline of a deal's result naming the players ("Computer 2 knocked and won 12 points"). */
export function variantHeadline(res, st, t) {
  const you = st.you ?? 0;
  if (!res || res.winner === null || res.winner === undefined || res.winner === you) return resultHeadline(res, you, t);
  return t(`vt.result.${res.kind}`, { name: playerName(st, res.winner, t), points: res.points }, `${res.kind}: ${res.points}`);
}

/**
 * One move of the table of `st` in words (i18n.eventText, the one wording of a move), each seat
 * by its name at this table (playerName): the move log, the live region, the other table's moves.
 */
export function moveText(st, ev, t) {
  return eventText(ev, st.you ?? 0, t, { n: ev.hand ?? st.hand_number, name: (p) => playerName(st, p, t) });
}

// ------------------------------------------------------------------------------ new-game menu
function holds(cond, values) {
  const v = values[cond.field];
  return "is" in cond ? v === cond.is : v !== cond.not;
}

/**
 * What the menu shows (ginrummy.variants.constrain): `{values, off}`. A field the scoring fixes,
 * or whose hard condition fails, takes its required value and is disabled; a field whose other
 * condition fails is disabled (no effect) and keeps its value. Fields in `order`.
 */
export function constrain(values, scoring, meta) {
  const v = { ...values };
  const off = new Set();
  const sc = ((meta && meta.scorings) || []).find((s) => s.name === scoring);
  for (const [k, val] of Object.entries((sc && sc.fixed) || {})) { v[k] = val; off.add(k); }
  const requires = (meta && meta.requires) || {};
  const defaults = (meta && meta.defaults) || {};
  const order = ((meta && meta.fields) || []).map((f) => f.name);
  for (const name of order.length ? order : Object.keys(requires)) {
    for (const c of requires[name] || []) {
      if (!holds(c, v)) {
        off.add(name);
        if (c.hard) v[name] = defaults[name];
      }
    }
  }
  return { values: v, off };
}

export function fillScoring(select, meta, t, value) {
  const list = (meta && meta.scorings) || [{ name: "standard" }];
  select.replaceChildren(...list.map((s) => {
    const o = document.createElement("option");
    o.value = s.name;
    o.textContent = scoringName(s.name, t);
    return o;
  }));
  select.value = list.some((s) => s.name === value) ? value : "standard";
}

export function presetForScoring(meta, scoring) {
  const sc = ((meta && meta.scorings) || []).find((s) => s.name === scoring);
  return (sc && sc.preset) || null;
}

function readInput(box, name) {
  const e = box.querySelector(`[data-field="${name}"]`);
  if (!e) return undefined;
  switch (e.dataset.kind) {
    case "bool": return e.checked;
    case "int": return e.value === "" ? null : Number(e.value);
    case "onoff": { const on = document.getElementById(`${e.id}-on`); return on && on.checked ? Number(e.value) : null; }
    default: return e.value;
  }
}

function writeInput(box, name, value) {
  const e = box.querySelector(`[data-field="${name}"]`);
  if (!e) return;
  if (e.dataset.kind === "bool") e.checked = !!value;
  else if (e.dataset.kind === "onoff") {
    const on = document.getElementById(`${e.id}-on`);
    if (on) on.checked = value !== null && value !== undefined;
    if (value !== null && value !== undefined) e.value = value;
  } else e.value = String(value);
}

/**
 * Apply `constrain` to the fields of the new-game form in `box`; mark the disabled ones: class
 * `field-off` on the label and, under the label's text, a note that the field is not used.
 */
export function applyConstraints(box, scoring, meta, t) {
  const names = [...box.querySelectorAll("[data-field]")].map((e) => e.dataset.field);
  const values = Object.fromEntries(names.map((n) => [n, readInput(box, n)]));
  const { values: v, off } = constrain(values, scoring, meta);
  for (const n of names) {
    const e = box.querySelector(`[data-field="${n}"]`);
    const label = e.closest("label");
    if (v[n] !== values[n]) writeInput(box, n, v[n]);
    const dis = off.has(n);
    e.disabled = dis || (e.dataset.kind === "onoff" && !document.getElementById(`${e.id}-on`)?.checked);
    const on = e.dataset.kind === "onoff" ? document.getElementById(`${e.id}-on`) : null;
    if (on) on.disabled = dis;
    if (label) {
      label.classList.toggle("field-off", dis);
      const text = label.querySelector(":scope > span:not(.onoff)");
      let note = label.querySelector(".field-note");
      if (dis && !note && text) text.append(note = el("small", { class: "field-note" }));
      if (note) {
        note.hidden = !dis;
        note.textContent = t("new.field_unused");
      }
    }
  }
  return off;
}

// ------------------------------------------------------------------------------ rendering
function names(st, t) {
  const n = (st.table && st.table.players) || 2;
  return Array.from({ length: n }, (_, p) => playerName(st, p, t));
}

/** The partnership score sheet's model, seen from the person's team: "Us | Them" at every seat. */
export function partnershipSheet(st, t) {
  return partnershipFromState(st.score || {}, ["A", "B", "C", "D"], teamNames(t), (st.you ?? 0) % 2);
}

/** The variant score sheet in `body` (the side panel). */
export function renderVariantScore(body, st, t) {
  const sc = st.score || {};
  const you = st.you ?? 0;
  const short = (p, other) => (p === you ? t("table.you") : personName(st, p) || other);
  let model;
  if (sc.scoring === "hollywood") model = hollywoodFromState(sc, [0, 1].map((p) => short(p, t("vt.hw.opp"))));
  else if (sc.scoring === "three_player") model = threeFromState(sc, [0, 1, 2].map((p) => short(p, t("vt.computer_short", { n: p }))));
  else {
    model = partnershipSheet(st, t);
    const people = Array.isArray(st.seats) && st.seats.some((x) => x.kind === "person" && x.seat !== you);
    body.replaceChildren(renderModel(model, t, people || you !== 0 ? partnershipLegend(st, t) : t("vt.p4.legend")));
    return;
  }
  body.replaceChildren(renderModel(model, t));
}

/** The strip above the table: seats, who deals and sits out, the other table, the team score. */
export function renderVariantBar(box, st, t) {
  if (!box) return;
  box.hidden = !isVariant(st);
  if (box.hidden) { box.replaceChildren(); return; }
  const tb = st.table;
  const sc = st.score || {};
  const kids = [el("b", { class: "vt-name", text: scoringName(tb.scoring, t) })];
  if (st.phase === "waiting") { box.replaceChildren(...kids); return; }  // no score before the start
  if (tb.scoring === "hollywood") {
    kids.push(el("span", { class: "vt-games" }, (sc.games || []).map((g) => el("span", {
      class: `vt-chip${g.closed_after ? " closed" : ""}`,
      text: `${t("vt.hw.game", { n: g.number })}: ${g.hand_points[0]}–${g.hand_points[1]}${g.closed_after ? " ✓" : ""}`,
    }))));
  } else if (tb.scoring === "three_player") {
    kids.push(el("span", { class: "vt-players" }, [0, 1, 2].map((p) => el("span", {
      class: `vt-chip${p === tb.sitting_out ? " out" : ""}${p === (st.you ?? 0) ? " me" : ""}`, "data-player": String(p),
    }, `${playerName(st, p, t)} ${(sc.hand_points || [])[p] ?? 0}`, p === tb.sitting_out ? el("small", { text: ` · ${t("vt.deals_sits_out")}` }) : null))));
    if (tb.spectating) {
      kids.push(el("span", { class: "vt-note", "data-testid": "sitting-out", text: t("vt.spectating", { a: playerName(st, tb.seats[0], t), b: playerName(st, tb.seats[1], t) }) }));
    }
  } else {
    const [us, them] = teamNames(t);
    const hp = sc.hand_points || [0, 0];
    const mine = (st.you ?? 0) % 2;  // the person's team (seats 0 and 2, or 1 and 3)
    kids.push(el("span", { class: "vt-team", "data-testid": "team-score" }, el("span", { class: "vt-chip me", text: `${us} ${hp[mine]}` }),
      el("span", { class: "vt-chip", text: `${them} ${hp[1 - mine]}` }), el("small", { text: t("score.target", { n: sc.target }) })));
    kids.push(renderOtherTable(st, t));
  }
  box.replaceChildren(...kids);
}

function renderOtherTable(st, t) {
  const o = st.table.other;
  const wrap = el("span", { class: "vt-other", "data-testid": "other-table" });
  if (!o) return wrap;
  const [a, b] = o.players.map((p) => playerName(st, p, t));
  wrap.append(el("b", { text: `${t("vt.other_table")}: ` }), t("vt.other_vs", { a, b }), " · ");
  if (o.over && o.result) {
    wrap.append(el("span", { class: "vt-other-result", text: variantHeadline(o.result, st, t) }));
  } else {
    const bits = [t("vt.other_stock", { n: o.stock_count })];
    if (o.discard_top) bits.push(t("vt.other_top", { card: cardShort(o.discard_top, t) }));
    const last = [...(o.events || [])].reverse().find((e) => e.type !== "deal");
    if (last) bits.push(t("vt.other_last", { text: moveText(st, last, t) }));
    wrap.append(el("span", { text: bits.join(" · ") }));
  }
  if ((o.events || []).length) {
    wrap.append(el("details", { class: "vt-log" }, el("summary", { text: t("vt.other_log") }),
      el("ol", {}, o.events.map((e) => el("li", { text: moveText(st, e, t) })))));
  }
  return wrap;
}

/** Lines for the result panel of a variant table: the other table's result, the team's hand. */
export function variantResultLines(st, t) {
  if (!isVariant(st) || st.table.scoring !== "partnership") return [];
  const out = [];
  const o = st.table.other;
  if (o && o.result) out.push(`${t("vt.other_table")}: ${variantHeadline(o.result, st, t)}`);
  const last = (st.score.hands || []).find((h) => h.number === st.hand_number);
  if (last) {
    const names = teamNames(t, st.you ?? 0);
    out.push(last.team === null ? t("vt.result.team_tie") : t("vt.result.team", { team: names[last.team], n: last.net }));
  }
  return out;
}
