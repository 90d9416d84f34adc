// Unit tests of the table's seats and of the live connection (run: node --test tests/js/):
// seat layout, presence, the creator's start rule, the seats of a new table, invite codes, the
// seats a browser holds, which state wins, and the live reader's reconnect with catch-up.
import test from "node:test";
import assert from "node:assert/strict";
import {
  seatLayout, seatPositions, presence, canStart, seatsRequest, cleanName, inviteCode, rememberSeat, heldSeat,
  forgetSeat, supersedes, withPresence, freshMessages, hasPeople, isWaiting, turnSeat, rematchOf, openSeats, creatorName,
  cardCount, rejoinLink, inviteTables, computerMovesForYou,
} from "../../src/ginrummy/web/static/seats.js";
import { backoff, sseParser, LiveConnection } from "../../src/ginrummy/web/static/live.js";

const seat = (n, kind, extra = {}) => ({ seat: n, kind, name: kind === "person" ? `P${n}` : null, level: kind === "computer" ? "hard" : null, connected: kind === "person", away: false, computer_for_away: false, ...extra });

test("the other seats sit around the person, clockwise from the left", () => {
  assert.deepEqual(seatLayout(2, 0), [1]);
  assert.deepEqual(seatLayout(2, 1), [0]);
  assert.deepEqual(seatLayout(4, 2), [3, 0, 1]);
  assert.deepEqual(seatLayout(3, 1), [2, 0]);
  assert.deepEqual(seatPositions(4, 2), { 3: "left", 0: "top", 1: "right" });
  assert.deepEqual(seatPositions(2, 1), { 0: "top" });
  assert.deepEqual(seatPositions(3, 0), { 1: "left", 2: "right" });
});

test("each seat's presence is one word", () => {
  assert.equal(presence(seat(0, "person"), 0), "you");
  assert.equal(presence(seat(1, "open"), 0), "open");
  assert.equal(presence(seat(1, "computer"), 0), "computer");
  assert.equal(presence(seat(1, "person"), 0), "connected");
  assert.equal(presence(seat(1, "person", { connected: false }), 0), "offline");
  assert.equal(presence(seat(1, "person", { connected: false, away: true }), 0), "away");
  assert.equal(presence(seat(1, "person", { away: true, computer_for_away: true }), 0), "computer_for_away");
  assert.equal(presence(null, 0), "open");
  assert.equal(presence(seat(1, "person", { left: true, connected: false }), 0), "left");
});

test("only the creator starts, and only when no seat is open", () => {
  const st = { you: 0, phase: "waiting", table: { status: "waiting", creator: true }, seats: [seat(0, "person"), seat(1, "open"), seat(2, "computer"), seat(3, "person")] };
  assert.ok(isWaiting(st) && hasPeople(st));
  assert.deepEqual(openSeats(st), [1]);
  assert.equal(canStart(st), false);
  const full = { ...st, seats: st.seats.map((s) => (s.kind === "open" ? seat(s.seat, "computer") : s)) };
  assert.equal(canStart(full), true);
  assert.equal(canStart({ ...full, table: { ...full.table, creator: false } }), false);
  assert.equal(canStart({ ...full, phase: "draw", table: { ...full.table, status: "playing" } }), false);
  assert.equal(hasPeople({ you: 0, seats: [seat(0, "person"), seat(1, "computer")] }), false);
  assert.equal(hasPeople({ you: 0 }), false);
});

test("every seat's card count is shown, at both tables of a partnership; none before the start", () => {
  const st = { phase: "draw", you: 0, table: { status: "playing", players: 4 },
    seats: [seat(0, "person", { card_count: 11 }), seat(1, "person", { card_count: 10 }),
      seat(2, "computer", { card_count: 10 }), seat(3, "computer", { card_count: 11 })] };
  assert.deepEqual([0, 1, 2, 3].map((n) => cardCount(st, n)), [11, 10, 10, 11]);
  const three = { phase: "opponent", you: 1, table: { status: "playing", players: 3 },
    seats: [seat(0, "person", { card_count: 10 }), seat(1, "person", { card_count: null }), seat(2, "computer", { card_count: 10 })] };
  assert.equal(cardCount(three, 1), null);  // sits this hand out
  assert.equal(cardCount({ ...st, phase: "waiting", table: { status: "waiting" } }, 1), null);
  assert.equal(cardCount({ phase: "draw", seats: [seat(0, "person")] }, 0), null);  // an older server
  assert.equal(cardCount(st, 7), null);
});

