"""Game records to review: the fairness record of ``GET /api/games/{id}/record``
(docs/fairness.md; ``ginrummy verify`` reads the same) and the engine's own game record
(:class:`ginrummy.records.GameRecord` JSON), of every form (``scoring``: standard, hollywood,
three_player, partnership), read into the per-deal inputs of
:func:`~ginrummy.bots.review.deal.review_deal`, each with the players at its two engine seats
and their score contexts (:func:`~ginrummy.bots.review.score.score_context`, from the score
sheet before the deal).

The table is replayed on :class:`ginrummy.game.Game` deal by deal: who plays each deal and who
deals follow from the rules (R-9.1, R-9.2; 3P: the loser deals and sits out; 4P: each pair cuts
for its deal, the record names the cut), and a recorded ``players`` or ``dealer`` that differs
is refused. A partnership hand's two deals are read table 0 then table 1 (their order of play
does not change what each seat saw of its own deal; the other table's result is valued as a
distribution, :func:`~ginrummy.bots.review.score.score_context`); a table 1 deal that ended
while its table 0 deal is still in play (``current``) is read on its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...actions import Action
from ...cards import parse_card
from ...errors import GinRummyError
from ...fairness import FORMAT
from ...game import DealPlan, Game
from ...hand import HandState
from ...rules import Rules
from ...variants import PLAYER_COUNT, SCORINGS
from .deal import DealInput
from .score import score_context

__all__ = ["ReviewError", "GameToReview", "read_record", "FORMS"]

#: the record forms (``scoring``) :func:`read_record` reads: every form of the engine
FORMS: tuple[str, ...] = tuple(SCORINGS)


class ReviewError(GinRummyError):
    """A record that cannot be reviewed (malformed, not replayable, a form not read yet, a
    deal asked for that it does not hold); the message is one line."""


@dataclass(frozen=True, slots=True)
class GameToReview:
    """A record read: ``scoring`` its form, ``rules`` (as the record gives them), ``deals`` the
    finished deals in order, ``complete`` True when the game is over, ``players`` how many
    players the table has (2, 3 or 4), ``ratings`` the players' ratings the chances were valued
    with (None: none given)."""

    scoring: str
    rules: Rules
    rules_json: dict[str, Any]
    deals: tuple[DealInput, ...]
    complete: bool
    players: int = 2
    ratings: tuple[float | None, ...] | None = None


def read_record(record: object, ratings: Sequence[float | None] | None = None
                ) -> GameToReview:
    """The finished deals of a game record of any form, each with the score before it.

    ``ratings``: the players' strengths, one per player of the table (None where unknown), on
    the levels' scale (:func:`~ginrummy.bots.review.score.score_context`): in a two-player
    game the chance of winning is valued with the later deals won in proportion to them.

    :raises ReviewError: not a game record, an unknown form, an illegal or unfinished deal
        before the last one(s), a deal seated or dealt otherwise than the rules say, or
        ``ratings`` not one finite number (or None) per player.
    """
    if not isinstance(record, Mapping):
        raise ReviewError("not a game record: expected a JSON object with \"hands\"")
    fmt = record.get("format")
    if fmt is not None and fmt != FORMAT:
        raise ReviewError(f"unknown record format {fmt!r}; this version reads {FORMAT!r}")
    if not isinstance(record.get("hands"), list):
        raise ReviewError("not a game record: it has no list of \"hands\"")
    scoring = record.get("scoring") or "standard"
    if scoring not in SCORINGS:
        raise ReviewError(f"unknown scoring {scoring!r}; scorings: {', '.join(SCORINGS)}")
    try:
        rules = Rules.from_dict(record.get("rules"))
    except GinRummyError as e:
        raise ReviewError(f"bad rules: {e}") from None
    first = record.get("first_dealer", 0 if scoring == "partnership" else None)
    try:
        game = Game(rules, first, scoring)  # Game checks the first dealer
    except GinRummyError as e:
        raise ReviewError(str(e)) from None
    rated = _ratings(ratings, PLAYER_COUNT[scoring])
    waiting = _in_play(record)
    deals: list[DealInput] = []
    hands = record["hands"]
    alone = False
    for i, h in enumerate(hands, 1):
        if not isinstance(h, Mapping):
            raise ReviewError(f"hand {i}: not an object")
        if alone:
            raise ReviewError(f"hand {i}: dealt while the other table of its hand was in play")
        plans = game.next_deals()
        # partnership: table 1's deal may be over while table 0's is in play (``current``)
        other = (len(plans) == 2 and h.get("table") == 1
                 and any(c.get("table") == 0 for c in waiting))
        number = h.get("number", i)
        if number != i + other:
            raise ReviewError(f"hand {i}: numbered {number!r}")
        try:
            deal = (_other_table(game, plans[1], h, number, rated) if other
                    else _replay(game, plans, h, number, i < len(hands), rated))
        except GinRummyError as e:
            raise ReviewError(f"hand {i}: {e}") from None
        alone = other
        if deal is not None:  # a deal in play is never reviewed
            deals.append(deal)
    raw_rules = record.get("rules")
    rules_json = dict(raw_rules) if isinstance(raw_rules, Mapping) else {"preset": raw_rules}
    return GameToReview(scoring, rules, rules_json, tuple(deals),
                        game.is_over and not record.get("current"), PLAYER_COUNT[scoring],
                        rated)


def _ratings(ratings: Sequence[float | None] | None, players: int
             ) -> tuple[float | None, ...] | None:
    if ratings is None:
        return None
    out = tuple(ratings)
    if len(out) != players or not all(
            r is None or (isinstance(r, (int, float)) and not isinstance(r, bool)
                          and math.isfinite(r)) for r in out):
        raise ReviewError(f"ratings must be one number (or none) for each of the {players} "
                          f"players, not {list(out)!r}")
    return tuple(None if r is None else float(r) for r in out)


def _in_play(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    cur = record.get("current")
    if isinstance(cur, Mapping):
        return [cur]
    if isinstance(cur, list):
        return [c for c in cur if isinstance(c, Mapping)]
    return []


def _dealer(game: Game, plan: DealPlan, h: Mapping[str, Any]) -> int:
    """The dealer seat: the rules' (R-9.1, R-9.2; 3P), or the recorded cut (4P, R-2.1)."""
    rec = h.get("dealer")
    if plan.dealer is None:
        if rec not in (0, 1) or isinstance(rec, bool):
            raise ReviewError(f"the pair cuts for the deal (R-2.1): the record must name the "
                              f"dealer seat 0 or 1, not {rec!r}")
        return int(rec)
    if rec is not None and rec != plan.dealer:
        raise ReviewError(f"dealt by seat {rec!r}, but the rules make seat {plan.dealer} the "
                          "dealer (R-9.1, R-9.2)")
    return plan.dealer


