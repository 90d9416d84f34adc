"""Review my game (issue 20): every decision of a finished deal graded by the ``expert``
player's search from what the deciding seat could see, an accuracy, the turning points, and
luck apart from skill.

The layers, each in its own module:

* :mod:`~ginrummy.bots.review.score`: what a deal's points are worth toward winning, per seat
  (:class:`ScoreContext`; :class:`TwoPlayerScore` for a two-player game, :class:`FormScore`
  for Hollywood, three players and partnership);
* :mod:`~ginrummy.bots.review.position`: every legal move of one view valued in the same
  sampled worlds, seeded from the revealed salt and the view only;
* :mod:`~ginrummy.bots.review.grades`, :mod:`~ginrummy.bots.review.notes`,
  :mod:`~ginrummy.bots.review.decision`: the grade, the facts behind it, the graded decision;
* :mod:`~ginrummy.bots.review.confirm`: a decision the search grades a mistake or a blunder
  measured again by play-outs with a judge at both seats (:attr:`ReviewBudget.confirm`);
* :mod:`~ginrummy.bots.review.luck`: what the cards brought against average cards;
* :mod:`~ginrummy.bots.review.deal`: one finished deal (:class:`DealInput`, the per-deal
  interface every form plugs into), :func:`review_deal`;
* :mod:`~ginrummy.bots.review.records`: records of every form read into deals;
* :mod:`~ginrummy.bots.review.summary`: per seat and per game;
* :mod:`~ginrummy.bots.review.model`: the results and their JSON.

"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ..expert import ExpertBot
from .confirm import CONFIRMED_GRADES, JUDGES, confirm_decision, playout_drops
from .deal import DealInput, grade_moves, position_at, review_deal
from .grades import ACCURACY_SCALE, GRADES, THRESHOLDS, Z_MIN, accuracy_of, grade_of
from .model import (
    Confirmation,
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
from .records import FORMS, GameToReview, ReviewError, read_record
from .score import FormScore, ScoreContext, TwoPlayerScore, score_context
from .summary import summarize_seat, turning_points

__all__ = ["review_record", "review_game", "review_deal", "read_record", "DealInput",
           "FORMS", "grade_moves", "position_at",
           "GameToReview", "ReviewBudget", "DEFAULT_BUDGET", "ReviewError", "ScoreContext",
           "TwoPlayerScore", "FormScore", "score_context",
           "GameReview", "DealReview", "Decision", "LuckEvent", "MoveValue", "Note",
           "SeatSummary", "TurningPoint", "PositionValues", "evaluate_position",
           "decision_seed", "Confirmation", "CONFIRMED_GRADES", "JUDGES", "confirm_decision",
           "playout_drops", "GRADES", "THRESHOLDS", "Z_MIN", "ACCURACY_SCALE", "grade_of",
           "accuracy_of", "summarize_seat", "turning_points"]


def review_game(game: GameToReview, seats: Collection[int] = (0, 1),
                hands: Collection[int] | None = None,
                budget: ReviewBudget = DEFAULT_BUDGET,
                progress: Callable[[int, int], None] | None = None) -> GameReview:
    """Review the deals of ``game`` (numbers in ``hands``; None: all) for ``seats``: players
    0..n-1 of the table (two players: the seats 0 and 1), each in the deals it played.

    ``progress(done, total)``, if given, is called as the review goes: the actions of the deals
    reviewed gone through so far, out of all of them (``(0, total)`` first).

    :raises ReviewError: a deal number the game does not hold (finished), or a seat that is
        not a player of the table.
    """
    n = game.players
    if not seats or any(isinstance(s, bool) or s not in range(n) for s in seats):
        raise ReviewError(f"seats must be players 0..{n - 1} of this table, not "
                          f"{sorted(seats)!r}")
    numbers = [d.number for d in game.deals]
    if hands is not None:
        missing = sorted(set(hands) - set(numbers))
        if missing:
            have = f"1..{numbers[-1]}" if numbers else "none"
            raise ReviewError(f"no finished hand {missing[0]} in this record (finished: {have})")
    bot = ExpertBot()
    chosen = [d for d in game.deals
              if (hands is None or d.number in hands) and any(p in d.players for p in seats)]
    total = sum(len(d.actions) for d in chosen)
    done = 0
    reviewed = []
    if progress is not None:
        progress(0, total)
    for d in chosen:
        reviewed.append(review_deal(
            d, [d.players.index(p) for p in sorted(seats) if p in d.players], budget, bot,
            None if progress is None else _steps(progress, done, total)))
        done += len(d.actions)
    deals = tuple(reviewed)
    return GameReview(game.scoring, game.rules_json, deals,
                      tuple(summarize_seat(deals, s) for s in sorted(seats)),
                      turning_points(deals), game.complete and hands is None,
                      _search(budget), game.ratings)


def _search(budget: ReviewBudget) -> dict[str, object]:
    """How the review searched: ``{"worlds"}``, with ``"confirm"`` and ``"judge"`` when it
    confirmed the search's mistakes by play-outs."""
    if budget.confirm == 0:
        return {"worlds": budget.worlds}
    return {"worlds": budget.worlds, "confirm": budget.confirm, "judge": budget.judge}


def _steps(progress: Callable[[int, int], None], before: int, total: int
           ) -> Callable[[int], None]:
    """A deal's ``on_step`` reporting to ``progress`` the actions of the deals before it
    (``before``) plus its own."""
    return lambda n: progress(before + n, total)


def review_record(record: object, seats: Collection[int] = (0, 1),
                  hands: Collection[int] | None = None,
                  budget: ReviewBudget = DEFAULT_BUDGET,
                  progress: Callable[[int, int], None] | None = None,
                  ratings: Sequence[float | None] | None = None) -> GameReview:
    """:func:`read_record` (with the players' ``ratings``, if given) then
    :func:`review_game`. :raises ReviewError: as they do."""
    return review_game(read_record(record, ratings), seats, hands, budget, progress)
