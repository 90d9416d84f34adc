// The live connection of a table (docs/tables.md "Live"): GET /api/games/{id}/live?since=N read
// with fetch (the seat's token goes in the Authorization header, never in a URL), parsed as
// Server-Sent Events; a dropped stream is retried with back-off (0.5 s doubling to 8 s) and
// resumed from the last sequence number the page rendered, so a lost message costs latency, never
// data; a refused stream (429) waits at least its Retry-After. No DOM: `fetch`, the clock and the
// sleeps are injectable (tests/js/live.test.mjs).

/** The wait before retry number `attempt` (0 first): 500 ms doubling, at most 8 s. */
export function backoff(attempt) {
  return Math.min(8000, 500 * 2 ** Math.max(0, attempt | 0));
}

/** The first attempt whose back-off is the longest. */
const MAX_ATTEMPT = 4;

/** The `Retry-After` of an answer in ms (seconds given; 0 when absent or unreadable). */
export function retryAfterMs(headers) {
  const s = Number((headers && headers.get && headers.get("Retry-After")) || 0);
  return Number.isFinite(s) && s > 0 ? Math.min(s, 600) * 1000 : 0;
}

/**
 * An incremental Server-Sent Events parser. `push(text)` returns the complete messages in it
 * (`{event, id, data}`; `event` defaults to "message"; comment lines such as `: ping` are
 * skipped); a partial message waits for the next push.
 */
export function sseParser() {
  let buf = "";
  let ev = { event: "message", id: null, data: [] };
  return {
    push(text) {
      buf += text;
      const out = [];
      let nl;
      while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + (buf[nl] === "\r" && buf[nl + 1] === "\n" ? 2 : 1));
        if (line === "") {
          if (ev.data.length) out.push({ event: ev.event, id: ev.id, data: ev.data.join("\n") });
          ev = { event: "message", id: null, data: [] };
          continue;
        }
        if (line.startsWith(":")) continue;
        const i = line.indexOf(":");
        const field = i < 0 ? line : line.slice(0, i);
        let value = i < 0 ? "" : line.slice(i + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "event") ev.event = value;
        else if (field === "data") ev.data.push(value);
        else if (field === "id") ev.id = value;
      }
      return out;
    },
  };
}

/**
 * One table's live connection. `opts`: `gameId`, `token`, `since()` (the last seq the page
 * rendered), `onState(state)`, `onPresence(seats)`, `onStatus(status)` ("connecting", "live",
 * "reconnecting", "closed": the seat's token no longer works), and optionally `fetch`, `sleep`.
 * `start()` runs until `stop()`.
 */
export class LiveConnection {
  constructor(opts) {
    this.o = opts;
    this.fetch = opts.fetch || ((...a) => globalThis.fetch(...a));
    this.sleep = opts.sleep || ((ms) => new Promise((r) => { this.wake = r; setTimeout(r, ms); }));
    this.wake = null;
    this.silence = opts.silence ?? 40000;  // no byte for this long (the server pings every 15 s): a dead stream
    this.stopped = false;
    this.attempt = 0;
    this.ctrl = null;
    this.status = "idle";
    this.opened = 0;  // streams opened (for tests and the indicator)
    this.retryAfter = 0;  // ms the server asked to wait before the next try
  }

  setStatus(s) {
    if (s === this.status) return;
    this.status = s;
    if (this.o.onStatus) this.o.onStatus(s);
  }

  url() {
    return `/api/games/${encodeURIComponent(this.o.gameId)}/live?since=${this.o.since() | 0}`;
  }

  /** Read streams until stopped: each ends (or fails) into a retry after `backoff`. */
  async start() {
    this.setStatus("connecting");
    while (!this.stopped) {
      let fatal = false;
      try {
        fatal = await this.readOnce();
      } catch {
        fatal = false;
      }
      if (this.stopped) break;
      if (fatal) { this.setStatus("closed"); break; }
      this.setStatus("reconnecting");
      // the server's Retry-After (too many streams) when it asks for longer than the back-off
      const wait = Math.max(backoff(this.attempt), this.retryAfter);
      this.retryAfter = 0;
      await this.sleep(wait);
      this.attempt += 1;
    }
  }

  /** One stream: true when retrying is pointless (the token is refused, the game is gone). */
  async readOnce() {
    this.ctrl = new AbortController();
    const res = await this.fetch(this.url(), {
      headers: { Accept: "text/event-stream", Authorization: `Bearer ${this.o.token}` },
      signal: this.ctrl.signal, cache: "no-store", credentials: "same-origin",
    });
    if ([401, 403, 404, 410].includes(res.status)) return true;
    if (res.status === 429) this.retryAfter = retryAfterMs(res.headers);
    if (!res.ok || !res.body) return false;
    this.opened += 1;
    this.attempt = 0;
    this.setStatus("live");
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    const parser = sseParser();
    const ctrl = this.ctrl;
    let watchdog = null;
    const arm = () => {
      clearTimeout(watchdog);
      if (this.silence > 0) watchdog = setTimeout(() => ctrl.abort(), this.silence);
    };
    try {
      arm();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || this.stopped) break;
        arm();
        for (const m of parser.push(dec.decode(value, { stream: true }))) this.dispatch(m);
      }
    } finally {
      clearTimeout(watchdog);
    }
    return false;
  }

  /** The network is gone (the browser says so): end the stream now, retry with back-off. */
  drop() {
    if (this.ctrl) { try { this.ctrl.abort(); } catch { /* already closed */ } }
  }

  /** The network is back: retry at once instead of waiting out the back-off. */
  kick() {
    this.attempt = 0;
    if (this.wake) { const w = this.wake; this.wake = null; w(); }
  }

  dispatch(m) {
    let data;
    try { data = JSON.parse(m.data); } catch { return; }
    if (m.event === "state" && this.o.onState) this.o.onState(data, m.id === null ? null : Number(m.id));
    else if (m.event === "presence" && this.o.onPresence) this.o.onPresence(data.seats || []);
    // a newer stream of this seat (another tab, or this page reloaded) took this one's place:
    // try again only after the longest back-off, so that tabs beyond the server's bound per
    // seat do not take turns replacing each other
    else if (m.event === "replaced") this.attempt = Math.max(this.attempt, MAX_ATTEMPT);
  }

  stop() {
    this.stopped = true;
    if (this.ctrl) { try { this.ctrl.abort(); } catch { /* already closed */ } }
  }
}
