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

import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..cards import parse_card
from ..errors import RulesError
from ..fairness import FORMAT
from ..hand import HandState
from ..rules import Rules
from ..store import DealRow, GameRow
from ..store.variants import VariantStore
from ..variants import SCORINGS, fit_to_table
from . import service_base
from .service_base import BadRequest, Illegal, NotFound
from .state import DealInfo
from .variant_state import build_variant_state, public_result, stream_event_count, variant_seq
from .variants import PERSON, Match

if TYPE_CHECKING:
    from .service import GameService

__all__ = ["VariantService"]


@dataclass
class LoadedMatch(service_base.Loaded):
    """A variant game rebuilt from its record."""

    match: Match


class VariantService(service_base.TableService[LoadedMatch]):
    """Operations on variant games; shares the store, the per-game locks and the computer
    players of ``games``."""

    def __init__(self, games: GameService) -> None:
        super().__init__(games.store, 64, shared=games)
        self.vstore = VariantStore(games.store.engine, games.store._writer)
        self._scorings: OrderedDict[str, str | None] = OrderedDict()

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

    def _replay(self, row: GameRow) -> LoadedMatch:
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
        loaded = LoadedMatch(row, infos, decks, m)
        loaded.seq = variant_seq(m)
        return loaded

    def _seq(self, loaded: LoadedMatch) -> int:
        return variant_seq(loaded.match)

    # ------------------------------------------------------------------------------- dealing
    def _deal_hand(self, loaded: LoadedMatch) -> None:
        """Deal every deal of the next hand (a new pair cuts for the deal: R-2.1)."""
        m = loaded.match
        for _hand, _table, _players, dealer in m.next_plan():
            deck = self._new_deck(loaded, len(m.deals) + 1)
            m.add_deal(deck, secrets.randbelow(2) if dealer is None else dealer)

    def _run(self, loaded: LoadedMatch, index: int, until_person: bool,
             keep_up_with: int | None = None) -> None:
        m = loaded.match
        h = m.deals[index]
        s = m.seatings[index]

        def to_move() -> bool:
            if h.is_over or (until_person and s.players[h.current] == PERSON):
                return False
            return keep_up_with is None or len(h.history) < keep_up_with

        def move() -> None:
            self._computer_move(loaded, h, s.number,
                                (m.points_of(s.players[0]), m.points_of(s.players[1])),
                                m.rules.target, lambda action: m.apply(index, action))

        self._play_computers(to_move, move)

    def _advance(self, loaded: LoadedMatch) -> None:
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

    def _waiting_for_computer(self, loaded: LoadedMatch) -> int | None:
        m = loaded.match
        i = m.shown_index()
        h = m.deals[i]
        return i if not h.is_over and m.seatings[i].players[h.current] != PERSON else None

    # ----------------------------------------------------------------------------- persisting
    def _deal_row(self, loaded: LoadedMatch, index: int) -> DealRow:
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

    def _result(self, loaded: LoadedMatch) -> tuple[int | None, int | None] | None:
        m = loaded.match
        return m.person_result() if m.is_over else None

    def _hand_number(self, loaded: LoadedMatch) -> int:
        m = loaded.match
        return m.seatings[m.shown_index()].number

    def _state(self, loaded: LoadedMatch, since: int | None) -> dict[str, Any]:
        m = loaded.match
        if since is None:
            since = loaded.seq - stream_event_count(m, m.shown_index())
        return build_variant_state(game_id=loaded.row.id, match=m, deals=loaded.deals,
                                   level=loaded.row.level, preset=loaded.row.preset,
                                   since=since, hand_order=self._hand_order(loaded))

    # ------------------------------------------------------------------------ the person's moves
    def _check_next_hand(self, loaded: LoadedMatch) -> int:
        m = loaded.match
        if not m.hand_over():
            raise Illegal("the hand is not over yet")
        return len(m.deals)

    def _person_hand(self, loaded: LoadedMatch) -> tuple[HandState, int]:
        m = loaded.match
        i = m.shown_index()
        h = m.deals[i]
        s = m.seatings[i]
        if not s.person_plays:
            raise Illegal("you sit out this hand: the next action is \"next hand\"",
                          "sitting_out")
        if h.is_over:
            raise Illegal("the hand is over: the next action is \"next hand\"", "hand_over")
        if s.players[h.current] != PERSON:
            raise Illegal("it is not your turn")
        return h, i

    def _apply(self, loaded: LoadedMatch, index: int, action: Action) -> None:
        loaded.match.apply(index, action)

    def _score_of(self, loaded: LoadedMatch, index: int) -> tuple[tuple[int, int], int]:
        m = loaded.match
        players = m.seatings[index].players
        return (m.points_of(players[0]), m.points_of(players[1])), m.rules.target

    def _numbered_deals(self, loaded: LoadedMatch
                        ) -> list[tuple[int, HandState, dict[str, Any]]]:
        m = loaded.match
        return [(s.number, h, {"scoring": m.scoring, "hand": s.hand, "table": s.table,
                               "players": list(s.players), "you": s.seat_of(0)})
                for s, h in zip(m.seatings, m.deals, strict=True)]

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
        try:  # the fields the table decides itself take its values (any preset fits)
            overrides = fit_to_table(dict(overrides or {}), scoring)
        except RulesError as e:
            raise BadRequest("rules", str(e)) from None
        level, base, rules = service_base.checked_rules(level, preset, overrides)
        try:
            first = secrets.randbelow(3) if scoring == "three_player" else secrets.randbelow(2)
            match = Match(scoring, rules, first)
        except (RulesError, TypeError) as e:
            raise BadRequest("rules", str(e)) from None
        row, token = service_base.new_game_row(player_id, level, base, rules, first)
        loaded = LoadedMatch(row, [], [], match)
        with self._lock(row.id):
            self._deal_hand(loaded)
            self._advance(loaded)
            self.vstore.set_scoring(row.id, scoring)
            state = self._insert(loaded)
            with self._cache_lock:
                self._scorings[row.id] = scoring
            return row.id, token, state

    def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The fairness record (docs/variants.md): every finished deal with its players, deck,
        salt, commitment and actions; only the commitment of a deal in play."""
        with self._lock(game_id):
            row = self._authorize(game_id, token)
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
            return {"format": FORMAT, "game_id": game_id,
                    "scoring": m.scoring, "rules": {"preset": row.preset, **m.rules.to_dict()},
                    "first_dealer": row.first_dealer, "hands": hands,
                    "current": current or None}
