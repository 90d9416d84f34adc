"""The one table service (DESIGN.md "Tables and seats", docs/tables.md): every game the web
serves is a table of 2, 3 or 4 seats, each a person (with that seat's own token), a computer at
a level, or open (before the start). Playing the computer is a table with one person.

The server is the authority (DESIGN.md principle 7). Each request finds its seat by the token's
hash, rebuilds the table from its event log (or takes it from a small cache, checked against the
stored sequence number), applies the seat's action, lets the computers move from their own
views while it is their turn (seeded, so any process makes the same move), and commits
everything in one transaction before answering. The engine differences (standard game or
:class:`~ginrummy.web.variants.Match`) are behind :class:`~ginrummy.web.engines.TableEngine`.

Nothing that matters lives in this process: the cache is checked against the stored ``seq``,
seats, presence and messages are read from the store (:mod:`ginrummy.store.tables`), and every
change is announced through :meth:`ginrummy.store.Store.announce` (the live channel's hook).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import random
import re
import secrets
import threading
import time
import traceback
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..bots import DEFAULT_LEVEL, LEVELS, Bot, Context, make_bot
from ..bots.hints import hint
from ..cards import card_text, parse_card
from ..errors import (
    GinRummyError,
    IllegalActionError,
    InvalidNotationError,
    RulesError,
    shown_value,
)
from ..fairness import commitment_of, new_salt, shuffled_deck
from ..game import Game
from ..records import HandRecord
from ..rules import PRESETS, Rules
from ..store import DealRow, GameRow, Store
from ..store.tables import SeatRow, TableRow, TableStore
from ..store.variants import VariantStore
from ..variants import PLAYER_COUNT, SCORINGS, fit_to_table
from ..views import view_of
from .engines import MatchEngine, StandardEngine, TableEngine, replay_engine
from .errors import BadRequest, Illegal, NotFound, Refused, Stale, Unavailable, text_reason
from .service_base import token_hash
from .state import YOU, DealInfo
from .text import valid_name
from .variants import Match

__all__ = ["TableService", "GameService", "NotFound", "BadRequest", "Illegal", "Stale",
           "Unavailable", "Refused", "normalize_action", "token_hash", "checked_name",
           "NEXT_HAND", "MESSAGES", "AWAY_AFTER", "TURN_CLOCK_RANGE"]

log = logging.getLogger("ginrummy.web")

#: the person's action that deals the next hand (also accepted as ``next_hand``).
NEXT_HAND = "next hand"
#: the preset quick messages (docs/tables.md; translated by the page).
MESSAGES = ("hello", "good_luck", "good_game", "well_played", "thanks", "oops", "wait",
            "rematch")
#: a person seat without a live connection for this long (seconds) is away.
AWAY_AFTER = 20.0
#: how long an open live stream keeps its seat connected after each refresh (seconds).
PRESENCE_LEASE = 25.0
#: the turn clock's allowed seconds.
TURN_CLOCK_RANGE = (15, 600)
NAME_MAX = 24
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_CODE_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_KINDS = ("person", "computer", "open")


def _where(exc: BaseException) -> str:
    """An exception's type and the code lines it went through, without its message (which
    may name hidden cards: it goes to the server log)."""
    frames = traceback.extract_tb(exc.__traceback__)[-4:]
    path = " <- ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} {f.name}"
                       for f in reversed(frames))
    return f"{type(exc).__name__} at {path}" if path else type(exc).__name__


def normalize_action(text: str) -> str:
    """Lower case, single spaces: the form compared for duplicates."""
    return " ".join(text.strip().lower().split())


def checked_name(name: Any) -> str:
    """A display name: 1 to 24 characters after stripping, the rules of every name
    (:func:`ginrummy.web.text.valid_name`: valid Unicode, no control, line or paragraph
    separator, nor bidirectional formatting character such as U+202E; emoji and joiners are
    names like others), and at least one visible character (a letter, digit, punctuation or
    symbol: never only zero-width characters).

    :raises BadRequest: ``name`` (422) otherwise.
    """
    if not isinstance(name, str):
        raise BadRequest("name", "name_text")
    try:
        n = valid_name(name, NAME_MAX)
    except ValueError as e:
        reason, params = text_reason(e)
        raise BadRequest("name", reason, **params) from None
    if not any(unicodedata.category(c)[0] in "LNPS" for c in n):
        raise BadRequest("name", "name_invisible")
    return n


def _computer_seed(secret: str, number: int, count: int) -> int:
    """The seed of a computer's move: deal ``number`` after ``count`` actions, keyed by the
    game's secret (so a replayed game, in any process, makes the same moves)."""
    msg = f"{number}:{count}".encode()
    digest = hmac.new(bytes.fromhex(secret), msg, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def _invite_code(secret: str) -> str:
    """The table's invite code: 16 bytes keyed by the game's secret (unguessable without it,
    and given again to the creator on every state; the store keeps only its hash)."""
    digest = hmac.new(bytes.fromhex(secret), b"invite", hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def checked_rules(level: str | None, preset: str | None, overrides: dict[str, Any] | None
                  ) -> tuple[str, str, Rules]:
    """A new game's ``(level, preset, rules)``; ``overrides`` may name the preset too.

    :raises BadRequest: an unknown level or preset, or bad rules.
    """
    level = DEFAULT_LEVEL if level is None else level
    if level not in LEVELS:
        raise BadRequest("level", "unknown_level", level=shown_value(level), choices=list(LEVELS))
    ov = dict(overrides or {})
    base = preset if preset is not None else ov.pop("preset", "standard")
    ov.pop("preset", None)
    if not isinstance(base, str) or base not in PRESETS:
        raise BadRequest("rules", "unknown_preset", preset=shown_value(base),
                         choices=list(PRESETS))
    try:
        return level, base, Rules.preset(base, **ov)
    except RulesError as e:
        raise BadRequest.of("rules", e) from None
    except TypeError as e:
        raise BadRequest("rules", "other", text=str(e)) from None


def _checked_order(cards: list[str]) -> list[str]:
    """A hand order's cards in canonical text. :raises BadRequest: a bad or repeated card."""
    out: list[str] = []
    for c in cards:
        try:
            t = card_text(parse_card(c))
        except GinRummyError as e:
            raise BadRequest.of("invalid", e) from None
        if t in out:
            raise BadRequest("invalid", "duplicate_card", card=t)
        out.append(t)
    return out


@dataclass
class Loaded:
    """A table rebuilt from its record: its row, the fairness data of its deals, its engine
    (``None`` before the start)."""

    row: GameRow
    scoring: str
    deals: list[DealInfo]
    decks: list[list[str]]
    engine: TableEngine | None
    seq: int = field(default=0, kw_only=True)


@dataclass
class Seated:
    """Who asks: the game row, the table (``None``: a person playing the computer, whose seat
    is 0) and the asker's seat."""

    row: GameRow
    table: TableRow | None
    seat: int

    @property
    def creator(self) -> bool:
        return self.table is None or self.table.creator_seat == self.seat


class TableService:
    """Every table's operations. Thread-safe: one lock per game (striped) in this process, and
    the stored ``seq`` / table ``version`` checks across processes."""

    #: games kept rebuilt in memory (about 20 KB each); a request on a game not in it replays
    #: the game's whole record, so it should hold every game in play (a load test of 200
    #: concurrent games with 128 replayed nearly every request).
    CACHE_SIZE = 2048

    def __init__(self, store: Store, cache_size: int = CACHE_SIZE) -> None:
        self.store = store
        # sheet and scoring writes take the store's write lock (SQLite: one writer at a time)
        self.vstore = VariantStore(store.engine, store._writer)
        self.tables = TableStore(store.engine)
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self._locks = [threading.Lock() for _ in range(64)]
        self._bots: dict[str, Bot] = {}
        #: game id -> (scoring, has a tables row): neither ever changes
        self._kinds: OrderedDict[str, tuple[str, bool]] = OrderedDict()

    # ------------------------------------------------------------------------------ helpers
    def _lock(self, game_id: str) -> threading.Lock:
        return self._locks[hash(game_id) % len(self._locks)]

    def _bot(self, level: str) -> Bot:
        bot = self._bots.get(level)
        if bot is None:
            try:
                bot = make_bot(level)
            except Exception:  # unknown now, or its module failed to load
                log.warning("computer level %r unknown now; playing %r", level, DEFAULT_LEVEL)
                bot = make_bot(DEFAULT_LEVEL)
            self._bots[level] = bot
        return bot

    def _kind(self, game_id: str) -> tuple[str, bool]:
        with self._cache_lock:
            got = self._kinds.get(game_id)
            if got is not None:
                self._kinds.move_to_end(game_id)
                return got
        kind = (self.vstore.scoring(game_id) or "standard",
                self.tables.get(game_id) is not None)
        with self._cache_lock:
            self._kinds[game_id] = kind
            while len(self._kinds) > 8192:
                self._kinds.popitem(last=False)
        return kind

    def _authorize(self, game_id: str, token: str | None) -> Seated:
        """The asker's seat. :raises NotFound: unknown game, or no seat holds this token."""
        if not token or not _ID_RE.match(game_id) or len(token) > 256:
            raise NotFound
        row = self.store.get_game(game_id)
        if row is None:
            raise NotFound
        digest = token_hash(token)
        _scoring, has_table = self._kind(game_id)
        if not has_table:
            if not hmac.compare_digest(row.token_hash, digest):
                raise NotFound
            return Seated(row, None, YOU)
        table = self.tables.get(game_id)
        if table is None:  # pragma: no cover - a tables row is never removed
            raise NotFound
        found = None
        for s in table.seats:  # every seat compared: no early exit on a match
            if s.kind == "person" and not s.left and s.token_hash is not None \
                    and hmac.compare_digest(s.token_hash, digest):
                found = s.seat
        if found is None:
            raise NotFound
        return Seated(row, table, found)

    def _cache_put(self, loaded: Loaded) -> None:
        with self._cache_lock:
            self._cache[loaded.row.id] = loaded
            self._cache.move_to_end(loaded.row.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _cache_drop(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    def _replay(self, row: GameRow) -> Loaded:
        scoring, _ = self._kind(row.id)
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
        turns = list(row.turns) if row.turns is not None else None
        engine = replay_engine(scoring, Rules.from_dict(row.rules), row.first_dealer,
                               deal_rows, turns)
        loaded = Loaded(row, scoring, infos, decks, engine, seq=engine.seq())
        if loaded.seq != row.seq:  # pragma: no cover - only after a format change
            log.warning("game %s: stored seq %s, replay gives %s", row.id, row.seq, loaded.seq)
        return loaded

    def _load(self, row: GameRow) -> Loaded:
        with self._cache_lock:
            got = self._cache.get(row.id)
            if got is not None and got.seq == row.seq and got.engine is not None:
                self._cache.move_to_end(row.id)
                got.row = row
                return got
        return self._replay(row)

    def _reload(self, game_id: str) -> Loaded:
        row = self.store.get_game(game_id)
        assert row is not None
        return self._load(row)

    def _new_deck(self, loaded: Loaded, number: int) -> list[int]:
        """A shuffled deck for deal ``number``; its salt and commitment are kept in
        ``loaded`` (the fairness commitment of docs/fairness.md)."""
        deck = shuffled_deck()
        salt = new_salt()
        texts = [card_text(c) for c in deck]
        loaded.deals.append(DealInfo(number, salt, commitment_of(salt, texts)))
        loaded.decks.append(texts)
        return deck

    def _deal_hand(self, loaded: Loaded) -> None:
        assert loaded.engine is not None
        loaded.engine.deal_hand(lambda n: self._new_deck(loaded, n),
                                lambda: secrets.randbelow(2))

    # ---------------------------------------------------------------------------- seats
    @staticmethod
    def _seat_row(table: TableRow | None, seat: int) -> SeatRow | None:
        if table is None:
            return None
        for s in table.seats:
            if s.seat == seat:
                return s
        return None

    @staticmethod
    def _is_computer(table: TableRow | None) -> Callable[[int], bool]:
        """Whether a computer plays ``seat`` now: a computer seat, or a person's seat that
        person left or the creator handed to a computer while its person is away."""
        if table is None:
            return lambda seat: seat != YOU
        by = {s.seat: s for s in table.seats}

        def is_computer(seat: int) -> bool:
            s = by.get(seat)
            return s is None or s.kind != "person" or s.left or s.computer_for_away

        return is_computer

    def _level_of(self, row: GameRow, table: TableRow | None, seat: int) -> str:
        s = self._seat_row(table, seat)
        return s.level if s is not None and s.kind == "computer" and s.level else row.level

    def _computer_move(self, loaded: Loaded, table: TableRow | None, index: int) -> None:
        """One move of the computer to move in deal ``index``, from its own view."""
        engine = loaded.engine
        assert engine is not None
        hand = engine.deals()[index]
        seat = engine.mover(index)
        assert seat is not None
        view = view_of(hand, hand.current)
        points, target = engine.score_of(index)
        number = engine.deal_number(index)
        rng = random.Random(_computer_seed(loaded.row.secret, number, len(hand.history)))
        ctx = Context(rng=rng, hand_points=points, target=target)
        try:
            engine.apply(index, self._bot(self._level_of(loaded.row, table, seat))
                         .choose(view, ctx))
        except Exception as e:  # a faulty computer player must not stop the game
            # no message or traceback text: an engine error names the computer's cards
            log.error("game %s: the computer's move failed (%s); playing a random legal "
                      "one", loaded.row.id, _where(e))
            engine.apply(index, rng.choice(view.legal))

    def _advance(self, loaded: Loaded, table: TableRow | None) -> None:
        assert loaded.engine is not None
        loaded.engine.advance(self._is_computer(table),
                              lambda i: self._computer_move(loaded, table, i))

    # ----------------------------------------------------------------------- persisting
    def _status(self, loaded: Loaded) -> dict[str, Any]:
        result = loaded.engine.result() if loaded.engine is not None else None
        if result is None:
            return {"status": "playing", "winner": None, "margin": None, "finished_at": None}
        winner, margin = result
        return {"status": "over", "winner": winner, "margin": margin, "finished_at": time.time()}

    def _deal_rows(self, loaded: Loaded, first: int) -> list[DealRow]:
        assert loaded.engine is not None
        return [loaded.engine.deal_row(i, loaded.deals[i], loaded.decks[i])
                for i in range(first, len(loaded.deals))]

    def _turns(self, loaded: Loaded) -> str | None:
        e = loaded.engine
        return "".join(e.turns) if isinstance(e, MatchEngine) and e.turns is not None else None

    def _insert(self, loaded: Loaded, status: str | None = None) -> None:
        """Store a new game (its table's rows are stored before)."""
        row = loaded.row
        if loaded.engine is not None:
            loaded.seq = row.seq = loaded.engine.seq()
            st = self._status(loaded)
            row.status, row.winner, row.margin = st["status"], st["winner"], st["margin"]
            row.turns = self._turns(loaded)
        if status is not None:
            row.status = status
        self.store.insert_game(row, self._deal_rows(loaded, 0) if loaded.engine else [])
        if loaded.engine is not None:
            self._cache_put(loaded)

    def _persist(self, loaded: Loaded, seated: Seated, first: int, last_action: str | None,
                 last_action_seq: int | None) -> None:
        """Save the deals from ``first`` on and the game's new seq, if nobody else moved the
        game meanwhile (else :class:`Stale`, with ``seated``'s state)."""
        assert loaded.engine is not None
        old_seq = loaded.row.seq
        changes: dict[str, Any] = {"seq": loaded.engine.seq(), **self._status(loaded)}
        turns = self._turns(loaded)
        if turns is not None:
            changes["turns"] = turns
        if last_action is not None:
            changes["last_action"] = last_action
            changes["last_action_seq"] = last_action_seq
        current = self.store.save_checked(loaded.row.id, old_seq, changes,
                                          self._deal_rows(loaded, first))
        if current is not None:  # another request (perhaps another process) saved first
            self._cache_drop(loaded.row.id)
            raise Stale(self._state(self._load(current), seated, old_seq), current)
        for k, v in changes.items():
            setattr(loaded.row, k, v)
        loaded.row.updated_at = time.time()
        loaded.seq = changes["seq"]
        self._cache_put(loaded)

    def _expired(self, loaded: Loaded, table: TableRow | None) -> list[tuple[int, int]]:
        """The deals whose person mover's turn clock ran out: ``(index, seat)``."""
        if table is None or not table.turn_clock or loaded.engine is None \
                or loaded.row.status != "playing":
            return []
        if time.time() < loaded.row.updated_at + table.turn_clock:
            return []
        is_computer = self._is_computer(table)
        out = []
        for i in loaded.engine.in_play():
            p = loaded.engine.mover(i)
            if p is not None and not is_computer(p):
                out.append((i, p))
        return out

    def _catch_up(self, loaded: Loaded, seated: Seated) -> Loaded:
        """Let the computers move if one is to (after a failure, a seat handed to a computer,
        a person who left, or a turn clock run out: that seat's turn is played by a computer
        at the table's level), and save."""
        engine = loaded.engine
        if engine is None:
            return loaded
        table = seated.table
        expired = self._expired(loaded, table)
        if engine.computer_waiting(self._is_computer(table)) is None and not expired:
            return loaded
        first = min(engine.in_play(), default=len(loaded.deals))
        try:
            for index, seat in expired:  # that seat's turn only
                moves = 0
                while engine.mover(index) == seat and moves < 8:
                    self._computer_move(loaded, None if table is None else
                                        _without_level(table, seat), index)
                    moves += 1
            self._advance(loaded, table)
            self._persist(loaded, seated, first, None, None)
        except Stale:
            return self._reload(loaded.row.id)
        except Exception:
            self._cache_drop(loaded.row.id)
            raise
        return loaded

    # --------------------------------------------------------------------------- state
    def _hand_order(self, loaded: Loaded, seated: Seated) -> list[str] | None:
        if seated.table is None:
            order = loaded.row.hand_order or {}
        else:
            s = self._seat_row(seated.table, seated.seat)
            order = (s.hand_order if s is not None else None) or {}
        if loaded.engine is None:
            return None
        return order.get("cards") if order.get("hand") == loaded.engine.hand_number(
            seated.seat) else None

    def seats_json(self, table: TableRow, seat: int, now: float | None = None,
                   status: str = "playing") -> list[dict[str, Any]]:
        """``state.seats`` (docs/tables.md) for ``seat``: names, kinds, presence."""
        t = time.time() if now is None else now
        out = []
        for s in table.seats:
            person = s.kind == "person"
            connected = person and not s.left and s.connected_until > t
            away = (person and not s.left and status == "playing" and not connected
                    and t - s.connected_until > AWAY_AFTER)
            out.append({"seat": s.seat, "kind": s.kind, "name": s.name if person else None,
                        "level": s.level if s.kind == "computer" else None,
                        "you": s.seat == seat, "creator": s.seat == table.creator_seat,
                        "connected": connected, "away": away, "left": person and s.left,
                        "computer_for_away": person and s.computer_for_away})
        return out

    def _table_json(self, loaded: Loaded, seated: Seated) -> dict[str, Any]:
        table = seated.table
        assert table is not None
        row = loaded.row
        status = "waiting" if loaded.engine is None else (
            "over" if row.status == "over" else "playing")
        invite = None
        if seated.creator and status == "waiting":
            code = _invite_code(row.secret)
            invite = {"code": code, "url": f"/join/{code}"}
        deadline = None
        if table.turn_clock and status == "playing" and loaded.engine is not None:
            is_computer = self._is_computer(table)
            if any(not is_computer(p) for p in (loaded.engine.mover(i)
                                                for i in loaded.engine.in_play())
                   if p is not None):
                deadline = row.updated_at + table.turn_clock
        return {"status": status, "players": PLAYER_COUNT[loaded.scoring],
                "scoring": loaded.scoring, "creator": seated.creator, "invite": invite,
                "turn_clock": table.turn_clock, "turn_deadline": deadline,
                "rematch": {"game_id": table.rematch_id} if table.rematch_id else None}

    def _waiting_state(self, loaded: Loaded, seated: Seated) -> dict[str, Any]:
        """The state of a table before its start: no cards yet."""
        row = loaded.row
        r = {"code": "waiting"}
        return {
            "game_id": row.id, "seq": 0, "phase": "waiting", "you": seated.seat,
            "dealer": None, "turn": None, "level": row.level, "hand_number": 0,
            "rules": {"preset": row.preset, **row.rules}, "scoring": loaded.scoring,
            "hand": [], "drawn": None, "taken_from_discard": None,
            "arrangement": {"melds": [], "deadwood": [], "deadwood_points": 0},
            "opponent": {"card_count": 0, "known": []}, "stock_count": 0, "discard_pile": [],
            "legal": [], "knock": {"allowed": False, "reason": r},
            "gin": {"allowed": False, "reason": dict(r)}, "events": [], "result": None,
            "score": None, "fairness": {"commitment": None, "revealed": None, "history": []},
        }

    def _state(self, loaded: Loaded, seated: Seated, since: int | None) -> dict[str, Any]:
        """``seated``'s state with the events after ``since``."""
        row = loaded.row
        if loaded.engine is None:
            st = self._waiting_state(loaded, seated)
        else:
            st = loaded.engine.state(seated.seat, since, game_id=row.id, deals=loaded.deals,
                                     level=row.level, preset=row.preset,
                                     hand_order=self._hand_order(loaded, seated))
        if seated.table is not None:
            status_json = self._table_json(loaded, seated)
            st["table"] = {**(st.get("table") or {}), **status_json}
            st["seats"] = self.seats_json(seated.table, seated.seat,
                                          status=status_json["status"])
            st["messages"] = [{"seq_at": m.seq_at, "seat": m.seat, "message": m.message,
                               "at": m.at} for m in self.tables.messages(row.id)]
        return st

    def _begin(self, loaded: Loaded, seated: Seated) -> None:
        """Build the engine of a table at its start and deal its first hand."""
        row = loaded.row
        rules = Rules.from_dict(row.rules)
        engine: TableEngine
        if loaded.scoring == "standard":
            engine = StandardEngine(Game(rules, row.first_dealer))
        else:
            people_elsewhere = seated.table is not None and any(
                s.kind == "person" and s.seat != 0 for s in seated.table.seats)
            engine = MatchEngine(Match(loaded.scoring, rules, row.first_dealer),
                                 [] if people_elsewhere else None)
        loaded.engine = engine
        self._deal_hand(loaded)
        self._advance(loaded, seated.table)

    # ---------------------------------------------------------------------- game requests
    def create(self, player_id: str | None, level: str | None, preset: str | None,
               overrides: dict[str, Any] | None, scoring: str | None = None,
               seats: list[dict[str, Any]] | None = None, name: str | None = None,
               turn_clock: int | None = None) -> dict[str, Any]:
        """A new table: ``{"game_id", "token", "seat", "state", "invite"}``. Without ``seats``
        a person plays the computers (answered exactly as before: no table fields).

        :raises BadRequest: bad level, rules, seats, name or turn clock.
        """
        scoring = scoring or "standard"
        if scoring not in SCORINGS:
            raise BadRequest("rules", "unknown_scoring", scoring=shown_value(scoring),
                             choices=list(SCORINGS))
        if scoring != "standard":
            try:  # the fields the table decides itself take its values (any preset fits)
                overrides = fit_to_table(dict(overrides or {}), scoring)
            except RulesError as e:
                raise BadRequest.of("rules", e) from None
        level, base, rules = checked_rules(level, preset, overrides)
        n = PLAYER_COUNT[scoring]
        first = secrets.randbelow(3) if scoring == "three_player" else secrets.randbelow(2)
        engine: TableEngine
        if scoring == "standard":
            engine = StandardEngine(Game(rules, first))
        else:
            try:
                engine = MatchEngine(Match(scoring, rules, first))
            except RulesError as e:
                raise BadRequest.of("rules", e) from None
            except TypeError as e:
                raise BadRequest("rules", "other", text=str(e)) from None
        table_seats = None
        if seats is not None or name is not None or turn_clock is not None:
            table_seats = self._checked_seats(seats, n, level)
            if turn_clock is not None and not (
                    TURN_CLOCK_RANGE[0] <= turn_clock <= TURN_CLOCK_RANGE[1]):
                raise BadRequest("turn_clock", "turn_clock", min=TURN_CLOCK_RANGE[0],
                                 max=TURN_CLOCK_RANGE[1])
            if name is None:
                raise BadRequest("name", "name_needed")
            creator_name = checked_name(name)
            table_seats[0].name = creator_name
        game_id = secrets.token_urlsafe(16)
        token = secrets.token_urlsafe(32)
        row = GameRow(id=game_id, token_hash=token_hash(token), player_id=player_id,
                      level=level, preset=base, rules=rules.to_dict(), first_dealer=first,
                      secret=secrets.token_hex(32), seq=0)
        if table_seats is None:
            loaded = Loaded(row, scoring, [], [], engine)
            with self._lock(row.id):
                self._deal_hand(loaded)
                self._advance(loaded, None)
                if scoring != "standard":
                    self.vstore.set_scoring(row.id, scoring)
                with self._cache_lock:
                    self._kinds[row.id] = (scoring, False)
                self._insert(loaded)
                seated = Seated(row, None, YOU)
                return {"game_id": game_id, "token": token, "seat": YOU,
                        "state": self._state(loaded, seated, 0), "invite": None}
        table_seats[0].token_hash = row.token_hash
        table_seats[0].connected_until = time.time()
        table = TableRow(game_id=game_id, status="waiting", creator_seat=0,
                         invite_hash=token_hash(_invite_code(row.secret)),
                         turn_clock=turn_clock, seats=table_seats)
        with self._lock(row.id):
            if scoring != "standard":
                self.vstore.set_scoring(row.id, scoring)
            self.tables.insert(table)
            with self._cache_lock:
                self._kinds[row.id] = (scoring, True)
            loaded = Loaded(row, scoring, [], [], None)
            self._insert(loaded, status="waiting")
            seated = Seated(row, table, 0)
            state = self._state(loaded, seated, 0)
            return {"game_id": game_id, "token": token, "seat": 0, "state": state,
                    "invite": state["table"]["invite"]}

    @staticmethod
    def _checked_seats(seats: list[dict[str, Any]] | None, n: int, level: str
                       ) -> list[SeatRow]:
        if seats is None:
            seats = [{"kind": "person"}] + [{"kind": "open"}] * (n - 1)
        if len(seats) != n:
            raise BadRequest("seats", "seat_count", n=n)
        out = []
        for i, s in enumerate(seats):
            kind = s.get("kind")
            if kind not in _KINDS:
                raise BadRequest("seats", "seat_kind", seat=i)
            if (i == 0) != (kind == "person"):
                raise BadRequest("seats", "seat_creator")
            lv = s.get("level")
            if kind == "computer":
                lv = level if lv is None else lv
                if lv not in LEVELS:
                    raise BadRequest("level", "unknown_level", level=shown_value(lv),
                                     choices=list(LEVELS))
            else:
                lv = None
            out.append(SeatRow(seat=i, kind=kind, level=lv))
        return out

    def get(self, game_id: str, token: str | None, since: int | None) -> dict[str, Any]:
        """The table's state for the token's seat with the events after ``since`` (``None``:
        those of its deal in play). :raises NotFound: unknown game or no seat's token."""
        with self._lock(game_id):
            seated = self._authorize(game_id, token)
            return self._state(self._catch_up(self._load(seated.row), seated), seated, since)

    def act(self, game_id: str, token: str | None, text: str, seq: int
            ) -> tuple[dict[str, Any], bool]:
        """Apply the seat's action made at ``seq``; returns ``(state, duplicate)``.

        :raises NotFound: unknown game or no seat's token.
        :raises Stale: ``seq`` is not the game's (the state is attached).
        :raises BadRequest: the text cannot be read (``Illegal``: the rules forbid it).
        """
        with self._lock(game_id):
            seated = self._authorize(game_id, token)
            row = seated.row
            norm = normalize_action(text)
            mark = norm if seated.table is None else f"{seated.seat}:{norm}"

            def duplicate(now: GameRow, got: Loaded | None = None
                          ) -> tuple[dict[str, Any], bool] | None:
                """The answer to this action if ``now`` (the stored row) says it was
                applied already (a double click, a retry, the same request on two processes)."""
                if now.last_action is None or now.last_action_seq != seq \
                        or now.last_action != mark:
                    return None
                state = self._state(got if got is not None else self._load(now), seated, seq)
                state["duplicate"] = True
                return state, True

            dup = duplicate(row)
            if dup is not None:
                return dup
            loaded = self._catch_up(self._load(row), seated)
            engine = loaded.engine
            if engine is None:
                raise Illegal("waiting")
            if seq != loaded.seq:
                # the game read with its deals may be newer than ``row`` (another process saved
                # in between): perhaps by this very action
                dup = duplicate(loaded.row, loaded)
                if dup is not None:
                    return dup
                raise Stale(self._state(loaded, seated, min(seq, loaded.seq)))
            action: Action | None = None
            if norm in (NEXT_HAND, "next_hand"):
                if engine.result() is not None:
                    raise Illegal("game_over")
                first = engine.check_next_hand()
            else:
                try:
                    action = Action.parse(text)
                except InvalidNotationError as e:
                    raise BadRequest.of("invalid", e) from None
                except ValueError as e:
                    raise BadRequest("invalid", "other", text=str(e)) from None
                if engine.result() is not None:
                    raise Illegal("game_over")
                hand, first = engine.seat_hand(seated.seat)
                try:
                    hand.verify(action)
                except IllegalActionError as e:
                    raise Illegal.because(e) from None
            try:
                if action is None:
                    self._deal_hand(loaded)
                else:
                    engine.apply(first, action)
                self._advance(loaded, seated.table)
                first = min([first, *engine.in_play()])
                self._persist(loaded, seated, first, mark, seq)
            except Stale as e:
                # another request saved first; if it was this very action, it is a duplicate
                dup = None if e.current is None else duplicate(e.current)
                if dup is not None:
                    return dup
                raise
            except Exception:
                self._cache_drop(game_id)
                raise
            return self._state(loaded, seated, seq), False

    def finished_deal(self, game_id: str, token: str | None, number: int
                      ) -> tuple[dict[str, Any], HandRecord]:
        """Deal ``number`` of the game if it is over: its placement (``{"scoring", "hand",
        "table", "players", "you"}`` with ``"number"`` and ``"finished_hands"``) and its
        record. A deal in play is never given: its stock and the other hands are hidden.

        :raises NotFound: unknown game or no seat's token.
        :raises Unavailable: no such deal (404) or the deal is in play (409).
        """
        with self._lock(game_id):
            seated = self._authorize(game_id, token)
            row = seated.row
            loaded = self._load(row)
            deals = loaded.engine.numbered_deals(seated.seat) if loaded.engine else []
            found = [(h, placement) for n, h, placement in deals if n == number]
            if not found:
                raise Unavailable(404, "not_found", "no_hand", number=number)
            h, placement = found[0]
            if not h.is_over:
                raise Unavailable(409, "hand_in_play", "hand_in_play", number=number)
            about = {"number": number, "level": row.level, "preset": row.preset,
                     "finished_hands": [n for n, d, _ in deals if d.is_over], **placement}
            return about, HandRecord.of(h)  # copies: a finished deal never changes

    def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The suggested move for the seat, explained (:func:`ginrummy.bots.hints.hint`, from
        its own view): ``{"seq", "hint"}``, or ``{"seq", "hint": None, "reason"}`` when it is
        not to move (``game_over``, ``hand_over``, ``not_your_turn``, ``sitting_out``,
        ``waiting``). Changes nothing.

        :raises NotFound: unknown game or no seat's token.
        """
        with self._lock(game_id):
            seated = self._authorize(game_id, token)
            loaded = self._load(seated.row)
            seq = loaded.seq
            engine = loaded.engine
            if engine is None:
                return {"seq": seq, "hint": None, "reason": "waiting"}
            if engine.result() is not None:
                return {"seq": seq, "hint": None, "reason": "game_over"}
            try:
                hand, index = engine.seat_hand(seated.seat)
            except Illegal as e:
                return {"seq": seq, "hint": None, "reason": e.reason}
            points, target = engine.score_of(index)
            view = view_of(hand, hand.current)
            return {"seq": seq, "hint": hint(view, points, target).to_json()}

    def set_order(self, game_id: str, token: str | None, cards: list[str]) -> None:
        """Keep the seat's hand order for its deal in play (cards held later but not named
        come after it when shown).

        :raises BadRequest: ``invalid``: a malformed or repeated card, or one not held now.
        """
        with self._lock(game_id):
            seated = self._authorize(game_id, token)
            out = _checked_order(cards)
            loaded = self._load(seated.row)
            held = set(self._state(loaded, seated, loaded.seq).get("hand") or ())
            if not held.issuperset(out):
                raise BadRequest("invalid", "order_not_held",
                                 cards=[c for c in out if c not in held])
            number = loaded.engine.hand_number(seated.seat) if loaded.engine else 0
            order = {"hand": number, "cards": out}
            if seated.table is not None:
                self.tables.set_hand_order(game_id, seated.seat, order)
                return
            self.store.set_hand_order(game_id, order)
            seated.row.hand_order = order
            loaded.row.hand_order = order

    def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The fairness record: every finished deal with deck, salt, commitment and actions;
        only the commitment of a deal in play. :func:`ginrummy.fairness.replay_check` reads it.
        """
        with self._lock(game_id):
            seated = self._authorize(game_id, token)
            row = seated.row
            loaded = self._load(row)
            if loaded.engine is None:
                raise Unavailable(409, "not_started", "not_started")
            return loaded.engine.record(game_id, row.preset, row.first_dealer, loaded.deals,
                                        loaded.decks)

    def game(self, game_id: str) -> Game:
        """A standard game rebuilt afresh from the store (server side only: it holds hidden
        cards).

        :raises NotFound: no such game (or not a standard one).
        """
        engine = self.engine_of(game_id)
        if not isinstance(engine, StandardEngine):
            raise NotFound
        return engine.game

    def engine_of(self, game_id: str) -> TableEngine:
        """Any table's engine rebuilt afresh from the store (server side only).

        :raises NotFound: no such game, or not started."""
        row = self.store.get_game(game_id)
        if row is None:
            raise NotFound
        engine = self._replay(row).engine
        if engine is None:
            raise NotFound
        return engine

    def stats(self, player_id: str | None) -> dict[str, Any]:
        """Statistics of the games created by one browser (``player_id``), from seat 0's
        side."""
        games = self.store.player_games(player_id) if player_id else []
        results = self.store.player_results(player_id) if player_id else []
        games = [g for g in games if g.status != "waiting"]
        finished = [g for g in games if g.status == "over"]
        won = [g for g in finished if g.winner == YOU]
        margins = [g.margin for g in won if g.margin is not None]
        streak_kind: str | None = None
        streak = 0
        for g in sorted(finished, key=lambda g: (g.finished_at or 0, g.created_at),
                        reverse=True):
            kind = "won" if g.winner == YOU else "lost"
            if streak_kind is None:
                streak_kind = kind
            if kind != streak_kind:
                break
            streak += 1
        other = 1
        hands_won = sum(1 for _, w, _ in results if w == YOU)
        hands_lost = sum(1 for _, w, _ in results if w == other)

        def count(kind: str, winner: int) -> int:
            return sum(1 for k, w, _ in results if k == kind and w == winner)

        return {
            "games_played": len(finished),
            "games_won": len(won),
            "games_lost": len(finished) - len(won),
            "games_in_progress": len(games) - len(finished),
            "hands_played": len(results),
            "hands_won": hands_won,
            "hands_lost": hands_lost,
            "hands_dead": sum(1 for k, _, _ in results if k == "dead"),
            "gins": count("gin", YOU),
            "big_gins": count("big_gin", YOU),
            "gins_against": count("gin", other) + count("big_gin", other),
            "knocks": sum(1 for k, _, kn in results
                          if kn == YOU and k in ("knock", "undercut", "tie")),
            "knocks_won": count("knock", YOU),
            "undercuts_by_you": count("undercut", YOU),
            "undercuts_against_you": count("undercut", other),
            "best_margin": max(margins) if margins else None,
            "current_streak": {"kind": streak_kind, "length": streak},
        }


def _without_level(table: TableRow, seat: int) -> TableRow:
    """``table`` as seen by a turn clock's computer: ``seat`` plays at the table's level."""
    return TableRow(game_id=table.game_id, status=table.status,
                    creator_seat=table.creator_seat,
                    seats=[s if s.seat != seat else SeatRow(seat=seat, kind="person")
                           for s in table.seats])


#: the name the app and older code use.
GameService = TableService
