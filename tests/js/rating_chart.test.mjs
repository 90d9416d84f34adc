// Unit tests of the rating chart's geometry (run: node --test tests/js/).
import test from "node:test";
import assert from "node:assert/strict";
import { chartGeometry, niceStep, START } from "../../src/ginrummy/web/static/rating_chart.js";

const hist = [
  { game: 1, rating: 1662, rd: 290 },
  { game: 2, rating: 1590, rd: 250 },
  { game: 3, rating: 1640, rd: 220 },
];

test("nice steps are 1, 2 or 5 times a power of ten", () => {
  assert.equal(niceStep(1000, 4), 500);
  assert.equal(niceStep(700, 4), 200);
  assert.equal(niceStep(23, 4), 10);
  assert.equal(niceStep(3, 4), 1);
});

test("the line starts at 1500 at game 0 and passes every game, left to right", () => {
  const g = chartGeometry(hist, {}, { width: 320, height: 180 });
  const pts = g.line.split(" ").map((s) => s.replace(/^[ML]/, "").split(",").map(Number));
  assert.equal(pts.length, 4);
  assert.equal(pts[0][0], g.plot.x0);
  assert.equal(pts[3][0], g.plot.x1);
  for (let i = 1; i < pts.length; i++) assert.ok(pts[i][0] > pts[i - 1][0]);
  // higher rating, smaller y; the y of a value matches its tick's
  const yOf = (r) => g.plot.y1 - ((g.plot.y1 - g.plot.y0) * (r - g.lo)) / (g.hi - g.lo);
  assert.ok(Math.abs(pts[0][1] - yOf(START.rating)) < 0.06);
  assert.ok(Math.abs(pts[1][1] - yOf(1662)) < 0.06);
  assert.ok(pts[1][1] < pts[2][1]);
  for (const tk of g.yTicks) assert.ok(Math.abs(tk.y - yOf(tk.value)) < 0.06);
  assert.equal(g.dots.length, 3);
});

test("the range holds every rating and the last interval, on tick values", () => {
  const g = chartGeometry(hist, {});
  const last = hist[hist.length - 1];
  assert.ok(g.lo <= 1500 && g.lo <= last.rating - 1.96 * last.rd);
  assert.ok(g.hi >= 1662 && g.hi >= last.rating + 1.96 * last.rd);
  assert.equal(g.yTicks[0].value, g.lo);
  assert.equal(g.yTicks[g.yTicks.length - 1].value, g.hi);
  assert.ok(g.yTicks.length >= 3 && g.yTicks.length <= 8);
});

test("the band is clipped to the plot (the start's interval is 1500 -+ 686)", () => {
  const g = chartGeometry(Array.from({ length: 40 }, (_, i) => ({ game: i + 1, rating: 1600, rd: 60 })), {});
  const ys = g.band.replace(/[MLZ]/g, " ").trim().split(/\s+/).map((p) => Number(p.split(",")[1]));
  assert.ok(Math.min(...ys) >= g.plot.y0 - 1e-9 && Math.max(...ys) <= g.plot.y1 + 1e-9);
  assert.ok(g.lo > 1500 - 686, "a settled rating keeps a readable scale");
});

test("only the levels inside the range are drawn; x ticks end at the last game", () => {
  const g = chartGeometry(Array.from({ length: 23 }, (_, i) => ({ game: i + 1, rating: 1500 + i, rd: 80 })),
    { easy: 1000, hard: 1550, expert: 2400 });
  assert.deepEqual(g.levels.map((l) => l.name), ["hard"]);
  assert.equal(g.xTicks[0].value, 0);
  assert.equal(g.xTicks[g.xTicks.length - 1].value, 23);
  const xs = g.xTicks.map((t) => t.x);
  for (let i = 1; i < xs.length; i++) assert.ok(xs[i] - xs[i - 1] > 20, "tick labels apart");
  assert.equal(g.dots.length, 23);
  assert.equal(chartGeometry(Array.from({ length: 80 }, (_, i) => ({ game: i + 1, rating: 1500, rd: 80 }))).dots.length, 0);
});