test("the turn marker sits on the seat to act, never at a hand's end or before the start", () => {
  assert.equal(turnSeat({ phase: "opponent", turn: 3, table: { status: "playing" } }), 3);
  assert.equal(turnSeat({ phase: "hand-over", turn: 1, table: { status: "playing" } }), null);
  assert.equal(turnSeat({ phase: "waiting", turn: 0, table: { status: "waiting" } }), null);
  assert.equal(turnSeat(null), null);
});

test("a new table asks for the creator's seat and the other seats as chosen", () => {
  assert.deepEqual(seatsRequest(2, ["open"]), [{ kind: "person" }, { kind: "open" }]);
  assert.deepEqual(seatsRequest(4, ["open", "easy"]), [{ kind: "person" }, { kind: "open" }, { kind: "computer", level: "easy" }, { kind: "open" }]);
  assert.deepEqual(seatsRequest(3, ["hard", "expert"]), [{ kind: "person" }, { kind: "computer", level: "hard" }, { kind: "computer", level: "expert" }]);
});

test("display names: stripped, 1 to 24 characters, no control or bidirectional characters", () => {
  assert.equal(cleanName("  Bo "), "Bo");
  assert.equal(cleanName(""), null);
  assert.equal(cleanName("   "), null);
  assert.equal(cleanName("x".repeat(24)), "x".repeat(24));
  assert.equal(cleanName("x".repeat(25)), null);
  assert.equal(cleanName("a\u202eb"), null);
  assert.equal(cleanName("a\u0000b"), null);
  assert.equal(cleanName("Siti Nurhaliza"), "Siti Nurhaliza");
});

test("the invite code comes from /join/<code> or ?join=<code>", () => {
  assert.equal(inviteCode("/join/AbC_12-xyz"), "AbC_12-xyz");
  assert.equal(inviteCode("/join/AbC_12-xyz/"), "AbC_12-xyz");
  assert.equal(inviteCode("/", "?join=Qwerty12"), "Qwerty12");
  assert.equal(inviteCode("/", ""), null);
  assert.equal(inviteCode("/join/<script>"), null);
  assert.equal(inviteCode("/join/a/b"), null);
});

test("a seat's own link comes from /rejoin/<game>/<seat>#<code>, the code after # only", () => {
  const code = "AbCdEfGhIjKlMnOpQrSt_-";
  assert.deepEqual(rejoinLink("/rejoin/g_1-x/2", `#${code}`), { game_id: "g_1-x", seat: 2, code });
  assert.deepEqual(rejoinLink("/rejoin/g1/0/", code), { game_id: "g1", seat: 0, code });
  assert.equal(rejoinLink("/rejoin/g1/0", ""), null);  // no code
  assert.equal(rejoinLink("/rejoin/g1/7", `#${code}`), null);  // no such seat
  assert.equal(rejoinLink("/rejoin/g1", `#${code}`), null);
  assert.equal(rejoinLink("/join/g1/0", `#${code}`), null);
  assert.equal(rejoinLink("/rejoin/g1/0", "#<script>"), null);
});

test("an invite leads to its last rematch; a seat held at an earlier table counts", () => {
  assert.deepEqual(inviteTables({ game_id: "c", earlier: ["a", "b"] }), ["c", "b", "a"]);
  assert.deepEqual(inviteTables({ game_id: "a" }), ["a"]);  // an older server: no `earlier`
  assert.deepEqual(inviteTables(null), []);
});

test("the moves the computer played for the person are counted once, after those said", () => {
  const st = { you: 1, events: [
    { seq: 3, seat: 1, type: "discard" }, { seq: 4, seat: 0, type: "draw_stock", by: "computer" },
    { seq: 5, seat: 1, type: "draw_stock", by: "computer" }, { seq: 6, seat: 1, type: "discard", by: "computer" }] };
  assert.deepEqual(computerMovesForYou(st), { count: 2, last: 6 });
  assert.deepEqual(computerMovesForYou(st, 5), { count: 1, last: 6 });
  assert.deepEqual(computerMovesForYou(st, 6), { count: 0, last: 0 });
  assert.deepEqual(computerMovesForYou(null), { count: 0, last: 0 });
});

