"""A game's (or some deals') review summed up per seat: accuracy, grades, what the mistakes
cost, the turning points, and the result split into cards, decisions and the rest.

For a seat over the deals reviewed, in the chance of winning the game and in hand points:

* ``result`` = the chance of winning after the last deal minus before the first (for a whole
  game: 1 or 0 minus the chance at 0-0); in points, its hand points minus its opponent's.
* ``cards`` = the sum of its luck events (:mod:`ginrummy.bots.review.luck`).
* ``decisions`` (``skill``) = minus the sum of its drops (:mod:`ginrummy.bots.review.grades`):
  zero for a seat that always played the search's best move.
* ``rest`` = ``result - cards - decisions``: what the seat neither controlled nor saw: its
  opponent's decisions and cards, and how the hidden cards fell at the showdown.

The turning points are the three decisions (of any seat reviewed) with the largest drop.
"""

from __future__ import annotations

from collections.abc import Sequence

from .grades import GRADES
from .model import DealReview, SeatSummary, TurningPoint

__all__ = ["summarize_seat", "turning_points", "TURNING_POINTS"]

#: how many turning points a review names.
TURNING_POINTS = 3


def summarize_seat(deals: Sequence[DealReview], seat: int) -> SeatSummary:
    """The summary of ``seat`` over ``deals`` (see the module docstring)."""
    ds = [d for deal in deals for d in deal.decisions if d.seat == seat]
    grades = {g: 0 for g in GRADES}
    for d in ds:
        grades[d.grade] += 1
    lost_win = sum(d.drop for d in ds)
    lost_points = sum(d.drop_points for d in ds)
    mistakes = sum(d.drop_points for d in ds if d.grade not in ("best", "good"))
    result_win = sum(deal.win_after[seat] - deal.win_before[seat] for deal in deals)
    result_points = float(sum(deal.result[seat] for deal in deals))
    events = [e for deal in deals for e in deal.luck if e.seat == seat]
    cards_win = sum(e.win for e in events)
    cards_points = sum(e.points for e in events)
    return SeatSummary(seat, len(ds), grades,
                       sum(d.accuracy for d in ds) / len(ds) if ds else None,
                       lost_win, lost_points, mistakes, result_win, result_points,
                       cards_win, cards_points, -lost_win, -lost_points,
                       result_win - cards_win + lost_win,
                       result_points - cards_points + lost_points)


def turning_points(deals: Sequence[DealReview], n: int = TURNING_POINTS
                   ) -> tuple[TurningPoint, ...]:
    """The ``n`` decisions with the largest drop in the chance of winning (none at 0), in
    order of size (ties: the earlier first)."""
    ds = [d for deal in deals for d in deal.decisions if d.drop > 0]
    ds.sort(key=lambda d: (-d.drop, d.number, d.index))
    return tuple(TurningPoint(d) for d in ds[:n])
