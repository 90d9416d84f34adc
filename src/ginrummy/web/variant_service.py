"""Variant tables against the computer (Hollywood, three players, partnership): create, act,
resume. The counterpart of :class:`ginrummy.web.service.GameService` for the tables of
:mod:`ginrummy.web.variants`; the game service hands every call on such a game to this one.

Persistence is the standard game's: the ``games`` row (rules, level, first dealer, secret, seq,
status) and one ``deals`` row per deal (deck, salt, commitment, actions), plus the game's scoring
in ``game_tables`` (:mod:`ginrummy.store.variants`). A deals row's ``dealer`` is the engine
dealer seat; the players of each deal follow from the rules (and, in partnership, from the order
of the deals). The result columns, which only the statistics read, are from the person's side
(0 = the person, 1 = the person's opponent) and are filled only for the person's own deals:
a deal the person did not play stays ``finished = false`` so that statistics count the
person's hands only.

Computers move from their own :func:`~ginrummy.views.view_of` only. In partnership the other
table keeps pace with the person's: after each request it has made at least as many moves as
the person's table, and it finishes when the person's deal does.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..bots import DEFAULT_LEVEL, LEVELS, Context
from ..cards import card_text, parse_card
from ..errors import GinRummyError, IllegalActionError, InvalidNotationError, RulesError
from ..fairness import commitment_of, new_salt, shuffled_deck
from ..rules import PRESETS, Rules
from ..store import DealRow, GameRow
from ..store.variants import VariantStore
from ..variants import SCORINGS
from ..views import view_of
from .service import BadRequest, Illegal, NotFound, Stale, normalize_action, token_hash
from .state import DealInfo
from .variant_state import build_variant_state, public_result, stream_event_count, variant_seq
from .variants import PERSON, Match

if TYPE_CHECKING:
    from .service import GameService

__all__ = ["VariantService"]

log = logging.getLogger("ginrummy.web")

_NEXT_HAND = "next hand"
_MAX_MOVES = 400


@dataclass
class _Loaded:
    row: GameRow
    match: Match
    deals: list[DealInfo]
    decks: list[list[str]]
    seq: int = 0


class VariantService:
    """Operations on variant games; shares the store, the per-game locks and the computer
    players of ``games``."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.store = games.store
        self.vstore = VariantStore(games.store.engine, getattr(games.store, "_writing", None))
        self._cache: OrderedDict[str, _Loaded] = OrderedDict()
        self._scorings: OrderedDict[str, str | None] = OrderedDict()
        self._cache_lock = threading.Lock()

    # -------------------------------------------------------------------------------- lookup
    def owns(self, game_id: str) -> bool:
        """True when ``game_id`` is a variant game (cached; a game's scoring never changes)."""
        with self._cache_lock:
            if game_id in self._scorings:
                self._scorings.move_to_end(game_id)
                return self._scorings[game_id] is not None
        scoring = self.vstore.scoring(game_id) if len(game_id) <= 64 else None
        with self._cache_lock:
            self._scorings[game_id] = scoring
            while len(self._scorings) > 4096:
                self._scorings.popitem(last=False)
        return scoring is not None

    def _remember(self, loaded: _Loaded) -> None:
        with self._cache_lock:
            self._cache[loaded.row.id] = loaded
            self._cache.move_to_end(loaded.row.id)
            while len(self._cache) > 64:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    def _load(self, row: GameRow) -> _Loaded:
        with self._cache_lock:
            got = self._cache.get(row.id)
        if got is not None and got.seq == row.seq:
            got.row = row
            return got
        return self._replay(row)

    def _replay(self, row: GameRow) -> _Loaded:
        scoring = self.vstore.scoring(row.id)
        if scoring is None:  # pragma: no cover - owns() said otherwise
            raise NotFound
        m = Match(scoring, Rules.from_dict(row.rules), row.first_dealer)
        infos, decks = [], []
        for d in self.store.get_deals(row.id):
            m.add_deal([parse_card(c) for c in d.deck], d.dealer)
            index = len(m.deals) - 1
            for a in d.actions:
                m.apply(index, Action.parse(a))
            infos.append(DealInfo(d.number, d.salt, d.commitment))
            decks.append(d.deck)
        loaded = _Loaded(row, m, infos, decks)
        loaded.seq = variant_seq(m)
        return loaded

    # ------------------------------------------------------------------------------- dealing
    def _deal_hand(self, loaded: _Loaded) -> None:
        """Deal every deal of the next hand (a new pair cuts for the deal: R-2.1), then let the
        computers play up to the person's turn."""
        m = loaded.match
        for _hand, _table, _players, dealer in m.next_plan():
            deck = shuffled_deck()
            salt = new_salt()
            texts = [card_text(c) for c in deck]
            m.add_deal(deck, secrets.randbelow(2) if dealer is None else dealer)
            loaded.deals.append(DealInfo(len(m.deals), salt, commitment_of(salt, texts)))
            loaded.decks.append(texts)
        self._advance(loaded)

    def _seed(self, secret: str, number: int, count: int) -> int:
        msg = f"{number}:{count}".encode()
        return int.from_bytes(hmac.new(bytes.fromhex(secret), msg, hashlib.sha256).digest()[:8],
                              "big")

    def _computer_move(self, loaded: _Loaded, index: int) -> None:
        m = loaded.match
        h = m.deals[index]
        s = m.seatings[index]
        view = view_of(h, h.current)
        rng = random.Random(self._seed(loaded.row.secret, s.number, len(h.history)))
        ctx = Context(rng=rng, hand_points=(m.points_of(s.players[0]),
                                            m.points_of(s.players[1])),
                      target=m.rules.target)
        try:
            action = self.games._bot(loaded.row.level).choose(view, ctx)
            m.apply(index, action)
        except Exception as e:  # a faulty computer player must not stop the game
            # no message: an engine error may name the computer's cards (server log)
            log.error("game %s: a computer's move failed (%s); playing a random legal one",
                      loaded.row.id, type(e).__name__)
            m.apply(index, rng.choice(view.legal))

    def _run(self, loaded: _Loaded, index: int, until_person: bool,
             keep_up_with: int | None = None) -> None:
        m = loaded.match
        h = m.deals[index]
        s = m.seatings[index]
        moves = 0
        while not h.is_over:
            if until_person and s.players[h.current] == PERSON:
                return
            if keep_up_with is not None and len(h.history) >= keep_up_with:
                return
            self._computer_move(loaded, index)
            moves += 1
            if moves > _MAX_MOVES:  # pragma: no cover - defensive
                raise RuntimeError("the computers do not finish the deal")

    def _advance(self, loaded: _Loaded) -> None:
        """Computers move: at the person's table up to the person's turn (all of a deal the
        person sits out); the other table keeps pace and finishes with the person's deal."""
        m = loaded.match
        i = m.shown_index()
        self._run(loaded, i, until_person=m.seatings[i].person_plays)
        j = m.other_index()
        if j is not None:
            mine = m.deals[i]
            self._run(loaded, j, until_person=False,
                      keep_up_with=None if mine.is_over else len(mine.history))

    # ----------------------------------------------------------------------------- persisting
    def _deal_row(self, loaded: _Loaded, index: int) -> DealRow:
        m = loaded.match
        h = m.deals[index]
        s = m.seatings[index]
        info = loaded.deals[index]
        mine = s.person_plays
        d = DealRow(info.number, h.dealer, loaded.decks[index], info.salt, info.commitment,
                    [e.action.text for e in h.history], h.is_over and mine)
        if mine and h.outcome is not None:
            rel = {s.seat_of(PERSON): 0}
            d.result_kind = h.outcome.kind
            d.result_winner = None if h.outcome.winner is None \
                else rel.get(h.outcome.winner, 1)
            d.result_knocker = None if h.outcome.knocker is None \
                else rel.get(h.outcome.knocker, 1)
            d.result_points = h.outcome.points
        return d

    def _status(self, m: Match) -> dict[str, Any]:
        if not m.is_over:
            return {"status": "playing", "winner": None, "margin": None, "finished_at": None}
        w, margin = m.person_result()
        return {"status": "over", "winner": w, "margin": margin, "finished_at": time.time()}

    def _persist(self, loaded: _Loaded, first: int, last_action: str | None,
                 last_seq: int | None) -> None:
        old = loaded.row.seq
        new = variant_seq(loaded.match)
        changes: dict[str, Any] = {"seq": new, **self._status(loaded.match)}
        if last_action is not None:
            changes["last_action"] = last_action
            changes["last_action_seq"] = last_seq
        rows = [self._deal_row(loaded, i) for i in range(first, len(loaded.match.deals))]
        if not self.store.save(loaded.row.id, old, changes, rows):
            self._forget(loaded.row.id)
            row = self.store.get_game(loaded.row.id)
            assert row is not None
            raise Stale(self._state(self._load(row), old))
        for k, v in changes.items():
            setattr(loaded.row, k, v)
        loaded.seq = new
        self._remember(loaded)

    def _state(self, loaded: _Loaded, since: int | None) -> dict[str, Any]:
        m = loaded.match
        if since is None:
            since = loaded.seq - stream_event_count(m, m.shown_index())
        order = loaded.row.hand_order or {}
        cards = order.get("cards") if order.get("hand") == m.seatings[m.shown_index()].number \
            else None
        return build_variant_state(game_id=loaded.row.id, match=m, deals=loaded.deals,
                                   level=loaded.row.level, preset=loaded.row.preset,
                                   since=since, hand_order=cards)

    # ----------------------------------------------------------------------------- operations
    def create(self, player_id: str | None, level: str | None, preset: str | None,
               overrides: dict[str, Any] | None, scoring: str
               ) -> tuple[str, str, dict[str, Any]]:
        """A new variant game: ``(game_id, token, state)``.

        :raises BadRequest: bad level, rules, or rules the scoring cannot honour.
        """
        if scoring not in SCORINGS or scoring == "standard":
            raise BadRequest("rules", f"unknown scoring {scoring!r}; scorings: "
                                      f"{', '.join(SCORINGS)}")
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
            first = secrets.randbelow(3) if scoring == "three_player" else secrets.randbelow(2)
            match = Match(scoring, rules, first)
        except (RulesError, TypeError) as e:
            raise BadRequest("rules", str(e)) from None
        game_id = secrets.token_urlsafe(16)
        token = secrets.token_urlsafe(32)
        row = GameRow(id=game_id, token_hash=token_hash(token), player_id=player_id, level=level,
                      preset=base, rules=rules.to_dict(), first_dealer=first,
                      secret=secrets.token_hex(32), seq=0)
        loaded = _Loaded(row, match, [], [])
        with self.games._lock(game_id):
            self._deal_hand(loaded)
            loaded.seq = row.seq = variant_seq(match)
            st = self._status(match)
            row.status = st["status"]
            row.winner = st["winner"]
            row.margin = st["margin"]
            self.vstore.set_scoring(game_id, scoring)
            self.store.insert_game(row, [self._deal_row(loaded, i)
                                         for i in range(len(match.deals))])
            with self._cache_lock:
                self._scorings[game_id] = scoring
            self._remember(loaded)
            return game_id, token, self._state(loaded, 0)

    def _catch_up(self, loaded: _Loaded) -> _Loaded:
        """If a computer is to move at the person's table (only after a failure), let it."""
        m = loaded.match
        i = m.shown_index()
        h = m.deals[i]
        if not h.is_over and m.seatings[i].players[h.current] != PERSON:
            try:
                self._advance(loaded)
                self._persist(loaded, i, None, None)
            except Stale:
                row = self.store.get_game(loaded.row.id)
                assert row is not None
                return self._load(row)
            except Exception:
                self._forget(loaded.row.id)
                raise
        return loaded

    def get(self, game_id: str, token: str | None, since: int | None) -> dict[str, Any]:
        with self.games._lock(game_id):
            row = self.games._authorize(game_id, token)
            return self._state(self._catch_up(self._load(row)), since)

    def act(self, game_id: str, token: str | None, text: str, seq: int
            ) -> tuple[dict[str, Any], bool]:
        """As :meth:`GameService.act`."""
        with self.games._lock(game_id):
            row = self.games._authorize(game_id, token)
            norm = normalize_action(text)
            if row.last_action is not None and row.last_action_seq == seq \
                    and norm == row.last_action:
                state = self._state(self._load(row), seq)
                state["duplicate"] = True
                return state, True
            loaded = self._catch_up(self._load(row))
            if seq != loaded.seq:
                raise Stale(self._state(loaded, min(seq, loaded.seq)))
            m = loaded.match
            i = m.shown_index()
            first = i
            action: Action | None = None
            if norm in (_NEXT_HAND, "next_hand"):
                if m.is_over:
                    raise Illegal("the game is over: start a new game")
                if not m.hand_over():
                    raise Illegal("the hand is not over yet")
                first = len(m.deals)
            else:
                try:
                    action = Action.parse(text)
                except (InvalidNotationError, ValueError) as e:
                    raise BadRequest("invalid", str(e)) from None
                h = m.deals[i]
                s = m.seatings[i]
                if m.is_over:
                    raise Illegal("the game is over: start a new game")
                if not s.person_plays:
                    raise Illegal("you sit out this hand: the next action is \"next hand\"")
                if h.is_over:
                    raise Illegal("the hand is over: the next action is \"next hand\"")
                if s.players[h.current] != PERSON:
                    raise Illegal("it is not your turn")
                try:
                    h.verify(action)
                except IllegalActionError as e:
                    raise Illegal(str(e)) from None
            try:
                if action is None:
                    self._deal_hand(loaded)
                else:
                    m.apply(i, action)
                    self._advance(loaded)
                self._persist(loaded, first, norm, seq)
            except Stale:
                raise
            except Exception:
                self._forget(game_id)
                raise
            return self._state(loaded, seq), False

    def set_order(self, game_id: str, token: str | None, cards: list[str]) -> None:
        """As :meth:`GameService.set_order`, for the person's deal in play."""
        with self.games._lock(game_id):
            row = self.games._authorize(game_id, token)
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
            m = loaded.match
            order = {"hand": m.seatings[m.shown_index()].number, "cards": out}
            self.store.set_hand_order(game_id, order)
            row.hand_order = order
            loaded.row.hand_order = order

    def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The fairness record (docs/variants.md): every finished deal with its players, deck,
        salt, commitment and actions; only the commitment of a deal in play."""
        with self.games._lock(game_id):
            row = self.games._authorize(game_id, token)
            loaded = self._load(row)
            m = loaded.match
            hands = []
            current = []
            for i, h in enumerate(m.deals):
                s = m.seatings[i]
                info = loaded.deals[i]
                base = {"number": s.number, "hand": s.hand, "table": s.table,
                        "players": list(s.players), "dealer": h.dealer,
                        "commitment": info.commitment}
                if not h.is_over:
                    current.append(base)
                    continue
                o = h.outcome
                assert o is not None
                res = public_result(m, i) or {}
                hands.append({**base, "deck": loaded.decks[i], "salt": info.salt,
                              "actions": [e.action.text for e in h.history],
                              "result": {"kind": o.kind, "winner": o.winner, "points": o.points,
                                         "winner_player": res.get("winner")}})
            return {"format": "ginrummy-fairness/1", "game_id": game_id,
                    "scoring": m.scoring, "rules": {"preset": row.preset, **m.rules.to_dict()},
                    "first_dealer": row.first_dealer, "hands": hands,
                    "current": current or None}
