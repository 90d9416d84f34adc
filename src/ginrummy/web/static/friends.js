// Tables of people (docs/tables.md) on the game page, drawn from the page's state they are given
// (`p`, store.js): the friends' part of the new-game dialog (read back when the person deals),
// the waiting table (seats, invite link, start), the invite dialog (join with a name), the seats
// around the table (names, card counts, who is connected, whose turn, the turn clock), the
// creator's controls, the live connection's state and the quick messages' bubbles. Views only:
// session.js talks to the server (seats, start, join, rematch, leave, the live connection) and
// controls.js listens. The seat logic is in seats.js (pure). Names are always set as text, never
// as HTML.

import { $, el, toast } from "./page.js";
import { levelName, presetName, rulesSummary } from "./i18n.js";
import { playerName, scoringName } from "./variants.js";
import {
  QUICK_MESSAGES, TABLE_SIZES, seatsOf, seatOf, hasPeople, isWaiting, isCreator, canStart, seatLayout, presence,
  turnSeat, seatsRequest, cleanName, freshMessages, cardCount,
} from "./seats.js";
import { levelId } from "./model.js";

const CLOCKS = [null, 30, 60, 120, 300];

/** A seat in words at the table of `st`: "Open seat", a computer with its level, a person's name. */
export function seatLabel(st, n, t) {
  const s = seatOf(st, n);
  if (!s) return "";
  if (s.kind === "open") return t("friends.open_seat");
  if (s.kind === "computer") return `${computerName(st, n, t)} (${levelName(s.level, t)})`;
  return s.name || t("friends.seat_n", { n: n + 1 });
}

/** A computer's seat by the table's name for it (Computer, Computer 2, Opponent B, …). */
function computerName(st, n, t) {
  const players = (st.table && st.table.players) || seatsOf(st).length;
  if (players === 2) return t("table.computer");
  if (players === 4) return playerName(st, n, t);
  return t("vt.computer_n", { n });
}

/** A seat's relation to the person at a partnership table (partner / opponent), else "". */
function relation(st, n, t) {
  const players = (st.table && st.table.players) || seatsOf(st).length;
  const you = st.you ?? 0;
  if (players !== 4 || n === you) return "";
  return t((n - you) % 2 === 0 ? "friends.partner" : "friends.opponent");
}

const presenceText = (word, t) => t(`friends.presence.${word}`);

/** The computer levels the page offers (/api/meta). */
const levelsOf = (p) => ((p.meta && p.meta.levels) || []).map(levelId);

// ------------------------------------------------------------------ the new-game dialog
function buildClock(t) {
  const sel = $("new-clock");
  const prev = sel.value;
  sel.replaceChildren(...CLOCKS.map((c) => el("option", { value: c === null ? "" : String(c), text: c === null ? t("friends.clock_off") : t("friends.clock_s", { n: c }) })));
  sel.value = CLOCKS.map((c) => (c === null ? "" : String(c))).includes(prev) ? prev : "";
}

/**
 * The seat choices of the friends' table: one select per other seat (a friend or a computer),
 * keeping the choices shown, else those last dealt (`saved`, the new-game dialog's last choices).
 */
export function buildSeatChoices(p, saved) {
  const { t } = p;
  const scoring = $("new-scoring").value || "standard";
  const n = TABLE_SIZES[scoring] ?? 2;
  const box = $("new-seat-choices");
  const was = [...box.querySelectorAll("select")].map((s) => s.value);
  const last = ((saved || {}).seatChoices) || [];
  const kids = [];
  for (let i = 1; i < n; i++) {
    const rel = n === 4 ? t((i % 2 === 0) ? "friends.partner" : "friends.opponent") : "";
    const label = rel ? t("friends.seat_rel", { n: i + 1, rel }) : t("friends.seat_n", { n: i + 1 });
    const sel = el("select", { id: `new-seat-${i}`, "data-testid": `seat-choice-${i}`, "data-seat": String(i) },
      el("option", { value: "open", text: t("friends.a_friend") }),
      levelsOf(p).map((l) => el("option", { value: l, text: t("friends.computer_level", { level: levelName(l, t) }) })));
    const want = was[i - 1] ?? last[i - 1] ?? "open";
    sel.value = [...sel.options].some((o) => o.value === want) ? want : "open";
    kids.push(el("label", {}, el("span", { text: label }), sel));
  }
  box.replaceChildren(...kids);
}

/** The kind of table chosen (the computer or friends): the friends' part shown or hidden, filled. */
export function onKindChange(p, { newGame, name }) {
  const { t } = p;
  const friends = $("new-kind").value === "friends";
  $("new-friends").hidden = !friends;
  $("new-level-wrap").hidden = friends;
  $("new-name").required = friends;
  $("new-start").textContent = t(friends ? "friends.create" : "new.start");
  if (friends) {
    buildClock(t);
    buildSeatChoices(p, newGame);
    if (!$("new-name").value) $("new-name").value = name || "";
  }
}

