// The game page's session with the server: the one module that talks to the server and writes
// the page's state (store.js). It carries out the person's intents (intents.js; controls.js turns
// the DOM's events into them): each move goes to the server as one of the legal actions it sent,
// with `seq`; the states that come back (an action's answer, a poll, the live connection of a table
// of people) are shown in order, never one older than the state shown, another seat's moves
// replayed (motion.js) and said in the live region. It also keeps the hand's order on the server,
// asks for hints, fills the new-game dialog's games in progress, deals, resigns, runs the tables of
// people (docs/tables.md: seats, start, invite and join, quick messages, rematch, leave, the live
// connection) and boots the page. The server is the authority: nothing here decides a rule.

import { cardName, errorAnswerText, makeT, LANGUAGES } from "./i18n.js";
import { applyEvent, findLegal, legalOfType, chooseKnock, newEvents, promptKey, resumable, tableFromState, handGroups } from "./model.js";
import { apiRequest, askConfirm, loadCatalog, markLanguage, toast, $ } from "./page.js";
import { canStart, computerMovesForYou, hasPeople, inviteCode, inviteTables, isWaiting, rejoinLink, rematchOf, supersedes } from "./seats.js";
import { playSound } from "./sound.js";
import { isVariant } from "./variants.js";
import { holdsResult, orderDiffers, sameHand } from "./store.js";
import { actionFor, cardClick, discardRefusal, dropCard, shiftCard } from "./intents.js";
import { LiveConnection, backoff } from "./live.js";
import { openJoin, readJoinName, readJoinSeat, seatLabel, showJoinError, showMessages, joining } from "./friends.js";
import {
  KEY_CURRENT, KEY_NAME, KEY_NEW, KEY_SETTINGS, storage, remembered, savedGames, keepGame, keepFinished, dropGame, keepSeat, dropSeat, savedSeat,
} from "./storage.js";
import { announce, reannounce } from "./announce.js";
import { focusAfterMove, focusPlay } from "./focus.js";
import { motionOK, pace, showMove, sleep } from "./motion.js";
import { actorName, canHint, hintWords, opponentSeat } from "./render.js";
import { movesSaid } from "./movelog.js";
import { drawKnock } from "./knock.js";
import { drawLeave, drawResumeList, markResigning } from "./games.js";
import { buildNewGameForm, dealing, drawStats, openStats, readNewGame, showNewGameError } from "./dialogs.js";
import { sortByRank, sortBySuit } from "./cards.js";

/** The moves of another seat that are shown (a flight or a bubble) before the state they lead to. */
const ANIMATED = new Set(["take", "pass", "draw_stock", "draw_discard", "discard", "knock", "gin", "big_gin"]);
/** Answers that say the seat's token no longer works (the game is gone, or the person left it). */
const GONE = [401, 403, 404];
/** At most this many games are looked up for the resume list when the new-game dialog opens. */
const SHOWN_GAMES = 8;

/**
 * The session of the page whose state is `store` (store.js). `redraw()` draws the whole page
 * again (view.js). Returns `{handle(intent), boot(), syncLive()}`.
 */
