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

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ...game import Game
from ...rules import Rules
from ...sheets import HollywoodSheet, PartnershipSheet, ThreePlayerSheet
from ..stakes import DealValue, hollywood_value, partnership_value, three_player_value
from ..value import win_chance_after, win_table

__all__ = ["ScoreContext", "TwoPlayerScore", "FormScore", "score_context"]


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


def score_context(game: Game, players: tuple[int, int], seat: int) -> ScoreContext:
    """The score context of engine seat ``seat`` (0 or 1) of the next deal of ``game``, whose
    seats 0 and 1 are ``players``, from the score sheet as it stands before that deal (call it
    before the deal's result is entered).

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
    return TwoPlayerScore(rules, game.progress(me), game.progress(opp))
