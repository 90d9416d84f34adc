"""Game records to review: the fairness record of ``GET /api/games/{id}/record``
(docs/fairness.md; ``ginrummy verify`` reads the same) and the engine's own game record
(:class:`ginrummy.records.GameRecord` JSON), read into the per-deal inputs of
:func:`~ginrummy.bots.review.deal.review_deal`, each with its seats' score contexts.

Two-player records (``scoring`` absent or ``standard``: the standard, pagat, eaai, Oklahoma and
straight presets) are read now. Hollywood, three players and partnership records are refused
with :class:`ReviewError` until the one-object game of every form lands; each will add a reader
here that builds its own :class:`~ginrummy.bots.review.score.ScoreContext` per deal, and the
rest of the review is unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...actions import Action
from ...cards import parse_card
from ...errors import GinRummyError
from ...fairness import FORMAT
from ...game import Game
from ...rules import Rules
from .deal import DealInput
from .score import TwoPlayerScore

__all__ = ["ReviewError", "GameToReview", "read_record"]


class ReviewError(GinRummyError):
    """A record that cannot be reviewed (malformed, not replayable, a form not read yet, a
    deal asked for that it does not hold); the message is one line."""


@dataclass(frozen=True, slots=True)
class GameToReview:
    """A record read: ``scoring`` its form, ``rules`` (as the record gives them), ``deals`` the
    finished deals in order, ``complete`` True when the game is over."""

    scoring: str
    rules: Rules
    rules_json: dict[str, Any]
    deals: tuple[DealInput, ...]
    complete: bool


def read_record(record: object) -> GameToReview:
    """The finished deals of a two-player game record, each with the score before it.

    The game is replayed (R-9.1, R-9.2: every dealer must be the rules' one) so that each deal
    gets the hand points of both seats before it (R-10.1).

    :raises ReviewError: not a game record, a form not read yet, an illegal or unfinished deal
        before the last one, a dealer that is not the rules' one.
    """
    if not isinstance(record, Mapping):
        raise ReviewError("not a game record: expected a JSON object with \"hands\"")
    fmt = record.get("format")
    if fmt is not None and fmt != FORMAT:
        raise ReviewError(f"unknown record format {fmt!r}; this version reads {FORMAT!r}")
    if not isinstance(record.get("hands"), list):
        raise ReviewError("not a game record: it has no list of \"hands\"")
    scoring = record.get("scoring") or "standard"
    if scoring != "standard":
        raise ReviewError(f"reviewing a {scoring!r} record is not supported yet: two-player "
                          "games only")
    try:
        rules = Rules.from_dict(record.get("rules"))
    except GinRummyError as e:
        raise ReviewError(f"bad rules: {e}") from None
    first = record.get("first_dealer")
    if first not in (0, 1) or isinstance(first, bool):
        raise ReviewError(f"first_dealer must be 0 or 1, not {first!r}")
    game = Game(rules, first)
    deals = []
    hands = record["hands"]
    for i, h in enumerate(hands, 1):
        if not isinstance(h, Mapping):
            raise ReviewError(f"hand {i}: not an object")
        number = h.get("number", i)
        if number != i:
            raise ReviewError(f"hand {i}: numbered {number!r}")
        try:
            deck = tuple(_deck(h.get("deck")))
            actions = tuple(_actions(h.get("actions")))
            dealer = h.get("dealer", game.dealer)
            if dealer != game.dealer:
                raise ReviewError(f"dealt by seat {dealer!r}, but the rules make seat "
                                  f"{game.dealer} the dealer (R-9.1, R-9.2)")
            hp = (game.progress(0), game.progress(1))
            state = game.new_hand(deck)
            for a in actions:
                game.apply(Action.parse(a))
        except GinRummyError as e:
            raise ReviewError(f"hand {i}: {e}") from None
        if not state.is_over:
            if i < len(hands):
                raise ReviewError(f"hand {i}: the hand did not end")
            break  # a deal in play is never reviewed
        salt = h.get("salt")
        deals.append(DealInput(i, rules, state.dealer, deck, actions,
                               salt if isinstance(salt, str) else None,
                               {0: TwoPlayerScore(rules, hp[0], hp[1]),
                                1: TwoPlayerScore(rules, hp[1], hp[0])},
                               hp, rules.target))
    raw_rules = record.get("rules")
    rules_json = dict(raw_rules) if isinstance(raw_rules, Mapping) else {"preset": raw_rules}
    return GameToReview(scoring, rules, rules_json, tuple(deals),
                        game.is_over and not record.get("current"))


def _deck(deck: object) -> list[int]:
    if not isinstance(deck, list):
        raise ReviewError("the deck must be a list of 52 cards")
    out = []
    for c in deck:
        if isinstance(c, str):
            out.append(parse_card(c))
        elif isinstance(c, int) and not isinstance(c, bool):
            out.append(c)
        else:
            raise ReviewError(f"not a card: {c!r}")
    return out


def _actions(actions: object) -> list[str]:
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ReviewError("the actions must be a list of action texts")
    return list(actions)
