"""The routes of tables of people (docs/tables.md): invites and joining, seats, start, leave,
rematch, quick messages, and the live stream (Server-Sent Events) of a seat.

``install_tables(app, seating, hub, ...)`` adds them to the web game's app; the operations are
:class:`ginrummy.web.tables.seats.Seats`'s (the table service's companion for the seats).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from ...store import is_outage
from ..http.encoding import JSONAnswer, dumps
from ..http.errors import NotFound, RateLimited
from ..http.schemas import (
    ErrorOut,
    JoinIn,
    MalformedOut,
    MessageIn,
    RejoinIn,
    SeatPut,
    error_response,
)
from ..http.tokens import token_hash
from ..http.workers import Workers
from ..live.hub import LiveHub
from ..live.presence import Lease, PresenceKeeper
from ..live.streams import Slot, StreamGate
from ..tables.seats import LiveView, Seats

__all__ = ["install_tables", "PING_EVERY", "PRESENCE_EVERY", "CHECK_EVERY"]

log = logging.getLogger("ginrummy.web")

#: seconds between two ``: ping`` comments of a quiet stream.
PING_EVERY = 15.0
#: seconds between two refreshes of a stream's presence in the store.
PRESENCE_EVERY = 10.0
#: seconds between two looks at the table with neither a notification nor a change due with
#: time (away seats, presence leases and the turn clock wake a stream when they are due): a
#: safety net for a notification missed.
CHECK_EVERY = 30.0


def _doc(*statuses: int) -> dict[int | str, dict[str, Any]]:
    what = {403: (ErrorOut, "only the table's creator may do this (not_creator)"),
            404: (ErrorOut, "no such game or invite, or not this token's"),
            409: (ErrorOut, "table_full, seat_taken, started, seats_open, not_waiting, not_away, "
                      "creator"),
            413: (ErrorOut, "body too large"),
            422: (ErrorOut | MalformedOut, "a bad name, seat, level or message, or a "
                                           "malformed body"),
            429: (ErrorOut, "rate limited (header Retry-After)")}
    return {s: {"model": what[s][0], "description": what[s][1]} for s in statuses}


def _sse(event: str | None, data: Any, ident: int | None = None) -> bytes:
    """One Server-Sent Event: its ``event`` and ``id`` lines and ``data`` as one line of JSON
    (UTF-8; JSON text has no line break)."""
    lines = []
    if event:
        lines.append(f"event: {event}")
    if ident is not None:
        lines.append(f"id: {ident}")
    head = "".join(f"{line}\n" for line in lines).encode()
    return head + b"data: " + dumps(data) + b"\n\n"


def _presence(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keys = ("seat", "kind", "name", "connected", "away", "left", "computer_for_away",
            "hand_over")
    return [{k: s.get(k) for k in keys} for s in seats]


class _LiveResponse(StreamingResponse):
    """A live stream's answer: ``release`` is called once it has ended, however it ended (its
    stream may never have started, when the client went away at once)."""

    def __init__(self, content: AsyncIterator[bytes], *, release: Callable[[], None],
                 **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


def install_tables(app: FastAPI, seating: Seats, hub: LiveHub, workers: Workers, *,
                   bearer: Callable[[str | None], str | None],
                   limited: Callable[[Request, str], Response | None],
                   page: Callable[[Request, str | None, str, str], Response],
                   gate: StreamGate | None = None) -> None:
    """Add the table routes. ``workers``: the threads of the live streams' reads and writes;
    ``gate``: the bounds on this process's live streams (default: ``$GINRUMMY_LIVE_LIMITS``);
    ``limited(request, reason)``: the 429 answer when the client made too many tables or joins
    (the limits of new games), else None; ``page``: serves a page of the front end."""
    seating.svc.store.add_listener(hub.notify, on_resync=hub.resync)
    gate = StreamGate() if gate is None else gate
    app.state.streams = gate

    async def refresh(keys: list[tuple[str, int, str]]) -> set[tuple[str, int, str]]:
        return await workers.call(seating.refresh_presence_many, keys)

    keeper = PresenceKeeper(refresh, PRESENCE_EVERY)
    # this process's open streams per seat (game_id, seat): the seat's presence is let go only
    # with the last of them (a person's other tab keeps it: issue 21 item 10)
    local: dict[tuple[str, int], int] = {}
    local_lock = threading.Lock()

    def let_go(game_id: str, seat: int, token: str | None) -> None:
        """In a worker thread: let go of the seat's presence unless a stream of it opened
        here meanwhile."""
        with local_lock:
            if local.get((game_id, seat)):
                return
        seating.presence(game_id, token, False)

    @app.get("/join/{code}", response_class=HTMLResponse)
    def join_page(request: Request, code: str, lang: str | None = Query(default=None)
                  ) -> Response:
        """The invite link: the game page, which reads the code from its address."""
        return page(request, lang, "index.html", "The game page is not installed.")

    @app.get("/api/invites/{code}", response_model=dict[str, Any], responses=_doc(404, 422, 429))
    def get_invite(code: str) -> Response:
        """The invited table: rules and seats, no token and no cards (docs/tables.md)."""
        return JSONAnswer(seating.invite(code))

    @app.post("/api/invites/{code}/join", status_code=201, response_model=dict[str, Any],
              responses=_doc(404, 409, 413, 422, 429))
    def join(code: str, body: JoinIn, request: Request) -> Response:
        """Take a free seat with a display name: the seat's own token."""
        refused = limited(request, "too_many_joins")
        if refused is not None:
            return refused
        made = seating.join(code, body.name, body.seat, getattr(request.state, "player_id", None))
        return JSONAnswer(made, status_code=201)

    @app.get("/rejoin/{game_id}/{seat}", response_class=HTMLResponse)
    def rejoin_page(request: Request, game_id: str, seat: str,
                    lang: str | None = Query(default=None)) -> Response:
        """A seat's own link (its code after ``#``): the game page, which reads the address."""
        return page(request, lang, "index.html", "The game page is not installed.")

    @app.post("/api/games/{game_id}/rejoin", status_code=201, response_model=dict[str, Any],
              responses=_doc(404, 413, 422, 429))
    def rejoin(game_id: str, body: RejoinIn, request: Request) -> Response:
        """Take one's own seat on this device with the seat's own link (``table.rejoin``): a
        new token for the seat; the one it had stops working."""
        refused = limited(request, "too_many_joins")
        if refused is not None:
            return refused
        return JSONAnswer(seating.rejoin(game_id, body.seat, body.code), status_code=201)

    @app.put("/api/games/{game_id}/seats/{seat}", response_model=dict[str, Any],
             responses=_doc(403, 404, 409, 413, 422, 429))
    def put_seat(game_id: str, seat: int, body: SeatPut,
                 authorization: str | None = Header(default=None)) -> Response:
        """Set a seat (creator; before the start, or an away person's seat after it), or take
        one's own seat back from a computer."""
        return JSONAnswer(seating.set_seat(game_id, bearer(authorization), seat, body.kind,
                                             body.level))

    @app.post("/api/games/{game_id}/start", response_model=dict[str, Any],
              responses=_doc(403, 404, 409, 422, 429))
    def start(game_id: str, authorization: str | None = Header(default=None)) -> Response:
        """The creator starts the table once no seat is open."""
        return JSONAnswer(seating.start(game_id, bearer(authorization)))

    @app.post("/api/games/{game_id}/leave", responses=_doc(404, 409, 422, 429))
    def leave(game_id: str, authorization: str | None = Header(default=None)
              ) -> dict[str, Any]:
        """The person leaves the table; the token stops working."""
        seating.leave(game_id, bearer(authorization))
        return {"ok": True}

    @app.post("/api/games/{game_id}/rematch", status_code=201, response_model=dict[str, Any],
              responses=_doc(403, 404, 409, 422, 429))
    def rematch(game_id: str, authorization: str | None = Header(default=None)) -> Response:
        """The creator starts a new table with the same seats at game-over."""
        return JSONAnswer(seating.rematch(game_id, bearer(authorization)), status_code=201)

    @app.post("/api/games/{game_id}/messages", response_model=dict[str, Any],
              responses=_doc(404, 409, 413, 422, 429))
    def post_message(game_id: str, body: MessageIn,
                     authorization: str | None = Header(default=None)) -> Response:
        """A preset quick message to the table (at most 12 a minute per seat)."""
        return JSONAnswer(seating.message(game_id, bearer(authorization), body.message))

    @app.get("/api/games/{game_id}/live", responses={
        200: {"content": {"text/event-stream": {}},
              "description": "the seat's live stream (docs/tables.md, Live)"},
        **_doc(404, 422, 429)})
    async def live(game_id: str, request: Request, since: int | None = Query(default=None),
                   authorization: str | None = Header(default=None)) -> Response:
        """Server-Sent Events: ``state`` (id = seq) after each change, ``presence``, and a
        ``: ping`` comment every 15 s; ``replaced`` when a newer stream of the seat took its
        place. The token goes in the Authorization header."""
        token = bearer(authorization)
        if token is None:
            raise NotFound
        # bounded per client address and per process (429), then per seat (the oldest of the
        # seat's streams is replaced): issue 21, ginrummy.web.live.streams
        try:
            slot = gate.open(request.client.host if request.client else "unknown")
        except RateLimited as e:  # and the connection closed: its descriptor given back
            refused = error_response(429, "rate_limited", e.reason, dict(e.params))
            refused.headers["Retry-After"] = str(e.seconds)
            refused.headers["Connection"] = "close"
            return refused
        try:
            first = await workers.call(seating.live_view, game_id, token, since)
        except BaseException:
            gate.close(slot)
            raise
        if first.table:
            gate.seat(slot, (game_id, first.seat))
        return _LiveResponse(_stream(game_id, token, since, first, slot),
                             release=lambda: gate.close(slot),
                             media_type="text/event-stream",
                             # a stream's connection ends with it (replaced, left, gone)
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no",
                                      "Connection": "close"})

    async def _stream(game_id: str, token: str | None, since: int | None,
                      first: LiveView, slot: Slot) -> AsyncIterator[bytes]:
        """The stream's loop. It reads the table again only when told to (the store's change
        notification), when its view changes with time alone (``LiveView.wake_at``: a turn
        clock, a presence lease, an away seat) and, in case a notification was missed, every
        :data:`CHECK_EVERY` seconds; its seat's presence lease is renewed every
        :data:`PRESENCE_EVERY` seconds with the process's other streams' (one write for all:
        :class:`~ginrummy.web.live.presence.PresenceKeeper`). A quiet table costs little."""
        sub = hub.subscribe(game_id)
        slot.wake = sub.event.set  # a newer stream of the seat replaces this one
        lease: Lease | None = None
        sent: tuple[int, int] | None = None
        sent_presence: list[dict[str, Any]] | None = None
        last = since
        view: LiveView | None = first
        seat = (game_id, first.seat)
        if first.table:
            with local_lock:
                local[seat] = local.get(seat, 0) + 1
        try:
            if first.table:  # a seat others see: its presence, renewed with this process's
                await workers.call(seating.presence, game_id, token, True)  # other streams'
                if token:
                    lease = keeper.add((game_id, first.seat, token_hash(token)),
                                       sub.event.set)
            now = time.monotonic()
            next_ping = now + PING_EVERY
            next_check = now + CHECK_EVERY
            while True:
                if slot.replaced:
                    yield _sse("replaced", {})
                    return
                if view is None:
                    try:
                        view = await workers.call(seating.live_view, game_id, token, last,
                                                  sent)
                    except NotFound:  # the seat was left: the stream ends
                        return
                presence = _presence(view.seats)
                key = (view.seq, view.version)
                if view.state is not None and key != sent:
                    yield _sse("state", view.state, key[0])
                    sent = key
                    last = key[0]
                    sent_presence = presence
                elif presence != sent_presence:
                    yield _sse("presence", {"seats": view.seats})
                    sent_presence = presence
                wake_at = view.wake_at
                view = None
                while True:  # until the table is to be read again
                    now = time.monotonic()
                    until = min(next_ping, next_check)
                    if wake_at is not None:  # not sooner than 0.25 s: never a busy loop
                        until = min(until, now + max(0.25, wake_at - time.time()))
                    # (a closed connection cancels this generator: Starlette's streaming
                    # answer listens for the disconnect)
                    woken = await sub.wait(max(0.0, until - now))
                    if lease is not None and lease.lost:
                        return  # the seat was left
                    if slot.replaced:
                        break
                    now = time.monotonic()
                    if now >= next_ping:
                        yield b": ping\n\n"
                        next_ping = now + PING_EVERY
                    if woken or now >= next_check or (
                            wake_at is not None and time.time() >= wake_at):
                        next_check = now + CHECK_EVERY
                        break
        except Exception as e:
            if not is_outage(e):
                raise
            # the database is away: the stream ends, its page tries again with back-off
            # (answered 503 until the database is back) and catches up from its last seq
            log.warning("live stream of %s ended: database unavailable (%s)", game_id,
                        type(e).__name__)
        finally:
            gate.close(slot)
            hub.unsubscribe(sub)
            if lease is not None:
                keeper.remove(lease)
            if first.table:
                with local_lock:
                    left = local.get(seat, 1) - 1
                    if left > 0:
                        local[seat] = left
                    else:
                        local.pop(seat, None)
                # the seat may be gone (left): nothing to keep then
                with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
                    await workers.call(let_go, game_id, first.seat, token)
