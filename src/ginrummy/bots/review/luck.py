"""Luck apart from skill: what the cards brought a seat, against what average cards would have.

A seat meets chance twice in a deal (R-2.2, R-3.3): the cards it is dealt (with the upcard),
and each card it draws from the stock (the opponent's stock cards are hidden from it: they act
on it only through the opponent's moves). Each is valued **from the seat's own view**, with the
same search as its decisions (:mod:`ginrummy.bots.review.position`), in the chance of winning the
game and in hand points:

* **a stock draw** of card ``c``: ``luck = V(after drawing c) - Q(draw stock)``. ``Q(draw
  stock)`` is the value of drawing, before the card is seen: the mean over the sampled worlds,
  whose top stock card is drawn from the seat's view (the unseen cards, weighed by what the
  opponent is believed to hold), of the deal played out by the search's rollout policy; it is
  the expected value over the possible cards. ``V(after drawing c)`` is the value of the same
  policy from the position after ``c`` (:func:`policy_value`: the move the rollout policy makes
  holding those 11 cards, in the worlds sampled from the new view). Both sides are the same
  estimator, so that over the possible cards the luck averages to zero; comparing the *best*
  move after the draw with ``Q(draw stock)`` would call the search's own gain "luck". When the
  seat had the choice, ``Q(draw stock)`` comes from that decision's values; after both passed
  the upcard (a forced draw, R-3.1) it is valued alone.
* **the deal**: ``luck = V(first decision) - W(score)``: the policy value at the seat's first
  decision of the deal (the first-turn offer, or its first draw when the non-dealer took the
  upcard) against the chance of winning from the score before the deal (``W``: the score
  context at 0 points, in which both players are alike) and 0 points. It includes the edge or
  handicap of being the non-dealer or the dealer, and (for the dealer) what the non-dealer's
  first move showed.

The rest of a seat's result is its decisions (minus the drops of :mod:`ginrummy.bots.review.
grades`) and what it could not control nor see: its opponent's play and cards, and the showdown
(:mod:`ginrummy.bots.review.summary` adds them up). A seat's *net* card luck is its luck minus
its opponent's, each from its own view.
"""

from __future__ import annotations

import numpy as np

from ...actions import ActionKind
from .position import PositionValues

__all__ = ["policy_value", "move_value"]


def policy_value(values: PositionValues) -> tuple[float, float]:
    """``(chance of winning, points)`` of the search's rollout policy from this position: the
    mean over the worlds of the value of the move the policy plays in each
    (``values.policy``).

    :raises ValueError: ``values`` has no policy weights (the fiftieth-card choice)."""
    if values.policy is None:
        raise ValueError("no rollout policy at this decision")
    w = values.policy
    return (float((w * values.win).sum(axis=0).mean()),
            float((w * values.points).sum(axis=0).mean()))


def move_value(values: PositionValues, kind: ActionKind) -> tuple[float, float]:
    """``(chance of winning, points)`` of the move of ``kind`` (e.g. a stock draw).

    :raises ValueError: no such move."""
    for i, m in enumerate(values.moves):
        if m.kind is kind:
            return float(np.mean(values.win[i])), float(np.mean(values.points[i]))
    raise ValueError(f"no {kind.value} move here")
