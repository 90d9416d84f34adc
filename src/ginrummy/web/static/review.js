// The review page (/review?game=<game_id>[&hand=<n>]), issue 20 "Review my game": the review of
// a finished game or of one finished hand (GET /api/games/{id}/review, .../hands/{n}/review,
// docs/api.md "Review"), its progress shown while it is made. Per seat (yours first): accuracy,
// the count of each grade, what the mistakes cost, luck apart from skill; the three turning
// points; every graded decision, each linked to its position on the replay page (and, for your
// flawed ones, to its "Try again"). The token is the one this browser keeps for the game (the
// game shown, a game in progress, or a seat at a table of people). It draws what the server sends.
// Every form: at three players and partnership a hand is a deal (numbered as the game's record
// numbers them), named with the two who played it; a partnership's teams head their players.

import { makeT, cardName } from "./i18n.js";
import { $, el, apiRequest, applyLanguage, pageLanguage } from "./page.js";
import { errorAnswerText } from "./i18n.js";
import { playerName } from "./variants.js";
import { finishedDeals, listedDecisions, reviewRatings, teamOf, tokenFor } from "./review_model.js";
import { fetchCheckedReview } from "./review_fetch.js";
import { checkingEl, decisionEl, progressEl, summaryEl, turningPointsEl } from "./review_view.js";

const S = {
  lang: "en", t: makeT({}), gameId: null, token: null, state: null, scope: null, finished: [], deals: [], gameOver: false,
  data: null, wait: null, busy: false, asked: 0, error: null, checking: null,
};
const t = (...a) => S.t(...a);

function stored(key, fallback) {
  try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch { return fallback; }
}

/** The table's form, players and teams, from the game's state ("standard", 2, null by default). */
function table() {
  const tb = S.state && S.state.table;
  return {
    scoring: (tb && tb.scoring) || "standard", players: (tb && tb.players) || 2,
    teams: tb && Array.isArray(tb.teams) ? tb.teams : null,
  };
}

function context() {
  const st = S.state || { you: S.data ? S.data.you : 0 };
  const you = S.data ? S.data.you : st.you ?? 0;
  const tb = table();
  const nameOf = (seat) => (S.state ? playerName(S.state, seat, S.t) : seat === you ? t("table.you") : t("review.opponent"));
  return {
    t: S.t, lang: S.lang, you, gameId: S.gameId, name: (c) => cardName(c, S.t),
    nameOf,
    teams: tb.teams,
    teamName: (i) => t(i === teamOf(tb.teams, you) ? "vt.team.us" : "vt.team.them"),
    chanceNote: tb.scoring === "standard" ? ratingsNote(you, nameOf) : t(`review.chance.${tb.scoring}`, null, ""),
    rated: tb.scoring === "standard" && ratingsNote(you, nameOf) !== "",
  };
}

/** The players' ratings the review's chances were valued with (a game against the computer),
 * the asker's first; "" when it valued them as even. */
function ratingsNote(you, nameOf) {
  const r = reviewRatings(S.data && S.data.review);
  if (r === null) return "";
  const other = 1 - you;
  const fmt = (x) => new Intl.NumberFormat(S.lang).format(Math.round(x));
  return t("review.chance.ratings", { a: nameOf(you), ra: fmt(r[you]), b: nameOf(other), rb: fmt(r[other]) });
}

/** A hand (deal) `number` in words: "Hand 3", and at three or four players who played it. */
function dealLabel(number, players = null) {
  const base = t("table.hand_no", { n: number });
  const at = players || (S.deals.find((d) => d.number === number) || {}).players;
  if (table().players <= 2 || !Array.isArray(at) || at.length !== 2) return base;
  const c = context();
  return `${base} · ${t("vt.other_vs", { a: c.nameOf(at[0]), b: c.nameOf(at[1]) })}`;
}

// ---------------------------------------------------------------- drawing
function drawScope() {
  const sel = $("rv-scope");
  const opts = [];
  if (S.gameOver) opts.push(el("option", { value: "game", text: t("review.whole_game") }));
  for (const n of S.finished) opts.push(el("option", { value: String(n), text: dealLabel(n) }));
  // a hand asked for that is not finished (in play, or no such hand): named, not a blank menu
  if (S.scope !== null && !S.finished.includes(S.scope)) {
    opts.push(el("option", { value: String(S.scope), text: dealLabel(S.scope), disabled: true }));
  }
  sel.replaceChildren(...opts);
  sel.value = S.scope === null ? "game" : String(S.scope);
  $("rv-pick").hidden = !opts.length;
}

function drawWait() {
  const box = $("rv-wait");
  box.replaceChildren(S.wait ? progressEl(S.wait, S.t, S.busy) : "");
  box.hidden = !S.wait;
}

function drawChecking() {
  const box = $("rv-checking");
  box.replaceChildren(S.checking ? checkingEl(S.checking, S.t) : "");
  box.hidden = !S.checking;
}

function drawError() {
  const box = $("rv-error");
  box.hidden = !S.error;
  if (!S.error) return;
  box.textContent = S.error.key ? t(S.error.key) : errorAnswerText(S.error.data, S.t, S.lang, "review.error.generic");
  box.dataset.key = S.error.key || (S.error.data && S.error.data.detail && S.error.data.detail.reason ? S.error.data.detail.reason.code : "");
}

