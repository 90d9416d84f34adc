"""Score contexts: what a deal's points are worth toward winning the game (the match), for one
seat.

The review grades a decision by the chance of winning the *game* (or the match) after it, so it
needs, for the seat reviewed, a map from the deal's signed points (+: the seat scores them, -:
its opponent does, 0: a dead hand or a tie) to that chance. Everything that differs between the
forms of the game (a two-player game to the target; later Hollywood's three games, three
players, a partnership's two tables) lives behind this one interface, :class:`ScoreContext`;
the evaluator (:mod:`ginrummy.bots.review.position`) never looks at a score sheet.

:class:`TwoPlayerScore` is the two-player game of RULES.md section 8 (standard, pagat, eaai,
Oklahoma, straight presets): the chance comes from :func:`ginrummy.bots.value.win_table`, the
same table the ``expert`` player values its searches with. :class:`FormScore` is Hollywood, three
players and partnership, valued by the ``expert``'s form value (:mod:`ginrummy.bots.stakes`):
:func:`score_context` builds a seat's context from the game's score sheet before the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ...game import Game
from ...rules import Rules
from ...sheets import HollywoodSheet, PartnershipSheet, ThreePlayerSheet
from ..stakes import DealValue, hollywood_value, partnership_value, three_player_value
from ..value import deal_share, win_chance_after, win_table

__all__ = ["ScoreContext", "TwoPlayerScore", "FormScore", "score_context"]


class ScoreContext(Protocol):
    """The seat's chance of winning the game as a function of one deal's points."""

    def win_chance(self, points: np.ndarray) -> np.ndarray:
        """The chance (0..1, float64, the shape of ``points``) that the seat wins the game
        (match) after the deal ends with ``points`` (signed hand points from the seat's side,
        ints). ``win_chance(np.zeros(1))`` is the chance before the deal (a dead hand changes
        no score, R-8.1)."""
        ...

    def chance_values(self, points: np.ndarray) -> np.ndarray:
        """The chances of winning counting who plays (float64, the shape of ``points``: moves
        x sampled worlds, the deal points of each move played out in each world), whose mean
        over the worlds (the last axis) is the seat's chance after each move against this
        opponent; the same as :meth:`win_chance` when the players are valued as equals."""
        ...


@dataclass(frozen=True, slots=True)
class TwoPlayerScore:
    """A two-player game to ``target`` (R-10.1): ``mine`` and ``theirs`` are the hand points of
    the seat reviewed and of its opponent before the deal (those that count toward the target;
    box bonuses do not, R-10.1); ``share`` the chance that the seat wins each scored deal
    (0.5: players of equal strength; from their ratings, :func:`score_context`), which only
    :meth:`chance_values` counts: :meth:`win_chance`, what decisions are graded by, values
    the players as equals.

    >>> s = TwoPlayerScore(Rules.preset("standard"), 0, 0)
    >>> [round(float(x), 2) for x in s.win_chance(np.array([0, 25, -25]))]
    [0.5, 0.62, 0.38]
    """

    rules: Rules
    mine: int
    theirs: int
    target: int | None = None
    share: float = 0.5

    def win_chance(self, points: np.ndarray) -> np.ndarray:
        return self._chance(points, 0.5)

    def _chance(self, points: np.ndarray, share: float) -> np.ndarray:
        target = self.target if self.target is not None else self.rules.target
        table = win_table(self.rules, target, share)
        return win_chance_after(table, target, self.mine, self.theirs,
                                np.asarray(points, dtype=np.int64))

    def chance_values(self, points: np.ndarray) -> np.ndarray:
        """The chance of winning of each world counting who plays: the later deals won with
        ``share`` (:func:`~ginrummy.bots.value.win_table`), and the deal itself tilted toward
        the stronger player: the sampled worlds are played out with both
        seats at the same strength, so the odds that the seat wins this deal are multiplied by
        ``share / (1 - share)`` (a world the seat wins weighs ``share``, one it loses ``1 -
        share``, a dead hand 0.5; each move's worlds reweighted to a mean weight of 1). A deal
        whose winner is already settled is not moved; one still open moves toward the share of
        deals the players' strengths give (docs/review.md "Who is playing").

        >>> s = TwoPlayerScore(Rules.preset("standard"), 0, 0, share=0.6)
        >>> v = s.chance_values(np.array([[25, -25]]))
        >>> round(float(v.mean()), 4) == round(0.6 * float(s._chance(np.array([25]), 0.6)[0])
        ...     + 0.4 * float(s._chance(np.array([-25]), 0.6)[0]), 4)
        True
        """
        pts = np.asarray(points, dtype=np.int64)
        win = self._chance(pts, self.share)
        if self.share == 0.5:
            return win
        weight = np.where(pts > 0, self.share, np.where(pts < 0, 1.0 - self.share, 0.5))
        return np.asarray(win * (weight / weight.mean(axis=-1, keepdims=True)),
                          dtype=np.float64)


@dataclass(frozen=True, slots=True)
class FormScore:
    """Hollywood (H), three players (3P) or partnership (4P): the chance that the seat wins the
    match (H), the race (3P) or with its team (4P), from ``value``, the form's value of the
    deal for it (:mod:`ginrummy.bots.stakes`, as the ``expert`` plays these forms); ``form``
    names the scoring."""

    form: str
    value: DealValue

    def win_chance(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, dtype=np.int64)
        return np.asarray(self.value(pts), dtype=np.float64).reshape(pts.shape)

    def chance_values(self, points: np.ndarray) -> np.ndarray:
        """:meth:`win_chance` of each world (the players valued as equals)."""
        return self.win_chance(points)


def score_context(game: Game, players: tuple[int, int], seat: int,
                  ratings: Sequence[float | None] | None = None) -> ScoreContext:
    """The score context of engine seat ``seat`` (0 or 1) of the next deal of ``game``, whose
    seats 0 and 1 are ``players``, from the score sheet as it stands before that deal (call it
    before the deal's result is entered).

    ``ratings`` (optional, one per player of the table, None where unknown) are the players'
    strengths on the computer levels' scale (``bots/ratings.json``: Elo points, one result per
    100-point game). In a two-player game with both known, the later deals are won by the seat
    with :func:`~ginrummy.bots.value.deal_share` of the gap; otherwise, and in the other forms
    (whose values rest on two-player ratings they were not fitted for), they are even.

    - standard (two players, R-10.1): :class:`TwoPlayerScore` of both seats' hand points.
    - Hollywood (H): the match after the deal's points are entered in every open game
      (:func:`~ginrummy.bots.stakes.hollywood_value`; seat = player).
    - three players (3P): the race against both others, the third player sitting out
      (:func:`~ginrummy.bots.stakes.three_player_value`).
    - partnership (4P): the team's race, the other table's deal of the same hand counted as a
      distribution of results (:func:`~ginrummy.bots.stakes.partnership_value` with ``other``
      None): what a player at this table knows at its first decision.

    :raises ValueError: ``seat`` not 0 or 1.
    """
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    me, opp = players[seat], players[1 - seat]
    sheet = game.sheet
    rules = game.rules
    if isinstance(sheet, HollywoodSheet):
        games = tuple(((g.hand_points[0], g.hand_points[1]), (g.entries[0], g.entries[1]),
                       (g.boxes[0], g.boxes[1]), g.closed_at, g.winner) for g in sheet.games)
        return FormScore("hollywood", hollywood_value(rules, games, me))
    if isinstance(sheet, ThreePlayerSheet):
        (sitter,) = (p for p in range(3) if p not in players)
        return FormScore("three_player", three_player_value(
            rules, sheet.progress(me), sheet.progress(opp), sheet.progress(sitter)))
    if isinstance(sheet, PartnershipSheet):
        return FormScore("partnership", partnership_value(
            rules, sheet.progress(me), sheet.progress(opp), None))
    share = 0.5
    if ratings is not None:
        mine, theirs = ratings[me], ratings[opp]
        if mine is not None and theirs is not None:
            share = deal_share(mine - theirs)
    return TwoPlayerScore(rules, game.progress(me), game.progress(opp), share=share)
