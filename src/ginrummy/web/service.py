"""Games against the computer: create, act, resume; persistence through :mod:`ginrummy.store`.

The standard game's part of :class:`~ginrummy.web.service_base.TableService` (which holds the
flow of a request, shared with the variant tables): the computer is seat 1 and moves from its
own view while it is its turn. Calls on a variant game are handed on to
:class:`~ginrummy.web.variant_service.VariantService`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..cards import parse_card
from ..fairness import FORMAT
from ..game import Game
from ..hand import HandState
from ..records import GameRecord, HandRecord
from ..rules import Rules
from ..store import DealRow, GameRow, Store
from . import service_base
from .service_base import BadRequest, Illegal, NotFound, Stale, normalize_action
from .state import YOU, DealInfo, build_state, deal_event_count, game_seq

__all__ = ["GameService", "NotFound", "Stale", "BadRequest", "Illegal", "normalize_action"]

COMPUTER = 1


@dataclass
class LoadedGame(service_base.Loaded):
    """A standard game rebuilt from its record."""

    game: Game


class GameService(service_base.TableService[LoadedGame]):
    """The web game's operations. Thread-safe: one lock per game (striped). Variant games are
    handed on to :attr:`variants`."""

    #: games kept rebuilt in memory (about 20 KB each); a request on a game not in it replays
    #: the game's whole record, so it should hold every game in play (a load test of 200
    #: concurrent games with 128 replayed nearly every request).
    CACHE_SIZE = 2048

    def __init__(self, store: Store, cache_size: int = CACHE_SIZE) -> None:
        super().__init__(store, cache_size)
        from .variant_service import VariantService  # Hollywood, 3 players, partnership

        self.variants = VariantService(self)

    # ----------------------------------------------------------------------- the engine's part
    def _replay(self, row: GameRow) -> LoadedGame:
        """The game rebuilt from its stored record (:class:`GameRecord`): its row and deals as
        of one moment (the returned game's ``row`` may be newer than ``row``)."""
        got = self.store.get_game_with_deals(row.id)
        if got is None:
            raise NotFound
        row, deal_rows = got
        rules = Rules.from_dict(row.rules)
        record = GameRecord(rules, row.first_dealer,
                            tuple((tuple(parse_card(c) for c in d.deck), tuple(d.actions))
                                  for d in deal_rows))
        game = record.replay()
        loaded = LoadedGame(row, [DealInfo(d.number, d.salt, d.commitment) for d in deal_rows],
                            [d.deck for d in deal_rows], game)
        loaded.seq = game_seq(game)
        if loaded.seq != row.seq:  # pragma: no cover - only after a format change
            service_base.log.warning("game %s: stored seq %s, replay gives %s", row.id, row.seq,
                                     loaded.seq)
        return loaded

    def _seq(self, loaded: LoadedGame) -> int:
        return game_seq(loaded.game)

    def _deal_hand(self, loaded: LoadedGame) -> None:
        number = len(loaded.game.deals) + 1
        loaded.game.new_hand(self._new_deck(loaded, number))

    @staticmethod
    def _computer_to_move(g: Game) -> bool:
        return g.current is not None and not g.current.is_over and g.current.current == COMPUTER

    def _advance(self, loaded: LoadedGame) -> None:
        """Let the computer move while it is its turn."""
        g = loaded.game

        def move() -> None:
            assert g.current is not None
            self._computer_move(loaded, g.current, len(g.deals),
                                (g.hand_points[0], g.hand_points[1]), g.rules.target, g.apply)

        self._play_computers(lambda: self._computer_to_move(g), move)

    def _waiting_for_computer(self, loaded: LoadedGame) -> int | None:
        g = loaded.game
        return len(g.deals) - 1 if self._computer_to_move(g) else None

    def _deal_row(self, loaded: LoadedGame, index: int) -> DealRow:
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

    def _result(self, loaded: LoadedGame) -> tuple[int | None, int | None] | None:
        game = loaded.game
        return (game.winner, game.final().margin) if game.is_over else None

    def _hand_number(self, loaded: LoadedGame) -> int:
        return len(loaded.game.deals)

    def _state(self, loaded: LoadedGame, since: int | None) -> dict[str, Any]:
        g = loaded.game
        if since is None:  # the events of the deal in play (its end included)
            since = loaded.seq - deal_event_count(g, len(g.deals) - 1)
        return build_state(game_id=loaded.row.id, game=g, deals=loaded.deals,
                           level=loaded.row.level, preset=loaded.row.preset, since=since,
                           hand_order=self._hand_order(loaded))

    def _check_next_hand(self, loaded: LoadedGame) -> int:
        g = loaded.game
        if g.current is not None and not g.current.is_over:
            raise Illegal("the hand is not over yet")
        return len(g.deals) - 1

    def _person_hand(self, loaded: LoadedGame) -> tuple[HandState, int]:
        g = loaded.game
        h = g.current
        if h is None or h.is_over:
            raise Illegal("the hand is over: the next action is \"next hand\"", "hand_over")
        if h.current != YOU:
            raise Illegal("it is not your turn")
        return h, len(g.deals) - 1

    def _apply(self, loaded: LoadedGame, index: int, action: Action) -> None:
        loaded.game.apply(action)

    def _score_of(self, loaded: LoadedGame, index: int) -> tuple[tuple[int, int], int]:
        g = loaded.game
        return (g.hand_points[0], g.hand_points[1]), g.rules.target

    def _numbered_deals(self, loaded: LoadedGame
                        ) -> list[tuple[int, HandState, dict[str, Any]]]:
        return [(n, h, {"scoring": "standard", "hand": n, "table": 0, "players": [0, 1],
                        "you": YOU})
                for n, h in enumerate(loaded.game.deals, 1)]

    # ------------------------------------------------------------------------------ operations
    def create(self, player_id: str | None, level: str | None, preset: str | None,
               overrides: dict[str, Any] | None, scoring: str | None = None
               ) -> tuple[str, str, dict[str, Any]]:
        """A new game: ``(game_id, token, state)``. :raises BadRequest: bad level or rules."""
        if scoring not in (None, "standard"):
            return self.variants.create(player_id, level, preset, overrides, scoring)
        level, base, rules = service_base.checked_rules(level, preset, overrides)
        row, token = service_base.new_game_row(player_id, level, base, rules, secrets.randbelow(2))
        loaded = LoadedGame(row, [], [], Game(rules, row.first_dealer))
        with self._lock(row.id):
            self._deal_hand(loaded)
            self._advance(loaded)
            return row.id, token, self._insert(loaded)

    def get(self, game_id: str, token: str | None, since: int | None) -> dict[str, Any]:
        """As :meth:`TableService.get`, for any game (variant games included)."""
        if self.variants.owns(game_id):
            return self.variants.get(game_id, token, since)
        return super().get(game_id, token, since)

    def act(self, game_id: str, token: str | None, text: str, seq: int
            ) -> tuple[dict[str, Any], bool]:
        """As :meth:`TableService.act`, for any game (variant games included)."""
        if self.variants.owns(game_id):
            return self.variants.act(game_id, token, text, seq)
        return super().act(game_id, token, text, seq)

    def set_order(self, game_id: str, token: str | None, cards: list[str]) -> None:
        """As :meth:`TableService.set_order`, for any game (variant games included)."""
        if self.variants.owns(game_id):
            return self.variants.set_order(game_id, token, cards)
        return super().set_order(game_id, token, cards)

    def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """As :meth:`TableService.hint`, for any game (variant games included)."""
        if self.variants.owns(game_id):
            return self.variants.hint(game_id, token)
        return super().hint(game_id, token)

    def finished_deal(self, game_id: str, token: str | None, number: int
                      ) -> tuple[dict[str, Any], HandRecord]:
        """As :meth:`TableService.finished_deal`, for any game (variant games included)."""
        if self.variants.owns(game_id):
            return self.variants.finished_deal(game_id, token, number)
        return super().finished_deal(game_id, token, number)

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
            return {"format": FORMAT, "game_id": game_id,
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
