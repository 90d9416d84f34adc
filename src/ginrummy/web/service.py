"""Games against the computer: create, act, resume; persistence through :mod:`ginrummy.store`.

The server is the authority (DESIGN.md principle 7). Each request rebuilds the game from its
event log (or takes it from a small cache, checked against the stored sequence number), applies
the person's action, lets the computer (seat 1) move from its own view while it is its turn, and
commits everything in one transaction before answering.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import re
import secrets
import threading
import time
import traceback
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..bots import DEFAULT_LEVEL, LEVELS, Bot, Context, make_bot
from ..cards import card_text, parse_card
from ..errors import GinRummyError, IllegalActionError, InvalidNotationError, RulesError
from ..fairness import commitment_of, new_salt, shuffled_deck
from ..game import Game
from ..records import GameRecord
from ..rules import PRESETS, Rules
from ..store import DealRow, GameRow, Store
from ..views import view_of
from .state import YOU, DealInfo, build_state, deal_event_count, game_seq

__all__ = ["GameService", "NotFound", "Stale", "BadRequest", "Illegal", "normalize_action"]

log = logging.getLogger("ginrummy.web")

COMPUTER = 1
#: the most computer moves in a row before the server gives up (a deal has far fewer).
_MAX_COMPUTER_MOVES = 400
_NEXT_HAND = "next hand"
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class NotFound(Exception):
    """No such game for this token."""


class BadRequest(Exception):
    """A request that cannot be understood (bad card codes, bad rules, unknown level)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Illegal(BadRequest):
    """An action the rules forbid now."""

    def __init__(self, message: str) -> None:
        super().__init__("illegal", message)