/** The dialog's friends part after a (re)build: the kind as last dealt (`reset`), seats, clock. */
export function buildFriendsForm(p, reset, remembered) {
  if (reset) $("new-kind").value = (remembered.newGame || {}).kind === "friends" ? "friends" : "computer";
  onKindChange(p, remembered);
}

/**
 * The extra body of POST /api/games for a friends' table ({seats, name, turn_clock, _choices}),
 * null at a game against the computer; throws an Error with a translated message on a bad name.
 */
export function readFriendsForm(p) {
  if ($("new-kind").value !== "friends") return null;
  const name = cleanName($("new-name").value);
  if (!name) throw new Error(p.t("friends.bad_name"));
  const n = TABLE_SIZES[$("new-scoring").value || "standard"] ?? 2;
  const choices = [];
  for (let i = 1; i < n; i++) choices.push($(`new-seat-${i}`).value);
  const clock = $("new-clock").value;
  return { seats: seatsRequest(n, choices), name, turn_clock: clock === "" ? null : Number(clock), _choices: choices };
}

// ------------------------------------------------------------------ the seats around the table
/** The strip of seats around the table (and the person's own name) at a table of people. */
export function drawSeats(p, opponentSeat) {
  const { t, state: st } = p;
  const strip = $("seats-strip");
  const people = !!(st && seatsOf(st).length && (hasPeople(st) || isWaiting(st)));
  strip.hidden = !people;
  $("table").classList.toggle("people", people);
  // the chips say each seat's name, card count and dealer mark: the opponent's place below them
  // does not say them again (issue 21 item 16)
  $("opp").classList.toggle("chipped", people && !isWaiting(st));
  if (!people) { $("turn-left").hidden = true; return; }
  const you = st.you ?? 0;
  const players = (st.table && st.table.players) || seatsOf(st).length;
  const turn = turnSeat(st);
  const chips = seatLayout(players, you).map((n) => {
    const s = seatOf(st, n) || { seat: n, kind: "open" };
    const word = presence(s, you);
    const kids = [
      el("span", { class: `dot p-${word}`, "aria-hidden": "true" }),
      el("b", { class: "chip-name", text: seatLabel(st, n, t) }),
    ];
    const rel = s.kind === "computer" ? "" : relation(st, n, t);  // a computer's name says it already
    if (rel) kids.push(el("small", { class: "rel", text: rel }));
    if (s.kind === "person") kids.push(el("span", { class: "chip-presence", "data-presence": word, text: presenceText(word, t) }));
    const cards = cardCount(st, n);
    if (cards !== null) kids.push(el("small", { class: "chip-count", "data-testid": "seat-cards", text: t("table.cards", { n: cards }) }));
    if (!isWaiting(st) && st.dealer === n) kids.push(el("span", { class: "chip dealer-chip", "data-testid": "seat-dealer", text: t("table.dealer") }));
    if (n === turn) kids.push(el("span", { class: "chip-turn", text: t("friends.to_play") }));
    // the server says who may: the creator once the seat is away, anyone a while later
    if (!isWaiting(st) && s.kind === "person" && s.hand_over) {
      kids.push(el("button", { type: "button", class: "btn small", "data-testid": "hand-to-computer", "data-seat": String(n), text: t("friends.hand_to_computer") }));
    }
    kids.push(el("span", { class: "bubble chip-bubble", id: `bubble-${n}`, "aria-hidden": "true" }));
    return el("li", { class: `seat-chip${n === turn ? " turn" : ""}`, "data-seat": String(n), "data-presence": word, "aria-current": n === turn ? "true" : null }, kids);
  });
  $("seat-chips").replaceChildren(...chips);
  const mine = seatOf(st, you);
  $("btn-take-back").hidden = !(mine && mine.computer_for_away);
  $("quick").hidden = isWaiting(st) && seatsOf(st).filter((s) => s.kind === "person").length < 2;
  $("btn-leave").hidden = isWaiting(st) && isCreator(st);
  drawSeatLink(st);  // the creator of a waiting table starts another game instead
  drawConn(p);
  drawClock(st, t);
  $("me-name").textContent = mine && mine.name ? `${mine.name} (${t("table.you")})` : t("table.you");
}

/** Seconds left on the turn clock (0 at the deadline), null without a clock. */
function clockLeft(st) {
  const tb = st && st.table;
  if (!tb || !tb.turn_deadline || !tb.turn_clock) return null;
  return Math.max(0, Math.min(tb.turn_clock, Math.ceil(tb.turn_deadline - Date.now() / 1000)));
}

