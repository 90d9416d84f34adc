"""Review my game (issue 20): every decision of a finished deal graded by the ``expert``
player's search from what the deciding seat could see, an accuracy, the turning points, and
luck apart from skill.

The layers, each in its own module:

* :mod:`~ginrummy.bots.review.score`: what a deal's points are worth toward winning, per seat
  (:class:`ScoreContext`; :class:`TwoPlayerScore` for a two-player game);
* :mod:`~ginrummy.bots.review.position`: every legal move of one view valued in the same
  sampled worlds, seeded from the revealed salt and the view only;
* :mod:`~ginrummy.bots.review.grades`, :mod:`~ginrummy.bots.review.notes`,
  :mod:`~ginrummy.bots.review.decision`: the grade, the facts behind it, the graded decision;
* :mod:`~ginrummy.bots.review.luck`: what the cards brought against average cards;
* :mod:`~ginrummy.bots.review.deal`: one finished deal (:class:`DealInput`, the per-deal
  interface every form plugs into), :func:`review_deal`;
* :mod:`~ginrummy.bots.review.records`: records read into deals (two players now);
* :mod:`~ginrummy.bots.review.summary`: per seat and per game;
* :mod:`~ginrummy.bots.review.model`: the results and their JSON.

"""

from __future__ import annotations

from collections.abc import Collection

from ..expert import ExpertBot
from .deal import DealInput, review_deal
from .grades import ACCURACY_SCALE, GRADES, THRESHOLDS, Z_MIN, accuracy_of, grade_of
from .model import (
    DealReview,
    Decision,
    GameReview,
    LuckEvent,
    MoveValue,
    Note,
    SeatSummary,
    TurningPoint,
)
from .position import (
    DEFAULT_BUDGET,
    PositionValues,
    ReviewBudget,
    decision_seed,
    evaluate_position,
)
from .records import GameToReview, ReviewError, read_record
from .score import ScoreContext, TwoPlayerScore
from .summary import summarize_seat, turning_points

__all__ = ["review_record", "review_game", "review_deal", "read_record", "DealInput",
           "GameToReview", "ReviewBudget", "DEFAULT_BUDGET", "ReviewError", "ScoreContext",
           "TwoPlayerScore",
           "GameReview", "DealReview", "Decision", "LuckEvent", "MoveValue", "Note",
           "SeatSummary", "TurningPoint", "PositionValues", "evaluate_position",
           "decision_seed", "GRADES", "THRESHOLDS", "Z_MIN", "ACCURACY_SCALE", "grade_of",
           "accuracy_of", "summarize_seat", "turning_points"]


def review_game(game: GameToReview, seats: Collection[int] = (0, 1),
                hands: Collection[int] | None = None,
                budget: ReviewBudget = DEFAULT_BUDGET) -> GameReview:
    """Review the deals of ``game`` (numbers in ``hands``; None: all) for ``seats``.

    :raises ReviewError: a deal number the game does not hold (finished), or a seat not 0/1.
    """
    if not seats or any(s not in (0, 1) for s in seats):
        raise ReviewError(f"seats must be 0 and/or 1, not {sorted(seats)!r}")
    numbers = [d.number for d in game.deals]
    if hands is not None:
        missing = sorted(set(hands) - set(numbers))
        if missing:
            have = f"1..{numbers[-1]}" if numbers else "none"
            raise ReviewError(f"no finished hand {missing[0]} in this record (finished: {have})")
    bot = ExpertBot()
    deals = tuple(review_deal(d, seats, budget, bot) for d in game.deals
                  if hands is None or d.number in hands)
    return GameReview(game.scoring, game.rules_json, deals,
                      tuple(summarize_seat(deals, s) for s in sorted(seats)),
                      turning_points(deals), game.complete and hands is None,
                      {"worlds": budget.worlds})


def review_record(record: object, seats: Collection[int] = (0, 1),
                  hands: Collection[int] | None = None,
                  budget: ReviewBudget = DEFAULT_BUDGET) -> GameReview:
    """:func:`read_record` then :func:`review_game`. :raises ReviewError: as they do."""
    return review_game(read_record(record), seats, hands, budget)
