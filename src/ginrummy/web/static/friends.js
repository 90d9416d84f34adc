// Tables of people (docs/tables.md) on the game page: the friends' part of the new-game dialog,
// the waiting table (seats, invite link, start), the invite page (join with a name), the seats
// around the table (names, card counts, who is connected, whose turn), the creator's controls, the
// quick messages, rematch and leave, and the table's live connection. The seat logic is in
// seats.js (pure); the stream reader in live.js. Names are always set as text, never as HTML.

import { $, askConfirm, el, toast } from "./page.js";
import { levelName, presetName, rulesSummary } from "./i18n.js";
import { LiveConnection } from "./live.js";
import { playerName, scoringName } from "./variants.js";
import {
  QUICK_MESSAGES, TABLE_SIZES, seatsOf, seatOf, hasPeople, isWaiting, isCreator, canStart, seatLayout, presence,
  turnSeat, seatsRequest, cleanName, rememberSeat, heldSeat, forgetSeat, withPresence, freshMessages, rematchOf,
  cardCount,
} from "./seats.js";

const KEY_TABLES = "ginrummy.tables";
const KEY_NAME = "ginrummy.name";
const CLOCKS = [null, 30, 60, 120, 300];

/**
 * The friends' tables of the page. `ctx`: `S` (the page's state), `t` (translator), `api(method,
 * path, body, token?)`, `store` ({get, set}), `deliver(state, opts)` (show a server state, in
 * order), `takeSeat(game, state)` (show another table), `render()`, `announce(text)`,
 * `detailMessage(data)`, `openNewGame()`, `levels()` (the computer levels), `levelDefault()`,
 * `refresh()` (ask for the table shown at once; its end when the seat is gone).
 */