class Stale(Exception):
    """The action was made on an older (or unknown) sequence number."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__("stale")
        self.state = state


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


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Loaded:
    """A game rebuilt from its record, with what the state needs besides the engine."""

    row: GameRow
    game: Game
    deals: list[DealInfo]
    decks: list[list[str]]
    seq: int = field(default=0)


class GameService:
    """The web game's operations. Thread-safe: one lock per game (striped)."""

    #: games kept rebuilt in memory (about 20 KB each); a request on a game not in it replays
    #: the game's whole record, so it should hold every game in play (a load test of 200
    #: concurrent games with 128 replayed nearly every request).
    CACHE_SIZE = 2048

    def __init__(self, store: Store, cache_size: int = CACHE_SIZE) -> None:
        self.store = store
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self._locks = [threading.Lock() for _ in range(64)]
        self._bots: dict[str, Bot] = {}
        from .variant_service import VariantService  # Hollywood, 3 players, partnership

        self.variants = VariantService(self)

    # -------------------------------------------------------------------------------- helpers
    def _lock(self, game_id: str) -> threading.Lock:
        return self._locks[hash(game_id) % len(self._locks)]

    def _cache_get(self, game_id: str, seq: int) -> Loaded | None:
        with self._cache_lock:
            got = self._cache.get(game_id)
            if got is None or got.seq != seq:
                return None
            self._cache.move_to_end(game_id)
            return got

    def _cache_put(self, loaded: Loaded) -> None:
        with self._cache_lock:
            self._cache[loaded.row.id] = loaded
            self._cache.move_to_end(loaded.row.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _cache_drop(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

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

    def _authorize(self, game_id: str, token: str | None) -> GameRow:
        if not token or not _ID_RE.match(game_id) or len(token) > 256:
            raise NotFound
        row = self.store.get_game(game_id)
        if row is None or not hmac.compare_digest(row.token_hash, token_hash(token)):
            raise NotFound
        return row

    def _load(self, row: GameRow) -> Loaded:
        cached = self._cache_get(row.id, row.seq)
        if cached is not None:
            cached.row = row
            return cached
        return self._replay(row)

    def _replay(self, row: GameRow) -> Loaded:
        """The game rebuilt from its stored record (:class:`GameRecord`)."""
        deal_rows = self.store.get_deals(row.id)
        rules = Rules.from_dict(row.rules)
        record = GameRecord(rules, row.first_dealer,
                            tuple((tuple(parse_card(c) for c in d.deck), tuple(d.actions))
                                  for d in deal_rows))
        game = record.replay()
        loaded = Loaded(row, game,
                        [DealInfo(d.number, d.salt, d.commitment) for d in deal_rows],
                        [d.deck for d in deal_rows])
        loaded.seq = game_seq(game)
        if loaded.seq != row.seq:  # pragma: no cover - only after a format change
            log.warning("game %s: stored seq %s, replay gives %s", row.id, row.seq, loaded.seq)
        return loaded

    def _deal(self, loaded: Loaded) -> None:
        deck = shuffled_deck()
        salt = new_salt()
        number = len(loaded.game.deals) + 1
        texts = [card_text(c) for c in deck]
        loaded.game.new_hand(deck)
        loaded.deals.append(DealInfo(number, salt, commitment_of(salt, texts)))
        loaded.decks.append(texts)

    def _computer_seed(self, secret: str, hand_number: int, action_count: int) -> int:
        msg = f"{hand_number}:{action_count}".encode()
        digest = hmac.new(bytes.fromhex(secret), msg, hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big")

    def _run_computer(self, loaded: Loaded) -> int:
        """Let the computer move while it is its turn. Returns the number of moves."""
        g = loaded.game
        moves = 0
        while g.current is not None and not g.current.is_over and g.current.current == COMPUTER:
            h = g.current
            view = view_of(h, COMPUTER)
            rng = random.Random(self._computer_seed(loaded.row.secret, len(g.deals),
                                                    len(h.history)))
            ctx = Context(rng=rng, hand_points=(g.hand_points[0], g.hand_points[1]),
                          target=g.rules.target)
            try:
                action = self._bot(loaded.row.level).choose(view, ctx)
                g.apply(action)
            except Exception as e:  # a faulty computer player must not stop the game
                # no message or traceback text: an engine error names the computer's cards
                log.error("game %s: the computer's move failed (%s); playing a random legal "
                          "one", loaded.row.id, _where(e))
                g.apply(rng.choice(view.legal))
            moves += 1
            if moves > _MAX_COMPUTER_MOVES:  # pragma: no cover - defensive
                raise RuntimeError("the computer does not finish its turn")
        return moves

    def _deal_row(self, loaded: Loaded, index: int) -> DealRow:
        h = loaded.game.deals[index]
        info = loaded.deals[index]
        d = DealRow(info.number, h.dealer, loaded.decks[index], info.salt, info.commitment,
                    [e.action.text for e in h.history], h.is_over)
        if h.outcome is not None:
            d.result_kind = h.outcome.kind
            d.result_winner = h.outcome.winner
            d.result_knocker = h.outcome.knocker
            d.result_points = h.outcome.points
        return d

    def _status(self, game: Game) -> dict[str, Any]:
        if not game.is_over:
            return {"status": "playing", "winner": None, "margin": None, "finished_at": None}
        return {"status": "over", "winner": game.winner, "margin": game.final().margin,
                "finished_at": time.time()}

    def _persist(self, loaded: Loaded, first_index: int, last_action: str | None,
                 last_action_seq: int | None) -> None:
        """Save the deals from ``first_index`` on and the game's new seq, if nobody else moved
        the game meanwhile (else :class:`Stale`)."""
        old_seq = loaded.row.seq
        new_seq = game_seq(loaded.game)
        changes: dict[str, Any] = {"seq": new_seq, **self._status(loaded.game)}
        if last_action is not None:
            changes["last_action"] = last_action
            changes["last_action_seq"] = last_action_seq
        rows = [self._deal_row(loaded, i) for i in range(first_index, len(loaded.game.deals))]
        if not self.store.save(loaded.row.id, old_seq, changes, rows):
            self._cache_drop(loaded.row.id)
            raise Stale(self._fresh_state(loaded.row.id, since=old_seq))
        row = loaded.row
        row.seq = new_seq
        for k, v in changes.items():
            setattr(row, k, v)
        loaded.seq = new_seq
        self._cache_put(loaded)

    def _fresh_state(self, game_id: str, since: int) -> dict[str, Any]:
        row = self.store.get_game(game_id)
        assert row is not None
        return self._state(self._load(row), since)

    def _state(self, loaded: Loaded, since: int | None) -> dict[str, Any]:
        g = loaded.game
        if since is None:  # the events of the deal in play (its end included)
            since = loaded.seq - deal_event_count(g, len(g.deals) - 1)
        order = loaded.row.hand_order or {}
        cards = order.get("cards") if order.get("hand") == len(g.deals) else None
        return build_state(game_id=loaded.row.id, game=g, deals=loaded.deals,
                           level=loaded.row.level, preset=loaded.row.preset, since=since,
                           hand_order=cards)

    def _catch_up(self, loaded: Loaded) -> Loaded:
        """If the computer is to move (only after a failure), let it, and save."""
        g = loaded.game
        if g.current is not None and not g.current.is_over and g.current.current == COMPUTER:
            first = len(g.deals) - 1
            try:
                self._run_computer(loaded)
                self._persist(loaded, first, None, None)
            except Stale:
                row = self.store.get_game(loaded.row.id)
                assert row is not None
                return self._load(row)
            except Exception:
                self._cache_drop(loaded.row.id)
                raise
        return loaded

    # ------------------------------------------------------------------------------ operations
    def create(self, player_id: str | None, level: str | None, preset: str | None,
               overrides: dict[str, Any] | None, scoring: str | None = None
               ) -> tuple[str, str, dict[str, Any]]:
        """A new game: ``(game_id, token, state)``. :raises BadRequest: bad level or rules."""
        if scoring not in (None, "standard"):
            return self.variants.create(player_id, level, preset, overrides, scoring)
        level = DEFAULT_LEVEL if level is None else level
        if level not in LEVELS:
            raise BadRequest("level", f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        ov = dict(overrides or {})
        base = preset if preset is not None else ov.pop("preset", "standard")
        ov.pop("preset", None)
        if not isinstance(base, str) or base not in PRESETS:
            raise BadRequest("rules", f"unknown rules preset {base!r}; presets: "
                                      f"{', '.join(PRESETS)}")
        try:
            rules = Rules.preset(base, **ov)
        except (RulesError, TypeError) as e:
            raise BadRequest("rules", str(e)) from None
        game_id = secrets.token_urlsafe(16)
        token = secrets.token_urlsafe(32)
        row = GameRow(id=game_id, token_hash=token_hash(token), player_id=player_id, level=level,
                      preset=base, rules=rules.to_dict(), first_dealer=secrets.randbelow(2),
                      secret=secrets.token_hex(32), seq=0)
        loaded = Loaded(row, Game(rules, row.first_dealer), [], [])
        with self._lock(game_id):
            self._deal(loaded)
            self._run_computer(loaded)
            new_seq = game_seq(loaded.game)
            row.seq = new_seq
            row.status = self._status(loaded.game)["status"]
            self.store.insert_game(row, [self._deal_row(loaded, i)
                                         for i in range(len(loaded.game.deals))])
            loaded.seq = new_seq
            self._cache_put(loaded)
            return game_id, token, self._state(loaded, 0)

    def get(self, game_id: str, token: str | None, since: int | None) -> dict[str, Any]:
        if self.variants.owns(game_id):
            return self.variants.get(game_id, token, since)
        with self._lock(game_id):
            row = self._authorize(game_id, token)
            loaded = self._catch_up(self._load(row))
            return self._state(loaded, since)

    def act(self, game_id: str, token: str | None, text: str, seq: int
            ) -> tuple[dict[str, Any], bool]:
        """Apply the person's action made at ``seq``; returns ``(state, duplicate)``.

        :raises NotFound: unknown game or wrong token.
        :raises Stale: ``seq`` is not the game's (the state is attached).
        :raises BadRequest: the text cannot be read (``Illegal``: the rules forbid it).
        """
        if self.variants.owns(game_id):
            return self.variants.act(game_id, token, text, seq)
        with self._lock(game_id):
            row = self._authorize(game_id, token)
            norm = normalize_action(text)
            if row.last_action is not None and row.last_action_seq == seq \
                    and norm == row.last_action:
                state = self._state(self._load(row), seq)
                state["duplicate"] = True
                return state, True
            loaded = self._catch_up(self._load(row))
            if seq != loaded.seq:
                raise Stale(self._state(loaded, min(seq, loaded.seq)))
            g = loaded.game
            first = len(g.deals) - 1
            if norm in (_NEXT_HAND, "next_hand"):
                if g.is_over:
                    raise Illegal("the game is over: start a new game")
                if g.current is not None and not g.current.is_over:
                    raise Illegal("the hand is not over yet")
                action = None
            else:
                try:
                    action = Action.parse(text)
                except (InvalidNotationError, ValueError) as e:
                    raise BadRequest("invalid", str(e)) from None
                h = g.current
                if g.is_over:
                    raise Illegal("the game is over: start a new game")
                if h is None or h.is_over:
                    raise Illegal("the hand is over: the next action is \"next hand\"")
                if h.current != YOU:
                    raise Illegal("it is not your turn")
                try:
                    h.verify(action)
                except IllegalActionError as e:
                    raise Illegal(str(e)) from None
            try:
                if action is None:
                    self._deal(loaded)
                else:
                    g.apply(action)
                self._run_computer(loaded)
                self._persist(loaded, first, norm, seq)
            except Stale:
                raise
            except Exception:
                self._cache_drop(game_id)
                raise
            return self._state(loaded, seq), False

    def set_order(self, game_id: str, token: str | None, cards: list[str]) -> None:
        """Keep the person's hand order (cards not held now are dropped when shown).

        :raises BadRequest: a malformed or repeated card.
        """
        if self.variants.owns(game_id):
            return self.variants.set_order(game_id, token, cards)
        with self._lock(game_id):
            row = self._authorize(game_id, token)
            out: list[str] = []
            for c in cards:
                try:
                    t = card_text(parse_card(c))
                except GinRummyError as e:
                    raise BadRequest("invalid", str(e)) from None
                if t in out:
                    raise BadRequest("invalid", f"duplicate card: {t}")
                out.append(t)
            loaded = self._load(row)
            order = {"hand": len(loaded.game.deals), "cards": out}
            self.store.set_hand_order(game_id, order)
            row.hand_order = order
            loaded.row.hand_order = order

    def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The fairness record: every finished deal with deck, salt, commitment and actions;
        only the commitment of a deal in play. :func:`ginrummy.fairness.replay_check` reads it.
        """
        if self.variants.owns(game_id):
            return self.variants.record(game_id, token)
        with self._lock(game_id):
            row = self._authorize(game_id, token)
            loaded = self._load(row)
            g = loaded.game
            hands = []
            current = None
            for i, h in enumerate(g.deals):
                info = loaded.deals[i]
                if not h.is_over:
                    current = {"number": info.number, "dealer": h.dealer,
                               "commitment": info.commitment}
                    continue
                o = h.outcome
                assert o is not None
                hands.append({"number": info.number, "dealer": h.dealer,
                              "deck": loaded.decks[i], "salt": info.salt,
                              "commitment": info.commitment,
                              "actions": [e.action.text for e in h.history],
                              "result": {"kind": o.kind, "winner": o.winner,
                                         "points": o.points}})
            return {"format": "ginrummy-fairness/1", "game_id": game_id,
                    "rules": {"preset": row.preset, **g.rules.to_dict()},
                    "first_dealer": g.first_dealer, "hands": hands, "current": current}

    def game(self, game_id: str) -> Game:
        """The game rebuilt afresh from the store (server side only: it holds hidden cards).

        :raises NotFound: no such game.
        """
        row = self.store.get_game(game_id)
        if row is None:
            raise NotFound
        return self._replay(row).game

    def stats(self, player_id: str | None) -> dict[str, Any]:
        """Statistics of the games created by one browser (``player_id``)."""
        games = self.store.player_games(player_id) if player_id else []
        results = self.store.player_results(player_id) if player_id else []
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
        hands_won = sum(1 for _, w, _ in results if w == YOU)
        hands_lost = sum(1 for _, w, _ in results if w == COMPUTER)

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
            "gins_against": count("gin", COMPUTER) + count("big_gin", COMPUTER),
            "knocks": sum(1 for k, _, kn in results
                          if kn == YOU and k in ("knock", "undercut", "tie")),
            "knocks_won": count("knock", YOU),
            "undercuts_by_you": count("undercut", YOU),
            "undercuts_against_you": count("undercut", COMPUTER),
            "best_margin": max(margins) if margins else None,
            "current_streak": {"kind": streak_kind, "length": streak},
        }
