// Gin Rummy table, the entry module: the state flow (a server state in, its events replayed and
// shown; the person's actions out, with `seq`), the language and settings, the wiring, the boot.
// The server is the authority; no file of the page holds a rule. The page's other modules, by job:
// session.js (the page's state and services), render.js (drawing the table), controls.js (what
// the person does), dialogs.js (new game, statistics), friends.js (tables of people, docs/tables.md)
// with seats.js (their pure logic) and live.js (their live connection); pure helpers in cards.js,
// i18n.js, model.js (unit-tested with `node --test tests/js/`); page.js what the pages share.

import { mergeOrder } from "./cards.js";
import { makeT, resultHeadline, LANGUAGES } from "./i18n.js";
import { findLegal, tableFromState, applyEvent, newEvents, promptKey } from "./model.js";
import { $, cardEl, loadCatalog, markLanguage, toast, translatePage } from "./page.js";
import { createFriends } from "./friends.js";
import { backoff } from "./live.js";
import { hasPeople, isWaiting, supersedes, inviteCode } from "./seats.js";
import { isVariant, playerName, variantHeadline, moveText, applyConstraints } from "./variants.js";
import { ANIMATED, DEFAULT_SETTINGS, KEY_CURRENT, KEY_SETTINGS, S, SPEEDS, announce, api, detailMessage, motionOK, pace, reannounce, sleep, sound, store, t } from "./session.js";
import { actorName, askHint, backEl, currentTable, fitHand, named, renderHand, opponentSeat, render, renderActions, renderOpponent, renderPiles, renderStatus } from "./render.js";
import { clickGin, clickPile, clickStock, clickType, onKey, onPointerDown, onPointerMove, onPointerUp, openKnock, renderHelpKeys, renderKnockDialog, sortHand, tryDiscard } from "./controls.js";
import { openPile, renderLog, updateLog } from "./movelog.js";
import { askNewGame, dropGame, keepGame, renderLeave, wireGames } from "./games.js";
import { buildFields, buildNewGameForm, ensureMeta, focusAfterMove, focusLost, focusPlay, levelId, onScoringChange, openNewGame, openStats, startGame, updatePresetNote, wireDialogFocus } from "./dialogs.js";

// ---------------------------------------------------------------- language
async function setLanguage(lang, { save = true } = {}) {
  let catalog;
  try { catalog = await loadCatalog(lang); } catch {
    if (lang !== "en") return setLanguage("en", { save });
    catalog = {};
  }
  S.lang = lang;
  S.t = makeT(catalog);
  markLanguage(lang, save);
  applyStaticText();
  friends.translate();
  render();
  if ($("dlg-new").open) buildNewGameForm(false);
  if ($("dlg-knock").open) renderKnockDialog();
  if ($("dlg-leave").open) renderLeave();
  // the live region speaks the new language: the last announcement again, else what to do now
  if (save && !reannounce() && S.state) announce(() => t(promptKey(S.state, false), { computer: actorName(S.state) }));
}

function applyStaticText() {
  document.title = t("app.title");
  translatePage(t, S.lang, (S.meta && S.meta.languages) || LANGUAGES);
  $("lang-select").setAttribute("aria-label", t("settings.language"));
  renderHelpKeys();
}

// ---------------------------------------------------------------- settings
function applySettings() {
  const s = S.settings;
  document.body.classList.toggle("four-colour", !!s.fourColour);
  document.body.classList.toggle("large-cards", !!s.largeCards);
  document.body.classList.toggle("no-anim", !s.animations);
  document.body.classList.toggle("pro", !!s.pro);
  $("set-sound").checked = !!s.sound;
  $("set-anim").checked = !!s.animations;
  $("set-four").checked = !!s.fourColour;
  $("set-large").checked = !!s.largeCards;
  $("set-pro").checked = !!s.pro;
  $("set-speed").value = SPEEDS[s.speed] !== undefined ? s.speed : "normal";
  if (S.state) { renderHand(); renderActions(); } // pro mode: the hand's groups, the reasons
  requestAnimationFrame(fitHand);
}

// ---------------------------------------------------------------- state flow
function adoptState(state) {
  const prev = S.state;
  const sameHand = prev && prev.game_id === state.game_id && prev.hand_number === state.hand_number;
  S.order = sameHand ? mergeOrder(S.order, state.hand || []) : [...(state.hand || [])];
  S.state = state;
  updateLog(state);
  if (S.selected && (!S.order.includes(S.selected) || !["draw", "discard", "offer"].includes(state.phase))) S.selected = null;
  // The server places a card it has no saved position for in suit order; the page keeps it where
  // it appeared. Save the page's order then, so that a reload shows the hand exactly as it was.
  const served = state.hand || [];
  if (sameHand && S.order.length && S.order.some((c, i) => c !== served[i])) saveOrder();
}

