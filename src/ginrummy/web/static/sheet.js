// Score sheets of the variants, drawn like the paper ones: Hollywood (three column pairs, closed
// games marked), three players, partnership (team columns), and the plain two-column sheet of
// the score keeper. Used by the game page (variants.js) and the score keeper (keeper.js).
// The models are built from what the server scored (a game's `score` or a keeper sheet): the
// page adds nothing up that decides a rule. Model builders are pure (tests/js/sheet.test.mjs);
// renderers build DOM and run only in the browser.

import { el } from "./page.js";

// ------------------------------------------------------------------------------ models
/**
 * A Hollywood model from `hands` ({number, col|null, points, kind, games: [1-based]}) and the
 * three `games` ({closedAfter, winner: col|null, final: {handPoints, boxes, boxPoints, gameBonus,
 * shutout, shutoutRule, totals}|null}). Lines per game hold each entered win's running total.
 */
export function hollywoodModel({ names, hands, games, totals, over }) {
  const run = games.map(() => [0, 0]);
  const rows = [];
  for (const h of hands) {
    if (h.col === null || h.col === undefined) { rows.push({ number: h.number, kind: h.kind, dead: true, cells: null }); continue; }
    const cells = games.map(() => [null, null]);
    for (const g of h.games || []) {
      run[g - 1][h.col] += h.points;
      cells[g - 1][h.col] = run[g - 1][h.col];
    }
    rows.push({ number: h.number, kind: h.kind, col: h.col, points: h.points, cells, closes: games.map((g) => g.closedAfter === h.number) });
  }
  return { kind: "hollywood", names, rows, games, totals, over: !!over };
}

/** Hollywood model from a game state's `score` (seats 0 = you, 1 = the computer). */
export function hollywoodFromState(score, names) {
  return hollywoodModel({
    names,
    hands: (score.hands || []).map((h) => ({ number: h.number, col: h.winner, points: h.points, kind: h.kind, games: h.games })),
    games: (score.games || []).map((g) => ({ closedAfter: g.closed_after, winner: g.winner, final: g.final ? finalOf(g.final, (a) => a) : null })),
    totals: score.totals,
    over: !!score.final,
  });
}

/** Hollywood model from a score keeper sheet (players by name). */
export function hollywoodFromKeeper(out) {
  const names = out.players;
  const col = (n) => (n === null || n === undefined ? null : names.indexOf(n));
  const byName = (obj) => names.map((n) => obj[n]);
  return hollywoodModel({
    names,
    hands: out.hands.map((h) => ({ number: h.number, col: col(h.winner), points: h.points, kind: h.kind, games: h.games })),
    games: out.games.map((g) => ({ closedAfter: g.closed_after, winner: col(g.winner), final: g.closed_after ? finalOf(g, byName) : null })),
    totals: byName(out.totals),
    over: out.over,
  });
}

function finalOf(f, pick) {
  return {
    handPoints: pick(f.hand_points), boxes: pick(f.boxes), boxPoints: pick(f.box_points), gameBonus: f.game_bonus,
    shutout: !!f.shutout, shutoutRule: f.shutout_rule, totals: pick(f.totals),
  };
}

/**
 * A sheet of columns (two players, or two teams): rows {number, label?, detail?, col|null,
 * points, kind, totals}; sums and the final settlement (winner column gets the game bonus).
 */
export function columnsModel({ names, rows, handPoints, boxes, final, target, over }) {
  return { kind: "columns", names, rows, handPoints, boxes, final, target, over: !!over };
}

/**
 * Partnership model from a game state's `score` (team 0 = seats A and C, team 1 = B and D), seen
 * from the person's team `mine` (0 or 1): their team is always the first column ("Us | Them"),
 * `teamNames` given in that order too.
 */
export function partnershipFromState(score, names, teamNames, mine = 0) {
  const side = (team) => (team === null || team === undefined ? team : team ^ mine);  // a team's column
  const pick = (a) => (Array.isArray(a) && mine ? [a[1], a[0]] : a);
  const rows = (score.hands || []).map((h) => ({
    number: h.number, col: side(h.team), points: h.net, kind: h.team === null ? "tie" : "team", totals: pick(h.running),
    detail: (h.tables || []).map((tb) => ({ players: tb.players.map((p) => names[p]), winner: tb.winner === null ? null : names[tb.winner], points: tb.points, kind: tb.kind })),
  }));
  const f = score.final;
  return columnsModel({
    names: teamNames, rows, handPoints: pick(score.hand_points), boxes: pick(score.boxes), target: score.target, over: !!f,
    final: f ? { winner: side(f.winner), ...finalOf(f, pick), margin: f.margin } : null,
  });
}

