"""The one table service (DESIGN.md "Tables and seats", docs/tables.md): the game flow of every
game the web serves. Each is a table of 2, 3 or 4 seats, each a person (with that seat's own
token), a computer at a level, or open (before the start). Playing the computer is a table
with one person.

The server is the authority (DESIGN.md principle 7). Each request finds its seat
(:meth:`~ginrummy.web.tables.stored.TableRecords.authorize`), takes the game rebuilt from its
record (:mod:`ginrummy.web.tables.stored`), applies the seat's action, lets the computers move
from their own views while it is their turn (seeded, so any process makes the same move), and
saves everything in one transaction before answering with the seat's state
(:mod:`ginrummy.web.tables.seat_state`). Every form is one :class:`ginrummy.game.Game` behind
:class:`~ginrummy.web.tables.engine.TableEngine`, its computers moved by the engine's one loop
(:func:`ginrummy.bots.play.advance`); the seats' operations (joining, leaving, the rematch,
presence) are :class:`ginrummy.web.tables.seats.Seats`'s.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import time
import traceback
from collections.abc import Callable
from typing import Any

from ...actions import Action
from ...bots import DEFAULT_LEVEL, LEVELS, Bot, make_bot
from ...bots.hints import hint
from ...bots.strength import level_ratings
from ...cards import card_text
from ...errors import IllegalActionError, InvalidNotationError, RulesError, shown_value
from ...fairness import commitment_of, new_salt, shuffled_deck
from ...game import Game
from ...records import HandRecord
from ...rules import Rules
from ...store import GameRow, SeatRow, Statistics, Store, TableRow
from ...variants import FIRST_DEALERS, PLAYER_COUNT, SCORINGS, fit_to_table
from ...views import view_of
from ..http.errors import BadRequest, Illegal, NotFound, Stale, Unavailable
from ..http.tokens import invite_code, token_hash
from .engine import DealInfo, TableEngine
from .fairness_record import fairness_record
from .inputs import (
    NEXT_HAND,
    checked_name,
    checked_order,
    checked_rules,
    checked_seats,
    checked_turn_clock,
    normalize_action,
)
from .rating_stats import person_rating
from .seat_state import is_computer, seat_row, seat_state
from .stats import player_stats
from .stored import Loaded, Seated, TableRecords

__all__ = ["TableService"]

log = logging.getLogger("ginrummy.web")
#: ``games.status`` of a game its person gave up (a lost game; docs/api.md "Resigning").
RESIGNED = "resigned"


def _where(exc: BaseException) -> str:
    """An exception's type and the code lines it went through, without its message (which
    may name hidden cards: it goes to the server log)."""
    frames = traceback.extract_tb(exc.__traceback__)[-4:]
    path = " <- ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} {f.name}"
                       for f in reversed(frames))
    return f"{type(exc).__name__} at {path}" if path else type(exc).__name__


def _computer_seed(secret: str, number: int, count: int) -> int:
    """The seed of a computer's move: deal ``number`` after ``count`` actions, keyed by the
    game's secret (so a replayed game, in any process, makes the same moves)."""
    msg = f"{number}:{count}".encode()
    digest = hmac.new(bytes.fromhex(secret), msg, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def _as_resigned(st: dict[str, Any], seat: int) -> None:
    """A state of a resigned game (docs/api.md "Resigning"): over, nothing to do."""
    st.update(phase="game-over", turn=None, legal=[],
              knock={"allowed": False, "reason": {"code": "hand_over"}},
              gin={"allowed": False, "reason": {"code": "hand_over"}},
              resigned={"seat": seat})


class TableService:
    """Every table's game operations. Thread-safe: the records' per-game lock in this
    process, and the stored ``seq`` / table ``version`` checks across processes."""

    CACHE_SIZE = TableRecords.CACHE_SIZE

    def __init__(self, store: Store, cache_size: int = CACHE_SIZE) -> None:
        self.records = TableRecords(store, cache_size)
        self.store = store
        self.vstore = self.records.vstore
        self.tables = self.records.tables
        self.statistics = Statistics(store.engine, store.single)
        self._bots: dict[str, Bot] = {}

    # -------------------------------------------------------------------------- computers
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

    @staticmethod
    def _level_of(row: GameRow, table: TableRow, seat: int) -> str:
        s = seat_row(table, seat)
        return s.level if s is not None and s.kind == "computer" and s.level else row.level

    def _players(self, loaded: Loaded, table: TableRow) -> list[Bot | None]:
        """Per seat, the computer that plays it now (``None``: a person)."""
        engine = loaded.engine
        assert engine is not None
        computer = is_computer(table)
        return [self._bot(self._level_of(loaded.row, table, seat)) if computer(seat) else None
                for seat in range(engine.players)]

    @staticmethod
    def _rng_of(loaded: Loaded) -> Callable[[int], random.Random]:
        """The random source of the next computer move in a deal: seeded by the game's secret,
        the deal's number and its action count, so that any process makes the same move."""
        engine = loaded.engine
        assert engine is not None

        def rng(index: int) -> random.Random:
            return random.Random(_computer_seed(loaded.row.secret, engine.deal_number(index),
                                                len(engine.deals()[index].history)))

        return rng

    @staticmethod
    def _fault(loaded: Loaded) -> Callable[[int, int, Exception], None]:
        def fault(index: int, seat: int, e: Exception) -> None:
            # no message or traceback text: an engine error names the computer's cards
            log.error("game %s: the computer's move failed (%s); playing a random legal "
                      "one", loaded.row.id, _where(e))

        return fault

    def _advance(self, loaded: Loaded, table: TableRow) -> None:
        """Let the computers move while it is their turn (from their own views)."""
        assert loaded.engine is not None
        # the people's seats a computer plays now (left, or handed to it): its moves there
        # are marked as a computer's for a person (none at a game against the computer)
        people = frozenset(s.seat for s in table.seats
                           if s.kind == "person" and (s.left or s.computer_for_away))
        loaded.engine.advance(self._players(loaded, table), self._rng_of(loaded),
                              self._fault(loaded), people=people)

    def _clock_move(self, loaded: Loaded, index: int, seat: int) -> None:
        """``seat``'s turn in deal ``index``, its clock run out, played by a computer at the
        table's level (that seat's alone)."""
        engine = loaded.engine
        assert engine is not None
        players: list[Bot | None] = [self._bot(loaded.row.level) if p == seat else None
                                     for p in range(engine.players)]
        engine.advance(players, self._rng_of(loaded), self._fault(loaded), limit=8,
                       people=frozenset({seat}))

    # ------------------------------------------------------------------------------ deals
    @staticmethod
    def _new_deck(loaded: Loaded, number: int) -> list[int]:
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

    def _begin(self, loaded: Loaded, seated: Seated) -> None:
        """Build the engine of a table at its start and deal its first hand."""
        row = loaded.row
        people_elsewhere = any(s.kind == "person" and s.seat != 0 for s in seated.table.seats)
        loaded.engine = TableEngine(Game(Rules.from_dict(row.rules), row.first_dealer,
                                         loaded.scoring), paced=not people_elsewhere)
        self._deal_hand(loaded)
        self._advance(loaded, seated.table)

    # ----------------------------------------------------------------------------- saving
    def _state(self, loaded: Loaded, seated: Seated, since: int | None) -> dict[str, Any]:
        """``seated``'s state with the events after ``since`` (a resigned game's: over,
        ``resigned``; docs/api.md "Resigning")."""
        st = seat_state(self.records.messages, loaded, seated, since)
        if loaded.row.status == RESIGNED and loaded.engine is not None:
            _as_resigned(st, seated.seat)
        return st

    def _persist(self, loaded: Loaded, seated: Seated, first: int, last_action: str | None,
                 last_action_seq: int | None) -> None:
        """Save the deals from ``first`` on and the game's new seq, if nobody else moved the
        game meanwhile (else :class:`Stale`, with ``seated``'s state)."""
        old_seq = loaded.row.seq
        current = self.records.save(loaded, first, last_action, last_action_seq)
        if current is not None:  # another request (perhaps another process) saved first
            raise Stale(self._state(self.records.load(current), seated, old_seq), current)

    def _expired(self, loaded: Loaded, table: TableRow) -> list[tuple[int, int]]:
        """The deals whose person mover's turn clock ran out: ``(index, seat)`` (each deal's
        clock runs from its own turn's start: a partnership's two tables apart)."""
        if not table.turn_clock or loaded.engine is None or loaded.row.status != "playing":
            return []
        computer = is_computer(table)
        now = time.time()
        out = []
        for i in loaded.engine.in_play():
            p = loaded.engine.mover(i)
            if p is not None and not computer(p) \
                    and now >= loaded.turn_began(i) + table.turn_clock:
                out.append((i, p))
        return out

    def _catch_up(self, loaded: Loaded, seated: Seated) -> Loaded:
        """Let the computers move if one is to (after a failure, a seat handed to a computer,
        a person who left, or a turn clock run out: that seat's turn is played by a computer
        at the table's level), and save."""
        engine = loaded.engine
        if engine is None or loaded.row.status == RESIGNED:
            return loaded
        table = seated.table
        expired = self._expired(loaded, table)
        if engine.computer_waiting(is_computer(table)) is None and not expired:
            return loaded
        first = min(engine.in_play(), default=len(loaded.deals))
        try:
            for index, seat in expired:  # that seat's turn only
                self._clock_move(loaded, index, seat)
            self._advance(loaded, table)
            self._persist(loaded, seated, first, None, None)
        except Stale:
            return self.records.reload(loaded.row.id)
        except Exception:
            self.records.cache_drop(loaded.row.id)
            raise
        return loaded

    # ---------------------------------------------------------------------- game requests
    def create(self, player_id: str | None, level: str | None, preset: str | None,
               overrides: dict[str, Any] | None, scoring: str | None = None,
               seats: list[dict[str, Any]] | None = None, name: str | None = None,
               turn_clock: int | None = None) -> dict[str, Any]:
        """A new table: ``{"game_id", "token", "seat", "state", "invite"}``. With ``seats``
        (or a ``name`` or a ``turn_clock``) a table of people, waiting for its start, with an
        invite; without, a person plays the computers: a table with one person (seat 0) and
        no invite, dealt at once and answered exactly as before tables existed (no table
        fields; ``invite`` null).

        :raises BadRequest: bad level, rules, seats, name or turn clock.
        """
        scoring = scoring or "standard"
        if scoring not in SCORINGS:
            raise BadRequest("rules", "unknown_scoring", scoring=shown_value(scoring),
                             choices=list(SCORINGS))
        try:  # the fields the table decides itself take its values (any preset fits)
            overrides = fit_to_table(dict(overrides or {}), scoring)
        except RulesError as e:
            raise BadRequest.of("rules", e) from None
        level, base, rules = checked_rules(level, preset, overrides)
        n = PLAYER_COUNT[scoring]
        first = secrets.randbelow(FIRST_DEALERS[scoring])
        try:
            Game(rules, first, scoring)
        except RulesError as e:
            raise BadRequest.of("rules", e) from None
        except TypeError as e:
            raise BadRequest("rules", "other", text=str(e)) from None
        people = seats is not None or name is not None or turn_clock is not None
        if people:
            table_seats = checked_seats(seats, n, level)
            checked_turn_clock(turn_clock)
            if name is None:
                raise BadRequest("name", "name_needed")
            table_seats[0].name = checked_name(name)
        else:  # the person and the computers
            table_seats = [SeatRow(seat=0, kind="person")] + [
                SeatRow(seat=i, kind="computer", level=level) for i in range(1, n)]
        game_id = secrets.token_urlsafe(16)
        token = secrets.token_urlsafe(32)
        row = GameRow(id=game_id, token_hash=token_hash(token), player_id=player_id,
                      level=level, preset=base, rules=rules.to_dict(), first_dealer=first,
                      secret=secrets.token_hex(32), seq=0)
        creator = table_seats[0]
        creator.token_hash, creator.player_id = row.token_hash, player_id
        creator.connected_until = time.time()
        table = TableRow(game_id=game_id, status="waiting" if people else "playing",
                         creator_seat=0, turn_clock=turn_clock, seats=table_seats,
                         invite_hash=token_hash(invite_code(row.secret)) if people else None)
        loaded = Loaded(row, scoring, [], [], None)
        seated = Seated(row, table, 0)
        with self.records.lock(row.id):
            if table.status == "playing":  # nobody to wait for: dealt at once
                self._begin(loaded, seated)
            self.records.insert(loaded, table)
            state = self._state(loaded, seated, 0)
            return {"game_id": game_id, "token": token, "seat": 0, "state": state,
                    "invite": (state.get("table") or {}).get("invite")}

    def get(self, game_id: str, token: str | None, since: int | None) -> dict[str, Any]:
        """The table's state for the token's seat with the events after ``since`` (``None``:
        those of its deal in play). :raises NotFound: unknown game or no seat's token."""
        with self.records.lock(game_id):
            seated = self.records.authorize(game_id, token)
            return self._state(self._catch_up(self.records.load(seated.row), seated), seated, since)

    def act(self, game_id: str, token: str | None, text: str, seq: int
            ) -> tuple[dict[str, Any], bool]:
        """Apply the seat's action made at ``seq``; returns ``(state, duplicate)``.

        :raises NotFound: unknown game or no seat's token.
        :raises Stale: ``seq`` is not the game's (the state is attached).
        :raises BadRequest: the text cannot be read (``Illegal``: the rules forbid it).
        """
        with self.records.lock(game_id):
            seated = self.records.authorize(game_id, token)
            row = seated.row
            norm = normalize_action(text)
            mark = f"{seated.seat}:{norm}"  # the seat's action (schema 8 marked every game so)

            def duplicate(now: GameRow, got: Loaded | None = None
                          ) -> tuple[dict[str, Any], bool] | None:
                """The answer to this action if ``now`` (the stored row) says it was
                applied already (a double click, a retry, the same request on two processes)."""
                if now.last_action is None or now.last_action_seq != seq \
                        or now.last_action != mark:
                    return None
                state = self._state(got if got is not None else self.records.load(now), seated, seq)
                state["duplicate"] = True
                return state, True

            dup = duplicate(row)
            if dup is not None:
                return dup
            loaded = self._catch_up(self.records.load(row), seated)
            engine = loaded.engine
            if engine is None:
                raise Illegal("waiting")
            if loaded.row.status == RESIGNED:
                raise Illegal("game_over")
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
                self.records.cache_drop(game_id)
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
        with self.records.lock(game_id):
            seated = self.records.authorize(game_id, token)
            row = seated.row
            loaded = self.records.load(row)
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
        with self.records.lock(game_id):
            seated = self.records.authorize(game_id, token)
            loaded = self.records.load(seated.row)
            seq = loaded.seq
            engine = loaded.engine
            if engine is None:
                return {"seq": seq, "hint": None, "reason": "waiting"}
            if engine.result() is not None or loaded.row.status == RESIGNED:
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
        with self.records.lock(game_id):
            seated = self.records.authorize(game_id, token)
            out = checked_order(cards)
            loaded = self.records.load(seated.row)
            held = set(self._state(loaded, seated, loaded.seq).get("hand") or ())
            if not held.issuperset(out):
                raise BadRequest("invalid", "order_not_held",
                                 cards=[c for c in out if c not in held])
            number = loaded.engine.hand_number(seated.seat) if loaded.engine else 0
            self.tables.set_hand_order(game_id, seated.seat, {"hand": number, "cards": out})

    def resign(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Give up the game in play of a person playing the computer: the game is over and
        counts as lost (``status`` ``"resigned"``; RULES.md has no resignation, so no points
        are scored and the deal in play is abandoned, never revealed). Returns the seat's
        state, as every later read gives it (docs/api.md "Resigning").

        :raises NotFound: unknown game or no seat's token.
        :raises Unavailable: 409 ``people`` at a table of people (a table with an invite:
            they leave it instead); 409 ``game_over`` when the game is over or resigned
            already. Nothing changes.
        """
        with self.records.lock(game_id):
            seated = self.records.authorize(game_id, token)
            if seated.table.shared:
                raise Unavailable(409, "people", "resign_people")
            loaded = self.records.load(seated.row)
            row = loaded.row
            if row.status != "playing" or loaded.engine is None \
                    or loaded.engine.result() is not None:
                raise Unavailable(409, "game_over", "game_over")
            changes = {"status": RESIGNED, "winner": None, "margin": None,
                       "finished_at": time.time()}
            current = self.store.save_checked(row.id, row.seq, changes, [])
            if current is not None:  # another request moved the game meanwhile
                self.records.cache_drop(row.id)
                raise Stale(self._state(self.records.load(current), seated, row.seq), current)
            for k, v in changes.items():
                setattr(row, k, v)
            self.records.cache_put(loaded)
            log.info("game %s: resigned by seat %s", row.id, seated.seat)
            return self._state(loaded, seated, None)

    def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The fairness record: every finished deal with deck, salt, commitment and actions;
        only the commitment of a deal in play. :func:`ginrummy.fairness.replay_check` reads it.
        """
        with self.records.lock(game_id):
            return self._record(game_id, self.records.authorize(game_id, token))

    def player_record(self, game_id: str, player_id: str | None
                      ) -> tuple[Seated, dict[str, Any]]:
        """The browser ``player_id``'s seat at ``game_id``
        (:meth:`~ginrummy.web.tables.stored.TableRecords.authorize_player`) and the game's
        fairness record, as :meth:`record` gives it to that seat's token.

        :raises NotFound: unknown game, or the browser holds no seat there.
        :raises Unavailable: 409 ``not_started``.
        """
        with self.records.lock(game_id):
            seated = self.records.authorize_player(game_id, player_id)
            return seated, self._record(game_id, seated)

    def _record(self, game_id: str, seated: Seated) -> dict[str, Any]:
        row = seated.row
        loaded = self.records.load(row)
        if loaded.engine is None:
            raise Unavailable(409, "not_started", "not_started")
        return fairness_record(loaded.engine, game_id, row.preset, row.first_dealer,
                               loaded.deals, loaded.decks)

    def game(self, game_id: str) -> Game:
        """A game of any form rebuilt afresh from the store (server side only: it holds
        hidden cards).

        :raises NotFound: no such game, or not started.
        """
        return self.engine_of(game_id).game

    def engine_of(self, game_id: str) -> TableEngine:
        """Any table's engine rebuilt afresh from the store (server side only).

        :raises NotFound: no such game, or not started."""
        row = self.store.get_game(game_id)
        if row is None:
            raise NotFound
        engine = self.records.replay(row).engine
        if engine is None:
            raise NotFound
        return engine

    def stats(self, player_id: str | None) -> dict[str, Any]:
        """Statistics of one browser (``player_id``): the games it created and the tables it
        joined, each from its own seat (:func:`ginrummy.web.tables.stats.player_stats`), and its
        rating (:func:`ginrummy.web.tables.rating_stats.person_rating`)."""
        out = player_stats(self.statistics, player_id, self.vstore.scorings)
        out["rating"] = person_rating(self.store.single, player_id, level_ratings(), LEVELS)
        return out