/** One move in words (variants.moveText: the same wording at every kind of table). */
export function eventWords(e, state) {
  return moveText(state, e, t);
}

/** Words for the live region: each move, then the result or what to do next. */
function announcement(evs, state) {
  const you = state.you ?? 0;
  const words = evs.filter((e) => !["hand_over", "game_over"].includes(e.type)).map((e) => eventWords(e, state)).filter(Boolean);
  if (!words.length && !evs.length) return "";
  let tail = t(promptKey(state, false), { computer: actorName(state) });
  if (state.result && (state.phase === "hand-over" || state.phase === "game-over")) {
    tail = named(state) ? variantHeadline(state.result, state, t) : resultHeadline(state.result, you, t);
    const f = state.score && state.score.final;
    if (state.phase === "game-over" && f && !isVariant(state)) tail += `. ${f.winner === you ? t("game.won.you") : named(state) ? t("vt.winner", { name: playerName(state, f.winner, t) }) : t("game.won.opp")}`;
  }
  return `${words.join(" ")} ${tail}`.trim();
}

/**
 * Show a state from the server (an action's answer, a poll, a live message), in the order they
 * come and never one older than the state shown (seats.supersedes).
 */
export function deliver(state, opts = {}) {
  S.chain = S.chain.then(() => (supersedes(S.state, state) ? receive(state, opts) : null)).catch(() => {});
  return S.chain;
}

/** Take a state from the server: replay its new events (animated when another seat moved), then show it. */
async function receive(state, { animate = true } = {}) {
  const you = state.you ?? 0;
  const prev = S.state;
  const evs = prev ? newEvents(state, S.lastSeq) : [];
  S.lastSeq = Math.max(state.seq ?? 0, ...evs.map((e) => e.seq ?? 0));
  const oppMoves = evs.filter((e) => e.seat !== you && e.seat !== null && e.seat !== undefined && ANIMATED.has(e.type));
  const watching = isVariant(state) && state.table.spectating;
  const shown = animate && pace(1) > 0;  // the computer speed "instant": the moves at once, in words only
  if (shown && !watching && prev && oppMoves.length && prev.game_id === state.game_id) {
    await animateEvents(prev, state, evs);
  } else {
    adoptState(state);
    render();
  }
  announce(() => announcement(evs, state));
  if (state.phase === "game-over" && S.game && S.game.game_id === state.game_id) dropGame(state.game_id);
  if (state.phase === "hand-over" || state.phase === "game-over") {
    if (state.result && prev && prev.phase !== state.phase) sound(["gin", "big_gin"].includes(state.result.kind) ? "gin" : "knock");
  }
  friends.afterState(prev, S.state);
  focusAfterMove(prev && prev.phase);
  schedulePoll();
}


async function animateEvents(prev, state, evs) {
  const you = state.you ?? 0;
  const move = motionOK();
  S.animating = true;
  S.table = tableFromState(prev);
  S.logUpTo = prev.seq ?? 0;  // the move log follows the animation
  adoptState(state);
  render();
  for (const ev of evs) {
    const opp = ev.seat !== you && ev.seat !== null && ev.seat !== undefined;
    if (!opp || !ANIMATED.has(ev.type)) {
      S.table = applyEvent(S.table, ev, you, state);
      S.logUpTo = ev.seq ?? S.logUpTo;
      continue;
    }
    if (move) await animateOne(ev);
    else await sleep(pace(ev.type === "pass" || ev.type === "knock" || ev.type === "gin" ? 350 : 180));
    S.table = applyEvent(S.table, ev, you, state);
    S.logUpTo = ev.seq ?? S.logUpTo;
    renderOpponent();
    renderPiles();
    renderLog();
    if (ev.type === "discard") sound("discard");
    else if (ev.type.startsWith("draw") || ev.type === "take") sound("draw");
  }
  if (move) await sleep(pace(150));
  S.table = null;
  S.animating = false;
  S.logUpTo = null;
  render();
}

async function animateOne(ev) {
  const card = ev.card;
  switch (ev.type) {
    case "pass": return bubble(t("bubble.pass"), 700);
    case "knock": sound("knock"); return bubble(t("bubble.knock"), 900);
    case "gin": sound("gin"); return bubble(t("bubble.gin"), 900);
    case "big_gin": sound("gin"); return bubble(t("bubble.big_gin"), 900);
    case "draw_stock": return fly(backEl(), $("stock"), $("opp-hand"));
    case "take":
    case "draw_discard": return fly(card ? cardEl(card, t) : backEl(), $("discard-pile"), $("opp-hand"));
    case "discard": return fly(cardEl(card, t), $("opp-hand"), $("discard-pile"));
    default: return sleep(pace(100));
  }
}

