// The geometry of the rating chart on the statistics page (issue 22): pure (no DOM), so that
// node can test it (tests/js/rating_chart.test.mjs). The chart draws the rating after each game
// from the start (game 0: 1500, deviation 350) as a line, its 95% band (rating -+ 1.96 RD) as a
// shaded area clipped to the plot, and the levels whose ratings fall inside as dashed lines.

export const START = { game: 0, rating: 1500, rd: 350 };
export const Z95 = 1.96;

/** A step of 1, 2 or 5 times a power of ten giving about `target` ticks over `span`. */
export function niceStep(span, target = 4) {
  const raw = Math.max(span, 1) / target;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/**
 * Everything the chart draws, in the SVG's user units.
 * @param {Array<{game:number, rating:number, rd:number}>} history the rating after each game, oldest first
 * @param {Object<string, number>} levels level name -> rating
 * @returns {{width, height, plot: {x0, x1, y0, y1}, yTicks: Array<{value, y}>, xTicks: Array<{value, x}>,
 *   line: string, band: string, dots: Array<{x, y}>, levels: Array<{name, rating, y}>, lo: number, hi: number}}
 */
export function chartGeometry(history, levels = {}, opts = {}) {
  const { width = 320, height = 180, left = 42, right = 10, top = 10, bottom = 24 } = opts;
  const pts = history.length && history[0].game > 1 ? [...history] : [START, ...history];  // the last 500 games only: no start
  const last = pts[pts.length - 1];
  const ratings = pts.map((p) => p.rating);
  // the vertical range: every rating, the last interval, at least 200 points, padded
  let lo = Math.min(...ratings, last.rating - Z95 * last.rd);
  let hi = Math.max(...ratings, last.rating + Z95 * last.rd);
  if (hi - lo < 200) { const mid = (hi + lo) / 2; lo = mid - 100; hi = mid + 100; }
  const pad = (hi - lo) * 0.05;
  const step = niceStep(hi - lo + 2 * pad);
  lo = Math.floor((lo - pad) / step) * step;
  hi = Math.ceil((hi + pad) / step) * step;
  const plot = { x0: left, x1: width - right, y0: top, y1: height - bottom };
  const g0 = pts[0].game;
  const n = Math.max(last.game - g0, 1);
  const x = (g) => plot.x0 + ((plot.x1 - plot.x0) * (g - g0)) / n;
  const y = (r) => plot.y1 - ((plot.y1 - plot.y0) * (Math.min(Math.max(r, lo), hi) - lo)) / (hi - lo);
  const f = (v) => Math.round(v * 10) / 10;
  const line = pts.map((p, i) => `${i ? "L" : "M"}${f(x(p.game))},${f(y(p.rating))}`).join(" ");
  const upper = pts.map((p) => `${f(x(p.game))},${f(y(p.rating + Z95 * p.rd))}`);
  const lower = pts.map((p) => `${f(x(p.game))},${f(y(p.rating - Z95 * p.rd))}`).reverse();
  const band = `M${upper.join(" L")} L${lower.join(" L")} Z`;
  const yTicks = [];
  for (let v = lo; v <= hi + 1e-9; v += step) yTicks.push({ value: v, y: f(y(v)) });
  const xStep = niceStep(n, 4);
  const xTicks = [];
  for (let g = g0; g <= last.game; g += Math.max(1, xStep)) xTicks.push({ value: g, x: f(x(g)) });
  if (xTicks[xTicks.length - 1].value !== last.game && last.game > 0) {
    if (last.game - xTicks[xTicks.length - 1].value < xStep / 2 && xTicks.length > 1) xTicks.pop();  // labels apart
    xTicks.push({ value: last.game, x: f(x(last.game)) });
  }
  const dots = pts.length <= 61 ? pts.filter((p) => p !== START).map((p) => ({ x: f(x(p.game)), y: f(y(p.rating)) })) : [];
  const lv = Object.entries(levels).filter(([, r]) => r >= lo && r <= hi).map(([name, r]) => ({ name, rating: r, y: f(y(r)) }));
  return { width, height, plot, yTicks, xTicks, line, band, dots, levels: lv, lo, hi };
}
