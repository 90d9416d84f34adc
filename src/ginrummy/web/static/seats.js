// The table's seats as the page sees them (docs/tables.md): who sits where, who is to act, who is
// connected, what the creator may change, the seats a new table asks for, the invite code in the
// page's address, the seats this browser holds, and which server state replaces the one shown.
// Pure: no DOM, no I/O (unit-tested by tests/js/seats.test.mjs). The server is the authority.

export const QUICK_MESSAGES = ["hello", "good_luck", "good_game", "well_played", "thanks", "oops", "wait", "rematch"];

/** Seat counts of the tables a person can set up with friends (the new-game dialog's choice). */
export const TABLE_SIZES = { standard: 2, three_player: 3, partnership: 4 };

/** The state's seat list (empty for a state without seats, e.g. an older server). */
export const seatsOf = (st) => (st && Array.isArray(st.seats) ? st.seats : []);

/** The seat entry `n` of the state, or null. */
export function seatOf(st, n) {
  return seatsOf(st).find((s) => s.seat === n) || null;
}

/** A table with another person at it (or a seat open for one): the live connection is used. */
export function hasPeople(st) {
  const you = st ? st.you ?? 0 : 0;
  return seatsOf(st).some((s) => s.seat !== you && (s.kind === "person" || s.kind === "open"));
}

/** The table is waiting for its people (before the start). */
export function isWaiting(st) {
  return !!(st && ((st.table && st.table.status === "waiting") || st.phase === "waiting"));
}

/** This person created the table (the creator's rights: seats, start, away seats, rematch). */
export function isCreator(st) {
  return !!(st && st.table && st.table.creator);
}

/**
 * The display name of the table's creator as another person sees it, or null when the state
 * names no creator seat, the creator is this person, or the creator has left the table.
 */
export function creatorName(st) {
  const c = seatsOf(st).find((s) => s.creator);
  if (!c || c.you || c.left || isCreator(st)) return null;
  return typeof c.name === "string" && c.name.trim() ? c.name : null;
}

/** The open seats (waiting for a person). */
export const openSeats = (st) => seatsOf(st).filter((s) => s.kind === "open").map((s) => s.seat);

/** The creator may start the table: it is waiting and no seat is open. */
export function canStart(st) {
  return isCreator(st) && isWaiting(st) && seatsOf(st).length > 0 && openSeats(st).length === 0;
}

/**
 * The other seats in the order they sit around the person, clockwise from the person's left
 * (the person is drawn at the bottom): for seat 2 of four, [3, 0, 1].
 */
export function seatLayout(players, you) {
  const n = Math.max(1, players | 0);
  const out = [];
  for (let i = 1; i < n; i++) out.push((you + i) % n);
  return out;
}

/** Where each other seat is drawn around the person: left / top / right (two players: top). */
export function seatPositions(players, you) {
  const order = seatLayout(players, you);
  if (order.length === 1) return { [order[0]]: "top" };
  if (order.length === 2) return { [order[0]]: "left", [order[1]]: "right" };
  return Object.fromEntries(order.map((s, i) => [s, ["left", "top", "right"][i] || "top"]));
}

/**
 * A seat's presence, one word: `you`, `open`, `computer` (a computer's seat), `left` (its person
 * left the table: a computer plays it), `computer_for_away` (a computer plays for its away
 * person), `away`, `connected`, `offline` (a person not connected, not yet away).
 */
export function presence(seat, you) {
  if (!seat) return "open";
  if (seat.seat === you) return "you";
  if (seat.kind === "open") return "open";
  if (seat.kind === "computer") return "computer";
  if (seat.left) return "left";
  if (seat.computer_for_away) return "computer_for_away";
  if (seat.away) return "away";
  return seat.connected ? "connected" : "offline";
}

/**
 * How many cards seat `n` holds now (every seat's count is public, at both tables of a
 * partnership), or null: before the start, for a seat sitting this hand out, or an older server.
 */
export function cardCount(st, n) {
  if (isWaiting(st)) return null;
  const s = seatOf(st, n);
  return s && Number.isInteger(s.card_count) ? s.card_count : null;
}

/** The seat whose move the table waits for (null at a hand's end or before the start). */
export function turnSeat(st) {
  if (!st || isWaiting(st) || st.phase === "hand-over" || st.phase === "game-over") return null;
  return st.turn ?? null;
}

/**
 * The `seats` of POST /api/games for a table of `players` seats: seat 0 the creator (a person),
 * each other seat `choices[i]` ("open" or a computer level; missing: open).
 */
export function seatsRequest(players, choices = []) {
  const out = [{ kind: "person" }];
  for (let i = 1; i < players; i++) {
    const c = choices[i - 1] ?? "open";
    out.push(c === "open" ? { kind: "open" } : { kind: "computer", level: c });
  }
  return out;
}

