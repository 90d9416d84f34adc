// The person's rating on the statistics page (issue 22): the rating with its 95% interval, the
// suggested level, a chart of its history (an SVG drawn from rating_chart.js, scaled to the
// dialog's width) and the same history as a table for screen readers. Draws only from the
// `rating` object of GET /api/stats (docs/api.md "Statistics").

import { chartGeometry } from "./rating_chart.js";
import { el } from "./page.js";
import { levelName } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...kids) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  for (const k of kids.flat()) if (k) e.append(k);
  return e;
}

/** A rating as people read it: a whole number. */
export const whole = (x) => String(Math.round(x));
/** A level's rating in the menus: "about 1580" (to the nearest ten). */
export const about = (x) => String(Math.round(x / 10) * 10);

function chart(r, t) {
  const g = chartGeometry(r.history, r.levels || {});
  const first = r.history[0];
  const last = r.history[r.history.length - 1];
  const summary = t("stats.rating_chart_desc", { from: whole(1500), to: whole(last.rating), n: last.game, first: first.game });
  const clip = `rating-clip-${Math.random().toString(36).slice(2, 8)}`;
  const root = svg("svg", { viewBox: `0 0 ${g.width} ${g.height}`, class: "rating-chart", role: "img", "aria-label": `${t("stats.rating_chart")}. ${summary}`, "data-testid": "rating-chart" },
    svg("defs", {}, svg("clipPath", { id: clip }, svg("rect", { x: g.plot.x0, y: g.plot.y0, width: g.plot.x1 - g.plot.x0, height: g.plot.y1 - g.plot.y0 }))));
  for (const tk of g.yTicks) {
    root.append(svg("line", { x1: g.plot.x0, x2: g.plot.x1, y1: tk.y, y2: tk.y, class: "rc-grid" }));
    const label = svg("text", { x: g.plot.x0 - 5, y: tk.y + 4, class: "rc-tick", "text-anchor": "end" });
    label.textContent = whole(tk.value);
    root.append(label);
  }
  for (const tk of g.xTicks) {
    const label = svg("text", { x: tk.x, y: g.plot.y1 + 16, class: "rc-tick", "text-anchor": "middle" });
    label.textContent = String(tk.value);
    root.append(label);
  }
  root.append(svg("path", { d: g.band, class: "rc-band", "clip-path": `url(#${clip})` }));
  for (const lv of g.levels) {
    root.append(svg("line", { x1: g.plot.x0, x2: g.plot.x1, y1: lv.y, y2: lv.y, class: "rc-level" }));
    const label = svg("text", { x: g.plot.x1 - 3, y: lv.y - 3, class: "rc-level-label", "text-anchor": "end" });
    label.textContent = levelName(lv.name, t);
    root.append(label);
  }
  root.append(svg("path", { d: g.line, class: "rc-line" }));
  for (const d of g.dots) root.append(svg("circle", { cx: d.x, cy: d.y, r: 2.6, class: "rc-dot" }));
  root.append(svg("line", { x1: g.plot.x0, x2: g.plot.x0, y1: g.plot.y0, y2: g.plot.y1, class: "rc-axis" }),
    svg("line", { x1: g.plot.x0, x2: g.plot.x1, y1: g.plot.y1, y2: g.plot.y1, class: "rc-axis" }));
  return el("figure", { class: "rating-figure" }, root,
    el("figcaption", { class: "hint", text: `${t("stats.rating_chart")} · ${t("stats.rating_axis")}` }));
}

function historyTable(r, t) {
  const head = el("thead", {}, el("tr", {},
    ...["rating_col_game", "rating_col_opponent", "rating_col_result", "rating_col_rating", "rating_col_range"]
      .map((c) => el("th", { scope: "col", text: t(`stats.${c}`) }))));
  const rows = r.history.map((h) => el("tr", {},
    el("th", { scope: "row", text: String(h.game) }),
    el("td", { text: h.opponent ? levelName(h.opponent, t) : t("stats.rating_person") }),
    el("td", { text: t(h.won ? "stats.rating_won" : "stats.rating_lost") }),
    el("td", { text: whole(h.rating) }),
    el("td", { text: t("stats.rating_range_short", { low: whole(h.rating - 1.96 * h.rd), high: whole(h.rating + 1.96 * h.rd) }) })));
  return el("table", { class: "sr-only", "data-testid": "rating-table" },
    el("caption", { text: t("stats.rating_table") }), head, el("tbody", {}, rows));
}

/** The rating section of the statistics dialog, from `rating` (null: nothing). */
export function ratingSection(r, t) {
  if (!r || typeof r !== "object") return null;
  const box = el("section", { class: "rating-box", "data-testid": "stats-rating", "aria-labelledby": "rating-h" },
    el("h3", { id: "rating-h", text: t("stats.rating_title") }));
  if (!r.games) {
    box.append(el("p", { "data-testid": "rating-unrated", text: t("stats.rating_unrated") }));
    return box;
  }
  box.append(
    el("p", { class: "rating-now" },
      el("strong", { class: "rating-value", "data-testid": "rating-value", text: whole(r.rating) }),
      " ",
      el("span", { class: "rating-pm", text: `± ${whole(1.96 * r.rd)}` })),
    el("p", { "data-testid": "rating-range", text: t("stats.rating_range", { low: whole(r.low), high: whole(r.high), n: r.games }) }));
  if (r.suggested_level) {
    box.append(el("p", { "data-testid": "rating-suggest", text: t("stats.rating_suggest", {
      level: levelName(r.suggested_level, t), rating: about((r.levels || {})[r.suggested_level] ?? r.rating) }) }));
  }
  box.append(chart(r, t), historyTable(r, t), el("p", { class: "hint", text: t("stats.rating_note") }));
  return box;
}
