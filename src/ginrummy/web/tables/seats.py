"""The people at a table (docs/tables.md): invites and joining, the seats before the start and
the away seats after it, the start, leaving, the rematch, quick messages, and what a live stream
sends (:func:`ginrummy.web.api.tables.install_tables` serves them).

Every operation runs under the table service's per-game lock and through its machinery
(authorization by a seat's token hash, the cache checked against the stored ``seq``, the
computers' moves, saving): :class:`Seats` is that service's companion for the seats, and the
store's seat rows (:mod:`ginrummy.store.tables`) are changed only with a version check, so that
two processes never both take one seat.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Any

from ...bots import LEVELS
from ...store import GameRow, MessageRow, SeatRow, TableRow
from ...variants import FIRST_DEALERS, PLAYER_COUNT
from ..http.errors import BadRequest, NotFound, RateLimited, Refused
from ..http.ratelimit import Limiter, RateLimiter
from ..http.text import name_key
from ..http.tokens import invite_code, seat_code, token_hash
from .inputs import INVITE_CODE_RE, KINDS, MESSAGES, checked_name
from .seat_state import next_change, seat_row, seats_json, shown_seats
from .service import TableService
from .stored import Loaded, Seated

__all__ = ["Seats", "LiveView", "PRESENCE_LEASE", "MESSAGE_LIMIT", "MESSAGE_WINDOW"]

#: how long an open live stream keeps its seat connected after each refresh (seconds).
PRESENCE_LEASE = 25.0
#: quick messages a seat may send per :data:`MESSAGE_WINDOW` seconds (docs/tables.md)
MESSAGE_LIMIT = 12
MESSAGE_WINDOW = 60.0


@dataclass(frozen=True)
class LiveView:
    """What a live stream reads (:meth:`Seats.live_view`): the seat's ``state`` (``None``:
    unchanged since the one sent), the ``seats`` (presence), the table's ``seq`` and
    ``version``, the asker's ``seat``, whether its seats are shown (``table``: a table of
    people; not a person's game against the computer, whose presence nobody sees) and
    ``wake_at``, the next moment its view changes with time alone
    (:func:`ginrummy.web.tables.seat_state.next_change`)."""

    state: dict[str, Any] | None
    seats: list[dict[str, Any]]
    seq: int
    version: int
    seat: int
    table: bool
    wake_at: float | None


class Seats:
    """The seat operations of ``svc``'s tables. Thread-safe as the service is.

    ``message_limits``: the quick-message limit, per seat (keys ``"<game_id>:<seat>"``); by
    default counted in this process (:class:`~ginrummy.web.http.ratelimit.RateLimiter`), shared by
    every process when the app gives one counted in the database."""

    def __init__(self, svc: TableService, message_limits: Limiter | None = None) -> None:
        self.svc = svc
        #: this process (app) as a holder of live streams (``seat_holders``: docs/tables.md)
        self.holder = secrets.token_hex(8)
        self.message_limits: Limiter = message_limits or RateLimiter(MESSAGE_LIMIT,
                                                                     MESSAGE_WINDOW)

    def _table_of(self, seated: Seated) -> TableRow:
        """``seated``'s table, if people may be invited to it (a game against the computer
        has no invite: no seat of it is shared)."""
        if not seated.table.shared:
            raise Refused(409, "not_waiting", "no_seats_to_share")
        return seated.table

    def _creator_only(self, seated: Seated) -> TableRow:
        table = self._table_of(seated)
        if seated.seat != table.creator_seat:
            raise Refused(403, "not_creator", "not_creator")
        return table

    def _invited(self, code: str) -> list[str]:
        """The tables an invite code leads to: its own and its rematches, oldest first (the
        invite is carried over to each rematch: the last is the one it leads to now); ``[]``:
        no such invite."""
        game_id = self.svc.tables.by_invite(token_hash(code)) if INVITE_CODE_RE.match(code) \
            else None
        return [] if game_id is None else self.svc.tables.series(game_id)

    def _announce(self, game_id: str) -> None:
        row = self.svc.store.get_game(game_id)
        self.svc.store.announce(game_id, row.seq if row is not None else 0)

    def invite(self, code: str) -> dict[str, Any]:
        """What an invite shows before joining: the table's rules and seats (no token, no
        cards), of the last rematch of its table; ``earlier`` names the tables before it from
        the invite's own (a browser holding a seat there holds it in the rematch too).

        :raises NotFound: no such invite."""
        series = self._invited(code)
        if not series:
            raise NotFound
        game_id = series[-1]
        got = self.svc.tables.get_with_game(game_id)
        if got is None:  # deleted meanwhile (retention)
            raise NotFound
        row, table = got
        scoring = self.svc.records.scoring(game_id)
        status = "waiting" if row.seq == 0 else ("over" if row.status == "over" else "playing")
        seats = [{"seat": s.seat, "kind": s.kind,
                  "name": s.name if s.kind == "person" else None,
                  "level": s.level if s.kind == "computer" else None} for s in table.seats]
        return {"game_id": game_id, "scoring": scoring, "preset": row.preset,
                "rules": {"preset": row.preset, **row.rules}, "status": status,
                "seats": seats,
                "full": status != "waiting" or not any(s.kind == "open" for s in table.seats),
                "earlier": series[:-1]}

    def join(self, code: str, name: Any, seat: int | None, player_id: str | None = None
             ) -> dict[str, Any]:
        """Take a free seat of the invite's table: ``{"game_id", "token", "seat", "state"}``.
        Without ``seat`` the first open one; a computer's seat may be taken by naming it.
        ``player_id``: the joining browser's id (its statistics count the seat's games).

        :raises NotFound: no such invite.
        :raises BadRequest: ``name`` (a bad display name), ``seat`` (no such seat).
        :raises Refused: ``table_full``, ``seat_taken``, ``started``; ``name_taken`` when a
            person seated there has the same name (:func:`ginrummy.web.http.text.name_key`: case,
            spaces, compatibility forms and invisible characters aside).
        """
        clean = checked_name(name)
        series = self._invited(code)
        if not series:
            raise NotFound
        game_id = series[-1]  # a rematch has started: refused below as any table in play
        with self.svc.records.lock(game_id):
            for _attempt in range(5):
                got = self.svc.tables.get_with_game(game_id)
                if got is None:  # deleted meanwhile (retention)
                    raise NotFound
                row, table = got
                if row.seq != 0 or table.status != "waiting":
                    raise Refused(409, "started", "table_started")
                if seat is not None:
                    target = seat_row(table, seat)
                    if target is None:
                        raise BadRequest("seat", "no_seat", seat=seat)
                    if target.kind == "person":
                        raise Refused(409, "seat_taken", "seat_taken", seat=seat)
                else:
                    target = next((s for s in table.seats if s.kind == "open"), None)
                    if target is None:
                        raise Refused(409, "table_full", "table_full")
                # one name per table, checked again on each attempt; after the seat, so that a
                # full table says so before a name would be refused
                key = name_key(clean)
                same = next((s for s in table.seats if s.kind == "person" and s.name
                             and name_key(s.name) == key), None)
                if same is not None:
                    raise Refused(409, "name_taken", "name_taken", name=same.name)
                token = secrets.token_urlsafe(32)
                ok = self.svc.tables.change_seat(
                    game_id, table.version, target.seat,
                    {"kind": target.kind, "token_hash": None},
                    {"kind": "person", "name": clean, "token_hash": token_hash(token),
                     "level": None, "left": False, "computer_for_away": False,
                     "connected_until": time.time(), "player_id": player_id})
                if ok:
                    self.svc.store.announce(game_id, 0)
                    seated = self.svc.records.authorize(game_id, token)
                    return {"game_id": game_id, "token": token, "seat": target.seat,
                            "state": self.svc._state(self.svc.records.load(seated.row), seated, 0)}
            raise Refused(409, "seat_taken", "seats_changed")

    def rejoin(self, game_id: str, seat: int, code: str) -> dict[str, Any]:
        """A person takes their seat on another device with the seat's own link (docs/tables.md,
        "A seat follows its person"): ``code`` is ``table.rejoin`` of that seat's state. The
        seat gets a new token, here and in the table's rematches where the same token held it;
        the old token stops working (its live stream ends). Returns ``{"game_id", "token",
        "seat", "state"}`` of the last table of the series that the seat moved in.

        :raises NotFound: no such game, seat or code (or the seat moved on already, or its
            person left: the code is that of a token that no longer holds it).
        """
        if not INVITE_CODE_RE.match(code):
            raise NotFound
        with self.svc.records.lock(game_id):
            got = self.svc.tables.get_with_game(game_id)
            if got is None:
                raise NotFound
            row, table = got
            held = seat_row(table, seat)
            old = held.token_hash if held is not None and held.kind == "person" \
                and not held.left else None
            # compared even when there is no holder: the answer takes as long either way
            expected = seat_code(row.secret, seat, old or "")
            if not hmac.compare_digest(expected, code) or old is None:
                raise NotFound
            token = secrets.token_urlsafe(32)
            moved = self.svc.tables.move_seat(self.svc.tables.series(game_id), seat, old,
                                              token_hash(token))
            if not moved:  # another request moved the seat first
                raise NotFound
        for gid in moved:
            self._announce(gid)  # the old token's streams end; the others see the version
        last = moved[-1]
        with self.svc.records.lock(last):
            seated = self.svc.records.authorize(last, token)
            loaded = self.svc._catch_up(self.svc.records.load(seated.row), seated)
            return {"game_id": last, "token": token, "seat": seat,
                    "state": self.svc._state(loaded, seated, None)}

    def set_seat(self, game_id: str, token: str | None, seat: int, kind: str,
                 level: str | None) -> dict[str, Any]:
        """``PUT /api/games/{id}/seats/{seat}`` (docs/tables.md): before the start the creator
        sets a seat no person holds to ``computer`` (at ``level``) or ``open``; after it the
        creator hands an away person's seat to a computer (``computer``), as may any other
        person at the table once that seat has had no connection for
        :data:`~ginrummy.web.tables.seat_state.HAND_OVER_AFTER` seconds (``hand_over`` in the
        asker's seats), and that person takes it back (``person``, by its own token). Returns
        the asker's state.

        :raises Refused: ``not_creator``, ``seat_taken``, ``not_waiting``, ``started``,
            ``not_away`` (after the start, the person of that seat is not away).
        """
        if kind not in KINDS:
            raise BadRequest("seats", "seat_kind", seat=seat)
        if kind == "computer":
            level = level or None
            if level is not None and level not in LEVELS:
                raise BadRequest("level", "unknown_level", level=level,
                                 choices=list(LEVELS))
        with self.svc.records.lock(game_id):
            seated = self.svc.records.authorize(game_id, token)
            table = self._table_of(seated)
            target = seat_row(table, seat)
            if target is None:
                raise BadRequest("seat", "no_seat", seat=seat)
            loaded = self.svc.records.load(seated.row)
            waiting = loaded.engine is None and table.status == "waiting"
            if loaded.engine is None and not waiting:
                raise Refused(409, "started", "table_started")
            expect: dict[str, Any]
            values: dict[str, Any]
            if kind == "person":  # a person takes back its own seat
                if seated.seat != seat or not target.computer_for_away:
                    raise Refused(409, "seat_taken", "seat_own_person")
                expect, values = {"computer_for_away": True}, {"computer_for_away": False}
            elif waiting:
                self._creator_only(seated)
                if target.kind == "person":
                    raise Refused(409, "seat_taken", "seat_person", seat=seat)
                expect = {"kind": target.kind}
                values = {"kind": kind, "level": (level or seated.row.level)
                          if kind == "computer" else None, "name": None, "token_hash": None}
            else:
                if kind != "computer":
                    self._creator_only(seated)
                    raise Refused(409, "started", "seat_only_computer")
                shown = {s["seat"]: s for s in seats_json(table, seated.seat)}
                if not shown[seat]["hand_over"] and seated.seat != table.creator_seat:
                    # another person than the creator: once the seat has been away long
                    raise Refused(403, "not_creator", "not_creator")
                if target.kind != "person" or target.left or not shown[seat]["away"]:
                    raise Refused(409, "not_away", "seat_not_away", seat=seat)
                expect, values = {"computer_for_away": False}, {"computer_for_away": True}
            if not self.svc.tables.change_seat(game_id, table.version, seat, expect, values):
                raise Refused(409, "seat_taken", "seats_changed")
            seated = self.svc.records.authorize(game_id, token)
            loaded = self.svc._catch_up(self.svc.records.load(seated.row), seated)
            self._announce(game_id)
            return self.svc._state(loaded, seated, None)

    def start(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The creator starts the table: the first hand is dealt and the computers move.

        :raises Refused: ``not_creator``, ``seats_open``, ``not_waiting``.
        """
        with self.svc.records.lock(game_id):
            seated = self.svc.records.authorize(game_id, token)
            table = self._creator_only(seated)
            loaded = self.svc.records.load(seated.row)
            if loaded.engine is not None:
                raise Refused(409, "not_waiting", "table_started")
            if any(s.kind == "open" for s in table.seats):
                raise Refused(409, "seats_open", "seats_open")
            if table.status == "waiting" and not self.svc.tables.set_table(
                    game_id, table.version, {"status": "playing"}):
                raise Refused(409, "seat_taken", "seats_changed")
            seated = self.svc.records.authorize(game_id, token)
            self.svc._begin(loaded, seated)
            self.svc._persist(loaded, seated, 0, None, None)
            return self.svc._state(loaded, seated, 0)

    def leave(self, game_id: str, token: str | None) -> None:
        """The person leaves: before the start the seat opens again; after it a computer (the
        table's level) plays it. The token stops working.

        :raises Refused: ``not_waiting`` (a game against the computer: a table with no
            invite), ``creator`` (the creator cannot leave a table before its start).
        """
        with self.svc.records.lock(game_id):
            seated = self.svc.records.authorize(game_id, token)
            table = self._table_of(seated)
            loaded = self.svc.records.load(seated.row)
            if loaded.engine is None:
                if seated.seat == table.creator_seat:
                    raise Refused(409, "creator", "creator_leaves")
                values: dict[str, Any] = {"kind": "open", "name": None, "token_hash": None,
                                          "player_id": None}
            else:
                values = {"left": True}
            if not self.svc.tables.change_seat(game_id, table.version, seated.seat,
                                           {"left": False}, values):
                raise Refused(409, "seat_taken", "seats_changed")
            if loaded.engine is not None:  # a computer plays the seat now
                now = self.svc.tables.get(game_id)
                assert now is not None  # changed just now: not deleted (retention) since
                self.svc._catch_up(loaded, Seated(seated.row, now, seated.seat))
            self._announce(game_id)

    def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """At game-over the creator starts a new table with the same seats, people (same token
        hashes) and rules; the old table points to it (``table.rematch``). Returns ``{"game_id",
        "state"}`` (the creator's state of the new table).

        :raises Refused: ``not_creator``, ``not_waiting`` (the game is not over).
        """
        with self.svc.records.lock(game_id):
            seated = self.svc.records.authorize(game_id, token)
            table = self._creator_only(seated)
            row = seated.row
            if table.rematch_id:
                new_id = table.rematch_id
            else:
                if row.status != "over":
                    raise Refused(409, "not_waiting", "rematch_not_over")
                new_id = self._new_rematch(row, table)
                self._announce(game_id)
        with self.svc.records.lock(new_id):
            got = self.svc.tables.get_with_game(new_id)
            assert got is not None  # a table is deleted only long after its game's end
            new_row, new_table = got
            seated = Seated(new_row, new_table, new_table.creator_seat)
            loaded = self.svc._catch_up(self.svc.records.load(new_row), seated)
            return {"game_id": new_id, "state": self.svc._state(loaded, seated, 0)}

    def _new_rematch(self, row: GameRow, table: TableRow) -> str:
        """Make the rematch of ``row``'s table and point the table to it, in one transaction
        that only one request wins (:meth:`ginrummy.store.tables.TableStore.write_rematch`):
        the id of the rematch, this request's or the one that won (nothing of a lost one is
        stored).

        :raises Refused: ``seat_taken``: the table is gone meanwhile."""
        loaded, new_table = self._rematch_of(row, table)
        if self.svc.records.insert(loaded, new_table, rematch_of=row.id):
            return new_table.game_id
        now = self.svc.tables.get(row.id)
        if now is None or not now.rematch_id:  # pragma: no cover - a table is never removed
            raise Refused(409, "seat_taken", "seats_changed")
        return now.rematch_id

    def _rematch_of(self, row: GameRow, table: TableRow) -> tuple[Loaded, TableRow]:
        """The rematch of ``row``'s table, built and dealt in memory (nothing stored)."""
        scoring = self.svc.records.scoring(row.id)
        n = PLAYER_COUNT[scoring]
        first = secrets.randbelow(FIRST_DEALERS[scoring])
        new = GameRow(id=secrets.token_urlsafe(16), token_hash=row.token_hash,
                      player_id=row.player_id, level=row.level, preset=row.preset,
                      rules=dict(row.rules), first_dealer=first % n,
                      secret=secrets.token_hex(32), seq=0)
        seats = []
        for s in table.seats:
            if s.kind == "person" and not s.left:
                seats.append(SeatRow(seat=s.seat, kind="person", name=s.name,
                                     token_hash=s.token_hash,
                                     connected_until=s.connected_until,
                                     player_id=s.player_id))
            else:
                seats.append(SeatRow(seat=s.seat, kind="computer",
                                     level=s.level if s.kind == "computer" else row.level))
        new_table = TableRow(game_id=new.id, status="playing", creator_seat=table.creator_seat,
                             invite_hash=token_hash(invite_code(new.secret)),
                             turn_clock=table.turn_clock, seats=seats)
        loaded = Loaded(new, scoring, [], [], None)
        seated = Seated(new, new_table, table.creator_seat)
        self.svc._begin(loaded, seated)  # nobody knows the new id yet: no lock needed
        return loaded, new_table

    def message(self, game_id: str, token: str | None, message: str) -> dict[str, Any]:
        """A preset quick message from the seat (docs/tables.md). Returns its state. The message
        and the token are checked before the seat's limit counts it: a refused request is not
        counted, and the limit keeps nothing of what an unknown token sends.

        :raises BadRequest: ``message`` (not a preset code).
        :raises NotFound: unknown game or no seat's token.
        :raises RateLimited: the seat sent :data:`MESSAGE_LIMIT` messages in the last
            :data:`MESSAGE_WINDOW` seconds (nothing is stored).
        """
        if message not in MESSAGES:
            raise BadRequest("message", "quick_message", choices=list(MESSAGES))
        with self.svc.records.lock(game_id):
            seated = self.svc.records.authorize(game_id, token)
            self._table_of(seated)
            wait = self.message_limits.hit(f"{game_id}:{seated.seat}")
            if wait:
                raise RateLimited("too_many_messages", wait)
            loaded = self.svc.records.load(seated.row)
            self.svc.tables.add_message(game_id, MessageRow(seated.seat, message, loaded.seq,
                                                        time.time()))
            self.svc.store.announce(game_id, loaded.seq)
            seated = self.svc.records.authorize(game_id, token)
            return self.svc._state(loaded, seated, loaded.seq)

    # ------------------------------------------------------------------------------ live
    def live_view(self, game_id: str, token: str | None, since: int | None,
                  known: tuple[int, int] | None = None) -> LiveView:
        """What a live stream sends, for the token's seat (the turn clock and away seats are
        caught up first): its state with the events after ``since``, unless the table is still
        at ``known`` (``(seq, table version)`` of the state last sent: then only the seats, for
        their presence, without building the state).

        :raises NotFound: unknown game or no seat's token (left, or never).
        """
        with self.svc.records.lock(game_id):
            seated = self.svc.records.authorize(game_id, token)
            loaded = self.svc._catch_up(self.svc.records.load(seated.row), seated)
            version = seated.table.version
            wake_at = next_change(loaded, seated.table, seated.seat)
            seats = shown_seats(loaded, seated)
            if known is not None and known == (loaded.seq, version):
                return LiveView(None, seats or [], loaded.seq, version, seated.seat,
                                seats is not None, wake_at)
            state = self.svc._state(loaded, seated, since)
            return LiveView(state, state.get("seats", []), int(state["seq"]), version,
                            seated.seat, seats is not None, wake_at)

    def refresh_presence(self, game_id: str, seat: int, token: str | None) -> bool:
        """An open stream's presence refresh (every few seconds): one write, no read; False
        when the seat is no longer this token's (the stream ends)."""
        if not token:
            return False
        return self.svc.tables.refresh_presence(game_id, seat, token_hash(token),
                                                time.time() + PRESENCE_LEASE)

    def refresh_presence_many(self, keys: list[tuple[str, int, str]]
                              ) -> set[tuple[str, int, str]]:
        """:meth:`refresh_presence` of many streams (``(game_id, seat, token hash)``) in one
        call, and this process's leases on their seats (``seat_holders``): the keys refreshed
        (:class:`ginrummy.web.live.presence.PresenceKeeper`'s)."""
        until = time.time() + PRESENCE_LEASE
        kept = self.svc.tables.refresh_presence_many(keys, until)
        self.svc.tables.renew_holds([(g, s) for g, s, _ in kept], self.holder, until)
        return kept

    def presence(self, game_id: str, token: str | None, connected: bool,
                 announce: bool = True) -> None:
        """Hold (or let go of) the token's seat's live presence for this process: its lease
        in ``seat_holders`` and the seat's ``connected_until``, so that every process sees
        it. Letting go leaves the seat connected while another process holds it (a person's
        other tab, on another server process); the caller lets go only when this process has
        no other stream of the seat. The change is announced (``announce``: a refresh that
        changes nothing others see is not)."""
        seated = self.svc.records.authorize(game_id, token)
        now = time.time()
        if connected:
            self.svc.tables.hold_seat(game_id, seated.seat, self.holder, now + PRESENCE_LEASE)
        else:
            self.svc.tables.release_seat(game_id, seated.seat, self.holder, now)
        if announce:
            self.svc.store.announce(game_id, seated.row.seq)
