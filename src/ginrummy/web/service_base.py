"""What the two game services share: :class:`~ginrummy.web.service.GameService` (the standard
game) and :class:`~ginrummy.web.variant_service.VariantService` (Hollywood, three players,
partnership) differ only in the engine they rebuild (a :class:`~ginrummy.game.Game` or a
:class:`~ginrummy.web.variants.Match`); the flow of a request is this module's.

The server is the authority (DESIGN.md principle 7). Each request rebuilds the game from its
event log (or takes it from a small cache, checked against the stored sequence number), applies
the person's action, lets the computers move from their own views while it is their turn, and
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
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..actions import Action
from ..bots import DEFAULT_LEVEL, LEVELS, Bot, Context, make_bot
from ..bots.hints import hint
from ..cards import card_text, parse_card
from ..errors import GinRummyError, IllegalActionError, InvalidNotationError, RulesError
from ..fairness import commitment_of, new_salt, shuffled_deck
from ..hand import HandState
from ..records import HandRecord
from ..rules import PRESETS, Rules
from ..store import DealRow, GameRow, Store
from ..views import view_of
from .state import DealInfo

__all__ = ["NotFound", "BadRequest", "Illegal", "Stale", "Loaded", "TableService",
           "NEXT_HAND", "normalize_action", "token_hash", "checked_rules", "new_game_row"]

log = logging.getLogger("ginrummy.web")

#: the person's action that deals the next hand (also accepted as ``next_hand``).
NEXT_HAND = "next hand"
#: the most computer moves in a row before the server gives up (a deal has far fewer).
_MAX_COMPUTER_MOVES = 400
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
    """An action the rules forbid now. ``reason``: why the person may not act now, as a code
    (``not_your_turn``, ``hand_over``, ``sitting_out``), the ``reason`` of a hint answer."""

    def __init__(self, message: str, reason: str = "not_your_turn") -> None:
        super().__init__("illegal", message)
        self.reason = reason


class Unavailable(Exception):
    """What was asked for does not exist or cannot be given now: ``status`` (404, 409),
    ``code`` and ``message`` of the answer."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


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
    """The SHA-256 (hex) of a bearer token: what the store keeps instead of the token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _computer_seed(secret: str, number: int, count: int) -> int:
    """The seed of a computer's move: deal ``number`` after ``count`` actions, keyed by the
    game's secret (so a replayed game makes the same moves)."""
    msg = f"{number}:{count}".encode()
    digest = hmac.new(bytes.fromhex(secret), msg, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def checked_rules(level: str | None, preset: str | None, overrides: dict[str, Any] | None
                  ) -> tuple[str, str, Rules]:
    """A new game's ``(level, preset, rules)``; ``overrides`` may name the preset too.

    :raises BadRequest: an unknown level or preset, or bad rules.
    """
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
        return level, base, Rules.preset(base, **ov)
    except (RulesError, TypeError) as e:
        raise BadRequest("rules", str(e)) from None


def new_game_row(player_id: str | None, level: str, preset: str, rules: Rules,
                 first_dealer: int) -> tuple[GameRow, str]:
    """A new game's row (fresh id and secret; ``seq`` 0) and its bearer token."""
    game_id = secrets.token_urlsafe(16)
    token = secrets.token_urlsafe(32)
    row = GameRow(id=game_id, token_hash=token_hash(token), player_id=player_id, level=level,
                  preset=preset, rules=rules.to_dict(), first_dealer=first_dealer,
                  secret=secrets.token_hex(32), seq=0)
    return row, token


def _checked_order(cards: list[str]) -> list[str]:
    """A hand order's cards in canonical text. :raises BadRequest: a bad or repeated card."""
    out: list[str] = []
    for c in cards:
        try:
            t = card_text(parse_card(c))
        except GinRummyError as e:
            raise BadRequest("invalid", str(e)) from None
        if t in out:
            raise BadRequest("invalid", f"duplicate card: {t}")
        out.append(t)
    return out


@dataclass
class Loaded:
    """A game rebuilt from its record: its row and the fairness data of its deals (the
    services' subclasses add the engine)."""

    row: GameRow
    deals: list[DealInfo]
    decks: list[list[str]]
    seq: int = field(default=0, kw_only=True)


L = TypeVar("L", bound=Loaded)


class TableService(ABC, Generic[L]):
    """The operations of one kind of game: authorization, per-game locks (striped), a cache of
    rebuilt games, the computers' moves, saving, and ``get``/``act``/``set_order``. Thread-safe.
    A subclass supplies the engine's part (the abstract methods)."""

    def __init__(self, store: Store, cache_size: int,
                 shared: TableService[Any] | None = None) -> None:
        """``shared``: another service whose locks and computer players this one uses."""
        self.store = store
        self._cache: OrderedDict[str, L] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self._locks: list[threading.Lock] = (shared._locks if shared is not None
                                             else [threading.Lock() for _ in range(64)])
        self._bots: dict[str, Bot] = shared._bots if shared is not None else {}

    # ----------------------------------------------------------------- the engine's part
    @abstractmethod
    def _replay(self, row: GameRow) -> L:
        """The game rebuilt from its stored record."""

    @abstractmethod
    def _seq(self, loaded: L) -> int:
        """The game's sequence number: how many events it has had."""

    @abstractmethod
    def _state(self, loaded: L, since: int | None) -> dict[str, Any]:
        """The ``state`` JSON for the person, with the events after ``since`` (``None``: those
        of the deal in play)."""

    @abstractmethod
    def _deal_row(self, loaded: L, index: int) -> DealRow:
        """Deal ``index`` as stored."""

    @abstractmethod
    def _result(self, loaded: L) -> tuple[int | None, int | None] | None:
        """``(winner, margin)`` from the person's side once the game is over, else ``None``."""

    @abstractmethod
    def _hand_number(self, loaded: L) -> int:
        """The number of the person's deal in play (the one a hand order is kept for)."""

    @abstractmethod
    def _deal_hand(self, loaded: L) -> None:
        """Deal the next hand (the computers have not moved yet)."""

    @abstractmethod
    def _advance(self, loaded: L) -> None:
        """Let the computers move while it is their turn."""

    @abstractmethod
    def _waiting_for_computer(self, loaded: L) -> int | None:
        """The index of the first deal to save if a computer is to move in the person's deal
        (only after a failure), else ``None``."""

    @abstractmethod
    def _check_next_hand(self, loaded: L) -> int:
        """Check that the next hand may be dealt (the game is not over); returns the index of
        the first deal to save. :raises Illegal: not now."""

    @abstractmethod
    def _person_hand(self, loaded: L) -> tuple[HandState, int]:
        """The deal where the person is to move (the game is not over) and its index.

        :raises Illegal: the person is not to move.
        """

    @abstractmethod
    def _apply(self, loaded: L, index: int, action: Action) -> None:
        """Apply the person's (verified) action to deal ``index``."""

    @abstractmethod
    def _score_of(self, loaded: L, index: int) -> tuple[tuple[int, int], int]:
        """The hand points of deal ``index``'s two seats (indexed by seat) and the target."""

    @abstractmethod
    def _numbered_deals(self, loaded: L) -> list[tuple[int, HandState, dict[str, Any]]]:
        """Every deal so far: ``(number, deal, placement)``; ``placement`` is ``{"scoring",
        "hand", "table", "players", "you"}`` (who sat at the deal's two seats)."""

    # ------------------------------------------------------------------------ helpers
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

    def _authorize(self, game_id: str, token: str | None) -> GameRow:
        if not token or not _ID_RE.match(game_id) or len(token) > 256:
            raise NotFound
        row = self.store.get_game(game_id)
        if row is None or not hmac.compare_digest(row.token_hash, token_hash(token)):
            raise NotFound
        return row

    def _cache_put(self, loaded: L) -> None:
        with self._cache_lock:
            self._cache[loaded.row.id] = loaded
            self._cache.move_to_end(loaded.row.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _cache_drop(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    def _load(self, row: GameRow) -> L:
        with self._cache_lock:
            got = self._cache.get(row.id)
            if got is not None and got.seq == row.seq:
                self._cache.move_to_end(row.id)
                got.row = row
                return got
        return self._replay(row)

    def _reload(self, game_id: str) -> L:
        row = self.store.get_game(game_id)
        assert row is not None
        return self._load(row)

    def _new_deck(self, loaded: L, number: int) -> list[int]:
        """A shuffled deck for deal ``number``; its salt and commitment are kept in
        ``loaded`` (the fairness commitment of docs/fairness.md)."""
        deck = shuffled_deck()
        salt = new_salt()
        texts = [card_text(c) for c in deck]
        loaded.deals.append(DealInfo(number, salt, commitment_of(salt, texts)))
        loaded.decks.append(texts)
        return deck

    def _computer_move(self, loaded: L, hand: HandState, number: int,
                       points: tuple[int, int], target: int,
                       apply: Callable[[Action], None]) -> None:
        """One move of the computer to move in ``hand`` (deal ``number``), from its own view;
        ``points``: the hand points of the deal's two seats."""
        view = view_of(hand, hand.current)
        rng = random.Random(_computer_seed(loaded.row.secret, number, len(hand.history)))
        ctx = Context(rng=rng, hand_points=points, target=target)
        try:
            apply(self._bot(loaded.row.level).choose(view, ctx))
        except Exception as e:  # a faulty computer player must not stop the game
            # no message or traceback text: an engine error names the computer's cards
            log.error("game %s: the computer's move failed (%s); playing a random legal "
                      "one", loaded.row.id, _where(e))
            apply(rng.choice(view.legal))

    @staticmethod
    def _play_computers(to_move: Callable[[], bool], move: Callable[[], None]) -> None:
        """``move()`` while ``to_move()``."""
        moves = 0
        while to_move():
            move()
            moves += 1
            if moves > _MAX_COMPUTER_MOVES:  # pragma: no cover - defensive
                raise RuntimeError("the computers do not finish the deal")

    def _status(self, loaded: L) -> dict[str, Any]:
        result = self._result(loaded)
        if result is None:
            return {"status": "playing", "winner": None, "margin": None, "finished_at": None}
        winner, margin = result
        return {"status": "over", "winner": winner, "margin": margin, "finished_at": time.time()}

    def _hand_order(self, loaded: L) -> list[str] | None:
        """The person's hand order, if it was kept for the deal in play."""
        order = loaded.row.hand_order or {}
        return order.get("cards") if order.get("hand") == self._hand_number(loaded) else None

    def _insert(self, loaded: L) -> dict[str, Any]:
        """Store a new game (dealt, the computers moved); returns its first state."""
        row = loaded.row
        loaded.seq = row.seq = self._seq(loaded)
        st = self._status(loaded)
        row.status = st["status"]
        row.winner = st["winner"]
        row.margin = st["margin"]
        self.store.insert_game(row, [self._deal_row(loaded, i) for i in range(len(loaded.deals))])
        self._cache_put(loaded)
        return self._state(loaded, 0)

    def _persist(self, loaded: L, first_index: int, last_action: str | None,
                 last_action_seq: int | None) -> None:
        """Save the deals from ``first_index`` on and the game's new seq, if nobody else moved
        the game meanwhile (else :class:`Stale`)."""
        old_seq = loaded.row.seq
        new_seq = self._seq(loaded)
        changes: dict[str, Any] = {"seq": new_seq, **self._status(loaded)}
        if last_action is not None:
            changes["last_action"] = last_action
            changes["last_action_seq"] = last_action_seq
        rows = [self._deal_row(loaded, i) for i in range(first_index, len(loaded.deals))]
        if not self.store.save(loaded.row.id, old_seq, changes, rows):
            self._cache_drop(loaded.row.id)
            raise Stale(self._state(self._reload(loaded.row.id), old_seq))
        for k, v in changes.items():
            setattr(loaded.row, k, v)
        loaded.seq = new_seq
        self._cache_put(loaded)

    def _catch_up(self, loaded: L) -> L:
        """If a computer is to move in the person's deal (only after a failure), let it, and
        save."""
        first = self._waiting_for_computer(loaded)
        if first is not None:
            try:
                self._advance(loaded)
                self._persist(loaded, first, None, None)
            except Stale:
                return self._reload(loaded.row.id)
            except Exception:
                self._cache_drop(loaded.row.id)
                raise
        return loaded

    # --------------------------------------------------------------------- operations
    def get(self, game_id: str, token: str | None, since: int | None) -> dict[str, Any]:
        """The game's state with the events after ``since`` (``None``: those of the deal in
        play). :raises NotFound: unknown game or wrong token."""
        with self._lock(game_id):
            row = self._authorize(game_id, token)
            return self._state(self._catch_up(self._load(row)), since)

    def act(self, game_id: str, token: str | None, text: str, seq: int
            ) -> tuple[dict[str, Any], bool]:
        """Apply the person's action made at ``seq``; returns ``(state, duplicate)``.

        :raises NotFound: unknown game or wrong token.
        :raises Stale: ``seq`` is not the game's (the state is attached).
        :raises BadRequest: the text cannot be read (``Illegal``: the rules forbid it).
        """
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
            action: Action | None = None
            if norm in (NEXT_HAND, "next_hand"):
                if self._result(loaded) is not None:
                    raise Illegal("the game is over: start a new game")
                first = self._check_next_hand(loaded)
            else:
                try:
                    action = Action.parse(text)
                except (InvalidNotationError, ValueError) as e:
                    raise BadRequest("invalid", str(e)) from None
                if self._result(loaded) is not None:
                    raise Illegal("the game is over: start a new game")
                hand, first = self._person_hand(loaded)
                try:
                    hand.verify(action)
                except IllegalActionError as e:
                    raise Illegal(str(e)) from None
            try:
                if action is None:
                    self._deal_hand(loaded)
                else:
                    self._apply(loaded, first, action)
                self._advance(loaded)
                self._persist(loaded, first, norm, seq)
            except Stale:
                raise
            except Exception:
                self._cache_drop(game_id)
                raise
            return self._state(loaded, seq), False

    def finished_deal(self, game_id: str, token: str | None, number: int
                      ) -> tuple[dict[str, Any], HandRecord]:
        """Deal ``number`` of the game if it is over: its placement (see
        :meth:`_numbered_deals`, with ``"number"`` and ``"finished_hands"``) and its record. A
        deal in play is never given: its stock and the opponent's hand are hidden.

        :raises NotFound: unknown game or wrong token.
        :raises Unavailable: no such deal (404) or the deal is in play (409).
        """
        with self._lock(game_id):
            row = self._authorize(game_id, token)
            deals = self._numbered_deals(self._load(row))
            found = [(h, placement) for n, h, placement in deals if n == number]
            if not found:
                raise Unavailable(404, "not_found", f"no hand {number} in this game")
            h, placement = found[0]
            if not h.is_over:
                raise Unavailable(409, "hand_in_play", f"hand {number} is still being played: "
                                                       "it can be replayed once it is over")
            about = {"number": number, "level": row.level, "preset": row.preset,
                     "finished_hands": [n for n, d, _ in deals if d.is_over], **placement}
            return about, HandRecord.of(h)  # copies: a finished deal never changes

    def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The suggested move for the person, explained (:func:`ginrummy.bots.hints.hint`,
        from the person's own view): ``{"seq", "hint"}``, or ``{"seq", "hint": None,
        "reason"}`` when the person is not to move (``game_over``, ``hand_over``,
        ``not_your_turn``, ``sitting_out``). Changes nothing: no move, nothing stored.

        :raises NotFound: unknown game or wrong token.
        """
        with self._lock(game_id):
            row = self._authorize(game_id, token)
            loaded = self._load(row)
            seq = loaded.seq
            if self._result(loaded) is not None:
                return {"seq": seq, "hint": None, "reason": "game_over"}
            try:
                hand, index = self._person_hand(loaded)
            except Illegal as e:
                return {"seq": seq, "hint": None, "reason": e.reason}
            points, target = self._score_of(loaded, index)
            view = view_of(hand, hand.current)
            return {"seq": seq, "hint": hint(view, points, target).to_json()}

    def set_order(self, game_id: str, token: str | None, cards: list[str]) -> None:
        """Keep the person's hand order for the deal in play (cards held later but not named
        come after it when shown).

        :raises BadRequest: ``invalid``: a malformed or repeated card, or one not held now.
        """
        with self._lock(game_id):
            row = self._authorize(game_id, token)
            out = _checked_order(cards)
            loaded = self._load(row)
            held = set(self._state(loaded, loaded.seq).get("hand") or ())
            if not held.issuperset(out):
                raise BadRequest("invalid", "not in your hand: "
                                 + " ".join(c for c in out if c not in held))
            order = {"hand": self._hand_number(loaded), "cards": out}
            self.store.set_hand_order(game_id, order)
            row.hand_order = order
            loaded.row.hand_order = order