async function bubble(text, ms) {
  const b = $("opp-bubble");
  b.textContent = text;
  b.classList.add("show");
  await sleep(pace(ms));
  b.classList.remove("show");
}

async function fly(node, from, to) {
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  const layer = $("flyers");
  node.style.left = `${a.left + 5}px`;
  node.style.top = `${a.top + 5}px`;
  layer.append(node);
  const w = node.offsetWidth || 60;
  const dx = b.left + b.width / 2 - w / 2 - a.left - 5;
  const dy = b.top + 5 - a.top - 5;
  try {
    await node.animate([
      { transform: "translate(0, 0) rotate(0deg)" },
      { transform: `translate(${dx}px, ${dy}px) rotate(${dx > 0 ? 8 : -8}deg)` },
    ], { duration: pace(420), easing: "cubic-bezier(.3,.7,.3,1)" }).finished;
  } catch { /* ignore */ }
  node.remove();
  await sleep(pace(90));
}

/** While another seat is to act: ask again in 0.8 s (not at a table whose live connection runs). */
function schedulePoll() {
  clearTimeout(S.pollTimer);
  if (S.state && (S.state.phase === "opponent" || isWaiting(S.state)) && S.game && !friends.liveActive()) {
    S.pollTimer = setTimeout(async () => {
      if (S.busy) return schedulePoll();
      try {
        const r = await api("GET", `/api/games/${S.game.game_id}?since=${S.lastSeq}`);
        if (r.ok) await deliver(r.data, { animate: true });
        else if (GONE.includes(r.status)) lostGame();  // the seat is gone: asking again cannot help
        else if (r.status >= 500) reconnect(r.retryAfter);
        else schedulePoll();
      } catch { reconnect(); }
    }, 800);
  }
}

function setBusy(b) {
  S.busy = b;
  renderPiles();
  renderStatus();
  renderActions();
  if (!$("result").hidden) $("btn-next").disabled = b || !findLegal(S.state, "next_hand");
}

/** Post one action (`seq` always sent); a second call while one is in flight is ignored. */
export async function act(action) {
  if (S.busy || S.animating || !S.state || !S.game) return;
  setBusy(true);
  const seq = S.state.seq;
  const before = S.state.phase;
  try {
    const r = await api("POST", `/api/games/${S.game.game_id}/actions`, { action, seq });
    if (r.ok) {
      if (/^(discard|draw|take)/.test(action)) sound(action.startsWith("discard") ? "discard" : "draw");
      S.busy = false;
      if (action.startsWith("discard")) S.selected = null;
      await deliver(r.data, { animate: true });
    } else if (r.status === 404) {
      lostGame();
    } else if (r.status >= 500) {  // not applied, or applied: the state asked again tells
      S.busy = false;
      reconnect(r.retryAfter);
    } else {
      sound("error");
      toast(r.status === 409 ? t("error.stale") : detailMessage(r.data));
      S.busy = false;
      if (r.data && r.data.state) await deliver(r.data.state, { animate: false });
      else await refresh();
    }
  } catch {
    S.busy = false;
    reconnect();  // no answer at all (the network): the same as the server away
  } finally {
    S.busy = false;
    render();
    focusAfterMove(before);
  }
}

/**
 * The server did not answer (503 while its database is away, another 5xx, or no network): the
 * table stays as it was, its status line says "Reconnecting…", and the state is asked for again
 * with back-off (0.5 s doubling to 8 s, at least the server's Retry-After) until it comes; then
 * play goes on from it. One loop at a time; `retryAfter` in ms.
 */
export async function reconnect(retryAfter = 0) {
  if (S.reconnecting || !S.game) return;
  const game = S.game;
  S.reconnecting = true;
  render();
  announce(() => t("friends.reconnecting"));
  let wait = retryAfter;
  for (let attempt = 0; S.game === game; attempt += 1) {
    await sleep(Math.max(backoff(attempt), wait));
    let r = null;
    // (before any state: as at a reload, the deal's events for the move log)
    const since = S.state ? `?since=${S.lastSeq}` : "";
    try { r = await api("GET", `/api/games/${game.game_id}${since}`); } catch { r = null; }
    if (S.game !== game) break;
    if (r && r.ok) {
      S.reconnecting = false;
      S.loading = false;
      if (r.data.phase !== "game-over") keepGame(game);
      await deliver(r.data, { animate: false });
      render();
      schedulePoll();
      return;
    }
    if (r && GONE.includes(r.status)) { S.reconnecting = false; lostGame(); render(); return; }
    wait = r ? r.retryAfter : 0;
  }
  S.reconnecting = false;
  render();
}

