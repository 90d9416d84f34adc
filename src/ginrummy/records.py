"""Hand and game records (DESIGN.md principle 5): rules + deck order + actions, as JSON.

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
    """A game: rules, first dealer, and each deal's deck and actions in order."""

    rules: Rules
    first_dealer: int
    hands: tuple[tuple[tuple[int, ...], tuple[str, ...]], ...]

    @classmethod
    def of(cls, game: Game) -> GameRecord:
        """The record of ``game``: every deal dealt so far, the one in play included."""
        return cls(game.rules, game.first_dealer,
                   tuple((h.deck, tuple(_actions_of(h))) for h in game.deals))

    def replay(self) -> Game:
        """The game after every recorded deal and action."""
        g = Game(self.rules, self.first_dealer)
        for deck, actions in self.hands:
            g.new_hand(deck)
            for a in actions:
                g.apply(Action.parse(a))
        return g

    def to_json(self) -> dict[str, Any]:
        return {"version": FORMAT_VERSION, "rules": self.rules.to_dict(),
                "first_dealer": self.first_dealer,
                "hands": [{"deck": [card_text(c) for c in d], "actions": list(a)}
                          for d, a in self.hands]}

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
            return cls(Rules.from_dict(data["rules"]), int(data["first_dealer"]), hands)
        except (KeyError, TypeError) as e:
            raise InvalidNotationError(f"malformed game record: {e}") from None
