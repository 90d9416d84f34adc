"""Hand and game records (DESIGN.md principle 5): rules + deck order + actions, as JSON, for
every form of the game (:class:`~ginrummy.game.Game`).

A record replays exactly: the same deck and the same actions give the same state.

>>> h = HandState(Rules.preset("standard"), 0, list(range(52)))
>>> h.apply("pass"); h.apply("pass"); h.apply("draw stock")
>>> rec = HandRecord.of(h)
>>> HandRecord.from_json(rec.to_json()).replay().stock_count
30
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import card_text, parse_cards
from .errors import InvalidNotationError
from .game import Game
from .hand import HandState
from .rules import Rules

__all__ = ["HandRecord", "GameRecord", "FORMAT_VERSION"]

FORMAT_VERSION = 1


def _actions_of(state: HandState) -> list[str]:
    return [e.action.text for e in state.history]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One deal: ``dealer`` seat, ``deck`` (52 card ints in deal order), ``actions`` (texts)."""

    rules: Rules
    dealer: int
    deck: tuple[int, ...]
    actions: tuple[str, ...]

    @classmethod
    def of(cls, state: HandState) -> HandRecord:
        return cls(state.rules, state.dealer, state.deck, tuple(_actions_of(state)))

    def replay(self) -> HandState:
        """The state after every action. :raises GinRummyError: on an illegal action."""
        h = HandState(self.rules, self.dealer, self.deck)
        for a in self.actions:
            h.apply(Action.parse(a))
        return h

    def to_json(self) -> dict[str, Any]:
        return {"version": FORMAT_VERSION, "rules": self.rules.to_dict(), "dealer": self.dealer,
                "deck": [card_text(c) for c in self.deck], "actions": list(self.actions)}

    @classmethod
    def from_json(cls, data: Any) -> HandRecord:
        """:raises InvalidNotationError: malformed record; :raises RulesError: bad rules."""
        if not isinstance(data, dict):
            raise InvalidNotationError("a hand record must be an object")
        try:
            deck = tuple(parse_cards(data["deck"]))
            return cls(Rules.from_dict(data["rules"]), int(data["dealer"]), deck,
                       tuple(str(a) for a in data["actions"]))
        except KeyError as e:
            raise InvalidNotationError(f"hand record without {e.args[0]!r}") from None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game of any form: rules, scoring, first dealer, and each deal's deck, dealer seat and
    actions in the order the deals were dealt.

    :ivar hands: per deal, ``(deck, actions)``: 52 card ints in deal order and the action texts.
    :ivar scoring: ``standard``, ``hollywood``, ``three_player`` or ``partnership``.
    :ivar dealers: per deal, its dealer's engine seat (0 or 1); required where the pair cuts
        for the deal (partnership), else checked against the rules; ``None``: not recorded.
    :ivar order: the deal index of every action in the order they were made (two partnership
        tables play at once); ``None``: each deal's actions before the next deal.

    >>> g = Game(Rules.preset("standard"), 0, "three_player")
    >>> h = g.new_hand(list(range(52))); g.apply("pass"); g.apply("pass")
    >>> rec = GameRecord.from_json(GameRecord.of(g).to_json())
    >>> rec.scoring, rec.replay().seatings[0].players
    ('three_player', (1, 2))
    """

    rules: Rules
    first_dealer: int
    hands: tuple[tuple[tuple[int, ...], tuple[str, ...]], ...]
    scoring: str = "standard"
    dealers: tuple[int, ...] | None = None
    order: tuple[int, ...] | None = None

    @classmethod
    def of(cls, game: Game) -> GameRecord:
        """The record of ``game``: every deal dealt so far, the ones in play included."""
        return cls(game.rules, game.first_dealer,
                   tuple((h.deck, tuple(_actions_of(h))) for h in game.deals), game.scoring,
                   tuple(h.dealer for h in game.deals),
                   tuple(game.order) if game.scoring == "partnership" else None)

    def replay(self) -> Game:
        """The game after every recorded deal and action, dealt and played in the recorded
        order.

        :raises GinRummyError: an illegal action, a deal dealt out of turn or by the wrong
            dealer, a missing dealer where the pair cuts, or an order that does not fit the
            deals (:class:`~ginrummy.errors.InvalidNotationError`).
        """
        g = Game(self.rules, self.first_dealer, self.scoring)
        if self.dealers is not None and len(self.dealers) != len(self.hands):
            raise InvalidNotationError(f"{len(self.dealers)} dealers for {len(self.hands)} deals")
        order = self.order
        if order is None:
            order = tuple(i for i, (_, acts) in enumerate(self.hands) for _ in acts)
        elif sorted(order) != [i for i, (_, acts) in enumerate(self.hands) for _ in acts]:
            raise InvalidNotationError("the order does not list each deal's actions once each")
        done = [0] * len(self.hands)

        def deal_next() -> None:
            i = len(g.deals)
            g.new_hand(self.hands[i][0], None if self.dealers is None else self.dealers[i])

        for i in order:
            while len(g.deals) <= i:
                deal_next()
            g.apply(Action.parse(self.hands[i][1][done[i]]), i)
            done[i] += 1
        while len(g.deals) < len(self.hands):
            deal_next()
        return g

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": FORMAT_VERSION, "rules": self.rules.to_dict()}
        if self.scoring != "standard":
            out["scoring"] = self.scoring
        out["first_dealer"] = self.first_dealer
        out["hands"] = [{"deck": [card_text(c) for c in d], "actions": list(a)}
                        for d, a in self.hands]
        if self.dealers is not None:
            for h, dealer in zip(out["hands"], self.dealers, strict=True):
                h["dealer"] = dealer
        if self.order is not None:
            out["order"] = list(self.order)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """:raises InvalidNotationError: malformed record; :raises RulesError: bad rules."""
        if not isinstance(data, dict):
            raise InvalidNotationError("a game record must be an object")
        try:
            hands = tuple((tuple(parse_cards(h["deck"])), tuple(str(a) for a in h["actions"]))
                          for h in data["hands"])
            dealers = None
            if data["hands"] and all(isinstance(h, dict) and "dealer" in h
                                     for h in data["hands"]):
                dealers = tuple(_int(h["dealer"], "dealer") for h in data["hands"])
            order = data.get("order")
            if order is not None:
                if not isinstance(order, list):
                    raise InvalidNotationError("order must be a list of deal indexes")
                order = tuple(_int(i, "order") for i in order)
            return cls(Rules.from_dict(data["rules"]), _int(data["first_dealer"], "first_dealer"),
                       hands, str(data.get("scoring", "standard")), dealers, order)
        except (KeyError, TypeError) as e:
            raise InvalidNotationError(f"malformed game record: {e}") from None


def _int(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise InvalidNotationError(f"{name} must be a whole number, not {v!r}")
    return v