/** Answers that say the seat's token no longer works (the game is gone, or the person left it). */
const GONE = [401, 403, 404];

/** Ask the server for the table shown, at once: its state, or the end of it when the seat is gone. */
async function refresh() {
  if (!S.game) return;
  try {
    const r = await api("GET", `/api/games/${S.game.game_id}?since=${S.lastSeq}`);
    if (r.ok) await deliver(r.data, { animate: false });
    else if (GONE.includes(r.status)) lostGame();
    else if (r.status >= 500) reconnect(r.retryAfter);
  } catch { reconnect(); }
}

/**
 * The game shown is gone for this seat: forget it and offer a new game. At a table of people
 * whose seat this browser no longer holds (the person left it in another tab), say so.
 */
export function lostGame() {
  const st = S.state;
  const leftElsewhere = !!(S.game && st && st.game_id === S.game.game_id && (hasPeople(st) || isWaiting(st)) && !friends.heldSeat(S.game.game_id));
  if (S.game) { friends.dropSeat(S.game.game_id); dropGame(S.game.game_id); }
  forgetGame();
  toast(t(leftElsewhere ? "friends.left_elsewhere" : "error.lost"));
}

/**
 * The page holds no game any more (lost, or the person left the table): the new-game dialog.
 * The browser's current game is forgotten only if it is this one (another tab may have moved on
 * to another game).
 */
function forgetGame() {
  friends.stopLive();
  const saved = store.get(KEY_CURRENT);
  if (!saved || !S.game || saved.game_id === S.game.game_id) store.set(KEY_CURRENT, null);
  S.game = null;
  S.state = null;
  S.lastSeq = 0;
  history.replaceState(null, "", "/");
  render();
  openNewGame();
}

/**
 * Show the table of seat `game` ({game_id, token, seat}) from its `state`: the page's current
 * game from now on (ginrummy.current, which the replay page reads too).
 */
export function takeSeat(game, state) {
  clearTimeout(S.pollTimer);
  S.game = { game_id: game.game_id, token: game.token };
  store.set(KEY_CURRENT, S.game);
  if (state && state.phase !== "game-over") keepGame(S.game);
  S.state = null;
  S.selected = null;
  S.hint = null;
  S.lastSeq = 0;
  for (const id of ["dlg-new", "dlg-join"]) if ($(id).open) $(id).close();
  const evs = newEvents(state, 0);
  adoptState(state);
  S.lastSeq = state.seq ?? 0;
  render();
  announce(() => (isWaiting(state) ? t("friends.waiting_title") : announcement(evs, state) || t(promptKey(state, false), { computer: actorName(state) })));
  schedulePoll();
  focusPlay();
}

export function saveOrder() {
  clearTimeout(S.orderTimer);
  S.orderTimer = setTimeout(async () => {
    if (!S.game || !S.order.length) return;
    try { await api("PUT", `/api/games/${S.game.game_id}/order`, { cards: S.order }); } catch { /* order is a nicety */ }
  }, 250);
}

