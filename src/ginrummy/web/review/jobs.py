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

from ...bots.review import ReviewBudget, grade_moves, read_record, review_record
from ..http.encoding import dumps as _bytes

__all__ = ["review_job", "exercise_job", "dumps"]


def dumps(value: Any) -> str:
    """Compact JSON text (as stored and answered; :func:`ginrummy.web.http.encoding.dumps`)."""
    return _bytes(value).decode("utf-8")


def review_job(record: dict[str, Any], hands: list[int] | None, worlds: int,
               report: Callable[[int, int], None]) -> str:
    """The review of the finished deals ``hands`` of ``record`` (None: every one), both seats,
    at ``worlds`` sampled worlds per decision: ``GameReview.to_json()`` as text."""
    review = review_record(record, (0, 1), None if hands is None else set(hands),
                           ReviewBudget(worlds), report)
    return dumps(review.to_json())


def exercise_job(record: dict[str, Any], hand: int, index: int, worlds: int,
                 report: Callable[[int, int], None]) -> str:
    """Every move of the decision before action ``index`` of deal ``hand`` graded
    (:func:`~ginrummy.bots.review.grade_moves`): ``{"moves": [decision, ...]}`` as text, each
    decision in the review's shape with ``played`` the move tried."""
    report(0, 1)
    deal = read_record(record).deals[hand - 1]
    graded = grade_moves(deal, index, ReviewBudget(worlds))
    report(1, 1)
    return dumps({"moves": [d.to_json() for d in graded]})