test("a browser keeps one seat per table, most recent first, at most 30", () => {
  let m = rememberSeat({}, { game_id: "g1", token: "t1", seat: 1, name: "Bo" }, 1);
  m = rememberSeat(m, { game_id: "g2", token: "t2", seat: 0 }, 2);
  assert.equal(heldSeat(m, "g1").token, "t1");
  assert.equal(heldSeat(m, "g1").seat, 1);
  assert.equal(heldSeat(m, "g3"), null);
  assert.equal(heldSeat(null, "g1"), null);
  m = forgetSeat(m, "g1");
  assert.equal(heldSeat(m, "g1"), null);
  for (let i = 0; i < 40; i++) m = rememberSeat(m, { game_id: `x${i}`, token: "t" }, 10 + i);
  assert.equal(Object.keys(m).length, 30);
  assert.ok(heldSeat(m, "x39") && !heldSeat(m, "x0"));
});

test("an older state never replaces a newer one; the same seq does (presence, messages)", () => {
  const a = { game_id: "g", seq: 5 };
  assert.equal(supersedes(a, { game_id: "g", seq: 4 }), false);
  assert.equal(supersedes(a, { game_id: "g", seq: 5 }), true);
  assert.equal(supersedes(a, { game_id: "g", seq: 9 }), true);
  assert.equal(supersedes(a, { game_id: "h", seq: 9 }), false);
  assert.equal(supersedes(null, a), true);
  assert.equal(supersedes(a, null), false);
});

test("presence updates the seats; fresh quick messages are the ones not yet shown", () => {
  const st = { you: 1, seats: [seat(0, "person"), seat(1, "person")] };
  const next = withPresence(st, [{ seat: 0, connected: false, away: true }]);
  assert.equal(next.seats[0].away, true);
  assert.equal(next.seats[0].name, "P0");
  assert.equal(st.seats[0].away, false, "the shown state is not changed");
  const m1 = { seq_at: 3, seat: 0, message: "hello", at: 1 };
  const m2 = { seq_at: 3, seat: 1, message: "good_luck", at: 2 };
  assert.deepEqual(freshMessages({ messages: [m1] }, { messages: [m1, m2] }), [m2]);
  assert.deepEqual(freshMessages(null, { messages: [m1] }), [m1]);
  assert.equal(rematchOf({ table: { rematch: { game_id: "n" } } }), "n");
  assert.equal(rematchOf({ table: { rematch: null } }), null);
});

test("back-off: 0.5 s doubling to 8 s", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 9].map(backoff), [500, 1000, 2000, 4000, 8000, 8000, 8000]);
});

test("the SSE parser joins chunks, skips comments and keeps ids", () => {
  const p = sseParser();
  assert.deepEqual(p.push(": ping\n\nevent: state\nid: 7\nda"), []);
  assert.deepEqual(p.push('ta: {"seq": 7}\n\nevent: presence\r\ndata: {"seats": []}\r\n\r\n'), [
    { event: "state", id: "7", data: '{"seq": 7}' }, { event: "presence", id: null, data: '{"seats": []}' },
  ]);
  assert.deepEqual(p.push("data: a\ndata: b\n\n"), [{ event: "message", id: null, data: "a\nb" }]);
});

/** A fake fetch serving scripted streams: each call takes the next script (status, chunks, end). */
function fakeServer(scripts) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, auth: init.headers.Authorization });
    const s = scripts.shift();
    if (!s) {  // hangs until the connection is stopped (as fetch does, it rejects on abort)
      return new Promise((_, reject) => init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    }
    if (s.error) throw new TypeError("network");
    const enc = new TextEncoder();
    const chunks = [...(s.chunks || [])];
    const body = new ReadableStream({
      pull(ctrl) {  // one chunk per read, then the end (or the drop)
        if (chunks.length) ctrl.enqueue(enc.encode(chunks.shift()));
        else if (s.drop) ctrl.error(new TypeError("dropped"));
        else ctrl.close();
      },
    });
    return { status: s.status ?? 200, ok: (s.status ?? 200) < 300, body, headers: new Headers(s.headers || {}) };
  };
  return { fetch, calls };
}