/** Standard or partnership model from a score keeper sheet. */
export function columnsFromKeeper(out) {
  const names = out.scoring === "partnership" ? out.teams : out.players;
  const col = (n) => (n === null || n === undefined ? null : names.indexOf(n));
  const byName = (obj) => names.map((n) => obj[n]);
  const rows = out.hands.map((h) => (out.scoring === "partnership"
    ? { number: h.number, col: col(h.team), points: h.team ? (h.running[h.team] ?? 0) - prevRun(out, h, h.team) : 0, kind: h.team ? "team" : "tie", totals: byName(h.running),
      detail: h.tables.map((tb) => ({ players: tb.players, winner: tb.winner, points: tb.points })) }
    : { number: h.number, col: col(h.winner), points: h.points, kind: h.kind, totals: byName(h.running) }));
  const g = out.games[0];
  return columnsModel({
    names, rows, handPoints: byName(g.hand_points), boxes: byName(g.boxes), target: out.rules.target, over: out.over,
    final: out.over ? { winner: col(g.winner), ...finalOf(g, byName), margin: g.margin } : null,
  });
}

function prevRun(out, h, team) {
  const i = out.hands.indexOf(h);
  return i > 0 ? out.hands[i - 1].running[team] ?? 0 : 0;
}

/** Three players: rows {number, dealer, players: [cols], col|null, points, kind, totals: [3]}. */
export function threeModel({ names, rows, handPoints, boxes, winner, settlements, net, next, target, over }) {
  return { kind: "three", names, rows, handPoints, boxes, winner, settlements: settlements || [], net, next, target, over: !!over };
}

export function threeFromState(score, names) {
  const totals = [0, 0, 0];
  const rows = (score.hands || []).map((h) => {
    if (h.winner !== null && h.winner !== undefined) totals[h.winner] += h.points;
    return { number: h.number, dealer: h.dealer, players: h.players, col: h.winner, points: h.points, kind: h.kind, totals: [...totals] };
  });
  const f = score.final;
  return threeModel({
    names, rows, handPoints: score.hand_points, boxes: score.boxes, target: score.target, over: !!f, next: score.next,
    winner: f ? f.winner : null, net: f ? f.net : null,
    settlements: f ? f.settlements.map((s) => ({ winner: s.winner, opponent: s.opponent, totals: [s.totals[0], s.totals[1]], shutout: !!s.shutout, margin: s.margin, boxPoints: s.box_points, gameBonus: s.game_bonus })) : [],
  });
}

export function threeFromKeeper(out) {
  const names = out.players;
  const col = (n) => (n === null || n === undefined ? null : names.indexOf(n));
  const totals = [0, 0, 0];
  const rows = out.hands.map((h) => {
    const c = col(h.winner);
    if (c !== null) totals[c] += h.points;
    return { number: h.number, dealer: col(h.dealer), players: h.players.map(col), col: c, points: h.points, kind: h.kind, totals: [...totals] };
  });
  const settlements = Object.entries(out.settlements || {}).map(([opp, f]) => ({
    winner: col(f.winner), opponent: col(opp), totals: [f.totals[f.winner], f.totals[opp]], shutout: !!f.shutout, margin: f.margin,
    boxPoints: [f.box_points[f.winner], f.box_points[opp]], gameBonus: f.game_bonus,
  }));
  const net = out.over ? names.map(() => 0) : null;
  if (net) for (const s of settlements) { net[s.winner] += s.margin; net[s.opponent] -= s.margin; }
  return threeModel({
    names, rows, handPoints: names.map((n) => out.hand_points[n]), boxes: names.map((n) => out.boxes[n]), target: out.rules.target,
    over: out.over, winner: col(out.winner), settlements, net,
    next: out.next ? { dealer: col(out.next.dealer), players: out.next.players.map(col) } : null,
  });
}

// ------------------------------------------------------------------------------ DOM
const kindLabel = (kind, t) => t(`kind.${kind || "dead"}`, null, kind || "");

