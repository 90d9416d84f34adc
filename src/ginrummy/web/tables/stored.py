"""A table's record in the store, loaded and saved (docs/tables.md): who asks (a seat found by
its token's hash), the game rebuilt from its event log or taken from a small cache checked
against the stored sequence number, and the new deals and ``seq`` saved only if nobody moved
the game meanwhile. The game flow (:mod:`ginrummy.web.tables.service`) decides what changes; this
module only reads and writes.

Nothing that matters lives in this process: the cache is checked against the stored ``seq``,
and the per-game locks only order this process's requests (other processes are held off by the
stored ``seq`` / table ``version`` checks).
"""

from __future__ import annotations

import hmac
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection

from ...rules import Rules
from ...store import (
    DealRow,
    GameRow,
    MessageRow,
    Store,
    TableRow,
    TableStore,
    VariantStore,
    seats_of_text,
    seats_text,
    storable_id,
)
from ..http.errors import NotFound
from ..http.tokens import token_hash
from .engine import DealInfo, TableEngine, keeps_standard_shape, replay_engine

__all__ = ["Loaded", "Seated", "TableRecords"]

log = logging.getLogger("ginrummy.web")


@dataclass
class Loaded:
    """A table rebuilt from its record: its row, the fairness data of its deals, its engine
    (``None`` before the start); per deal as saved, when its turn began (``turn_at``, seconds
    since the epoch; ``None``: stored before schema 5) and its action count (``moves``)."""

    row: GameRow
    scoring: str
    deals: list[DealInfo]
    decks: list[list[str]]
    engine: TableEngine | None
    seq: int = field(default=0, kw_only=True)
    turn_at: list[float | None] = field(default_factory=list, kw_only=True)
    moves: list[int] = field(default_factory=list, kw_only=True)

    def turn_began(self, index: int) -> float:
        """When deal ``index``'s current turn began (a deal saved before schema 5: the game's
        last change)."""
        at = self.turn_at[index] if index < len(self.turn_at) else None
        return self.row.updated_at if at is None else at


@dataclass
class Seated:
    """Who asks: the game row, its table (every game's: a person playing the computer sits at
    seat 0 of a table with no invite) and the asker's seat."""

    row: GameRow
    table: TableRow
    seat: int

    @property
    def creator(self) -> bool:
        return self.table.creator_seat == self.seat