function drawHands() {
  const c = context();
  const review = S.data.review;
  const flawed = $("rv-flawed").checked;
  const mine = $("rv-mine").checked;
  const sections = review.hands.map((h) => {
    const ds = listedDecisions(h, flawed).filter((d) => !mine || d.seat === c.you);
    const heading = el("h3", { class: "rv-hand-h" }, el("span", { text: dealLabel(h.hand, h.players) }), " ",
      el("a", { class: "rv-link", href: `/replay?game=${encodeURIComponent(S.gameId)}&hand=${h.hand}&review=1`, text: t("review.open_replay") }));
    return el("section", { class: "rv-hand", "data-hand": String(h.hand) }, heading,
      ds.length ? el("div", { class: "rv-decisions" }, ...ds.map((d) => decisionEl(d, c)))
        : el("p", { class: "rv-none", text: t("review.no_decisions") }));
  });
  if (!review.hands.length) sections.push(el("p", { class: "rv-none", text: t("review.no_hands") }));
  if (!review.complete && S.scope === null) sections.unshift(el("p", { class: "rv-note", text: t("review.incomplete") }));
  $("rv-hands").replaceChildren(...sections);
}

function render() {
  document.body.classList.remove("loading");
  drawScope();
  drawWait();
  drawChecking();
  drawError();
  const title = S.scope === null ? t("review.title") : `${t("review.title_hand")} · ${t("table.hand_no", { n: S.scope })}`;
  $("rv-h1").textContent = title;
  // the intro names "your opponent", or every player of a table of three or four
  const intro = $("rv-intro");
  intro.dataset.i18n = table().players > 2 ? "review.intro_many" : "review.intro";
  intro.textContent = t(intro.dataset.i18n);
  document.title = `${title} · ${t("app.title")}`;
  $("rv-content").hidden = !S.data;
  if (!S.data) return;
  const c = context();
  $("rv-summary").replaceChildren(summaryEl(S.data.review, c));
  $("rv-turning").replaceChildren(turningPointsEl(S.data.review, c));
  drawHands();
}

// ---------------------------------------------------------------- loading
async function load(scope) {
  S.scope = scope;
  S.data = null;
  S.error = null;
  S.checking = null;
  S.wait = { status: "queued", progress: { done: 0, total: 0 } };
  const asked = ++S.asked;
  const url = new URL(window.location.href);
  url.searchParams.set("game", S.gameId);
  if (scope === null) url.searchParams.delete("hand"); else url.searchParams.set("hand", String(scope));
  history.replaceState(null, "", url.pathname + url.search);
  render();
  let r;
  try {
    r = await fetchCheckedReview(S.gameId, scope, S.token, {
      isCurrent: () => asked === S.asked,
      onWait: (data, status) => { S.wait = data && data.progress ? data : S.wait; S.busy = status === 503; drawWait(); },
      // the search's review, shown while its mistakes are checked by play-outs
      onChecking: (answer) => {
        const first = !S.data;
        S.wait = null;
        S.busy = false;
        S.data = answer.data;
        S.checking = answer.data.checking;
        if (first) render(); else drawChecking();
      },
    });
  } catch {
    r = { status: 0, ok: false, data: null };
  }
  if (r === null) return;  // another scope was asked for meanwhile
  S.wait = null;
  S.busy = false;
  S.checking = null;
  if (r.ok && r.data && r.data.review) S.data = r.data;
  else if (!S.data) S.error = r.status === 0 ? { key: "error.network" } : { data: r.data };
  render();
}

async function setLanguage(lang, save = true) {
  ({ lang: S.lang, t: S.t } = await applyLanguage(lang, { save, titleKey: "review.title" }));
  render();
}

function fail(key) {
  S.error = { key };
  S.wait = null;
  render();
}

async function boot() {
  await setLanguage(pageLanguage(), false);
  $("lang-select").addEventListener("change", (e) => setLanguage(e.target.value));
  $("rv-scope").addEventListener("change", (e) => load(e.target.value === "game" ? null : Number(e.target.value)));
  $("rv-flawed").addEventListener("change", () => S.data && drawHands());
  $("rv-mine").addEventListener("change", () => S.data && drawHands());
  const params = new URLSearchParams(window.location.search);
  const current = stored("ginrummy.current", null);
  S.gameId = params.get("game") || (current && current.game_id) || null;
  S.token = tokenFor(S.gameId, current, stored("ginrummy.games", []), stored("ginrummy.tables", {}),
      stored("ginrummy.finished", []));
  if (!S.gameId || !S.token) { fail("review.error.no_game"); return; }
  const asked = params.get("hand") || null;  // "hand=" (empty): as if not asked
  if (asked !== null && !/^[1-9][0-9]{0,5}$/.test(asked)) { fail("replay.error.not_found"); return; }
  let st;
  try {
    st = await apiRequest("GET", `/api/games/${encodeURIComponent(S.gameId)}`, undefined, S.token);
  } catch {
    fail("error.network");
    return;
  }
  if (!st.ok || !st.data) { fail(st.status === 404 ? "review.error.no_game" : "review.error.generic"); return; }
  S.state = st.data;
  const over = S.state.phase === "game-over";
  S.gameOver = over;
  // the finished deals, as the game's record lists them (at a partnership the two tables' deals
  // are numbered apart, and one may be over while the other is in play)
  let rec;
  try {
    rec = await apiRequest("GET", `/api/games/${encodeURIComponent(S.gameId)}/record`, undefined, S.token);
  } catch {
    fail("error.network");
    return;
  }
  S.deals = rec.ok ? finishedDeals(rec.data) : [];
  S.finished = S.deals.map((d) => d.number);
  let scope = asked === null ? null : Number(asked);
  if (scope === null && !over) scope = S.finished.length ? S.finished[S.finished.length - 1] : null;
  if (scope === null && !over) { fail("review.error.none_finished"); return; }
  await load(scope);
}

boot();