/** The Hollywood sheet: three column pairs side by side; a closed game is ruled off and marked. */
export function renderHollywood(m, t) {
  const [a, b] = m.names;
  const head1 = el("tr", {}, el("th", { class: "hn", "aria-hidden": "true" }),
    m.games.map((g, j) => {
      const closed = g.closedAfter !== null && g.closedAfter !== undefined;
      return el("th", { scope: "colgroup", colspan: "2", class: `gh g${j}${closed ? " closed" : ""}` },
        el("span", { text: t("vt.hw.game", { n: j + 1 }) }),
        closed ? el("span", { class: "stamp", text: t("vt.hw.closed") }) : null);
    }));
  const head2 = el("tr", {}, el("th", { scope: "col", class: "hn", text: "#" }), m.games.flatMap((g, j) => [
    el("th", { scope: "col", class: `pn g${j} c0`, title: a, text: a }), el("th", { scope: "col", class: `pn g${j} c1`, title: b, text: b })]));
  const body = [];
  for (const r of m.rows) {
    if (r.dead) {
      body.push(el("tr", { class: "dead" }, el("th", { scope: "row", class: "hn", text: String(r.number) }),
        el("td", { colspan: "6", class: "deadcell", text: kindLabel(r.kind, t) })));
      continue;
    }
    const tds = [];
    m.games.forEach((g, j) => {
      const after = g.closedAfter !== null && g.closedAfter !== undefined && r.number > g.closedAfter;
      for (const c of [0, 1]) {
        const v = r.cells[j][c];
        const cls = [`g${j}`, `c${c}`, v !== null ? "entry" : "", r.closes[j] && c === r.col ? "closing" : "", after ? "after" : ""].filter(Boolean).join(" ");
        tds.push(el("td", { class: cls, title: v !== null ? `+${r.points}` : null, text: v !== null ? String(v) : "" }));
      }
    });
    body.push(el("tr", {}, el("th", { scope: "row", class: "hn", title: kindLabel(r.kind, t), text: String(r.number) }), tds));
  }
  // each closed game settled in its own columns
  const line = (label, pick, cls) => el("tr", { class: cls }, el("th", { scope: "row", class: "hn lbl", text: label }),
    m.games.flatMap((g, j) => [0, 1].map((c) => el("td", { class: `g${j} c${c}${g.final ? "" : " open"}`, text: g.final ? pick(g, c) : "" }))));
  if (m.games.some((g) => g.final)) {
    body.push(line(t("vt.hw.boxes"), (g, c) => `${g.final.boxes[c]}×`, "sum"));
    body.push(line(t("score.box_bonus"), (g, c) => String(g.final.boxPoints[c]), "bonus"));
    body.push(line(t("score.game_bonus"), (g, c) => (g.winner === c ? String(g.final.gameBonus) : ""), "bonus"));
    if (m.games.some((g) => g.final && g.final.shutout)) body.push(line(t("score.shutout"), (g, c) => (g.final.shutout && g.winner === c ? "×2" : ""), "bonus"));
    body.push(line(t("score.total"), (g, c) => String(g.final.totals[c]), "final"));
  }
  const table = el("table", { class: "hw-sheet" }, el("caption", { class: "sr-only", text: t("vt.hw.title") }), el("thead", {}, head1, head2), el("tbody", {}, body));
  const totals = m.totals || [0, 0];
  const foot = el("p", { class: "hw-total" }, el("b", { text: `${t("vt.hw.match_total")}: ` }), `${a} ${totals[0]} · ${b} ${totals[1]}`);
  return el("div", { class: "sheet-variant hollywood" }, el("div", { class: "hw-wrap" }, table), foot);
}