def _seated(plan: DealPlan, h: Mapping[str, Any]) -> None:
    if "players" in h and h["players"] != list(plan.players):
        raise ReviewError(f"seated players {h['players']!r}, but the rules seat "
                          f"{list(plan.players)}")


def _input(game: Game, plan: DealPlan, h: Mapping[str, Any], number: int, dealer: int,
           deck: tuple[int, ...], actions: tuple[str, ...],
           ratings: tuple[float | None, ...] | None) -> DealInput:
    """The deal's input, its score contexts from the sheet as it stands (before the deal)."""
    salt = h.get("salt")
    players = plan.players
    hp = (game.progress(players[0]), game.progress(players[1]))
    return DealInput(number, game.rules, dealer, deck, actions,
                     salt if isinstance(salt, str) else None,
                     {s: score_context(game, players, s, ratings) for s in (0, 1)}, hp,
                     game.rules.target, players)


def _replay(game: Game, plans: list[DealPlan], h: Mapping[str, Any], number: int,
            more: bool, ratings: tuple[float | None, ...] | None) -> DealInput | None:
    """Deal ``h`` on ``game`` and play it; None when it is still in play (and may be)."""
    if not plans:
        raise ReviewError("dealt after the end of the game" if game.is_over
                          else "dealt while the previous deal was in play")
    plan = plans[0]
    _seated(plan, h)
    dealer = _dealer(game, plan, h)
    deck = tuple(_deck(h.get("deck")))
    actions = tuple(_actions(h.get("actions")))
    deal = _input(game, plan, h, number, dealer, deck, actions, ratings)
    index = len(game.deals)
    state = game.new_hand(deck, dealer if plan.dealer is None else None)
    for a in actions:
        game.apply(Action.parse(a), index)
    if state.is_over:
        return deal
    # a partnership's table 0 deal in play may be followed by its table 1 deal (engine record)
    if more and not (game.scoring == "partnership" and plan.table == 0):
        raise ReviewError("the hand did not end")
    return None


def _other_table(game: Game, plan: DealPlan, h: Mapping[str, Any], number: int,
                 ratings: tuple[float | None, ...] | None) -> DealInput:
    """A partnership hand's table 1 deal, over while its table 0 deal is in play: read on its
    own (the sheet waits for both tables, so the score before it is the sheet's now)."""
    _seated(plan, h)
    dealer = _dealer(game, plan, h)
    deck = tuple(_deck(h.get("deck")))
    actions = tuple(_actions(h.get("actions")))
    state = HandState(game.rules, dealer, deck)
    for a in actions:
        state.apply(Action.parse(a))
    if not state.is_over:
        raise ReviewError("the hand did not end")
    return _input(game, plan, h, number, dealer, deck, actions, ratings)


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