class TableRecords:
    """The tables' rows in ``store`` (games, deals, seats, scorings) with a cache of rebuilt
    games. Thread-safe; :meth:`lock` is the per-game lock every table operation holds."""

    #: games kept rebuilt in memory (about 20 KB each); a request on a game not in it replays
    #: the game's whole record, so it should hold every game in play (a load test of 200
    #: concurrent games with 128 replayed nearly every request).
    CACHE_SIZE = 2048
    #: games' scorings remembered (a game's never changes).
    SCORINGS_KEPT = 8192

    def __init__(self, store: Store, cache_size: int = CACHE_SIZE) -> None:
        self.store = store
        # sheet and scoring writes take the store's write lock (SQLite: one writer at a time)
        self.vstore = VariantStore(store.engine, store.writing)
        self.tables = TableStore(store.engine, store.single, store.cursor)
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self._locks = [threading.Lock() for _ in range(64)]
        self._scorings: OrderedDict[str, str] = OrderedDict()
        self._messages: OrderedDict[str, tuple[int, list[MessageRow]]] = OrderedDict()

    def lock(self, game_id: str) -> threading.Lock:
        """This process's lock of ``game_id`` (striped: 64 locks)."""
        return self._locks[hash(game_id) % len(self._locks)]

    # ---------------------------------------------------------------------------- scorings
    def remember_scoring(self, game_id: str, scoring: str) -> str:
        """Keep a game's scoring (a new game's, or one just read)."""
        with self._cache_lock:
            self._scorings[game_id] = scoring
            self._scorings.move_to_end(game_id)
            while len(self._scorings) > self.SCORINGS_KEPT:
                self._scorings.popitem(last=False)
        return scoring

    def scoring(self, game_id: str) -> str:
        """The scoring of a game (read once, then remembered)."""
        with self._cache_lock:
            got = self._scorings.get(game_id)
            if got is not None:
                self._scorings.move_to_end(game_id)
                return got
        return self.remember_scoring(game_id, self.vstore.scoring(game_id) or "standard")

    # ------------------------------------------------------------------------------ seats
    def authorize(self, game_id: str, token: str | None) -> Seated:
        """The asker's seat: the game row, its table and seats (one read) and the person's
        seat whose token hash matches.

        :raises NotFound: unknown game, or no seat holds this token.
        """
        if not token or not storable_id(game_id) or len(token) > 256:
            raise NotFound
        got = self.tables.get_with_game(game_id)  # the request's one read: row, table, seats
        if got is None:
            raise NotFound
        row, table = got
        digest = token_hash(token)
        found = None
        for s in table.seats:  # every seat compared: no early exit on a match
            if s.kind == "person" and not s.left and s.token_hash is not None \
                    and hmac.compare_digest(s.token_hash, digest):
                found = s.seat
        if found is None:
            raise NotFound
        return Seated(row, table, found)

    def authorize_player(self, game_id: str, player_id: str | None) -> Seated:
        """The seat the browser ``player_id`` (its ``ginrummy_player`` cookie) holds at
        ``game_id``, as the statistics count it (:mod:`ginrummy.web.tables.stats`): the game's
        creator (its table's creator seat: seat 0 at a game against the computer), else its
        lowest seat at a table it joined.

        :raises NotFound: unknown game, or the browser holds no seat there.
        """
        if not player_id or not storable_id(game_id) or not storable_id(player_id):
            raise NotFound
        got = self.tables.get_with_game(game_id)
        if got is None:
            raise NotFound
        row, table = got
        if row.player_id is not None and hmac.compare_digest(row.player_id, player_id):
            return Seated(row, table, table.creator_seat)
        held = [s.seat for s in table.seats
                if s.player_id is not None and hmac.compare_digest(s.player_id, player_id)]
        if not held:
            raise NotFound
        return Seated(row, table, min(held))

    # --------------------------------------------------------------------------- messages
    def messages(self, game_id: str, version: int) -> list[MessageRow]:
        """The table's last quick messages at table ``version`` (read with the version they
        belong to, in one statement, and kept by it: a message changes the version, so the
        store is read again only after a change of the table)."""
        with self._cache_lock:
            got = self._messages.get(game_id)
            if got is not None and got[0] == version:
                self._messages.move_to_end(game_id)
                return got[1]
        read = self.tables.messages_at(game_id)
        if read is None:  # pragma: no cover - a tables row is never removed
            return []
        with self._cache_lock:
            self._messages[game_id] = read
            self._messages.move_to_end(game_id)
            while len(self._messages) > self._cache_size:
                self._messages.popitem(last=False)
        return read[1]

    # ------------------------------------------------------------------------------ cache
    def cache_put(self, loaded: Loaded) -> None:
        with self._cache_lock:
            self._cache[loaded.row.id] = loaded
            self._cache.move_to_end(loaded.row.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def cache_drop(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    # ---------------------------------------------------------------------------- loading
    def replay(self, row: GameRow) -> Loaded:
        """The game of ``row`` rebuilt from its stored deals (never from the cache).

        :raises NotFound: the game is gone."""
        scoring = self.scoring(row.id)
        # the row and its deals as of one moment (one transaction: the row may be newer than
        # the one passed in, if another process saved in between)
        got = self.store.get_game_with_deals(row.id)
        if got is None:
            raise NotFound
        row, deal_rows = got
        infos = [DealInfo(d.number, d.salt, d.commitment) for d in deal_rows]
        decks = [d.deck for d in deal_rows]
        if not deal_rows:  # a table waiting for its people
            return Loaded(row, scoring, infos, decks, None, seq=0)
        engine = replay_engine(scoring, Rules.from_dict(row.rules), row.first_dealer,
                               deal_rows, row.turns)
        loaded = Loaded(row, scoring, infos, decks, engine, seq=engine.seq(),
                        turn_at=[d.turn_at for d in deal_rows],
                        moves=[len(d.actions) for d in deal_rows])
        if loaded.seq != row.seq:  # pragma: no cover - only after a format change
            log.warning("game %s: stored seq %s, replay gives %s", row.id, row.seq, loaded.seq)
        return loaded

    def load(self, row: GameRow) -> Loaded:
        """The game of ``row``: the cached one if it is at ``row.seq``, else replayed (and
        cached: the next request of this process at that seq, a live stream's or the other
        person's action, takes it). Call it under :meth:`lock`: the caller may change the
        game it gets (then saves it, or drops it from the cache)."""
        with self._cache_lock:
            got = self._cache.get(row.id)
            if got is not None and got.seq == row.seq and got.engine is not None:
                self._cache.move_to_end(row.id)
                got.row = row
                return got
        if got is not None and got.seq < row.seq and got.engine is not None:
            caught = self._caught_up(got)
            if caught is not None:
                return caught
        loaded = self.replay(row)
        if loaded.engine is not None:
            self.cache_put(loaded)
        return loaded

    def _caught_up(self, got: Loaded) -> Loaded | None:
        """The cached game ``got`` brought up to the stored one (another process moved it):
        the deals from its first in play (else its last) on are read and the engine continued
        with them (:meth:`~ginrummy.web.tables.engine.TableEngine.extend`, the steps of a replay of
        the whole record), without reading and replaying the deals before. ``None`` (and
        ``got`` dropped from the cache) when the stored deals do not continue ``got``'s: then
        the game is replayed. Any other error is raised (a bug: never hidden), ``got`` dropped
        from the cache all the same (it may be half caught up)."""
        engine = got.engine
        assert engine is not None
        index = min(engine.in_play(), default=len(got.deals) - 1)
        if index < 0:
            return None
        read = self.store.get_game_with_deals(got.row.id, got.deals[index].number)
        if read is None:
            return None
        row, deal_rows = read
        try:
            if not deal_rows or deal_rows[0].number != got.deals[index].number \
                    or any(d.deck != got.decks[index + k]
                           for k, d in enumerate(deal_rows[:len(got.decks) - index])):
                raise ValueError("not the cached deals")
            engine.extend(deal_rows, index, row.turns)
            if engine.seq() != row.seq or engine.turns() != row.turns:
                raise ValueError("not the stored seq")
        except ValueError:  # not a continuation (GinRummyError is one too)
            self.cache_drop(got.row.id)  # perhaps half caught up: never served
            return None
        except BaseException:
            self.cache_drop(got.row.id)
            raise
        for k, d in enumerate(deal_rows):
            i = index + k
            if i == len(got.deals):
                got.deals.append(DealInfo(d.number, d.salt, d.commitment))
                got.decks.append(d.deck)
            while len(got.turn_at) <= i:  # as saved: one per deal
                got.turn_at.append(None)
                got.moves.append(-1)
            got.turn_at[i] = d.turn_at
            got.moves[i] = len(d.actions)
        got.row, got.seq = row, row.seq
        self.cache_put(got)
        return got

    def reload(self, game_id: str) -> Loaded:
        """The game as stored now."""
        row = self.store.get_game(game_id)
        assert row is not None
        return self.load(row)

    # ----------------------------------------------------------------------------- saving
    @staticmethod
    def _status(loaded: Loaded) -> dict[str, Any]:
        result = loaded.engine.result() if loaded.engine is not None else None
        if result is None or loaded.engine is None:
            return {"status": "playing", "winner": None, "margin": None, "finished_at": None,
                    "winner_seats": None}
        winner, margin = result
        return {"status": "over", "winner": winner, "margin": margin, "finished_at": time.time(),
                "winner_seats": seats_text(loaded.engine.winner_seats())}

    @staticmethod
    def _deal_rows(loaded: Loaded, first: int) -> list[DealRow]:
        """The rows of deals ``first`` on; a deal dealt or moved since it was saved begins its
        turn now (``turn_at``): the other table's deal of a partnership keeps its own."""
        engine = loaded.engine
        assert engine is not None
        now = time.time()
        rows = []
        for i in range(first, len(loaded.deals)):
            while len(loaded.turn_at) <= i:
                loaded.turn_at.append(None)
                loaded.moves.append(-1)
            moves = len(engine.deals()[i].history)
            if loaded.moves[i] != moves:
                loaded.turn_at[i], loaded.moves[i] = now, moves
            elif loaded.turn_at[i] is None:  # saved before schema 5: as it counted then
                loaded.turn_at[i] = loaded.row.updated_at
            row = engine.deal_row(i, loaded.deals[i], loaded.decks[i])
            row.turn_at = loaded.turn_at[i]
            rows.append(row)
        return rows

    def insert(self, loaded: Loaded, table: TableRow, rematch_of: str | None = None) -> bool:
        """Store a new game with its table and seats (``table``) and its scoring, in one
        transaction (:meth:`ginrummy.store.Store.insert_game`: the table's rows and the
        scoring's are written first, so that no game is ever seen without them); a game not
        dealt yet is ``waiting``. ``rematch_of``: the game whose rematch this is, stored only
        if that one has none yet (:meth:`~ginrummy.store.TableStore.write_rematch`): False
        when it has, nothing stored."""
        row = loaded.row
        if loaded.engine is not None:
            loaded.seq = row.seq = loaded.engine.seq()
            st = self._status(loaded)
            row.status, row.winner, row.margin = st["status"], st["winner"], st["margin"]
            row.finished_at = st["finished_at"]  # over already: the computer ended it at once
            row.winner_seats = seats_of_text(st["winner_seats"])
            row.turns = loaded.engine.turns()
        else:
            row.status = "waiting"
        scoring = loaded.scoring

        def first(conn: Connection) -> bool:
            if rematch_of is None:
                TableStore.write_table(conn, table)
            elif not TableStore.write_rematch(conn, rematch_of, table):
                return False
            if not keeps_standard_shape(scoring):  # a standard game has no scoring row
                VariantStore.write_scoring(conn, row.id, scoring)
            return True

        self.remember_scoring(row.id, scoring)
        if not self.store.insert_game(row, self._deal_rows(loaded, 0) if loaded.engine else [],
                                      first):
            return False
        if loaded.engine is not None:
            self.cache_put(loaded)
        return True

    def save(self, loaded: Loaded, first: int, last_action: str | None,
             last_action_seq: int | None) -> GameRow | None:
        """Save the deals from ``first`` on and the game's new seq, if nobody else moved the
        game meanwhile; returns ``None``, or the game's row as it is now when another request
        (perhaps of another process) saved first (then nothing is written)."""
        assert loaded.engine is not None
        old_seq = loaded.row.seq
        changes: dict[str, Any] = {"seq": loaded.engine.seq(), **self._status(loaded)}
        turns = loaded.engine.turns()
        if turns is not None:
            changes["turns"] = turns
        if last_action is not None:
            changes["last_action"] = last_action
            changes["last_action_seq"] = last_action_seq
        current = self.store.save_checked(loaded.row.id, old_seq, changes,
                                          self._deal_rows(loaded, first))
        if current is not None:
            self.cache_drop(loaded.row.id)
            return current
        for k, v in changes.items():
            setattr(loaded.row, k, seats_of_text(v) if k == "winner_seats" else v)
        loaded.row.updated_at = time.time()
        loaded.seq = changes["seq"]
        self.cache_put(loaded)
        return None