let clockTimer = null;
/** The turn clock under the status and on the turn marker, each second while it runs (the state it was given). */
function drawClock(st, t) {
  const left = clockLeft(st);
  const box = $("turn-left");
  box.hidden = left === null;
  const text = left === null ? "" : t("friends.clock_left", { n: left });
  box.textContent = text;
  box.classList.toggle("urgent", left !== null && left <= 10);
  for (const e of document.querySelectorAll(".seat-chip.turn .chip-turn")) e.textContent = left === null ? t("friends.to_play") : `${t("friends.to_play")} · ${text}`;
  clearTimeout(clockTimer);
  if (left !== null && left > 0) clockTimer = setTimeout(() => drawClock(st, t), 1000);
}

/** The live connection's trouble, said over the table: reconnecting, or closed. */
export function drawConn(p) {
  const box = $("conn");
  const show = p.conn === "reconnecting" || p.conn === "closed";
  box.hidden = !show;
  box.dataset.state = p.conn || "";
  box.textContent = show ? p.t(p.conn === "closed" ? "friends.conn_closed" : "friends.reconnecting") : "";
}

// ------------------------------------------------------------------ the waiting table
export function drawWaiting(p) {
  const { t, state: st } = p;
  const waiting = !!(st && isWaiting(st));
  $("waiting").hidden = !waiting;
  $("table").classList.toggle("is-waiting", waiting);
  if (!waiting) return;
  const you = st.you ?? 0;
  const creator = isCreator(st);
  const tb = st.table || {};
  $("waiting-sub").textContent = [scoringName(tb.scoring || st.scoring || "standard", t), presetName((st.rules || {}).preset || "standard", t)]
    .filter((x, i, a) => a.indexOf(x) === i).join(" · ");
  $("waiting-seats").replaceChildren(...seatsOf(st).map((s) => waitingSeat(p, s, you, creator)));
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
  start.disabled = !canStart(st) || p.busy;
  const open = seatsOf(st).filter((s) => s.kind === "open").length;
  $("waiting-note").textContent = creator
    ? (open ? t("friends.open_left", { n: open }) : t("friends.all_seated"))
    : t("friends.creator_starts");
}

function waitingSeat(p, s, you, creator) {
  const { t, state: st } = p;
  const word = presence(s, you);
  const row = [el("span", { class: `dot p-${word}`, "aria-hidden": "true" }), el("b", { text: s.seat === you ? `${s.name || ""} (${t("table.you")})` : seatLabel(st, s.seat, t) })];
  const rel = s.kind === "computer" ? "" : relation(st, s.seat, t);
  if (rel) row.push(el("small", { class: "rel", text: rel }));
  if (s.creator) row.push(el("small", { class: "tag", text: t("friends.creator") }));
  if (s.kind === "person" && s.seat !== you) row.push(el("span", { class: "chip-presence", "data-presence": word, text: presenceText(word, t) }));
  if (creator && s.kind !== "person") {
    const sel = el("select", { "data-testid": `seat-kind-${s.seat}`, "aria-label": t("friends.seat_n", { n: s.seat + 1 }) },
      el("option", { value: "open", text: t("friends.a_friend") }),
      levelsOf(p).map((l) => el("option", { value: l, text: t("friends.computer_level", { level: levelName(l, t) }) })));
    sel.value = s.kind === "open" ? "open" : s.level;
    row.push(sel);
  }
  return el("li", { "data-seat": String(s.seat), "data-kind": s.kind, "data-presence": word }, row);
}

function absoluteUrl(u) {
  try { return new URL(u, location.origin).href; } catch { return u; }
}

/**
 * The person's own link back to their seat from another device (`table.rejoin`, to them only:
 * docs/tables.md "A seat follows its person"), in the table's tools; hidden without one.
 */
function drawSeatLink(st) {
  const link = st && st.table && st.table.rejoin;
  $("seat-link").hidden = !link;
  if (!link) { $("seat-link").open = false; return; }
  const url = absoluteUrl(link.url);
  if ($("rejoin-link").href !== url) {
    $("rejoin-link").href = url;
    $("rejoin-link").textContent = url;
  }
}

/** Copy the invite link, or the link of element `id` (selected for a manual copy where there is no clipboard). */
export async function copyInvite(t, id = "invite-link") {
  const url = $(id).href;
  try {
    await navigator.clipboard.writeText(url);
    toast(t("friends.copied"));
  } catch {
    // no clipboard (an insecure origin, a refused permission): select the link for a manual copy
    const r = document.createRange();
    r.selectNodeContents($(id));
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(r);
    toast(t("friends.copy_manual"));
  }
}

/** Share the invite link (the system's share sheet, where there is one). */
export async function shareInvite(t) {
  try { await navigator.share({ title: t("app.title"), text: t("friends.share_text"), url: $("invite-link").href }); } catch { /* closed */ }
}

