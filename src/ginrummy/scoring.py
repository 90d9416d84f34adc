"""Scoring one hand (RULES.md section 6, O-4).

Seats are abstracted here as "knocker" and "defender"; :mod:`ginrummy.hand` maps them to seats.

>>> from .cards import CardSet
>>> from .melds import default_spread
>>> k = default_spread(CardSet.parse("3S 4S 5S 9H 9D 9C JD QD KD 4H"))
>>> r = score_showdown(Rules.preset("standard"), k, CardSet.parse("6S 7S QC QH QS 4C 5C 6C AC 2D"))
>>> r.kind, r.winner, r.points
('undercut', 'defender', 26)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import CardSet, card_text
from .errors import IllegalActionError, InvalidNotationError
from .melds import Arrangement, LayoffResult, best_arrangement, best_layoff
from .rules import Rules

__all__ = ["Showdown", "score_showdown", "ResultKind"]

ResultKind = Literal["knock", "gin", "big_gin", "undercut", "tie", "dead"]


@dataclass(frozen=True, slots=True)
class Showdown:
    """The score of a shown-down hand.

    :ivar kind: ``knock`` | ``gin`` | ``big_gin`` | ``undercut`` | ``tie`` (a tie when ties are
        not undercuts: nobody scores, R-7.4).
    :ivar winner: ``"knocker"`` | ``"defender"`` | ``None`` (tie).
    :ivar points: what the winner scores, doubling included (points).
    :ivar knocker_spread: the knocker's melds and deadwood as shown (R-4.5).
    :ivar defender: the defender's melds, layoffs (none on gin) and final deadwood (R-6.4).
    :ivar breakdown: ``(code, points)`` lines that sum to ``points``.
    :ivar boxes: boxes the winner earns for the hand (1, plus R-10.6 extras).
    """

    kind: ResultKind
    winner: Literal["knocker", "defender"] | None
    points: int
    knocker_spread: Arrangement
    defender: LayoffResult
    breakdown: tuple[tuple[str, int], ...]
    doubled: bool
    boxes: int

    @property
    def knocker_deadwood_points(self) -> int:
        return self.knocker_spread.deadwood_points

    @property
    def defender_deadwood_points(self) -> int:
        return self.defender.deadwood_points


def score_showdown(rules: Rules, knocker_spread: Arrangement, defender_hand: CardSet, *,
                   big_gin: bool = False, knock_limit: int | None = None,
                   spade_double: bool = False) -> Showdown:
    """Score a knock, gin or big gin against the defender's 10 cards (R-5.x, R-6.x, R-7.x).

    ``knocker_spread`` holds the knocker's 10 kept cards (11 for big gin). ``knock_limit`` is the
    hand's limit (default ``rules.knock_limit``); ``spade_double`` applies O-4.

    :raises IllegalActionError: the knocker's deadwood is over the limit, or big gin is claimed
        without 11 melded cards or with big gin off.
    :raises InvalidNotationError: the hands overlap or have the wrong number of cards.
    """
    limit = rules.knock_limit if knock_limit is None else knock_limit
    kcards = knocker_spread.deadwood
    for m in knocker_spread.melds:
        kcards = kcards | m
    want = 11 if big_gin else 10
    if len(kcards) != want:
        raise InvalidNotationError(f"the knocker shows {len(kcards)} cards; expected {want}",
                                   "knocker_card_count", expected=want, got=len(kcards))
    if len(defender_hand) != 10:
        raise InvalidNotationError(f"the defender holds {len(defender_hand)} cards; expected 10",
                                   "defender_card_count", got=len(defender_hand))
    if kcards.mask & defender_hand.mask:
        raise InvalidNotationError(f"a card is in both hands: {(kcards & defender_hand).format()}",
                                   "cards_in_both",
                                   cards=[card_text(c) for c in kcards & defender_hand])
    k = knocker_spread.deadwood_points
    if big_gin:
        if rules.big_gin_bonus is None:
            raise IllegalActionError("big gin is not played at this table", "big_gin_off")
        if k != 0:
            raise IllegalActionError(f"not big gin: deadwood {k}", "not_big_gin", deadwood=k)
    elif k > limit:
        raise IllegalActionError(f"may not knock: deadwood {k} > {limit}", "over_knock_limit",
                                 deadwood=k, limit=limit)
    breakdown: list[tuple[str, int]] = []
    winner: Literal["knocker", "defender"] | None
    if k == 0:
        arr = best_arrangement(defender_hand)
        defender = LayoffResult(arr.melds, (), arr.deadwood, arr.deadwood_points)
        d = defender.deadwood_points
        kind: ResultKind = "big_gin" if big_gin else "gin"
        bonus = (rules.big_gin_bonus or 0) if big_gin else rules.gin_bonus
        breakdown = [("defender_deadwood", d), (f"{kind}_bonus", bonus)]
        winner = "knocker"
    else:
        defender = best_layoff(defender_hand, knocker_spread.melds)
        d = defender.deadwood_points
        if k < d:
            kind, winner = "knock", "knocker"
            breakdown = [("defender_deadwood", d), ("knocker_deadwood", -k)]
        elif k > d or rules.undercut_on_tie:
            kind, winner = "undercut", "defender"
            breakdown = [("knocker_deadwood", k), ("defender_deadwood", -d),
                         ("undercut_bonus", rules.undercut_bonus)]
        else:
            kind, winner = "tie", None
    points = sum(p for _, p in breakdown)
    doubled = bool(spade_double and winner is not None)
    if doubled:
        breakdown.append(("spade_double", points))
        points *= 2
    boxes = 0
    if winner is not None:
        boxes = 1
        if rules.extra_boxes:
            boxes += {"undercut": 1, "gin": 2, "big_gin": 2}.get(kind, 0)
    return Showdown(kind, winner, points, knocker_spread, defender, tuple(breakdown), doubled,
                    boxes)