// ---------------------------------------------------------------- wiring
function wire() {
  $("stock").addEventListener("click", clickStock);
  $("discard-pile").addEventListener("click", clickPile);
  $("btn-pile").addEventListener("click", openPile);
  $("btn-take").addEventListener("click", () => clickType("take"));
  $("btn-pass").addEventListener("click", () => clickType("pass"));
  $("btn-discard").addEventListener("click", () => tryDiscard(S.selected));
  $("btn-knock").addEventListener("click", openKnock);
  $("btn-gin").addEventListener("click", clickGin);
  $("btn-big-gin").addEventListener("click", () => { sound("gin"); clickType("big_gin"); });
  $("btn-next").addEventListener("click", () => clickType("next_hand"));
  $("btn-again").addEventListener("click", openNewGame);
  $("btn-new").addEventListener("click", askNewGame);
  wireGames();
  $("btn-first-deal").addEventListener("click", openNewGame);
  $("btn-sort-rank").addEventListener("click", () => sortHand("rank"));
  $("btn-sort-suit").addEventListener("click", () => sortHand("suit"));
  // the button is disabled while the hint is asked: focus comes back to it after
  $("btn-hint").addEventListener("click", async () => { await askHint(); if (focusLost() && !$("btn-hint").disabled) $("btn-hint").focus(); });
  $("btn-stats").addEventListener("click", openStats);
  $("btn-settings").addEventListener("click", () => $("dlg-settings").showModal());
  $("btn-help").addEventListener("click", () => $("dlg-help").showModal());
  $("lang-select").addEventListener("change", (e) => setLanguage(e.target.value));
  $("form-new").addEventListener("submit", startGame);
  $("new-cancel").addEventListener("click", () => $("dlg-new").close());
  $("new-preset").addEventListener("change", () => { buildFields({ ...(S.meta.presets || {})[$("new-preset").value] }); updatePresetNote(); });
  $("new-scoring").addEventListener("change", onScoringChange);
  $("new-kind").addEventListener("change", updatePresetNote);
  $("new-fields").addEventListener("change", () => applyConstraints($("new-fields"), $("new-scoring").value, S.meta, t));
  $("form-knock").addEventListener("submit", (e) => {
    e.preventDefault();
    $("dlg-knock").close();
    const k = S.knockChoice;
    if (k) { sound("knock"); act(k.action); }
  });
  $("knock-cancel").addEventListener("click", () => $("dlg-knock").close());
  for (const [id, key] of [["set-sound", "sound"], ["set-anim", "animations"], ["set-four", "fourColour"], ["set-large", "largeCards"], ["set-pro", "pro"]]) {
    $(id).addEventListener("change", (e) => { S.settings[key] = e.target.checked; store.set(KEY_SETTINGS, S.settings); applySettings(); });
  }
  $("set-speed").addEventListener("change", (e) => { S.settings.speed = e.target.value; store.set(KEY_SETTINGS, S.settings); applySettings(); });
  wireDialogFocus();
  document.addEventListener("keydown", onKey);
  const hand = $("hand");
  hand.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", () => { if (S.drag) { S.drag.el.style.transform = ""; S.drag.el.classList.remove("dragging"); S.drag = null; } });
  window.addEventListener("resize", () => requestAnimationFrame(fitHand));
  // The hand may be laid out while hidden (a table of people waiting for its start): fit it
  // again whenever its width changes, including when it first shows.
  if (typeof ResizeObserver === "function") {
    let width = -1;
    new ResizeObserver(() => {
      if (hand.clientWidth !== width) { width = hand.clientWidth; requestAnimationFrame(fitHand); }
    }).observe(hand);
  }
}

export const friends = createFriends({
  S, store, api, deliver, takeSeat, forgetGame, render, announce, detailMessage, schedulePoll, opponentSeat, refresh,
  t: (...a) => S.t(...a),
  openNewGame: () => openNewGame(),
  oppCount: () => currentTable().oppCount,
  levels: () => ((S.meta && S.meta.levels) || []).map(levelId),
  levelDefault: () => (S.meta && S.meta.default_level) || "hard",
});

async function boot() {
  S.settings = { ...DEFAULT_SETTINGS, ...(store.get(KEY_SETTINGS, {}) || {}) };
  wire();
  friends.wire();
  applySettings();
  const html = document.documentElement;
  const cookie = (document.cookie.match(/(?:^|;\s*)lang=([a-z]{2})/) || [])[1];
  let lang = html.dataset.lang || html.lang || cookie || "en";
  if (!LANGUAGES.includes(lang)) lang = "en";
  const metaP = ensureMeta().catch(() => null);
  await setLanguage(lang, { save: false });
  await metaP;
  applyStaticText();
  friends.translate();
  const code = inviteCode(location.pathname, location.search);
  if (code && await friends.openInvite(code)) { S.loading = false; render(); return; }
  const saved = store.get(KEY_CURRENT);
  S.loading = !!(saved && saved.game_id && saved.token);
  if (S.loading) {
    S.game = saved;
    try {
      const r = await api("GET", `/api/games/${saved.game_id}`);
      S.loading = false;
      if (r.ok) {
        if (r.data.phase === "game-over") dropGame(saved.game_id);
        else keepGame(saved);
        adoptState(r.data);
        S.lastSeq = r.data.seq ?? 0;
        render();
        schedulePoll();
        return;
      }
      if ([401, 403, 404].includes(r.status)) { friends.dropSeat(saved.game_id); store.set(KEY_CURRENT, null); S.game = null; }
      else if (r.status >= 500 || r.status === 429) {  // the server is away: its table, once back
        S.loading = true;
        render();
        reconnect(r.retryAfter);
        return;
      }
    } catch {
      S.loading = true;
      render();
      reconnect();
      return;
    }
  }
  render();
  openNewGame();
}

boot();