test("the live connection applies states, reconnects with back-off and resumes from the last seq", async () => {
  const srv = fakeServer([
    { chunks: ['event: state\nid: 3\ndata: {"seq": 3}\n\n', 'event: presence\ndata: {"seats": [{"seat": 1, "away": true}]}\n\n'], drop: true },
    { error: true },
    { status: 503 },
    { chunks: ['event: state\nid: 5\ndata: {"seq": 5}\n\n'] },
  ]);
  let last = 0;
  const states = [];
  const presences = [];
  const statuses = [];
  const waits = [];
  const conn = new LiveConnection({
    gameId: "g1", token: "tok", since: () => last, fetch: srv.fetch,
    onState: (st) => { states.push(st.seq); last = st.seq; },
    onPresence: (seats) => presences.push(seats),
    onStatus: (s) => statuses.push(s),
    sleep: async (ms) => { waits.push(ms); if (waits.length > 6) conn.stop(); },
  });
  const run = conn.start();
  await new Promise((r) => setTimeout(r, 50));
  conn.stop();
  await run;
  assert.deepEqual(states, [3, 5]);
  assert.deepEqual(presences, [[{ seat: 1, away: true }]]);
  assert.deepEqual(srv.calls.map((c) => c.url), [
    "/api/games/g1/live?since=0", "/api/games/g1/live?since=3", "/api/games/g1/live?since=3",
    "/api/games/g1/live?since=3", "/api/games/g1/live?since=5",
  ]);
  assert.ok(srv.calls.every((c) => c.auth === "Bearer tok"), "the token goes in the header");
  assert.ok(srv.calls.every((c) => !c.url.includes("tok")), "never in the URL");
  // after the drop: 500, then (failed, 503) 1000, 2000; a stream that opened resets the back-off
  assert.deepEqual(waits, [500, 1000, 2000, 500]);
  assert.deepEqual(statuses.slice(0, 4), ["connecting", "live", "reconnecting", "live"]);
});

test("a stream refused as one too many waits its Retry-After; a replaced one the longest back-off", async () => {
  const srv = fakeServer([
    { status: 429, headers: { "Retry-After": "10" } },
    { chunks: ['event: state\nid: 2\ndata: {"seq": 2}\n\n', "event: replaced\ndata: {}\n\n"] },
    { chunks: ['event: state\nid: 2\ndata: {"seq": 2}\n\n'], drop: true },
  ]);
  const waits = [];
  const conn = new LiveConnection({
    gameId: "g", token: "tok", since: () => 0, fetch: srv.fetch,
    sleep: async (ms) => { waits.push(ms); if (waits.length > 2) conn.stop(); },
  });
  await conn.start();
  // 429: 10 s (over the 0.5 s back-off); replaced: 8 s; an ordinary drop: 0.5 s again
  assert.deepEqual(waits, [10000, 8000, 500]);
  assert.equal(srv.calls.length, 3);
});

test("a refused token ends the live connection", async () => {
  const srv = fakeServer([{ status: 401 }]);
  const statuses = [];
  const conn = new LiveConnection({ gameId: "g", token: "bad", since: () => 0, fetch: srv.fetch, onStatus: (s) => statuses.push(s), sleep: async () => {} });
  await conn.start();
  assert.deepEqual(statuses, ["connecting", "closed"]);
  assert.equal(srv.calls.length, 1);
});

test("creatorName names the table's creator to the others only", () => {
  const seats = [{ seat: 0, kind: "person", name: "Ann", creator: true }, { seat: 1, kind: "person", name: "Bo", you: true }];
  assert.equal(creatorName({ you: 1, table: { creator: false }, seats }), "Ann");
  assert.equal(creatorName({ you: 0, table: { creator: true }, seats: [{ ...seats[0], you: true }, { ...seats[1], you: false }] }), null);
  assert.equal(creatorName({ you: 1, table: { creator: false }, seats: [{ ...seats[0], left: true }, seats[1]] }), null);
  assert.equal(creatorName({ you: 1, table: { creator: false }, seats: [{ ...seats[0], name: " " }, seats[1]] }), null);
  assert.equal(creatorName({}), null);
});