// ------------------------------------------------------------------ quick messages
export function drawQuick(p) {
  const { t } = p;
  $("quick-list").replaceChildren(...QUICK_MESSAGES.map((m) => el("button", {
    type: "button", class: "btn small", "data-testid": `quick-${m}`, text: t(`quick.${m}`),
  })));
}

const bubbleTimers = {};
/**
 * Show the quick messages of `st` that `prev` did not have as bubbles by their seats (for four
 * seconds); the words to announce, one per message ("Bo: Good luck!").
 */
export function showMessages(prev, st, t, opponentSeat) {
  if (!prev || prev.game_id !== st.game_id) return [];
  const you = st.you ?? 0;
  const said = [];
  for (const m of freshMessages(prev, st)) {
    const text = t(`quick.${m.message}`, null, m.message);
    const box = m.seat === you ? $("me-bubble") : $(`bubble-${m.seat}`) || (m.seat === opponentSeat ? $("opp-bubble") : null);
    said.push(`${playerName(st, m.seat, t)}: ${text}`);
    if (!box) continue;
    box.textContent = text;
    box.classList.add("show", "chat");
    box.dataset.message = m.message;
    clearTimeout(bubbleTimers[m.seat]);
    bubbleTimers[m.seat] = setTimeout(() => { box.classList.remove("show", "chat"); }, 4000);
  }
  return said;
}

// ------------------------------------------------------------------ the invite dialog
/**
 * The invite dialog for `p.invite` ({code, data: the invite's answer or null, problem: why one
 * cannot sit, in words, or null}): the table, its rules and seats, the name field or why not.
 * `name`: the person's last name, put in an empty field.
 */
export function drawJoin(p, name) {
  const { t } = p;
  const inv = p.invite && p.invite.data;
  const problem = p.invite && p.invite.problem;
  $("join-error").hidden = true;
  $("join-name").removeAttribute("aria-invalid");
  const closed = inv && (inv.full || (inv.status !== "waiting" && !(inv.seats || []).some((s) => s.kind === "open")));
  const why = problem || (closed ? t(inv.status === "waiting" ? "join.full" : inv.status === "over" ? "join.over" : "join.started") : null);
  // the title says why one cannot sit, else whose table it is (seat 0: its creator)
  const whyCode = (p.invite && p.invite.why) || (closed ? (inv.status === "waiting" ? "full" : inv.status === "over" ? "over" : "started") : problem ? "closed" : null);
  const host = inv && (inv.seats || []).find((s) => s.seat === 0 && s.kind === "person" && s.name);
  $("join-h").textContent = whyCode ? t(`join.title_${whyCode}`) : host ? t("join.title_named", { name: host.name }) : t("join.title");
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
    const picked = choosing ? (open.includes(readJoinSeat()) ? readJoinSeat() : open[0]) : null;
    $("join-choose").hidden = !choosing;
    $("join-seats").setAttribute("role", choosing ? "radiogroup" : "list");
    if (choosing) $("join-seats").setAttribute("aria-labelledby", "join-choose");
    else $("join-seats").removeAttribute("aria-labelledby");
    $("join-seats").replaceChildren(...(inv.seats || []).map((s) => {
      const label = s.kind === "open" ? t("friends.open_seat") : s.kind === "computer" ? `${computerName(pseudo, s.seat, t)} (${levelName(s.level, t)})` : (s.name || t("friends.seat_n", { n: s.seat + 1 }));
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
  if (!$("join-name").value) $("join-name").value = name || "";
  return !why;
}

/** Open the invite dialog drawn for `p.invite`; the name field focused when one may sit. */
export function openJoin(p, name) {
  const canSit = drawJoin(p, name);
  const dlg = $("dlg-join");
  if (!dlg.open) dlg.showModal();
  if (canSit) $("join-name").focus();
}

/** The open seat chosen in the invite dialog (null: no choice offered). */
export function readJoinSeat() {
  const r = document.querySelector("#join-seats input[name=join-seat]:checked");
  return r ? Number(r.value) : null;
}

/** The name typed in the invite dialog as the server will keep it, or null (said under the field). */
export function readJoinName(p) {
  const name = cleanName($("join-name").value);
  if (!name) showJoinError(p.t("friends.bad_name"));
  return name;
}

/** The invite dialog's error line (null: none); `field`: the name is the problem (marked, focused for another try). */
export function showJoinError(text, { field = false } = {}) {
  const err = $("join-error");
  err.textContent = text || "";
  err.hidden = !text;
  if (field) {
    $("join-name").setAttribute("aria-invalid", "true");
    $("join-name").focus();
    $("join-name").select();
  }
}

/** The Take a seat button while the seat is asked for (off), and after. */
export function joining(on) {
  $("join-submit").disabled = on;
}