/** Two columns (players or teams): running totals, each hand's points, sums and settlement. */
export function renderColumns(m, t, legend = "") {
  const [a, b] = m.names;
  const head = el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("score.hand") }), el("th", { scope: "col", text: a }), el("th", { scope: "col", text: b })));
  const rows = m.rows.map((r) => {
    const label = el("td", {}, `${r.number} `, r.kind === "team" ? null : el("span", { class: "kind", text: kindLabel(r.kind, t) }),
      r.detail ? el("span", { class: "tables" }, r.detail.map((d) => el("span", { class: "tb", text: `${d.players.join("–")}: ${d.winner === null || d.winner === undefined ? "—" : `${d.winner} ${d.points}`}` }))) : null);
    if (r.col === null || r.col === undefined) return el("tr", { class: "dead" }, label, el("td", { text: "—" }), el("td", { text: "—" }));
    const cell = (c) => (c === r.col ? el("td", { class: "win" }, el("span", { class: "plus", text: `+${r.points}` }), String(r.totals[c])) : el("td", { text: "" }));
    return el("tr", {}, label, cell(0), cell(1));
  });
  const sum = (label, x, y, cls = "sum") => el("tr", { class: cls }, el("th", { scope: "row", text: label }), el("td", { text: String(x) }), el("td", { text: String(y) }));
  rows.push(sum(t("score.hand_points"), m.handPoints[0], m.handPoints[1]));
  rows.push(sum(t("score.boxes"), m.boxes[0], m.boxes[1], "boxes"));
  const f = m.final;
  if (f) {
    const w = f.winner;
    rows.push(sum(t("score.box_bonus"), f.boxPoints[0], f.boxPoints[1], "bonus"));
    rows.push(sum(t("score.game_bonus"), w === 0 ? f.gameBonus : "", w === 1 ? f.gameBonus : "", "bonus"));
    if (f.shutout) rows.push(sum(t("score.shutout"), w === 0 ? "×2" : "", w === 1 ? "×2" : "", "bonus"));
    rows.push(sum(t("score.total"), f.totals[0], f.totals[1], "final"));
  }
  const table = el("table", {}, el("caption", { class: "sr-only", text: t("score.title") }), head, el("tbody", {}, rows));
  const foot = el("p", { class: "target", text: f ? t("vt.winner", { name: m.names[f.winner] }) + ` · ${t("score.margin", { n: f.margin })}` : t("score.target", { n: m.target }) });
  return el("div", { class: "sheet-variant columns" }, table, legend ? el("p", { class: "target legend", text: legend }) : null, foot);
}

/** Three players: a column each; the dealer of each hand marked; settlement per opponent. */
export function renderThree(m, t) {
  const head = el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("score.hand") }), m.names.map((n) => el("th", { scope: "col", title: n, text: n }))));
  const rows = m.rows.map((r) => {
    const label = el("td", {}, `${r.number} `, el("span", { class: "kind", text: r.col === null ? kindLabel(r.kind, t) : "" }));
    const cells = m.names.map((_, c) => {
      if (c === r.dealer) return el("td", { class: "out", title: t("vt.sits_out"), text: "·" });
      if (c === r.col) return el("td", { class: "win" }, el("span", { class: "plus", text: `+${r.points}` }), String(r.totals[c]));
      return el("td", { text: r.col === null ? "—" : "" });
    });
    return el("tr", { class: r.col === null ? "dead" : "" }, label, cells);
  });
  const sum = (label, vals, cls = "sum") => el("tr", { class: cls }, el("th", { scope: "row", text: label }), vals.map((v) => el("td", { text: String(v) })));
  rows.push(sum(t("score.hand_points"), m.handPoints));
  rows.push(sum(t("score.boxes"), m.boxes, "boxes"));
  if (m.net) rows.push(sum(t("vt.net"), m.net.map((v) => (v > 0 ? `+${v}` : String(v))), "final"));
  const table = el("table", {}, el("caption", { class: "sr-only", text: t("score.title") }), head, el("tbody", {}, rows));
  const out = [table];
  if (m.settlements.length) {
    out.push(el("ul", { class: "settle" }, m.settlements.map((s) => el("li", {
      text: t("vt.settlement", { winner: m.names[s.winner], loser: m.names[s.opponent], a: s.totals[0], b: s.totals[1], n: s.margin }) + (s.shutout ? ` (${t("score.shutout")})` : ""),
    }))));
  } else if (m.next) {
    out.push(el("p", { class: "target", text: t("vt.next_3p", { dealer: m.names[m.next.dealer], a: m.names[m.next.players[0]], b: m.names[m.next.players[1]] }) }));
  }
  out.push(el("p", { class: "target", text: m.over && m.winner !== null ? t("vt.winner", { name: m.names[m.winner] }) : t("score.target", { n: m.target }) }));
  return el("div", { class: "sheet-variant three" }, out);
}

export function renderModel(m, t, legend = "") {
  if (m.kind === "hollywood") return renderHollywood(m, t);
  if (m.kind === "three") return renderThree(m, t);
  return renderColumns(m, t, legend);
}