export function createSession({ store, redraw }) {
  const get = store.get;
  const dispatch = store.dispatch;
  const t = (...a) => get().t(...a);
  const sound = (kind) => playSound(kind, get().settings.sound);
  const ms = (x) => pace(get().settings, x);
  let chain = Promise.resolve();  // the states from the server, shown one after another
  const computerSaid = new Map();  // per table, the last move the computer played for the person that was said
  let pollTimer = null;
  let orderTimer = null;
  let logFilled = null;            // the deal whose whole log was asked for (once per deal)
  let listed = [];                 // the games in progress listed in the new-game dialog: [{g, st}]
  let live = null;                 // the live connection of the table shown: {gameId, conn}

  // ---------------------------------------------------------------- the server
  /** A request to the JSON API; the game's token goes with requests on the game (or `token`). */
  function api(method, path, body, token) {
    const g = get().game;
    const mine = g && path.startsWith(`/api/games/${g.game_id}`);
    return apiRequest(method, path, body, token || (mine ? g.token : null));
  }

  /** An API error answer in words, in the page's language (i18n.errorAnswerText). */
  function detailMessage(data) {
    const d = data && data.detail;
    if (d && d.code === "stale") return t("error.stale");
    return errorAnswerText(data, get().t, get().lang);
  }

  // ---------------------------------------------------------------- states in
  const announcement = (evs, state) => movesSaid(evs, state, get().t);

  /**
   * Show a state from the server (an action's answer, a poll, a live message), in the order they
   * come and never one older than the state shown (seats.supersedes). `opts.animate`: replay
   * another seat's moves; `opts.also`: actions dispatched with the state (store.js).
   */
  function deliver(state, opts = {}) {
    chain = chain.then(() => (supersedes(get().ahead || get().state, state) ? receive(state, opts) : null)).catch(() => {});
    return chain;
  }

  /** The state shown now (with `also`), then what it asks for: the hand's order saved, the deal's whole log. */
  function show(state, lastSeq, also = []) {
    const same = sameHand(get().state, state);
    dispatch(...also, { type: "shown", state, lastSeq });
    afterShown(state, same);
  }

  function afterShown(state, same) {
    const p = get();
    sayComputerMoves(state);
    // The server places a card it has no saved position for in suit order; the page keeps it where
    // it appeared. Save the page's order then, so that a reload shows the hand exactly as it was.
    if (same && orderDiffers(p)) saveOrder();
    const key = state && `${state.game_id}:${p.log.hand}`;
    if (!p.log.complete && state && p.game && state.phase !== "waiting" && logFilled !== key) {
      logFilled = key;  // once per deal: the whole deal is asked for at most once
      fillLog();
    }
  }

  async function fillLog() {
    try {
      const r = await api("GET", `/api/games/${get().game.game_id}`);
      if (r.ok && r.data && get().state && r.data.game_id === get().state.game_id) dispatch({ type: "log", state: r.data });
    } catch { /* the log is a nicety: the table itself is right */ }
  }

  /** Take a state from the server: replay its new events (animated when another seat moved), then show it. */
  async function receive(state, { animate = true, also = [] } = {}) {
    const you = state.you ?? 0;
    const prev = get().state;
    const evs = prev ? newEvents(state, get().lastSeq) : [];
    const lastSeq = Math.max(state.seq ?? 0, ...evs.map((e) => e.seq ?? 0));
    if (holdsResult(get(), state)) { keepAside(state, lastSeq, also); return; }
    const oppMoves = evs.filter((e) => e.seat !== you && e.seat !== null && e.seat !== undefined && ANIMATED.has(e.type));
    const watching = isVariant(state) && state.table.spectating;
    const shown = animate && ms(1) > 0;  // the computer speed "instant": the moves at once, in words only
    if (shown && !watching && prev && oppMoves.length && prev.game_id === state.game_id) {
      await replay(prev, state, evs, lastSeq, also);
    } else {
      show(state, lastSeq, also);
    }
    announce(() => announcement(evs, state));
    const game = get().game;
    if (state.phase === "game-over" && game && game.game_id === state.game_id) { keepFinished(game); dropGame(state.game_id); }
    if (state.phase === "hand-over" || state.phase === "game-over") {
      if (state.result && prev && prev.phase !== state.phase) sound(["gin", "big_gin"].includes(state.result.kind) ? "gin" : "knock");
    }
    afterState(prev, get().state);
    focusAfterMove(prev && prev.phase, get());
    schedulePoll();
  }

  /**
   * Someone else started the next deal while the person looks at the result (issue 21): the
   * result stays, the next deal is kept aside (store.js holdsResult) and the person is told once;
   * its quick messages are said now.
   */
  function keepAside(state, lastSeq, also) {
    const before = get().ahead || get().state;
    const first = !get().ahead;
    dispatch(...also, { type: "shown", state, lastSeq });
    if (first) announce(() => t(["offer", "draw", "discard"].includes(state.phase) ? "friends.next_started_turn" : "friends.next_started"));
    for (const words of showMessages(before, state, get().t, opponentSeat(state))) announce(words);
  }

  /** Leave the result kept on screen for the deal kept aside: shown as it is now, at once. */
  function goAhead() {
    const ahead = get().ahead;
    if (!ahead) return;
    dispatch({ type: "go_ahead" });
    afterShown(get().state, false);
    announce(() => t(promptKey(get().state, false), { computer: actorName(get().state, t) }));
    focusPlay(get());
    schedulePoll();
  }

  /** Another seat's moves, one by one (a flight or a bubble each), the table drawn between them. */
  async function replay(prev, state, evs, lastSeq, also) {
    const you = state.you ?? 0;
    const move = motionOK(get().settings);
    let table = tableFromState(prev);
    let logUpTo = prev.seq ?? 0;  // the move log follows the animation
    show(state, lastSeq, [...also, { type: "animation", table, logUpTo }]);
    for (const ev of evs) {
      const opp = ev.seat !== you && ev.seat !== null && ev.seat !== undefined;
      if (!opp || !ANIMATED.has(ev.type)) {
        table = applyEvent(table, ev, you, state);
        logUpTo = ev.seq ?? logUpTo;
        continue;
      }
      if (move) await showMove(ev, { t, settings: get().settings, sound });
      else await sleep(ms(ev.type === "pass" || ev.type === "knock" || ev.type === "gin" ? 350 : 180));
      table = applyEvent(table, ev, you, state);
      logUpTo = ev.seq ?? logUpTo;
      dispatch({ type: "animation", table, logUpTo });
      if (ev.type === "discard") sound("discard");
      else if (ev.type.startsWith("draw") || ev.type === "take") sound("draw");
    }
    if (move) await sleep(ms(150));
    dispatch({ type: "animation_end" });
  }

  /** While another seat is to act: ask again in 0.8 s (not at a table whose live connection runs). */
  function schedulePoll() {
    clearTimeout(pollTimer);
    const p = get();
    if (p.state && (p.state.phase === "opponent" || isWaiting(p.state)) && p.game && !liveActive()) {
      pollTimer = setTimeout(async () => {
        if (get().busy) return schedulePoll();
        try {
          const r = await api("GET", `/api/games/${get().game.game_id}?since=${get().lastSeq}`);
          if (r.ok) await deliver(r.data, { animate: true });
          else if (GONE.includes(r.status)) lostGame();  // the seat is gone: asking again cannot help
          else if (r.status >= 500) reconnect(r.retryAfter);
          else schedulePoll();
        } catch { reconnect(); }
      }, 800);
    }
  }

  /** Ask the server for the table shown, at once: its state, or the end of it when the seat is gone. */
  async function refresh() {
    const game = get().game;
    if (!game) return;
    try {
      const r = await api("GET", `/api/games/${game.game_id}?since=${get().lastSeq}`);
      if (r.ok) await deliver(r.data, { animate: false });
      else if (GONE.includes(r.status)) lostGame();
      else if (r.status >= 500) reconnect(r.retryAfter);
    } catch { reconnect(); }
  }

  /**
   * The server did not answer (503 while its database is away, another 5xx, or no network): the
   * table stays as it was, its status line says "Reconnecting…", and the state is asked for again
   * with back-off (0.5 s doubling to 8 s, at least the server's Retry-After) until it comes; then
   * play goes on from it. One loop at a time; `retryAfter` in ms.
   */
  async function reconnect(retryAfter = 0) {
    const game = get().game;
    if (get().reconnecting || !game) return;
    dispatch({ type: "reconnecting", value: true });
    announce(() => t("friends.reconnecting"));
    let wait = retryAfter;
    for (let attempt = 0; get().game === game; attempt += 1) {
      await sleep(Math.max(backoff(attempt), wait));
      let r = null;
      // (before any state: as at a reload, the deal's events for the move log)
      const since = get().state ? `?since=${get().lastSeq}` : "";
      try { r = await api("GET", `/api/games/${game.game_id}${since}`); } catch { r = null; }
      if (get().game !== game) break;
      if (r && r.ok) {
        dispatch({ type: "reconnecting", value: false }, { type: "loading", loading: false });
        if (r.data.phase !== "game-over") keepGame(game);
        await deliver(r.data, { animate: false });
        schedulePoll();
        return;
      }
      if (r && GONE.includes(r.status)) { dispatch({ type: "reconnecting", value: false }); lostGame(); return; }
      wait = r ? r.retryAfter : 0;
    }
    dispatch({ type: "reconnecting", value: false });
  }

  // ---------------------------------------------------------------- actions out
  /** Post one action (`seq` always sent); a second call while one is in flight is ignored. */
  async function act(action) {
    const p = get();
    if (p.busy || p.animating || !p.state || !p.game) return;
    dispatch({ type: "busy", value: true });
    const before = p.state.phase;
    try {
      const r = await api("POST", `/api/games/${p.game.game_id}/actions`, { action, seq: p.state.seq });
      if (r.ok) {
        if (/^(discard|draw|take)/.test(action)) sound(action.startsWith("discard") ? "discard" : "draw");
        const also = [{ type: "busy", value: false }];
        if (action.startsWith("discard")) also.push({ type: "select", card: null });
        await deliver(r.data, { animate: true, also });
      } else if (r.status === 404) {
        lostGame();
      } else if (r.status >= 500) {  // not applied, or applied: the state asked again tells
        dispatch({ type: "busy", value: false });
        reconnect(r.retryAfter);
      } else {
        sound("error");
        toast(r.status === 409 ? t("error.stale") : detailMessage(r.data));
        if (r.data && r.data.state) await deliver(r.data.state, { animate: false, also: [{ type: "busy", value: false }] });
        else { dispatch({ type: "busy", value: false }); await refresh(); }
      }
    } catch {
      dispatch({ type: "busy", value: false });
      reconnect();  // no answer at all (the network): the same as the server away
    } finally {
      dispatch({ type: "busy", value: false });
      focusAfterMove(before, get());
    }
  }

  /**
   * The game shown is gone for this seat: forget it and offer a new game. At a table of people
   * whose seat this browser no longer holds (the person left it in another tab), say so.
   */
  function lostGame() {
    const { state: st, game } = get();
    const leftElsewhere = !!(game && st && st.game_id === game.game_id && (hasPeople(st) || isWaiting(st)) && !savedSeat(game.game_id));
    if (game) { dropSeat(game.game_id); dropGame(game.game_id); }
    forgetGame();
    const people = !!(game && st && st.game_id === game.game_id && hasPeople(st));
    toast(t(leftElsewhere ? "friends.left_elsewhere" : people ? "rejoin.moved_away" : "error.lost"));
  }

  /**
   * The page holds no game any more (lost, or the person left the table): the new-game dialog.
   * The browser's current game is forgotten only if it is this one (another tab may have moved on
   * to another game).
   */
  function forgetGame() {
    stopLive();
    const saved = storage.get(KEY_CURRENT);
    const game = get().game;
    if (!saved || !game || saved.game_id === game.game_id) storage.set(KEY_CURRENT, null);
    history.replaceState(null, "", "/");
    dispatch({ type: "forget" });
    openNewGame();
  }

  /**
   * Show the table of seat `game` ({game_id, token, seat}) from its `state`: the page's current
   * game from now on (ginrummy.current, which the replay page reads too).
   */
  function takeSeat(game, state) {
    clearTimeout(pollTimer);
    const g = { game_id: game.game_id, token: game.token };
    storage.set(KEY_CURRENT, g);
    if (state && state.phase !== "game-over") keepGame(g);
    for (const id of ["dlg-new", "dlg-join"]) if ($(id).open) $(id).close();
    const evs = newEvents(state, 0);
    dispatch({ type: "seat", game: g, state });
    afterShown(state, false);
    announce(() => (isWaiting(state) ? t("friends.waiting_title") : announcement(evs, state) || t(promptKey(state, false), { computer: actorName(state, t) })));
    schedulePoll();
    focusPlay(get());
  }

  /** Keep the person's order of the hand on the server (a moment after the last change). */
  function saveOrder() {
    clearTimeout(orderTimer);
    orderTimer = setTimeout(async () => {
      const { game, order } = get();
      if (!game || !order.length) return;
      try { await api("PUT", `/api/games/${game.game_id}/order`, { cards: order }); } catch { /* order is a nicety */ }
    }, 250);
  }

  /** A new order of the hand, shown and kept. */
  function reorder(order) {
    dispatch({ type: "order", order });
    saveOrder();
  }

  // ---------------------------------------------------------------- hints
  /** Ask the server for a hint on the state shown; show it, mark it, announce it. */
  async function askHint() {
    if (!canHint(get())) return;
    const st = get().state;
    dispatch({ type: "hinting", value: true });
    try {
      const r = await api("GET", `/api/games/${get().game.game_id}/hint`);
      if (r.status === 404) { lostGame(); return; }
      if (!r.ok) { toast(detailMessage(r.data)); return; }
      if (get().state !== st || r.data.seq !== st.seq) return;  // the table moved on meanwhile
      const hint = { seq: r.data.seq, gameId: st.game_id, hint: r.data.hint, reason: r.data.reason };
      dispatch({ type: "hint", hint });
      announce(() => hintWords(hint, get()));
    } catch {
      toast(t("error.network"));
    } finally {
      dispatch({ type: "hinting", value: false });
    }
  }

  // ---------------------------------------------------------------- the language, the settings
  async function setLanguage(lang, { save = true } = {}) {
    let catalog;
    try { catalog = await loadCatalog(lang); } catch {
      if (lang !== "en") return setLanguage("en", { save });
      catalog = {};
    }
    markLanguage(lang, save);
    dispatch({ type: "language", lang, t: makeT(catalog) });
    // the live region speaks the new language: the last announcement again, else what to do now
    const st = get().state;
    if (save && !reannounce() && st) announce(() => t(promptKey(get().state, false), { computer: actorName(get().state, t) }));
  }

  function setSetting(key, value) {
    dispatch({ type: "settings", settings: { [key]: value } });
    storage.set(KEY_SETTINGS, get().settings);
  }

  // ---------------------------------------------------------------- dialogs
  async function ensureMeta() {
    if (get().meta) return get().meta;
    const r = await api("GET", "/api/meta");
    if (!r.ok) throw new Error("meta");
    dispatch({ type: "meta", meta: r.data });
    return get().meta;
  }

  async function openNewGame() {
    try { await ensureMeta(); } catch { toast(t("error.network")); return; }
    buildNewGameForm(get(), true, remembered());
    listGames();
    showNewGameError(null);
    const dlg = $("dlg-new");
    if (!dlg.open) dlg.showModal();
    $("new-start").focus({ preventScroll: true });  // the form opens at its top; the button is in sight
  }

  async function startGame() {
    if ($("new-start").disabled) return;
    let form;
    try { form = readNewGame(get()); } catch (e) { showNewGameError(e.message); return; }
    const { level, preset, rules, scoring, table } = form;
    if (table) storage.set(KEY_NAME, table.name);
    dealing(true);
    showNewGameError(null);
    try {
      const body = { level, preset, rules, scoring };
      if (table) Object.assign(body, { seats: table.seats, name: table.name, turn_clock: table.turn_clock });
      const r = await api("POST", "/api/games", body);
      if (!r.ok) { showNewGameError(detailMessage(r.data)); return; }
      storage.set(KEY_NEW, { level, preset, rules, scoring, kind: table ? "friends" : "computer", seatChoices: table ? table._choices : (storage.get(KEY_NEW, {}) || {}).seatChoices });
      const game = { game_id: r.data.game_id, token: r.data.token, seat: r.data.seat ?? 0 };
      if (table) keepSeat({ ...game, name: table.name });
      history.replaceState(null, "", "/");
      takeSeat(game, r.data.state);
    } catch {
      showNewGameError(t("error.network"));
    } finally {
      dealing(false);
    }
  }

  /**
   * Fill the new-game dialog's list of this browser's games in progress (each asked of the
   * server with its own token; those over, resigned or unknown are forgotten).
   */
  async function listGames() {
    listed = [];
    drawResumeList(listed, get().t, label);
    const entries = savedGames().slice(0, SHOWN_GAMES);  // the game just left for later is among them
    const found = await Promise.all(entries.map(async (g) => {
      try {
        const r = await api("GET", `/api/games/${g.game_id}`, undefined, g.token);
        if (r.status === 404) { dropGame(g.game_id); return null; }
        if (!r.ok || !r.data) return null;
        if (!resumable(r.data)) { dropGame(g.game_id); return null; }
        return { g, st: r.data };
      } catch { return null; }
    }));
    listed = found.filter(Boolean);
    drawResumeList(listed, get().t, label);
  }

  /** Resign the game `game` ({game_id, token}); its state, or null (a toast said why). */
  async function resign(game) {
    try {
      const r = await api("POST", `/api/games/${game.game_id}/resign`, undefined, game.token);
      if (r.status === 404) { dropGame(game.game_id); return null; }
      if (!r.ok) { toast(detailMessage(r.data)); return null; }
      dropGame(game.game_id);
      return r.data;
    } catch {
      toast(t("error.network"));
      return null;
    }
  }

  async function resignListed(gameId) {
    const item = listed.find((x) => x.g.game_id === gameId);
    if (!item) return;
    if (!await askConfirm({ title: t("resume.confirm_title"), text: t("resume.confirm_text"), ok: t("resume.resign"), cancel: t("resume.keep") })) return;
    markResigning(gameId, true);
    if (await resign(item.g)) {
      listed = listed.filter((x) => x !== item);
      drawResumeList(listed, get().t, label);
    } else markResigning(gameId, false);
  }

  function resume(gameId) {
    const item = listed.find((x) => x.g.game_id === gameId);
    if (!item) return;
    dropGame(gameId);
    keepGame(item.g);
    takeSeat(item.g, item.st);
  }

  /**
   * "New game": ask first while the table shown is one to come back to (a game in play, or a table
   * of people waiting for its start: model.js resumable); else the new-game dialog.
   */
  function askNewGame() {
    const p = get();
    if (!p.game || !resumable(p.state)) { openNewGame(); return; }
    drawLeave(p, label);
    const dlg = $("dlg-leave");
    if (!dlg.open) dlg.showModal();
    $("leave-keep").focus();
  }

  /** Resign the game shown (the question before leaving it), then a new game. */
  async function resignShown() {
    const game = get().game;
    const b = $("leave-resign");
    if (!game) return;
    b.disabled = true;
    const state = await resign(game);
    b.disabled = false;
    if (!state) return;
    $("dlg-leave").close();
    await deliver(state, { animate: false });
    openNewGame();
  }

  async function showStats() {
    openStats(get());
    let data = null;
    try {
      const r = await api("GET", "/api/stats");
      if (r.ok) data = r.data || {};
    } catch { /* said in the dialog */ }
    drawStats(get(), data);
  }

  // ---------------------------------------------------------------- the knock
  function openKnock() {
    const p = get();
    if (p.busy || p.animating) return;
    const k = chooseKnock(p.state, p.selected);
    if (!k) return;
    dispatch({ type: "knock", choice: k });
    drawKnock(get());
    $("dlg-knock").showModal();
    $("knock-confirm").focus();
  }

  function chooseKnockCard(card) {
    const a = legalOfType(get().state, "knock").find((k) => k.card === card);
    if (!a) return;
    dispatch({ type: "knock", choice: a });
    const again = $("knock-choices").querySelector(`[data-card="${card}"]`);
    if (again) again.focus();
  }

  function confirmKnock() {
    $("dlg-knock").close();
    const k = get().knockChoice;
    if (k) { sound("knock"); act(k.action); }
  }

  // ---------------------------------------------------------------- the hand
  function discard(card) {
    const why = discardRefusal(get(), card);
    if (why) {
      toast(t(why.key, why.card ? { card: cardName(why.card, t) } : undefined));
      if (card) sound("error");
      return;
    }
    act(findLegal(get().state, "discard", card).action);
  }

  function clickCard(card) {
    const out = cardClick(get(), card);
    if (!out) return;
    if (out.discard) { discard(out.discard); return; }
    dispatch({ type: "select", card: out.select });
    sound("select");
  }

  function sortHand(by) {
    const { state, order } = get();
    if (!state || !order.length) return;
    reorder(by === "rank" ? sortByRank(order) : sortBySuit(order));
    announce(() => t(by === "rank" ? "hand.sorted_rank" : "hand.sorted_suit"));
  }

  function shift(card, dir) {
    const p = get();
    const moved = shiftCard(p.order, handGroups(p.order, p.state, p.settings.pro), card, dir);
    if (!moved) return;
    if (moved.said) announce(t(moved.said));
    reorder(moved.order);
    const b = $("hand").querySelector(`.slot[data-card="${card}"]`);
    if (b) b.focus();
  }

  function drop(card, target, after) {
    const p = get();
    if (!p.state) return;
    reorder(dropCard(p.order, handGroups(p.order, p.state, p.settings.pro), card, target, after));
  }

  // ---------------------------------------------------------------- tables of people
  /** A seat in words at the table of `st`, in the page's language (friends.js seatLabel). */
  const label = (st, n) => seatLabel(st, n, get().t);

  /** A request about the table shown: its answer's data, or null (a toast said why). */
  async function post(method, path, body) {
    if (!get().game) return null;
    try {
      const r = await api(method, path, body);
      if (!r.ok) { toast(detailMessage(r.data)); return null; }
      return r.data;
    } catch {
      toast(t("error.network"));
      return null;
    }
  }

  const gamePath = (rest) => `/api/games/${get().game.game_id}${rest}`;

  /** The creator's choice for an open or computer seat of a waiting table. */
  async function setSeat(seat, choice) {
    const body = choice === "open" ? { kind: "open" } : { kind: "computer", level: choice };
    const data = await post("PUT", gamePath(`/seats/${seat}`), body);
    if (data) await deliver(data.state || data, { animate: false });
    else redraw();  // refused: the seat's choice back to what the table says
  }

  async function startTable() {
    const p = get();
    if (!canStart(p.state) || p.busy) return;
    dispatch({ type: "busy", value: true });
    const data = await post("POST", gamePath("/start"));
    dispatch({ type: "busy", value: false });
    if (data) await deliver(data.state || data, { animate: false });
    redraw();
  }

  /** The creator hands an away person's seat to the computer. */
  async function handToComputer(seat) {
    const level = (get().meta && get().meta.default_level) || "hard";
    const data = await post("PUT", gamePath(`/seats/${seat}`), { kind: "computer", level });
    if (data) await deliver(data.state || data, { animate: false });
  }

  /** The person takes back the seat a computer played while they were away. */
  async function takeBack() {
    const you = get().state.you ?? 0;
    const data = await post("PUT", gamePath(`/seats/${you}`), { kind: "person" });
    if (data) await deliver(data.state || data, { animate: false });
  }

  async function leaveTable() {
    if (!get().game) return;
    const sure = await askConfirm({ title: t("friends.leave_ask"), text: t(isWaiting(get().state) ? "friends.leave_text_waiting" : "friends.leave_text"), ok: t("friends.leave_title"), cancel: t("friends.leave_stay") });
    if (!sure || !get().game) return;
    const id = get().game.game_id;
    try { await api("POST", `/api/games/${id}/leave`); } catch { /* leaving locally anyway */ }
    stopLive();
    dropSeat(id);
    forgetGame();
  }

  async function rematch() {
    const data = await post("POST", gamePath("/rematch"));
    if (data && data.game_id) await follow(data.game_id, data.state);
  }

  /** Move to the rematch table (same seat, same token: docs/tables.md). */
  async function follow(gameId, state) {
    const { game, state: st } = get();
    const g = { game_id: gameId, token: game.token, seat: st ? st.you ?? 0 : 0 };
    keepSeat(g);
    if (state) { takeSeat(g, state); return; }
    try {
      const r = await api("GET", `/api/games/${gameId}`, undefined, g.token);
      if (r.ok) takeSeat(g, r.data);
    } catch { toast(t("error.network")); }
  }

  async function sendQuick(code) {
    const data = await post("POST", gamePath("/messages"), { message: code });
    if (data) await deliver(data.state || data, { animate: false });
  }

  /**
   * Coming back to a seat the computer played: say how many moves it made for the person (once
   * per move: a state shown again does not say them again).
   */
  function sayComputerMoves(state) {
    if (!state || !state.game_id) return;
    const said = computerSaid.get(state.game_id) || 0;
    const { count, last } = computerMovesForYou(state, said);
    if (!count) return;
    computerSaid.set(state.game_id, last);
    const words = t("friends.computer_played", { n: count });
    toast(words);
    announce(words);
  }

  /** After a state was shown: its new quick messages by their seats, and a rematch followed. */
  function afterState(prev, st) {
    for (const words of showMessages(prev, st, get().t, opponentSeat(st))) announce(words);
    const next = rematchOf(st);
    const game = get().game;
    if (next && game && next !== game.game_id && hasPeople(st)) follow(next, null);
  }

  /** Run the live connection of the table shown (a table with people), stop any other. */
  function syncLive() {
    const { state: st, game } = get();
    const want = game && st && st.game_id === game.game_id && (hasPeople(st) || isWaiting(st)) ? game.game_id : null;
    if (live && live.gameId === want) return;
    stopLive();
    if (!want) return;
    const conn = new LiveConnection({
      gameId: want, token: game.token, since: () => get().lastSeq,
      onState: (state) => { const g = get().game; if (g && state.game_id === g.game_id) deliver(state, { animate: true }); },
      onPresence: (seats) => dispatch({ type: "presence", gameId: want, seats }),
      onStatus: (status) => {
        if (!live || live.conn !== conn) return;
        const was = get().conn;
        dispatch({ type: "conn", conn: status });
        if (status === "reconnecting" && was !== "reconnecting") announce(t("friends.reconnecting"));
        if (status === "closed") { refresh(); schedulePoll(); }  // the token refused: is the seat gone?
      },
    });
    live = { gameId: want, conn };
    dispatch({ type: "conn", conn: "connecting" });
    conn.start();
  }

  function stopLive() {
    if (live) live.conn.stop();
    live = null;
    dispatch({ type: "conn", conn: null });
  }

  /** The table shown has a working live connection (no polling needed). */
  const liveActive = () => !!(live && get().conn !== "closed");

  /** Open the invite `code`: back to the seat this browser holds there, else the join dialog. */
  async function openInvite(code) {
    let r;
    try { r = await api("GET", `/api/invites/${encodeURIComponent(code)}`); } catch {
      toast(t("error.network"));
      return false;
    }
    if (!r.ok) {
      showInvite({ code, data: null, problem: r.status === 404 ? t("join.unknown") : detailMessage(r.data), why: r.status === 404 ? "unknown" : "closed" });
      return true;
    }
    dispatch({ type: "invite", invite: { code, data: r.data, problem: null } });
    const held = heldAtInvite(r.data);
    if (held && await resumeSeat(held)) return true;
    showInvite(get().invite);
    return true;
  }

  /**
   * The seat this browser holds at the invite's table ({game_id, token, seat}), or null: one held
   * there, or at a table before it (the invite leads to the last rematch, which keeps the seats'
   * tokens: docs/tables.md "A seat follows its person").
   */
  function heldAtInvite(data) {
    for (const id of inviteTables(data)) {
      const held = savedSeat(id);
      if (held) return { ...held, game_id: data.game_id };
    }
    return null;
  }

  /**
   * Open a seat's own link (`/rejoin/{game}/{seat}#{code}`): the seat moves to this browser (a new
   * token; the device that had it loses it). A seat this browser holds already is just shown.
   */
  async function openRejoin(link) {
    history.replaceState(null, "", "/");  // the code leaves the address bar (and the history)
    const held = savedSeat(link.game_id);
    if (held && held.seat === link.seat && await resumeSeat(held)) return true;
    let r;
    try { r = await api("POST", `/api/games/${encodeURIComponent(link.game_id)}/rejoin`, { seat: link.seat, code: link.code }); } catch {
      toast(t("error.network"));
      return false;
    }
    if (!r.ok) {
      toast(r.status === 404 ? t("rejoin.unknown") : detailMessage(r.data));
      return false;
    }
    const g = { game_id: r.data.game_id, token: r.data.token, seat: r.data.seat };
    const mine = (r.data.state && Array.isArray(r.data.state.seats) ? r.data.state.seats : []).find((x) => x.seat === g.seat);
    keepSeat({ ...g, name: mine ? mine.name : null });
    if (r.data.game_id !== link.game_id) keepSeat({ ...g, game_id: link.game_id });
    takeSeat(g, r.data.state);
    toast(t("rejoin.done"));
    return true;
  }

  /** The invite dialog, open, for `invite`. */
  function showInvite(invite) {
    dispatch({ type: "invite", invite });
    openJoin(get(), remembered().name);
  }

  /** Show the table of a seat this browser holds; false when its token no longer works. */
  async function resumeSeat(held) {
    try {
      const r = await api("GET", `/api/games/${held.game_id}`, undefined, held.token);
      if (r.ok) { keepSeat(held); takeSeat(held, r.data); return true; }
      if (GONE.includes(r.status)) dropSeat(held.game_id);
    } catch { toast(t("error.network")); }
    return false;
  }

  /** Take a seat at the table of the invite shown, under the name typed. */
  async function join() {
    const invite = get().invite;
    if (!invite || !invite.data) return;
    const name = readJoinName(get());
    if (!name || $("join-submit").disabled) return;
    joining(true);
    showJoinError(null);
    try {
      // this browser sat down meanwhile (in another tab): back to that seat, never a second one
      const held = heldAtInvite(invite.data);
      if (held && await resumeSeat(held)) return;
      const seat = readJoinSeat();
      const r = await api("POST", `/api/invites/${encodeURIComponent(invite.code)}/join`, seat === null ? { name } : { name, seat });
      if (!r.ok) {
        const code = r.data && r.data.detail && r.data.detail.code;
        if (["table_full", "started", "seat_taken", "name_taken"].includes(code)) {
          let data = invite.data;
          try { const again = await api("GET", `/api/invites/${encodeURIComponent(invite.code)}`); if (again.ok) data = again.data; } catch { /* keep */ }
          if (code === "table_full" || code === "started") { showInvite({ ...invite, data, problem: t(code === "table_full" ? "join.full" : "join.started"), why: code === "table_full" ? "full" : "started" }); return; }
          showInvite({ ...invite, data, problem: null, why: null });  // the seats as they are now (who sits there under that name)
        }
        const reason = r.data && r.data.detail && r.data.detail.reason && r.data.detail.reason.code;
        // the reason names the name: another try
        showJoinError(code === "seat_taken" ? t("join.seat_taken") : detailMessage(r.data), { field: code === "name_taken" || reason === "name_reserved" });
        return;
      }
      storage.set(KEY_NAME, name);
      const g = { game_id: r.data.game_id, token: r.data.token, seat: r.data.seat };
      keepSeat({ ...g, name });
      $("dlg-join").close();
      takeSeat(g, r.data.state);
    } catch {
      showJoinError(t("error.network"));
    } finally {
      joining(false);
    }
  }

  /** "Not now" in the invite dialog: the invite's address left for the ordinary page (openHome). */
  function leaveInvite() {
    $("dlg-join").close();
    history.replaceState(null, "", "/");
    dispatch({ type: "invite", invite: null });
    return openHome();
  }

  // ---------------------------------------------------------------- intents
  /** Carry out one intent of the person (controls.js); a promise of its end. */
  async function handle(intent) {
    switch (intent.type) {
      case "select": return clickCard(intent.card);
      case "discard": return discard(intent.card);
      case "discard_selected": return discard(get().selected);
      case "draw_stock": case "draw_pile": case "play": {
        if (intent.kind === "next_hand" && get().ahead) return goAhead();
        if (intent.sound) sound(intent.sound);
        const a = actionFor(get(), intent);
        if (a && intent.kind === "next_hand") dispatch({ type: "leaving" });
        return a ? act(a.action) : undefined;
      }
      case "gin": {
        const a = actionFor(get(), intent);
        if (a && !get().busy && !get().animating) { sound("gin"); return act(a.action); }
        return undefined;
      }
      case "knock": return openKnock();
      case "knock_choose": return chooseKnockCard(intent.card);
      case "knock_confirm": return confirmKnock();
      case "sort": return sortHand(intent.by);
      case "shift": return shift(intent.card, intent.dir);
      case "drop": return drop(intent.card, intent.target, intent.after);
      case "hint": return askHint();
      case "language": return setLanguage(intent.lang);
      case "setting": return setSetting(intent.key, intent.value);
      case "new_game": return askNewGame();
      case "new_game_dialog": return openNewGame();
      case "start_game": return startGame();
      case "resume": return resume(intent.gameId);
      case "resign_listed": return resignListed(intent.gameId);
      case "resign_shown": return resignShown();
      case "stats": return showStats();
      case "set_seat": return setSeat(intent.seat, intent.choice);
      case "start_table": return startTable();
      case "hand_to_computer": return handToComputer(intent.seat);
      case "take_back": return takeBack();
      case "leave_table": return leaveTable();
      case "rematch": return rematch();
      case "quick": return sendQuick(intent.code);
      case "join": return join();
      case "leave_invite": return leaveInvite();
      case "offline": if (live) live.conn.drop(); return undefined;
      case "online": if (live) live.conn.kick(); return undefined;
      default: throw new Error(`unknown intent ${intent.type}`);
    }
  }

  // ---------------------------------------------------------------- boot
  async function boot() {
    const html = document.documentElement;
    const cookie = (document.cookie.match(/(?:^|;\s*)lang=([a-z]{2})/) || [])[1];
    let lang = html.dataset.lang || html.lang || cookie || "en";
    if (!LANGUAGES.includes(lang)) lang = "en";
    const metaP = ensureMeta().catch(() => null);
    await setLanguage(lang, { save: false });
    await metaP;
    const code = inviteCode(location.pathname, location.search);
    if (code && await openInvite(code)) { dispatch({ type: "loading", loading: false }); return; }
    const link = rejoinLink(location.pathname, location.hash);
    if (link && await openRejoin(link)) { dispatch({ type: "loading", loading: false }); return; }
    await openHome();
  }

  /** The ordinary page: the game this browser was playing, else the new-game dialog. */
  async function openHome() {
    const saved = storage.get(KEY_CURRENT);
    const loading = !!(saved && saved.game_id && saved.token);
    dispatch({ type: "loading", loading });
    if (loading) {
      dispatch({ type: "game", game: saved });
      try {
        const r = await api("GET", `/api/games/${saved.game_id}`);
        if (r.ok) {
          if (r.data.phase === "game-over") { keepFinished(saved); dropGame(saved.game_id); }
          else keepGame(saved);
          show(r.data, r.data.seq ?? 0, [{ type: "loading", loading: false }]);
          schedulePoll();
          return;
        }
        if (r.status >= 500 || r.status === 429) {  // the server is away: its table, once back
          reconnect(r.retryAfter);
          return;
        }
        dispatch({ type: "loading", loading: false });
        if (GONE.includes(r.status)) { dropSeat(saved.game_id); storage.set(KEY_CURRENT, null); dispatch({ type: "game", game: null }); }
      } catch {
        reconnect();  // no answer: the table shown (loading) until the server is back
        return;
      }
    }
    openNewGame();
  }

  return { handle, boot, syncLive };
}
