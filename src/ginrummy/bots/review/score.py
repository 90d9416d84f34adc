"""Score contexts: what a deal's points are worth toward winning the game, for one seat.

The review grades a decision by the chance of winning the *game* (or the match) after it, so it
needs, for the seat reviewed, a map from the deal's signed points (+: the seat scores them, -:
its opponent does, 0: a dead hand or a tie) to that chance. Everything that differs between the
forms of the game (a two-player game to the target; later Hollywood's three games, three
players, a partnership's two tables) lives behind this one interface, :class:`ScoreContext`;
the evaluator (:mod:`ginrummy.bots.review.position`) never looks at a score sheet.

:class:`TwoPlayerScore` is the two-player game of RULES.md section 8 (standard, pagat, eaai,
Oklahoma, straight presets): the chance comes from :func:`ginrummy.bots.value.win_table`, the
same table the ``expert`` player values its searches with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ...rules import Rules
from ..value import win_chance_after, win_table

__all__ = ["ScoreContext", "TwoPlayerScore"]


class ScoreContext(Protocol):
    """The seat's chance of winning the game as a function of one deal's points."""

    def win_chance(self, points: np.ndarray) -> np.ndarray:
        """The chance (0..1, float64, the shape of ``points``) that the seat wins the game
        (match) after the deal ends with ``points`` (signed hand points from the seat's side,
        ints). ``win_chance(np.zeros(1))`` is the chance before the deal (a dead hand changes
        no score, R-8.1)."""
        ...


@dataclass(frozen=True, slots=True)
class TwoPlayerScore:
    """A two-player game to ``target`` (R-10.1): ``mine`` and ``theirs`` are the hand points of
    the seat reviewed and of its opponent before the deal (those that count toward the target;
    box bonuses do not, R-10.1).

    >>> s = TwoPlayerScore(Rules.preset("standard"), 0, 0)
    >>> [round(float(x), 2) for x in s.win_chance(np.array([0, 25, -25]))]
    [0.5, 0.62, 0.38]
    """

    rules: Rules
    mine: int
    theirs: int
    target: int | None = None

    def win_chance(self, points: np.ndarray) -> np.ndarray:
        target = self.target if self.target is not None else self.rules.target
        table = win_table(self.rules, target)
        return win_chance_after(table, target, self.mine, self.theirs,
                                np.asarray(points, dtype=np.int64))