export function createFriends(ctx) {
  const { S, store } = ctx;
  const t = (...a) => ctx.t(...a);
  let live = null;        // {gameId, conn}
  let connState = null;   // the live connection's status word
  let invite = null;      // the invite being answered: {code, data}
  const bubbleTimers = {};

  const tables = () => store.get(KEY_TABLES, {}) || {};
  const keepSeat = (entry) => store.set(KEY_TABLES, rememberSeat(tables(), entry));
  const dropSeat = (gameId) => store.set(KEY_TABLES, forgetSeat(tables(), gameId));

  function seatLabel(st, n) {
    const s = seatOf(st, n);
    if (!s) return "";
    if (s.kind === "open") return t("friends.open_seat");
    if (s.kind === "computer") return `${computerName(st, n)} (${levelName(s.level, t)})`;
    return s.name || t("friends.seat_n", { n: n + 1 });
  }

  /** A computer's seat by the table's name for it (Computer, Computer 2, Opponent B, …). */
  function computerName(st, n) {
    const players = (st.table && st.table.players) || seatsOf(st).length;
    if (players === 2) return t("table.computer");
    if (players === 4) return playerName(st, n, t);
    return t("vt.computer_n", { n });
  }

  /** A seat's relation to the person at a partnership table (partner / opponent), else "". */
  function relation(st, n) {
    const players = (st.table && st.table.players) || seatsOf(st).length;
    const you = st.you ?? 0;
    if (players !== 4 || n === you) return "";
    return t((n - you) % 2 === 0 ? "friends.partner" : "friends.opponent");
  }

  const presenceText = (word) => t(`friends.presence.${word}`);

  // ------------------------------------------------------------------ the new-game dialog
  function seatCount(scoring) {
    return TABLE_SIZES[scoring] ?? 2;
  }

  function buildClock() {
    const sel = $("new-clock");
    const prev = sel.value;
    sel.replaceChildren(...CLOCKS.map((c) => el("option", { value: c === null ? "" : String(c), text: c === null ? t("friends.clock_off") : t("friends.clock_s", { n: c }) })));
    sel.value = CLOCKS.map((c) => (c === null ? "" : String(c))).includes(prev) ? prev : "";
  }

  /** The seat choices of the friends' table: one select per other seat (a friend or a computer). */
  function buildSeatChoices() {
    const scoring = $("new-scoring").value || "standard";
    const n = seatCount(scoring);
    const box = $("new-seat-choices");
    const was = [...box.querySelectorAll("select")].map((s) => s.value);
    const saved = (store.get("ginrummy.newgame", {}) || {}).seatChoices || [];
    const levels = ctx.levels();
    const kids = [];
    for (let i = 1; i < n; i++) {
      const rel = n === 4 ? t((i % 2 === 0) ? "friends.partner" : "friends.opponent") : "";
      const label = rel ? t("friends.seat_rel", { n: i + 1, rel }) : t("friends.seat_n", { n: i + 1 });
      const sel = el("select", { id: `new-seat-${i}`, "data-testid": `seat-choice-${i}`, "data-seat": String(i) },
        el("option", { value: "open", text: t("friends.a_friend") }),
        levels.map((l) => el("option", { value: l, text: t("friends.computer_level", { level: levelName(l, t) }) })));
      const want = was[i - 1] ?? saved[i - 1] ?? "open";
      sel.value = [...sel.options].some((o) => o.value === want) ? want : "open";
      kids.push(el("label", {}, el("span", { text: label }), sel));
    }
    box.replaceChildren(...kids);
  }

  function onKindChange() {
    const friends = $("new-kind").value === "friends";
    $("new-friends").hidden = !friends;
    $("new-level-wrap").hidden = friends;
    $("new-name").required = friends;
    $("new-start").textContent = t(friends ? "friends.create" : "new.start");
    if (friends) {
      buildClock();
      buildSeatChoices();
      if (!$("new-name").value) $("new-name").value = store.get(KEY_NAME, "") || "";
    }
  }

  /** The dialog's friends part after a (re)build: kind as saved, seats, clock. */
  function buildForm(reset) {
    if (reset) $("new-kind").value = (store.get("ginrummy.newgame", {}) || {}).kind === "friends" ? "friends" : "computer";
    onKindChange();
  }

  /**
   * The extra body of POST /api/games for a friends' table ({seats, name, turn_clock}), null at a
   * game against the computer; throws an Error with a translated message on a bad name.
   */
  function request() {
    if ($("new-kind").value !== "friends") return null;
    const name = cleanName($("new-name").value);
    if (!name) throw new Error(t("friends.bad_name"));
    const n = seatCount($("new-scoring").value || "standard");
    const choices = [];
    for (let i = 1; i < n; i++) choices.push($(`new-seat-${i}`).value);
    const clock = $("new-clock").value;
    store.set(KEY_NAME, name);
    return { seats: seatsRequest(n, choices), name, turn_clock: clock === "" ? null : Number(clock), _choices: choices };
  }

  // ------------------------------------------------------------------ the seats around the table
  function renderSeats() {
    const st = S.state;
    const strip = $("seats-strip");
    const people = !!(st && seatsOf(st).length && (hasPeople(st) || isWaiting(st)));
    strip.hidden = !people;
    $("table").classList.toggle("people", people);
    if (!people) { $("turn-left").hidden = true; return; }
    const you = st.you ?? 0;
    const players = (st.table && st.table.players) || seatsOf(st).length;
    const turn = turnSeat(st);
    const opp = ctx.opponentSeat(st);
    const chips = seatLayout(players, you).map((n) => {
      const s = seatOf(st, n) || { seat: n, kind: "open" };
      const word = presence(s, you);
      const kids = [
        el("span", { class: `dot p-${word}`, "aria-hidden": "true" }),
        el("b", { class: "chip-name", text: seatLabel(st, n) }),
      ];
      const rel = s.kind === "computer" ? "" : relation(st, n);  // a computer's name says it already
      if (rel) kids.push(el("small", { class: "rel", text: rel }));
      if (s.kind === "person") kids.push(el("span", { class: "chip-presence", "data-presence": word, text: presenceText(word) }));
      const cards = cardCount(st, n);
      if (cards !== null) kids.push(el("small", { class: "chip-count", "data-testid": "seat-cards", text: t("table.cards", { n: cards }) }));
      if (n === turn) kids.push(el("span", { class: "chip-turn", text: t("friends.to_play") }));
      // the server says who may: the creator once the seat is away, anyone a while later
      if (!isWaiting(st) && s.kind === "person" && s.hand_over) {
        kids.push(el("button", { type: "button", class: "btn small", "data-testid": "hand-to-computer", "data-seat": String(n), text: t("friends.hand_to_computer"), onclick: () => handToComputer(n) }));
      }
      kids.push(el("span", { class: "bubble chip-bubble", id: `bubble-${n}`, "aria-hidden": "true" }));
      return el("li", { class: `seat-chip${n === turn ? " turn" : ""}`, "data-seat": String(n), "data-presence": word, "aria-current": n === turn ? "true" : null }, kids);
    });
    $("seat-chips").replaceChildren(...chips);
    const mine = seatOf(st, you);
    $("btn-take-back").hidden = !(mine && mine.computer_for_away);
    $("quick").hidden = isWaiting(st) && seatsOf(st).filter((s) => s.kind === "person").length < 2;
    $("btn-leave").hidden = isWaiting(st) && isCreator(st);  // the creator of a waiting table starts another game instead
    renderConn();
    renderClock();
    $("me-name").textContent = mine && mine.name ? `${mine.name} (${t("table.you")})` : t("table.you");
  }

  /** Seconds left on the turn clock (0 at the deadline), null without a clock. */
  function clockLeft(st) {
    const tb = st && st.table;
    if (!tb || !tb.turn_deadline || !tb.turn_clock) return null;
    return Math.max(0, Math.min(tb.turn_clock, Math.ceil(tb.turn_deadline - Date.now() / 1000)));
  }

  let clockTimer = null;
  /** The turn clock under the status and on the turn marker, each second while it runs. */
  function renderClock() {
    const st = S.state;
    const left = clockLeft(st);
    const box = $("turn-left");
    box.hidden = left === null;
    const text = left === null ? "" : t("friends.clock_left", { n: left });
    box.textContent = text;
    box.classList.toggle("urgent", left !== null && left <= 10);
    for (const e of document.querySelectorAll(".seat-chip.turn .chip-turn")) e.textContent = left === null ? t("friends.to_play") : `${t("friends.to_play")} · ${text}`;
    clearTimeout(clockTimer);
    if (left !== null && left > 0) clockTimer = setTimeout(renderClock, 1000);
  }

  function renderConn() {
    const box = $("conn");
    const show = connState === "reconnecting" || connState === "closed";
    box.hidden = !show;
    box.dataset.state = connState || "";
    box.textContent = show ? t(connState === "closed" ? "friends.conn_closed" : "friends.reconnecting") : "";
  }

  // ------------------------------------------------------------------ the waiting table
  function renderWaiting() {
    const st = S.state;
    const waiting = !!(st && isWaiting(st));
    $("waiting").hidden = !waiting;
    $("table").classList.toggle("is-waiting", waiting);
    if (!waiting) return;
    const you = st.you ?? 0;
    const creator = isCreator(st);
    const tb = st.table || {};
    $("waiting-sub").textContent = [scoringName(tb.scoring || st.scoring || "standard", t), presetName((st.rules || {}).preset || "standard", t)]
      .filter((x, i, a) => a.indexOf(x) === i).join(" · ");
    $("waiting-seats").replaceChildren(...seatsOf(st).map((s) => waitingSeat(st, s, you, creator)));
    const inv = tb.invite;
    $("invite-box").hidden = !inv;
    if (inv) {
      const url = absoluteUrl(inv.url || `/join/${inv.code}`);
      $("invite-link").href = url;
      $("invite-link").textContent = url;
      $("btn-share").hidden = typeof navigator.share !== "function";
    }
    const start = $("btn-start-table");
    start.hidden = !creator;
    start.disabled = !canStart(st) || S.busy;
    const open = seatsOf(st).filter((s) => s.kind === "open").length;
    $("waiting-note").textContent = creator
      ? (open ? t("friends.open_left", { n: open }) : t("friends.all_seated"))
      : t("friends.creator_starts");
  }

  function waitingSeat(st, s, you, creator) {
    const word = presence(s, you);
    const row = [el("span", { class: `dot p-${word}`, "aria-hidden": "true" }), el("b", { text: s.seat === you ? `${s.name || ""} (${t("table.you")})` : seatLabel(st, s.seat) })];
    const rel = s.kind === "computer" ? "" : relation(st, s.seat);
    if (rel) row.push(el("small", { class: "rel", text: rel }));
    if (s.creator) row.push(el("small", { class: "tag", text: t("friends.creator") }));
    if (s.kind === "person" && s.seat !== you) row.push(el("span", { class: "chip-presence", "data-presence": word, text: presenceText(word) }));
    if (creator && s.kind !== "person") {
      const sel = el("select", { "data-testid": `seat-kind-${s.seat}`, "aria-label": t("friends.seat_n", { n: s.seat + 1 }) },
        el("option", { value: "open", text: t("friends.a_friend") }),
        ctx.levels().map((l) => el("option", { value: l, text: t("friends.computer_level", { level: levelName(l, t) }) })));
      sel.value = s.kind === "open" ? "open" : s.level;
      sel.addEventListener("change", () => setSeat(s.seat, sel.value));
      row.push(sel);
    }
    return el("li", { "data-seat": String(s.seat), "data-kind": s.kind, "data-presence": word }, row);
  }

  function absoluteUrl(u) {
    try { return new URL(u, location.origin).href; } catch { return u; }
  }

  async function post(method, path, body) {
    if (!S.game) return null;
    try {
      const r = await ctx.api(method, path, body);
      if (!r.ok) { toast(ctx.detailMessage(r.data)); return null; }
      return r.data;
    } catch {
      toast(t("error.network"));
      return null;
    }
  }

  async function setSeat(seat, choice) {
    const body = choice === "open" ? { kind: "open" } : { kind: "computer", level: choice };
    const data = await post("PUT", `/api/games/${S.game.game_id}/seats/${seat}`, body);
    if (data) await ctx.deliver(data.state || data, { animate: false });
    else ctx.render();
  }

  async function startTable() {
    if (!canStart(S.state) || S.busy) return;
    S.busy = true;
    ctx.render();
    const data = await post("POST", `/api/games/${S.game.game_id}/start`);
    S.busy = false;
    if (data) await ctx.deliver(data.state || data, { animate: false });
    ctx.render();
  }

  async function handToComputer(seat) {
    const data = await post("PUT", `/api/games/${S.game.game_id}/seats/${seat}`, { kind: "computer", level: ctx.levelDefault() });
    if (data) await ctx.deliver(data.state || data, { animate: false });
  }

  async function takeBack() {
    const you = S.state.you ?? 0;
    const data = await post("PUT", `/api/games/${S.game.game_id}/seats/${you}`, { kind: "person" });
    if (data) await ctx.deliver(data.state || data, { animate: false });
  }

  async function copyInvite() {
    const url = $("invite-link").href;
    try {
      await navigator.clipboard.writeText(url);
      toast(t("friends.copied"));
    } catch {
      // no clipboard (an insecure origin, a refused permission): select the link for a manual copy
      const r = document.createRange();
      r.selectNodeContents($("invite-link"));
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(r);
      toast(t("friends.copy_manual"));
    }
  }

  async function shareInvite() {
    try { await navigator.share({ title: t("app.title"), text: t("friends.share_text"), url: $("invite-link").href }); } catch { /* closed */ }
  }

  async function leave() {
    if (!S.game) return;
    const sure = await askConfirm({ title: t("friends.leave_ask"), text: t(isWaiting(S.state) ? "friends.leave_text_waiting" : "friends.leave_text"), ok: t("friends.leave_title"), cancel: t("friends.leave_stay") });
    if (!sure || !S.game) return;
    const id = S.game.game_id;
    try { await ctx.api("POST", `/api/games/${id}/leave`); } catch { /* leaving locally anyway */ }
    stopLive();
    dropSeat(id);
    ctx.forgetGame();
  }

  async function rematch() {
    const data = await post("POST", `/api/games/${S.game.game_id}/rematch`);
    if (data && data.game_id) await follow(data.game_id, data.state);
  }

  /** Move to the rematch table (same seat, same token: docs/tables.md). */
  async function follow(gameId, state) {
    const g = { game_id: gameId, token: S.game.token, seat: S.state ? S.state.you ?? 0 : 0 };
    keepSeat(g);
    if (state) { ctx.takeSeat(g, state); return; }
    try {
      const r = await ctx.api("GET", `/api/games/${gameId}`, undefined, g.token);
      if (r.ok) ctx.takeSeat(g, r.data);
    } catch { toast(t("error.network")); }
  }

  // ------------------------------------------------------------------ quick messages
  function buildQuick() {
    $("quick-list").replaceChildren(...QUICK_MESSAGES.map((m) => el("button", {
      type: "button", class: "btn small", "data-testid": `quick-${m}`, text: t(`quick.${m}`),
      onclick: () => sendQuick(m),
    })));
  }

  async function sendQuick(code) {
    $("quick").open = false;
    const data = await post("POST", `/api/games/${S.game.game_id}/messages`, { message: code });
    if (data) await ctx.deliver(data.state || data, { animate: false });
  }

  /** Show the quick messages of `st` that `prev` did not have, as bubbles by their seats. */
  function showMessages(prev, st) {
    if (!prev || prev.game_id !== st.game_id) return;
    const you = st.you ?? 0;
    for (const m of freshMessages(prev, st)) {
      const text = t(`quick.${m.message}`, null, m.message);
      const box = m.seat === you ? $("me-bubble") : $(`bubble-${m.seat}`) || (m.seat === ctx.opponentSeat(st) ? $("opp-bubble") : null);
      ctx.announce(`${playerName(st, m.seat, t)}: ${text}`);
      if (!box) continue;
      box.textContent = text;
      box.classList.add("show", "chat");
      box.dataset.message = m.message;
      clearTimeout(bubbleTimers[m.seat]);
      bubbleTimers[m.seat] = setTimeout(() => { box.classList.remove("show", "chat"); }, 4000);
    }
  }

  /** After a state was shown: follow a rematch, keep the seat, show new quick messages. */
  function afterState(prev, st) {
    showMessages(prev, st);
    const next = rematchOf(st);
    if (next && S.game && next !== S.game.game_id && hasPeople(st)) follow(next, null);
  }

  // ------------------------------------------------------------------ the live connection
  /** Run the live connection of the table shown (a table with people), stop any other. */
  function syncLive() {
    const st = S.state;
    const want = S.game && st && st.game_id === S.game.game_id && (hasPeople(st) || isWaiting(st)) ? S.game.game_id : null;
    if (live && live.gameId === want) return;
    stopLive();
    if (!want) return;
    const conn = new LiveConnection({
      gameId: want, token: S.game.token, since: () => S.lastSeq,
      onState: (state) => { if (S.game && state.game_id === S.game.game_id) ctx.deliver(state, { animate: true }); },
      onPresence: (seats) => {
        if (!S.state || S.state.game_id !== want) return;
        S.state = withPresence(S.state, seats);
        renderSeats();
        renderWaiting();
      },
      onStatus: (s) => {
        if (!live || live.conn !== conn) return;
        const was = connState;
        connState = s;
        renderConn();
        if (s === "reconnecting" && was !== "reconnecting") ctx.announce(t("friends.reconnecting"));
        if (s === "closed") { ctx.refresh(); ctx.schedulePoll(); }  // the token refused: is the seat gone?
      },
    });
    live = { gameId: want, conn };
    connState = "connecting";
    conn.start();
  }

  function stopLive() {
    if (live) live.conn.stop();
    live = null;
    connState = null;
    renderConn();
  }

  /** The table shown has a working live connection (no polling needed). */
  const liveActive = () => !!(live && connState !== "closed");

  // ------------------------------------------------------------------ the invite page
  /** Open the invite `code`: back to the seat this browser holds there, else the join dialog. */
  async function openInvite(code) {
    let r;
    try { r = await ctx.api("GET", `/api/invites/${encodeURIComponent(code)}`); } catch {
      toast(t("error.network"));
      return false;
    }
    if (!r.ok) {
      invite = { code, data: null };
      showJoin(r.status === 404 ? t("join.unknown") : ctx.detailMessage(r.data));
      return true;
    }
    invite = { code, data: r.data };
    const held = heldSeat(tables(), r.data.game_id);
    if (held && await resume(held)) return true;
    showJoin(null);
    return true;
  }

  /** Show the table of a seat this browser holds; false when its token no longer works. */
  async function resume(held) {
    try {
      const r = await ctx.api("GET", `/api/games/${held.game_id}`, undefined, held.token);
      if (r.ok) { ctx.takeSeat(held, r.data); return true; }
      if ([401, 403, 404].includes(r.status)) dropSeat(held.game_id);
    } catch { toast(t("error.network")); }
    return false;
  }

  function showJoin(problem) {
    const inv = invite && invite.data;
    const dlg = $("dlg-join");
    $("join-error").hidden = true;
    $("join-name").removeAttribute("aria-invalid");
    const closed = inv && (inv.full || (inv.status !== "waiting" && !(inv.seats || []).some((s) => s.kind === "open")));
    const why = problem || (closed ? t(inv.status === "waiting" ? "join.full" : inv.status === "over" ? "join.over" : "join.started") : null);
    $("join-state").hidden = !why;
    $("join-state").textContent = why || "";
    $("join-fields").hidden = !!why;
    $("join-submit").hidden = !!why;
    if (inv) {
      const pseudo = { rules: inv.rules || {}, scoring: inv.scoring, table: { scoring: inv.scoring, players: (inv.seats || []).length }, seats: inv.seats || [], you: -1 };
      $("join-table-desc").textContent = t("join.table", { table: scoringName(inv.scoring || "standard", t), n: (inv.seats || []).length });
      let parts = [];
      try { parts = rulesSummary({ ...pseudo, rules: { preset: inv.preset, ...(inv.rules || {}) } }, t); } catch { parts = [presetName(inv.preset, t)]; }
      $("join-rules").textContent = parts.join(" · ");
      // two open seats or more (a partnership's teams): the guest chooses, the first by default
      const open = (inv.seats || []).filter((s) => s.kind === "open").map((s) => s.seat);
      const choosing = !why && open.length > 1;
      const picked = choosing ? (open.includes(chosenSeat()) ? chosenSeat() : open[0]) : null;
      $("join-choose").hidden = !choosing;
      $("join-seats").setAttribute("role", choosing ? "radiogroup" : "list");
      if (choosing) $("join-seats").setAttribute("aria-labelledby", "join-choose");
      else $("join-seats").removeAttribute("aria-labelledby");
      $("join-seats").replaceChildren(...(inv.seats || []).map((s) => {
        const label = s.kind === "open" ? t("friends.open_seat") : s.kind === "computer" ? `${computerName(pseudo, s.seat)} (${levelName(s.level, t)})` : (s.name || t("friends.seat_n", { n: s.seat + 1 }));
        const team = (inv.seats || []).length === 4 ? el("small", { class: "rel", text: t("friends.team_n", { n: (s.seat % 2) + 1 }) }) : null;
        const dot = el("span", { class: `dot p-${s.kind === "open" ? "open" : s.kind === "computer" ? "computer" : "person"}`, "aria-hidden": "true" });
        if (choosing && s.kind === "open") {
          const radio = el("input", { type: "radio", name: "join-seat", value: String(s.seat), "data-testid": "join-seat" });
          radio.checked = s.seat === picked;
          return el("li", { "data-seat": String(s.seat), "data-kind": s.kind, class: "choosable" },
            el("label", {}, radio, dot, el("b", { text: label }), team));
        }
        return el("li", { "data-seat": String(s.seat), "data-kind": s.kind }, dot, el("b", { text: label }), team);
      }));
    } else {
      $("join-table-desc").textContent = "";
      $("join-rules").replaceChildren();
      $("join-seats").replaceChildren();
      $("join-choose").hidden = true;
    }
    if (!$("join-name").value) $("join-name").value = store.get(KEY_NAME, "") || "";
    if (!dlg.open) dlg.showModal();
    if (!why) $("join-name").focus();
  }

  /** The open seat chosen in the join dialog (null: no choice offered). */
  function chosenSeat() {
    const r = document.querySelector("#join-seats input[name=join-seat]:checked");
    return r ? Number(r.value) : null;
  }

  async function join(ev) {
    ev.preventDefault();
    if (!invite || !invite.data) return;
    const name = cleanName($("join-name").value);
    const err = $("join-error");
    if (!name) { err.textContent = t("friends.bad_name"); err.hidden = false; return; }
    const btn = $("join-submit");
    if (btn.disabled) return;
    btn.disabled = true;
    err.hidden = true;
    try {
      // this browser sat down meanwhile (in another tab): back to that seat, never a second one
      const held = heldSeat(tables(), invite.data.game_id);
      if (held && await resume(held)) return;
      const seat = chosenSeat();
      const r = await ctx.api("POST", `/api/invites/${encodeURIComponent(invite.code)}/join`, seat === null ? { name } : { name, seat });
      if (!r.ok) {
        const code = r.data && r.data.detail && r.data.detail.code;
        if (["table_full", "started", "seat_taken", "name_taken"].includes(code)) {
          try { const again = await ctx.api("GET", `/api/invites/${encodeURIComponent(invite.code)}`); if (again.ok) invite.data = again.data; } catch { /* keep */ }
          if (code === "table_full" || code === "started") { showJoin(t(code === "table_full" ? "join.full" : "join.started")); return; }
          showJoin(null);  // the seats as they are now (who sits there under that name)
        }
        err.textContent = code === "seat_taken" ? t("join.seat_taken") : ctx.detailMessage(r.data);
        err.hidden = false;
        const reason = r.data && r.data.detail && r.data.detail.reason && r.data.detail.reason.code;
        if (code === "name_taken" || reason === "name_reserved") {  // the reason names the name; another try
          $("join-name").setAttribute("aria-invalid", "true");
          $("join-name").focus();
          $("join-name").select();
        }
        return;
      }
      store.set(KEY_NAME, name);
      const g = { game_id: r.data.game_id, token: r.data.token, seat: r.data.seat };
      keepSeat({ ...g, name });
      $("dlg-join").close();
      ctx.takeSeat(g, r.data.state);
    } catch {
      err.textContent = t("error.network");
      err.hidden = false;
    } finally {
      btn.disabled = false;
    }
  }

  function wire() {
    $("new-kind").addEventListener("change", onKindChange);
    $("new-scoring").addEventListener("change", () => { if ($("new-kind").value === "friends") buildSeatChoices(); });
    $("btn-start-table").addEventListener("click", startTable);
    $("btn-copy").addEventListener("click", copyInvite);
    $("btn-share").addEventListener("click", shareInvite);
    $("btn-take-back").addEventListener("click", takeBack);
    $("btn-leave").addEventListener("click", leave);
    $("btn-rematch").addEventListener("click", rematch);
    $("form-join").addEventListener("submit", join);
    $("join-name").addEventListener("input", () => $("join-name").removeAttribute("aria-invalid"));
    $("join-new").addEventListener("click", () => { $("dlg-join").close(); history.replaceState(null, "", "/"); ctx.openNewGame(); });
    $("dlg-join").addEventListener("cancel", (e) => { if (!S.state) e.preventDefault(); });
    // the browser knows first when the network goes and comes back
    window.addEventListener("offline", () => { if (live) live.conn.drop(); });
    window.addEventListener("online", () => { if (live) live.conn.kick(); });
  }

  /** Texts that depend on the language (after a change of language). */
  function translate() {
    buildQuick();
    if ($("dlg-new").open) onKindChange();
    if ($("dlg-join").open) showJoin($("join-state").hidden ? null : $("join-state").textContent);
  }

  return {
    wire, translate, buildForm, request, renderSeats, renderWaiting, syncLive, stopLive, liveActive, afterState,
    openInvite, keepSeat, dropSeat, tables, seatLabel, heldSeat: (gameId) => heldSeat(tables(), gameId),
  };
}
