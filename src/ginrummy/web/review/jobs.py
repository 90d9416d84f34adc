"""The jobs the review pool runs (:mod:`ginrummy.web.review.pool`), each a plain function of
picklable arguments that a worker process can import: the evaluator of
:mod:`ginrummy.bots.review` called on a game's fairness record (``GET /api/games/{id}/record``),
its answer as JSON text, ready to store. Each takes a last argument ``report(done, total)``.

Deterministic (the evaluator's search is seeded from each deal's revealed salt and the seat's
view): the same record and budget give the same text in any process, on any machine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...bots.review import (
    DealInput,
    GameToReview,
    ReviewBudget,
    grade_moves,
    read_record,
    review_game,
)
from ..http.encoding import dumps as _bytes

__all__ = ["review_job", "exercise_job", "dumps", "deal_of", "reviewed_players"]


def dumps(value: Any) -> str:
    """Compact JSON text (as stored and answered; :func:`ginrummy.web.http.encoding.dumps`)."""
    return _bytes(value).decode("utf-8")


def deal_of(game: GameToReview, number: int) -> DealInput:
    """Finished deal ``number`` of ``game`` (a partnership's deals are numbered across both
    tables, and one table's deal may be over while the other's is in play: found by its
    number, not its place).

    :raises LookupError: the game has no finished deal ``number``."""
    for d in game.deals:
        if d.number == number:
            return d
    raise LookupError(f"no finished deal {number}")


def reviewed_players(game: GameToReview, hands: list[int] | None) -> tuple[int, ...]:
    """The players a review of the deals ``hands`` (None: every one) of ``game`` covers: those
    who played one of them (three players: not the one who sat a hand out; a partnership hand:
    the two of its table), every player of the table when there is none (a game given up
    before its first deal ended)."""
    played = {p for d in game.deals if hands is None or d.number in hands for p in d.players}
    return tuple(sorted(played)) or tuple(range(game.players))


def review_job(record: dict[str, Any], hands: list[int] | None,
               ratings: tuple[float | None, ...] | None, worlds: int, confirm: int,
               judge: str, report: Callable[[int, int], None]) -> str:
    """The review of the finished deals ``hands`` of ``record`` (None: every one), every
    player who played them (:func:`reviewed_players`; any form: two players, Hollywood, three
    players, partnership), its chances valued with the players' ``ratings`` (None: as even;
    :func:`~ginrummy.bots.review.read_record`), at ``worlds`` sampled worlds per decision, the
    search's mistakes and blunders graded again on ``confirm`` play-outs by ``judge`` (0:
    none; :class:`~ginrummy.bots.review.ReviewBudget`): ``GameReview.to_json()`` as text."""
    game = read_record(record, ratings)
    review = review_game(game, reviewed_players(game, hands),
                         None if hands is None else set(hands),
                         ReviewBudget(worlds, confirm, judge), report)
    return dumps(review.to_json())


def exercise_job(record: dict[str, Any], hand: int, index: int,
                 ratings: tuple[float | None, ...] | None, worlds: int, confirm: int,
                 judge: str, report: Callable[[int, int], None]) -> str:
    """Every move of the decision before action ``index`` of deal ``hand`` graded
    (:func:`~ginrummy.bots.review.grade_moves`), valued with ``ratings`` and searched as
    :func:`review_job`: ``{"moves": [decision, ...]}`` as text, each decision in the review's
    shape with ``played`` the move tried."""
    report(0, 1)
    deal = deal_of(read_record(record, ratings), hand)
    graded = grade_moves(deal, index, ReviewBudget(worlds, confirm, judge))
    report(1, 1)
    return dumps({"moves": [d.to_json() for d in graded]})
