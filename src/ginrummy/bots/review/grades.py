"""Grades and accuracy: how much a decision gave away, in words and as a percentage.

A decision's **drop** is the chance of winning the game (0..1) after the best move minus that
after the move played, both from the seat's view at that moment
(:mod:`ginrummy.bots.review.position`). The grade is set by thresholds on the drop
(:data:`THRESHOLDS`), and only when the search is sure of it: a drop under :data:`Z_MIN`
standard errors of its own estimate (paired over the sampled worlds) is "good" whatever its
size, so that noise is never called a mistake.

Why these thresholds: lichess grades a chess move by the drop in winning chances on a -1..1
scale, 0.1 / 0.2 / 0.3 for an inaccuracy / mistake / blunder, that is 5 / 10 / 15 points of
percentage of winning; chess.com's "expected points" uses 0.05 / 0.10 / 0.20 of a game. A chess
game turns on a few moves; a 100-point gin game is five or more deals of some twenty decisions
each, and one deal at 0-0 moves the chance of winning the game by about 12 points of percentage
when it is worth 25 points (:func:`ginrummy.bots.value.win_table`). The same "share of a
turning point" in gin is therefore about a fifth of chess's: 1 / 2.5 / 5 points of percentage
here (about 2, 5 and 10 hand points at 0-0). benchmarks/results/review-*.md shows how often each
grade comes at each level and how often a graded mistake is confirmed by playing it out.

**Accuracy** follows lichess's per-move formula (103.1668 e^(-0.04354 x) - 3.1669, clipped to
0..100, x the drop in points of percentage), with x scaled by :data:`ACCURACY_SCALE` = 4 so that
a gin mistake (2.5 points) costs what a chess mistake (10 points) costs: about 64%. A game's (or
a deal's) accuracy is the mean of its graded decisions' accuracies.
"""

from __future__ import annotations

import math
from typing import Final

__all__ = ["GRADES", "THRESHOLDS", "Z_MIN", "ACCURACY_SCALE", "grade_of", "accuracy_of"]

#: the grades, best first.
GRADES: Final = ("best", "good", "inaccuracy", "mistake", "blunder")
#: the least drop (chance of winning the game, 0..1) of each grade below "good".
THRESHOLDS: Final = {"inaccuracy": 0.01, "mistake": 0.025, "blunder": 0.05}
#: a drop is graded only when it is at least this many standard errors (paired) above zero.
Z_MIN: Final = 2.0
#: the drop is multiplied by this before lichess's accuracy formula (see the module docstring).
ACCURACY_SCALE: Final = 4.0


def grade_of(is_best: bool, drop: float, z: float) -> str:
    """The grade of a decision: ``best`` when the move played is the search's best; else by
    ``drop`` (0..1) on :data:`THRESHOLDS`, ``good`` below them or when ``z`` < :data:`Z_MIN`.

    >>> grade_of(False, 0.03, 5.0), grade_of(False, 0.03, 1.0), grade_of(True, 0.0, 0.0)
    ('mistake', 'good', 'best')
    """
    if is_best:
        return "best"
    if z < Z_MIN:
        return "good"
    grade = "good"
    for name, least in THRESHOLDS.items():
        if drop >= least:
            grade = name
    return grade


def accuracy_of(drop: float) -> float:
    """The accuracy (0..100) of one decision from its ``drop`` (0..1); see the module docstring.

    >>> round(accuracy_of(0.0), 1), round(accuracy_of(0.025), 1), round(accuracy_of(0.05), 1)
    (100.0, 63.6, 40.0)
    """
    if drop <= 0.0:
        return 100.0  # the formula's constants give 99.9999 at 0
    x = drop * 100.0 * ACCURACY_SCALE
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * x) - 3.1669))
