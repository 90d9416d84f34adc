// The hand replay page (/replay?game=<game_id>&hand=<n>): a finished hand of the person's game,
// every card face up, step by step (GET /api/games/{id}/hands/{n}/replay, docs/api.md), with the
// missed-gin, missed-knock and undercut markers the server found. The game's token is the one the
// game page keeps in localStorage ("ginrummy.current"); the server answers finished hands only.
// This page holds no rules: it draws what the server sends.

import { makeT, cardName, cardShort, resultHeadline, breakdownLabel, presetName } from "./i18n.js";
import { orderMeld, sortByRank } from "./cards.js";
import { $, el, apiRequest, applyLanguage, cardEl, pageLanguage } from "./page.js";
import { playerName, variantHeadline } from "./variants.js";

const KEY_CURRENT = "ginrummy.current";
const PILE_SHOWN = 7;
const S = { lang: "en", t: makeT({}), game: null, data: null, step: 0, number: null };
const t = (...a) => S.t(...a);

// ---------------------------------------------------------------- cards
// Face up as the game page draws them (page.js cardEl), without the bottom-right index.
const backEl = () => el("span", { class: "card back", "aria-hidden": "true" });
const cardsText = (cards) => cards.map((c) => cardShort(c, t)).join(" ");

// ---------------------------------------------------------------- who is who
function pseudoState() {
  const d = S.data;
  return { you: 0, table: d && d.scoring !== "standard" ? { scoring: d.scoring } : null };
}
const nameOf = (seat) => playerName(pseudoState(), S.data.players[seat], t);
const isYou = (seat) => seat !== null && seat !== undefined && seat === S.data.you;
const bottomSeat = () => (S.data.you === null || S.data.you === undefined ? 0 : S.data.you);

function headline(res) {
  const d = S.data;
  const mapped = { ...res, winner: res.winner === null || res.winner === undefined ? null : d.players[res.winner] };
  return d.scoring === "standard" ? resultHeadline(mapped, 0, t) : variantHeadline(mapped, pseudoState(), t);
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
function seatEl(f, seat) {
  const sh = f.hands[seat];
  const d = S.data;
  const hot = f.seat === seat && ["take", "draw_stock", "draw_discard"].includes(f.type) ? f.card : null;
  const mark = (c) => cardEl(c, t, { cls: c === hot ? "rp-hot" : "", bottomIndex: false });
  const groups = sh.melds.map((m, i) => el("div", { class: `rp-group meld m-${i % 4}`, role: "group", "aria-label": t("replay.meld") },
    ...orderMeld(m).map(mark)));
  if (sh.deadwood.length) {
    groups.push(el("div", { class: "rp-group deadwood", role: "group", "aria-label": t("replay.deadwood_group") }, ...sortByRank(sh.deadwood).map(mark)));
  }
  if (sh.spare) {
    groups.push(el("div", { class: "rp-group spare", role: "group", "aria-label": t("replay.spare") },
      mark(sh.spare), el("span", { class: "rp-spare-label", "aria-hidden": "true", text: t("replay.spare") })));
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
  $("rp-top").replaceChildren(...seatEl(f, 1 - me));
  $("rp-bottom").replaceChildren(...seatEl(f, me));
  $("rp-top").classList.toggle("acting", f.seat === 1 - me);
  $("rp-bottom").classList.toggle("acting", f.seat === me);
  $("rp-stock").replaceChildren(
    el("span", { class: "rp-label", text: t("table.stock_label", { n: f.stock_count }) }),
    el("div", { class: "rp-stock-cards" }, backEl(),
      f.next_stock ? el("div", { class: "rp-next" }, cardEl(f.next_stock, t, { cls: "rp-peek", bottomIndex: false }), el("small", { text: t("replay.next_stock") })) : null),
  );
  const pile = f.discard_pile;
  const shown = pile.slice(-PILE_SHOWN);
  const topHot = f.type === "discard" && pile.length && pile[pile.length - 1] === f.card;
  $("rp-pile").replaceChildren(
    el("span", { class: "rp-label", text: pile.length ? t("replay.pile", { n: pile.length }) : t("table.pile_empty") }),
    el("div", { class: "rp-pile-cards" }, ...shown.map((c, i) => cardEl(c, t, { cls: i === shown.length - 1 && topHot ? "rp-hot" : "", bottomIndex: false }))),
  );
  $("rp-action").textContent = actionText(f);
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
}

function renderMarkers() {
  const d = S.data;
  const last = Math.max(1, d.frames.length - 1);
  $("rp-ticks").replaceChildren(...d.markers.map((m) => {
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

function render() {
  document.body.classList.remove("loading");
  if (!S.data) return;
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
function savedGame() {
  try { return JSON.parse(localStorage.getItem(KEY_CURRENT) || "null"); } catch { return null; }
}

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
  const url = new URL(window.location.href);
  url.searchParams.set("game", g.game_id);
  url.searchParams.set("hand", String(S.number));
  history.replaceState(null, "", url.pathname + url.search);
  render();
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
  document.addEventListener("keydown", onKey);
  const params = new URLSearchParams(window.location.search);
  const saved = savedGame();
  const wanted = params.get("game");
  if (!saved || !saved.game_id || !saved.token) {
    showError("replay.error.no_game");
    return;
  }
  if (wanted && wanted !== saved.game_id) {  // the token kept here is only the current game's
    showError("replay.error.other_game");
    return;
  }
  S.game = saved;
  const asked = params.get("hand");
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
  } catch {
    showError("replay.error.generic");
  }
}

boot();