/** A display name as the server will keep it (docs/tables.md): stripped; null when refused. */
export function cleanName(name) {
  const s = String(name ?? "").trim();
  if (!s || [...s].length > 24) return null;
  if (/[\p{C}]/u.test(s)) return null;
  return s;
}

/**
 * The invite code in the page's address: `/join/<code>` (the invite URL) or `?join=<code>`;
 * null when there is none.
 */
export function inviteCode(pathname, search = "") {
  const m = /^\/join\/([A-Za-z0-9_-]{4,128})\/?$/.exec(pathname || "");
  if (m) return m[1];
  const q = new URLSearchParams(search || "").get("join");
  return q && /^[A-Za-z0-9_-]{4,128}$/.test(q) ? q : null;
}

/**
 * A seat's own link in the page's address (`/rejoin/{game_id}/{seat}#{code}`, docs/tables.md
 * "A seat follows its person"): {game_id, seat, code}, or null for any other address. The code
 * is after `#`: no server log ever holds it.
 */
export function rejoinLink(pathname, hash = "") {
  const m = /^\/rejoin\/([A-Za-z0-9_-]{1,64})\/([0-3])\/?$/.exec(pathname || "");
  const code = String(hash || "").replace(/^#/, "");
  if (!m || !/^[A-Za-z0-9_-]{8,64}$/.test(code)) return null;
  return { game_id: m[1], seat: Number(m[2]), code };
}

/**
 * The tables an invite's answer leads to, newest first: its table (the last rematch) and the
 * tables before it (`earlier`, oldest first in the answer). A seat this browser holds at any of
 * them is its seat at the newest too (a rematch keeps the seats' tokens).
 */
export function inviteTables(data) {
  if (!data || typeof data.game_id !== "string") return [];
  const earlier = Array.isArray(data.earlier) ? data.earlier.filter((g) => typeof g === "string") : [];
  return [data.game_id, ...earlier.reverse()];
}

/**
 * The moves a computer played for the person's own seat (`"by": "computer"`: the seat handed to
 * it while they were away, or their turn clock run out) among the events of `st` numbered after
 * `after`: {count, last} (the last one's number; 0 when none).
 */
export function computerMovesForYou(st, after = 0) {
  const you = st ? st.you ?? 0 : 0;
  const mine = ((st && st.events) || []).filter((e) => e.by === "computer" && e.seat === you && (e.seq ?? 0) > after);
  return { count: mine.length, last: Math.max(0, ...mine.map((e) => e.seq ?? 0)) };
}

// ---------------------------------------------------------------- seats this browser holds
/** The seats map after taking seat `entry` ({game_id, token, seat, name?}); a new object. */
export function rememberSeat(map, entry, now = Date.now()) {
  const out = { ...(map || {}) };
  out[entry.game_id] = { game_id: entry.game_id, token: entry.token, seat: entry.seat ?? 0, name: entry.name ?? null, at: now };
  // keep the 30 most recent tables
  const ids = Object.keys(out).sort((a, b) => (out[b].at || 0) - (out[a].at || 0));
  for (const id of ids.slice(30)) delete out[id];
  return out;
}

/** The seat this browser holds at `gameId` ({game_id, token, seat}) or null. */
export function heldSeat(map, gameId) {
  const e = map && gameId ? map[gameId] : null;
  return e && e.token ? e : null;
}

/** The seats map without `gameId`. */
export function forgetSeat(map, gameId) {
  const out = { ...(map || {}) };
  delete out[gameId];
  return out;
}

// ---------------------------------------------------------------- which state wins
/**
 * Whether a state from the server replaces the one shown: another game's state never does; an
 * older sequence number never does (a late answer or a replayed message); the same sequence
 * number does (it may carry seats, presence or quick messages).
 */
export function supersedes(shown, incoming) {
  if (!incoming) return false;
  if (!shown) return true;
  if (shown.game_id !== incoming.game_id) return false;
  return (incoming.seq ?? 0) >= (shown.seq ?? 0);
}

/** The state with the seats of a `presence` message (a new object; same state when none). */
export function withPresence(st, seats) {
  if (!st || !Array.isArray(seats)) return st;
  const you = st.you ?? 0;
  const byNo = new Map(seats.map((s) => [s.seat, s]));
  return { ...st, seats: seatsOf(st).map((s) => (byNo.has(s.seat) ? { ...s, ...byNo.get(s.seat), you: s.seat === you } : s)) };
}

/** The quick messages of `st` not in `shown` (by seq_at, seat, code and time), oldest first. */
export function freshMessages(shown, st) {
  const key = (m) => `${m.seq_at}|${m.seat}|${m.message}|${m.at}`;
  const seen = new Set(((shown && shown.messages) || []).map(key));
  return ((st && st.messages) || []).filter((m) => !seen.has(key(m)));
}

/** The new table's id when the creator started a rematch (`table.rematch`), else null. */
export function rematchOf(st) {
  const r = st && st.table && st.table.rematch;
  return r && r.game_id ? r.game_id : null;
}
